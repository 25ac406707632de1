// Verilator testbench of tessera_tpc_core: random programs run in lockstep on the RTL and
// on the C ISA model (tests/tpc/tpc_model.h). After every retired bundle the whole
// architectural state is compared (s, p, vp, v, i registers, RNG states, PC); at the end
// the error code, the error PC and both local memories. See docs/tpc_rtl.md.
//
//   Vtessera_tpc_core [--seed N] [--progs N] [--focus N] [--kernels N] [-v]   (run from the repository root)
//   --focus N: N TMU-focus programs (default progs/6); "--progs 0 --focus 2000 --kernels 0" hunts in them alone
//
// Prints its seed and ends with "N passed, M failed".
#include "Vtessera_tpc_core.h"
#include "Vtessera_tpc_core___024root.h"
#include "verilated.h"
extern "C" {
#include "tessera_cfg.h"
#include "tpc_model.h"
#include "tpc_isa_gen.h"
#include "tpcasm_lib.h"
#include "golden/tpc_golden.h"
}
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>
#include "../../framework/tf_seed.h"

#define ROOT(x) (top->rootp->tb_tpc_core_top__DOT__u_dut__DOT__##x)

static const uint32_t kMemBase = 0x80000000u, kMemSize = 1u << 18, kProgAddr = 0x80000000u;  // = -GMemSize
// The AXI slave (and the C model's device memory) serve kServed bytes: the last kHole bytes
// of the core's window answer DECERR, so stores there fail only at their write response
// (a posted store's error must still be reported at its own PC, docs/tpc_rtl.md). The hole
// is one whole region of the core's RegionBytes (4096, its default): device memory is
// populated in whole regions, which lets up to four posted stores of one region be in flight.
static const uint32_t kHole = 4096, kServed = kMemSize - kHole;
static const int kSlmWords = 256, kVlmVecs = 512;
static const uint64_t kMaxBundles = 3000;

static uint64_t rs;
static uint32_t rnd() {
  rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
  return (uint32_t)(rs >> 11);
}
static uint32_t rn(uint32_t n) { return n ? rnd() % n : 0; }

static Vtessera_tpc_core *top;
static uint64_t cycles;
static int verbose;

// ------------------------------------------------------------------ AXI4 slave (RTL memory)
// INCR bursts of 32-byte beats (len 0..7) that must not cross a 256-byte boundary; reads
// and writes are independent (a read in flight may see a later write, like a real fabric).
static std::vector<uint8_t> rtl_mem(kMemSize);
struct Beat { uint32_t addr; uint64_t t; bool err; bool last; };
struct Wbeat { std::vector<uint8_t> d; uint32_t strb; bool last; };
static std::deque<Beat> rq, awq, bq;
static int focus;  // 1 while the TMU-focus programs run (see run_all)
static bool pair_t6;  // the focus program's last repeated st.t writes tensor 6 (gen_prog)
static uint64_t berr_at = ~0ull;  // cycle of the last error write response handed to the TPC
static int slow_rd;  // TMU-focus programs and kernels: half the read bursts answer late
static int slow_b;   // every fourth TMU-focus program: every write response answers late
// directed posted-store-error programs (run_all, after the random focus programs): a row of
// TESSERA_TPC_POSTED_STORES st.t into the DECERR hole, the error answered late, so the first
// store's error meets all the younger ones in flight (TMU paths 11, 13, 14 on every seed)
static int force_perr;
static std::deque<Wbeat> wq;
static std::deque<unsigned> awlenq;
static int axi_bad;
static uint64_t axi_reads, axi_writes, axi_rbeats, axi_wbeats;
static bool in_mem(uint32_t a) { return a >= kMemBase && a - kMemBase + 32 <= kServed; }
static bool burst_ok(uint32_t a, unsigned len, unsigned size, unsigned burst) {
  return !(a & 31) && len <= 7 && size == 5 && burst == 1 && (a & 0xFF) + 32 * (len + 1) <= 256;
}

// TMU path counters: 0 slow, 1 fast ld, 2 fast ld unaligned, 3 fast st, 4 fast st unaligned,
// 5 fast st crossing 256 bytes, 6 fast with disabled lanes, 7 block fills, 8 prefetch fills,
// 9 posted stores answered with an error, 10 a second posted store issued while one is in
// flight, 11 a posted store answered with an error while a younger one is in flight,
// 12 a block fill's AR sent while another fill is in flight, 13 the last posted store the TMU
// allows (TESSERA_TPC_POSTED_STORES) issued while all the others are in flight, 14 a posted
// store answered with an error while two or more younger ones are in flight, 15 a pf.t that
// started a block fill
static const int kTmuCnt = 16;
static uint64_t tmu_cnt[kTmuCnt];
static const char *const tmu_cnt_name[kTmuCnt] = {"slow", "fast ld", "fast ld unaligned", "fast st", "fast st unaligned",
                                                  "fast st crossing 256 B", "fast with disabled lanes", "block fills",
                                                  "prefetches", "posted store errors",
                                                  "posted stores behind another", "posted store errors under a younger one",
                                                  "two fills in flight", "all posted stores in flight",
                                                  "posted store errors under two or more younger ones",
                                                  "pf.t fills"};
// Core commit paths (docs/tpc_rtl.md "Bundle timing"): a bundle commits in EXEC, or in the
// cycle its ld.t / st.t / float op ends; a unit ending without that commit (halt, PC_RANGE
// fetch, vrseed, local-memory store behind a posted store, more units) returns to EXEC;
// lds/ldv go through DECODE; a fast ld.t that hits the block buffer is done in EXEC.
// State numbers: tessera_tpc_core's state_e.
static const int kCoreCnt = 7;
static uint64_t core_cnt[kCoreCnt];
static const char *const core_cnt_name[kCoreCnt] = {"commit in EXEC", "commit at ld.t end", "commit at st.t end",
                                                    "commit at float end", "unit end back to EXEC",
                                                    "local-memory load via DECODE", "ld.t hit in EXEC"};
enum { kStDecode = 3, kStExec = 4, kStTld = 6, kStTst = 7, kStFpu = 8 };

// Read footprint (docs/tpc_rtl.md, "coherence"): the TMU may read only 32-byte beats that
// hold an in-bounds element of a row a load of the launch addresses (whole dim-0 extent
// when stride[0] = 1, else the in-bounds lanes' elements). A read of any other beat (a
// block fill or prefetch past the row) would make the DCORE's L2 slice allocate lines the
// kernel never asked for, which may still be written by a producer on another DCORE
// (hostlink/pipeline_gemm_tpc, seed 7). Collected at each load's start, reset per launch.
static std::set<uint32_t> rd_ok;
static uint64_t rd_stray;
// The stream hint (ARQOS[3:2] of a block fill) lets the L2 slice read the next one or two
// 256-byte blocks ahead, so the blocks it announces must lie inside the footprint too (all
// 8 beats of each).
static uint64_t nx_hints, nx_stray;
static void note_load() {
  const auto &dw = ROOT(u_tmu__DOT__desc_i);
  const auto &cw = ROOT(u_tmu__DOT__coord_i);
  uint32_t base = dw[0], dt = dw[1] & 15u, nd = (dw[1] >> 4) & 7u;
  int64_t esz = (dt == 0 || dt == 5 || dt == 8) ? 4 : (dt == 1 || dt == 2 || dt == 6 || dt == 9) ? 2 : 1;
  int64_t lanes = 32 / esz, row = 0;
  for (unsigned d = 1; d < 5; d++) {
    int64_t c = (int32_t)cw[d];
    if (d < nd) {
      if (c < 0 || c >= (int64_t)dw[3 + d]) return;  // the whole vector is out of bounds
      row += c * (int64_t)(int32_t)dw[8 + d];
    } else if (c != 0) {
      return;
    }
  }
  if (nd == 0) return;
  int64_t size0 = dw[3], stride0 = (int32_t)dw[8], c0 = (int32_t)cw[0];
  auto add = [&](int64_t e0, int64_t e1) {  // elements [e0, e1) of dim 0 at stride 1
    int64_t lo = (int64_t)base + (row + e0) * esz, hi = (int64_t)base + (row + e1) * esz;
    for (int64_t a = lo & ~31LL; a < hi; a += 32) rd_ok.insert((uint32_t)a >> 5);
  };
  if (stride0 == 1) {
    add(0, size0);
  } else {
    for (int64_t k = 0; k < lanes; k++)
      if (c0 + k >= 0 && c0 + k < size0) {
        int64_t a = (int64_t)base + (row + (c0 + k) * stride0) * esz;
        for (int64_t b = a & ~31LL; b < a + esz; b += 32) rd_ok.insert((uint32_t)b >> 5);
      }
  }
}

