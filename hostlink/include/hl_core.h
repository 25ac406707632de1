/* hostlink core (hl_core.c, docs/hostlink.md): error codes, the transport ops
 * table and the device handle, register and memory access, firmware loading,
 * the device-memory allocator, job submission and completions. Knows no
 * transport: every access goes through the device's hl_ops_t. */
#ifndef TESSERA_HL_CORE_H
#define TESSERA_HL_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "tessera/hostif.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  HL_OK = 0,
  HL_EIO = -1,       /* transport failure (socket closed, serial frame lost, ...) */
  HL_EBUS = -2,      /* the device answered the access with a bus error */
  HL_EARG = -3,      /* invalid argument */
  HL_ENOMEM = -4,    /* out of host or device memory */
  HL_EFULL = -5,     /* submission ring full: try again after a wait */
  HL_ETIMEOUT = -6,  /* the device did not answer / boot did not finish in time */
  HL_EBOOT = -7,     /* the boot ROM rejected the image (hl_error has the status) */
  HL_ENOFW = -8,     /* no firmware host interface (not loaded, or not running) */
  HL_EFILE = -9,     /* file missing or unreadable / not an ELF or image */
  HL_EUNSUP = -10,   /* the transport cannot do this */
  HL_EADDRINUSE = -11, /* hl_serve: the port is in use */
  HL_EVERIFY = -12,  /* read back differs from what was written (hl_flash_verify) */
  HL_EREFUSED = -13  /* the firmware refused the request (hl_error: cause and detail; hl_nic.h) */
};

/* ------------------------------------------------------------ transport */
/* Every transport implements these; ctx is the transport's own state. Memory
 * ranges are device addresses; read/write may use a faster path than 32-bit
 * register accesses (the simulator's back door, bulk frames). */
typedef struct hl_ops {
  const char *name;
  int (*read32)(void *ctx, uint32_t addr, uint32_t *value);
  int (*write32)(void *ctx, uint32_t addr, uint32_t value);
  int (*read)(void *ctx, uint32_t addr, void *buf, size_t len);
  int (*write)(void *ctx, uint32_t addr, const void *buf, size_t len);
  /* reset the chip (boot ROM restarts, waits for GO); HL_EUNSUP if impossible */
  int (*reset)(void *ctx);
  /* let the device run for up to `cycles` or until the host interrupt is
   * high; returns 1 if it is high, 0 if not, < 0 on error */
  int (*wait)(void *ctx, uint64_t cycles);
  uint64_t (*now)(void *ctx);   /* device time in cycles */
  void (*close)(void *ctx);
} hl_ops_t;

typedef struct hl_dev hl_dev_t;
/* Set the device's error text (hl_error) and return `code`: for the library's
 * modules and transports. */
