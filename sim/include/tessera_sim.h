/* Tessera chip simulator: C API around the Verilated tessera_top.
 *
 * One tsim_t is one chip instance with its device-memory (HBM) model, UART
 * decoder/driver, host-port driver and retirement trace ring. Everything is
 * cycle based and deterministic. See docs/sim.md for the full description.
 *
 * Return codes: functions returning int give TSIM_OK (0) on success and a
 * negative TSIM_E* code on failure; tsim_last_error() describes the last failure.
 */
#ifndef TESSERA_SIM_H
#define TESSERA_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  TSIM_OK = 0,
  TSIM_EBUS = -1,      /* host access answered with host_err (unmapped address, slave error) */
  TSIM_ETIMEOUT = -2,  /* cycle budget exhausted before the condition held */
  TSIM_ELIMIT = -3,    /* the instance's global cycle limit (max_cycles) was reached */
  TSIM_EADDR = -4,     /* back-door address not backed by any memory */
  TSIM_EELF = -5,      /* ELF rejected (see tsim_last_error) */
  TSIM_EIO = -6,       /* file could not be opened/read/written */
  TSIM_EARG = -7,      /* invalid argument */
  TSIM_ESDRAM = -8     /* the SDRAM model flagged a timing violation (device_memory = "sdram") */
};

typedef struct tsim tsim_t;

typedef struct {
  uint64_t seed;            /* recorded for diagnostics; the chip itself is deterministic */
  uint64_t max_cycles;      /* cycle limit (0 = none), counted from the last reset; runs stop there */
  unsigned hbm_latency;     /* HBM read latency in cycles (0 = TESSERA_HBM_LATENCY_CYCLES) */
  unsigned hbm_bw;          /* HBM bytes/cycle per channel (0 = TESSERA_HBM_BYTES_PER_CYCLE) */
  unsigned hbm_max_reads;   /* read bursts in flight per HBM channel (0 = TESSERA_HBM_MAX_READS) */
  uint64_t hbm_size;        /* populated HBM bytes from its base (0 = TESSERA_HBM_SIZE); above: DECERR */
  unsigned hbm_banks;       /* DRAM bank/row model: banks per channel (0 = off, the default) */
  unsigned hbm_row_bytes;   /* row size in bytes (0 = 2048) */
  unsigned hbm_row_miss;    /* extra read latency when a burst opens a new row */
  unsigned host_latency;    /* host-memory model read latency (0 = TESSERA_HOST_LATENCY_CYCLES) */
  unsigned host_bw;         /* host-link bytes/cycle (0 = TESSERA_HOST_BYTES_PER_CYCLE) */
  int l2_set_hash;          /* after every reset, set CTRL.set_hash in each L2 slice (host port) */
  const char *trace_file;   /* FST waveform file, NULL = no waves */
  const char *timeline_file;/* engine-activity timeline (trace-event JSON for ui.perfetto.dev),
                               written by tsim_destroy; NULL = none (docs/sim.md "Timeline") */
  int axi_stats;            /* monitor the chip's AXI ports (docs/sim.md "AXI port statistics");
                               tsim_axistats_print reports them */
  int uart_echo;            /* echo decoded UART TX bytes to stdout */
  unsigned uart_rx_gap;     /* idle bit times between bytes driven into uart_rx_i (default 2) */
  int quiet;                /* do not print diagnostics to stderr on timeouts/limits */
  const char *flash_file;   /* SPI flash contents: loaded at creation, saved by tsim_destroy
                               (NULL = an erased flash, not saved; docs/spiflash.md) */
  unsigned flash_prog_cycles;   /* flash model page-program time (0 = model default) */
  unsigned flash_erase_cycles;  /* flash model sector-erase time (0 = model default) */
} tsim_opts_t;

typedef struct {
  uint64_t bytes_read, bytes_written, read_bursts, write_bursts, busy_cycles, decerr, slverr,
      row_misses;
} tsim_hbm_stats_t;

/* ---- lifetime */
void tsim_opts_default(tsim_opts_t *o);
/* Builds the model, clears ISRAM/DSRAM/HBM, applies reset (tsim_reset). NULL on failure. */
tsim_t *tsim_create(const tsim_opts_t *o);
void tsim_destroy(tsim_t *s);
/* Hold rst_ni low for a few cycles, then release. Memory contents are kept;
 * bus models, UART decoder/driver and the retirement ring are cleared. */
void tsim_reset(tsim_t *s);
const char *tsim_last_error(const tsim_t *s);

/* ---- running */
uint64_t tsim_cycles(const tsim_t *s);           /* cycles since create */
/* Run n cycles (fewer if max_cycles is reached: then TSIM_ELIMIT; with the SDRAM, stops
 * after the cycle in which its model flagged a timing violation: TSIM_ESDRAM, the rule
 * and cycle in tsim_last_error). */
