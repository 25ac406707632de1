/* Tessera chip-level C test framework.
 *
 * A test is a C function registered under a suite and a name:
 *
 *     TF_TEST(sim, scratch_rw, 200000) {          // suite, name, cycle budget
 *         uint32_t v = tf_rand32(t);
 *         TF_CHECK_OK(t, tsim_host_write32(t->sim, addr, v));
 *         ...
 *         return TF_PASS;
 *     }
 *
 * The runner creates a fresh, reset simulator instance (t->sim) for every test,
 * derives the test's seed from the global --seed and "suite/name" (printed),
 * and enforces the cycle budget (t->budget; the instance has a hard limit a
 * little above it). Tests found at run time (one per ELF in a directory) are
 * added by a suite initialiser with tf_add() (see TF_SUITE_INIT).
 * See docs/testing.md.
 */
#ifndef TESSERA_TF_H
#define TESSERA_TF_H

#include <stdint.h>

#include "tessera_link.h"
#include "tessera_sim.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TF_PASS = 0, TF_FAIL = 1, TF_SKIP = 2 };

/* test flags */
#define TF_SMOKE 0x1u   /* part of the default smoke run (./chip_tb without arguments) */
#define TF_BENCH 0x2u   /* benchmark: not selected by "all", only by its suite/name */

typedef struct tf_ctx tf_ctx_t;
typedef int (*tf_fn_t)(tf_ctx_t *t);

typedef struct tf_test {
  const char *suite;
  const char *name;
  tf_fn_t fn;
  uint64_t budget;      /* cycle budget */
  const void *arg;      /* per-test argument (e.g. ELF path for generated tests) */
  unsigned flags;
} tf_test_t;

/* Global run options (set by chip_tb from its command line). */
typedef struct {
  uint64_t seed;
  uint64_t max_cycles;   /* 0 = use each test's own budget */
  unsigned hbm_latency, hbm_bw, hbm_max_reads;
  uint64_t hbm_size;                              /* see tsim_opts_t */
  unsigned hbm_banks, hbm_row_bytes, hbm_row_miss;
  unsigned host_latency, host_bw;   /* host-memory model (0: configuration defaults) */
  int l2_set_hash;                  /* every L2 slice starts with CTRL.set_hash = 1 */
  const char *trace;     /* FST file; with several tests, "<stem>.<suite>.<name>.fst" */
  const char *timeline;  /* trace-event JSON; with several tests, "<stem>.<suite>.<name>.json" */
  int axi_stats;         /* AXI port statistics; benches print them per run (docs/sim.md) */
  int verbose;           /* echo UART, print more */
  int progress;          /* progress line on stderr */
  /* multi-chip runs (docs/nic.md "Multi-chip simulation"); tests with several chips take
   * the link impairments and the pcap directory from here */
  unsigned chips;            /* --chips N (0: not given) */
  const char *topology;      /* --topology pair|ring|full (NULL: pair for 2 chips, else ring) */
  tsim_link_cfg_t link;      /* --link-*: tsim_link_cfg_default unless given */
  const char *pcap_dir;      /* --pcap DIR: every link direction into DIR (tsim_multi_pcap) */
  struct {
    unsigned chip, port;
    const char *path;
  } inject[16];              /* --inject CHIP:PORT:FILE.pcap */
  unsigned ninject;
} tf_opts_t;

struct tf_ctx {
  tsim_t *sim;
  const tf_test_t *test;
  uint64_t seed;         /* this test's seed */
  uint64_t budget;       /* cycles this test may simulate */
  const tf_opts_t *opts;
  uint64_t rng;          /* state of tf_rand32 */
  char msg[1024];        /* failure/skip message */
};

/* ---- registration */
void tf_add(const char *suite, const char *name, tf_fn_t fn, uint64_t budget, const void *arg,
            unsigned flags);
typedef void (*tf_init_fn_t)(void);
void tf_add_init(tf_init_fn_t fn);   /* called once before tests are listed/run */

#define TF_TEST_F(suite, name, budget, flags)                                        \
  static int tf_fn_##suite##_##name(tf_ctx_t *t);                                    \
  __attribute__((constructor)) static void tf_reg_##suite##_##name(void) {           \
    tf_add(#suite, #name, tf_fn_##suite##_##name, (budget), 0, (flags));             \
  }                                                                                  \
  static int tf_fn_##suite##_##name(tf_ctx_t *t)
