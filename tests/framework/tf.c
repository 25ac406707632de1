/* Tessera chip-level C test framework: registry, runner, helpers. See tf.h. */
#define _GNU_SOURCE
#include "tf.h"

#include "bench_rec.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef TSIM_ROOT
#define TSIM_ROOT "."
#endif
#ifndef TSIM_CONFIG
#define TSIM_CONFIG "proto"
#endif

#define TF_MAX_TESTS 4096
#define TF_MAX_INITS 64

static tf_test_t g_tests[TF_MAX_TESTS];
static unsigned g_ntests;
static tf_init_fn_t g_inits[TF_MAX_INITS];
static unsigned g_ninits;

void tf_add(const char *suite, const char *name, tf_fn_t fn, uint64_t budget, const void *arg,
            unsigned flags) {
  if (g_ntests >= TF_MAX_TESTS) {
    fprintf(stderr, "tf: too many tests\n");
    exit(2);
  }
  tf_test_t *t = &g_tests[g_ntests++];
  t->suite = suite;
  t->name = name;
  t->fn = fn;
  t->budget = budget ? budget : 1000000;
  t->arg = arg;
  t->flags = flags;
}

void tf_add_init(tf_init_fn_t fn) {
  if (g_ninits < TF_MAX_INITS) g_inits[g_ninits++] = fn;
}

static int cmp_test(const void *a, const void *b) {
  const tf_test_t *x = a, *y = b;
  int c = strcmp(x->suite, y->suite);
  return c ? c : strcmp(x->name, y->name);
}

void tf_init(void) {
  static int done;
  if (done) return;
  done = 1;
  for (unsigned i = 0; i < g_ninits; ++i) g_inits[i]();
  qsort(g_tests, g_ntests, sizeof g_tests[0], cmp_test);
}

unsigned tf_count(void) { return g_ntests; }
const tf_test_t *tf_get(unsigned i) { return i < g_ntests ? &g_tests[i] : NULL; }

int tf_match(const tf_test_t *tt, const char *pat) {
  char full[512];
  if (!strcmp(pat, "all")) return !(tt->flags & TF_BENCH);
  if (!strcmp(pat, tt->suite)) return 1;
  snprintf(full, sizeof full, "%s/%s", tt->suite, tt->name);
  return fnmatch(pat, full, 0) == 0 || fnmatch(pat, tt->name, 0) == 0;
}

/* ---------------------------------------------------------------- results */
static int vmsg(tf_ctx_t *t, int rc, const char *fmt, va_list ap) {
  vsnprintf(t->msg, sizeof t->msg, fmt, ap);
  return rc;
}
int tf_fail(tf_ctx_t *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = vmsg(t, TF_FAIL, fmt, ap);
  va_end(ap);
  return rc;
}
int tf_skip(tf_ctx_t *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = vmsg(t, TF_SKIP, fmt, ap);
  va_end(ap);
  return rc;
}
void tf_log(tf_ctx_t *t, const char *fmt, ...) {
  if (!t->opts->verbose) return;
  va_list ap;
  va_start(ap, fmt);
  printf("      ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

void tf_bench(tf_ctx_t *t, const char *sub, const char *unit, double cycles, double ideal,
              const char *extra_fmt, ...) {
  char name[256];
  snprintf(name, sizeof name, "%s/%s%s%s", t->test->suite, t->test->name, sub ? "/" : "",
           sub ? sub : "");
  va_list ap;
  va_start(ap, extra_fmt);
  bench_vrecord(name, unit, cycles, ideal, extra_fmt, ap);
  va_end(ap);
}

/* ---------------------------------------------------------------- helpers */
uint64_t tf_hash_seed(uint64_t global, const char *suite, const char *name) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < 8; ++i) {
    h ^= (global >> (8 * i)) & 0xFF;
    h *= 0x100000001b3ull;
  }
  for (const char *p = suite; *p; ++p) h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
  h = (h ^ '/') * 0x100000001b3ull;
  for (const char *p = name; *p; ++p) h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
  return h;
}

