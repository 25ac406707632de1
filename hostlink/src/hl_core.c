/* hostlink core: device handle, register/memory access, firmware loading,
 * device-memory allocator, job submission and completions (docs/hostlink.md).
 * Transport independent: everything goes through the device's hl_ops_t;
 * opening a device by name (the transports) is hl_open.c. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf32.h"
#include "hl_core.h"
#include "regs/intc_regs.h"
#include "regs/sysctrl_regs.h"
#include "tessera/image.h"
#include "tessera_cfg.h"

#define SYSC(r) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, r))
#define INTC(r) (TESSERA_INTC_BASE + (uint32_t)offsetof(intc_t, r))
#define HEAP_BASE (TESSERA_HBM_BASE + 0x100000u)
#define HEAP_END  ((uint64_t)TESSERA_HBM_BASE + TESSERA_DEVMEM_BYTES)  /* populated: 1 GiB or the SDRAM */
#define COMP_TABLE 256u
#define WAIT_CHUNK 256u

typedef struct { uint32_t addr, size; } blk_t;

struct hl_dev {
  const hl_ops_t *ops;
  void *ctx;
  char err[256];
  uint32_t hif;            /* host-interface block address (0: none) */
  uint32_t eq_present;
  uint32_t seq;            /* last sequence number handed out */
  blk_t *blk;              /* allocated blocks, sorted by address */
  size_t nblk, capblk;
  hl_completion_t comp[COMP_TABLE];
  uint8_t comp_valid[COMP_TABLE];
};

int hl_set_error(hl_dev_t *d, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->err, sizeof d->err, fmt, ap);
  va_end(ap);
  return code;
}

const char *hl_error(const hl_dev_t *d) { return d ? d->err : "no device"; }

const char *hl_strerror(int code) {
  switch (code) {
    case HL_OK: return "ok";
    case HL_EIO: return "transport failure";
    case HL_EBUS: return "bus error";
    case HL_EARG: return "invalid argument";
    case HL_ENOMEM: return "out of memory";
    case HL_EFULL: return "submission ring full";
    case HL_ETIMEOUT: return "timed out";
    case HL_EBOOT: return "image rejected by the boot ROM";
    case HL_ENOFW: return "no firmware host interface";
    case HL_EFILE: return "bad file";
    case HL_EUNSUP: return "not supported by the transport";
    case HL_EADDRINUSE: return "address in use";
    case HL_EVERIFY: return "verification failed";
    case HL_EREFUSED: return "refused by the firmware";
    default: return "unknown error";
  }
}

int hl_open_ops(const hl_ops_t *ops, void *ctx, hl_dev_t **out) {
  if (!ops || !out) return HL_EARG;
  hl_dev_t *d = calloc(1, sizeof *d);
  if (!d) return HL_ENOMEM;
  d->ops = ops;
  d->ctx = ctx;
  *out = d;
  return HL_OK;
}

void hl_close(hl_dev_t *d) {
  if (!d) return;
  if (d->ops->close) d->ops->close(d->ctx);
  free(d->blk);
  free(d);
}

const hl_ops_t *hl_transport(const hl_dev_t *d, void **ctx) {
  if (ctx) *ctx = d->ctx;
  return d->ops;
}

