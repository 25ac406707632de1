/* Suite `sim`: self-checks of the simulator harness against the chip top.
 * Back door (direct access to the memory arrays / HBM model) and front door
 * (the host_* OBI port through the system bus) must agree; the host port sees
 * bus errors; SYSCTRL identifies the chip with the generated configuration. */
#include <stddef.h>
#include <string.h>

#include "regs/sysctrl_regs.h"
#include "regs/uart_regs.h"
#include "tessera_cfg.h"
#include "tf.h"

#define SYSCTRL_REG(r) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, r))
#define UART_REG(r) (TESSERA_UART_BASE + (uint32_t)offsetof(uart_t, r))
#define FIELD(v, f) (((v) & f##_bm) >> f##_bp)

static uint32_t rand_addr(tf_ctx_t *t, uint32_t base, uint32_t bytes) {
  return base + (tf_rand_below(t, bytes / 4) * 4u);
}

/* Random words: back-door write / front-door read and front-door write /
 * back-door read, in one memory region. */
static int bd_fd_region(tf_ctx_t *t, uint32_t base, uint32_t bytes, unsigned n) {
  for (unsigned i = 0; i < n; ++i) {
    uint32_t a = rand_addr(t, base, bytes), v = tf_rand32(t), got = 0;
    TF_CHECK_OK(t, tsim_mem_write32(t->sim, a, v));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, a, &got));
    if (got != v) return tf_fail(t, "0x%08x: back-door wrote 0x%08x, host read 0x%08x", a, v, got);
    a = rand_addr(t, base, bytes);
    v = tf_rand32(t);
    TF_CHECK_OK(t, tsim_host_write32(t->sim, a, v));
    got = tsim_mem_read32(t->sim, a);
    if (got != v) return tf_fail(t, "0x%08x: host wrote 0x%08x, back door reads 0x%08x", a, v, got);
  }
  return TF_PASS;
}

TF_TEST_F(sim, sram_backdoor_frontdoor, 400000, TF_SMOKE) {
  int rc = bd_fd_region(t, TESSERA_ISRAM_BASE, TESSERA_ISRAM_BYTES, 64);
  if (rc != TF_PASS) return rc;
  return bd_fd_region(t, TESSERA_DSRAM_BASE, TESSERA_DSRAM_BYTES, 64);
}

TF_TEST_F(sim, rom_backdoor_read, 200000, TF_SMOKE) {
  /* The ROM is read-only from the bus: compare host reads with the back door. */
  for (unsigned i = 0; i < 32; ++i) {
    uint32_t a = rand_addr(t, TESSERA_BOOTROM_BASE, TESSERA_BOOTROM_BYTES), got = 0;
    uint32_t bd = tsim_mem_read32(t->sim, a);
    TF_CHECK_OK(t, tsim_host_read32(t->sim, a, &got));
    if (got != bd) return tf_fail(t, "ROM 0x%08x: back door 0x%08x, host 0x%08x", a, bd, got);
  }
  uint32_t word0 = tsim_mem_read32(t->sim, TESSERA_BOOTROM_BASE);
  if (word0 == 0) return tf_fail(t, "boot ROM word 0 is 0: boot ROM image not loaded?");
  return TF_PASS;
}

