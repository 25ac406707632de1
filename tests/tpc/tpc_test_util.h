/* Shared helpers for the TPC ISA-model tests: seeded RNG, pass/fail counting,
 * device memory, assembling programs into it and launching them.
 * Counting: check() counts single checks; TU_CASE(name, call) runs one named case
 * (a test function with all its checks and random iterations) and prints
 * "PASS|FAIL <name> (<n> checks)"; the summary line counts cases (tu_cases_*). */
#ifndef TPC_TEST_UTIL_H
#define TPC_TEST_UTIL_H
#include "tpc_model.h"
#include "tpc_fp.h"
#include "tpcasm_lib.h"
#include "tpc_isa_gen.h"
#include "../golden/numfmt.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../framework/tf_seed.h"

#define DEV_BASE 0x80000000u
#define DEV_SIZE (16u << 20)
#define PROG_ADDR DEV_BASE
#define DATA_ADDR (DEV_BASE + (1u << 20))

static uint64_t tu_rng = 1;
static int tu_pass, tu_fail, tu_verbose;
static int tu_cases_pass, tu_cases_fail;

static uint64_t rnd64(void)
{
  tu_rng ^= tu_rng >> 12;
  tu_rng ^= tu_rng << 25;
  tu_rng ^= tu_rng >> 27;
  return tu_rng * 0x2545F4914F6CDD1Dull;
}
static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }
static inline uint32_t rndn(uint32_t n) { return n ? (uint32_t)(rnd64() % n) : 0; }

static inline uint64_t tu_seed(int argc, char **argv)
{
  uint64_t s = tf_env_seed(1); /* fixed unless SEED or --seed is given */
  int i;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc)
      s = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "-v"))
      tu_verbose = 1;
  }
  tu_rng = s * 0x9E3779B97F4A7C15ull + 0x1234567ull;
  if (!tu_rng)
    tu_rng = 1;
  return s;
}

static inline int check(int ok, const char *fmt, ...)
{
  va_list ap;
  if (ok) {
    tu_pass++;
    if (tu_verbose) {
      printf("  ok   ");
      va_start(ap, fmt);
      vprintf(fmt, ap);
      va_end(ap);
      printf("\n");
    }
  } else {
    tu_fail++;
    printf("  FAIL ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
  }
  return ok;
}

/* one named case: every check() inside `call` belongs to it */
#define TU_CASE(name, call)                                    \
  do {                                                         \
    int tu_p0_ = tu_pass, tu_f0_ = tu_fail;                    \
    call;                                                      \
    tu_case_end((name), tu_pass - tu_p0_, tu_fail - tu_f0_);   \
  } while (0)

static inline void tu_case_end(const char *name, int npass, int nfail)
{
  if (nfail)
    tu_cases_fail++;
  else
    tu_cases_pass++;
  printf("%s %s (%d checks", nfail ? "FAIL" : "PASS", name, npass + nfail);
  if (nfail)
    printf(", %d failed", nfail);
  printf(")\n");
}

static uint8_t *tu_mem;
static tpc_devmem_t tu_dev;

static inline void tu_mem_init(void)
{
  if (!tu_mem)
    tu_mem = calloc(1, DEV_SIZE);
  tu_dev.data = tu_mem;
  tu_dev.base = DEV_BASE;
  tu_dev.size = DEV_SIZE;
}

static inline uint8_t *dptr(uint32_t addr) { return tu_mem + (addr - DEV_BASE); }

/* assemble src and place it at PROG_ADDR; fills L->prog_addr/len. 0 on success */
static inline int tu_load_prog(tpc_launch_t *L, const char *src, const char *name)
{
  tpc_bundle_t *b;
  uint32_t n, k;
  int s, j;
  char err[512];
  if (tpcasm_assemble(src, name, NULL, 0, &b, &n, err, sizeof(err))) {
    printf("  assembler: %s\n", err);
    return -1;
  }
  for (k = 0; k < n; k++)
    for (s = 0; s < 4; s++)
      for (j = 0; j < 8; j++)
        dptr(PROG_ADDR)[32 * k + 8 * (uint32_t)s + (uint32_t)j] = (uint8_t)(b[k].w[s] >> (8 * j));
  free(b);
  L->prog_addr = PROG_ADDR;
  L->prog_len = n;
  return 0;
}

static inline int tu_load_file(tpc_launch_t *L, const char *path, uint32_t at)
{
  tpc_bundle_t *b;
  uint32_t n, k;
  int s, j;
  char err[512];
  if (tpcasm_assemble_file(path, NULL, 0, &b, &n, err, sizeof(err))) {
    printf("  assembler: %s\n", err);
    return -1;
  }
  for (k = 0; k < n; k++)
    for (s = 0; s < 4; s++)
      for (j = 0; j < 8; j++)
        dptr(at)[32 * k + 8 * (uint32_t)s + (uint32_t)j] = (uint8_t)(b[k].w[s] >> (8 * j));
  free(b);
  L->prog_addr = at;
  L->prog_len = n;
  return 0;
}

static inline void tu_launch_init(tpc_launch_t *L)
{
  int d;
  memset(L, 0, sizeof(*L));
  for (d = 0; d < TPC_NDIMS; d++)
    L->idx_size[d] = 1;
}

static inline float f32of(uint32_t b) { return tpc_f32(b); }
static inline uint32_t bitsof(float f) { return tpc_bits(f); }
#endif