uint32_t tf_rand32(tf_ctx_t *t) {
  /* splitmix64 */
  uint64_t z = (t->rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (uint32_t)((z ^ (z >> 31)) >> 16);
}
uint32_t tf_rand_below(tf_ctx_t *t, uint32_t n) { return n ? tf_rand32(t) % n : 0; }

int tf_file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char g_pathbuf[8][1024];
static unsigned g_pathi;
const char *tf_root_path(const char *rel) {
  char *b = g_pathbuf[g_pathi++ % 8];
  snprintf(b, 1024, "%s/%s", TSIM_ROOT, rel);
  return b;
}
const char *tf_build_path(const char *rel) {
  char *b = g_pathbuf[g_pathi++ % 8];
  snprintf(b, 1024, "%s/build/%s/%s", TSIM_ROOT, TSIM_CONFIG, rel);
  return b;
}

int tf_sw_expected(const char *path) {
  FILE *f = fopen(tf_build_path("sim/sw_all.txt"), "r");
  if (!f) return 0;
  char line[1024];
  int found = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    if (!strcmp(line, path)) found = 1;
  }
  fclose(f);
  return found;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0, r;
  char *buf = malloc(cap);
  while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  *len = n;
  return buf;
}

int tf_run_elf(tf_ctx_t *t, const char *path, const char *uart_in_file) {
  tsim_elf_info_t info;
  if (tsim_load_elf(t->sim, path, &info) != TSIM_OK)
    return tf_fail(t, "load: %s", tsim_last_error(t->sim));
  if (!info.has_tohost) return tf_fail(t, "%s has no `tohost` symbol", path);
  if (tsim_boot(t->sim, info.entry) != TSIM_OK)
    return tf_fail(t, "boot: %s", tsim_last_error(t->sim));
  if (uart_in_file && tf_file_exists(uart_in_file)) {
    size_t n = 0;
    char *d = read_file(uart_in_file, &n);
    if (!d) return tf_fail(t, "cannot read %s", uart_in_file);
    tsim_uart_input(t->sim, d, n);
    free(d);
  }
  uint32_t v = 0;
  int rc = tsim_run_tohost(t->sim, info.tohost, t->budget, &v);
  if (rc != TSIM_OK) return tf_fail(t, "no tohost write: %s", tsim_last_error(t->sim));
  if (v == 1) return TF_PASS;
  return tf_fail(t, "tohost = 0x%08x: failing test/check number %u", v, v >> 1);
}

/* ---------------------------------------------------------------- progress */
typedef struct {
  struct timespec t0;
  uint64_t c0, limit;
} progress_t;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static double g_prog_start;
static uint64_t g_prog_c0, g_prog_limit;
static void progress_cb(tsim_t *s, void *ctx) {
  (void)ctx;
  double dt = now_s() - g_prog_start;
  uint64_t c = tsim_cycles(s) - g_prog_c0;
  double rate = dt > 0 ? c / dt : 0;
  if (g_prog_limit && rate > 0)
    fprintf(stderr, "\r  %.2fM cycles, %.0fk cycles/s, %.0f%% of limit, ETA %.0fs   ", c / 1e6,
            rate / 1e3, 100.0 * c / g_prog_limit, (g_prog_limit - c) / rate);
  else
    fprintf(stderr, "\r  %.2fM cycles, %.0fk cycles/s   ", c / 1e6, rate / 1e3);
  fflush(stderr);
}
void tf_progress_install(tsim_t *s, uint64_t limit) {
  g_prog_start = now_s();
  g_prog_c0 = tsim_cycles(s);
  g_prog_limit = limit;
  tsim_set_progress(s, progress_cb, NULL, 500000);
}
void tf_progress_clear(void) {
  fprintf(stderr, "\r%60s\r", "");
  fflush(stderr);
}