TF_TEST_F(sim, hbm_backdoor_frontdoor, 2000000, TF_SMOKE) {
  /* Spread over every channel (interleave granule) and the whole 1 GiB (the SDRAM's
   * 32 MiB with device_memory = "sdram"). */
  const uint32_t span = TESSERA_DEVMEM_BYTES;
  for (unsigned i = 0; i < 48; ++i) {
    uint32_t a = rand_addr(t, TESSERA_HBM_BASE, span);
    if (i < 2 * TESSERA_HBM_CHANNELS) /* make sure every channel is hit */
      do {
        a = TESSERA_HBM_BASE + tf_rand_below(t, 1u << 16) * TESSERA_HBM_INTERLEAVE_BYTES +
            tf_rand_below(t, TESSERA_HBM_INTERLEAVE_BYTES / 4) * 4;
      } while (tsim_hbm_channel(a) != i % TESSERA_HBM_CHANNELS);
    uint32_t v = tf_rand32(t), got = 0;
    TF_CHECK_OK(t, tsim_mem_write32(t->sim, a, v));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, a, &got));
    if (got != v) return tf_fail(t, "HBM 0x%08x: back door 0x%08x, host read 0x%08x", a, v, got);
    a = rand_addr(t, TESSERA_HBM_BASE, span);
    v = tf_rand32(t);
    TF_CHECK_OK(t, tsim_host_write32(t->sim, a, v));
    got = tsim_mem_read32(t->sim, a);
    if (got != v) return tf_fail(t, "HBM 0x%08x: host wrote 0x%08x, back door 0x%08x", a, v, got);
  }
  if (tsim_has_sdram()) {  /* one SDRAM behind both channels: its model saw the traffic */
    tsim_sdram_stats_t sd;
    tsim_sdram_stats(t->sim, &sd);
    if (sd.reads == 0 || sd.writes == 0)
      return tf_fail(t, "the SDRAM saw no traffic (reads %llu, writes %llu)", (unsigned long long)sd.reads,
                     (unsigned long long)sd.writes);
    return TF_PASS;
  }
  uint64_t rd = 0, wr = 0;
  for (unsigned c = 0; c < tsim_hbm_channels(); ++c) {
    tsim_hbm_stats_t st;
    tsim_hbm_stats(t->sim, c, &st);
    if (st.read_bursts == 0 || st.write_bursts == 0)
      return tf_fail(t, "HBM channel %u saw no traffic (reads %llu, writes %llu)", c,
                     (unsigned long long)st.read_bursts, (unsigned long long)st.write_bursts);
    if (st.decerr) return tf_fail(t, "HBM channel %u answered DECERR (misrouted burst)", c);
    rd += st.bytes_read;
    wr += st.bytes_written;
  }
  TF_CHECK_EQ(t, wr, 48 * 4);       /* 4 strobed bytes per host write */
  TF_CHECK(t, rd >= 48 * 4);
  return TF_PASS;
}

TF_TEST_F(sim, hbm_byte_strobes, 1000000, TF_SMOKE) {
  for (unsigned i = 0; i < 32; ++i) {
    uint32_t a = rand_addr(t, TESSERA_HBM_BASE, TESSERA_DEVMEM_BYTES);
    uint32_t old = tf_rand32(t), v = tf_rand32(t);
    unsigned be = tf_rand_below(t, 16);
    TF_CHECK_OK(t, tsim_mem_write32(t->sim, a, old));
    TF_CHECK_OK(t, tsim_host_write_be(t->sim, a, v, be));
    uint32_t mask = 0;
    for (unsigned b = 0; b < 4; ++b)
      if (be & (1u << b)) mask |= 0xFFu << (8 * b);
    uint32_t exp = (old & ~mask) | (v & mask), got = tsim_mem_read32(t->sim, a);
    if (got != exp)
      return tf_fail(t, "HBM 0x%08x be=0x%x: old 0x%08x wrote 0x%08x -> 0x%08x, expected 0x%08x", a,
                     be, old, v, got, exp);
    /* neighbours untouched */
    TF_CHECK_OK(t, tsim_mem_write32(t->sim, a ^ 4, 0xA5A5A5A5u));
    TF_CHECK_OK(t, tsim_host_write_be(t->sim, a, ~v, be));
    TF_CHECK_EQ(t, tsim_mem_read32(t->sim, a ^ 4), 0xA5A5A5A5u);
  }
  return TF_PASS;
}