static void tick() {
  if (top->start_i && !top->busy_o) rd_ok.clear();
  top->clk_i = 0; top->eval();
  // slave outputs for this cycle
  top->m_axi_arready_i = rn(4) != 0;
  top->m_axi_awready_i = rn(4) != 0;
  top->m_axi_wready_i = rn(4) != 0;
  top->m_axi_rvalid_i = !rq.empty() && rq.front().t <= cycles && rn(5) != 0;
  if (top->m_axi_rvalid_i) {
    const Beat &b = rq.front();
    for (int k = 0; k < 8; k++) {
      uint32_t x = 0;
      if (!b.err) memcpy(&x, &rtl_mem[b.addr - kMemBase + 4 * k], 4);
      top->m_axi_rdata_i[k] = x;
    }
    top->m_axi_rresp_i = b.err ? 3 : 0;
    top->m_axi_rlast_i = b.last;
    top->m_axi_rid_i = 0;
  }
  top->m_axi_bvalid_i = !bq.empty() && bq.front().t <= cycles;
  top->m_axi_bresp_i = top->m_axi_bvalid_i && bq.front().err ? 3 : 0;
  top->m_axi_bid_i = 0;
  top->eval();
  bool ar = top->m_axi_arvalid_o && top->m_axi_arready_i, r = top->m_axi_rvalid_i && top->m_axi_rready_o;
  bool aw = top->m_axi_awvalid_o && top->m_axi_awready_i, wv = top->m_axi_wvalid_o && top->m_axi_wready_i;
  bool b = top->m_axi_bvalid_i && top->m_axi_bready_o;
  if (ar) {
    uint32_t a = top->m_axi_araddr_o;
    unsigned len = top->m_axi_arlen_o;
    if (!burst_ok(a, len, top->m_axi_arsize_o, top->m_axi_arburst_o)) {
      if (axi_bad++ < 4) printf("  AXI: bad AR addr %08x len %u size %u\n", a, len, top->m_axi_arsize_o);
      len = 0;
    }
    for (unsigned i = 0; i <= len; i++)
      if (!rd_ok.count((a >> 5) + i) && rd_stray++ < 4)
        printf("  TMU read footprint: beat %08x (burst %08x len %u) holds no element of a row loaded\n",
               a + 32 * i, a, len + 1);
    // stream hint ARQOS[3:2]: 01 the next block, 10 the next two, 11 only the block two after
    unsigned hint = (top->m_axi_arqos_o >> 2) & 3u;
    if (hint) {
      nx_hints++;
      bool bad = len != 7;                // only block fills carry the hint
      uint32_t first = hint == 3 ? 2 : 1, last = hint == 1 ? 1 : 2;  // blocks announced
      for (uint32_t k = first; k <= last; k++)
        for (unsigned i = 0; i < 8; i++) bad = bad || !rd_ok.count((((a >> 8) + k) << 3) + i);
      if (bad && nx_stray++ < 4)
        printf("  TMU stream hint %u: fill %08x len %u announces blocks %u..%u after it, not all inside the rows loaded\n",
               hint, a, len + 1, first, last);
    }
    // (slow_rd: half the bursts wait 10-49 cycles, so block fills overlap)
    uint64_t t = cycles + 1 + ((slow_rd && rn(2)) ? 10 + rn(40) : rn(6));
    for (unsigned i = 0; i <= len; i++) rq.push_back({a + 32 * i, t + i, !in_mem(a + 32 * i), i == len});
    axi_reads++;
    axi_rbeats += len + 1;
  }
  if (r) rq.pop_front();
  if (aw) {
    uint32_t a = top->m_axi_awaddr_o;
    unsigned len = top->m_axi_awlen_o;
    if (!burst_ok(a, len, top->m_axi_awsize_o, top->m_axi_awburst_o)) {
      if (axi_bad++ < 4) printf("  AXI: bad AW addr %08x len %u\n", a, len);
      len = 0;
    }
    awq.push_back({a, 0, !in_mem(a), false});
    awlenq.push_back(len);
  }
  if (wv) {
    std::vector<uint8_t> d(32);
    for (int k = 0; k < 8; k++) memcpy(&d[4 * k], &top->m_axi_wdata_o[k], 4);
    wq.push_back({d, top->m_axi_wstrb_o, (bool)top->m_axi_wlast_o});
  }
  if (b && bq.front().err && ROOT(u_tmu__DOT__bcnt_q)) tmu_cnt[9]++;
  if (b && bq.front().err && ROOT(u_tmu__DOT__bcnt_q) >= 2) tmu_cnt[11]++;
  if (b && bq.front().err && ROOT(u_tmu__DOT__bcnt_q) >= 3) tmu_cnt[14]++;
  if (aw && ROOT(u_tmu__DOT__bcnt_q) >= 1) tmu_cnt[10]++;
  if (aw && ROOT(u_tmu__DOT__bcnt_q) == TESSERA_TPC_POSTED_STORES - 1) tmu_cnt[13]++;
  {
    int st = ROOT(state_q);
    bool unit_end = (st == kStTld && ROOT(tmu_done)) || (st == kStTst && ROOT(tmu_done) && !ROOT(tmu_err)) ||
                    (st == kStFpu && ROOT(fpu_done));
    if (ROOT(commit)) core_cnt[st == kStExec ? 0 : st == kStTld ? 1 : st == kStTst ? 2 : 3]++;
    else if (unit_end) core_cnt[4]++;
    if (st == kStExec && ROOT(need_lm)) core_cnt[5]++;
    if (ROOT(ld_hit)) core_cnt[6]++;
  }
  if (b && bq.front().err) berr_at = cycles;
  if (b) bq.pop_front();
  if (ROOT(u_tmu__DOT__st_q) == 0 && ROOT(tmu_start) && !ROOT(tmu_store)) note_load();
  if (ROOT(u_tmu__DOT__st_q) == 0 && ROOT(tmu_start)) {
    uint32_t a = ROOT(u_tmu__DOT__addr), m = ROOT(u_tmu__DOT__fmask), ln = ROOT(u_tmu__DOT__lanes);
    if (!ROOT(u_tmu__DOT__fast)) {
      tmu_cnt[0]++;
    } else {
      int k = ROOT(tmu_store) ? 3 : 1;
      tmu_cnt[k]++;
      if (a & 31) tmu_cnt[k + 1]++;
      if (k == 3 && (a & 255) > 224) tmu_cnt[5]++;
      if (m != (ln == 32 ? 0xFFFFFFFFu : (1u << ln) - 1)) tmu_cnt[6]++;
    }
  }
  if (ROOT(u_tmu__DOT__st_q) == 11 && ROOT(u_tmu__DOT__fe_start)) tmu_cnt[15]++;  // TPf
  if (ar && top->m_axi_arlen_o == 7) {
    tmu_cnt[7]++;
    if (!((ROOT(u_tmu__DOT__fq_dem_q) >> ROOT(u_tmu__DOT__fq_ap_q)) & 1)) tmu_cnt[8]++;  // the slot whose AR goes out
    if (__builtin_popcount(ROOT(u_tmu__DOT__fq_v_q)) >= 2) tmu_cnt[12]++;
  }
  while (!awq.empty() && wq.size() > awlenq.front()) {
    Beat a = awq.front(); awq.pop_front();
    unsigned len = awlenq.front(); awlenq.pop_front();
    bool err = false;
    for (unsigned i = 0; i <= len; i++) {
      Wbeat d = wq.front(); wq.pop_front();
      uint32_t ba = a.addr + 32 * i;
      if (d.last != (i == len) && axi_bad++ < 4) printf("  AXI: wlast %d on beat %u of %u\n", d.last, i, len + 1);
      if (!in_mem(ba)) { err = true; continue; }
      for (int j = 0; j < 32; j++)
        if ((d.strb >> j) & 1) rtl_mem[ba - kMemBase + j] = d.d[j];
      axi_wbeats++;
    }
    // write responses after 1-4 cycles; in the TMU-focus programs every error response
    // and a third of the others (all of them in every fourth program) after 8-31, so that
    // several posted stores are in flight and an error meets younger stores
    bq.push_back({a.addr,
                  cycles + 1 + (force_perr && err ? 24 + rn(8)
                                : focus && (err || slow_b || rn(3) == 0) ? 7 + rn(24) : rn(4)),
                  err, true});
    axi_writes++;
  }
  top->clk_i = 1; top->eval();
  cycles++;
}

// ------------------------------------------------------------------ instruction table
static const tpc_insn_info_t *find_insn(int slot, int op) {
  for (int i = 0; i < TPC_NINSN; i++)
    if ((tpc_insn_info[i].slots >> slot & 1) && tpc_insn_info[i].opcode == op) return &tpc_insn_info[i];
  return nullptr;
}
static int insn_index(const tpc_insn_info_t *in) { return (int)(in - tpc_insn_info); }

// what the RTL implements: the whole instruction table (kept as a hook for coverage)
static bool rtl_supports(const tpc_insn_info_t *, int) { return true; }

