/* hostlink transport: the in-process chip simulator (sim/include/tessera_sim.h).
 * Registers go through the chip's host port (simulated time passes); memory
 * ranges the simulator backs (SRAMs, device memory) use its back door, like a
 * host DMA that costs no device time; anything else falls back to 32-bit
 * host-port accesses. wait() runs the chip until the host interrupt or the
 * cycle count. */
#include <stdlib.h>
#include <string.h>

#include "hl_core.h"
#include "hl_serial.h"
#include "hl_sim.h"
#include "tessera_sim.h"

typedef struct {
  tsim_t *s;
  int owned;
} simctx_t;

static int map_rc(int rc) {
  switch (rc) {
    case TSIM_OK: return HL_OK;
    case TSIM_EBUS: return HL_EBUS;
    case TSIM_ETIMEOUT: case TSIM_ELIMIT: return HL_ETIMEOUT;
    case TSIM_EARG: case TSIM_EADDR: return HL_EARG;
    default: return HL_EIO;
  }
}

static int s_read32(void *c, uint32_t a, uint32_t *v) { return map_rc(tsim_host_read32(((simctx_t *)c)->s, a, v)); }
static int s_write32(void *c, uint32_t a, uint32_t v) { return map_rc(tsim_host_write32(((simctx_t *)c)->s, a, v)); }

static int s_read(void *c, uint32_t a, void *buf, size_t len) {
  simctx_t *x = c;
  if (tsim_mem_is_backed(a, len)) return map_rc(tsim_mem_read(x->s, a, buf, len));
  if ((a | len) & 3u) return HL_EARG;
  for (size_t i = 0; i < len; i += 4) {
    uint32_t v;
    int rc = tsim_host_read32(x->s, a + (uint32_t)i, &v);
    if (rc) return map_rc(rc);
    memcpy((uint8_t *)buf + i, &v, 4);
  }
  return HL_OK;
}

static int s_write(void *c, uint32_t a, const void *buf, size_t len) {
  simctx_t *x = c;
  if (tsim_mem_is_backed(a, len)) return map_rc(tsim_mem_write(x->s, a, buf, len));
  if ((a | len) & 3u) return HL_EARG;
  for (size_t i = 0; i < len; i += 4) {
    uint32_t v;
    memcpy(&v, (const uint8_t *)buf + i, 4);
    int rc = tsim_host_write32(x->s, a + (uint32_t)i, v);
    if (rc) return map_rc(rc);
  }
  return HL_OK;
}

static int s_reset(void *c) {
  tsim_reset(((simctx_t *)c)->s);
  return HL_OK;
}

static int s_wait(void *c, uint64_t cycles) {
  simctx_t *x = c;
  uint64_t done = 0;
  while (done < cycles) {
    if (tsim_host_irq(x->s)) return 1;
    uint64_t n = cycles - done < 16 ? cycles - done : 16;
    int rc = tsim_step(x->s, n);
    if (rc) return map_rc(rc);
    done += n;
  }
  return tsim_host_irq(x->s) ? 1 : 0;
}

static uint64_t s_now(void *c) { return tsim_cycles(((simctx_t *)c)->s); }

static void s_close(void *c) {
  simctx_t *x = c;
  if (x->owned) tsim_destroy(x->s);
  free(x);
}

static const hl_ops_t sim_ops = {"sim", s_read32, s_write32, s_read, s_write, s_reset, s_wait, s_now, s_close};

int hl_open_sim_attach(struct tsim *sim, hl_dev_t **dev) {
  simctx_t *x = calloc(1, sizeof *x);
  if (!x) return HL_ENOMEM;
  x->s = sim;
  int rc = hl_open_ops(&sim_ops, x, dev);
  if (rc) free(x);
  return rc;
}

int hl_open_sim(hl_dev_t **dev, uint64_t seed, int verbose) { return hl_open_sim_flash(dev, seed, verbose, NULL); }

int hl_open_sim_flash(hl_dev_t **dev, uint64_t seed, int verbose, const char *flash_file) {
  tsim_opts_t o;
  tsim_opts_default(&o);
  o.seed = seed;
  o.flash_file = flash_file;
  o.uart_echo = verbose;
  o.quiet = !verbose;
  tsim_t *s = tsim_create(&o);
  if (!s) return HL_EIO;
  int rc = hl_open_sim_attach(s, dev);
  if (rc) {
    tsim_destroy(s);
    return rc;
  }
  void *ctx;
  hl_transport(*dev, &ctx);
  ((simctx_t *)ctx)->owned = 1;
  return HL_OK;
}

struct tsim *hl_sim_of(hl_dev_t *dev) {
  void *ctx;
  const hl_ops_t *o = hl_transport(dev, &ctx);
  return o == &sim_ops ? ((simctx_t *)ctx)->s : NULL;
}

/* ------------------------------------------------------------ simulator UART */
typedef struct {
  tsim_t *s;
  size_t rd;   /* bytes of the UART log consumed */
} suctx_t;

static int su_put(void *c, const uint8_t *b, size_t n) {
  tsim_uart_input(((suctx_t *)c)->s, b, n);
  return 0;
}
static int su_get(void *c, uint64_t cycles) {
  suctx_t *u = c;
  uint64_t t0 = tsim_cycles(u->s);
  while (tsim_uart_len(u->s) <= u->rd) {
    if (tsim_cycles(u->s) - t0 >= cycles) return -1;
    if (tsim_step(u->s, 40)) return -1;
  }
  return (uint8_t)tsim_uart_log(u->s)[u->rd++];
}
static int su_idle(void *c, uint64_t cycles) {
  return tsim_step(((suctx_t *)c)->s, cycles) ? -1 : 0;
}
static uint64_t su_now(void *c) { return tsim_cycles(((suctx_t *)c)->s); }
static void su_close(void *c) { free(c); }
static const hl_bytes_t su_io = {su_put, su_get, su_idle, su_now, su_close};

int hl_open_sim_uart(struct tsim *sim, hl_dev_t **dev) {
  suctx_t *u = calloc(1, sizeof *u);
  if (!u) return HL_ENOMEM;
  u->s = sim;
  u->rd = tsim_uart_len(sim);
  int rc = hl_open_serial_bytes(&su_io, u, dev);
  if (rc) free(u);
  return rc;
}