/* ------------------------------------------------------------ memory map */
static const hl_region_t mem_map[] = {
    {"boot ROM", TESSERA_BOOTROM_BASE, TESSERA_BOOTROM_BYTES, HL_MAP_ROM},
    {"ISRAM", TESSERA_ISRAM_BASE, TESSERA_ISRAM_BYTES, HL_MAP_MEM},
    {"DSRAM", TESSERA_DSRAM_BASE, TESSERA_DSRAM_BYTES, HL_MAP_MEM},
    {"SYSCTRL registers", TESSERA_SYSCTRL_BASE, TESSERA_SYSCTRL_SIZE, HL_MAP_REG},
    {"UART registers", TESSERA_UART_BASE, TESSERA_UART_SIZE, HL_MAP_REG},
    {"INTC registers", TESSERA_INTC_BASE, TESSERA_INTC_SIZE, HL_MAP_REG},
    {"SPI flash controller registers", TESSERA_SPIFLASH_BASE, TESSERA_SPIFLASH_SIZE, HL_MAP_REG},
    {"CLINT registers", TESSERA_CLINT_BASE, TESSERA_CLINT_SIZE, HL_MAP_REG},
    {"MME registers", TESSERA_MME_BASE, TESSERA_MME_SIZE, HL_MAP_REG},
    {"TPC registers", TESSERA_TPC_BASE, TESSERA_TPC_SIZE, HL_MAP_REG},
    {"DMA registers", TESSERA_DMA_BASE, TESSERA_DMA_SIZE, HL_MAP_REG},
    {"Sync Manager registers", TESSERA_SYNCMGR_BASE, TESSERA_SYNCMGR_SIZE, HL_MAP_REG},
    {"QMAN registers", TESSERA_QMAN_BASE, TESSERA_QMAN_SIZE, HL_MAP_REG},
    {"L2 registers", TESSERA_L2_BASE, TESSERA_L2_SIZE, HL_MAP_REG},
    {"NIC registers", TESSERA_NIC_BASE, TESSERA_NIC_SIZE, HL_MAP_REG},
    {"host window", TESSERA_HOST_BASE, TESSERA_HOST_SIZE, HL_MAP_HOST},
    {"device memory", TESSERA_HBM_BASE, TESSERA_DEVMEM_BYTES, HL_MAP_MEM},
};

const hl_region_t *hl_map_region(uint32_t a, uint64_t len) {
  if (!len) len = 1;
  for (size_t i = 0; i < sizeof mem_map / sizeof mem_map[0]; i++) {
    const hl_region_t *r = &mem_map[i];
    if (a >= r->base && (uint64_t)(a - r->base) + len <= r->size) return r;
  }
  return NULL;
}

int hl_check_range(hl_dev_t *d, uint32_t a, uint64_t len, int wr) {
  const char *what = wr ? "write" : "read";
  const hl_region_t *r = hl_map_region(a, len), *s = hl_map_region(a, 1);
  if (wr && s && s->kind == HL_MAP_ROM) r = s;   /* any write starting in the ROM: read-only */
  if (!r) {
    if (s)
      return hl_set_error(d, HL_EARG, "%s 0x%08x+%llu: runs past the end of the %s [0x%08x, 0x%08llx)", what, a,
                          (unsigned long long)len, s->name, s->base, (unsigned long long)s->base + s->size);
    return hl_set_error(d, HL_EARG, "%s 0x%08x+%llu: 0x%08x is outside the device memory map", what, a,
                        (unsigned long long)len, a);
  }
  if (wr && r->kind == HL_MAP_ROM)
    return hl_set_error(d, HL_EBUS, "%s 0x%08x+%llu: the boot ROM [0x%08x, 0x%08x) is read-only", what, a,
                        (unsigned long long)len, r->base, r->base + r->size);
  if (r->kind == HL_MAP_REG && ((a | len) & 3u))
    return hl_set_error(d, HL_EARG, "%s 0x%08x+%llu: a register range needs a 4-byte aligned address and length",
                        what, a, (unsigned long long)len);
  return HL_OK;
}

/* ------------------------------------------------------------ access */
static int access32_failed(hl_dev_t *d, const char *what, uint32_t a, int rc) {
  const hl_region_t *r = hl_map_region(a, 4);
  if (rc == HL_EBUS && r && r->kind == HL_MAP_ROM && !strcmp(what, "write32"))
    return hl_set_error(d, rc, "write32 0x%08x: bus error: the boot ROM is read-only", a);
  return hl_set_error(d, rc, "%s 0x%08x: %s", what, a, hl_strerror(rc));
}
static int unaligned32(hl_dev_t *d, const char *what, uint32_t a) {
  return hl_set_error(d, HL_EARG, "%s 0x%08x: address not 4-byte aligned (32-bit accesses need a multiple of 4)", what,
                      a);
}
int hl_read32(hl_dev_t *d, uint32_t a, uint32_t *v) {
  if (a & 3u) return unaligned32(d, "read32", a);
  int rc = d->ops->read32(d->ctx, a, v);
  return rc ? access32_failed(d, "read32", a, rc) : HL_OK;
}
int hl_write32(hl_dev_t *d, uint32_t a, uint32_t v) {
  if (a & 3u) return unaligned32(d, "write32", a);
  int rc = d->ops->write32(d->ctx, a, v);
  return rc ? access32_failed(d, "write32", a, rc) : HL_OK;
}
int hl_read(hl_dev_t *d, uint32_t a, void *buf, size_t len) {
  int rc = hl_check_range(d, a, len, 0);
  if (rc || !len) return rc;
  rc = d->ops->read(d->ctx, a, buf, len);
  return rc ? hl_set_error(d, rc, "read 0x%08x+%zu: %s", a, len, hl_strerror(rc)) : HL_OK;
}
int hl_write(hl_dev_t *d, uint32_t a, const void *buf, size_t len) {
  int rc = hl_check_range(d, a, len, 1);
  if (rc || !len) return rc;
  rc = d->ops->write(d->ctx, a, buf, len);
  return rc ? hl_set_error(d, rc, "write 0x%08x+%zu: %s", a, len, hl_strerror(rc)) : HL_OK;
}
int hl_run(hl_dev_t *d, uint64_t cycles) {
  int rc = d->ops->wait(d->ctx, cycles);
  return rc < 0 ? rc : HL_OK;
}
uint64_t hl_now(hl_dev_t *d) { return d->ops->now(d->ctx); }