// Random memory words, biased towards float special values so that every instruction sees
// NaN, Inf, +-0, subnormals, max finite and values in the special functions' active range.
static uint32_t rnd_word() {
  static const uint32_t f32s[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001,
                                  0x7F7FFFFF, 0xFF7FFFFF, 0x00000001, 0x807FFFFF, 0x00800000, 0x3F800000,
                                  0xBF800000, 0x42B20000, 0xC2D00000, 0x41200000, 0x39800000, 0x3FC00000};
  static const uint16_t h16s[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7BFF, 0xFBFF, 0x0001, 0x83FF,
                                  0x7F80, 0xFF80, 0x7FC0, 0x7F7F, 0x0001, 0x807F, 0x3F80, 0x3C00, 0x4B00};
  static const uint8_t b8s[] = {0x00, 0x80, 0x7F, 0xFF, 0x7E, 0xFE, 0x01, 0x81, 0x7C, 0xFC, 0x7B, 0x7D, 0x07, 0x38};
  switch (rn(8)) {
  case 0: return f32s[rn(sizeof f32s / 4)];
  case 1: return h16s[rn(sizeof h16s / 2)] | (uint32_t)h16s[rn(sizeof h16s / 2)] << 16;
  case 2: { uint32_t x = 0; for (int k = 0; k < 4; k++) x |= (uint32_t)b8s[rn(sizeof b8s)] << (8 * k); return x; }
  case 3: { float f = ((float)(int32_t)rnd() / 2147483648.0f) * (float)(1 << rn(8)); uint32_t b; memcpy(&b, &f, 4); return b; }
  case 4: { uint32_t x = rnd() & 0x8000FFFFu; return x | ((100u + rn(55)) << 23); }  // near 1
  default: return rnd();
  }
}

// ------------------------------------------------------------------ random programs
struct Prog {
  std::vector<uint64_t> w;  // 4 words per bundle
  int len;
};

static uint64_t setf(uint64_t w, int lo, int width, uint64_t v) {
  uint64_t m = (width == 64 ? ~0ull : ((1ull << width) - 1)) << lo;
  return (w & ~m) | ((v << lo) & m);
}

static int slot_insns[4][128], nslot_insns[4];

// TMU focus (programs after the random ones): ld.t / st.t / ixaddi dim 0 in half of the
// load / store / scalar slots, descriptors with stride[0] = 1 and bases anywhere in a
// 256-byte block (unaligned, crossing 32- and 256-byte boundaries), three bases shared by
// the 8 tensors (loads of stored data), some tensors ending at the end of device memory:
// the fast path, its fallbacks and the block buffer's invalidation, in lockstep.
static uint32_t fbase[3];

static uint64_t rand_slot(int slot, int pc, int len) {
  for (int tries = 0; tries < 200; tries++) {
    const tpc_insn_info_t *in = &tpc_insn_info[slot_insns[slot][rn(nslot_insns[slot])]];
    if (focus && rn(2)) {
      if (slot == TPC_SLOT_LOAD) in = find_insn(slot, rn(4) ? TPC_OP_L_LD_T : TPC_OP_L_PF_T);
      else if (slot == TPC_SLOT_STORE) in = find_insn(slot, TPC_OP_ST_ST_T);
      else if (slot == TPC_SLOT_SCALAR) in = find_insn(slot, TPC_OP_S_IXADDI);
    }
    bool walk = slot == TPC_SLOT_VECTOR && rn(4) == 0;
    if (walk) in = find_insn(slot, TPC_OP_V_VCVT);  // walks the 121 type pairs in turn
    std::string name = in->name;
    uint64_t w = 0;
    int dt = 0;
    if (in->types) {
      do dt = (int)rn(TPC_NDT); while (!((in->types >> dt) & 1));
    }
    if (!rtl_supports(in, dt)) continue;
    w = setf(w, TPC_F_OP_LO, 8, in->opcode);
    if (rn(4) == 0) { w = setf(w, TPC_F_SP_LO, 3, rn(8)); w = setf(w, TPC_F_SPN_LO, 1, rn(2)); }
    w = setf(w, TPC_F_DT_LO, 4, (uint64_t)dt);
    int lanes = tpc_dtype_info[dt].lanes;
    bool lsm = (name == "lds" || name == "ldv" || name == "sts" || name == "stv");
    for (int i = 0; i < in->nops; i++) {
      switch (in->ops[i]) {
      case TPC_OPK_VD: case TPC_OPK_SD: case TPC_OPK_PD: case TPC_OPK_VPD: case TPC_OPK_ID: {
        uint32_t r = in->ops[i] == TPC_OPK_VD ? rn(32) : in->ops[i] == TPC_OPK_SD ? rn(30) : rn(8);
        if (name == "bnzd") r = 31;
        w = setf(w, TPC_F_RD_LO, 5, r);
        break;
      }
      case TPC_OPK_VA: case TPC_OPK_SA:
        w = setf(w, TPC_F_RA_LO, 5, (lsm && rn(5)) ? 0 : rn(32));
        break;
      case TPC_OPK_PA: case TPC_OPK_VPA: case TPC_OPK_IA: w = setf(w, TPC_F_RA_LO, 5, rn(8)); break;
      case TPC_OPK_VB: case TPC_OPK_SB: w = setf(w, TPC_F_RB_LO, 5, rn(32)); break;
      case TPC_OPK_VSB:
        w = setf(w, TPC_F_RB_LO, 5, rn(32));
        if (rn(3) == 0) w = setf(w, TPC_F_FN_LO + 7, 1, 1);
        break;
      case TPC_OPK_PB: case TPC_OPK_VPB: w = setf(w, TPC_F_RB_LO, 5, rn(8)); break;
      case TPC_OPK_VC: w = setf(w, TPC_F_RC_LO, 5, rn(32)); break;
      case TPC_OPK_VPC: w = setf(w, TPC_F_RC_LO, 5, rn(8)); break;
      case TPC_OPK_T: w = setf(w, TPC_F_RC_LO, 5, rn(8)); break;
      case TPC_OPK_DIM: w = setf(w, TPC_F_RB_LO, 5, (focus && rn(4)) ? 0 : rn(5)); break;
      case TPC_OPK_LANE: w = setf(w, TPC_F_RB_LO, 5, rn((uint32_t)lanes)); break;
      case TPC_OPK_IMM: {
        uint32_t v;
        if (lsm) {
          bool vec = (name == "ldv" || name == "stv");
          v = vec ? 32 * rn(kVlmVecs) : 4 * rn(kSlmWords);
          if (rn(25) == 0) v = rnd();            // misaligned or out of range
        } else {
          v = rn(3) ? rn(64) - 32 : rnd();
          if (focus && rn(2)) v = rn(2) ? 8 * rn(5) : rn(41) - 20;
        }
        w = setf(w, TPC_F_IMM_LO, 16, v & 0xFFFF);
        break;
      }
      case TPC_OPK_IMM32: w = setf(w, TPC_F_IMM32_LO, 32, rn(2) ? rnd() : rn(40)); break;
      case TPC_OPK_TGT: {
        uint32_t t = (pc + 1 < len) ? pc + 1 + rn((uint32_t)(len - pc - 1)) : (uint32_t)len;
        if (rn(30) == 0) t = (uint32_t)len + rn(4);
        w = setf(w, TPC_F_IMM32_LO, 32, t);
        break;
      }
      default: break;
      }
    }
    if (in->mods & TPC_MOD_COND) w = setf(w, TPC_F_FN_LO, 3, slot == TPC_SLOT_VECTOR ? rn(6) : rn(8));
    if ((in->mods & TPC_MOD_SAT) && rn(2)) w = setf(w, TPC_F_FN_LO + 6, 1, 1);
    if (in->mods & TPC_MOD_SRCT) {   // vcvt: source type, part, stochastic rounding
      static int pair;
      int st = (int)rn(11);
      if (walk) {
        st = pair % 11;
        lanes = tpc_dtype_info[(pair / 11) % 11].lanes;
        w = setf(w, TPC_F_DT_LO, 4, (uint64_t)((pair / 11) % 11));
        pair++;
      }
      int ls = tpc_dtype_info[st].lanes;
      w = setf(w, TPC_F_FN_LO, 4, (uint64_t)st);
      w = setf(w, TPC_F_FN_LO + 4, 2, rn(ls > lanes ? ls / lanes : lanes / ls));  // a legal part
      if (!walk && rn(3) == 0) { w = setf(w, TPC_F_FN_LO, 4, 0); w = setf(w, TPC_F_DT_LO, 4, 1); }  // f32 -> bf16
      if ((in->mods & TPC_MOD_SR) && rn(3) == 0) w = setf(w, TPC_F_FN_LO + 7, 1, 1);
    }
    if (in->lanepred && rn(2)) { w = setf(w, TPC_F_VP_LO, 3, rn(8)); w = setf(w, TPC_F_VPN_LO, 1, rn(2)); }
    w &= in->used | 0xFFull;
    if (tpc_slot_legal(slot, w) == 0) return w;
  }
  return 0;
}