int tsim_step(tsim_t *s, uint64_t n);
/* Run until pred(s, ctx) returns non-zero. pred is called every `poll` cycles
 * (0 = every 32). Returns TSIM_OK, TSIM_ETIMEOUT after `budget` cycles, or
 * TSIM_ELIMIT (or TSIM_ESDRAM, as tsim_step). On a timeout/limit a diagnostic is printed
 * (unless quiet). */
typedef int (*tsim_pred_fn)(tsim_t *s, void *ctx);
int tsim_run_until(tsim_t *s, tsim_pred_fn pred, void *ctx, uint64_t budget, unsigned poll);
/* Print cycle, last retired PC, the retirement ring, UART tail and HBM state. */
void tsim_diag(tsim_t *s, FILE *f, const char *cause);
/* How many diagnostics this instance has printed (a test framework prints one for a
 * failed test unless the run already did). */
unsigned tsim_diag_count(const tsim_t *s);
/* Optional progress callback, called about every `every` cycles during runs. */
typedef void (*tsim_progress_fn)(tsim_t *s, void *ctx);
void tsim_set_progress(tsim_t *s, tsim_progress_fn fn, void *ctx, uint64_t every);

/* ---- back door (no simulated time passes). Addresses: BOOTROM, ISRAM, DSRAM
 * (populated sizes), HBM and the host window. A range must lie inside one region.
 * The boot ROM is read-only here as on the bus: tsim_mem_write refuses it (TSIM_EBUS);
 * its contents come from the $readmemh image only. */
int tsim_mem_read(tsim_t *s, uint32_t addr, void *buf, size_t len);
int tsim_mem_write(tsim_t *s, uint32_t addr, const void *buf, size_t len);
uint32_t tsim_mem_read32(tsim_t *s, uint32_t addr);     /* 0 if unmapped */
int tsim_mem_write32(tsim_t *s, uint32_t addr, uint32_t value);
int tsim_mem_is_backed(uint32_t addr, size_t len);      /* 1 if the back door covers it */

/* ---- front door: the host_* OBI port (simulated time passes) */
/* addr must be 4-byte aligned (TSIM_EARG otherwise, nothing is accessed); a write to the
 * boot ROM is answered with a bus error (TSIM_EBUS) */
int tsim_host_read32(tsim_t *s, uint32_t addr, uint32_t *value);
int tsim_host_write32(tsim_t *s, uint32_t addr, uint32_t value);
int tsim_host_write_be(tsim_t *s, uint32_t addr, uint32_t value, unsigned be);
uint32_t tsim_host_irq(tsim_t *s);                       /* host_irq_o level */

/* ---- programs */
typedef struct {
  uint32_t entry;
  uint32_t tohost;      /* address of symbol `tohost`, 0 if absent */
  int has_tohost;
  unsigned segments;    /* PT_LOAD segments loaded */
  uint32_t bytes;       /* bytes loaded (memsz total) */
} tsim_elf_info_t;
/* Validate then load an ELF through the back door. Rejected files load nothing
 * and return TSIM_EELF / TSIM_EIO with a message in tsim_last_error(). */
int tsim_load_elf(tsim_t *s, const char *path, tsim_elf_info_t *info);
/* Look up a symbol of the last loaded ELF. */
int tsim_elf_symbol(tsim_t *s, const char *name, uint32_t *addr);
/* Write SYSCTRL.BOOT_ADDR = entry and BOOT_CTRL.GO = 1 through the host port. */
int tsim_boot(tsim_t *s, uint32_t entry);
/* Run until the word at tohost_addr becomes non-zero (polled through the back
 * door every 32 cycles). *value gets the word. TSIM_OK / TSIM_ETIMEOUT / TSIM_ELIMIT. */
int tsim_run_tohost(tsim_t *s, uint32_t tohost_addr, uint64_t budget, uint32_t *value);

/* ---- UART */
/* Everything received on uart_tx_o (raw bytes, may contain NUL; followed by a
 * terminating NUL; use tsim_uart_len for the length). */
const char *tsim_uart_log(const tsim_t *s);
/* 1 if `text` occurs in the UART log (binary safe). */
int tsim_uart_contains(const tsim_t *s, const char *text);
/* The SPI flash model on the chip's flash pins (sim/include/tessera_flash.h): back-door
 * access to its contents and state; it keeps its contents across tsim_reset. */
struct tflash;
struct tflash *tsim_flash(tsim_t *s);
/* Printable copy of the last `max` bytes of the log into buf (control bytes
 * other than \n \r \t shown as '.'); returns buf. */