int hl_reset(hl_dev_t *d) {
  if (!d->ops->reset) return hl_set_error(d, HL_EUNSUP, "transport %s cannot reset", d->ops->name);
  int rc = d->ops->reset(d->ctx);
  if (rc) return hl_set_error(d, rc, "reset: %s", hl_strerror(rc));
  d->hif = 0;
  d->eq_present = 0;
  memset(d->comp_valid, 0, sizeof d->comp_valid);
  return HL_OK;
}

/* ------------------------------------------------------------ firmware */
static uint8_t *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0, r;
  uint8_t *buf = malloc(cap);
  while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) {
      uint8_t *nb = realloc(buf, cap *= 2);
      if (!nb) {
        free(buf);
        buf = NULL;
      } else {
        buf = nb;
      }
    }
  }
  fclose(f);
  *len = n;
  return buf;
}

uint8_t *hl_file_read(const char *path, size_t *len) { return slurp(path, len); }

static uint32_t le32(const uint8_t *p) { return p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24); }

/* ELF32 RISC-V (checked by the shared reader, hostlib/elf32.h): write the
 * PT_LOAD segments (bss zeroed), return the entry. */
static int load_elf(hl_dev_t *d, const char *path, const uint8_t *f, size_t n, uint32_t *entry) {
  elf32_t elf;
  char why[ELF32_ERR_BYTES];
  if (elf32_parse(&elf, f, n, why, sizeof why)) return hl_set_error(d, HL_EFILE, "%s: %s", path, why);
  for (uint32_t i = 0; i < elf.nseg; i++) {
    const elf32_seg_t *sg = &elf.seg[i];
    uint8_t *img = calloc(1, sg->memsz);
    if (!img) return HL_ENOMEM;
    memcpy(img, f + sg->offset, sg->filesz);
    int rc = hl_write(d, sg->paddr, img, sg->memsz);
    free(img);
    if (rc) return rc;
  }
  *entry = elf.entry;
  return HL_OK;
}

