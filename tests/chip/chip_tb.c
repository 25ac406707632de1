/* chip_tb: command-line front end of the Tessera chip simulator.
 *
 *   ./chip_tb                     default smoke run, results table, "N passed, M failed"
 *   ./chip_tb --elf prog.elf      run one bare-metal RV32 program (tohost convention)
 *   ./chip_tb --suite all         every registered test
 *   ./chip_tb --help              all options
 * Exit status 0 only if everything selected passed. See docs/sim.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hostlink.h"
#include "tessera_cfg.h"
#include "tessera_multi.h"
#include "tessera_sim.h"
#include "tf.h"
#include "tf_seed.h"
#include "uart_bridge.h"

#ifndef TSIM_CONFIG
#define TSIM_CONFIG "proto"
#endif

static void usage(FILE *f) {
  fprintf(f,
          "usage: chip_tb [options]\n"
          "  (no selection)        run the smoke set: suites sim, elf, boot + two isa programs\n"
          "  --elf FILE            load FILE, boot at its entry, run until it writes `tohost`\n"
          "                        (1 = pass, else value>>1 = failing test number)\n"
          "  --uart-in FILE        with --elf: bytes fed to uart_rx after boot\n"
          "  --test PATTERN        run tests matching suite/name or a glob (repeatable)\n"
          "  --suite NAME          run a whole suite; 'all' = every suite (repeatable)\n"
          "  --shard K/N           of the selected tests run only every N-th, from the K-th (0-based)\n"
          "  --list                list the registered tests\n"
          "  --seed N              global seed (default: $SEED, else 1; always printed)\n"
          "  --max-cycles N        cycle budget per test / for --elf (default: per test; 50M for --elf)\n"
          "  --trace FILE.fst      write an FST waveform (per test when several run)\n"
          "  --timeline FILE.json  write engine activity (queues, engines, TPCs, HBM) as a\n"
          "                        Chrome/Perfetto trace (ui.perfetto.dev; 1 ns = 1 cycle)\n"
          "  --axi-stats           monitor the AXI ports (HBM channels, fabric masters, L2 ports,\n"
          "                        TPC cores): benchmarks print handshakes, stalls and latencies\n"
          "                        per run (AXISTATS lines, docs/sim.md)\n"
          "  --serve PORT          serve a fresh chip to hostlink clients on 127.0.0.1:PORT\n"
          "                        (`hostlink --dev tcp:PORT ...`, docs/hostlink.md) until one\n"
          "                        sends shutdown; --max-cycles limits the simulated time from\n"
          "                        the last reset (default 1G; a client's reset starts a new budget)\n"
          "  --uart-tcp PORT       the chip's UART as a byte stream on 127.0.0.1:PORT (0: a free port,\n"
          "                        printed), as a board's serial port: `hostlink --dev\n"
          "                        serial-tcp:PORT`, nc or socat; with --elf the program is booted,\n"
          "                        else the boot ROM runs (--flash: the image in the flash); until\n"
          "                        SIGINT/SIGTERM or --max-cycles (default 2G)\n"
          "  --uart-pty            the same on a new pseudo-terminal (its path is printed)\n"
          "  --hbm-latency N       HBM read latency in cycles (default %u)\n"
          "  --hbm-bw N            HBM bytes per cycle per channel (default %u)\n"
          "  --hbm-max-reads N     read bursts in flight per HBM channel (default %u)\n"
          "  --hbm-size N          populated HBM bytes, a multiple of mem_region_bytes (4 KiB; default all 1 GiB; above: DECERR)\n"
          "  --flash FILE          with --elf / --serve: contents of the SPI flash (16 MiB), loaded\n"
          "                        at start and written back at the end; the boot ROM boots the\n"
          "                        image found there (docs/spiflash.md); default: an erased flash\n"
          "  --hbm-banks N         DRAM bank/row model: banks per channel (default 0 = off)\n"
          "  --hbm-row-bytes N     row size (default 2048)\n"
          "  --hbm-row-miss N      extra read latency when a burst opens a row (default 0)\n"
          "  --host-latency N      host-memory read latency in cycles (host port; default %u)\n"
          "  --host-bw N           host-link bytes per cycle (default %u)\n"
          "  --l2-set-hash         L2 slices start with the set-index hash on (CTRL.set_hash,\n"
          "                        docs/l2.md \"Banks\"; tests that switch it keep their own)\n"
          "multi-chip (docs/nic.md \"Multi-chip simulation\"):\n"
          "  --chips N             N chips (2..16) joined by NIC links; with --elf each runs the\n"
          "                        program until all wrote tohost, else the group runs --max-cycles\n"
          "                        (default 100k) with the --inject frames; link statistics printed\n"
          "  --topology T          pair: chip 2k port p <-> chip 2k+1 port p; ring: chip i port 0 <->\n"
          "                        chip i+1 port 1; full: chip i port k <-> its k-th other chip\n"
          "                        (default pair for 2 chips, else ring)\n"
          "  --link-latency N      cycles from a frame's last byte to its arrival (default 200)\n"
          "  --link-bw N           wire bytes per cycle (default 32)\n"
          "  --link-drop P, --link-corrupt P, --link-dup P, --link-reorder P\n"
          "                        per-frame impairment rates in percent (e.g. 1 or 0.1; default 0)\n"
          "  --link-reorder-max N  largest extra delay of a reordered frame (default 1000 cycles)\n"
          "  --link-seed N         seed of the links' generators (default 1)\n"
          "  --pcap DIR            write every link direction to DIR/c<A>p<P>-c<B>p<Q>.pcap\n"
          "  --inject C:P:FILE     queue the frames of FILE (pcap, Ethernet, no FCS) for the receive\n"
          "                        side of chip C port P (repeatable)\n"
          "  (the nic suite's multi-chip tests take --link-*, --pcap from here)\n"
          "  -v                    echo the UART and print more\n"
          "  --help                this text\n"
          "config %s; exit status 0 only if everything selected passed.\n",
          TESSERA_HBM_LATENCY_CYCLES, TESSERA_HBM_BYTES_PER_CYCLE, TESSERA_HBM_MAX_READS,
          TESSERA_HOST_LATENCY_CYCLES,
          TESSERA_HOST_BYTES_PER_CYCLE, TSIM_CONFIG);
}

/* A non-negative integer (decimal, 0x hex, 0 octal), optionally with k (1000) or M
 * (1000000); no sign, nothing after it, no overflow past 2^64 - 1. */