char *tsim_uart_tail(const tsim_t *s, char *buf, size_t bufsize);
size_t tsim_uart_len(const tsim_t *s);
void tsim_uart_clear(tsim_t *s);
void tsim_uart_echo(tsim_t *s, int on);
void tsim_uart_input(tsim_t *s, const void *data, size_t len);  /* queue bytes for uart_rx_i */
size_t tsim_uart_input_pending(const tsim_t *s);
uint64_t tsim_uart_frame_errors(const tsim_t *s);
/* Run until `text` appears in the UART log (TSIM_OK / TSIM_ETIMEOUT / TSIM_ELIMIT). */
int tsim_run_until_uart(tsim_t *s, const char *text, uint64_t budget);

/* ---- waves */
int tsim_trace_open(tsim_t *s, const char *fst_path);
void tsim_trace_close(tsim_t *s);

/* ---- engine-activity timeline (docs/sim.md "Timeline"): recording starts now (one
 * at a time: TSIM_EARG if one is open); close writes the trace-event JSON (TSIM_EIO if
 * it cannot). tsim_destroy closes an open one (tsim_opts_t.timeline_file opens one at
 * creation). */
int tsim_timeline_open(tsim_t *s, const char *json_path);
int tsim_timeline_close(tsim_t *s);

/* ---- AXI port statistics (docs/sim.md "AXI port statistics"; tsim_opts_t.axi_stats):
 * clear starts a new window; print writes one "AXISTATS <label> <port> ..." line per port
 * that moved something in the window to stdout. Both do nothing when not enabled. */
void tsim_axistats_enable(tsim_t *s);  /* start monitoring now (as if opened with axi_stats) */
void tsim_axistats_clear(tsim_t *s);
void tsim_axistats_print(tsim_t *s, const char *label);
typedef struct {
  uint64_t ar, r, aw, w, b;            /* bursts (AR, AW, B) and beats (R, W) since the clear */
  double rd_first, rd_last, wr_lat;    /* mean cycles: AR to first / last R beat, AW to B */
} tsim_axi_port_stats_t;
/* One port's counts by its AXISTATS name ("HBM0", "fab.sys", "L2_0.tpc", "TPC3", ...);
 * TSIM_EARG when the statistics are off or no port has that name. */
int tsim_axistats_port(tsim_t *s, const char *name, tsim_axi_port_stats_t *st);

/* ---- retirement trace ring (last TSIM_RETIRE_RING retired instructions) */
#define TSIM_RETIRE_RING 16
/* Copies up to max entries, oldest first; returns the number copied. */
unsigned tsim_retired(const tsim_t *s, uint32_t *pcs, uint32_t *insns, unsigned max);
uint64_t tsim_retired_count(const tsim_t *s);

/* ---- HBM model */
unsigned tsim_hbm_channels(void);
/* HBM channel that serves a device-memory address (interleave granule and channel hash of
 * the configuration, docs/fabric.md "Routing"). */
unsigned tsim_hbm_channel(uint32_t addr);
void tsim_hbm_stats(const tsim_t *s, unsigned ch, tsim_hbm_stats_t *out);
void tsim_hbm_config(tsim_t *s, unsigned latency, unsigned bytes_per_cycle);
/* Populated size (bytes from TESSERA_HBM_BASE; beats above answer DECERR; 0 = full). */
void tsim_hbm_set_size(tsim_t *s, uint64_t bytes);
/* Bank/row model of every channel (banks = 0: off). */
void tsim_hbm_row_model(tsim_t *s, unsigned banks, unsigned row_bytes, unsigned row_miss_cycles);

/* ---- SDR SDRAM (device_memory = "sdram" in config/tessera.toml: the device-memory
 * channels go through the SDRAM mux and controller to the SDRAM model, docs/sdram.md
 * "In the chip model"; the tsim_hbm_* functions above then have no effect and report
 * zeros). */
typedef struct {
  uint64_t cycles, acts, reads, writes, precharges, refreshes;
  uint64_t violations;      /* timing rules broken since creation (docs/sdram.md "SDRAM model") */
  uint64_t max_ref_gap;     /* longest interval between two AUTO REFRESH, cycles */
  uint64_t bytes;           /* the SDRAM's size */
} tsim_sdram_stats_t;
/* 1 when this configuration's device memory is the SDRAM. */
int tsim_has_sdram(void);
/* Statistics (all zero with the HBM models). */
void tsim_sdram_stats(const tsim_t *s, tsim_sdram_stats_t *out);
/* Recorded violation i ("cycle N rule: detail", the SDRAM model's cycle count since the
 * last chip reset), NULL past the last one. */
const char *tsim_sdram_violation(const tsim_t *s, unsigned i);