static Prog gen_prog() {
  Prog p;
  pair_t6 = false;
  p.len = 4 + (int)rn(40);
  p.w.assign(4 * (size_t)p.len, 0);
  int loop_start = -1;
  for (int pc = 0; pc < p.len; pc++) {
    for (int s = 0; s < 4; s++)
      if (rn(10) < 7) p.w[4 * pc + s] = rand_slot(s, pc, p.len);
    // occasional small loop: li s31, n ... bnzd s31, start
    if (loop_start < 0 && pc + 3 < p.len && rn(8) == 0) {
      uint64_t w = 0;
      w = setf(w, TPC_F_OP_LO, 8, TPC_OP_S_LI);
      w = setf(w, TPC_F_RD_LO, 5, 31);
      w = setf(w, TPC_F_IMM32_LO, 32, 1 + rn(4));
      p.w[4 * pc + 1] = w;
      loop_start = pc + 1;
    } else if (loop_start >= 0 && pc > loop_start && rn(3) == 0) {
      uint64_t w = 0;
      w = setf(w, TPC_F_OP_LO, 8, TPC_OP_S_BNZD);
      w = setf(w, TPC_F_RD_LO, 5, 31);
      w = setf(w, TPC_F_IMM32_LO, 32, (uint64_t)loop_start);
      p.w[4 * pc + 1] = w;
      loop_start = -1;
    }
  }
  if (focus && p.len >= 4) {  // random lane masks in vp1, vp2 (li s1/s2; vpfroms)
    for (int k = 0; k < 2; k++) {
      uint64_t li = 0, vf = 0;
      li = setf(li, TPC_F_OP_LO, 8, TPC_OP_S_LI);
      li = setf(li, TPC_F_RD_LO, 5, 1 + k);
      li = setf(li, TPC_F_IMM32_LO, 32, rn(2) ? (rnd() | rnd()) : rnd());
      vf = setf(vf, TPC_F_OP_LO, 8, TPC_OP_V_VPFROMS);
      vf = setf(vf, TPC_F_RD_LO, 5, 1 + k);
      vf = setf(vf, TPC_F_RA_LO, 5, 1 + k);
      p.w[4 * k + 1] = li;
      p.w[4 * (k + 1) + 2] = vf;
    }
  }
  if (focus && p.len >= 6 && rn(2)) {
    // the same st.t in 2..5 bundles in a row: the later stores go out while the first's
    // write response is due (same block; the TMU posts up to 4), and into the DECERR hole
    // the first one's error meets the younger stores (the TPC must stop at the first
    // store's PC)
    int k = 2 + (int)rn((uint32_t)p.len - 4);
    int n = 2 + (int)rn(TESSERA_TPC_POSTED_STORES);  // up to one more than may be posted
    if (k + n > p.len) n = p.len - k;
    uint64_t st = 0;
    for (int tries = 0; tries < 32; tries++) {
      st = rand_slot(TPC_SLOT_STORE, k, p.len);
      if (((st >> TPC_F_OP_LO) & 0xffu) == (uint64_t)TPC_OP_ST_ST_T) break;
    }
    if (rn(2)) st = setf(st, TPC_F_RC_LO, 5, 7);  // tensor 7: often in the DECERR hole
    for (int j = 0; j < n; j++) p.w[4 * (k + j) + 3] = st;
    // half the time the last store writes tensor 6 instead, which the launch puts in
    // another block of the hole (all posted stores in flight, all fail) or into served
    // memory in another region (it must wait for the first one's error: nothing written)
    pair_t6 = rn(2) && ((st >> TPC_F_RC_LO) & 31u) == 7u;
    if (pair_t6) p.w[4 * (k + n - 1) + 3] = setf(st, TPC_F_RC_LO, 5, 6);
  }
  if (force_perr) {
    // directed: empty bundles, then the same st.t (tensor 7, coordinates i0 = 0, a random
    // vector register) in TESSERA_TPC_POSTED_STORES bundles in a row, then halt
    int k = 1 + (int)rn(3), n = TESSERA_TPC_POSTED_STORES;
    p.len = k + n + 1 + (int)rn(3);
    p.w.assign(4 * (size_t)p.len, 0);
    uint64_t st = setf(0, TPC_F_OP_LO, 8, TPC_OP_ST_ST_T);
    st = setf(st, TPC_F_RC_LO, 5, 7);
    st = setf(st, TPC_F_RB_LO, 5, rn(32));
    for (int j = 0; j < n; j++) p.w[4 * (k + j) + 3] = st;
    uint64_t w = setf(0, TPC_F_OP_LO, 8, TPC_OP_S_HALT);
    p.w[4 * (p.len - 1) + 1] = w;
    return p;
  }
  if (rn(12)) { // usually end with halt (else run off the end: PC_RANGE)
    uint64_t w = 0;
    w = setf(w, TPC_F_OP_LO, 8, TPC_OP_S_HALT);
    p.w[4 * (p.len - 1) + 1] = w;
  }
  return p;
}

// ------------------------------------------------------------------ launch
static void rand_desc(tpc_tensor_t *t) {
  memset(t, 0, sizeof(*t));
  t->dtype = rn(11);
  t->base = kMemBase + 0x1000 + 4 * rn(0x8000);     // above the program
  t->ndims = 1 + rn(5);
  for (int d = 0; d < 5; d++) {
    t->size[d] = 1 + rn(d == 0 ? 80 : 12);
    t->stride[d] = d == 0 ? (rn(4) ? 1 : (int32_t)rn(5)) : (int32_t)rn(3000);
  }
  if (rn(4) == 0) t->base += tpc_dtype_info[t->dtype].bytes * rn(1000);
  if (rn(60) == 0) t->dtype = 11 + rn(5);
  if (rn(60) == 0) t->ndims = rn(2) ? 0 : 6 + rn(2);
  if (rn(60) == 0) t->size[rn(5)] = rn(2) ? 0 : (1u << 24) + rn(3);
  if (rn(60) == 0) t->base += 1;
  if (focus) {
    uint32_t esz = tpc_dtype_info[t->dtype].bytes;
    t->stride[0] = rn(10) ? 1 : t->stride[0];
    // short rows (vectors partly out of bounds) or rows of >= 512 bytes: the fast-path
    // load's block fills and prefetches run only inside a row (read footprint)
    t->size[0] = rn(2) ? 1 + rn(90) : 512 + rn(300);
    t->base = fbase[rn(3)] + esz * rn(8);
    if (rn(6) == 0) t->base = kMemBase + kMemSize - esz * (1 + rn(120));  // in the DECERR hole / beyond memory
  }
  t->pad = rnd();
}

static void put_desc(int t, const tpc_tensor_t *d) {
  uint32_t img[16] = {0};
  img[0] = d->base;
  img[1] = (d->dtype & 15u) | ((d->ndims & 7u) << 4);
  img[2] = d->pad;
  for (int k = 0; k < 5; k++) { img[3 + k] = d->size[k]; img[8 + k] = (uint32_t)d->stride[k]; }
  for (int k = 0; k < 16; k++) top->desc_i[16 * t + k] = img[k];
}

// load the program into the core's instruction memory and drive the launch inputs
static void rtl_setup(const tpc_launch_t &L, const std::vector<uint64_t> &w, uint32_t id, uint32_t ntpc,
                      bool bad_launch, uint32_t max_bundles = 0) {
  int len = (int)(w.size() / 4);
  for (int b = 0; b < len; b++) {
    top->imem_we_i = 1;
    top->imem_waddr_i = (uint32_t)b;
    for (int k = 0; k < 8; k++) top->imem_wdata_i[k] = (uint32_t)(w[4 * b + k / 2] >> (32 * (k & 1)));
    tick();
  }
  top->imem_we_i = 0;
  uint32_t off[5], len5[5];
  tpc_slice(&L, ntpc, id, off, len5);
  for (int d = 0; d < 5; d++) { top->slice_off_i[d] = off[d]; top->slice_len_i[d] = len5[d]; }
  for (int t = 0; t < 8; t++) put_desc(t, &L.tensor[t]);
  for (int k = 0; k < 16; k++) top->sarg_i[k] = L.sarg[k];
  top->prog_len_i = L.prog_len;
  top->ntensors_i = L.ntensors & 15u;
  top->bad_launch_i = bad_launch;
  top->tpc_id_i = id;
  top->ntpc_i = ntpc;
  top->rng_seed_i = L.rng_seed;
  top->max_bundles_i = max_bundles;
  top->cancel_i = 0;
}

// ------------------------------------------------------------------ state compare
static int cmp_state(const tpc_core_t *c, const char *when) {
  int bad = 0;
  auto fail = [&](const char *what, int i, uint32_t rtl, uint32_t mod) {
    if (bad++ < 6)
      printf("  MISMATCH %s: %s[%d] rtl=%08x model=%08x (pc %u)\n", when, what, i, rtl, mod, c->pc);
  };
  for (int i = 0; i < 32; i++)
    if (ROOT(sreg_q)[i] != c->s[i]) fail("s", i, ROOT(sreg_q)[i], c->s[i]);
  for (int i = 0; i < 8; i++)
    if (((ROOT(preg_q) >> i) & 1) != c->p[i]) fail("p", i, (ROOT(preg_q) >> i) & 1, c->p[i]);
  for (int i = 0; i < 8; i++)
    if (ROOT(vpreg_q)[i] != c->vp[i]) fail("vp", i, ROOT(vpreg_q)[i], c->vp[i]);
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 8; j++) {
      uint32_t m; memcpy(&m, &c->v[i][4 * j], 4);
      if (ROOT(vreg_q)[i][j] != m) fail("v(word)", i * 8 + j, ROOT(vreg_q)[i][j], m);
    }
  for (int i = 0; i < 8; i++)
    for (int d = 0; d < 5; d++)
      if (ROOT(ireg_q)[i][d] != (uint32_t)c->ix[i][d]) fail("i(dim)", i * 5 + d, ROOT(ireg_q)[i][d], (uint32_t)c->ix[i][d]);
  for (int k = 0; k < 8; k++)
    if (ROOT(rng_q)[k] != c->rng[k]) fail("rng", k, ROOT(rng_q)[k], c->rng[k]);
  if (top->pc_o != c->pc) fail("pc", 0, top->pc_o, c->pc);
  return bad;
}

