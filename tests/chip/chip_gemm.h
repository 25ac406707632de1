/* GEMM jobs on the chip's MMEs, shared by the `mme` and `l2` chip suites
 * (implemented in tests/chip/mme.c). */
#ifndef CHIP_GEMM_H
#define CHIP_GEMM_H

#include <stdint.h>

#include "mme_golden.h"
#include "numfmt.h"
#include "regs/mme_regs.h"
#include "regs/sysctrl_regs.h"
#include "tessera_cfg.h"
#include "tf.h"

#define MME_REG(e, r) (TESSERA_MME_ADDR(e) + (uint32_t)offsetof(mme_t, r))
#define SCRATCH(i) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, SCRATCH0) + 4u * (i))
#define FIELD(v, f) (((v) & f##_bm) >> f##_bp)

typedef struct {
  mme_gold_job g;
  uint32_t lda, ldb, ldc;  /* bytes, multiples of 32 */
  uint32_t a, b, c;        /* device addresses */
  uint32_t cache;          /* MME CACHE register (L2 hints) */
  uint8_t *ai, *bi, *ci, *cexp;
} cjob_t;

typedef struct {
  unsigned mask;  /* engines that must be done (done or error) */
} cjob_done_t;

enum {
  CJOB_WARM = 1u,     /* operands unchanged since the last job: no L2 invalidate first */
  CJOB_NO_CHECK = 2u, /* no L2 flush and no check of C afterwards */
  CJOB_SPLIT_N = 4u   /* split the columns over the engines instead of the rows */
};

/* Operand images at `base` (back door), golden C; C's padding holds a canary. */
void cjob_prepare(tf_ctx_t *t, cjob_t *j, uint32_t base);
void cjob_free(cjob_t *j);
/* Program engine e for rows [m0, m0 + mrows); the message writes `tag` to SCRATCH(e). */
int cjob_program(tf_ctx_t *t, int e, const cjob_t *j, uint32_t m0, uint32_t mrows, uint32_t tag);
int cjob_engines_done(tsim_t *s, void *ctx);  /* ctx: cjob_done_t */
/* Split the rows (or, with CJOB_SPLIT_N, the columns) over the engines in `mask` at
 * L2-line boundaries of C, run, check status/messages and C. */
int cjob_run(tf_ctx_t *t, cjob_t *j, unsigned mask, unsigned flags, uint64_t *cycles);
int cjob_check_c(tf_ctx_t *t, const cjob_t *j);

#endif