TF_TEST_F(sim, sram_byte_strobes, 400000, TF_SMOKE) {
  for (unsigned i = 0; i < 32; ++i) {
    uint32_t a = rand_addr(t, TESSERA_DSRAM_BASE, TESSERA_DSRAM_BYTES);
    uint32_t old = tf_rand32(t), v = tf_rand32(t);
    unsigned be = tf_rand_below(t, 16);
    TF_CHECK_OK(t, tsim_mem_write32(t->sim, a, old));
    TF_CHECK_OK(t, tsim_host_write_be(t->sim, a, v, be));
    uint32_t mask = 0;
    for (unsigned b = 0; b < 4; ++b)
      if (be & (1u << b)) mask |= 0xFFu << (8 * b);
    TF_CHECK_EQ(t, tsim_mem_read32(t->sim, a), (old & ~mask) | (v & mask));
  }
  return TF_PASS;
}

TF_TEST_F(sim, host_unmapped_error, 200000, TF_SMOKE) {
  /* Addresses no slave answers: between regions, ROM above its populated size,
   * beyond the end of HBM. Reads and writes must both get host_err. */
  const uint32_t bad[] = {0x40000000u, 0x7FFFFFFCu, TESSERA_BOOTROM_BASE + TESSERA_BOOTROM_BYTES,
                          TESSERA_HBM_BASE + TESSERA_HBM_SIZE, 0xFFFFFFF0u};
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    uint32_t v;
    int rc = tsim_host_read32(t->sim, bad[i], &v);
    if (rc != TSIM_EBUS) return tf_fail(t, "read 0x%08x returned %d, expected TSIM_EBUS", bad[i], rc);
    rc = tsim_host_write32(t->sim, bad[i], 0x12345678u);
    if (rc != TSIM_EBUS) return tf_fail(t, "write 0x%08x returned %d, expected TSIM_EBUS", bad[i], rc);
  }
  /* The ROM is read-only. */
  uint32_t before = tsim_mem_read32(t->sim, TESSERA_BOOTROM_BASE + 0x40);
  int rc = tsim_host_write32(t->sim, TESSERA_BOOTROM_BASE + 0x40, ~before);
  if (rc != TSIM_EBUS) return tf_fail(t, "write to boot ROM returned %d, expected TSIM_EBUS", rc);
  TF_CHECK_EQ(t, tsim_mem_read32(t->sim, TESSERA_BOOTROM_BASE + 0x40), before);
  /* And the bus still works afterwards. */
  uint32_t id = 0;
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSCTRL_REG(ID), &id));
  TF_CHECK_EQ(t, id, SYSCTRL__ID__ID_reset);
  return TF_PASS;
}

TF_TEST_F(sim, sysctrl_id_config, 200000, TF_SMOKE) {
  uint32_t id = 0, ver = 0, c0 = 0, c1 = 0, hz = 0;
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSCTRL_REG(ID), &id));
  TF_CHECK_EQ(t, id, 0x54455353u);
  TF_CHECK_EQ(t, id, SYSCTRL__ID__ID_reset);
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSCTRL_REG(VERSION), &ver));
  TF_CHECK_EQ(t, FIELD(ver, SYSCTRL__VERSION__MAJOR), TESSERA_VERSION_MAJOR);
  TF_CHECK_EQ(t, FIELD(ver, SYSCTRL__VERSION__MINOR), TESSERA_VERSION_MINOR);
  TF_CHECK_EQ(t, FIELD(ver, SYSCTRL__VERSION__PATCH), TESSERA_VERSION_PATCH);
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSCTRL_REG(CONFIG0), &c0));
  TF_CHECK_EQ(t, FIELD(c0, SYSCTRL__CONFIG0__DCORES), TESSERA_DCORES);
  TF_CHECK_EQ(t, FIELD(c0, SYSCTRL__CONFIG0__NUM_MME), TESSERA_NUM_MME);
  TF_CHECK_EQ(t, FIELD(c0, SYSCTRL__CONFIG0__NUM_TPC), TESSERA_NUM_TPC);
  TF_CHECK_EQ(t, FIELD(c0, SYSCTRL__CONFIG0__HBM_CHANNELS), TESSERA_HBM_CHANNELS);
  TF_CHECK_EQ(t, FIELD(c0, SYSCTRL__CONFIG0__DMA_ENGINES), TESSERA_DMA_ENGINES);
  TF_CHECK_EQ(t, FIELD(c0, SYSCTRL__CONFIG0__NIC_PORTS), TESSERA_NIC_PORTS);
  TF_CHECK_EQ(t, FIELD(c0, SYSCTRL__CONFIG0__PLATFORM), 0); /* 0 = simulation */
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSCTRL_REG(CONFIG1), &c1));
  TF_CHECK_EQ(t, FIELD(c1, SYSCTRL__CONFIG1__MME_ROWS), TESSERA_MME_ROWS);
  TF_CHECK_EQ(t, FIELD(c1, SYSCTRL__CONFIG1__MME_COLS), TESSERA_MME_COLS);
  TF_CHECK_EQ(t, 1u << FIELD(c1, SYSCTRL__CONFIG1__L2_LOG2_BYTES), TESSERA_L2_BYTES_PER_DCORE);
  TF_CHECK_EQ(t, FIELD(c1, SYSCTRL__CONFIG1__L2_WAYS), TESSERA_L2_WAYS);
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSCTRL_REG(CLK_HZ), &hz));
  TF_CHECK_EQ(t, hz, TESSERA_CLK_HZ);
  return TF_PASS;
}

