/* Suites that run RISC-V programs built by other areas of the tree:
 *   isa   every build/<config>/core/isa/NAME.elf (mk/core.mk), tohost convention
 *   sw    every build/<config>/sw/tests/NAME.elf except bench_* (mk/sw.mk); bytes of
 *         tests/sw/<name>.uart_in, if present, are fed to the UART RX after boot
 *   boot  the management firmware build/<config>/sw/firmware/firmware.elf must
 *         print its banner on the UART within the cycle budget
 * Tests are created at start-up from directory listings. An empty directory gives
 * one SKIP entry (nothing built yet), never a pass. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regs/sysctrl_regs.h"
#include "tessera_cfg.h"
#include "tf.h"

#ifndef TSIM_CONFIG
#define TSIM_CONFIG "proto"
#endif

#define ISA_BUDGET 2000000ull
#define SW_BUDGET 20000000ull
#define BOOT_BUDGET 3000000ull
/* Text the firmware prints once it is up (firmware/main.c). The boot ROM's own
 * banner ("Tessera boot ROM ...") must not satisfy it. */
#define BOOT_BANNER "Tessera firmware v"

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted list of "*.elf" names in dir (malloc'd; caller keeps them). */
static unsigned list_elfs(const char *dir, char ***out) {
  DIR *d = opendir(dir);
  unsigned n = 0, cap = 16;
  char **v = malloc(cap * sizeof *v);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      size_t l = strlen(e->d_name);
      if (l <= 4 || strcmp(e->d_name + l - 4, ".elf")) continue;
      if (n == cap) v = realloc(v, (cap *= 2) * sizeof *v);
      v[n++] = strdup(e->d_name);
    }
    closedir(d);
  }
  qsort(v, n, sizeof *v, cmp_str);
  *out = v;
  return n;
}

static char *join(const char *dir, const char *name) {
  size_t l = strlen(dir) + strlen(name) + 2;
  char *p = malloc(l);
  snprintf(p, l, "%s/%s", dir, name);
  return p;
}
static char *stem(const char *name) {
  char *s = strdup(name);
  s[strlen(s) - 4] = 0;
  return s;
}

static int skip_none(tf_ctx_t *t) {
  return tf_skip(t, "%s", (const char *)t->test->arg);
}

/* ---------------------------------------------------------------- isa */
static int run_isa(tf_ctx_t *t) { return tf_run_elf(t, (const char *)t->test->arg, NULL); }

TF_SUITE_INIT(isa_init) {
  const char *dir = strdup(tf_build_path("core/isa"));
  char **names;
  unsigned n = list_elfs(dir, &names);
  for (unsigned i = 0; i < n; ++i) {
    /* irq*.elf drive the core testbench's test device (tests/core), which the
     * chip does not have; interrupts on the chip are covered by tests/sw. */
    if (strncmp(names[i], "irq", 3) == 0) continue;
    /* The first two programs are part of the smoke run. */
    tf_add("isa", stem(names[i]), run_isa, ISA_BUDGET, join(dir, names[i]), i < 2 ? TF_SMOKE : 0);
  }
  if (!n) {
    char *m = malloc(1200);
    snprintf(m, 1200, "no ISA programs in %s (mk/core.mk builds them)", dir);
    tf_add("isa", "none_built", skip_none, 1, m, 0);
  }
  free(names);
}

/* ---------------------------------------------------------------- sw */
typedef struct {
  char *elf, *uart_in;
} sw_arg_t;

static int run_sw(tf_ctx_t *t) {
  const sw_arg_t *a = t->test->arg;
  return tf_run_elf(t, a->elf, a->uart_in);
}

TF_SUITE_INIT(sw_init) {
  const char *dir = strdup(tf_build_path("sw/tests"));
  char **names;
  unsigned n = list_elfs(dir, &names), added = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (!strncmp(names[i], "bench_", 6)) continue; /* benchmarks run under `make bench` */
    sw_arg_t *a = malloc(sizeof *a);
    char *s = stem(names[i]);
    a->elf = join(dir, names[i]);
    char rel[512];
    snprintf(rel, sizeof rel, "tests/sw/%s.uart_in", s);
    a->uart_in = strdup(tf_root_path(rel));
    tf_add("sw", s, run_sw, SW_BUDGET, a, 0);
    ++added;
  }
  if (!added) {
    char *m = malloc(1200);
    snprintf(m, 1200, "no software tests in %s (mk/sw.mk builds them)", dir);
    tf_add("sw", "none_built", skip_none, 1, m, 0);
  }
  free(names);
}

/* ---------------------------------------------------------------- boot */
TF_TEST_F(boot, firmware_banner, BOOT_BUDGET, TF_SMOKE) {
  const char *fw = tf_build_path("sw/firmware/firmware.elf");
  char path[1024];
  snprintf(path, sizeof path, "%s", fw);
  if (!tf_file_exists(path)) {
    if (tf_sw_expected(path)) return tf_fail(t, "%s is listed in SW_ALL but was not built", path);
    return tf_skip(t, "%s not built yet", path);
  }
  tsim_elf_info_t info;
  TF_CHECK_OK(t, tsim_load_elf(t->sim, path, &info));
  TF_CHECK_OK(t, tsim_boot(t->sim, info.entry));
  int rc = tsim_run_until_uart(t->sim, BOOT_BANNER, t->budget);
  if (rc != TSIM_OK)
    return tf_fail(t, "no banner '%s' on the UART within %llu cycles: %s", BOOT_BANNER,
                   (unsigned long long)t->budget, tsim_last_error(t->sim));
  tf_log(t, "banner after %llu cycles", (unsigned long long)tsim_cycles(t->sim));
  /* The rest of the banner: build config and the chip configuration read back
   * from SYSCTRL, with no mismatch warning. */
  char want[64];
  snprintf(want, sizeof want, "(build config %s)", TSIM_CONFIG);
  if (tsim_run_until_uart(t->sim, "config: ", t->budget / 4) != TSIM_OK)
    return tf_fail(t, "no 'config:' line after the banner");
  TF_CHECK_OK(t, tsim_step(t->sim, 20000));
  char log[600];
  tsim_uart_tail(t->sim, log, sizeof log);
  if (!tsim_uart_contains(t->sim, want)) return tf_fail(t, "banner lacks '%s': %s", want, log);
  if (tsim_uart_contains(t->sim, "warning:")) return tf_fail(t, "firmware warned: %s", log);
  if (tsim_uart_contains(t->sim, "FATAL")) return tf_fail(t, "firmware trapped: %s", log);
  return TF_PASS;
}
