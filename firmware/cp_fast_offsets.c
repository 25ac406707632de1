/* Tessera firmware: the constants of the doorbell fast path (cp_fast.S).
 *
 * Not linked into the firmware: the build compiles this file to assembly with
 * the firmware's own compiler and flags and turns each "->name value" marker
 * into "#define name value" of the generated cp_fast_offsets.h (the way Linux
 * makes asm-offsets.h), so every structure offset, size, address and constant
 * the assembly uses comes from the C headers. The header is regenerated
 * whenever this file or a header it includes changes. */
#include <stddef.h>
#include <stdint.h>

#include "regs/qman_regs.h"
#include "regs/sysctrl_regs.h"
#include "tessera/hostif.h"
#include "tessera/cp_pkt.h"   /* packet encoding (opcodes, header bits, error codes) */
#include "tessera/mmio.h"
#include "cp_fast.h"
#include "cp_state.h"
#include "pktcheck.h"

#define DEFINE(sym, val) __asm__ volatile("\n.ascii \"->" #sym " %0\"" : : "i"((uint32_t)(val)))
#define JOB_OFF(f) ((uint32_t)offsetof(job_t, f))
#define DSC_OFF(f) ((uint32_t)offsetof(hif_job_t, f))

/* What the assembly takes for granted about the layouts and constants below. */
_Static_assert(FW_JOBS == 8u && HIF_NUM_SQ == 4u, "cp_fast_start result fields");
_Static_assert((HIF_SQ_ENTRIES & (HIF_SQ_ENTRIES - 1u)) == 0u, "ring index mask");
_Static_assert(CP_OP_NOP == 0 && HIF_NUM_EQ <= 32u, "cp_fast_start opcodes and masks");
_Static_assert(sizeof(((job_t *)0)->nbuf) == 4u && sizeof(((job_t *)0)->eq[0]) == 1u &&
               sizeof(((job_t *)0)->ncb) == 1u && sizeof(((job_t *)0)->bb[0]) == 4u &&
               sizeof(((job_t *)0)->cb_addr[0]) == 4u && sizeof(((job_t *)0)->eqmask) == 4u,
               "cp_fast_start job field widths");
_Static_assert(sizeof(((hif_job_t *)0)->buf[0]) == 8u, "cp_fast_start buffer entries are 8 bytes");
_Static_assert(offsetof(hif_job_t, cb[0].addr) - offsetof(hif_job_t, cb[0].eq) == 4u &&
               offsetof(hif_job_t, cb[0].size) - offsetof(hif_job_t, cb[0].eq) == 8u,
               "cp_fast_start command buffer entry layout");
_Static_assert(SOB_ADD_ADDR(SOB_DONE(1)) - SOB_ADD_ADDR(SOB_DONE(0)) == 4u, "DONE objects are consecutive");

void cp_fast_offsets(void);
void cp_fast_offsets(void)
{
    /* the host-interface block and the job descriptors (hostif.h) */
    DEFINE(fs_PI, HIF_OFF(sq_pi));
    DEFINE(fs_CIPI, HIF_OFF(sq_ci) - HIF_OFF(sq_pi));
    DEFINE(fs_SQ, HIF_OFF(sq));
    DEFINE(fs_TFSA, HIF_OFF(cnt.t_first_start));
    DEFINE(fs_SQE, HIF_SQ_ENTRIES);
    DEFINE(fs_NSQ, HIF_NUM_SQ);
    DEFINE(fs_DSZ, sizeof(hif_job_t));
    DEFINE(fs_DSEQ, DSC_OFF(seq));
    DEFINE(fs_DRSVD, DSC_OFF(rsvd0));
    DEFINE(fs_DCTRL, DSC_OFF(ctrl));
    DEFINE(fs_DBUF, DSC_OFF(buf));
    DEFINE(fs_DCB, DSC_OFF(cb));
    DEFINE(fs_CBSZ, sizeof(((hif_job_t *)0)->cb[0]));
    DEFINE(fs_CRSVD, HIF_JOB_RSVD_MASK | (0xFu << HIF_JOB_NDEP_BP));   /* reserved bits, or a dependency */
    DEFINE(fs_NCBBP, HIF_JOB_NCB_BP);
    DEFINE(fs_NBUFBP, HIF_JOB_NBUF_BP);
    DEFINE(fs_MAXCB, HIF_MAX_CBS);
    DEFINE(fs_MAXBUF, HIF_MAX_BUFS);
    DEFINE(fs_NEQ, HIF_NUM_EQ);
    /* the job slot (cp_state.h) */
    DEFINE(fs_JSZ, sizeof(job_t));
    DEFINE(fs_JNBUF, JOB_OFF(nbuf));
    DEFINE(fs_JBB, JOB_OFF(bb));
    DEFINE(fs_BEBB, JOB_OFF(be) - JOB_OFF(bb));
    DEFINE(fs_JEQ, JOB_OFF(eq));
    DEFINE(fs_JCBA, JOB_OFF(cb_addr));
    DEFINE(fs_JCBS, JOB_OFF(cb_size));
    DEFINE(fs_JNCB, JOB_OFF(ncb));
    DEFINE(fs_JEQM, JOB_OFF(eqmask));
    DEFINE(fs_NJOBS, FW_JOBS);
    /* device memory, packets and the packet check (tessera/cp_pkt.h, pktcheck.h) */
    DEFINE(fs_HBMB, TESSERA_HBM_BASE);
    DEFINE(fs_HBMS, TESSERA_HBM_SIZE);
    DEFINE(fs_CBMAX, CB_CHECK_MAX);
    DEFINE(fs_HMASK, 0xFFu | CP_HDR_RSVD_MASK);
    DEFINE(fs_OSTOP, CP_OP_STOP);
    DEFINE(fs_OLIN, CP_OP_LIN_DMA);
    DEFINE(fs_OWAIT, CP_OP_WAIT);
    DEFINE(fs_OFENCE, CP_OP_FENCE);
    DEFINE(fs_OSHORT, CP_OP_MSG_SHORT);
    DEFINE(fs_NFENCE, CP_FENCES);
    DEFINE(fs_FWSOB, FW_SOB_BASE);
    /* registers: the bridge's read buffer, the queues, the Sync Manager, mtime */
    DEFINE(fs_SYSBUS, TESSERA_SYSCTRL_BASE + offsetof(sysctrl_t, SYSBUS_CTRL));
    DEFINE(fs_RDBUF, SYSCTRL__SYSBUS_CTRL__RDBUF_bm);
    DEFINE(fs_COMP0, SOB_ADD_ADDR(SOB_DONE(0)));
    DEFINE(fs_QSTRIDE, TESSERA_QMAN_STRIDE);
    DEFINE(fs_QBASE, TESSERA_QMAN_BASE);
    DEFINE(fs_QCBB, offsetof(qman_t, CB_BASE));
    DEFINE(fs_QCBS, offsetof(qman_t, CB_SIZE));
    DEFINE(fs_QCOMP, offsetof(qman_t, COMP_ADDR));
    DEFINE(fs_QCTRL, offsetof(qman_t, CTRL));
    DEFINE(fs_QSTART, QMAN__CTRL__START_bm);
    DEFINE(fs_MTIME, TESSERA_CLINT_BASE + offsetof(clint_t, MTIME_LO));
    /* the result word (cp_fast.h) */
    DEFINE(fs_FTAKEN, FAST_TAKEN);
    DEFINE(fs_FMEM, FAST_MEM);
}
