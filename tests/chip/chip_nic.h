/* NIC helpers shared by the multi-chip suites (implemented in tests/chip/nic.c): a group of
 * chips joined by link models, their ports programmed through the host port as firmware
 * or hostlink would (docs/nic.md "Port RTL", registers docs/regs/nic.md). */
#ifndef CHIP_NIC_H
#define CHIP_NIC_H

#include <stddef.h>
#include <stdint.h>

#include "regs/nic_regs.h"
#include "tessera_cfg.h"
#include "tessera_multi.h"
#include "tf.h"

#define NIC_OFF(r) ((uint32_t)offsetof(nic_t, r))
#define MAXCHIPS 8

typedef struct {
  tf_ctx_t *t;
  tsim_multi_t *m;
  tsim_t *chip[MAXCHIPS];
  unsigned n;
} net_t;

/* One end of a queue pair: QP table index `qp` of port `port` of chip `chip`. */
typedef struct {
  unsigned chip, port, qp;
  uint32_t qpn, psn;   /* local QPN, first PSN this end sends */
} qp_end_t;

static inline uint64_t port_mac(unsigned chip, unsigned port) { return 0x025400000000ull | (chip << 8) | port; }
static inline uint32_t port_ip(unsigned chip, unsigned port) { return 0x0A000000u | (chip << 8) | (port + 1u); }
static inline uint32_t nic_reg(unsigned port, uint32_t off) { return TESSERA_NIC_ADDR(port) + off; }

/* A NIC register write / read of chip c port p at offset off; TF_PASS or a failure. */
int nw(net_t *g, unsigned c, unsigned p, uint32_t off, uint32_t v);
int nr(net_t *g, unsigned c, unsigned p, uint32_t off, uint32_t *v);
#define NW(c, p, r, v)                                        \
  do {                                                        \
    if (nw(g, (c), (p), NIC_OFF(r), (v)) != TF_PASS) return TF_FAIL; \
  } while (0)
#define NR(c, p, r, v)                                        \
  do {                                                        \
    if (nr(g, (c), (p), NIC_OFF(r), (v)) != TF_PASS) return TF_FAIL; \
  } while (0)

/* n chips (chip 0 is t->sim), joined by `topo` (tsim_multi_topology; NULL: none) with link
 * cfg (NULL: the command line's), every port given its MAC and IPv4 address. */
int net_open(tf_ctx_t *t, net_t *g, unsigned n, const char *topo, const tsim_link_cfg_t *cfg);
void net_close(net_t *g);
/* Move QP x.qp to `state` (QP_CMD) and check QP_STATUS. */
int qp_modify(net_t *g, const qp_end_t *x, unsigned state);
/* Connect two ends (each one's attributes point at the other): RESET -> INIT -> RTR -> RTS. */
int qp_connect(net_t *g, const qp_end_t *a, const qp_end_t *b, unsigned mtu, int selective);
/* Memory region idx of a port: [base, base + len), R_Key rkey, remote WRITE allowed, a
 * plain region (mr_write) or one with MR_CFG's reduce fields `red` (RED_OP | RED_BF16 bits). */
int mr_write(net_t *g, unsigned c, unsigned p, unsigned idx, uint32_t base, uint32_t len, uint32_t rkey);
int mr_write_red(net_t *g, unsigned c, unsigned p, unsigned idx, uint32_t base, uint32_t len, uint32_t rkey,
                 uint32_t red);
/* RDMA WRITE work request at x's doorbell (fails if WR_STATUS.lost). */
int post_write(net_t *g, const qp_end_t *x, uint16_t id, uint32_t laddr, uint32_t va, uint32_t rkey, uint32_t len);
/* Wait (the group running, polled every 256 cycles) for x's port's next completion, check
 * it is work request id of QP x.qp with status 0, pop it. */
int wait_cpl(net_t *g, const qp_end_t *x, uint16_t id, uint64_t budget);
/* Invalidate every chip's L2 (after back-door writes). */
int net_inval(net_t *g);

#endif
