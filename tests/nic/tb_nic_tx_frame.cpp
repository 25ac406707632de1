// Block testbench of rtl/nic/tessera_nic_tx_frame.sv against the golden model's
// frame builder (roce_build in tests/nic/roce_model.c): every frame the RTL
// sends must equal the model's frame for the same fields byte for byte, with
// packed tkeep and tlast on its last beat; a beat held by m_tready low must not
// change until it is taken.
//
// Descriptors: random opcode among all the model knows (0x00..0x14), random
// addresses, ports, TOS/TTL/ID, P_Key, QP, PSN, flags, RETH/AETH/ImmDt fields;
// payload length 0..4096 (uniform, or 0..80 to cover the short cases) for the
// opcodes that carry payload, none for the others; one payload in 20 has the
// wrong tlast on its first beat, which pay_err_o must report (once) while the
// frame still follows the descriptor. Phase 1 (--frames) drives
// descriptors and payload with random tvalid gaps and the MAC side with
// random tready; phase 2 (--full frames) keeps every input valid and tready
// high and checks that no frame has an idle cycle between its first and last
// beat, and reports the beats per cycle.
// Usage: Vtessera_nic_tx_frame [--seed N] [--frames N] [--full N].
// Ends with "N passed, M failed", one count per scenario (frames equal to the model's, no
// stuck frame, pay_err_o on every wrong tlast, beats held while m_tready_i is low, full rate).
#include <verilated.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <vector>

#include "Vtessera_nic_tx_frame.h"
#include "roce_model.h"
#include "tb_nic_stream.h"

struct Frame {
  roce_qp_t q;       // network fields as the descriptor carries them
  roce_pkt_t k;
  std::vector<uint8_t> payload;
  std::vector<uint8_t> want;
  bool bad_tlast;    // the payload's first beat carries the wrong tlast
};

static Vtessera_nic_tx_frame *dut;
static uint64_t cycles;

template <class T>
static void put_bytes(T &port, const uint8_t *b) {  // VlWide: 32-bit words
  for (int w = 0; w < TB_BYTES / 4; w++)
    port[w] = (uint32_t)b[4 * w] | (uint32_t)b[4 * w + 1] << 8 | (uint32_t)b[4 * w + 2] << 16 |
              (uint32_t)b[4 * w + 3] << 24;
}
static void put_bytes(uint64_t &port, const uint8_t *b) {
  uint64_t v = 0;
  for (int i = TB_BYTES - 1; i >= 0; i--) v = v << 8 | b[i];
  port = v;
}
static void put_bytes(uint32_t &port, const uint8_t *b) {
  uint32_t v = 0;
  for (int i = TB_BYTES - 1; i >= 0; i--) v = v << 8 | b[i];
  port = v;
}
template <class T>
static void get_bytes(const T &port, uint8_t *b) {
  for (int w = 0; w < TB_BYTES / 4; w++)
    for (int j = 0; j < 4; j++) b[4 * w + j] = (uint8_t)(port[w] >> (8 * j));
}
static void get_bytes(const uint64_t &port, uint8_t *b) {
  for (int i = 0; i < TB_BYTES; i++) b[i] = (uint8_t)(port >> (8 * i));
}
static void get_bytes(const uint32_t &port, uint8_t *b) {
  for (int i = 0; i < TB_BYTES; i++) b[i] = (uint8_t)(port >> (8 * i));
}

static uint64_t mac48(const uint8_t *m) {
  uint64_t v = 0;
  for (int i = 0; i < 6; i++) v = v << 8 | m[i];
  return v;
}

static void drive_desc(const Frame &f) {
  dut->desc_dmac_i = mac48(f.q.rmac);
  dut->desc_smac_i = mac48(f.q.mac);
  dut->desc_sip_i = f.q.ip;
  dut->desc_dip_i = f.q.rip;
  dut->desc_tos_i = f.q.tos;
  dut->desc_ttl_i = f.q.ttl;
  dut->desc_ip_id_i = f.q.ip_id;
  dut->desc_sport_i = roce_udp_sport(f.q.qpn);
  dut->desc_opcode_i = f.k.opcode;
  dut->desc_se_i = f.k.se;
  dut->desc_migreq_i = f.k.migreq;
  dut->desc_pkey_i = f.q.pkey;
  dut->desc_dqpn_i = f.q.dest_qpn;
  dut->desc_ackreq_i = f.k.ackreq;
  dut->desc_psn_i = f.k.psn & ROCE_PSN_MASK;
  dut->desc_va_i = f.k.va;
  dut->desc_rkey_i = f.k.rkey;
  dut->desc_dmalen_i = f.k.dmalen;
  dut->desc_syndrome_i = f.k.syndrome;
  dut->desc_msn_i = f.k.msn & 0xFFFFFFu;
  dut->desc_imm_i = f.k.imm;
  dut->desc_len_i = f.k.payload_len;
}