/* ---------------------------------------------------------------- runner */
typedef struct {
  const tf_test_t *t;
  int rc;
  uint64_t cycles, seed;
  double secs;
} tf_result_t;

/* Output file of one test: `opt` itself when one test runs, else
 * "<stem>.<suite>.<name><ext>" (stem = opt without `ext`); "" when opt is NULL. */
static void per_test_file(char *buf, size_t size, const char *opt, const char *ext, unsigned nsel,
                          const tf_test_t *tt) {
  buf[0] = 0;
  if (!opt) return;
  if (nsel == 1) {
    snprintf(buf, size, "%s", opt);
    return;
  }
  size_t l = strlen(opt), e = strlen(ext);
  int stem = (l > e && !strcmp(opt + l - e, ext)) ? (int)(l - e) : (int)l;
  snprintf(buf, size, "%.*s.%s.%s%s", stem, opt, tt->suite, tt->name, ext);
}

/* the simulator options of a test's chip (tf_run, tf_new_chip) */
static void test_sim_opts(const tf_opts_t *opts, uint64_t seed, uint64_t budget, tsim_opts_t *so) {
  tsim_opts_default(so);
  so->seed = seed;
  so->max_cycles = budget + budget / 4 + 200000; /* hard stop above the budget */
  so->hbm_latency = opts->hbm_latency;
  so->hbm_bw = opts->hbm_bw;
  so->hbm_max_reads = opts->hbm_max_reads;
  so->hbm_size = opts->hbm_size;
  so->hbm_banks = opts->hbm_banks;
  so->hbm_row_bytes = opts->hbm_row_bytes;
  so->hbm_row_miss = opts->hbm_row_miss;
  so->host_latency = opts->host_latency;
  so->host_bw = opts->host_bw;
  so->l2_set_hash = opts->l2_set_hash;
  so->axi_stats = opts->axi_stats;
  so->uart_echo = opts->verbose;
}

tsim_t *tf_new_chip(tf_ctx_t *t) {
  tsim_opts_t so;
  test_sim_opts(t->opts, t->seed, t->budget, &so);
  so.quiet = 1;
  return tsim_create(&so);
}

