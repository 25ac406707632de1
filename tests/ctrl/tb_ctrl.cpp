// Control-path integration test (block level): queue manager -> APB mux -> DMA
// engine. Command buffers built with the golden model's builder run LIN_DMA
// transfers with engine barriers; the testbench polls the DMA through the mux's
// other port at the same time. Checks every destination byte against the DMA
// golden model, that no transfer was refused (the EB barrier waited for the
// engine), that the completion message comes after the last transfer ended,
// and the queue/DMA status. Usage: Vtb_ctrl_top [--seed N] [--runs N];
// last line "N passed, M failed".
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <unordered_map>
#include <vector>

#include "Vtb_ctrl_top.h"
#include "verilated.h"

#include "apb_drv.h"

extern "C" {
#include "cp_model.h"
#include "dma_model.h"
#include "regs/dma_regs.h"
#include "regs/qman_regs.h"
#include "regs/syncmgr_regs.h"
#include "tessera_cfg.h"
#include "../framework/tf_seed.h"
}

static Vtb_ctrl_top *d;
static uint64_t cyc;
static std::unordered_map<uint32_t, uint8_t> mem;
static uint64_t rs;
static uint32_t rnd() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (uint32_t)(rs >> 11); }
static uint8_t rd8(uint32_t a) {
  auto it = mem.find(a);
  return it != mem.end() ? it->second : (uint8_t)((a * 2654435761u) >> 24);
}
struct Beat { uint32_t addr; bool last; uint64_t due; };
static std::deque<Beat> qr, dr;
static std::deque<std::pair<uint32_t, unsigned>> daw;
static unsigned dw_idx;
static std::deque<uint64_t> db;
static std::vector<std::pair<uint32_t, uint32_t>> qmsgs, dmsgs;
static uint64_t qmsg_cycle, dma_idle_rise;
static bool prev_idle = true;
static std::deque<std::pair<uint32_t, uint32_t>> pending;   // messages to route (system bus model)
static bool routing;
static uint64_t eng_start_cycle;
static bool prev_eng;
static const unsigned LAT = 40;

static void fill_rdata(uint32_t a, uint32_t *w) {
  for (int i = 0; i < 8; i++) {
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) v |= (uint32_t)rd8(a + 4 * i + k) << (8 * k);
    w[i] = v;
  }
}

static void step() {
  d->q_arready_i = rnd() % 4 != 0;
  d->d_arready_i = rnd() % 4 != 0;
  d->d_awready_i = rnd() % 4 != 0;
  d->d_wready_i = !daw.empty() && rnd() % 4 != 0;
  d->qm_ready_i = rnd() % 2;
  d->dm_ready_i = rnd() % 2;
  d->sm_ready_i = routing ? 1 : 0;
  bool qro = !qr.empty() && qr.front().due <= cyc;
  d->q_rvalid_i = qro;
  if (qro) { fill_rdata(qr.front().addr, d->q_rdata_i.data()); d->q_rresp_i = 0; d->q_rlast_i = qr.front().last; }
  bool dro = !dr.empty() && dr.front().due <= cyc;
  d->d_rvalid_i = dro;
  if (dro) { fill_rdata(dr.front().addr, d->d_rdata_i.data()); d->d_rresp_i = 0; d->d_rlast_i = dr.front().last; }
  bool dbo = !db.empty() && db.front() <= cyc;
  d->d_bvalid_i = dbo;
  d->d_bresp_i = 0;
  d->clk_i = 0;
  d->eval();
  if (d->qm_valid_o && d->qm_ready_i) { qmsgs.push_back({d->qm_addr_o, d->qm_data_o}); qmsg_cycle = cyc; }
  if (d->dm_valid_o && d->dm_ready_i) dmsgs.push_back({d->dm_addr_o, d->dm_data_o});
  if (routing) {
    if (d->qm_valid_o && d->qm_ready_i) pending.push_back({d->qm_addr_o, d->qm_data_o});
    if (d->dm_valid_o && d->dm_ready_i) pending.push_back({d->dm_addr_o, d->dm_data_o});
    if (d->sm_valid_o && d->sm_ready_i) pending.push_back({d->sm_addr_o, d->sm_data_o});
  }
  if (d->eng_psel_o && !prev_eng && !eng_start_cycle) eng_start_cycle = cyc;
  prev_eng = d->eng_psel_o;
  if (d->dma_idle_o && !prev_idle) dma_idle_rise = cyc;
  prev_idle = d->dma_idle_o;
  if (d->q_arvalid_o && d->q_arready_i)
    for (unsigned i = 0; i <= d->q_arlen_o; i++) qr.push_back({d->q_araddr_o + 32 * i, i == d->q_arlen_o, cyc + LAT + i});
  if (d->d_arvalid_o && d->d_arready_i)
    for (unsigned i = 0; i <= d->d_arlen_o; i++) dr.push_back({d->d_araddr_o + 32 * i, i == d->d_arlen_o, cyc + LAT + i});
  if (d->d_wvalid_o && d->d_wready_i) {
    uint32_t a = daw.front().first + 32 * dw_idx;
    for (int i = 0; i < 8; i++)
      for (int k = 0; k < 4; k++)
        if ((d->d_wstrb_o >> (4 * i + k)) & 1) mem[a + 4 * i + k] = (uint8_t)(d->d_wdata_o[i] >> (8 * k));
    if (++dw_idx == daw.front().second) { daw.pop_front(); dw_idx = 0; db.push_back(cyc + 2); }
  }
  if (d->d_awvalid_o && d->d_awready_i) daw.push_back({d->d_awaddr_o, d->d_awlen_o + 1u});
  if (qro) qr.pop_front();
  if (dro) dr.pop_front();
  if (dbo) db.pop_front();
  d->clk_i = 1;
  d->eval();
  cyc++;
}

