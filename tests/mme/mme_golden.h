/* C golden model of the MME GEMM (docs/numerics.md, docs/mme.md). */
#ifndef TESSERA_MME_GOLDEN_H
#define TESSERA_MME_GOLDEN_H

#include <stdint.h>

#include "numfmt.h"

typedef struct {
  uint32_t m, n, k;
  nf_fmt ta, tb, tc;       /* A, B input formats and the C output format        */
  int trans_a, trans_b;    /* A stored K x M, B stored N x K                      */
  int sat;                 /* FP8 output saturation                               */
  int acc_c;               /* initial value = existing C (decoded to FP32)        */
  int bias;                /* initial value = bias[n] (FP32 vector)               */
  int scale_a, scale_b, scale_out; /* power-of-two exponents                      */
} mme_gold_job;

/* A, B, C are byte images with row strides lda/ldb/ldc in bytes; c_in may alias
 * c_out. bias is an FP32 vector (N entries) or NULL. Elements are little endian. */
void mme_golden(const mme_gold_job *j, const uint8_t *a, uint32_t lda, const uint8_t *b,
                uint32_t ldb, const uint8_t *c_in, uint8_t *c_out, uint32_t ldc,
                const uint32_t *bias);

uint32_t mme_ld(const uint8_t *p, int bytes);
void mme_st(uint8_t *p, int bytes, uint32_t v);

#endif