TF_TEST_F(sim, scratch_rw, 200000, TF_SMOKE) {
  uint32_t v[4], got;
  for (unsigned i = 0; i < 4; ++i) {
    v[i] = tf_rand32(t);
    TF_CHECK_OK(t, tsim_host_write32(t->sim, SYSCTRL_REG(SCRATCH0) + 4 * i, v[i]));
  }
  for (unsigned i = 0; i < 4; ++i) {
    TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSCTRL_REG(SCRATCH0) + 4 * i, &got));
    TF_CHECK_EQ(t, got, v[i]);
  }
  return TF_PASS;
}

/* The host writes bytes into UART TXDATA; the harness decodes them from the
 * serial uart_tx_o line at TESSERA_UART_SIM_DIV cycles/bit. Then bytes queued
 * on the harness UART driver arrive in RXDATA. Checks the serial decode/drive
 * against the real UART. */
TF_TEST_F(sim, uart_tx_rx_serial, 400000, TF_SMOKE) {
  char msg[12];
  unsigned n = 8;
  for (unsigned i = 0; i < n; ++i) msg[i] = (char)(0x20 + tf_rand_below(t, 0x5F));
  msg[n] = 0;
  /* Let whatever runs at reset (the boot ROM prints a line) drain: wait for
   * STATUS.TX_IDLE, then start a fresh log. */
  uint32_t st = 0;
  for (unsigned i = 0; i < 200; ++i) {
    TF_CHECK_OK(t, tsim_step(t->sim, 200));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, UART_REG(STATUS), &st));
    if (st & UART__STATUS__TX_IDLE_bm) break;
  }
  if (!(st & UART__STATUS__TX_IDLE_bm)) return tf_fail(t, "UART never idle (STATUS 0x%08x)", st);
  tsim_uart_clear(t->sim);
  for (unsigned i = 0; i < n; ++i)
    TF_CHECK_OK(t, tsim_host_write32(t->sim, UART_REG(TXDATA), (uint8_t)msg[i]));
  if (tsim_run_until_uart(t->sim, msg, 20000) != TSIM_OK)
  {
    char tail[200];
    return tf_fail(t, "UART log '%s' does not contain '%s'", tsim_uart_tail(t->sim, tail, sizeof tail), msg);
  }
  TF_CHECK_EQ(t, tsim_uart_frame_errors(t->sim), 0);

  uint8_t in[6];
  for (unsigned i = 0; i < sizeof in; ++i) in[i] = (uint8_t)tf_rand32(t);
  tsim_uart_input(t->sim, in, sizeof in);
  /* 10 bits + gap per byte */
  TF_CHECK_OK(t, tsim_step(t->sim, (uint64_t)sizeof in * 14 * TESSERA_UART_SIM_DIV + 50));
  TF_CHECK_EQ(t, tsim_uart_input_pending(t->sim), 0);
  for (unsigned i = 0; i < sizeof in; ++i) {
    uint32_t r = 0;
    TF_CHECK_OK(t, tsim_host_read32(t->sim, UART_REG(RXDATA), &r));
    if (r & UART__RXDATA__EMPTY_bm) return tf_fail(t, "RX FIFO empty after %u of %zu bytes", i, sizeof in);
    if ((r & UART__RXDATA__DATA_bm) != in[i])
      return tf_fail(t, "RX byte %u: got 0x%02x, sent 0x%02x", i, r & 0xFFu, in[i]);
  }
  return TF_PASS;
}

