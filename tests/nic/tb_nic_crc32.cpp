// Block testbench of rtl/nic/tessera_nic_crc32.sv against the NIC golden model
// (tests/nic/roce_model.c).
//
// Built twice (mk/nic.mk): with InitState 0xFFFFFFFF it must give zlib's crc32
// of every packet (roce_crc32); with 0xDEBB20E3 (TB_ICRC) it must give the
// ICRC of RoCE frames built by the model, fed from the IPv4 header on with the
// variant fields masked. Packets have random lengths, random idle cycles
// between beats, and in a third of them random null bytes (keep 0) anywhere.
// Usage: Vtessera_nic_crc32 [--seed N] [--packets N]. Ends with "N passed, M failed", one
// count per scenario (dense packets, packets with null bytes, state back to its initial value)
// (one count per packet).
#include <verilated.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "Vtessera_nic_crc32.h"
#include "roce_model.h"
#include "tb_nic_stream.h"

#ifdef TB_ICRC
#define TB_INIT 0xDEBB20E3u
#else
#define TB_INIT 0xFFFFFFFFu
#endif

using Tb = TbStream<Vtessera_nic_crc32>;

// Stream the bytes (with null bytes when sparse) and return the CRC the DUT reports.
static bool run_packet(Tb &tb, const std::vector<uint8_t> &bytes, bool sparse, uint32_t *crc) {
  size_t pos = 0;
  bool last = false;
  while (!last) {
    while (tb_rnd() % 4 == 0) {  // idle cycles: no beat
      tb.idle();
      if (tb.dut.crc_valid_o) return false;
    }
    uint8_t beat[TB_BYTES];
    uint64_t keep = 0;
    for (int i = 0; i < TB_BYTES; i++) {
      beat[i] = (uint8_t)tb_rnd();
      if (pos < bytes.size() && !(sparse && tb_rnd() % 5 == 0)) {
        beat[i] = bytes[pos++];
        keep |= 1ull << i;
      }
    }
    last = pos == bytes.size();
    tb.set_data(beat);
    tb.dut.keep_i = keep;
    tb.dut.last_i = last;
    tb.dut.beat_i = 1;
    tb.tick();
    if (!last && tb.dut.crc_valid_o) return false;   // a CRC before the last beat
  }
  if (!tb.dut.crc_valid_o) return false;  // must come the cycle after the last beat
  *crc = tb.dut.crc_o;
  tb.dut.beat_i = 0;
  tb.tick();
  return !tb.dut.crc_valid_o;             // for one cycle only
}

// The ICRC-covered bytes of a frame after the 8 x 0xFF prefix, masked.
static std::vector<uint8_t> icrc_stream(const roce_frame_t &f) {
  std::vector<uint8_t> v(f.data + ROCE_IP_OFF, f.data + f.len - ROCE_ICRC_LEN);
  v[ROCE_IP_TOS] = v[ROCE_IP_TTL] = 0xFF;
  v[ROCE_IP_CSUM] = v[ROCE_IP_CSUM + 1] = 0xFF;
  v[ROCE_IP_LEN + ROCE_UDP_CSUM] = v[ROCE_IP_LEN + ROCE_UDP_CSUM + 1] = 0xFF;
  v[ROCE_IP_LEN + ROCE_UDP_LEN + ROCE_BTH_RSVD8] = 0xFF;
  return v;
}

int main(int argc, char **argv) {
  uint64_t seed = 1;
  int packets = 400;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], 0, 0);
    else if (!strcmp(argv[i], "--packets") && i + 1 < argc) packets = atoi(argv[++i]);
  }
  Verilated::commandArgs(argc, argv);
#ifdef TB_ICRC
  const char *mode = "ICRC of model-built RoCE frames";
#else
  const char *mode = "crc32 of random packets";
#endif
  printf("tb_nic_crc32: %d bytes per beat, %s, seed %" PRIu64 ", %d packets\n", TB_BYTES, mode,
         seed, packets);
  tb_seed(seed);
  Tb tb;
  tb.reset();

  int fail = 0, bad[2] = {0, 0}, n[2] = {0, 0}, bad_state = 0;
  static uint8_t pool[4096];
  for (auto &b : pool) b = (uint8_t)tb_rnd();
  roce_qp_t q;
  memset(&q, 0, sizeof q);
  q.mtu = ROCE_MTU_4096;
  q.pkey = ROCE_PKEY_DEFAULT;
  q.ttl = ROCE_IP_TTL_DEFAULT;
  q.ip = 0x0A000001u;
  q.rip = 0x0A000002u;
  q.qpn = 0x11;
  q.dest_qpn = 0x22;
  static roce_frame_t fr;
  for (int p = 0; p < packets; p++) {
    bool sparse = p % 3 == 2;
    std::vector<uint8_t> bytes;
    uint32_t want;
#ifdef TB_ICRC
    uint32_t len = p < 4 ? (uint32_t)p : tb_rnd() % 4097;
    q.tos = (uint8_t)tb_rnd();
    q.ttl = (uint8_t)tb_rnd();
    q.sq_psn = tb_rnd();
    switch (tb_rnd() % 3) {
      case 0: roce_build_write(&q, (uint64_t)tb_rnd() << 20, tb_rnd(), pool, len, &fr, 1); break;
      case 1: roce_build_send(&q, pool, len, &fr, 1); break;
      default: roce_build_sack(&q, tb_rnd(), tb_rnd(), &fr); break;
    }
    bytes = icrc_stream(fr);
    want = roce_icrc(fr.data, fr.len - ROCE_ICRC_LEN);
#else
    uint32_t len = p < 2 * TB_BYTES + 2 ? (uint32_t)p : tb_rnd() % 3000;
    bytes.resize(len);
    for (auto &b : bytes) b = (uint8_t)tb_rnd();
    want = roce_crc32(bytes.data(), bytes.size());
#endif
    uint32_t got = 0;
    bool ok = run_packet(tb, bytes, sparse, &got) && got == want;
    n[sparse]++;
    if (!ok) {
      bad[sparse]++;
      if (++fail <= 10)
        printf("FAIL packet %d (%zu bytes%s): crc 0x%08x, expected 0x%08x\n", p, bytes.size(),
               sparse ? ", null bytes" : "", got, want);
    }
    if (tb.dut.state_o != TB_INIT) {
      bad_state++;
      printf("FAIL packet %d: register not back at its initial state\n", p);
    }
  }
  printf("%" PRIu64 " cycles\n", tb.cycles);
  const char *names[2] = {"dense packets", "packets with null bytes"};
  int pass = 0, failed = 0;
  for (int k = 0; k < 2; k++) {
    printf("[%s] %s: %d of %d packets match\n", bad[k] ? "FAIL" : " OK ", names[k], n[k] - bad[k], n[k]);
    bad[k] ? failed++ : pass++;
  }
  printf("[%s] state back to its initial value after every packet (%d misses)\n",
         bad_state ? "FAIL" : " OK ", bad_state);
  bad_state ? failed++ : pass++;
  printf("%d passed, %d failed\n", pass, failed);
  return failed ? 1 : 0;
}