int hl_set_error(hl_dev_t *d, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Any transport: ops/ctx stay owned by the caller unless close is set. */
int hl_open_ops(const hl_ops_t *ops, void *ctx, hl_dev_t **dev);
void hl_close(hl_dev_t *dev);
const char *hl_error(const hl_dev_t *dev);
const char *hl_strerror(int code);
const hl_ops_t *hl_transport(const hl_dev_t *dev, void **ctx);

/* ------------------------------------------------------------ memory map */
/* The regions of the device memory map (docs/memory_map.md, populated sizes). */
typedef enum { HL_MAP_ROM = 1, HL_MAP_MEM = 2, HL_MAP_HOST = 3, HL_MAP_REG = 4 } hl_map_kind_t;
typedef struct {
  const char *name;
  uint32_t base, size;
  hl_map_kind_t kind;
} hl_region_t;
/* The region that holds all of [addr, addr + len) (len 0 counts as 1), or NULL. */
const hl_region_t *hl_map_region(uint32_t addr, uint64_t len);
/* The checks of hl_read (write 0) / hl_write (write 1) for a whole range, without
 * accessing the device: HL_OK, or HL_EARG / HL_EBUS with the reason in hl_error. */
int hl_check_range(hl_dev_t *dev, uint32_t addr, uint64_t len, int write);

/* ------------------------------------------------------------ access */
int hl_reset(hl_dev_t *dev);
/* 32-bit accesses: addr must be 4-byte aligned (HL_EARG, nothing accessed); the
 * device answers the rest (HL_EBUS: unmapped, or a write to the boot ROM). */
int hl_read32(hl_dev_t *dev, uint32_t addr, uint32_t *value);
int hl_write32(hl_dev_t *dev, uint32_t addr, uint32_t value);
/* Ranges: must lie inside one region of the memory map (HL_EARG before any access);
 * a write into the boot ROM is refused (HL_EBUS) before any access; register ranges
 * need 4-byte alignment. */
int hl_read(hl_dev_t *dev, uint32_t addr, void *buf, size_t len);
int hl_write(hl_dev_t *dev, uint32_t addr, const void *buf, size_t len);
int hl_run(hl_dev_t *dev, uint64_t cycles);   /* let the device run (simulators) */
uint64_t hl_now(hl_dev_t *dev);

/* A whole file into a malloc'd buffer (free it), or NULL. */
uint8_t *hl_file_read(const char *path, size_t *len);

/* ------------------------------------------------------------ firmware */
#define HL_LOAD_ADDR_DEFAULT 0x80000000u   /* where an image is staged in device memory */
/* Load `path` and start it. A Tessera image (docs/boot.md) is written to
 * device memory at `stage` (0: HL_LOAD_ADDR_DEFAULT) and started through the
 * boot ROM's verified path (BOOT_CTRL.VERIFY); an ELF is written segment by
 * segment and started at its entry without verification. Then, if
 * `wait_fw`, waits for the firmware's host interface (FW_STATUS IDLE,
 * SCRATCH3, magic). Cycle budget `budget` (0: 5 M). */
int hl_load(hl_dev_t *dev, const char *path, uint32_t stage, int wait_fw, uint64_t budget);
/* Find the firmware's host interface of an already running firmware. */
int hl_attach_fw(hl_dev_t *dev, uint64_t budget);
uint32_t hl_hif_addr(const hl_dev_t *dev);   /* 0 if none */
uint32_t hl_eq_present(const hl_dev_t *dev); /* engine queues the firmware found */
int hl_fw_counters(hl_dev_t *dev, hif_counters_t *out);

/* ------------------------------------------------------------ device memory */
/* First-fit allocator over device memory [HBM_BASE + 1 MiB, end) (the first
 * MiB is the image staging area). align: power of two (0: 256). */
int hl_alloc(hl_dev_t *dev, uint32_t size, uint32_t align, uint32_t *addr);
/* Host memory for host<->device DMA (docs/dma.md "Host port"): first fit over the HOST
 * window (TESSERA_HOST_BASE, 1 GiB), the addresses the DMA engines reach through the
 * chip's host AXI master. On the in-process simulator the window is the host-memory
 * model, read and written with hl_read / hl_write like device memory; other transports
 * have no host memory behind it (a DMA there ends with an AXI error). hl_free frees
 * either kind. A job lists a host range among its buffers like a device range; only the
 * DMA engines' linear, strided, memset and transpose transfers may use it. */
int hl_host_alloc(hl_dev_t *dev, uint32_t size, uint32_t align, uint32_t *addr);
int hl_free(hl_dev_t *dev, uint32_t addr);
uint64_t hl_mem_in_use(const hl_dev_t *dev);   /* device and host blocks */

/* ------------------------------------------------------------ jobs */
/* Engine queue names: "mme0".."mme3", "tpc", "dma0".."dma3" (slots from the
 * configuration), or "qN" (QMAN slot N). Returns the id or -1. */
int hl_queue_id(const char *name);
const char *hl_queue_name(int id, char *buf, size_t len);

typedef struct {
  unsigned ncb;
  struct { int eq; uint32_t addr, size; } cb[HIF_MAX_CBS];
  unsigned ndep;
  uint32_t dep[HIF_MAX_DEPS];           /* sequence numbers of earlier jobs */
  unsigned nbuf;
  struct { uint32_t base, size; } buf[HIF_MAX_BUFS];  /* the job's buffers (CBs must lie inside) */
  uint32_t budget;                      /* watchdog cycles (0: firmware default) */
  unsigned sq;                          /* submission queue = priority, 0 highest */
  int no_irq;                           /* do not raise the host interrupt */
} hl_job_t;

/* Write the job into its submission ring and ring the doorbell. *seq gets
 * its sequence number. HL_EFULL if the ring is full (nothing written). */
int hl_submit(hl_dev_t *dev, const hl_job_t *job, uint32_t *seq);
/* Write a raw descriptor (its seq as given) and optionally move the producer
 * index by `advance` (>= 1, may overrun the ring: bad-input tests). */
int hl_submit_raw(hl_dev_t *dev, unsigned sq, const hif_job_t *d, unsigned advance);
uint32_t hl_next_seq(const hl_dev_t *dev);

typedef enum {
  HL_COMPLETED = 0,  /* status ok */
  HL_BUSY = 1,       /* not finished (timeout 0) */
  HL_TIMEDOUT = 2,   /* not finished within the timeout */
  HL_FAILED = 3,     /* error completion (see cause) */
  HL_ABORTED = 4     /* watchdog abort */
} hl_wait_t;

typedef struct {
  uint32_t seq, status, cause, detail, sq;
  uint32_t t_submit, t_start, t_end;    /* firmware mtime stamps (cycles) */
  uint32_t has_info;                    /* the entry carried a record (HIF_CQE_INFO): info */
  hif_nic_info_t info;                  /* NIC QP query (hl_nic.h) */
} hl_completion_t;

/* Wait up to `timeout` device cycles for job `seq` (0: just look). Returns an
 * hl_wait_t (>= 0) or a negative HL_E* transport error; *c gets the record. */
int hl_wait(hl_dev_t *dev, uint32_t seq, uint64_t timeout, hl_completion_t *c);
/* Drain the completion ring into the host-side table (returns entries read). */
int hl_poll(hl_dev_t *dev);
/* The completion record of a finished job (HL_OK) or HL_EARG if unknown. */
int hl_completion(hl_dev_t *dev, uint32_t seq, hl_completion_t *c);
const char *hl_cause_name(uint32_t cause);
const char *hl_wait_name(int w);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HL_CORE_H */