static int cmp_mem(const tpc_core_t *c, int first_slm_word) {
  int bad = 0;
  for (int i = first_slm_word; i < kSlmWords; i++) {
    uint32_t m; memcpy(&m, &c->slm[4 * i], 4);
    if (ROOT(slm)[i] != m && bad++ < 4) printf("  MISMATCH SLM word %d rtl=%08x model=%08x\n", i, ROOT(slm)[i], m);
  }
  for (int i = 0; i < kVlmVecs; i++)
    for (int j = 0; j < 8; j++) {
      uint32_t m; memcpy(&m, &c->vlm[32 * i + 4 * j], 4);
      if (ROOT(vlm)[i][j] != m && bad++ < 4) printf("  MISMATCH VLM vec %d word %d rtl=%08x model=%08x\n", i, j, ROOT(vlm)[i][j], m);
    }
  return bad;
}

// ------------------------------------------------------------------ one program
static std::map<std::string, uint64_t> cover;
static std::map<int, uint64_t> err_seen;

static void count_bundle(const tpc_core_t *c, const std::vector<uint8_t> &mem) {
  if (c->pc >= c->L->prog_len) return;
  for (int s = 0; s < 4; s++) {
    uint64_t w;
    memcpy(&w, &mem[c->L->prog_addr - kMemBase + 32 * c->pc + 8 * s], 8);
    if (!(w & 0xFF) || tpc_slot_legal(s, w)) continue;
    if (!(c->p[(w >> 8) & 7] ^ ((w >> 11) & 1))) continue;
    const tpc_insn_info_t *in = find_insn(s, (int)(w & 0xFF));
    std::string n = in->name;
    if (in->types) n += std::string(".") + tpc_dtype_info[(w >> 12) & 15].name;
    if (in->mods & TPC_MOD_SRCT) {   // vcvt: every destination/source type pair, and .sr
      n += std::string(".") + tpc_dtype_info[(w >> TPC_F_FN_LO) & 15].name;
      if ((w >> (TPC_F_FN_LO + 7)) & 1) n += ".sr";
    }
    cover[n]++;
  }
}

// environment TPC_TRACE=N: print the core's control state every cycle of program N
static const int trace_prog = getenv("TPC_TRACE") ? atoi(getenv("TPC_TRACE")) : -1;

static bool run_prog(int idx, const Prog &p) {
  static std::vector<uint8_t> mem(kMemSize);  // model's device memory
  static tpc_launch_t L;
  static tpc_core_t c;
  memset(&L, 0, sizeof(L));
  for (size_t i = 0; i < mem.size(); i += 4) { uint32_t x = rnd_word(); memcpy(&mem[i], &x, 4); }
  memcpy(&mem[kProgAddr - kMemBase], p.w.data(), 32 * (size_t)p.len);
  rtl_mem = mem;
  tpc_devmem_t dm = {mem.data(), kMemBase, kServed};
  L.prog_addr = kProgAddr;
  L.prog_len = (uint32_t)p.len;
  L.ntensors = rn(8) ? 8 : rn(9);
  for (int k = 0; k < 3; k++) fbase[k] = kMemBase + 0x1000 + 256 * rn(0x300) + 4 * rn(64);
  for (int t = 0; t < 8; t++) rand_desc(&L.tensor[t]);
  if (focus && rn(2)) {  // tensor 7 (the repeated st.t above, half the time) in the DECERR hole
    tpc_tensor_t *h = &L.tensor[7];
    h->stride[0] = 1;
    h->base = kMemBase + kServed + 32u * rn(kHole / 32 - 1);
    if (pair_t6) {  // tensor 6: another block of the hole, or served memory below it
      tpc_tensor_t *h6 = &L.tensor[6];
      h6->stride[0] = 1;
      h6->base = rn(2) ? kMemBase + kServed + 32u * rn(kHole / 32 - 1)
                       : kMemBase + kServed - 256u * (1 + rn(64)) + 32u * rn(8);
    }
  }
  for (int k = 0; k < 16; k++) L.sarg[k] = rnd();
  uint32_t ntpc = 1 + rn(8), id = rn(ntpc);
  for (int d = 0; d < 5; d++) L.idx_size[d] = rn(3) ? 1 : 1 + rn(50);
  L.rng_seed = rnd();
  bool bad_launch = false;
  if (rn(40) == 0) { L.idx_size[rn(5)] = 0; bad_launch = true; }
  if (rn(40) == 0) L.ntensors = 9 + rn(7);
  if (force_perr) {  // the directed program's store lands in one 32-byte-aligned block of the hole
    tpc_tensor_t *h = &L.tensor[7];
    h->dtype = 0;
    h->ndims = 1;
    h->size[0] = 8 * (1 + rn(8));
    h->stride[0] = 1;
    h->base = kMemBase + kServed + 32u * rn(kHole / 32 - 8);
    L.ntensors = 8;
    ntpc = 1;
    id = 0;
    for (int d = 0; d < 5; d++) L.idx_size[d] = 1;
    bad_launch = false;
  }

  // the RTL's bundle limit: a small random one on a quarter of the programs, else the
  // testbench's own (a runaway program then ends with TIMEOUT on both sides); a cancel
  // (cancel_i) at a random cycle on one program in eight
  uint32_t limit = rn(4) == 0 && !force_perr ? 1 + rn(60) : (uint32_t)kMaxBundles;
  uint64_t abort_at = rn(8) == 0 && !force_perr ? 1 + rn(400) : 0;
  rtl_setup(L, p.w, id, ntpc, bad_launch, limit);

  // model launch; local memories start as the RTL's (the RTL does not clear them)
  int e0 = tpc_core_start(&c, &L, &dm, id, ntpc);
  for (int i = 16; i < kSlmWords; i++) { uint32_t x = ROOT(slm)[i]; memcpy(&c.slm[4 * i], &x, 4); }
  for (int i = 0; i < kVlmVecs; i++)
    for (int j = 0; j < 8; j++) { uint32_t x = ROOT(vlm)[i][j]; memcpy(&c.vlm[32 * i + 4 * j], &x, 4); }

  top->start_i = 1;
  tick();
  top->start_i = 0;
  const uint64_t t_start = cycles;
  int bad = 0;
  uint64_t bundles = 0, guard = 0;
  // posted: the model stopped with BUS at a st.t that the RTL retired (its write was posted
  // into the DECERR hole); the RTL may retire a few more bundles (registers only) before the
  // response arrives, then must stop with BUS at the store's PC
  int posted = 0, late = 0;
  bool done = top->done_o;
  while (!done && guard++ < 5000) {  // cycles without a retired bundle
    if (abort_at && cycles - t_start >= abort_at) top->cancel_i = 1;
    tick();
    if (trace_prog == idx)
      printf("    t%llu st %d pc %u hold %d commit %d tidle %d tmu %d ret %d slmwe %d vlmwe %d en3 %d\n",
             (unsigned long long)cycles, ROOT(state_q), ROOT(pc_q), ROOT(hold), ROOT(commit), ROOT(tmu_idle),
             ROOT(u_tmu__DOT__st_q), top->retire_o, ROOT(slm_we), ROOT(vlm_we), (ROOT(en) >> 3) & 1);
    if (top->retire_o && posted) {
      // registers-only bundles may retire until the store's error response arrives (it
      // comes 8-31 cycles after the write, or later behind older responses); after it only
      // the bundle already in a unit (float unit, a load) may still retire, none after that
      posted++;
      if (berr_at != ~0ull && cycles > berr_at && ++late > 1) {
        printf("  prog %d: RTL retired a second bundle %llu cycles after the error response of a posted"
               " store (%d bundles past the store)\n", idx, (unsigned long long)(cycles - berr_at), posted - 1);
        bad++;
        break;
      }
    } else if (top->retire_o) {
      guard = 0;
      count_bundle(&c, mem);
      uint64_t w3 = 0;
      if (c.pc < c.L->prog_len) memcpy(&w3, &mem[c.L->prog_addr - kMemBase + 32 * c.pc + 24], 8);
      int st = tpc_core_step(&c);
      bundles++;
      if (st == TPC_ERROR && c.err == TPC_ERR_BUS && (w3 & 0xFF) == TPC_OP_ST_ST_T &&
          ROOT(pst_pc_q)[0] == c.err_pc) {
        posted = 1;
        berr_at = ~0ull;
      } else if (st == TPC_ERROR) {
        printf("  prog %d: model error %s at pc %u but RTL retired the bundle\n", idx, tpc_err_name((int)c.err), c.err_pc);
        bad++;
        break;
      } else {
        bad += cmp_state(&c, "retire");
        if (bad) break;
      }
    }
    done = top->done_o;
  }
  int rerr = top->err_o;
  if (bad == 0) {
    if (e0) {
      if (rerr != e0 || !done) { printf("  prog %d: bad launch: model %s rtl err %d\n", idx, tpc_err_name(e0), rerr); bad++; }
    } else if (!done) {
      printf("  prog %d: RTL hung (no retire for 5000 cycles, pc %u, %llu bundles, limit %u)\n", idx, top->pc_o,
             (unsigned long long)bundles, limit);
      bad++;
    } else if (rerr == TPC_ERR_TIMEOUT && !posted) {
      // stopped by the bundle limit or the abort, before the bundle at the model's PC
      if (c.state != TPC_RUNNING || c.pc != top->err_pc_o || (!abort_at && bundles != limit) ||
          (abort_at && bundles > limit)) {
        printf("  prog %d: RTL TIMEOUT at pc %u after %llu bundles (limit %u%s); model %s at pc %u\n", idx,
               top->err_pc_o, (unsigned long long)bundles, limit, abort_at ? ", aborted" : "",
               c.state == TPC_RUNNING ? "running" : tpc_err_name((int)c.err), c.pc);
        bad++;
      }
    } else if (rerr == 0) {
      if (c.state != TPC_DONE) { printf("  prog %d: RTL done, model state %u\n", idx, c.state); bad++; }
    } else if (posted) {
      if ((int)c.err != rerr || c.err_pc != top->err_pc_o) {
        printf("  prog %d: RTL error %d at pc %u after a posted store, model %s at pc %u\n", idx, rerr,
               top->err_pc_o, tpc_err_name((int)c.err), c.err_pc);
        bad++;
      }
    } else {
      count_bundle(&c, mem);
      int st = tpc_core_step(&c);
      if (st != TPC_ERROR || (int)c.err != rerr || c.err_pc != top->err_pc_o) {
        printf("  prog %d: RTL error %d at pc %u, model %s at pc %u\n", idx, rerr, top->err_pc_o,
               st == TPC_ERROR ? tpc_err_name((int)c.err) : "no error", c.err_pc);
        bad++;
      }
    }
    if (done) err_seen[e0 ? e0 : rerr]++;
    // after a bad launch the RTL has not copied the arguments (state after an error is
    // unspecified); everything else must match
    bad += cmp_mem(&c, e0 ? 16 : 0);
  }
  if (bad == 0 && done) {
    int mb = 0;
    for (size_t i = 0; i < mem.size(); i++)
      if (mem[i] != rtl_mem[i] && mb++ < 4)
        printf("  MISMATCH device memory %08x rtl=%02x model=%02x\n", (uint32_t)(kMemBase + i), rtl_mem[i], mem[i]);
    bad += mb;
  }
  // a stopped TPC owes no W beat: every AW it issued has all its W beats (otherwise the
  // next launch's beats would be taken for this one's)
  if (done && (!awq.empty() || !wq.empty())) {
    printf("  prog %d: TPC stopped (%s) with %zu AW(s) and %zu W beat(s) not matched on the write channels\n", idx,
           tpc_err_name(e0 ? e0 : rerr), awq.size(), wq.size());
    bad++;
  }
  if (axi_bad) { bad++; axi_bad = 0; }
  top->cancel_i = 0;
  if (!done || !awq.empty() || !wq.empty()) { // stop the RTL (timeout, hang, AXI out of step): reset it and the AXI slave
    top->rst_ni = 0; tick(); top->rst_ni = 1;
    rq.clear(); awq.clear(); wq.clear(); bq.clear(); awlenq.clear();
    tick();
  }
  if (verbose || bad)
    printf("%s prog %d: %d bundles, len %d, end %s\n", bad ? "FAIL" : "ok", idx, (int)bundles, p.len,
           done ? tpc_err_name(e0 ? e0 : rerr) : "TIMEOUT");
  if (bad) {
    for (int b = 0; b < p.len; b++)
      printf("    %3d: %016llx %016llx %016llx %016llx\n", b, (unsigned long long)p.w[4 * b],
             (unsigned long long)p.w[4 * b + 1], (unsigned long long)p.w[4 * b + 2], (unsigned long long)p.w[4 * b + 3]);
  }
  return bad == 0;
}