unsigned tf_run(const unsigned char *sel, const tf_opts_t *opts) {
  tf_result_t *res = calloc(g_ntests ? g_ntests : 1, sizeof *res);
  unsigned nres = 0, npass = 0, nfail = 0, nskip = 0, nsel = 0;
  for (unsigned i = 0; i < g_ntests; ++i) nsel += sel[i] != 0;
  printf("chip_tb: config %s, seed %llu (reproduce with --seed %llu), %u test(s)\n", TSIM_CONFIG,
         (unsigned long long)opts->seed, (unsigned long long)opts->seed, nsel);
  fflush(stdout);
  for (unsigned i = 0; i < g_ntests; ++i) {
    if (!sel[i]) continue;
    const tf_test_t *tt = &g_tests[i];
    tf_ctx_t ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.test = tt;
    ctx.opts = opts;
    ctx.seed = tf_hash_seed(opts->seed, tt->suite, tt->name);
    ctx.rng = ctx.seed;
    ctx.budget = opts->max_cycles ? opts->max_cycles : tt->budget;

    char trace[1024], tl[1024];
    per_test_file(trace, sizeof trace, opts->trace, ".fst", nsel, tt);
    per_test_file(tl, sizeof tl, opts->timeline, ".json", nsel, tt);
    tsim_opts_t so;
    test_sim_opts(opts, ctx.seed, ctx.budget, &so);
    so.trace_file = trace[0] ? trace : NULL;
    so.timeline_file = tl[0] ? tl : NULL;
    printf("[ RUN  ] %s/%s  seed 0x%016llx  budget %llu\n", tt->suite, tt->name,
           (unsigned long long)ctx.seed, (unsigned long long)ctx.budget);
    fflush(stdout);
    double t0 = now_s();
    ctx.sim = tsim_create(&so);
    int rc;
    if (!ctx.sim) {
      rc = tf_fail(&ctx, "cannot create simulator (trace file?)");
    } else {
      if (opts->progress) tf_progress_install(ctx.sim, ctx.budget);
      rc = tt->fn(&ctx);
      if (opts->progress) tf_progress_clear();
      if (rc == TF_FAIL && !ctx.msg[0]) snprintf(ctx.msg, sizeof ctx.msg, "failed");
    }
    /* the budget is part of the test: a run past it fails (the simulator's hard stop
     * above, budget x 1.25 + 200 000, only ends a stuck run) */
    if (rc == TF_PASS && ctx.sim && tsim_cycles(ctx.sim) > ctx.budget)
      rc = tf_fail(&ctx, "ran %llu cycles, over its budget of %llu (slower than expected, or a budget to raise)",
                   (unsigned long long)tsim_cycles(ctx.sim), (unsigned long long)ctx.budget);
    /* device memory = the SDRAM (docs/sdram.md "In the chip model"): a timing violation
     * fails the test whatever it checked, even a skipped one, with the first rule broken */
    if (rc != TF_FAIL && ctx.sim && tsim_has_sdram()) {
      tsim_sdram_stats_t sd;
      tsim_sdram_stats(ctx.sim, &sd);
      if (sd.violations) {
        const char *v = tsim_sdram_violation(ctx.sim, 0);
        rc = tf_fail(&ctx, "SDRAM model: %llu timing violation(s), the first at %s",
                     (unsigned long long)sd.violations, v ? v : "(not recorded)");
      }
    }
    tf_result_t *r = &res[nres++];
    r->t = tt;
    r->rc = rc;
    r->cycles = ctx.sim ? tsim_cycles(ctx.sim) : 0;
    r->seed = ctx.seed;
    r->secs = now_s() - t0;
    if (opts->verbose && ctx.sim && tsim_uart_len(ctx.sim)) fflush(stdout);
    if (rc == TF_PASS) {
      ++npass;
      printf("[ PASS ] %s/%s  %llu cycles  %.2fs\n", tt->suite, tt->name,
             (unsigned long long)r->cycles, r->secs);
    } else if (rc == TF_SKIP) {
      ++nskip;
      printf("[ SKIP ] %s/%s: %s\n", tt->suite, tt->name, ctx.msg);
    } else {
      ++nfail;
      printf("[ FAIL ] %s/%s: %s\n", tt->suite, tt->name, ctx.msg);
      if (ctx.sim && tsim_uart_len(ctx.sim) && !opts->verbose) {
        char tail[301];
        printf("         uart tail: %s\n", tsim_uart_tail(ctx.sim, tail, sizeof tail));
      }
      /* where the chip stood (engines, queues, PC), unless a stuck run printed it */
      if (ctx.sim && tsim_diag_count(ctx.sim) == 0) {
        fflush(stdout);
        tsim_diag(ctx.sim, stdout, ctx.msg);
      }
    }
    fflush(stdout);
    if (ctx.sim) tsim_destroy(ctx.sim);
  }
  printf("\n%-8s %-32s %-6s %12s  %-18s\n", "suite", "test", "result", "cycles", "seed");
  for (unsigned i = 0; i < nres; ++i) {
    const tf_result_t *r = &res[i];
    printf("%-8s %-32s %-6s %12llu  0x%016llx\n", r->t->suite, r->t->name,
           r->rc == TF_PASS ? "PASS" : r->rc == TF_SKIP ? "SKIP" : "FAIL",
           (unsigned long long)r->cycles, (unsigned long long)r->seed);
  }
  if (nskip) printf("(%u skipped)\n", nskip);
  printf("%u passed, %u failed\n", npass, nfail);
  fflush(stdout);
  free(res);
  return nfail;
}