#define TF_TEST(suite, name, budget) TF_TEST_F(suite, name, budget, 0)

#define TF_SUITE_INIT(fn)                                                            \
  static void fn(void);                                                              \
  __attribute__((constructor)) static void tf_reginit_##fn(void) { tf_add_init(fn); } \
  static void fn(void)

/* ---- results */
int tf_fail(tf_ctx_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int tf_skip(tf_ctx_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tf_log(tf_ctx_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A benchmark record (tests/framework/bench_rec.h): a BENCH line named "<suite>/<test>",
 * or "<suite>/<test>/<sub>" when `sub` is not NULL (a test measuring several cases).
 * `unit` NULL means "cycles"; ideal 0: no ideal; `extra_fmt` (NULL for none) formats more
 * JSON fields. Printed in addition to the test's human-readable lines. */
void tf_bench(tf_ctx_t *t, const char *sub, const char *unit, double cycles, double ideal,
              const char *extra_fmt, ...) __attribute__((format(printf, 6, 7)));

#define TF_CHECK(t, cond)                                                              \
  do {                                                                                 \
    if (!(cond)) return tf_fail((t), "%s:%d: check failed: %s", __FILE__, __LINE__, #cond); \
  } while (0)
#define TF_CHECK_EQ(t, got, exp)                                                       \
  do {                                                                                 \
    uint64_t tf_g_ = (uint64_t)(got), tf_e_ = (uint64_t)(exp);                         \
    if (tf_g_ != tf_e_)                                                                \
      return tf_fail((t), "%s:%d: %s = 0x%llx, expected 0x%llx", __FILE__, __LINE__, #got, \
                     (unsigned long long)tf_g_, (unsigned long long)tf_e_);            \
  } while (0)
/* A tsim_* call that must return TSIM_OK. */
#define TF_CHECK_OK(t, call)                                                           \
  do {                                                                                 \
    int tf_rc_ = (call);                                                               \
    if (tf_rc_ != TSIM_OK)                                                             \
      return tf_fail((t), "%s:%d: %s returned %d: %s", __FILE__, __LINE__, #call, tf_rc_, \
                     tsim_last_error((t)->sim));                                       \
  } while (0)

/* ---- helpers */
uint32_t tf_rand32(tf_ctx_t *t);                    /* deterministic per test seed */
uint32_t tf_rand_below(tf_ctx_t *t, uint32_t n);
uint64_t tf_hash_seed(uint64_t global, const char *suite, const char *name);
/* Load an ELF, boot it, run until tohost (bytes from uart_in fed after boot if
 * non-NULL). Pass iff tohost == 1; the failure message carries the code. */
int tf_run_elf(tf_ctx_t *t, const char *path, const char *uart_in_file);
int tf_file_exists(const char *path);
/* A further chip for a multi-chip test, created with the options and budget of t->sim
 * (no waveform, no timeline); the test destroys it. NULL on failure. */
tsim_t *tf_new_chip(tf_ctx_t *t);
/* Path under the repository root / build/<config> (static buffer rotation). */
const char *tf_root_path(const char *rel);
const char *tf_build_path(const char *rel);
/* Is `path` named in build/<config>/sim/sw_all.txt (the SW_ALL list)? */
int tf_sw_expected(const char *path);

/* Progress line on stderr (cycles, cycles/s, ETA against `limit`). */
void tf_progress_install(tsim_t *s, uint64_t limit);
void tf_progress_clear(void);

/* ---- runner (used by chip_tb) */
void tf_init(void);                                   /* run suite initialisers */
unsigned tf_count(void);
const tf_test_t *tf_get(unsigned i);
/* Select tests: pattern is "suite", "suite/name", a glob on "suite/name", or "all"
 * ("all" = every test not flagged TF_BENCH). */
int tf_match(const tf_test_t *tt, const char *pattern);
/* Run the selected tests (sel[i] != 0), print the table and "N passed, M failed".
 * Returns the number of failed tests. */
unsigned tf_run(const unsigned char *sel, const tf_opts_t *opts);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_TF_H */