// ------------------------------------------------------------------ kernel library on the RTL
// Kernels whose instructions the RTL implements run on one RTL core launch by launch
// (TPC t of n = 1, 2, 4, one after the other) and are checked against the golden model
// (bit-exact) and, byte for byte over the whole device memory, against the C ISA model.
static uint64_t kern_cycles_1tpc;

static int rtl_launch(const tpc_launch_t &L, const std::vector<uint64_t> &w, uint32_t id, uint32_t n,
                      uint32_t *epc) {
  rtl_setup(L, w, id, n, false);
  top->start_i = 1;
  tick();
  top->start_i = 0;
  uint64_t t0 = cycles;
  while (!top->done_o && cycles - t0 < 20000000ull) tick();
  if (!top->done_o) { printf("  RTL kernel launch hung (pc %u)\n", top->pc_o); return TPC_ERR_TIMEOUT; }
  *epc = top->err_pc_o;
  return top->err_o;
}

struct KTens { uint32_t addr; int W, H, pitch; };

static bool run_kernel(const char *name, tpc_launch_t &L, const std::vector<uint8_t> &init,
                       const std::vector<KTens> &outs, std::vector<std::vector<uint32_t>> &res) {
  char path[256], err[512];
  snprintf(path, sizeof(path), "kernels/tpc/%s.tasm", name);
  tpc_bundle_t *bund = nullptr;
  uint32_t nb = 0;
  if (tpcasm_assemble_file(path, nullptr, 0, &bund, &nb, err, sizeof(err))) {
    printf("  %s: %s\n", name, err);
    return false;
  }
  std::vector<uint64_t> w(4 * (size_t)nb);
  for (uint32_t b = 0; b < nb; b++) for (int k = 0; k < 4; k++) w[4 * b + k] = bund[b].w[k];
  free(bund);
  L.prog_addr = kProgAddr;
  L.prog_len = nb;
  bool ok = true;
  static const uint32_t splits[3] = {1, 2, 4};
  for (uint32_t n : splits) {
    rtl_mem = init;
    memcpy(&rtl_mem[kProgAddr - kMemBase], w.data(), 32 * (size_t)nb);
    std::vector<uint8_t> mm = rtl_mem;
    tpc_devmem_t dm = {mm.data(), kMemBase, kServed};
    uint64_t c0 = cycles;
    for (uint32_t t = 0; t < n; t++) {
      uint32_t epc = 0;
      int e = rtl_launch(L, w, t, n, &epc);
      if (e) { printf("  %s: RTL TPC %u of %u stopped with %s at pc %u\n", name, t, n, tpc_err_name(e), epc); return false; }
    }
    if (n == 1) kern_cycles_1tpc = cycles - c0;
    uint32_t et = 0, epc = 0;
    int me = tpc_run_cluster(&L, &dm, n, 50000000ull, nullptr, &et, &epc);
    if (me) { printf("  %s: model stopped with %s\n", name, tpc_err_name(me)); return false; }
    for (size_t i = 0; i < mm.size(); i++)
      if (mm[i] != rtl_mem[i]) {
        printf("  %s (%u TPCs): device memory %08x rtl=%02x model=%02x\n", name, n, (uint32_t)(kMemBase + i), rtl_mem[i], mm[i]);
        ok = false;
        break;
      }
    for (size_t k = 0; k < outs.size(); k++) {
      const KTens &o = outs[k];
      std::vector<uint32_t> v((size_t)o.W * o.H);
      for (int r = 0; r < o.H; r++)
        for (int c = 0; c < o.W; c++)
          memcpy(&v[(size_t)r * o.W + c], &rtl_mem[o.addr - kMemBase + 4 * ((size_t)r * o.pitch + c)], 4);
      if (n == 1) res[k] = v;
      else if (v != res[k]) { printf("  %s: output differs between 1 and %u TPCs\n", name, n); ok = false; }
    }
  }
  return ok;
}

static void kdesc(tpc_tensor_t *d, const KTens &t, int oned, uint32_t pad) {
  memset(d, 0, sizeof(*d));
  d->base = t.addr; d->dtype = TPC_DT_F32; d->ndims = oned ? 1 : 2; d->pad = pad;
  d->size[0] = (uint32_t)t.W; d->size[1] = (uint32_t)t.H;
  d->stride[0] = 1; d->stride[1] = t.pitch;
}

static uint32_t rnd_f32() {
  static const uint32_t sp[] = {0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F7FFFFF,
                                0xFF800000, 0x7F800000, 0x7FC00000, 0xFFC00001};
  if (rn(10) == 0) return sp[rn(9)];
  float f = (float)((int32_t)rnd() >> 8) / (float)(1u << rn(24));
  uint32_t b; memcpy(&b, &f, 4);
  return b;
}

static int kpass, kfail;
static void kcheck(bool ok, const char *what) {
  if (ok) kpass++; else kfail++;
  if (verbose || !ok) printf("%s %s\n", ok ? "ok  " : "FAIL", what);
}

