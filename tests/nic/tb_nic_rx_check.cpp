// Block testbench of rtl/nic/tessera_nic_rx_check.sv against the golden model's
// parser (roce_parse in tests/nic/roce_model.c): the RTL's verdict must equal
// the model's for every frame, and for good frames the opcode, destination QP
// and PSN must match.
//
// Frames: WRITE, SEND, READ request and response, ACK and selective ACK built
// by the model with random sizes, then left intact or damaged: one bit flipped
// anywhere, a header byte replaced, truncated, Ethernet padding appended, an
// IPv4 checksum recomputed after a change (so a later check must catch it),
// random bytes, or any opcode with any payload length and pad count and a good
// ICRC. Random idle cycles between beats.
// Usage: Vtessera_nic_rx_check [--seed N] [--frames N]. Ends with
// "N passed, M failed" (one count per scenario: a kind of damage, each over many frames).
#include <verilated.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "Vtessera_nic_rx_check.h"
#include "roce_model.h"
#include "tb_nic_stream.h"

using Tb = TbStream<Vtessera_nic_rx_check>;

// Stream one frame (packed keep) and return the DUT's report.
static bool run_frame(Tb &tb, const uint8_t *f, uint32_t len, unsigned *status, unsigned *rlen,
                      unsigned *op, unsigned *dqpn, unsigned *psn) {
  uint32_t pos = 0;
  bool last = false;
  while (!last) {
    while (tb_rnd() % 4 == 0) {
      tb.idle();
      if (tb.dut.done_o) return false;
    }
    uint8_t beat[TB_BYTES];
    uint64_t keep = 0;
    for (int i = 0; i < TB_BYTES; i++) {
      beat[i] = (uint8_t)tb_rnd();
      if (pos < len) {
        beat[i] = f[pos++];
        keep |= 1ull << i;
      }
    }
    last = pos == len;
    tb.set_data(beat);
    tb.dut.keep_i = keep;
    tb.dut.last_i = last;
    tb.dut.beat_i = 1;
    tb.tick();
    if (!last && tb.dut.done_o) return false;
  }
  if (!tb.dut.done_o) return false;
  *status = tb.dut.status_o;
  *rlen = tb.dut.len_o;
  *op = tb.dut.opcode_o;
  *dqpn = tb.dut.dqpn_o;
  *psn = tb.dut.psn_o;
  tb.dut.beat_i = 0;
  tb.tick();
  return !tb.dut.done_o;
}

static void fix_ip_csum(uint8_t *f) {
  uint16_t c = roce_ip_csum(f + ROCE_IP_OFF);
  f[ROCE_IP_OFF + ROCE_IP_CSUM] = (uint8_t)(c >> 8);
  f[ROCE_IP_OFF + ROCE_IP_CSUM + 1] = (uint8_t)c;
}