/* ---- host memory: the model behind the chip's host AXI master (the DMA engines' host
 * port; HOST window of docs/memory_map.md). The back door (tsim_mem_read/write) reaches
 * it at its HOST addresses, as the host's own RAM. */
void tsim_host_mem_stats(const tsim_t *s, tsim_hbm_stats_t *out);
void tsim_host_mem_config(tsim_t *s, unsigned latency, unsigned bytes_per_cycle);
/* Populated size (bytes from TESSERA_HOST_BASE; beats above answer DECERR; 0 = full). */
void tsim_host_mem_set_size(tsim_t *s, uint64_t bytes);

/* ---- L2 slices (front door: their registers through the host port; simulated time passes).
 * The host port and the back door read device memory behind the L2 slices, which are not
 * coherent with them (docs/l2.md, "Coherence contract"): flush before reading results,
 * invalidate after writing inputs that the engines will read. */
enum { TSIM_L2_FLUSH = 1, TSIM_L2_INVALIDATE = 2, TSIM_L2_DISCARD = 3 };
/* Run maintenance `op` on every line of every slice (all slices started, then waited for,
 * at most `budget` cycles in total; 0 = 1000000). TSIM_OK, TSIM_ETIMEOUT, TSIM_EBUS (a
 * register access failed or a slice refused: see tsim_last_error), TSIM_EARG. */
int tsim_l2_maint_all(tsim_t *s, unsigned op, uint64_t budget);
int tsim_l2_flush_all(tsim_t *s);       /* before the host reads results */
int tsim_l2_invalidate_all(tsim_t *s);  /* after the host wrote inputs, before a job */

/* ---- control-path probes (simulation-only observation, no simulated time passes;
 * for latency benchmarks that need single-cycle resolution) */
typedef struct {
  uint32_t qman_eng_sel;   /* bit k: the queue manager in QMAN slot k selects its engine's registers */
  int sm_object_update;    /* the Sync Manager applies a sync-object write in this cycle */
  uint32_t dma_rd_outst[4]; /* DMA engine d: read beats requested, not yet received */
  uint32_t dma_buf_beats[4];/* DMA engine d: beats held in its data buffer */
  uint32_t eng_idle;       /* bit k: the engine of QMAN slot k is idle (its idle_o: no job latched or running) */
  uint32_t qman_busy;      /* bit k: the queue manager in QMAN slot k is not idle (a buffer is running) */
} tsim_probe_t;
void tsim_probe(tsim_t *s, tsim_probe_t *p);

/* ---- NIC ports' MAC client streams (docs/nic.md "The NIC in the simulator"). Frames are
 * the MAC client's: Ethernet header first, no FCS, 32 bytes per beat. Several chips are
 * joined by link models with tessera_multi.h; these calls are its building blocks. */
unsigned tsim_nic_ports(void);  /* nic_ports of the configuration */
/* Called from inside a cycle when port `port` ends a frame (tlast). With no callback the
 * frames are queued for tsim_nic_tx_pop. */
typedef void (*tsim_nic_tx_fn)(tsim_t *s, unsigned port, const uint8_t *frame, uint32_t len, void *ctx);
void tsim_nic_on_tx(tsim_t *s, tsim_nic_tx_fn fn, void *ctx);
/* Oldest queued transmitted frame of a port: 1 (len bytes in buf; a longer frame is cut to
 * cap), 0 if none. */
int tsim_nic_tx_pop(tsim_t *s, unsigned port, uint8_t *buf, uint32_t cap, uint32_t *len);
/* Queue a frame for the receive side of a port. It is fed beat by beat as the port takes
 * it (rx_tready); frames wait in the queue while the port holds rx_tready low, none is ever
 * dropped here. TSIM_EARG: no such port, len 0. */
int tsim_nic_rx_push(tsim_t *s, unsigned port, const uint8_t *frame, uint32_t len);
/* Frames queued for the receive side, the one being fed included. */
unsigned tsim_nic_rx_pending(const tsim_t *s, unsigned port);
/* tx_tready of a port (1 after create: the MAC always takes beats). */
void tsim_nic_tx_ready(tsim_t *s, unsigned port, int ready);
typedef struct {
  uint64_t tx_frames, tx_bytes;   /* frames (tlast) and bytes the port transmitted */
  uint64_t rx_frames, rx_bytes;   /* frames and bytes the port took on its receive side */
} tsim_nic_stats_t;
void tsim_nic_stats(const tsim_t *s, unsigned port, tsim_nic_stats_t *st);
/* Called at the end of every cycle of this instance (tessera_multi.h uses it to keep
 * several chips in lockstep); NULL removes it. */
typedef void (*tsim_cycle_fn)(tsim_t *s, void *ctx);
void tsim_set_cycle_hook(tsim_t *s, tsim_cycle_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_SIM_H */