static void run_kernels(int shapes) {
  // (rows of 256+ FP32 elements: streaming loads whose block fills and prefetches overlap)
  static const int ws[] = {1, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 77, 100, 256, 301};
  for (int it = 0; it < shapes; it++) {
    for (int kind = 0; kind < 6; kind++) {
      int W = rn(3) ? ws[rn(15)] : 1 + (int)rn(130), H = rn(4) == 0 ? 1 : 1 + (int)rn(9);
      if (kind <= 2 && it == 0) W = 256 + (int)rn(64);  // at least one long-row elementwise run each
      if (kind == 2 && rn(2)) H = 1 + (int)rn(20);
      tpc_launch_t L;
      memset(&L, 0, sizeof(L));
      for (int d = 0; d < 5; d++) L.idx_size[d] = 1;
      L.rng_seed = rnd();
      std::vector<uint8_t> init(kMemSize);
      for (auto &b : init) b = (uint8_t)rnd();
      KTens a = {kMemBase + 0x1000 + 4 * rn(8), W, H, W + (int)rn(5)};
      uint32_t oaddr = (a.addr + 4 * (uint32_t)(a.pitch * H) + 64 + 4 * rn(8)) & ~3u;
      std::vector<uint32_t> va((size_t)W * H);
      for (auto &x : va) x = rnd_f32();
      for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) memcpy(&init[a.addr - kMemBase + 4 * ((size_t)r * a.pitch + c)], &va[(size_t)r * W + c], 4);
      std::vector<std::vector<uint32_t>> res(1);
      std::vector<uint32_t> g;
      char what[160];
      bool ok;
      static const char *const kname[6] = {"relu", "add", "mul", "reduce_max", "reduce_sum", "transpose"};
      if (kind <= 2) {        // relu: t0 x, t2 out; add/mul: t0 a, t1 b, t2 out; index space ceil(W/8) x H
        KTens b = {(oaddr + 4 * (uint32_t)((W + 4) * H) + 64) & ~3u, W, H, W};
        KTens o = {oaddr, W, H, W + (int)rn(5)};
        std::vector<uint32_t> vb((size_t)W * H);
        for (auto &x : vb) x = rnd_f32();
        for (int r = 0; r < H; r++)
          for (int c = 0; c < W; c++) memcpy(&init[b.addr - kMemBase + 4 * ((size_t)r * b.pitch + c)], &vb[(size_t)r * W + c], 4);
        L.ntensors = 3;
        kdesc(&L.tensor[0], a, 0, 0);
        kdesc(&L.tensor[1], b, 0, 0);
        kdesc(&L.tensor[2], o, 0, 0);
        L.idx_size[0] = (uint32_t)((W + 7) / 8); L.idx_size[1] = (uint32_t)H;
        ok = run_kernel(kname[kind], L, init, {o}, res);
        g.resize(va.size());
        for (size_t i = 0; i < va.size(); i++)
          g[i] = kind == 0 ? tg_relu(va[i]) : kind == 1 ? tg_add(va[i], vb[i]) : tg_mul(va[i], vb[i]);
      } else if (kind <= 4) { // reduce_max/sum: t0 x (pad -Inf / 0), t1 out [H], index space 1 x H
        KTens o = {oaddr, H, 1, H};
        L.ntensors = 2;
        kdesc(&L.tensor[0], a, 0, kind == 3 ? 0xFF800000u : 0u);
        kdesc(&L.tensor[1], o, 1, 0);
        L.idx_size[1] = (uint32_t)H;
        ok = run_kernel(kname[kind], L, init, {o}, res);
        g.resize((size_t)H);
        (kind == 3 ? tg_reduce_max : tg_reduce_sum)(va.data(), H, W, g.data());
      } else {                // transpose: t0 in [H][W], t1 out [W][H]
        KTens o = {oaddr, H, W, H + (int)rn(5)};
        L.ntensors = 2;
        kdesc(&L.tensor[0], a, 0, 0);
        kdesc(&L.tensor[1], o, 0, 0);
        L.idx_size[0] = (uint32_t)((W + 7) / 8); L.idx_size[1] = (uint32_t)((H + 7) / 8);
        ok = run_kernel("transpose", L, init, {o}, res);
        g.resize(va.size());
        tg_transpose(va.data(), H, W, g.data());
      }
      snprintf(what, sizeof(what), "%s [%d x %d] on RTL: golden bit-exact, model memory identical, 1/2/4 launches identical (%llu cycles on 1 TPC)",
               kname[kind], H, W, (unsigned long long)kern_cycles_1tpc);
      if (ok && res[0] != g) {
        for (size_t i = 0; i < g.size(); i++)
          if (res[0][i] != g[i]) { printf("  element %zu got %08x want %08x\n", i, res[0][i], g[i]); break; }
        ok = false;
      }
      kcheck(ok, what);
    }
  }
}

// The rest of the kernel library (float arithmetic, conversions, special functions, RNG):
// random shapes, launched as 1, 2 and 4 slices; the RTL's whole device memory must equal
// the C ISA model's after the same launches (the model is checked against the golden
// models and error bounds by the tpc_kernels suite).
struct KSpec {
  const char *name;
  const char *roles;  // per tensor: x = input [H][W], g = input [W] (1-D), o = output [H][W]
  int dt[6];
  int lanes;          // index-space dim 0 = ceil(W / lanes) chunks, or 0: dim 0 = 1 (row kernels)
};
static const KSpec kspecs[] = {
  {"softmax", "xo", {0, 0}, 0},
  {"softmax_vlm", "xo", {0, 0}, 0},
  {"layernorm", "xggo", {0, 0, 0, 0}, 0},
  {"layernorm_vlm", "xggo", {0, 0, 0, 0}, 0},
  {"rmsnorm", "xgo", {0, 0, 0}, 0},
  {"add_layernorm", "xxggoo", {0, 0, 0, 0, 0, 0}, 0},
  {"gelu", "xxo", {0, 0, 0}, 8},
  {"dropout", "xo", {0, 0}, 8},
  {"bias_add", "xgo", {0, 0, 0}, 8},
  {"residual_add", "xxo", {1, 1, 1}, 16},
  {"cast_f32_bf16", "xo", {0, 1}, 16},
  {"cast_bf16_f32", "xo", {1, 0}, 16},
  {"cast_f32_e4m3", "xo", {0, 3}, 32},
  {"cast_f32_e5m2", "xo", {0, 4}, 32},
  {"cast_e4m3_f32", "xo", {3, 0}, 32},
  {"cast_e5m2_f32", "xo", {4, 0}, 32},
  {"cast_bf16_e4m3", "xo", {1, 3}, 32},
  {"cast_e4m3_bf16", "xo", {3, 1}, 32},
};

static void run_more_kernels(int shapes) {
  static const int ws[] = {1, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 77, 100};
  for (int it = 0; it < shapes; it++) {
    for (const KSpec &k : kspecs) {
      int nt = (int)strlen(k.roles);
      int W = rn(3) ? ws[rn(13)] : 1 + (int)rn(130), H = rn(4) == 0 ? 1 : 1 + (int)rn(6);
      bool rowk = k.lanes == 0, cast = !strncmp(k.name, "cast", 4);
      tpc_launch_t L;
      memset(&L, 0, sizeof(L));
      for (int d = 0; d < 5; d++) L.idx_size[d] = 1;
      L.rng_seed = rnd();
      std::vector<uint8_t> init(kMemSize);
      for (auto &b : init) b = (uint8_t)rnd();
      uint32_t bump = kMemBase + 0x1000;
      float off = (float)((int)rn(9) - 4);
      for (int t = 0; t < nt; t++) {
        int dt = k.dt[t], esz = tpc_dtype_info[dt].bytes;
        bool oned = k.roles[t] == 'g';
        int w = W, h = oned ? 1 : H, pitch = oned ? W : W + (int)rn(5);
        bump = (bump + 63u) & ~63u;
        uint32_t base = bump + 32u * rn(2) + (uint32_t)esz * rn(4);
        bump = base + (uint32_t)(pitch * h * esz) + 64;
        tpc_tensor_t *d = &L.tensor[t];
        d->base = base; d->dtype = (uint32_t)dt; d->ndims = oned ? 1 : 2;
        d->size[0] = (uint32_t)w; d->size[1] = (uint32_t)h;
        d->stride[0] = 1; d->stride[1] = pitch;
        d->pad = (!strncmp(k.name, "softmax", 7) && t == 0) ? 0xFF800000u : 0u;
        if (k.roles[t] == 'o') continue;
        for (int r = 0; r < h; r++)
          for (int c = 0; c < w; c++) {
            uint32_t x;
            if (cast) {
              x = rn(2) ? rnd_word() : rnd();
            } else {
              float f = off + 4.0f * ((float)(rnd() >> 8) / 8388608.0f - 1.0f);
              if (k.roles[t] == 'g') f = 0.5f + (float)(rnd() >> 8) / 16777216.0f;
              memcpy(&x, &f, 4);
              if (rn(50) == 0) x = rnd_word();   // occasional special value
              if (dt == 1) x >>= 16;
            }
            memcpy(&init[base - kMemBase + (uint32_t)((r * pitch + c) * esz)], &x, (size_t)esz);
          }
      }
      L.ntensors = (uint32_t)nt;
      float eps = rn(2) ? 1e-5f : 1e-2f;
      memcpy(&L.sarg[0], &eps, 4);
      if (!strcmp(k.name, "dropout")) {
        float p = (float)rn(90) / 100.0f, sc = 1.0f / (1.0f - p);
        L.sarg[0] = rnd();
        L.sarg[1] = (uint32_t)((double)p * 4294967296.0);
        memcpy(&L.sarg[2], &sc, 4);
      }
      L.idx_size[0] = rowk ? 1u : (uint32_t)((W + k.lanes - 1) / k.lanes);
      L.idx_size[1] = (uint32_t)H;
      std::vector<std::vector<uint32_t>> res;
      bool ok = run_kernel(k.name, L, init, {}, res);
      char what[200];
      snprintf(what, sizeof(what), "%s [%d x %d] on RTL: device memory identical to the C model after 1/2/4-TPC launches (%llu cycles on 1 TPC)",
               k.name, H, W, (unsigned long long)kern_cycles_1tpc);
      kcheck(ok, what);
    }
  }
}