int hl_attach_fw(hl_dev_t *d, uint64_t budget) {
  if (!budget) budget = 5000000;
  uint64_t t0 = hl_now(d);
  for (;;) {
    uint32_t st = 0, addr = 0, magic = 0;
    int rc = hl_read32(d, SYSC(FW_STATUS), &st);
    if (rc) return rc;
    if ((st & 0xFFu) == 0xE0u) return hl_set_error(d, HL_ENOFW, "firmware reports a fatal trap");
    if ((st & 0xFFu) != 2u) {
      /* nothing started by the boot ROM: no firmware will come, say so at once */
      uint32_t boot = 0, go = 0;
      if ((rc = hl_read32(d, SYSC(BOOT_STATUS), &boot)) || (rc = hl_read32(d, SYSC(BOOT_CTRL), &go))) return rc;
      uint32_t code = boot & 0xFFu;
      if (!(go & SYSCTRL__BOOT_CTRL__GO_bm) && (code == BOOT_ST_WAIT_GO || code >= 0x80u))
        return hl_set_error(d, HL_ENOFW,
                            "no firmware: the boot ROM has not started a program (BOOT_STATUS 0x%08x%s); "
                            "load one first",
                            boot, code >= 0x80u ? ", an error" : ", waiting for a boot request");
    }
    if ((st & 0xFFu) == 2u) {
      if ((rc = hl_read32(d, SYSC(SCRATCH3), &addr))) return rc;
      if (addr && hl_read(d, addr, &magic, 4) == HL_OK && magic == HIF_MAGIC) {
        uint32_t ver = 0, eq = 0;
        if ((rc = hl_read(d, addr + HIF_OFF(version), &ver, 4))) return rc;
        if (ver != HIF_VERSION) return hl_set_error(d, HL_ENOFW, "host interface version %u, expected %u", ver, HIF_VERSION);
        if ((rc = hl_read(d, addr + HIF_OFF(eq_present), &eq, 4))) return rc;
        d->hif = addr;
        d->eq_present = eq;
        /* continue the sequence numbers after whatever the firmware has seen */
        uint32_t taken = 0;
        hl_read(d, addr + HIF_OFF(cnt.jobs_taken), &taken, 4);
        if (d->seq < taken) d->seq = taken;
        return HL_OK;
      }
    }
    if (hl_now(d) - t0 > budget)
      return hl_set_error(d, HL_ENOFW, "no firmware host interface after %llu cycles (FW_STATUS 0x%08x)",
                          (unsigned long long)budget, st);
    if ((rc = d->ops->wait(d->ctx, 2000)) < 0) return rc;
  }
}

uint32_t hl_hif_addr(const hl_dev_t *d) { return d->hif; }
uint32_t hl_eq_present(const hl_dev_t *d) { return d->eq_present; }

int hl_fw_counters(hl_dev_t *d, hif_counters_t *out) {
  if (!d->hif) return hl_set_error(d, HL_ENOFW, "no firmware attached");
  return hl_read(d, d->hif + HIF_OFF(cnt), out, sizeof *out);
}

int hl_load(hl_dev_t *d, const char *path, uint32_t stage, int wait_fw, uint64_t budget) {
  if (!budget) budget = 5000000;
  size_t n = 0;
  uint8_t *f = slurp(path, &n);
  if (!f) return hl_set_error(d, HL_EFILE, "cannot read %s", path);
  int rc;
  uint32_t ctrl;
  d->hif = 0;
  if (n >= 4 && !memcmp(f, "\177ELF", 4)) {
    uint32_t entry = 0;
    rc = load_elf(d, path, f, n, &entry);
    free(f);
    if (rc) return rc;
    if ((rc = hl_write32(d, SYSC(BOOT_ADDR), entry))) return rc;
    ctrl = SYSCTRL__BOOT_CTRL__GO_bm;
  } else if (n >= TIMG_HDR_BYTES && le32(f) == TIMG_MAGIC) {
    if (!stage) stage = HL_LOAD_ADDR_DEFAULT;
    rc = hl_write(d, stage, f, n);
    free(f);
    if (rc) return rc;
    if ((rc = hl_write32(d, SYSC(BOOT_ADDR), stage))) return rc;
    ctrl = SYSCTRL__BOOT_CTRL__GO_bm | SYSCTRL__BOOT_CTRL__VERIFY_bm;
  } else {
    free(f);
    return hl_set_error(d, HL_EFILE, "%s is neither an ELF nor a Tessera image", path);
  }
  if ((rc = hl_write32(d, SYSC(BOOT_CTRL), ctrl))) return rc;
  uint64_t t0 = hl_now(d);
  for (;;) {
    uint32_t st = 0, go = 0;
    /* the status is about this request only once the ROM has taken GO */
    if ((rc = hl_read32(d, SYSC(BOOT_CTRL), &go))) return rc;
    if ((rc = hl_read32(d, SYSC(BOOT_STATUS), &st))) return rc;
    if (go & SYSCTRL__BOOT_CTRL__GO_bm) st = BOOT_ST_GO;
    uint32_t code = st & 0xFFu;
    if (code == BOOT_ST_JUMP) break;
    if (code >= 0x80u)
      return hl_set_error(d, HL_EBOOT, "boot ROM rejected %s: status 0x%02x detail 0x%06x", path, code, st >> 8);
    if (hl_now(d) - t0 > budget)
      return hl_set_error(d, HL_ETIMEOUT, "boot did not finish: BOOT_STATUS 0x%08x", st);
    if ((rc = d->ops->wait(d->ctx, 1000)) < 0) return rc;
  }
  return wait_fw ? hl_attach_fw(d, budget) : HL_OK;
}

