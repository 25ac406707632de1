/* Chip-level tests of the management firmware (firmware/, docs/firmware.md),
 * suite "firmware". The firmware ELF is loaded and started with tsim_boot.
 *
 *   banner_config    the banner names the build config and prints the chip
 *                    configuration; the numbers must equal the simulated
 *                    chip's (tessera_cfg.h of this build); FW_STATUS.state
 *                    reaches IDLE (2)
 *   heartbeat        FW_STATUS.heartbeat advances by one per tick
 *                    (FW_TICK_SIM_CYCLES) while the core idles in wfi
 *   doorbell_console a random number of host doorbells (INTC SWIRQ 0) are
 *                    each consumed by the firmware (SWIRQ cleared); the UART
 *                    console command 's' reports the same count
 *   fatal_trap       console command '!' executes an illegal instruction: the
 *                    firmware reports mcause 2 and sets FW_STATUS.state 0xE0 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regs/intc_regs.h"
#include "regs/sysctrl_regs.h"
#include "tessera_cfg.h"
#include "tf.h"
#include "../../firmware/fw.h"

#define SYSC(r) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, r))
#define INTC(r) (TESSERA_INTC_BASE + (uint32_t)offsetof(intc_t, r))

static int fw_start(tf_ctx_t *t) {
  const char *p = tf_build_path("sw/firmware/firmware.elf");
  char path[1024];
  snprintf(path, sizeof path, "%s", p);
  if (!tf_file_exists(path)) {
    if (tf_sw_expected(path)) return tf_fail(t, "%s is listed in SW_ALL but was not built", path);
    return tf_skip(t, "%s not built yet", path);
  }
  tsim_elf_info_t info;
  TF_CHECK_OK(t, tsim_load_elf(t->sim, path, &info));
  TF_CHECK_OK(t, tsim_boot(t->sim, info.entry));
  if (tsim_run_until_uart(t->sim, "config: ", 2000000) != TSIM_OK ||
      tsim_run_until_uart(t->sim, "per DCORE\r\n", 200000) != TSIM_OK)
    return tf_fail(t, "no firmware banner: '%s'", tsim_uart_log(t->sim));
  /* state IDLE shortly after the banner */
  uint32_t fw = 0;
  for (int i = 0; i < 50; ++i) {
    TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSC(FW_STATUS), &fw));
    if ((fw & 0xFFu) == 2u) return TF_PASS;
    TF_CHECK_OK(t, tsim_step(t->sim, 1000));
  }
  return tf_fail(t, "FW_STATUS = 0x%08x, state never became 2 (IDLE)", fw);
}

TF_TEST(firmware, banner_config, 3000000) {
  int r = fw_start(t);
  if (r != TF_PASS) return r;
  const char *log = tsim_uart_log(t->sim);
  char want[512];
  snprintf(want, sizeof want, "Tessera firmware v%d.%d.%d (build config %s)\r\n", FW_VERSION_MAJOR,
           FW_VERSION_MINOR, FW_VERSION_PATCH, TESSERA_CONFIG_NAME);
  if (!strstr(log, want)) return tf_fail(t, "banner line '%s' missing in '%s'", want, log);
  snprintf(want, sizeof want,
           "config: DCOREs %u, MMEs %u (%ux%u), TPCs %u, HBM channels %u, DMA %u, NIC ports %u, "
           "L2 %u KiB x %u-way per DCORE\r\n",
           TESSERA_DCORES, TESSERA_NUM_MME, TESSERA_MME_ROWS, TESSERA_MME_COLS, TESSERA_NUM_TPC,
           TESSERA_HBM_CHANNELS, TESSERA_DMA_ENGINES, TESSERA_NIC_PORTS, TESSERA_L2_BYTES_PER_DCORE / 1024u,
           TESSERA_L2_WAYS);
  if (!strstr(log, want)) return tf_fail(t, "config line '%s' missing in '%s'", want, log);
  snprintf(want, sizeof want, "chip: id 0x54455353 v%u.%u.%u, simulation, %u Hz\r\n", TESSERA_VERSION_MAJOR,
           TESSERA_VERSION_MINOR, TESSERA_VERSION_PATCH, TESSERA_CLK_HZ);
  if (!strstr(log, want)) return tf_fail(t, "chip line '%s' missing in '%s'", want, log);
  TF_CHECK(t, strstr(log, "warning") == NULL);
  return TF_PASS;
}

