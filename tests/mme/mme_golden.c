/* C golden model of the MME GEMM, written from docs/numerics.md:
 *   acc(m,n) = init(m,n)                      0, bias[n] or decode(C_old[m][n])
 *   for k = 0 .. K-1 (ascending):
 *     acc = round_fp32_rne(acc + A[m][k] * B[k][n] * 2^(scale_a+scale_b))   (one rounding)
 *   C[m][n] = round_out_rne(acc * 2^scale_out)                               (one rounding)
 */
#include "mme_golden.h"

#include <stdlib.h>

uint32_t mme_ld(const uint8_t *p, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; i++) v |= (uint32_t)p[i] << (8 * i);
  return v;
}

void mme_st(uint8_t *p, int bytes, uint32_t v) {
  for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void mme_golden(const mme_gold_job *j, const uint8_t *a, uint32_t lda, const uint8_t *b,
                uint32_t ldb, const uint8_t *c_in, uint8_t *c_out, uint32_t ldc,
                const uint32_t *bias) {
  int ab = nf_bytes(j->ta), bb = nf_bytes(j->tb), cb = nf_bytes(j->tc);
  int s = j->scale_a + j->scale_b;
  nf_val *bcol = malloc(sizeof(nf_val) * j->k);
  for (uint32_t n = 0; n < j->n; n++) {
    for (uint32_t k = 0; k < j->k; k++) {
      const uint8_t *p = j->trans_b ? b + (size_t)n * ldb + (size_t)k * bb
                                    : b + (size_t)k * ldb + (size_t)n * bb;
      bcol[k] = nf_decode(j->tb, mme_ld(p, bb));
    }
    for (uint32_t m = 0; m < j->m; m++) {
      uint32_t acc = 0;
      uint8_t *cp = c_out + (size_t)m * ldc + (size_t)n * cb;
      if (j->acc_c)
        acc = nf_to_fp32(j->tc, mme_ld(c_in + (size_t)m * ldc + (size_t)n * cb, cb));
      else if (j->bias)
        acc = bias[n];
      for (uint32_t k = 0; k < j->k; k++) {
        const uint8_t *p = j->trans_a ? a + (size_t)k * lda + (size_t)m * ab
                                      : a + (size_t)m * lda + (size_t)k * ab;
        acc = nf_fma32_val(acc, nf_decode(j->ta, mme_ld(p, ab)), bcol[k], s);
      }
      mme_st(cp, cb, nf_convert(NF_FP32, j->tc, acc, j->scale_out, j->sat));
    }
  }
  free(bcol);
}