static Frame make_frame(const uint8_t *pool) {
  Frame f;
  memset(&f.q, 0, sizeof f.q);
  memset(&f.k, 0, sizeof f.k);
  for (int i = 0; i < 6; i++) {
    f.q.mac[i] = (uint8_t)tb_rnd();
    f.q.rmac[i] = (uint8_t)tb_rnd();
  }
  f.q.ip = tb_rnd();
  f.q.rip = tb_rnd();
  f.q.qpn = tb_rnd() & ROCE_QPN_MASK;
  f.q.dest_qpn = tb_rnd() & ROCE_QPN_MASK;
  f.q.pkey = (uint16_t)tb_rnd();
  f.q.tos = (uint8_t)tb_rnd();
  f.q.ttl = (uint8_t)tb_rnd();
  f.q.ip_id = (uint16_t)tb_rnd();
  f.k.opcode = (uint8_t)(tb_rnd() % (ROCE_OP_FETCH_ADD + 1));
  f.k.se = tb_rnd() & 1;
  f.k.migreq = tb_rnd() & 1;
  f.k.ackreq = tb_rnd() & 1;
  f.k.psn = tb_rnd() & ROCE_PSN_MASK;
  f.k.va = (uint64_t)tb_rnd() << 32 | tb_rnd();
  f.k.rkey = tb_rnd();
  f.k.dmalen = tb_rnd();
  f.k.syndrome = (uint8_t)tb_rnd();
  f.k.msn = tb_rnd() & 0xFFFFFFu;
  f.k.imm = tb_rnd();
  uint32_t plen = 0;
  if (roce_op_has_payload(f.k.opcode)) plen = tb_rnd() % 3 == 0 ? tb_rnd() % 81 : tb_rnd() % 4097;
  uint32_t at = tb_rnd() % (8192 - plen + 1);
  f.payload.assign(pool + at, pool + at + plen);
  f.k.payload = f.payload.data();
  f.k.payload_len = plen;
  f.bad_tlast = plen && tb_rnd() % 20 == 0;
  roce_qp_t q = f.q;   // roce_build advances the copy's IPv4 ID
  f.want.resize(ROCE_FRAME_MAX);
  f.want.resize(roce_build(&q, &f.k, f.want.data()));
  return f;
}