// APB access on port s (Sync Manager), q (queue manager) or d (DMA through the mux)
static void settle() { d->clk_i = 0; d->eval(); }
static int apb_s(bool wr, uint32_t off, uint32_t wdata, uint32_t *rdata) {
  static tb::ApbDriver<TB_APB_ADDR_T(d, s_)> drv(TB_APB_PINS_NOPROT(d, s_), step, settle, 100000, "ctrl s");
  return drv.xfer(wr, off, wdata, rdata);
}

static int apb(bool dport, bool wr, uint32_t off, uint32_t wdata, uint32_t *rdata) {
  static tb::ApbDriver<TB_APB_ADDR_T(d, q_)> qdrv(TB_APB_PINS_NOPROT(d, q_), step, settle, 100000, "ctrl q");
  static tb::ApbDriver<TB_APB_ADDR_T(d, d_)> ddrv(TB_APB_PINS_NOPROT(d, d_), step, settle, 100000, "ctrl d");
  return dport ? ddrv.xfer(wr, off, wdata, rdata) : qdrv.xfer(wr, off, wdata, rdata);
}

// deliver routed messages: Sync Manager and queue-manager registers, else memory
static void route() {
  while (!pending.empty()) {
    auto m = pending.front();
    pending.pop_front();
    if (m.first - TESSERA_SYNCMGR_BASE < TESSERA_SYNCMGR_SIZE) apb_s(true, m.first - TESSERA_SYNCMGR_BASE, m.second, nullptr);
    else if (m.first - TESSERA_QMAN_ADDR(0) < TESSERA_QMAN_STRIDE) apb(false, true, m.first - TESSERA_QMAN_ADDR(0), m.second, nullptr);
    else for (int k = 0; k < 4; k++) mem[m.first + k] = (uint8_t)(m.second >> (8 * k));
  }
}