/* The core comes out of reset in the boot ROM (waiting for BOOT_CTRL.GO): the
 * retirement trace must show instructions retiring at ROM addresses. */
TF_TEST_F(sim, retire_trace_in_rom, 200000, TF_SMOKE) {
  TF_CHECK_OK(t, tsim_step(t->sim, 5000));
  uint32_t pcs[TSIM_RETIRE_RING], insns[TSIM_RETIRE_RING];
  unsigned n = tsim_retired(t->sim, pcs, insns, TSIM_RETIRE_RING);
  if (tsim_retired_count(t->sim) < 16 || n != TSIM_RETIRE_RING)
    return tf_fail(t, "only %llu instructions retired in 5000 cycles",
                   (unsigned long long)tsim_retired_count(t->sim));
  for (unsigned i = 0; i < n; ++i) {
    if (pcs[i] >= TESSERA_BOOTROM_BASE + TESSERA_BOOTROM_BYTES)
      return tf_fail(t, "retired pc 0x%08x outside the boot ROM before GO", pcs[i]);
    if (insns[i] != tsim_mem_read32(t->sim, pcs[i]))
      return tf_fail(t, "retired insn 0x%08x at 0x%08x differs from ROM word 0x%08x", insns[i],
                     pcs[i], tsim_mem_read32(t->sim, pcs[i]));
  }
  return TF_PASS;
}

/* Runtime HBM latency (tsim_hbm_config, same path as --hbm-latency): the cycles a
 * host read of HBM takes must grow by exactly the latency difference. */
static int host_read_cycles(tf_ctx_t *t, uint32_t a, uint64_t *cyc) {
  uint32_t v;
  uint64_t c0 = tsim_cycles(t->sim);
  int rc = tsim_host_read32(t->sim, a, &v);
  *cyc = tsim_cycles(t->sim) - c0;
  return rc;
}
TF_TEST_F(sim, hbm_latency_config, 200000, TF_SMOKE) {
  if (TESSERA_DEVMEM_SDRAM) return tf_skip(t, "device memory is the SDRAM: no HBM model to configure");
  uint32_t a = rand_addr(t, TESSERA_HBM_BASE, TESSERA_HBM_SIZE);
  unsigned l1 = 5 + tf_rand_below(t, 20), l2 = l1 + 10 + tf_rand_below(t, 100);
  uint64_t c1, c2, c1b;
  tsim_hbm_config(t->sim, l1, 0);
  TF_CHECK_OK(t, host_read_cycles(t, a, &c1));
  tsim_hbm_config(t->sim, l2, 0);
  TF_CHECK_OK(t, host_read_cycles(t, a, &c2));
  tsim_hbm_config(t->sim, l1, 0);
  TF_CHECK_OK(t, host_read_cycles(t, a, &c1b));
  if (c1 != c1b) return tf_fail(t, "same latency, different read times: %llu vs %llu",
                                (unsigned long long)c1, (unsigned long long)c1b);
  if (c2 - c1 != l2 - l1)
    return tf_fail(t, "latency %u -> %u changed the host read from %llu to %llu cycles", l1, l2,
                   (unsigned long long)c1, (unsigned long long)c2);
  tf_log(t, "host HBM read: %llu cycles at latency %u", (unsigned long long)c1, l1);
  return TF_PASS;
}