/* ------------------------------------------------------------ allocator */
/* First fit in [lo, hi) over the sorted block list (device and host blocks share it). */
static int alloc_in(hl_dev_t *d, uint64_t lo, uint64_t hi, uint32_t size, uint32_t align, uint32_t *addr,
                    const char *what) {
  if (!align) align = 256;
  if (!size || (align & (align - 1)))
    return hl_set_error(d, HL_EARG, "%s: size %u align %u", what, size, align);
  uint64_t cur = lo;
  size_t pos = 0;
  while (pos < d->nblk && (uint64_t)d->blk[pos].addr + d->blk[pos].size <= lo) pos++;
  for (;; pos++) {
    uint64_t a = (cur + align - 1) & ~(uint64_t)(align - 1);
    uint64_t limit = pos < d->nblk && d->blk[pos].addr < hi ? d->blk[pos].addr : hi;
    if (a + size <= limit) {
      if (d->nblk == d->capblk) {
        size_t nc = d->capblk ? 2 * d->capblk : 64;
        blk_t *nb = realloc(d->blk, nc * sizeof *nb);
        if (!nb) return HL_ENOMEM;
        d->blk = nb;
        d->capblk = nc;
      }
      memmove(d->blk + pos + 1, d->blk + pos, (d->nblk - pos) * sizeof *d->blk);
      d->blk[pos].addr = (uint32_t)a;
      d->blk[pos].size = size;
      d->nblk++;
      *addr = (uint32_t)a;
      return HL_OK;
    }
    if (pos >= d->nblk || d->blk[pos].addr >= hi) break;
    cur = (uint64_t)d->blk[pos].addr + d->blk[pos].size;
  }
  return hl_set_error(d, HL_ENOMEM, "%s: no room for %u bytes (align %u)", what, size, align);
}

int hl_alloc(hl_dev_t *d, uint32_t size, uint32_t align, uint32_t *addr) {
  return alloc_in(d, HEAP_BASE, HEAP_END, size, align, addr, "alloc");
}

int hl_host_alloc(hl_dev_t *d, uint32_t size, uint32_t align, uint32_t *addr) {
  return alloc_in(d, TESSERA_HOST_BASE, (uint64_t)TESSERA_HOST_BASE + TESSERA_HOST_SIZE, size, align, addr,
                  "host alloc");
}

int hl_free(hl_dev_t *d, uint32_t addr) {
  size_t lo = 0, hi = d->nblk;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (d->blk[mid].addr < addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo == d->nblk || d->blk[lo].addr != addr) return hl_set_error(d, HL_EARG, "free: 0x%08x not allocated", addr);
  memmove(d->blk + lo, d->blk + lo + 1, (d->nblk - lo - 1) * sizeof *d->blk);
  d->nblk--;
  return HL_OK;
}

uint64_t hl_mem_in_use(const hl_dev_t *d) {
  uint64_t s = 0;
  for (size_t i = 0; i < d->nblk; i++) s += d->blk[i].size;
  return s;
}

/* ------------------------------------------------------------ queues */
static const struct { const char *name; int base, count; } qnames[] = {
#ifdef TESSERA_QMAN_SLOT_MME
    {"mme", TESSERA_QMAN_SLOT_MME, TESSERA_NUM_MME},
    {"tpc", TESSERA_QMAN_SLOT_TPC, 1},
    {"dma", TESSERA_QMAN_SLOT_DMA, TESSERA_DMA_ENGINES},
#endif
    {NULL, 0, 0}};

