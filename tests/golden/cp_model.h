/* Tessera control-path golden model: the queue manager's packet execution and
 * the Sync Manager (objects and monitors).
 *
 * This is the reference the RTL block tests compare against. The packet
 * encoding and the buffer builder are in bsp/include/tessera/cp_pkt.h (shared
 * with the firmware and hostlink, specified in docs/packets.md); the Sync
 * Manager semantics are in docs/control_path.md.
 * Plain C99, no dependencies besides the generated register headers.
 */
#ifndef TESSERA_CP_MODEL_H
#define TESSERA_CP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "tessera/cp_pkt.h" /* the packet encoding and buffer builder */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ queue model */
typedef struct {
  uint32_t cb_base, cb_size;
  uint32_t mem_base, mem_size;     /* device memory range */
  uint32_t win_limit;              /* WIN_LIMIT */
  uint32_t sob_set_base, sob_add_base;
  uint32_t num_sobs;
  uint32_t comp_addr, comp_data;
  int comp_en, dma;
  uint32_t ldma_off;
} cp_qcfg_t;

enum cp_ev_kind { CP_EV_REG = 1, CP_EV_MSG = 2 };
typedef struct {
  int kind;          /* CP_EV_REG: engine register write (a = offset, b = value)
                        CP_EV_MSG: message (a = address, b = data) */
  uint32_t a, b;
  uint32_t pc;       /* address of the packet that produced it */
  uint32_t flags;    /* that packet's CP_HDR_EB / CP_HDR_MB bits */
} cp_event_t;

enum cp_qstate { CP_Q_IDLE = 0, CP_Q_RUN, CP_Q_BLOCKED, CP_Q_DONE, CP_Q_ERROR };

typedef struct {
  int state;
  uint32_t pc;                 /* address of the current packet */
  uint32_t err;                /* cp_err */
  uint32_t opcode;             /* opcode of the current/last packet */
  uint32_t fence[CP_FENCES];   /* 16-bit counters */
  uint32_t pkts;               /* packets completed since the doorbell */
  uint32_t waits;              /* total WAIT cycles requested */
  long nreg;                   /* engine register writes since the doorbell */
} cp_queue_t;

/* Memory read used to fetch the command buffer: return 0 and *val, or
 * non-zero for a bus error. */
typedef int (*cp_read32_fn)(void *ctx, uint32_t addr, uint32_t *val);
/* Event sink (engine register write or message), called in program order. */
typedef void (*cp_event_fn)(void *ctx, const cp_event_t *ev);

void cp_q_reset(cp_queue_t *q);
/* Doorbell: checks the buffer range, sets PC = cb_base, state RUN or ERROR. */
void cp_q_start(cp_queue_t *q, const cp_qcfg_t *c);
/* Execute until DONE, ERROR or BLOCKED (FENCE not satisfied). Returns the state.
 * Register writes answered with an error are modelled by apb_err_at: the
 * 0-based index (counted from the doorbell) of the register write that fails,
 * or -1 for none. */
int cp_q_run(cp_queue_t *q, const cp_qcfg_t *c, cp_read32_fn rd, void *rd_ctx,
             cp_event_fn ev, void *ev_ctx, long apb_err_at);
/* A message write to fence counter id (adds, mod 2^16). */
void cp_q_fence_add(cp_queue_t *q, uint32_t id, uint32_t val);
/* The fence of a BLOCKED queue timed out: the queue stops with FENCE_TIMEOUT. */
void cp_q_fence_timeout(cp_queue_t *q);

/* ------------------------------------------------------------ Sync Manager */
#define CP_SM_MAX_SOBS 1024u
#define CP_SM_MAX_MONS 256u

/* ARM word fields */
#define CP_ARM_TARGET(w) ((w) & 0x7FFFu)
#define CP_ARM_EQ(w)     (((w) >> 15) & 1u)
#define CP_ARM_MASK(w)   (((w) >> 16) & 0xFFu)
#define CP_ARM_NPAY(w)   ((((w) >> 24) & 3u) + 1u)
#define CP_ARM_GROUP(w)  (((w) >> 26) & 0x3Fu)
static inline uint32_t cp_arm_word(uint32_t group, uint32_t mask, uint32_t target, int eq, uint32_t npay) {
  return (target & 0x7FFFu) | ((eq ? 1u : 0u) << 15) | ((mask & 0xFFu) << 16) |
         (((npay - 1u) & 3u) << 24) | ((group & 0x3Fu) << 26);
}
/* Monitor table layout (entries of 32 bits within a 16-entry slot). */
#define CP_MON_SLOT_WORDS 16u
#define CP_MON_ARM_WORD   8u

enum cp_sm_err { CP_SM_ERR_NONE = 0, CP_SM_ERR_BAD_GROUP = 1, CP_SM_ERR_MON_BUSY = 2, CP_SM_ERR_PAYLOAD = 3 };

typedef struct {
  uint32_t arm;          /* ARM word as written */
  uint32_t pay[8];       /* addr0, data0, addr1, data1, ... */
  int armed;
} cp_mon_t;

typedef struct {
  uint32_t nsobs, nmons;
  uint16_t sob[CP_SM_MAX_SOBS];
  cp_mon_t mon[CP_SM_MAX_MONS];
  uint32_t err, err_mon, irq_en;
  uint32_t cnt_updates, cnt_fires, cnt_payloads, cnt_errors;
} cp_sm_t;

/* Payload message sink (address, data). */
typedef void (*cp_msg_fn)(void *ctx, uint32_t addr, uint32_t data, uint32_t mon);

void cp_sm_init(cp_sm_t *s, uint32_t nsobs, uint32_t nmons);
/* Register write/read at a byte offset inside the Sync Manager block (the
 * offsets come from bsp/include/regs/syncmgr_regs.h). Fired monitors'
 * payloads are delivered to msg in firing order (monitors evaluated lowest
 * index first), all before the call returns. Returns 0, or -1 for an
 * offset that answers pslverr. */
int cp_sm_write(cp_sm_t *s, uint32_t off, uint32_t val, cp_msg_fn msg, void *ctx);
int cp_sm_read(const cp_sm_t *s, uint32_t off, uint32_t *val);
/* Does monitor m's condition hold now (ignores armed)? */
int cp_sm_cond(const cp_sm_t *s, uint32_t m);

#ifdef __cplusplus
}
#endif
#endif