static std::vector<std::pair<uint32_t, uint8_t>> expect;
static void exp_wr(uint32_t a, uint8_t v) { expect.push_back({a, v}); }

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = tf_env_seed(1);
  unsigned runs = 20;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
    else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = strtoul(argv[++i], nullptr, 0);
  }
  printf("ctrl integration test (qman -> apb_mux -> dma): seed %llu (reproduce with --seed %llu)\n",
         (unsigned long long)seed, (unsigned long long)seed);
  rs = seed * 0x9E3779B97F4A7C15ull + 1;
  if (!rs) rs = 1;
  d = new Vtb_ctrl_top;
  d->rst_ni = 0; d->clk_i = 0; d->eval();
  for (int i = 0; i < 4; i++) step();
  d->rst_ni = 1;
  step();
  // pass/fail count runs; the summary counts the two cases (random command buffers,
  // producer/consumer), each with its runs in its line
  unsigned pass = 0, fail = 0, cases_pass = 0, cases_fail = 0;
  auto end_case = [&](const char *name, unsigned p, unsigned f) {
    (f ? cases_fail : cases_pass)++;
    printf("%s %s (%u runs, %u failed)\n", f ? "FAIL" : "PASS", name, p + f, f);
  };
  const uint32_t Q = 0;
  apb(false, true, offsetof(qman_t, CFG), QMAN__CFG__DMA_bm | QMAN__CFG__COMP_EN_bm, nullptr);
  apb(false, true, offsetof(qman_t, LDMA_OFF), offsetof(dma_t, SRC), nullptr);
  apb(false, true, offsetof(qman_t, COMP_ADDR), 0x30300400u, nullptr);
  for (unsigned r = 0; r < runs; r++) {
    char why[256] = "";
    expect.clear();
    qmsgs.clear();
    dmsgs.clear();
    uint32_t cb = TESSERA_HBM_BASE + 0x100000u + 8 * (rnd() % 1024);
    uint32_t words[64];
    cp_buf_t b;
    cp_buf_init(&b, words, 64);
    unsigned n = 1 + rnd() % 3;
    for (unsigned k = 0; k < n; k++) {
      dma_desc_t dd;
      memset(&dd, 0, sizeof dd);
      dd.mode = DMA_MODE_LINEAR;
      dd.size = 32 * (1 + rnd() % 64);
      dd.src = TESSERA_HBM_BASE + 0x200000u + 0x10000u * k + 32 * (rnd() % 256);
      dd.dst = TESSERA_HBM_BASE + 0x800000u + 0x10000u * k + 32 * (rnd() % 256);
      dma_model_run(&dd, rd8, exp_wr);
      cp_lin_dma(&b, k ? CP_HDR_EB : 0, dd.src, dd.dst, dd.size);   // EB: wait for the previous transfer
    }
    cp_stop(&b, CP_HDR_EB);
    for (uint32_t i = 0; i < b.n; i++)
      for (int k = 0; k < 4; k++) mem[cb + 4 * i + k] = (uint8_t)(words[i] >> (8 * k));
    apb(false, true, offsetof(qman_t, CB_BASE), cb, nullptr);
    apb(false, true, offsetof(qman_t, CB_SIZE), b.n * 4, nullptr);
    apb(false, true, offsetof(qman_t, COMP_DATA), r, nullptr);
    apb(false, true, offsetof(qman_t, CTRL), QMAN__CTRL__START_bm, nullptr);
    uint32_t qst = 0, dst = 0;
    uint64_t t0 = cyc;
    for (;;) {
      apb(true, false, offsetof(dma_t, STATUS), 0, &dst);   // system-side traffic through the mux
      apb(false, false, offsetof(qman_t, STATUS), 0, &qst);
      if (!(qst & QMAN__STATUS__BUSY_bm)) break;
      if (cyc - t0 > 200000) { snprintf(why, sizeof why, "hang (QMAN STATUS 0x%x)", qst); break; }
    }
    apb(true, false, offsetof(dma_t, STATUS), 0, &dst);
    if (!why[0] && ((qst & QMAN__STATUS__ERR_bm) || !(qst & QMAN__STATUS__DONE_bm)))
      snprintf(why, sizeof why, "queue STATUS 0x%x", qst);
    if (!why[0] && (dst & (DMA__STATUS__BUSY_REJECT_bm | DMA__STATUS__ERR_bm | DMA__STATUS__BUSY_bm)))
      snprintf(why, sizeof why, "DMA STATUS 0x%x (a transfer was refused or failed)", dst);
    if (!why[0] && (qmsgs.size() != 1 || qmsgs[0].first != 0x30300400u || qmsgs[0].second != r))
      snprintf(why, sizeof why, "%zu completion messages", qmsgs.size());
    if (!why[0] && qmsg_cycle < dma_idle_rise)
      snprintf(why, sizeof why, "completion (cycle %llu) before the DMA finished (%llu)",
               (unsigned long long)qmsg_cycle, (unsigned long long)dma_idle_rise);
    for (auto &e : expect)
      if (!why[0] && rd8(e.first) != e.second)
        snprintf(why, sizeof why, "byte at 0x%08x = 0x%02x, model 0x%02x", e.first, rd8(e.first), e.second);
    if (why[0]) { fail++; printf("FAIL run %u: %s (seed %llu)\n", r, why, (unsigned long long)seed); }
    else pass++;
  }
  (void)Q;
  printf("  %u command buffers of 1-3 LIN_DMA + STOP, %llu cycles\n", runs, (unsigned long long)cyc);
  end_case("random command buffers", pass, fail);
  const unsigned pass0 = pass, fail0 = fail;

  // ---- producer/consumer without firmware: the DMA queue waits on FENCE 0; a
  // monitor on a sync object releases it; the DMA's queue signals another object
  // when done. The testbench plays the producer (object writes) and the bus.
  routing = true;
  apb(false, true, offsetof(qman_t, SOB_SET_BASE), TESSERA_SYNCMGR_BASE + offsetof(syncmgr_t, SOB_SET), nullptr);
  apb(false, true, offsetof(qman_t, SOB_ADD_BASE), TESSERA_SYNCMGR_BASE + offsetof(syncmgr_t, SOB_ADD), nullptr);
  apb(false, true, offsetof(qman_t, CFG), QMAN__CFG__DMA_bm, nullptr);
  unsigned lat_best = ~0u, lat_worst = 0;
  for (unsigned r = 0; r < 10; r++) {
    char why[256] = "";
    expect.clear();
    uint32_t g = rnd() % 16, j = rnd() % 8, done_sob = 200 + r % 8, m = r % 64;
    apb_s(true, offsetof(syncmgr_t, SOB_SET) + 4 * (8 * g + j), 0, nullptr);
    apb_s(true, offsetof(syncmgr_t, SOB_SET) + 4 * done_sob, 0, nullptr);
    // monitor m: object 8g+j >= 1 -> add 1 to the queue's FENCE[0]
    apb_s(true, offsetof(syncmgr_t, MON) + 64 * m + 0, TESSERA_QMAN_ADDR(0) + offsetof(qman_t, FENCE), nullptr);
    apb_s(true, offsetof(syncmgr_t, MON) + 64 * m + 4, 1, nullptr);
    apb_s(true, offsetof(syncmgr_t, MON) + 64 * m + 32, cp_arm_word(g, 1u << j, 1, 0, 1), nullptr);
    dma_desc_t dd;
    memset(&dd, 0, sizeof dd);
    dd.size = 32 * (1 + rnd() % 32);
    dd.src = TESSERA_HBM_BASE + 0x300000u + 32 * (rnd() % 256);
    dd.dst = TESSERA_HBM_BASE + 0x900000u + 32 * (rnd() % 256);
    dma_model_run(&dd, rd8, exp_wr);
    uint32_t words[32];
    cp_buf_t b;
    cp_buf_init(&b, words, 32);
    cp_fence(&b, 0, 0, 1);
    cp_lin_dma(&b, 0, dd.src, dd.dst, dd.size);
    cp_msg_short(&b, CP_HDR_EB, done_sob, 1, 1);   // "slice done" after the copy finished
    cp_stop(&b, 0);
    uint32_t cb = TESSERA_HBM_BASE + 0x180000u;
    for (uint32_t i = 0; i < b.n; i++)
      for (int k = 0; k < 4; k++) mem[cb + 4 * i + k] = (uint8_t)(words[i] >> (8 * k));
    apb(false, true, offsetof(qman_t, CB_BASE), cb, nullptr);
    apb(false, true, offsetof(qman_t, CB_SIZE), b.n * 4, nullptr);
    apb(false, true, offsetof(qman_t, CTRL), QMAN__CTRL__START_bm, nullptr);
    for (int i = 0; i < 300; i++) step();      // the queue is now blocked on the fence
    eng_start_cycle = 0;
    apb_s(true, offsetof(syncmgr_t, SOB_ADD) + 4 * (8 * g + j), 1, nullptr);   // producer signals
    uint64_t t_sob = cyc - 2;                  // access phase of that write
    uint32_t qst = 0, v = 0;
    uint64_t t0 = cyc;
    for (;;) {
      route();
      for (int i = 0; i < 4; i++) step();
      route();
      apb(false, false, offsetof(qman_t, STATUS), 0, &qst);
      if (!(qst & QMAN__STATUS__BUSY_bm) && pending.empty()) break;
      if (cyc - t0 > 100000) { snprintf(why, sizeof why, "hang (QMAN STATUS 0x%x)", qst); break; }
    }
    for (int i = 0; i < 20; i++) { step(); route(); }
    apb_s(false, offsetof(syncmgr_t, SOB_SET) + 4 * done_sob, 0, &v);
    if (!why[0] && ((qst & QMAN__STATUS__ERR_bm) || !(qst & QMAN__STATUS__DONE_bm))) snprintf(why, sizeof why, "queue STATUS 0x%x", qst);
    if (!why[0] && v != 1) snprintf(why, sizeof why, "done object = %u, expected 1", v);
    for (auto &e : expect)
      if (!why[0] && rd8(e.first) != e.second) snprintf(why, sizeof why, "byte at 0x%08x differs", e.first);
    unsigned lat = eng_start_cycle ? (unsigned)(eng_start_cycle - t_sob) : ~0u;
    if (!why[0] && !eng_start_cycle) snprintf(why, sizeof why, "the engine was never started");
    if (lat < lat_best) lat_best = lat;
    if (eng_start_cycle && lat > lat_worst) lat_worst = lat;
    if (why[0]) { fail++; printf("FAIL producer/consumer %u: %s (seed %llu)\n", r, why, (unsigned long long)seed); }
    else pass++;
  }
  printf("  producer/consumer: object write (access phase) -> engine register write starts: %u..%u cycles\n"
         "  (includes the testbench's bus model: payload accepted, then an APB write to FENCE[0])\n",
         lat_best, lat_worst);
  end_case("producer/consumer", pass - pass0, fail - fail0);
  printf("%u passed, %u failed\n", cases_pass, cases_fail);
  delete d;
  return fail ? 1 : 0;
}