int hl_queue_id(const char *name) {
  if (!name) return -1;
  char *end;
  if (name[0] == 'q' && name[1] >= '0' && name[1] <= '9') {
    long v = strtol(name + 1, &end, 10);
    return (*end || v < 0 || v >= (long)HIF_NUM_EQ) ? -1 : (int)v;
  }
  for (int i = 0; qnames[i].name; i++) {
    size_t l = strlen(qnames[i].name);
    if (strncmp(name, qnames[i].name, l)) continue;
    if (qnames[i].count == 1 && name[l] == 0) return qnames[i].base;
    if (name[l] < '0' || name[l] > '9') continue;
    long v = strtol(name + l, &end, 10);
    if (!*end && v >= 0 && v < qnames[i].count) return qnames[i].base + (int)v;
  }
  return -1;
}

const char *hl_queue_name(int id, char *buf, size_t len) {
  for (int i = 0; qnames[i].name; i++)
    if (id >= qnames[i].base && id < qnames[i].base + qnames[i].count) {
      if (qnames[i].count == 1) snprintf(buf, len, "%s", qnames[i].name);
      else snprintf(buf, len, "%s%d", qnames[i].name, id - qnames[i].base);
      return buf;
    }
  snprintf(buf, len, "q%d", id);
  return buf;
}

uint32_t hl_next_seq(const hl_dev_t *d) { return d->seq + 1u ? d->seq + 1u : 1u; }

static int ring(hl_dev_t *d, unsigned sq, const hif_job_t *desc, unsigned advance) {
  uint32_t pi, ci;
  int rc;
  if ((rc = hl_read(d, d->hif + HIF_OFF(sq_pi) + 4 * sq, &pi, 4))) return rc;
  if ((rc = hl_read(d, d->hif + HIF_OFF(sq_ci) + 4 * sq, &ci, 4))) return rc;
  if (advance == 1 && pi - ci >= HIF_SQ_ENTRIES)
    return hl_set_error(d, HL_EFULL, "submission ring %u full (pi %u ci %u)", sq, pi, ci);
  if ((rc = hl_write(d, d->hif + HIF_SQ_SLOT_OFF(sq, pi % HIF_SQ_ENTRIES), desc, sizeof *desc))) return rc;
  pi += advance;
  if ((rc = hl_write(d, d->hif + HIF_OFF(sq_pi) + 4 * sq, &pi, 4))) return rc;
  return hl_write32(d, INTC(SWIRQ), 1u << HIF_SWIRQ_DOORBELL);
}

int hl_submit(hl_dev_t *d, const hl_job_t *j, uint32_t *seq) {
  if (!d->hif) return hl_set_error(d, HL_ENOFW, "submit: no firmware attached");
  if (!j || j->ncb == 0 || j->ncb > HIF_MAX_CBS || j->ndep > HIF_MAX_DEPS || j->nbuf > HIF_MAX_BUFS ||
      j->sq >= HIF_NUM_SQ)
    return hl_set_error(d, HL_EARG, "submit: bad job (ncb %u ndep %u nbuf %u sq %u)", j ? j->ncb : 0,
                        j ? j->ndep : 0, j ? j->nbuf : 0, j ? j->sq : 0);
  hif_job_t desc;
  memset(&desc, 0, sizeof desc);
  uint32_t s = hl_next_seq(d);
  desc.seq = s;
  desc.ctrl = HIF_JOB_CTRL(j->ncb, j->ndep, j->nbuf, !j->no_irq);
  desc.budget = j->budget;
  for (unsigned i = 0; i < j->ndep; i++) desc.dep[i] = j->dep[i];
  for (unsigned i = 0; i < j->nbuf; i++) {
    desc.buf[i].base = j->buf[i].base;
    desc.buf[i].size = j->buf[i].size;
  }
  for (unsigned i = 0; i < j->ncb; i++) {
    desc.cb[i].eq = (uint32_t)j->cb[i].eq;
    desc.cb[i].addr = j->cb[i].addr;
    desc.cb[i].size = j->cb[i].size;
  }
  int rc = ring(d, j->sq, &desc, 1);
  if (rc) return rc;
  d->seq = s;
  if (seq) *seq = s;
  return HL_OK;
}

int hl_submit_raw(hl_dev_t *d, unsigned sq, const hif_job_t *desc, unsigned advance) {
  if (!d->hif) return hl_set_error(d, HL_ENOFW, "submit: no firmware attached");
  if (sq >= HIF_NUM_SQ || !advance) return HL_EARG;
  int rc = ring(d, sq, desc, advance);
  if (rc == HL_OK && desc->seq > d->seq) d->seq = desc->seq;
  return rc;
}