/* AXI port statistics (--axi-stats, docs/sim.md) against a known load: host writes and
 * reads of device memory through the system bus are counted once each at the fabric's
 * system-bus master and, summed over the channels, at the HBM; no other port moves; a
 * read's first beat comes no sooner than the HBM model's latency after its AR. The test
 * switches the statistics on itself, so it runs whether or not chip_tb got --axi-stats. */
TF_TEST_F(sim, axi_stats, 1000000, TF_SMOKE) {
  if (TESSERA_DEVMEM_SDRAM) return tf_skip(t, "device memory is the SDRAM: the HBM channel monitors are not sampled");
  tsim_t *s = t->sim;
  tsim_axistats_enable(s);
  unsigned nw = 8 + tf_rand_below(t, 25), nr = 8 + tf_rand_below(t, 25);
  uint32_t base = TESSERA_HBM_BASE + tf_rand_below(t, 1024) * 4096u, v = 0;
  int rc = TF_PASS;
  tsim_axistats_clear(s);
  /* one access per 4 KiB, so no two share a beat of the bridge's read buffer */
  for (unsigned i = 0; i < nw && rc == TF_PASS; ++i)
    if (tsim_host_write32(s, base + 4096u * i + 4u * tf_rand_below(t, 64), i) != TSIM_OK) rc = tf_fail(t, "host write");
  for (unsigned i = 0; i < nr && rc == TF_PASS; ++i)
    if (tsim_host_read32(s, base + 4096u * (64 + i), &v) != TSIM_OK) rc = tf_fail(t, "host read");
  tsim_axi_port_stats_t sys, h, sum;
  memset(&sum, 0, sizeof sum);
  if (rc == TF_PASS && tsim_axistats_port(s, "fab.sys", &sys) != TSIM_OK) rc = tf_fail(t, "no port fab.sys");
  for (unsigned c = 0; c < TESSERA_HBM_CHANNELS && rc == TF_PASS; ++c) {
    char n[16];
    snprintf(n, sizeof n, "HBM%u", c);
    if (tsim_axistats_port(s, n, &h) != TSIM_OK) { rc = tf_fail(t, "no port %s", n); break; }
    sum.ar += h.ar, sum.r += h.r, sum.aw += h.aw, sum.w += h.w, sum.b += h.b;
    if (h.ar && h.rd_first < TESSERA_HBM_LATENCY_CYCLES)
      rc = tf_fail(t, "%s: first read beat %.1f cycles after AR, below the model's latency %u", n, h.rd_first,
                   (unsigned)TESSERA_HBM_LATENCY_CYCLES);
  }
  tf_log(t, "%u writes, %u reads: fab.sys AW %llu W %llu B %llu AR %llu R %llu; HBM AW %llu AR %llu R %llu", nw, nr,
         (unsigned long long)sys.aw, (unsigned long long)sys.w, (unsigned long long)sys.b, (unsigned long long)sys.ar,
         (unsigned long long)sys.r, (unsigned long long)sum.aw, (unsigned long long)sum.ar, (unsigned long long)sum.r);
  if (rc == TF_PASS && (sys.aw != nw || sys.w != nw || sys.b != nw || sys.ar != nr || sys.r != nr))
    rc = tf_fail(t, "fab.sys counts differ from %u writes and %u one-beat reads", nw, nr);
  if (rc == TF_PASS && (sum.aw != nw || sum.w != nw || sum.b != nw || sum.ar != nr || sum.r != nr))
    rc = tf_fail(t, "the HBM channels' counts differ from %u writes and %u one-beat reads", nw, nr);
  tsim_axi_port_stats_t o;
  if (rc == TF_PASS && (tsim_axistats_port(s, "L2_0.tpc", &o) != TSIM_OK || o.ar || o.aw || o.r || o.w))
    rc = tf_fail(t, "L2_0.tpc moved something (or is missing)");
  if (rc == TF_PASS && tsim_axistats_port(s, "no-such-port", &o) != TSIM_EARG) rc = tf_fail(t, "unknown port accepted");
  return rc;
}