static int parse_u64(const char *s, uint64_t *out) {
  char *end;
  if (!s || !(*s >= '0' && *s <= '9')) return 0;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0), mul = 1;
  if (errno || end == s) return 0;
  if (*end == 'M' || *end == 'm') mul = 1000000ull, ++end;
  else if (*end == 'k' || *end == 'K') mul = 1000ull, ++end;
  if (*end || v > ~0ull / mul) return 0;
  *out = v * mul;
  return 1;
}

/* A percentage 0..100 with up to 4 decimals ("1", "0.1", "5%") in parts per million. */
static int parse_percent_ppm(const char *s, uint32_t *ppm) {
  char *end;
  if (!s || !((*s >= '0' && *s <= '9') || *s == '.')) return 0;
  errno = 0;
  double p = strtod(s, &end);
  if (errno || end == s || (*end && strcmp(end, "%")) || p < 0 || p > 100) return 0;
  *ppm = (uint32_t)(p * 10000.0 + 0.5);
  return 1;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* the simulator options of the command line (--elf, --serve, --chips) */
static void sim_opts(const tf_opts_t *o, uint64_t max_cycles, tsim_opts_t *so) {
  tsim_opts_default(so);
  so->seed = o->seed;
  so->max_cycles = max_cycles;
  so->hbm_latency = o->hbm_latency;
  so->hbm_bw = o->hbm_bw;
  so->hbm_max_reads = o->hbm_max_reads;
  so->hbm_size = o->hbm_size;
  so->hbm_banks = o->hbm_banks;
  so->hbm_row_bytes = o->hbm_row_bytes;
  so->hbm_row_miss = o->hbm_row_miss;
  so->flash_file = o->flash;
  so->host_latency = o->host_latency;
  so->host_bw = o->host_bw;
  so->l2_set_hash = o->l2_set_hash;
  so->trace_file = o->trace;
  so->timeline_file = o->timeline;
  so->axi_stats = o->axi_stats;
  so->uart_echo = o->verbose;
}

/* --elf: the run ends when the program writes tohost, or when a trap took the core
 * back into the boot ROM, after which nothing will write tohost:
 *   1  mtvec still the ROM's (the program never set its own): the ROM's handler prints
 *      "boot: exception mcause=..." and parks the core;
 *   2  mtvec = 0: the core jumps to the ROM's reset entry; the ROM starts over, prints
 *      its banner a second time and waits for a boot request.
 * Each is taken once its UART line is complete, so the diagnostic shows it. */
#define ROM_BANNER "Tessera boot ROM"
typedef struct {
  uint32_t tohost, value;
  size_t uart_seen;
  int trapped;
} elf_run_t;
static const char *line_done(const char *p) { return p && strchr(p, '\n') ? p : NULL; }
static int elf_done(tsim_t *s, void *c) {
  elf_run_t *r = c;
  r->value = tsim_mem_read32(s, r->tohost);
  if (r->value) return 1;
  size_t n = tsim_uart_len(s);
  if (n == r->uart_seen) return 0;   /* only look again when the UART printed more */
  r->uart_seen = n;
  const char *log = tsim_uart_log(s), *b = strstr(log, ROM_BANNER);
  if (line_done(strstr(log, "boot: exception mcause="))) return r->trapped = 1;
  if (b && line_done(strstr(b + 1, ROM_BANNER))) return r->trapped = 2;
  return 0;
}

static int run_elf(const char *path, const char *uart_in, const tf_opts_t *o) {
  uint64_t budget = o->max_cycles ? o->max_cycles : 50000000ull;
  tsim_opts_t so;
  sim_opts(o, budget + 100000, &so);
  so.quiet = 1;   /* the diagnostic is printed below, once */
  tsim_t *s = tsim_create(&so);
  if (!s) {
    fprintf(stderr, "chip_tb: cannot create simulator\n");
    return 2;
  }
  tsim_elf_info_t info;
  if (tsim_load_elf(s, path, &info) != TSIM_OK) {
    fprintf(stderr, "chip_tb: ELF rejected: %s\n", tsim_last_error(s));
    tsim_destroy(s);
    return 2;
  }
  if (!info.has_tohost) {
    fprintf(stderr, "chip_tb: %s has no `tohost` symbol; cannot tell pass from fail\n", path);
    tsim_destroy(s);
    return 2;
  }
  /* tohost must be a word the core can write and the host can watch: ISRAM, DSRAM or
   * HBM (not the boot ROM, not the host-memory window the core cannot reach, nothing
   * unmapped) */
  const uint32_t th = info.tohost;
  if ((th & 3u) || !(th - TESSERA_ISRAM_BASE <= TESSERA_ISRAM_BYTES - 4u ||
                     th - TESSERA_DSRAM_BASE <= TESSERA_DSRAM_BYTES - 4u ||
                     (uint64_t)(th - TESSERA_HBM_BASE) + 4u <= TESSERA_HBM_SIZE)) {
    fprintf(stderr, "chip_tb: %s: symbol `tohost` at 0x%08x is not an aligned word of writable RAM\n", path,
            info.tohost);
    tsim_destroy(s);
    return 2;
  }
  printf("chip_tb: %s: entry 0x%08x, tohost 0x%08x, %u segment(s), %u bytes, seed %llu\n", path,
         info.entry, info.tohost, info.segments, info.bytes, (unsigned long long)o->seed);
  fflush(stdout);
  if (tsim_boot(s, info.entry) != TSIM_OK) {
    fprintf(stderr, "chip_tb: boot failed: %s\n", tsim_last_error(s));
    tsim_destroy(s);
    return 1;
  }
  if (uart_in) {
    FILE *f = fopen(uart_in, "rb");
    if (!f) {
      fprintf(stderr, "chip_tb: cannot open %s\n", uart_in);
      tsim_destroy(s);
      return 2;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) tsim_uart_input(s, buf, n);
    fclose(f);
  }
  if (o->progress) tf_progress_install(s, budget);
  double t0 = now_s();
  uint64_t c0 = tsim_cycles(s);
  elf_run_t er = {info.tohost, 0, 0, 0};
  int rc = tsim_run_until(s, elf_done, &er, budget, 32);
  double dt = now_s() - t0;
  if (o->progress) tf_progress_clear();
  /* the cycle of the end of the run: the diagnostic prints the same (its own host-port
   * reads of the engines come after it) */
  uint64_t end = tsim_cycles(s), cyc = end - c0, retired = tsim_retired_count(s);
  uint32_t v = er.value;
  int pass = rc == TSIM_OK && !er.trapped && v == 1;
  if (er.trapped == 1)
    printf("FAIL: %s: the program trapped into the boot ROM's exception handler (its own mtvec was never set); "
           "the core stopped\n", path);
  else if (er.trapped == 2)
    printf("FAIL: %s: the program trapped with mtvec 0: the core re-entered the boot ROM, which started over\n",
           path);
  else if (rc != TSIM_OK)
    printf("FAIL: %s: %s\n", path, tsim_last_error(s));
  else if (v == 1)
    printf("PASS: %s\n", path);
  else
    printf("FAIL: %s: tohost = 0x%08x, failing test number %u\n", path, v, v >> 1);
  fflush(stdout);
  if (!pass)
    tsim_diag(s, stdout, er.trapped == 1 ? "program trapped (boot ROM exception handler)"
                         : er.trapped == 2 ? "program trapped with mtvec 0 (boot ROM restarted)"
                         : rc != TSIM_OK ? tsim_last_error(s) : "test reported failure");
  printf("cycle %llu (%llu since boot), retired %llu, %.2f s, %.0f cycles/s\n", (unsigned long long)end,
         (unsigned long long)cyc, (unsigned long long)retired, dt, dt > 0 ? cyc / dt : 0.0);
  printf("%d passed, %d failed\n", pass, !pass);
  tsim_destroy(s);
  return pass ? 0 : 1;
}

/* --chips N: N chips joined by links in a topology (docs/nic.md "Multi-chip simulation").
 * With --elf every chip runs the program (booted at the same cycle) until each one wrote
 * `tohost`; pass iff every value is 1. Without it the group runs --max-cycles cycles
 * (default 100000) with the --inject frames, then prints what crossed each link. */
typedef struct {
  tsim_multi_t *m;
  uint32_t tohost;
} multi_run_t;
static int multi_done(tsim_multi_t *m, void *c) {
  const multi_run_t *r = c;
  for (unsigned i = 0; i < tsim_multi_count(m); ++i)
    if (!tsim_mem_read32(tsim_multi_chip(m, i), r->tohost)) return 0;
  return 1;
}

static void print_links(tsim_multi_t *m) {
  for (unsigned c = 0; c < tsim_multi_count(m); ++c) {
    for (unsigned p = 0; p < tsim_nic_ports(); ++p) {
      tsim_nic_stats_t ns;
      tsim_nic_stats(tsim_multi_chip(m, c), p, &ns);
      tsim_link_t *l = tsim_multi_link(m, c, p);
      printf("NIC chip %u port %u: tx %llu frames %llu bytes, rx %llu frames %llu bytes", c, p,
             (unsigned long long)ns.tx_frames, (unsigned long long)ns.tx_bytes,
             (unsigned long long)ns.rx_frames, (unsigned long long)ns.rx_bytes);
      if (l) {
        tsim_link_stats_t st;
        tsim_link_stats(l, &st);
        printf("; link out: sent %llu, delivered %llu, dropped %llu, corrupted %llu, duplicated %llu, "
               "reordered %llu, wire busy %llu cycles",
               (unsigned long long)st.sent, (unsigned long long)st.delivered, (unsigned long long)st.dropped,
               (unsigned long long)st.corrupted, (unsigned long long)st.duplicated,
               (unsigned long long)st.reordered, (unsigned long long)st.busy_cycles);
      }
      printf("\n");
    }
  }
}

static int run_multi(const char *path, const tf_opts_t *o) {
  const unsigned n = o->chips;
  const char *topo = o->topology ? o->topology : n == 2 ? "pair" : "ring";
  const uint64_t budget = o->max_cycles ? o->max_cycles : path ? 50000000ull : 100000ull;
  tsim_t *chip[16] = {0};
  tsim_multi_t *m = tsim_multi_new();
  int rc = 2, pass = 0;
  tsim_elf_info_t info;
  memset(&info, 0, sizeof info);
  for (unsigned i = 0; i < n; ++i) {
    tsim_opts_t so;
    sim_opts(o, budget + 100000, &so);
    so.seed = o->seed + i;
    so.quiet = 1;
    if (i) so.trace_file = so.timeline_file = NULL;  /* waves and timeline of chip 0 only */
    if (i) so.flash_file = NULL;  /* --flash: chip 0's flash file (the others: erased, in memory) */
    so.uart_echo = o->verbose && !i;
    if (!(chip[i] = tsim_create(&so)) || tsim_multi_add(m, chip[i]) < 0) {
      fprintf(stderr, "chip_tb: cannot create chip %u\n", i);
      goto out;
    }
    if (path && tsim_load_elf(chip[i], path, &info) != TSIM_OK) {
      fprintf(stderr, "chip_tb: ELF rejected: %s\n", tsim_last_error(chip[i]));
      goto out;
    }
  }
  if (path && !info.has_tohost) {
    fprintf(stderr, "chip_tb: %s has no `tohost` symbol; cannot tell pass from fail\n", path);
    goto out;
  }
  if (tsim_multi_topology(m, topo, &o->link) != TSIM_OK) {
    fprintf(stderr, "chip_tb: topology %s does not fit %u chips of %u NIC ports (see --help)\n", topo, n,
            tsim_nic_ports());
    goto out;
  }
  if (o->pcap_dir && tsim_multi_pcap(m, o->pcap_dir) != TSIM_OK) {
    fprintf(stderr, "chip_tb: cannot write pcap files into %s\n", o->pcap_dir);
    goto out;
  }
  for (unsigned k = 0; k < o->ninject; ++k) {
    unsigned nf = 0;
    if (o->inject[k].chip >= n || o->inject[k].port >= tsim_nic_ports() ||
        tsim_multi_inject(m, o->inject[k].chip, o->inject[k].port, o->inject[k].path, &nf) != TSIM_OK) {
      fprintf(stderr, "chip_tb: --inject %u:%u:%s: no such chip/port or not a readable pcap file\n",
              o->inject[k].chip, o->inject[k].port, o->inject[k].path);
      goto out;
    }
    printf("chip_tb: %u frame(s) of %s queued for chip %u port %u\n", nf, o->inject[k].path, o->inject[k].chip,
           o->inject[k].port);
  }
  printf("chip_tb: %u chips, topology %s, link latency %u cycles, %u bytes/cycle, drop/corrupt/dup/reorder "
         "%u/%u/%u/%u ppm, link seed %llu, seed %llu\n",
         n, topo, o->link.latency, o->link.bytes_per_cycle, o->link.drop_ppm, o->link.corrupt_ppm,
         o->link.dup_ppm, o->link.reorder_ppm, (unsigned long long)o->link.seed, (unsigned long long)o->seed);
  fflush(stdout);
  double t0 = now_s();
  int r;
  if (path) {
    for (unsigned i = 0; i < n; ++i)
      if (tsim_boot(chip[i], info.entry) != TSIM_OK) {
        fprintf(stderr, "chip_tb: chip %u: boot failed: %s\n", i, tsim_last_error(chip[i]));
        rc = 1;
        goto out;
      }
    multi_run_t mr = {m, info.tohost};
    r = tsim_multi_run_until(m, multi_done, &mr, budget, 32);
    pass = r == TSIM_OK;
    for (unsigned i = 0; i < n; ++i) {
      const uint32_t v = tsim_mem_read32(chip[i], info.tohost);
      pass &= v == 1;
      printf("chip %u: tohost = 0x%08x%s\n", i, v, v == 1 ? " (pass)" : v ? " (fail)" : " (not written)");
    }
    if (r != TSIM_OK) printf("FAIL: %s: %s\n", path, tsim_last_error(chip[0]));
  } else {
    r = tsim_multi_step(m, budget);
    pass = r == TSIM_OK;
    if (r != TSIM_OK) printf("FAIL: %s\n", tsim_last_error(chip[0]));
  }
  double dt = now_s() - t0;
  const uint64_t cyc = tsim_multi_cycles(m);
  print_links(m);
  printf("%llu cycles of %u chips, %.2f s, %.0f cycles/s\n", (unsigned long long)cyc, n, dt, dt > 0 ? cyc / dt : 0.0);
  printf("%d passed, %d failed\n", pass, !pass);
  rc = pass ? 0 : 1;
out:
  tsim_multi_free(m);
  for (unsigned i = 0; i < n; ++i) tsim_destroy(chip[i]);
  return rc;
}

/* --serve: one chip instance behind hostlink's tcp server (loopback only). The
 * cycle budget (--max-cycles) counts from the last reset, so a client's RESET
 * recovers a chip that ran into it. */
static void serving(int port, void *arg) {
  const tf_opts_t *o = arg;
  printf("chip_tb: serving config %s on 127.0.0.1:%d, seed %llu\n", TSIM_CONFIG, port, (unsigned long long)o->seed);
  fflush(stdout);
}
/* --serve: one chip instance behind hostlink's tcp server (loopback only). */
static int serve(int port, const tf_opts_t *o) {
  tsim_opts_t so;
  sim_opts(o, o->max_cycles ? o->max_cycles : 1000000000ull, &so);
  so.quiet = !o->verbose;
  tsim_t *s = tsim_create(&so);
  hl_dev_t *d = NULL;
  if (!s || hl_open_sim_attach(s, &d) != HL_OK) {
    fprintf(stderr, "chip_tb: cannot create simulator\n");
    return 2;
  }
  void *ctx;
  const hl_ops_t *ops = hl_transport(d, &ctx);
  hl_serve_opts_t so2;
  hl_serve_opts_default(&so2);
  so2.on_bound = serving;
  so2.arg = (void *)o;
  int rc = hl_serve_ex(ops, ctx, port, NULL, NULL, o->verbose, &so2);
  if (rc == HL_EADDRINUSE || rc == HL_EIO)
    fprintf(stderr, "chip_tb: cannot serve on 127.0.0.1:%d: %s\n", port, hl_strerror(rc));
  else
    printf("chip_tb: server stopped after %llu cycles (%s)\n", (unsigned long long)tsim_cycles(s),
           rc ? hl_strerror(rc) : "shutdown");
  hl_close(d);
  tsim_destroy(s);
  return rc ? 1 : 0;
}

int main(int argc, char **argv) {
  tf_opts_t o;
  memset(&o, 0, sizeof o);
  tsim_link_cfg_default(&o.link);
  int have_seed = 0, list = 0;
  const char *elf = NULL, *uart_in = NULL;
  int serve_port = 0, uart_tcp = -1, uart_pty = 0;
  unsigned shard_k = 0, shard_n = 1;
  const char *pats[64];
  unsigned npats = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDV()                                                   \
  do {                                                            \
    if (!v) {                                                     \
      fprintf(stderr, "chip_tb: %s needs a value\n", a);          \
      return 2;                                                   \
    }                                                             \
    ++i;                                                          \
  } while (0)
    uint64_t n;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--elf")) {
      NEEDV();
      elf = v;
    } else if (!strcmp(a, "--uart-in")) {
      NEEDV();
      uart_in = v;
    } else if (!strcmp(a, "--test") || !strcmp(a, "--suite")) {
      NEEDV();
      if (npats == sizeof pats / sizeof pats[0]) {
        fprintf(stderr, "chip_tb: more than %u --test/--suite patterns\n", (unsigned)(sizeof pats / sizeof pats[0]));
        return 2;
      }
      pats[npats++] = v;
    } else if (!strcmp(a, "--list")) {
      list = 1;
    } else if (!strcmp(a, "--shard")) {
      NEEDV();
      char *end = NULL;
      unsigned long k = strtoul(v, &end, 10), m = 0;
      if (!end || *end != '/' || !(m = strtoul(end + 1, &end, 10)) || *end || k >= m || m > 64) goto bad;
      shard_k = (unsigned)k;
      shard_n = (unsigned)m;
    } else if (!strcmp(a, "--seed")) {
      NEEDV();
      if (!parse_u64(v, &o.seed)) goto bad;
      have_seed = 1;
    } else if (!strcmp(a, "--max-cycles")) {
      NEEDV();
      if (!parse_u64(v, &o.max_cycles) || !o.max_cycles) goto bad;
    } else if (!strcmp(a, "--serve")) {
      NEEDV();
      if (!parse_u64(v, &n) || !n || n > 65535) goto bad;
      serve_port = (int)n;
    } else if (!strcmp(a, "--uart-tcp")) {
      NEEDV();
      if (!parse_u64(v, &n) || n > 65535) goto bad;
      uart_tcp = (int)n;
    } else if (!strcmp(a, "--uart-pty")) {
      uart_pty = 1;
    } else if (!strcmp(a, "--trace")) {
      NEEDV();
      o.trace = v;
    } else if (!strcmp(a, "--timeline")) {
      NEEDV();
      o.timeline = v;
    } else if (!strcmp(a, "--hbm-latency")) {
      NEEDV();
      if (!parse_u64(v, &n) || !n || n > 100000) goto bad;
      o.hbm_latency = (unsigned)n;
    } else if (!strcmp(a, "--hbm-bw")) {
      NEEDV();
      if (!parse_u64(v, &n) || !n || n > 4096) goto bad;
      o.hbm_bw = (unsigned)n;
    } else if (!strcmp(a, "--hbm-max-reads")) {
      NEEDV();
      if (!parse_u64(v, &n) || !n || n > 1024) goto bad;
      o.hbm_max_reads = (unsigned)n;
    } else if (!strcmp(a, "--host-latency")) {
      NEEDV();
      if (!parse_u64(v, &n) || !n || n > 100000) goto bad;
      o.host_latency = (unsigned)n;
    } else if (!strcmp(a, "--host-bw")) {
      NEEDV();
      if (!parse_u64(v, &n) || !n || n > 4096) goto bad;
      o.host_bw = (unsigned)n;
    } else if (!strcmp(a, "--axi-stats")) {
      o.axi_stats = 1;
    } else if (!strcmp(a, "--l2-set-hash")) {
      o.l2_set_hash = 1;
    } else if (!strcmp(a, "--hbm-size")) {
      NEEDV();
      if (!parse_u64(v, &o.hbm_size) || o.hbm_size > TESSERA_HBM_SIZE || (o.hbm_size % TESSERA_MEM_REGION_BYTES)) goto bad;  /* whole regions (docs/tpc_rtl.md) */
    } else if (!strcmp(a, "--flash")) {
      NEEDV();
      o.flash = v;
    } else if (!strcmp(a, "--hbm-banks")) {
      NEEDV();
      if (!parse_u64(v, &n) || n > 256) goto bad;
      o.hbm_banks = (unsigned)n;
    } else if (!strcmp(a, "--hbm-row-bytes")) {
      NEEDV();
      if (!parse_u64(v, &n) || !n || n > (1u << 20)) goto bad;
      o.hbm_row_bytes = (unsigned)n;
    } else if (!strcmp(a, "--hbm-row-miss")) {
      NEEDV();
      if (!parse_u64(v, &n) || n > 100000) goto bad;
      o.hbm_row_miss = (unsigned)n;
    } else if (!strcmp(a, "--chips")) {
      NEEDV();
      if (!parse_u64(v, &n) || n < 2 || n > 16) goto bad;
      o.chips = (unsigned)n;
    } else if (!strcmp(a, "--topology")) {
      NEEDV();
      if (strcmp(v, "pair") && strcmp(v, "ring") && strcmp(v, "full")) goto bad;
      o.topology = v;
    } else if (!strcmp(a, "--link-latency")) {
      NEEDV();
      if (!parse_u64(v, &n) || n > 100000000) goto bad;
      o.link.latency = (uint32_t)n;
    } else if (!strcmp(a, "--link-bw")) {
      NEEDV();
      if (!parse_u64(v, &n) || !n || n > 4096) goto bad;
      o.link.bytes_per_cycle = (uint32_t)n;
    } else if (!strcmp(a, "--link-drop") || !strcmp(a, "--link-corrupt") || !strcmp(a, "--link-dup") ||
               !strcmp(a, "--link-reorder")) {
      NEEDV();
      uint32_t ppm;
      if (!parse_percent_ppm(v, &ppm)) goto bad;
      *(a[7] == 'd' && a[8] == 'r' ? &o.link.drop_ppm : a[7] == 'c' ? &o.link.corrupt_ppm
        : a[7] == 'd' ? &o.link.dup_ppm : &o.link.reorder_ppm) = ppm;
    } else if (!strcmp(a, "--link-reorder-max")) {
      NEEDV();
      if (!parse_u64(v, &n) || !n || n > 100000000) goto bad;
      o.link.reorder_max = (uint32_t)n;
    } else if (!strcmp(a, "--link-seed")) {
      NEEDV();
      if (!parse_u64(v, &o.link.seed)) goto bad;
    } else if (!strcmp(a, "--pcap")) {
      NEEDV();
      o.pcap_dir = v;
    } else if (!strcmp(a, "--inject")) {
      NEEDV();
      unsigned c, p;
      int off = 0;
      if (o.ninject == sizeof o.inject / sizeof o.inject[0] || sscanf(v, "%u:%u:%n", &c, &p, &off) != 2 || !off ||
          !v[off])
        goto bad;
      o.inject[o.ninject].chip = c;
      o.inject[o.ninject].port = p;
      o.inject[o.ninject++].path = v + off;
    } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
      o.verbose = 1;
    } else {
      fprintf(stderr, "chip_tb: unknown option %s (see --help)\n", a);
      return 2;
    }
    continue;
  bad:
    fprintf(stderr, "chip_tb: bad value for %s: '%s' (expected %s; see --help)\n", a, v,
            !strcmp(a, "--shard") ? "K/N with 0 <= K < N <= 64"
            : !strcmp(a, "--topology") ? "pair, ring or full"
            : !strcmp(a, "--inject") ? "CHIP:PORT:FILE.pcap (at most 16)"
            : !strncmp(a, "--link-", 7) && strcmp(a, "--link-latency") && strcmp(a, "--link-bw") &&
                    strcmp(a, "--link-reorder-max") && strcmp(a, "--link-seed")
                ? "a percentage from 0 to 100"
                : "a non-negative integer in the option's range");
    return 2;
  }
  if (!have_seed) o.seed = tf_env_seed(1);
  o.progress = isatty(2);

  if (o.chips && (serve_port || npats || list || uart_in || uart_tcp >= 0 || uart_pty)) {
    fprintf(stderr, "chip_tb: --chips runs --elf or an idle network; the nic suite's tests create their own chips\n");
    return 2;
  }
  if (!o.chips && (o.topology || o.ninject)) {
    fprintf(stderr, "chip_tb: --topology and --inject need --chips\n");
    return 2;
  }
  if (o.chips) return run_multi(elf, &o);

  if (uart_tcp >= 0 || uart_pty) {
    if ((uart_tcp >= 0 && uart_pty) || serve_port || npats || list || uart_in) {
      fprintf(stderr, "chip_tb: --uart-tcp / --uart-pty run one chip (with --elf, --flash and the HBM options); "
                      "not with each other, --serve, --test/--suite/--list or --uart-in\n");
      return 2;
    }
    tsim_opts_t so;
    sim_opts(&o, o.max_cycles, &so);
    return uart_bridge(&so, elf, uart_tcp, uart_pty, o.progress);
  }
  if (serve_port) {
    if (elf || npats || list) {
      fprintf(stderr, "chip_tb: --serve cannot be combined with --elf/--test/--suite/--list\n");
      return 2;
    }
    return serve(serve_port, &o);
  }
  if (elf) {
    if (npats || list) {
      fprintf(stderr, "chip_tb: --elf cannot be combined with --test/--suite/--list\n");
      return 2;
    }
    return run_elf(elf, uart_in, &o);
  }
  if (uart_in) {
    fprintf(stderr, "chip_tb: --uart-in needs --elf\n");
    return 2;
  }

  tf_init();
  unsigned n = tf_count();
  if (list) {
    for (unsigned i = 0; i < n; ++i) {
      const tf_test_t *t = tf_get(i);
      int show = !npats;
      for (unsigned p = 0; p < npats; ++p) show |= tf_match(t, pats[p]);
      if (show)
        printf("%s/%s%s\n", t->suite, t->name, (t->flags & TF_SMOKE) ? "  [smoke]" : "");
    }
    return 0;
  }
  unsigned char *sel = calloc(n ? n : 1, 1);
  unsigned nsel = 0;
  if (npats) {
    for (unsigned p = 0; p < npats; ++p) {
      unsigned hit = 0;
      for (unsigned i = 0; i < n; ++i)
        if (tf_match(tf_get(i), pats[p])) sel[i] = 1, ++hit;
      if (!hit && strcmp(pats[p], "all")) {
        /* A suite with no tests found (e.g. no programs built) is not an error
         * for --suite all, but a typo in an explicit pattern is. */
        fprintf(stderr, "chip_tb: no test matches '%s' (see --list)\n", pats[p]);
        free(sel);
        return 2;
      }
    }
  } else {
    for (unsigned i = 0; i < n; ++i) sel[i] = (tf_get(i)->flags & TF_SMOKE) != 0;
  }
  /* --shard K/N: every N-th selected test starting at the K-th, so N processes
   * (make test runs them side by side) together run the selection once */
  for (unsigned i = 0, rank = 0; i < n; ++i)
    if (sel[i]) sel[i] = (rank++ % shard_n) == shard_k;
  for (unsigned i = 0; i < n; ++i) nsel += sel[i];
  if (!nsel && shard_n > 1) {
    printf("chip_tb: shard %u/%u has no tests\n0 passed, 0 failed\n", shard_k, shard_n);
    free(sel);
    return 0;
  }
  unsigned fails = tf_run(sel, &o);
  free(sel);
  return fails ? 1 : 0;
}
