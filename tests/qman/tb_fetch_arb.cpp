// tessera_qman_fetch_arb testbench (5 ports): each port issues random read bursts
// (AXI rules: arvalid held until arready, address stable), the fabric side answers
// arready randomly and returns every burst's beats in request order with rid = arid,
// random R gaps and random per-port rready. Checks: every fabric AR is the request of
// exactly the port whose arready is high, with its address/length/ID; a waiting fabric
// AR never changes; every port's bursts arrive complete, in order, with the right data
// and rlast, only on that port; rready is the owning port's; round robin: with every
// port requesting, no port waits for more than NumPorts grants.
// Usage: Vtessera_qman_fetch_arb [--seed N] [--bursts N]; last line "N passed, M failed".
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>

#include "Vtessera_qman_fetch_arb.h"
#include "verilated.h"
#include "../framework/tf_seed.h"

static const unsigned P = 5;
static uint64_t rs;
static uint32_t rnd() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (uint32_t)(rs >> 11); }

struct Req { uint32_t addr; unsigned len; };
struct Burst { unsigned port; uint32_t addr; unsigned len, beat; };

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = tf_env_seed(1);
  unsigned bursts = 4000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
    else if (!strcmp(argv[i], "--bursts") && i + 1 < argc) bursts = strtoul(argv[++i], nullptr, 0);
  }
  printf("qman_fetch_arb test: seed %llu (reproduce with --seed %llu)\n", (unsigned long long)seed,
         (unsigned long long)seed);
  rs = seed * 0x9E3779B97F4A7C15ull + 1;
  if (!rs) rs = 1;
  Vtessera_qman_fetch_arb *d = new Vtessera_qman_fetch_arb;
  unsigned fails = 0, passes = 0;
  auto fail = [&](const char *what, uint64_t cyc) {
    if (fails++ < 10) printf("FAIL cycle %llu: %s\n", (unsigned long long)cyc, what);
  };

  bool pend[P] = {};            // port has a request up
  Req cur[P] = {};
  std::deque<Req> sent[P];      // accepted, data not yet fully returned
  unsigned issued = 0, done_bursts = 0, wait_grants[P] = {}, max_wait = 0;
  std::deque<Burst> fab;        // bursts accepted by the fabric, answered in order
  bool prev_wait = false;
  uint32_t prev_addr = 0, prev_id = 0, prev_len = 0;
  unsigned phase_all = 0;       // cycles of the "everybody requests" phase
  uint64_t cyc = 0;

  d->rst_ni = 0; d->clk_i = 0; d->eval();
  for (int i = 0; i < 3; i++) { d->clk_i = 1; d->eval(); d->clk_i = 0; d->eval(); }
  d->rst_ni = 1;
  while (done_bursts < bursts && cyc < 200ull * bursts + 10000) {
    bool all_phase = (cyc / 2000) % 2 == 1;   // alternate: random load / all ports busy
    // ---- port requests
    for (unsigned p = 0; p < P; p++) {
      if (!pend[p] && issued < bursts && (all_phase || rnd() % 4 == 0)) {
        pend[p] = true;
        cur[p].len = rnd() % 8;
        cur[p].addr = 0x80000000u + ((rnd() % 4096) << 8);
        issued++;
      }
    }
    uint32_t arvalid = 0, arid = 0;
    uint64_t arlen = 0;
    for (unsigned p = 0; p < P; p++) {
      if (pend[p]) arvalid |= 1u << p;
      arid |= p << (4 * p);
      arlen |= (uint64_t)cur[p].len << (8 * p);
      d->s_araddr_i[p] = cur[p].addr;
    }
    d->s_arvalid_i = arvalid;
    d->s_arid_i = arid;
    d->s_arlen_i = arlen;
    d->s_arsize_i = 0; d->s_arburst_i = 0; d->s_arcache_i = 0; d->s_arprot_i = 0; d->s_arqos_i = 0;
    d->m_arready_i = rnd() % 3 != 0;
    // ---- fabric R
    bool rv = !fab.empty() && rnd() % 5 != 0;
    d->m_rvalid_i = rv;
    if (rv) {
      Burst &b = fab.front();
      d->m_rid_i = b.port;
      for (int w = 0; w < 8; w++) d->m_rdata_i[w] = b.addr + 32u * b.beat + 4u * w;
      d->m_rresp_i = 0;
      d->m_rlast_i = b.beat == b.len;
    }
    uint32_t rready = 0;
    for (unsigned p = 0; p < P; p++) rready |= (rnd() % 4 != 0) << p;
    d->s_rready_i = rready;
    d->clk_i = 0;
    d->eval();
    // ---- checks on this cycle's outputs
    bool mv = d->m_arvalid_o, mr = d->m_arready_i;
    uint32_t sready = d->s_arready_o;
    if (prev_wait && (!mv || d->m_araddr_o != prev_addr || d->m_arid_o != prev_id || d->m_arlen_o != prev_len))
      fail("a waiting fabric AR changed", cyc);
    if (mv && mr) {
      unsigned p = d->m_arid_o;
      if (p >= P || sready != (1u << p)) fail("arready not exactly at the granted port", cyc);
      else if (!pend[p] || d->m_araddr_o != cur[p].addr || d->m_arlen_o != cur[p].len)
        fail("fabric AR is not the port's request", cyc);
      else {
        sent[p].push_back(cur[p]);
        fab.push_back({p, cur[p].addr, cur[p].len, 0});
        pend[p] = false;
        for (unsigned q = 0; q < P; q++) {
          if (q == p) wait_grants[q] = 0;
          else if (pend[q] && all_phase) {
            wait_grants[q]++;
            if (wait_grants[q] > max_wait) max_wait = wait_grants[q];
          }
        }
      }
    } else if (sready) {
      fail("arready to a port without a fabric handshake", cyc);
    }
    if (!mv && arvalid) fail("requests pending but no fabric AR", cyc);
    prev_wait = mv && !mr;
    prev_addr = d->m_araddr_o; prev_id = d->m_arid_o; prev_len = d->m_arlen_o;
    uint32_t srv = d->s_rvalid_o;
    if (rv) {
      Burst &b = fab.front();
      if (srv != (1u << b.port)) fail("R beat not (only) on its port", cyc);
      if (d->m_rready_o != ((rready >> b.port) & 1u)) fail("rready is not the owning port's", cyc);
      if (d->s_rdata_o[8 * b.port] != b.addr + 32u * b.beat) fail("R data", cyc);
      if (((d->s_rlast_o >> b.port) & 1u) != (b.beat == b.len)) fail("rlast", cyc);
      if (d->m_rready_o) {
        if (sent[b.port].empty() || sent[b.port].front().addr != b.addr) fail("burst order", cyc);
        if (b.beat == b.len) {
          sent[b.port].pop_front();
          fab.pop_front();
          done_bursts++;
        } else {
          b.beat++;
        }
      }
    } else if (srv) {
      fail("R valid without a fabric beat", cyc);
    }
    if (all_phase) phase_all++;
    d->clk_i = 1;
    d->eval();
    cyc++;
  }
  if (done_bursts < bursts) fail("not every burst completed (hang)", cyc);
  else passes++;
  printf("%u bursts in %llu cycles; longest wait of a requesting port: %u grants to others\n", done_bursts,
         (unsigned long long)cyc, max_wait);
  if (max_wait >= P) fail("round robin: a port waited for NumPorts grants or more", cyc);
  else passes++;
  if (!fails) passes++;
  printf("%u passed, %u failed\n", passes, fails);
  delete d;
  return fails ? 1 : 0;
}