/* ------------------------------------------------------------ completions */
int hl_poll(hl_dev_t *d) {
  if (!d->hif) return hl_set_error(d, HL_ENOFW, "no firmware attached");
  uint32_t pi, ci;
  int rc, got = 0;
  if ((rc = hl_read(d, d->hif + HIF_OFF(cq_pi), &pi, 4))) return rc;
  if ((rc = hl_read(d, d->hif + HIF_OFF(cq_ci), &ci, 4))) return rc;
  while (ci != pi) {
    hif_cqe_t e;
    uint32_t off = d->hif + HIF_CQ_SLOT_OFF(ci % HIF_CQ_ENTRIES);
    if ((rc = hl_read(d, off, &e, sizeof e))) return rc;
    if (!(e.flags & HIF_CQE_READY)) break;   /* index moved before the entry was complete */
    hl_completion_t *c = &d->comp[e.seq % COMP_TABLE];
    c->seq = e.seq;
    c->status = HIF_CQE_STATUS(e.flags);
    c->cause = HIF_CQE_CAUSE(e.flags);
    c->detail = e.detail;
    c->sq = e.sq;
    c->t_submit = e.t_submit;
    c->t_start = e.t_start;
    c->t_end = e.t_end;
    c->has_info = (e.flags & HIF_CQE_INFO) ? 1u : 0u;
    if (c->has_info && (rc = hl_read(d, d->hif + HIF_CQ_INFO_OFF(ci % HIF_CQ_ENTRIES), &c->info, sizeof c->info)))
      return rc;
    d->comp_valid[e.seq % COMP_TABLE] = 1;
    uint32_t zero = 0;
    if ((rc = hl_write(d, off, &zero, 4))) return rc;
    ci++;
    got++;
  }
  if (got && (rc = hl_write(d, d->hif + HIF_OFF(cq_ci), &ci, 4))) return rc;
  return got;
}

int hl_completion(hl_dev_t *d, uint32_t seq, hl_completion_t *c) {
  if (!d->comp_valid[seq % COMP_TABLE] || d->comp[seq % COMP_TABLE].seq != seq) return HL_EARG;
  if (c) *c = d->comp[seq % COMP_TABLE];
  return HL_OK;
}

static int wait_code(const hl_completion_t *c) {
  return c->status == HIF_ST_OK ? HL_COMPLETED : c->status == HIF_ST_ABORTED ? HL_ABORTED : HL_FAILED;
}

int hl_wait(hl_dev_t *d, uint32_t seq, uint64_t timeout, hl_completion_t *c) {
  if (!d->hif) return hl_set_error(d, HL_ENOFW, "wait: no firmware attached");
  uint64_t t0 = hl_now(d);
  for (;;) {
    int rc = hl_poll(d);
    if (rc < 0) return rc;
    hl_completion_t tmp;
    if (hl_completion(d, seq, &tmp) == HL_OK) {
      if (c) *c = tmp;
      return wait_code(&tmp);
    }
    uint64_t el = hl_now(d) - t0;
    if (el >= timeout) return timeout ? HL_TIMEDOUT : HL_BUSY;
    uint64_t chunk = timeout - el < WAIT_CHUNK ? timeout - el : WAIT_CHUNK;
    rc = d->ops->wait(d->ctx, chunk);
    if (rc < 0) return hl_set_error(d, rc, "wait: %s", hl_strerror(rc));
    if (rc == 1) {
      /* acknowledge the host interrupt, then look at the ring again */
      if ((rc = hl_write32(d, INTC(SWIRQ_CLR), 1u << HIF_SWIRQ_HOST))) return rc;
    }
  }
}

const char *hl_cause_name(uint32_t cause) {
  static const char *const n[HIF_CAUSE_COUNT] = HIF_CAUSE_NAMES;
  return cause < HIF_CAUSE_COUNT ? n[cause] : "?";
}

const char *hl_wait_name(int w) {
  switch (w) {
    case HL_COMPLETED: return "completed";
    case HL_BUSY: return "busy";
    case HL_TIMEDOUT: return "timed out";
    case HL_FAILED: return "error";
    case HL_ABORTED: return "aborted";
    default: return w < 0 ? hl_strerror(w) : "?";
  }
}