TF_TEST(firmware, heartbeat, 3000000) {
  int r = fw_start(t);
  if (r != TF_PASS) return r;
  uint32_t a = 0, b = 0;
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSC(FW_STATUS), &a));
  unsigned ticks = 3 + tf_rand_below(t, 5);
  TF_CHECK_OK(t, tsim_step(t->sim, (uint64_t)ticks * FW_TICK_SIM_CYCLES));
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSC(FW_STATUS), &b));
  uint32_t ha = a >> 8, hb = b >> 8;
  tf_log(t, "heartbeat %u -> %u over %u tick periods", ha, hb, ticks);
  TF_CHECK(t, hb - ha >= ticks - 1u && hb - ha <= ticks + 1u);
  TF_CHECK_EQ(t, b & 0xFFu, 2u);
  /* the core sleeps most of the time: few instructions per tick */
  uint64_t r0 = tsim_retired_count(t->sim);
  TF_CHECK_OK(t, tsim_step(t->sim, FW_TICK_SIM_CYCLES * 4u));
  uint64_t dr = tsim_retired_count(t->sim) - r0;
  tf_log(t, "%llu instructions retired in 4 ticks", (unsigned long long)dr);
  TF_CHECK(t, dr < FW_TICK_SIM_CYCLES);
  return TF_PASS;
}

TF_TEST(firmware, doorbell_console, 4000000) {
  int r = fw_start(t);
  if (r != TF_PASS) return r;
  unsigned n = 1 + tf_rand_below(t, 6);
  for (unsigned i = 0; i < n; ++i) {
    TF_CHECK_OK(t, tsim_host_write32(t->sim, INTC(SWIRQ), 1u << FW_DOORBELL_SWIRQ));
    uint32_t sw = 1;
    for (int k = 0; k < 20 && sw; ++k) {
      TF_CHECK_OK(t, tsim_step(t->sim, 200));
      TF_CHECK_OK(t, tsim_host_read32(t->sim, INTC(SWIRQ), &sw));
    }
    if (sw) return tf_fail(t, "doorbell %u not consumed (SWIRQ = 0x%x)", i, sw);
  }
  tsim_uart_clear(t->sim);
  tsim_uart_input(t->sim, "s", 1);
  char want[160];
  snprintf(want, sizeof want, "doorbells %u\r\n", n);
  if (tsim_run_until_uart(t->sim, want, 400000) != TSIM_OK)
    return tf_fail(t, "console status without '%s': '%s'", want, tsim_uart_log(t->sim));
  TF_CHECK(t, strstr(tsim_uart_log(t->sim), "fw: state 0x02 heartbeat ") != NULL);
  return TF_PASS;
}

TF_TEST(firmware, fatal_trap, 3000000) {
  int r = fw_start(t);
  if (r != TF_PASS) return r;
  tsim_uart_input(t->sim, "!", 1);
  if (tsim_run_until_uart(t->sim, "FATAL unexpected trap mcause=0x00000002", 400000) != TSIM_OK)
    return tf_fail(t, "no fatal-trap report: '%s'", tsim_uart_log(t->sim));
  TF_CHECK_OK(t, tsim_step(t->sim, 2000));
  uint32_t fw = 0;
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSC(FW_STATUS), &fw));
  TF_CHECK_EQ(t, fw & 0xFFu, 0xE0u);
  /* parked: the heartbeat stops */
  TF_CHECK_OK(t, tsim_step(t->sim, 3u * FW_TICK_SIM_CYCLES));
  uint32_t fw2 = 0;
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSC(FW_STATUS), &fw2));
  TF_CHECK_EQ(t, fw2, fw);
  return TF_PASS;
}
