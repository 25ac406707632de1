/* Suite `simbench` (make bench, `bench sim_speed`): simulated cycles per second of
 * the Verilated chip for an idle boot ROM, idle firmware and integer code. Not
 * part of `--suite all` (flag TF_BENCH): run with `./chip_tb --suite simbench`.
 * Each test still fails if the workload does not behave (no banner, bad tohost). */
#define _GNU_SOURCE
#include <stdio.h>
#include <time.h>

#include "tessera_cfg.h"
#include "tf.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void report(tf_ctx_t *t, const char *what, uint64_t cycles, double secs, uint64_t retired) {
  printf("SIMSPEED %-14s %10llu cycles %8.2f s %10.0f cycles/s  (%llu instructions retired)\n",
         what, (unsigned long long)cycles, secs, secs > 0 ? cycles / secs : 0.0,
         (unsigned long long)retired);
  tf_bench(t, NULL, "cycles/s", secs > 0 ? (double)(uint64_t)(cycles / secs) : 0.0, 0,
           "\"sim_cycles\":%llu,\"seconds\":%.2f,\"retired\":%llu", (unsigned long long)cycles, secs,
           (unsigned long long)retired);
  fflush(stdout);
}

/* The core polls SYSCTRL.BOOT_CTRL in the boot ROM. */
TF_TEST_F(simbench, idle_rom, 3000000, TF_BENCH) {
  uint64_t n = t->budget - 100000, r0 = tsim_retired_count(t->sim);
  double t0 = now_s();
  TF_CHECK_OK(t, tsim_step(t->sim, n));
  double dt = now_s() - t0;
  TF_CHECK(t, tsim_retired_count(t->sim) > r0);
  report(t, "idle_rom", n, dt, tsim_retired_count(t->sim) - r0);
  return TF_PASS;
}

/* Firmware booted and idling in its scheduler loop (timer tick, heartbeat). */
TF_TEST_F(simbench, idle_firmware, 4000000, TF_BENCH) {
  const char *fw = tf_build_path("sw/firmware/firmware.elf");
  if (!tf_file_exists(fw)) return tf_fail(t, "%s not built", fw);
  tsim_elf_info_t info;
  TF_CHECK_OK(t, tsim_load_elf(t->sim, fw, &info));
  TF_CHECK_OK(t, tsim_boot(t->sim, info.entry));
  TF_CHECK_OK(t, tsim_run_until_uart(t->sim, "config: ", 1000000));
  uint64_t n = 2000000, r0 = tsim_retired_count(t->sim);
  double t0 = now_s();
  TF_CHECK_OK(t, tsim_step(t->sim, n));
  double dt = now_s() - t0;
  if (tsim_uart_contains(t->sim, "FATAL")) return tf_fail(t, "firmware trapped");
  report(t, "idle_firmware", n, dt, tsim_retired_count(t->sim) - r0);
  return TF_PASS;
}

/* Integer code: the bsp engineer's bench_int, else the core engineer's cpi_int. */
TF_TEST_F(simbench, int_code, 50000000, TF_BENCH) {
  const char *cands[2] = {tf_build_path("sw/tests/bench_int.elf"), tf_build_path("core/isa/cpi_int.elf")};
  char path[1024] = "";
  for (int i = 0; i < 2 && !path[0]; ++i)
    if (tf_file_exists(cands[i])) snprintf(path, sizeof path, "%s", cands[i]);
  if (!path[0]) return tf_fail(t, "neither %s nor %s is built", cands[0], cands[1]);
  tsim_elf_info_t info;
  TF_CHECK_OK(t, tsim_load_elf(t->sim, path, &info));
  TF_CHECK(t, info.has_tohost);
  TF_CHECK_OK(t, tsim_boot(t->sim, info.entry));
  uint64_t c0 = tsim_cycles(t->sim), r0 = tsim_retired_count(t->sim);
  uint32_t v = 0;
  double t0 = now_s();
  TF_CHECK_OK(t, tsim_run_tohost(t->sim, info.tohost, t->budget, &v));
  double dt = now_s() - t0;
  if (v != 1) return tf_fail(t, "%s: tohost 0x%08x", path, v);
  report(t, "int_code", tsim_cycles(t->sim) - c0, dt, tsim_retired_count(t->sim) - r0);
  tf_log(t, "program %s", path);
  return TF_PASS;
}