int main(int argc, char **argv) {
  uint64_t seed = 1;
  int frames = 1500, full = 300;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], 0, 0);
    else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--full") && i + 1 < argc) full = atoi(argv[++i]);
  }
  Verilated::commandArgs(argc, argv);
  printf("tb_nic_tx_frame: %d bytes per beat, seed %" PRIu64 ", %d frames with stalls, %d at full rate\n",
         TB_BYTES, seed, frames, full);
  tb_seed(seed);
  static uint8_t pool[8192];
  for (auto &b : pool) b = (uint8_t)tb_rnd();

  dut = new Vtessera_nic_tx_frame;
  dut->rst_ni = 0;
  dut->clk_i = 0;
  dut->desc_valid_i = 0;
  dut->s_tvalid_i = 0;
  dut->m_tready_i = 0;
  dut->eval();
  dut->clk_i = 1;
  dut->eval();
  dut->rst_ni = 1;

  std::deque<Frame> sent;          // descriptors given, frames not yet received
  std::deque<size_t> pay_of;       // index into sent of the payload being streamed
  int made = 0, pass = 0, fail = 0, pay_errs = 0;
  size_t desc_next = 0, pay_frame = 0;
  uint32_t pay_pos = 0;
  std::vector<Frame> all;
  all.reserve(frames + full);
  for (int n = 0; n < frames + full; n++) all.push_back(make_frame(pool));
  std::vector<uint8_t> got;
  bool desc_shown = false, pay_shown = false, in_frame = false;
  uint64_t full_beats = 0, full_cycles = 0, bubbles = 0, idle = 0;
  size_t done = 0;
  bool held = false;
  uint8_t held_data[TB_BYTES];
  uint32_t held_keep = 0;
  bool held_last = false;
  uint64_t unstable = 0;

  while (done < all.size() && idle < 100000) {
    bool stall = done < (size_t)frames;
    // descriptor: valid held until taken
    if (!desc_shown && desc_next < all.size() && (!stall || tb_rnd() % 3 != 0)) desc_shown = true;
    dut->desc_valid_i = desc_shown;
    if (desc_shown) drive_desc(all[desc_next]);
    // payload of the oldest descriptor given whose payload is not all sent
    while (pay_frame < desc_next && pay_pos >= all[pay_frame].payload.size()) {
      pay_frame++;
      pay_pos = 0;
    }
    if (!pay_shown && pay_frame < desc_next && (!stall || tb_rnd() % 3 != 0)) pay_shown = true;
    if (pay_shown) {
      const Frame &f = all[pay_frame];
      uint8_t beat[TB_BYTES];
      uint32_t keep = 0, n = 0;
      for (int i = 0; i < TB_BYTES; i++) {
        beat[i] = (uint8_t)tb_rnd();
        if (pay_pos + i < f.payload.size()) {
          beat[i] = f.payload[pay_pos + i];
          keep |= 1u << i;
          n++;
        }
      }
      put_bytes(dut->s_tdata_i, beat);
      dut->s_tkeep_i = keep;
      dut->s_tlast_i = (pay_pos + n == f.payload.size()) != (f.bad_tlast && pay_pos == 0);
    }
    dut->s_tvalid_i = pay_shown;
    dut->m_tready_i = !stall || tb_rnd() % 4 != 0;
    dut->clk_i = 0;
    dut->eval();

    // handshakes of this cycle
    if (dut->pay_err_o) pay_errs++;
    if (dut->desc_valid_i && dut->desc_ready_o) {
      desc_next++;
      desc_shown = false;
    }
    if (dut->s_tvalid_i && dut->s_tready_o) {
      pay_pos += TB_BYTES;
      pay_shown = false;
    }
    // a beat offered and not taken must stay the same until taken (AXI4-Stream)
    {
      uint8_t now[TB_BYTES];
      get_bytes(dut->m_tdata_o, now);
      if (held && (!dut->m_tvalid_o || memcmp(now, held_data, TB_BYTES) ||
                   dut->m_tkeep_o != held_keep || dut->m_tlast_o != held_last))
        unstable++;
      held = dut->m_tvalid_o && !dut->m_tready_i;
      memcpy(held_data, now, TB_BYTES);
      held_keep = dut->m_tkeep_o;
      held_last = dut->m_tlast_o;
    }
    if (!stall) full_cycles++;
    if (!stall && in_frame && !dut->m_tvalid_o) bubbles++;
    if (dut->m_tvalid_o && dut->m_tready_i) {
      uint8_t beat[TB_BYTES];
      get_bytes(dut->m_tdata_o, beat);
      uint32_t keep = dut->m_tkeep_o, n = 0;
      while (n < TB_BYTES && (keep >> n & 1)) n++;
      bool packed = n == TB_BYTES ? true : (keep >> n) == 0;
      got.insert(got.end(), beat, beat + n);
      if (!stall) full_beats++;
      in_frame = !dut->m_tlast_o;
      bool bad_keep = !packed || n == 0 || (n < TB_BYTES && !dut->m_tlast_o);
      if (dut->m_tlast_o || bad_keep) {
        const Frame &f = all[done];
        bool ok = !bad_keep && got == f.want;
        if (ok) pass++;
        else {
          fail++;
          if (fail <= 10) {
            size_t d = 0;
            while (d < got.size() && d < f.want.size() && got[d] == f.want[d]) d++;
            printf("FAIL frame %zu: opcode 0x%02x payload %u: got %zu bytes, want %zu, first difference at byte %zu%s\n",
                   done, f.k.opcode, f.k.payload_len, got.size(), f.want.size(), d,
                   bad_keep ? " (tkeep not packed / partial beat without tlast)" : "");
          }
        }
        got.clear();
        done++;
        in_frame = false;
      }
      idle = 0;
    } else {
      idle++;
    }
    dut->clk_i = 1;
    dut->eval();
    cycles++;
  }
  int sp = 0, sf = 0;
  auto scenario = [&](bool ok, const char *what) {
    printf("[%s] %s\n", ok ? " OK " : "FAIL", what);
    ok ? sp++ : sf++;
  };
  printf("frames equal to the model's: %d of %zu\n", pass, all.size());
  scenario(fail == 0 && pass == (int)all.size(), "every frame equals the model's, byte for byte");
  if (done < all.size()) printf("FAIL: stuck after %zu frames\n", done);
  scenario(done == all.size(), "no frame stuck (all descriptors come out)");
  int bad_tlasts = 0;
  for (const Frame &f : all) bad_tlasts += f.bad_tlast;
  printf("%d payloads with a wrong tlast, pay_err_o pulsed %d times\n", bad_tlasts, pay_errs);
  scenario(pay_errs == bad_tlasts, "pay_err_o pulses once per payload with a wrong tlast");
  if (unstable) printf("FAIL: %" PRIu64 " beats changed while m_tready_i was low\n", unstable);
  scenario(!unstable, "a beat held by m_tready_i low does not change");
  if (bubbles) printf("FAIL: %" PRIu64 " idle cycles inside frames at full rate\n", bubbles);
  printf("full rate: %" PRIu64 " beats in %" PRIu64 " cycles (%.3f beats per cycle)\n", full_beats,
         full_cycles, full_cycles ? (double)full_beats / full_cycles : 0.0);
  scenario(!bubbles && full_beats > 0, "full rate: no idle cycle inside a frame");
  printf("%" PRIu64 " cycles\n", cycles);
  printf("%d passed, %d failed\n", sp, sf);
  delete dut;
  return sf ? 1 : 0;
}