int main(int argc, char **argv) {
  uint64_t seed = tf_env_seed(1);
  int nprogs = 300, nkern = 4, nmore = 2, nfoc = -1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
    else if (!strcmp(argv[i], "--progs") && i + 1 < argc) nprogs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--kernels") && i + 1 < argc) nkern = nmore = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--focus") && i + 1 < argc) nfoc = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-v")) verbose = 1;
  }
  printf("tpc_rtl core: seed %llu (reproduce with --seed %llu), %d random programs\n",
         (unsigned long long)seed, (unsigned long long)seed, nprogs);
  rs = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int s = 0; s < 4; s++)
    for (int i = 1; i < TPC_NINSN; i++)
      if ((tpc_insn_info[i].slots >> s) & 1) slot_insns[s][nslot_insns[s]++] = i;

  Verilated::commandArgs(argc, argv);
  top = new Vtessera_tpc_core;
  top->rst_ni = 0; top->clk_i = 0; top->start_i = 0; top->imem_we_i = 0;
  tick(); tick();
  top->rst_ni = 1; tick();

  // The summary counts cases (named scenarios); a case's line gives its runs.
  int passed = 0, failed = 0, supported = 0, covered = 0;
  int ncase_pass = 0, ncase_fail = 0;
  auto tcase = [&](const char *name, bool ok, const std::string &detail) {
    (ok ? ncase_pass : ncase_fail)++;
    printf("%s %s (%s)\n", ok ? "PASS" : "FAIL", name, detail.c_str());
  };
  std::string missing;
  auto coverage = [&]() {   // every instruction/type pair the RTL supports, executed or not
    supported = 0; covered = 0; missing.clear();
    for (int i = 1; i < TPC_NINSN; i++) {
      const tpc_insn_info_t *in = &tpc_insn_info[i];
      for (int dt = 0; dt < (in->types ? TPC_NDT : 1); dt++) {
        if (in->types && !((in->types >> dt) & 1)) continue;
        if (!rtl_supports(in, dt)) continue;
        std::string n = in->name;
        if (in->types) n += std::string(".") + tpc_dtype_info[dt].name;
        std::vector<std::string> names;
        if (in->mods & TPC_MOD_SRCT) {
          for (int st = 0; st < TPC_NDT; st++) names.push_back(n + "." + tpc_dtype_info[st].name);
          if (dt == TPC_DT_BF16) names.push_back(n + ".f32.sr");
        } else {
          names.push_back(n);
        }
        for (const std::string &x : names) {
          supported++;
          if (cover.count(x)) covered++; else missing += " " + x;
        }
      }
    }
  };
  // nprogs programs, then more (up to 4x) until every supported pair has executed
  for (int i = 0; i < 4 * nprogs; i++) {
    if (i >= nprogs) { coverage(); if (covered == supported) break; }
    Prog p = gen_prog();
    if (run_prog(i, p)) passed++; else failed++;
  }
  coverage();
  printf("random programs: %d passed, %d failed (%llu cycles)\n", passed, failed, (unsigned long long)cycles);
  tcase("random programs", !failed, std::to_string(passed + failed) + " programs, " + std::to_string(failed) + " failed");
  uint64_t c0 = cycles;
  int fpass = 0, ffail = 0;
  uint64_t r0 = axi_reads, rb0 = axi_rbeats, w0 = axi_writes, wb0 = axi_wbeats;
  focus = 1;
  slow_rd = 1;
  // nprogs / 6 focus programs, then more (up to 8x) until every TMU path has run: the
  // rarer paths (a posted store answered with an error, a prefetch fill) depend on the seed
  auto tmu_all = [&]() {
    for (int k = 0; k < kTmuCnt; k++)
      if (k != 12 && !tmu_cnt[k]) return false;  // (two fills in flight: the kernels below)
    return true;
  };
  int nfocus = 0;
  if (nfoc < 0) nfoc = nprogs / 6;
  for (int i = 0; i < 8 * nfoc; i++) {
    if (i >= nfoc && tmu_all()) break;
    nfocus++;
    slow_b = (i % 4 == 3);
    Prog p = gen_prog();
    if (run_prog(i, p)) fpass++; else ffail++;
  }
  // directed: a posted store's error under all the younger ones (random programs reach it
  // on most seeds, not on all)
  force_perr = 1;
  for (int i = 0; i < 4; i++) {
    nfocus++;
    uint64_t e0 = tmu_cnt[14];
    Prog p = gen_prog();
    bool ok = run_prog(nfocus - 1, p);
    if (ok && tmu_cnt[14] == e0) {
      printf("  directed posted-store program %d: the first store's error did not meet two younger stores\n", i);
      ok = false;
    }
    if (ok) fpass++; else ffail++;
  }
  force_perr = 0;
  focus = 0;
  slow_b = 0;
  printf("TMU-focus programs (%d; fast path, unaligned/crossing/out-of-bounds vectors, lane predicates, block buffer): "
         "%d passed, %d failed (%llu cycles); AXI reads %llu (%llu beats), writes %llu (%llu beats)\n", nfocus, fpass, ffail,
         (unsigned long long)(cycles - c0),
         (unsigned long long)(axi_reads - r0), (unsigned long long)(axi_rbeats - rb0),
         (unsigned long long)(axi_writes - w0), (unsigned long long)(axi_wbeats - wb0));
  passed += fpass;
  failed += ffail;
  tcase("TMU-focus programs", !ffail, std::to_string(nfocus) + " programs, " + std::to_string(ffail) + " failed");
  run_kernels(nkern);
  run_more_kernels(nmore);
  slow_rd = 0;
  passed += kpass;
  failed += kfail;
  // every TMU path and core commit path must have run (programs and kernels)
  printf("TMU paths (programs and kernels):");
  for (int k = 0; k < kTmuCnt; k++)
    printf(" %s %llu%s", tmu_cnt_name[k], (unsigned long long)tmu_cnt[k], k < kTmuCnt - 1 ? "," : "\n");
  int holes = 0;
  for (int k = 0; k < kTmuCnt && nprogs / 6 > 0; k++)  // each path must have run
    if (!tmu_cnt[k]) { printf("  TMU path '%s' never exercised\n", tmu_cnt_name[k]); failed++; holes++; }
  tcase("every TMU path exercised", !holes, std::to_string(kTmuCnt) + " paths");
  holes = 0;
  printf("core commit paths (programs and kernels):");
  for (int k = 0; k < kCoreCnt; k++)
    printf(" %s %llu%s", core_cnt_name[k], (unsigned long long)core_cnt[k], k < kCoreCnt - 1 ? "," : "\n");
  for (int k = 0; k < kCoreCnt && nprogs / 6 > 0; k++)
    if (!core_cnt[k]) { printf("  core commit path '%s' never exercised\n", core_cnt_name[k]); failed++; holes++; }
  tcase("every core commit path exercised", !holes, std::to_string(kCoreCnt) + " paths");
  printf("kernels on RTL: %d passed, %d failed (relu add mul reduce_max reduce_sum transpose: golden + model;"
         " softmax(_vlm) layernorm(_vlm) rmsnorm add_layernorm gelu dropout bias_add residual_add 8 casts: model)\n",
         kpass, kfail);
  tcase("kernels on RTL", !kfail, std::to_string(kpass + kfail) + " kernel runs, " + std::to_string(kfail) + " failed");
  printf("coverage: %d of %d supported instruction/type pairs executed%s%s\n", covered, supported,
         missing.empty() ? "" : "; not executed:", missing.c_str());
  printf("end states:");
  for (auto &e : err_seen) printf(" %s=%llu", e.first ? tpc_err_name(e.first) : "DONE", (unsigned long long)e.second);
  printf("\ncycles simulated: %llu, AXI reads %llu, writes %llu\n", (unsigned long long)cycles,
         (unsigned long long)axi_reads, (unsigned long long)axi_writes);
  printf("TMU read footprint: %llu beats read outside the rows loaded\n", (unsigned long long)rd_stray);
  if (rd_stray) failed++; else passed++;
  tcase("TMU read footprint", !rd_stray, std::to_string(rd_stray) + " stray beats");
  printf("TMU stream hints: %llu block fills hinted, %llu announcing a block outside the rows loaded\n",
         (unsigned long long)nx_hints, (unsigned long long)nx_stray);
  if (nx_stray || !nx_hints) failed++; else passed++;
  tcase("TMU stream hints", !nx_stray && nx_hints, std::to_string(nx_hints) + " hinted, " + std::to_string(nx_stray) + " stray");
  // a coverage hole is a failure: every supported pair must run at least once
  if (covered < supported) failed++; else passed++;
  tcase("instruction/type coverage", covered == supported,
        std::to_string(covered) + " of " + std::to_string(supported) + " pairs");
  printf("%d passed, %d failed (%d runs and checks)\n", ncase_pass, ncase_fail, passed + failed);
  delete top;
  return failed ? 1 : 0;
}