int main(int argc, char **argv) {
  uint64_t seed = 1;
  int frames = 3000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], 0, 0);
    else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
  }
  Verilated::commandArgs(argc, argv);
  printf("tb_nic_rx_check: %d bytes per beat, seed %" PRIu64 ", %d frames\n", TB_BYTES, seed, frames);
  tb_seed(seed);
  Tb tb;
  tb.reset();

  static uint8_t pool[4096];
  for (auto &b : pool) b = (uint8_t)tb_rnd();
  roce_qp_t q;
  memset(&q, 0, sizeof q);
  q.pkey = ROCE_PKEY_DEFAULT;
  q.ttl = ROCE_IP_TTL_DEFAULT;
  q.ip = 0x0A000001u;
  q.rip = 0x0A000002u;
  q.qpn = 0x11;
  static roce_frame_t fr[8];
  static uint8_t f[ROCE_FRAME_MAX + 64];
  int fail = 0;
  std::vector<std::pair<std::string, std::pair<int, int>>> kinds;   // damage kind: frames, misses
  unsigned verdicts[ROCE_E_COUNT] = {0};
  for (int n = 0; n < frames; n++) {
    q.mtu = (uint8_t)(ROCE_MTU_256 + tb_rnd() % 5);
    q.dest_qpn = tb_rnd() & ROCE_QPN_MASK;
    q.sq_psn = tb_rnd() & ROCE_PSN_MASK;
    q.tos = (uint8_t)tb_rnd();
    uint32_t plen = tb_rnd() % 5 == 0 ? tb_rnd() % 8 : tb_rnd() % ROCE_MTU_BYTES(q.mtu) + 1;
    switch (tb_rnd() % 6) {
      case 0: roce_build_write(&q, (uint64_t)tb_rnd() << 16, tb_rnd(), pool, plen, fr, 8); break;
      case 1: roce_build_send(&q, pool, plen, fr, 8); break;
      case 2: roce_build_read_req(&q, tb_rnd(), tb_rnd(), plen, fr); break;
      case 3: roce_build_read_resp(&q, tb_rnd(), pool, plen, fr, 8); break;
      case 4: roce_build_ack(&q, tb_rnd(), (uint8_t)(tb_rnd() & 0x7F), tb_rnd(), fr); break;
      default: roce_build_sack(&q, tb_rnd(), tb_rnd(), fr); break;
    }
    uint32_t len = fr[0].len;
    memcpy(f, fr[0].data, len);
    const char *how = "intact";
    switch (tb_rnd() % 9) {
      case 0: case 1: break;
      case 2: {
        uint32_t bit = tb_rnd() % (len * 8);
        f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        how = "bit flip";
        break;
      }
      case 3:
        f[tb_rnd() % ROCE_HDR_LEN] = (uint8_t)tb_rnd();
        how = "header byte";
        break;
      case 4:
        len = 1 + tb_rnd() % len;
        how = "truncated";
        break;
      case 5: {
        uint32_t pad = 1 + tb_rnd() % 40;
        memset(f + len, 0, pad);
        len += pad;
        how = "Ethernet padding";
        break;
      }
      case 6:
        f[ROCE_IP_OFF + 2 + tb_rnd() % 18] ^= (uint8_t)(1u << (tb_rnd() % 8));
        fix_ip_csum(f);
        how = "IPv4 field, checksum fixed";
        break;
      case 7:
        for (uint32_t i = ROCE_ETH_LEN + 20 + tb_rnd() % 40; i < len; i++) f[i] = (uint8_t)tb_rnd();
        how = "random tail";
        break;
      default: {   /* any opcode with any payload and pad count, ICRC made good */
        roce_pkt_t t;
        memset(&t, 0, sizeof t);
        t.opcode = (uint8_t)(tb_rnd() % 0x16);
        t.payload = pool;
        t.payload_len = tb_rnd() % 4 == 0 ? 0 : tb_rnd() % 13;
        len = roce_build(&q, &t, f);
        f[ROCE_BTH_OFF + ROCE_BTH_FLAGS] ^= (uint8_t)((tb_rnd() & 3u) << ROCE_BTH_PADCNT_SHIFT);
        uint32_t ic = roce_icrc(f, len - ROCE_ICRC_LEN);
        for (int b = 0; b < 4; b++) f[len - 4 + b] = (uint8_t)(ic >> (8 * b));
        how = "opcode / payload / pad layout";
        break;
      }
    }
    roce_pkt_t k;
    int want = roce_parse(f, len, &k);
    unsigned st = 99, rl = 0, op = 0, dq = 0, ps = 0;
    bool ok = run_frame(tb, f, len, &st, &rl, &op, &dq, &ps) && (int)st == want && rl == len &&
              (want != ROCE_OK || (op == k.opcode && dq == k.dqpn && ps == k.psn));
    if (want >= 0 && want < ROCE_E_COUNT) verdicts[want]++;
    size_t ki = 0;
    while (ki < kinds.size() && kinds[ki].first != how) ki++;
    if (ki == kinds.size()) kinds.push_back({how, {0, 0}});
    kinds[ki].second.first++;
    if (!ok) {
      kinds[ki].second.second++;
      if (++fail <= 10)
        printf("FAIL frame %d (%u bytes, %s): status %u len %u, model says %d (%s) len %u\n", n, len,
               how, st, rl, want, roce_strerror(want), len);
    }
  }
  printf("model verdicts:");
  for (int i = 0; i < ROCE_E_COUNT; i++) printf(" %s %u,", roce_strerror(i), verdicts[i]);
  printf("\n%" PRIu64 " cycles\n", tb.cycles);
  int pass = 0, failed = 0;
  for (auto &k : kinds) {
    int frames_k = k.second.first, miss = k.second.second;
    printf("[%s] %s: %d of %d frames get the model's verdict\n", miss ? "FAIL" : " OK ", k.first.c_str(),
           frames_k - miss, frames_k);
    miss ? failed++ : pass++;
  }
  printf("%d passed, %d failed\n", pass, failed);
  return failed ? 1 : 0;
}
