// Tessera chip simulator: the Verilated tessera_top wrapped behind the C API of
// sim/include/tessera_sim.h. Per cycle: drive inputs with clk low, eval, sample
// outputs (HBM AXI, UART, retirement trace, host port), tick the HBM models,
// raise clk, eval. See docs/sim.md.
#include "tessera_sim.h"
#include "tessera_flash.h"
#include "tessera_sdram.h"

#include <cstdarg>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "Vtessera_top.h"
#include "Vtessera_top__Dpi.h"
#include "Vtessera_top___024root.h"
#include "axi_mem_model.h"
#include "tsim_axistats.h"
#include "tsim_timeline.h"
#include "tessera_cfg.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#if VM_COVERAGE
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

#include "verilated_cov.h"
#endif

extern "C" {
#include "regs/dma_regs.h"
#include "regs/l2_regs.h"
#include "regs/mme_regs.h"
#include "regs/qman_regs.h"
#include "regs/tpc_regs.h"
#include "regs/sysctrl_regs.h"
}

#define L2_REG(d, r) (TESSERA_L2_ADDR(d) + uint32_t(offsetof(l2_t, r)))

using tessera::AxiMemConfig;
using tessera::AxiMemModel;
using tessera::AxiMemPort;
using tessera::SparseMem;

namespace {

constexpr unsigned kCh = TESSERA_HBM_CHANNELS;
constexpr unsigned kIdW = TESSERA_AXI_ID_BITS + 5;  // HbmIdBits
constexpr unsigned kHostIdW = TESSERA_AXI_ID_BITS + 2;  // HostIdBits
constexpr unsigned kDataWords = TESSERA_AXI_DATA_BITS / 32;
constexpr unsigned kUartDiv = TESSERA_UART_SIM_DIV;
constexpr unsigned kNic = TESSERA_NIC_PORTS;             // NIC ports
constexpr unsigned kNicPw = kNic ? kNic : 1;             // elements of the nic_* pins
constexpr unsigned kNicBeat = 32;                        // MAC client bytes per beat
static_assert(kNicBeat / 4 == TESSERA_AXI_DATA_BITS / 32, "nic_*_tdata: setd/getd assume 8 words per element");
constexpr uint64_t kHostTimeout = 100000;
// device memory: the HBM channel models, or the SDRAM path of the board (sim/tessera_sim_top.sv)
constexpr bool kSdram = TESSERA_DEVMEM_SDRAM != 0;
constexpr uint32_t kDevMemBytes = TESSERA_DEVMEM_BYTES;

// ---------------------------------------------------------------- port field access
// The hbm_* ports are [HbmChannels-1:0][W-1:0]; Verilator represents them as an
// integer, a VlWide<N> or (if declared unpacked) a VlUnpacked<>. These helpers
// read/write channel `idx` of width `w` (<= 32 bits) in any of those.
inline uint64_t maskw(unsigned w) { return w >= 64 ? ~0ull : ((1ull << w) - 1); }

template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
inline uint32_t getf(const T& v, unsigned idx, unsigned w) {
  return uint32_t((uint64_t(v) >> (idx * w)) & maskw(w));
}
template <std::size_t N>
inline uint32_t getf(const VlWide<N>& v, unsigned idx, unsigned w) {
  const unsigned lsb = idx * w, word = lsb / 32, off = lsb % 32;
  uint64_t x = v.m_storage[word];
  if (off + w > 32 && word + 1 < N) x |= uint64_t(v.m_storage[word + 1]) << 32;
  return uint32_t((x >> off) & maskw(w));
}
template <typename T, std::size_t N>
inline uint32_t getf(const VlUnpacked<T, N>& v, unsigned idx, unsigned w) {
  return getf(v.m_storage[idx], 0, w);
}

template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
inline void setf(T& v, unsigned idx, unsigned w, uint32_t val) {
  const uint64_t m = maskw(w) << (idx * w);
  v = T((uint64_t(v) & ~m) | ((uint64_t(val) << (idx * w)) & m));
}
template <std::size_t N>
inline void setf(VlWide<N>& v, unsigned idx, unsigned w, uint32_t val) {
  const unsigned lsb = idx * w, word = lsb / 32, off = lsb % 32;
  uint64_t x = v.m_storage[word];
  if (off + w > 32 && word + 1 < N) x |= uint64_t(v.m_storage[word + 1]) << 32;
  const uint64_t m = maskw(w) << off;
  x = (x & ~m) | ((uint64_t(val) << off) & m);
  v.m_storage[word] = uint32_t(x);
  if (off + w > 32 && word + 1 < N) v.m_storage[word + 1] = uint32_t(x >> 32);
}
template <typename T, std::size_t N>
inline void setf(VlUnpacked<T, N>& v, unsigned idx, unsigned w, uint32_t val) {
  setf(v.m_storage[idx], 0, w, val);
}

// Data buses: channel idx occupies words [idx*kDataWords, +kDataWords).
template <std::size_t N>
inline void getd(const VlWide<N>& v, unsigned idx, uint32_t* out) {
  std::memcpy(out, &v.m_storage[idx * kDataWords], kDataWords * 4);
}
template <typename T, std::size_t N>
inline void getd(const VlUnpacked<T, N>& v, unsigned idx, uint32_t* out) {
  std::memcpy(out, v.m_storage[idx].m_storage, kDataWords * 4);
}
template <std::size_t N>
inline void setd(VlWide<N>& v, unsigned idx, const uint32_t* in) {
  std::memcpy(&v.m_storage[idx * kDataWords], in, kDataWords * 4);
}
template <typename T, std::size_t N>
inline void setd(VlUnpacked<T, N>& v, unsigned idx, const uint32_t* in) {
  std::memcpy(v.m_storage[idx].m_storage, in, kDataWords * 4);
}

// Back-door regions.
struct Region {
  uint32_t base, bytes;
  int kind;  // 0 ROM, 1 ISRAM, 2 DSRAM, 3 HBM, 4 host memory (the host port's model)
};
const Region kRegions[] = {
    {TESSERA_BOOTROM_BASE, TESSERA_BOOTROM_BYTES, 0},
    {TESSERA_ISRAM_BASE, TESSERA_ISRAM_BYTES, 1},
    {TESSERA_DSRAM_BASE, TESSERA_DSRAM_BYTES, 2},
    {TESSERA_HBM_BASE, kDevMemBytes, 3},
    {TESSERA_HOST_BASE, TESSERA_HOST_SIZE, 4},
};

const Region* find_region(uint32_t addr, size_t len) {
  for (const Region& r : kRegions) {
    if (addr >= r.base && uint64_t(addr) - r.base + len <= r.bytes) return &r;
  }
  return nullptr;
}

}  // namespace

// ==================================================================== instance
struct tsim {
  tsim_opts_t opts;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vtessera_top> top;
  std::unique_ptr<VerilatedFstC> fst;
  std::string err;
  uint64_t cyc = 0;

  // HBM
  SparseMem hbm;
  std::vector<std::unique_ptr<AxiMemModel>> ch;
  AxiMemPort port[kCh];
  unsigned ndiag = 0;  // diagnostics printed (tsim_diag)
  // host memory behind the chip's host AXI master (the DMA engines' host port)
  SparseMem hostmem;
  std::unique_ptr<AxiMemModel> hch;
  AxiMemPort hport;
  // SDR SDRAM model on the sd_* pins (kSdram): DQ it drives for the next rising edge,
  // the level of an undriven bus (noise), violations already reported by tsim_step
  tsdram_t* sdram = nullptr;
  uint32_t sd_noise = 0x2545F491u;
  uint64_t sd_reported = 0;
  bool sd_new_violation = false;
  void sdram_tick();
  void sdram_check();

  // UART: decoder of uart_tx_o
  int ud_state = 0;
  bool ud_line_seen_high = false;
  bool rst_active = false;
  uint64_t ud_next = 0;
  unsigned ud_bit = 0;
  uint8_t ud_byte = 0;
  uint64_t ud_frame_err = 0;
  std::string uart_log;
  bool echo = false;
  // UART: driver of uart_rx_i
  std::string uin;
  size_t uin_pos = 0;
  bool drv_active = false;
  uint32_t drv_frame = 0;
  unsigned drv_bits = 0, drv_bit = 0;
  uint64_t drv_next = 0;
  uint8_t rx_level = 1;

  // SPI NOR flash model on the flash pins (docs/spiflash.md "Flash model")
  tflash_t* flash = nullptr;
  uint8_t flash_miso = 1;

  // host port transaction
  int host_state = 0;  // 0 idle, 1 requesting, 2 waiting response, 3 done
  uint32_t host_rdata = 0;
  bool host_err = false;

  // retirement ring
  uint32_t ring_pc[TSIM_RETIRE_RING] = {}, ring_insn[TSIM_RETIRE_RING] = {};
  uint64_t retired = 0;

  // progress
  tsim_progress_fn prog_fn = nullptr;
  void* prog_ctx = nullptr;
  uint64_t prog_every = 0, prog_next = 0;

  // ELF symbols of the last loaded program
  std::unordered_map<std::string, uint32_t> syms;

  // engine-activity timeline (opts.timeline_file; docs/sim.md "Timeline")
  std::unique_ptr<tessera::Timeline> tl;
  std::string tl_path;
  std::vector<uint8_t> tl_state;
  std::vector<uint32_t> tl_cnt;
  std::vector<uint8_t> tl_tx_kind;  // per NIC port, the frame on its TX stream: 0 none, 1 data, 2 ACK
  std::vector<uint32_t> tl_tx_beat;  // ... the beats of it taken so far
  std::vector<std::unordered_map<uint32_t, uint32_t>> tl_psn;  // ... per destination QP, the highest PSN sent
  void timeline_setup();
  void timeline_sample();
  bool timeline_write();

  // AXI port statistics (opts.axi_stats; docs/sim.md "AXI port statistics")
  std::vector<tessera::AxiMonitor> axm;
  uint64_t axm_cycles = 0, axm_pf_off[TESSERA_NUM_L2] = {};  // cycles; read-ahead held per slice
  struct AxPf {  // per slice, the read-ahead unit (tessera_l2_pf), summed per cycle
    uint64_t hints = 0, drops = 0, fifo = 0, want = 0, lookups = 0, busy = 0, mst[4] = {};
  } axm_pf[TESSERA_NUM_L2];
  // per slice and bank requester (engine 2p = port p's reads, 2p+1 its writes, the last the
  // read-ahead): cycles it asked for a bank lookup, was granted, or was refused because a
  // side operation (refill, victim or maintenance read) had the bank, the read-ahead was
  // granted it, or another engine was
  struct AxBank {
    uint64_t req = 0, gnt = 0, side = 0, pf = 0, eng = 0;
  };
  std::vector<AxBank> axm_bank[TESSERA_NUM_L2];
  void axistats_setup();
  void axistats_sample();

  // NIC ports' MAC client streams (docs/nic.md "The NIC in the simulator")
  struct NicPort {
    std::vector<uint8_t> tx;                  // the frame being transmitted (beats so far)
    std::deque<std::vector<uint8_t>> txq;     // ended frames, when no TX callback is set
    std::deque<std::vector<uint8_t>> rxq;     // frames for the receive side, front = on the pins
    size_t rx_off = 0;                        // offset of the beat on the rx pins
    bool rx_on = false;                       // rx_tvalid driven
    tsim_nic_stats_t st{};
  };
  NicPort nic[kNicPw];
  unsigned nic_rx_on = 0;                     // ports driving rx_tvalid
  tsim_nic_tx_fn nic_tx_fn = nullptr;
  void* nic_tx_ctx = nullptr;
  tsim_cycle_fn cyc_fn = nullptr;             // end-of-cycle hook (tessera_multi.h)
  void* cyc_ctx = nullptr;
  void nic_rx_load(unsigned p);
  void nic_tx_sample();

  uint64_t limit_base = 0;  // cycle of the last reset: max_cycles counts from there
  bool limit_hit() const { return opts.max_cycles && cyc - limit_base >= opts.max_cycles; }
  void set_err(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
  void cycle();
  void reset_models();
  int host_access(uint32_t addr, bool we, unsigned be, uint32_t wdata, uint32_t* rdata);
  uint32_t* sram_words(int kind, uint32_t* nwords);
};

// The instance whose model is being evaluated: tsim::cycle() sets it before each eval, so
// the DPI call below (made from inside eval) finds its memory models.
tsim* g_dpi_sim = nullptr;

// tessera_sim_top (sim/tessera_sim_top.sv) loads the memory models' slave outputs through
// this at every rising edge: channel ch < kCh is HBM channel ch, ch == kCh the host-memory
// port. The values are what the models' last tick produced for the next cycle.
extern "C" void tsim_dpi_mem_slave(int ch, svBit* awready, svBit* wready, svBit* arready,
                                   svBit* bvalid, svBit* rvalid, int* bid, svBitVecVal* bresp,
                                   int* rid, svBitVecVal* rresp, svBit* rlast,
                                   svBitVecVal* rdata) {
  const AxiMemPort& p = unsigned(ch) < kCh ? g_dpi_sim->port[ch] : g_dpi_sim->hport;
  *awready = p.awready;
  *wready = p.wready;
  *arready = p.arready;
  *bvalid = p.bvalid;
  *rvalid = p.rvalid;
  *bid = int(p.bid);
  *bresp = p.bresp;
  *rid = int(p.rid);
  *rresp = p.rresp;
  *rlast = p.rlast;
  std::memcpy(rdata, p.rdata, kDataWords * 4);
}

void tsim::set_err(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  err = buf;
}

uint32_t* tsim::sram_words(int kind, uint32_t* nwords) {
  auto* r = top->rootp;
  switch (kind) {
    case 0:
      *nwords = TESSERA_BOOTROM_BYTES / 4;
      return r->tessera_sim_top__DOT__u_top__DOT__u_bootrom__DOT__mem_q.m_storage;
    case 1:
      *nwords = TESSERA_ISRAM_BYTES / 4;
      return r->tessera_sim_top__DOT__u_top__DOT__u_isram__DOT__mem_q.m_storage;
    case 2:
      *nwords = TESSERA_DSRAM_BYTES / 4;
      return r->tessera_sim_top__DOT__u_top__DOT__u_dsram__DOT__mem_q.m_storage;
    default:
      *nwords = 0;
      return nullptr;
  }
}

// Drive port p's rx pins with the beat at rx_off of its first queued frame (valid low if
// none). Called between cycles only: the chip samples the pins at the next rising edge.
void tsim::nic_rx_load(unsigned p) {
  Vtessera_top* t = top.get();
  NicPort& n = nic[p];
  const bool on = !n.rxq.empty();
  if (on) {
    const std::vector<uint8_t>& f = n.rxq.front();
    const size_t left = f.size() - n.rx_off, k = left < kNicBeat ? left : kNicBeat;
    uint32_t w[kNicBeat / 4] = {};
    std::memcpy(w, f.data() + n.rx_off, k);  // byte i of the beat = tdata[8i +: 8]
    setd(t->nic_rx_tdata_i, p, w);
    setf(t->nic_rx_tkeep_i, p, 32, k == kNicBeat ? ~0u : (1u << k) - 1u);
    setf(t->nic_rx_tlast_i, p, 1, left <= kNicBeat);
  }
  if (on != n.rx_on) {
    setf(t->nic_rx_tvalid_i, p, 1, on);
    n.rx_on = on;
    nic_rx_on += on ? 1 : -1;
  }
}

// A beat on a tx stream in this cycle (tx_tvalid and the tx_tready the harness drives).
void tsim::nic_tx_sample() {
  Vtessera_top* t = top.get();
  for (unsigned p = 0; p < kNic; ++p) {
    if (!getf(t->nic_tx_tvalid_o, p, 1) || !getf(t->nic_tx_tready_i, p, 1)) continue;
    NicPort& n = nic[p];
    uint32_t w[kNicBeat / 4];
    getd(t->nic_tx_tdata_o, p, w);
    const uint32_t keep = getf(t->nic_tx_tkeep_o, p, 32);
    const uint8_t* b = reinterpret_cast<const uint8_t*>(w);
    for (unsigned i = 0; i < kNicBeat; ++i)
      if ((keep >> i) & 1u) n.tx.push_back(b[i]);
    if (!getf(t->nic_tx_tlast_o, p, 1)) continue;
    ++n.st.tx_frames;
    n.st.tx_bytes += n.tx.size();
    if (nic_tx_fn) nic_tx_fn(this, p, n.tx.data(), uint32_t(n.tx.size()), nic_tx_ctx);
    else n.txq.push_back(n.tx);
    n.tx.clear();
  }
}

// The SDRAM model takes this cycle's pins (registered in the controller at the last rising
// edge) and gives the DQ level the controller captures at the next one (tests/sdram does
// the same around its own DUT).
void tsim::sdram_tick() {
#if TESSERA_DEVMEM_SDRAM  // the sd_* ports exist (sim/tessera_sim_top.sv, TESSERA_SIM_SDRAM)
  Vtessera_top* t = top.get();
  const tsdram_pins_t p = tsdram_pins_of(*t);
  uint16_t d = 0;
  if (tsdram_tick(sdram, &p, &d)) {
    t->sd_dq_i = d;
  } else {  // an undriven bus reads as noise: a capture in the wrong cycle cannot match
    sd_noise ^= sd_noise << 13;
    sd_noise ^= sd_noise >> 17;
    sd_noise ^= sd_noise << 5;
    t->sd_dq_i = uint16_t(sd_noise);
  }
#endif
}

void tsim::sdram_check() {
  tsdram_stats_t st;
  tsdram_stats(sdram, &st);
  if (st.violations == sd_reported) return;
  const char* first = tsdram_violation(sdram, unsigned(sd_reported < 256 ? sd_reported : 255));
  set_err("SDRAM timing violation (%llu so far), %s", (unsigned long long)st.violations,
          first ? first : "(not recorded)");
  sd_reported = st.violations;
  sd_new_violation = true;
}

void tsim::reset_models() {
  tflash_reset_pins(flash);
  if (sdram) tsdram_power_cycle(sdram);
  flash_miso = 1;
  for (unsigned c = 0; c < kCh; ++c) ch[c]->reset(port[c]);
  for (unsigned p = 0; p < kNic; ++p) {  // a reset loses the frames in flight on the pins
    nic[p].tx.clear();
    nic[p].txq.clear();
    nic[p].rxq.clear();
    nic[p].rx_off = 0;
    nic_rx_load(p);
  }
  hch->reset(hport);
  ud_state = 0;
  ud_line_seen_high = false;
  drv_active = false;
  rx_level = 1;
  host_state = 0;
  retired = 0;
}

// One clock cycle.
void tsim::cycle() {
  Vtessera_top* t = top.get();
  // ---- clk low. The memory models' slave outputs for this cycle (produced by last
  // cycle's tick) were loaded into tessera_sim_top's registers at the last rising edge
  // (tsim_dpi_mem_slave below); only the UART line and the host register port are inputs.
  t->clk_i = 0;
  g_dpi_sim = this;
  t->uart_rx_i = rx_level;
  t->flash_miso_i = flash_miso;
  t->eval();
  if (fst) fst->dump(2 * cyc);

  // ---- sample outputs (values of this cycle) and tick the models
  if (kSdram) sdram_tick();
  for (unsigned c = 0; c < (kSdram ? 0u : kCh); ++c) {
    AxiMemPort& p = port[c];
    p.awvalid = getf(t->hbm_awvalid_o, c, 1);
    p.wvalid = getf(t->hbm_wvalid_o, c, 1);
    p.arvalid = getf(t->hbm_arvalid_o, c, 1);
    p.bready = getf(t->hbm_bready_o, c, 1);
    p.rready = getf(t->hbm_rready_o, c, 1);
    if (p.awvalid) {
      p.awid = getf(t->hbm_awid_o, c, kIdW);
      p.awaddr = getf(t->hbm_awaddr_o, c, 32);
      p.awlen = uint8_t(getf(t->hbm_awlen_o, c, 8));
      p.awsize = uint8_t(getf(t->hbm_awsize_o, c, 3));
      p.awburst = uint8_t(getf(t->hbm_awburst_o, c, 2));
    }
    if (p.wvalid) {
      getd(t->hbm_wdata_o, c, p.wdata);
      p.wstrb = getf(t->hbm_wstrb_o, c, 32);
      p.wlast = getf(t->hbm_wlast_o, c, 1);
    }
    if (p.arvalid) {
      p.arid = getf(t->hbm_arid_o, c, kIdW);
      p.araddr = getf(t->hbm_araddr_o, c, 32);
      p.arlen = uint8_t(getf(t->hbm_arlen_o, c, 8));
      p.arsize = uint8_t(getf(t->hbm_arsize_o, c, 3));
      p.arburst = uint8_t(getf(t->hbm_arburst_o, c, 2));
    }
    if (!axm.empty()) {  // the handshakes of this cycle (before the model ticks)
      tessera::AxiSample a;
      a.arv = p.arvalid, a.arr = p.arready, a.arid = p.arid, a.rv = p.rvalid, a.rr = p.rready;
      a.rid = p.rid, a.rlast = p.rlast, a.awv = p.awvalid, a.awr = p.awready, a.awid = p.awid;
      a.wv = p.wvalid, a.wr = p.wready, a.wlast = p.wlast, a.bv = p.bvalid, a.br = p.bready, a.bid = p.bid;
      axm[c].sample(a, cyc);
    }
    if (tl) {  // beats moved on the channel in this cycle (before the model ticks)
      tl_cnt[2 * c] = p.rvalid && p.rready;
      tl_cnt[2 * c + 1] = p.wvalid && p.wready;
    }
    ch[c]->tick(p);
  }
  {
    AxiMemPort& p = hport;
    p.awvalid = t->host_awvalid_o;
    p.wvalid = t->host_wvalid_o;
    p.arvalid = t->host_arvalid_o;
    p.bready = t->host_bready_o;
    p.rready = t->host_rready_o;
    if (p.awvalid) {
      p.awid = getf(t->host_awid_o, 0, kHostIdW);
      p.awaddr = t->host_awaddr_o;
      p.awlen = t->host_awlen_o;
      p.awsize = t->host_awsize_o;
      p.awburst = t->host_awburst_o;
    }
    if (p.wvalid) {
      getd(t->host_wdata_o, 0, p.wdata);
      p.wstrb = t->host_wstrb_o;
      p.wlast = t->host_wlast_o;
    }
    if (p.arvalid) {
      p.arid = getf(t->host_arid_o, 0, kHostIdW);
      p.araddr = t->host_araddr_o;
      p.arlen = t->host_arlen_o;
      p.arsize = t->host_arsize_o;
      p.arburst = t->host_arburst_o;
    }
    hch->tick(p);
  }
  if (tl) timeline_sample();
  if (!axm.empty()) axistats_sample();

  // UART decoder (sample in the middle of each bit). A start bit only counts
  // once the line has been idle (high): uart_tx_o is low during reset.
  const bool tx = t->uart_tx_o;
  if (tx && !rst_active) ud_line_seen_high = true;
  if (ud_state == 0) {
    if (!tx && ud_line_seen_high) {
      ud_state = 1;
      ud_next = cyc + kUartDiv / 2;
    }
  } else if (cyc >= ud_next) {
    ud_next += kUartDiv;
    if (ud_state == 1) {  // start bit
      if (tx) ud_state = 0;  // glitch
      else {
        ud_state = 2;
        ud_bit = 0;
        ud_byte = 0;
      }
    } else if (ud_state == 2) {
      ud_byte |= uint8_t(tx) << ud_bit;
      if (++ud_bit == 8) ud_state = 3;
    } else if (ud_state == 3) {  // stop bit
      if (tx) {
        uart_log.push_back(char(ud_byte));
        if (echo) {
          std::fputc(ud_byte, stdout);
          if (ud_byte == '\n') std::fflush(stdout);
        }
        ud_state = 0;
      } else {
        ++ud_frame_err;
        ud_state = 4;
      }
    } else if (tx) {  // 4: wait for the line to return high after a framing error
      ud_state = 0;
    }
  }

  // UART driver (next level, applied with the next clk-low phase).
  if (drv_active) {
    if (cyc + 1 >= drv_next) {
      if (++drv_bit == drv_bits) {
        drv_active = false;
        rx_level = 1;
      } else {
        rx_level = (drv_frame >> drv_bit) & 1;
        drv_next += kUartDiv;
      }
    }
  }
  if (!drv_active && uin_pos < uin.size()) {
    const uint8_t b = uint8_t(uin[uin_pos++]);
    // start(0), 8 data bits LSB first, stop(1), then gap bits (1)
    drv_frame = (~0u << 9) | (uint32_t(b) << 1);
    drv_bits = 10 + opts.uart_rx_gap;
    drv_bit = 0;
    drv_active = true;
    rx_level = 0;
    drv_next = cyc + 1 + kUartDiv;
  }

  // Retirement trace.
  if (t->trace_valid_o) {
    const unsigned i = unsigned(retired % TSIM_RETIRE_RING);
    ring_pc[i] = t->trace_pc_o;
    ring_insn[i] = t->trace_insn_o;
    ++retired;
  }

  // NIC streams: beats leaving on tx, beats taken on rx (the next beat is loaded after the
  // rising edge below)
  unsigned rx_took = 0;
  if (kNic) {
    if (t->nic_tx_tvalid_o) nic_tx_sample();
    if (nic_rx_on)
      for (unsigned p = 0; p < kNic; ++p)
        if (nic[p].rx_on && getf(t->nic_rx_tready_o, p, 1)) rx_took |= 1u << p;
  }

  // Host port.
  bool drop_req = false;
  if (host_state == 1) {
    if (t->host_gnt_o) {
      host_state = 2;
      drop_req = true;
    }
  } else if (host_state == 2 && t->host_rvalid_o) {
    host_rdata = t->host_rdata_o;
    host_err = t->host_err_o;
    host_state = 3;
  }

  // ---- rising edge
  t->clk_i = 1;
  t->eval();
  if (fst) fst->dump(2 * cyc + 1);
  // the flash sees the pins the edge produced; its MISO is the input of the next cycle
  // (one clock for the part's output delay, as on a board)
  flash_miso = uint8_t(tflash_pins(flash, t->flash_csn_o, t->flash_sck_o, t->flash_mosi_o));
  if (drop_req) t->host_req_i = 0;
  for (unsigned p = 0; rx_took; ++p, rx_took >>= 1) {
    if (!(rx_took & 1u)) continue;
    NicPort& n = nic[p];
    n.rx_off += kNicBeat;
    if (n.rx_off >= n.rxq.front().size()) {
      ++n.st.rx_frames;
      n.st.rx_bytes += n.rxq.front().size();
      n.rxq.pop_front();
      n.rx_off = 0;
    }
    nic_rx_load(p);
  }
  ++cyc;
  if (cyc_fn) cyc_fn(this, cyc_ctx);
}

int tsim::host_access(uint32_t addr, bool we, unsigned be, uint32_t wdata, uint32_t* rdata) {
  // The host port moves aligned 32-bit words (byte enables select bytes within one).
  if (addr & 3u) {
    set_err("host %s 0x%08x: address not 4-byte aligned (the host port moves aligned 32-bit words)",
            we ? "write" : "read", addr);
    return TSIM_EARG;
  }
  Vtessera_top* t = top.get();
  t->host_req_i = 1;
  t->host_addr_i = addr;
  t->host_we_i = we;
  t->host_be_i = be & 0xF;
  t->host_wdata_i = wdata;
  host_state = 1;
  const uint64_t end = cyc + kHostTimeout;
  while (host_state != 3) {
    if (limit_hit()) {
      t->host_req_i = 0;
      host_state = 0;
      set_err("cycle limit %llu reached during host %s 0x%08x",
              (unsigned long long)opts.max_cycles, we ? "write" : "read", addr);
      return TSIM_ELIMIT;
    }
    if (cyc >= end) {
      t->host_req_i = 0;
      set_err("host %s 0x%08x: no %s after %llu cycles", we ? "write" : "read", addr,
              host_state == 1 ? "grant" : "response", (unsigned long long)kHostTimeout);
      host_state = 0;
      return TSIM_ETIMEOUT;
    }
    cycle();
    if (kSdram) {
      sdram_check();
      if (sd_new_violation) {
        sd_new_violation = false;
        t->host_req_i = 0;
        host_state = 0;
        return TSIM_ESDRAM;
      }
    }
  }
  host_state = 0;
  if (host_err) {
    set_err("host %s 0x%08x answered with host_err", we ? "write" : "read", addr);
    return TSIM_EBUS;
  }
  if (rdata) *rdata = host_rdata;
  return TSIM_OK;
}

// ==================================================================== C API
// ---------------------------------------------------------------- AXI port statistics
// Monitors, in this order: the HBM channels; the fabric's masters (tessera_top: 0 the
// system-bus bridge, AxL2 + d slice d, AxQf the queue managers' fetch port, AxL2R + d
// slice d's read-only master); the L2 slices' upstream ports (port p of DCORE d, see
// tessera_top's L2 section); the TPC cores at the cluster's DCORE arbiters.
namespace {
constexpr unsigned kAxTpcPorts = TESSERA_TPC_PORTS_PER_DCORE;
constexpr unsigned kAxFabM = 1u + TESSERA_NUM_L2 + 1u + (TESSERA_L2_RD_MASTERS == 2 ? TESSERA_NUM_L2 : 0u);
// NIC ports per slice: port n of nic_ports is port 3 + tpc_ports + n / slices of slice n % slices
constexpr unsigned kAxNicL2 = (TESSERA_NIC_PORTS + TESSERA_NUM_L2 - 1u) / TESSERA_NUM_L2;
constexpr unsigned kAxL2Ports = 3u + kAxTpcPorts + kAxNicL2;
constexpr unsigned kAxL2U = TESSERA_NUM_L2 * kAxL2Ports;
constexpr unsigned kAxTpcM = TESSERA_DCORES * kAxTpcPorts;
constexpr unsigned kAxTpcPerPort = TESSERA_TPC_PER_DCORE / kAxTpcPorts;
constexpr unsigned kAxTpcSrc = kAxTpcPerPort + 1u;  // cores + the loader
constexpr unsigned kAxIdW = TESSERA_AXI_ID_BITS;
constexpr unsigned ax_clog2(unsigned v) { return v <= 1 ? 0 : 1 + ax_clog2((v + 1) / 2); }
constexpr unsigned kAxHintW = ax_clog2(TESSERA_L2_RD_BURSTS + 1) + 1;  // tessera_l2_pf h_cnt_q
constexpr unsigned kAxNumPf = (1u << TESSERA_AXI_ID_BITS) - 2u * kAxL2Ports;
template <typename P>
void ax_pf_sample(P& a, const uint32_t hv, const uint32_t hp, const uint64_t hc, bool rv, bool rg, bool cv,
                  uint64_t mst) {
  for (unsigned p = 0; p < kAxL2Ports; ++p) {
    const bool v = (hv >> p) & 1u, pu = (hp >> p) & 1u;
    a.hints += pu;
    a.drops += v && !pu;
    a.fifo += (hc >> (p * kAxHintW)) & ((1ull << kAxHintW) - 1);
  }
  a.want += rv;
  a.lookups += rv && rg;
  a.busy += cv;
  for (unsigned k = 0; k < kAxNumPf; ++k) ++a.mst[(mst >> (2 * k)) & 3u];
}
// tessera_l2's bank arbitration: eng_req / eng_gnt (one bit per requester), eng_bank
// (kAxBankBits per requester), bk_side_v (per bank), bk_gnt (kAxNumReq bits per bank)
constexpr unsigned kAxNumReq = 2u * kAxL2Ports + 1u;
constexpr unsigned kAxBankBits = TESSERA_L2_BANKS >= 8 ? 3u : TESSERA_L2_BANKS >= 4 ? 2u : 1u;  // log2(NumBanks)
static_assert((1u << kAxBankBits) == TESSERA_L2_BANKS, "axi-stats: l2_banks must be 2, 4 or 8");
// bit i of a Verilator signal: a scalar up to 64 bits or a VlWide of 32-bit words
template <typename T>
bool ax_bit(const T& v, unsigned i) {
  if constexpr (std::is_integral<T>::value) return (uint64_t(v) >> i) & 1u;
  else return (v[i / 32u] >> (i % 32u)) & 1u;
}
template <typename B, typename G>
void ax_bank_sample(std::vector<B>& v, uint64_t req, uint64_t gnt, uint64_t bank, uint64_t side, const G& bgnt) {
  if (v.size() != kAxNumReq) v.assign(kAxNumReq, B());
  for (unsigned e = 0; e < kAxNumReq; ++e) {
    if (!((req >> e) & 1u)) continue;
    B& b = v[e];
    ++b.req;
    if ((gnt >> e) & 1u) {
      ++b.gnt;
      continue;
    }
    const unsigned k = unsigned(bank >> (kAxBankBits * e)) & ((1u << kAxBankBits) - 1u);
    if ((side >> k) & 1u) ++b.side;
    else if (ax_bit(bgnt, kAxNumReq * k + kAxNumReq - 1u)) ++b.pf;
    else ++b.eng;
  }
}
}  // namespace

// name of upstream port p of a slice (tessera_top's L2 section)
static std::string ax_l2_port_name(unsigned p) {
  static const char* const pn[] = {"mme", "tpc", "dma", "mmeB"};
  if (p >= 3u + kAxTpcPorts) return "nic" + std::to_string(p - 3u - kAxTpcPorts);
  return p < 4 ? std::string(pn[p]) : "tpc" + std::to_string(p - 3);
}

void tsim::axistats_setup() {
  axm.clear();
  for (unsigned c = 0; c < kCh; ++c) axm.emplace_back("HBM" + std::to_string(c));
  for (unsigned m = 0; m < kAxFabM; ++m) {
    std::string n = m == 0 ? "fab.sys" : m <= TESSERA_NUM_L2 ? "fab.L2_" + std::to_string(m - 1)
                                       : m == TESSERA_NUM_L2 + 1 ? "fab.qfetch"
                                                                 : "fab.L2R" + std::to_string(m - TESSERA_NUM_L2 - 2);
    axm.emplace_back(n);
  }
  for (unsigned u = 0; u < kAxL2U; ++u) {
    const unsigned d = u / kAxL2Ports, p = u % kAxL2Ports;
    axm.emplace_back("L2_" + std::to_string(d) + "." + ax_l2_port_name(p));
  }
  for (unsigned m = 0; m < kAxTpcM; ++m)
    for (unsigned j = 0; j < kAxTpcPerPort; ++j) {
      const unsigned d = m / kAxTpcPorts, sl = m % kAxTpcPorts + kAxTpcPorts * j;
      axm.emplace_back("TPC" + std::to_string(d * TESSERA_TPC_PER_DCORE + sl));
    }
}

void tsim::axistats_sample() {
  auto* r = top->rootp;
  unsigned k = kCh;  // the HBM channels are sampled in cycle()
#define AX_T(sig) r->tessera_sim_top__DOT__u_top__DOT__##sig
  // one AXI port p (prefix of tessera_top's signal arrays: ax, l2u) at index i
#define AX_PORT(p, i)                                                                                          \
  do {                                                                                                         \
    tessera::AxiSample a;                                                                                      \
    a.arv = getf(AX_T(p##_arvalid), i, 1), a.arr = getf(AX_T(p##_arready), i, 1);                              \
    a.arid = getf(AX_T(p##_arid), i, kAxIdW), a.rid = getf(AX_T(p##_rid), i, kAxIdW);                          \
    a.rv = getf(AX_T(p##_rvalid), i, 1), a.rr = getf(AX_T(p##_rready), i, 1), a.rlast = getf(AX_T(p##_rlast), i, 1); \
    a.awv = getf(AX_T(p##_awvalid), i, 1), a.awr = getf(AX_T(p##_awready), i, 1);                              \
    a.awid = getf(AX_T(p##_awid), i, kAxIdW), a.bid = getf(AX_T(p##_bid), i, kAxIdW);                          \
    a.wv = getf(AX_T(p##_wvalid), i, 1), a.wr = getf(AX_T(p##_wready), i, 1), a.wlast = getf(AX_T(p##_wlast), i, 1); \
    a.bv = getf(AX_T(p##_bvalid), i, 1), a.br = getf(AX_T(p##_bready), i, 1);                                  \
    axm[k].sample(a, cyc);                                                                                     \
  } while (0)
  for (unsigned m = 0; m < kAxFabM; ++m, ++k) AX_PORT(ax, m);
  for (unsigned u = 0; u < kAxL2U; ++u, ++k) AX_PORT(l2u, u);
#undef AX_PORT
  for (unsigned m = 0; m < kAxTpcM; ++m)
    for (unsigned j = 0; j < kAxTpcPerPort; ++j, ++k) {
      const unsigned b = m * kAxTpcSrc + j;  // s_*[m][j]; the cores use one ID
      tessera::AxiSample a;
      a.arv = getf(AX_T(u_tpc__DOT__s_arvalid), b, 1), a.arr = getf(AX_T(u_tpc__DOT__s_arready), b, 1);
      a.rv = getf(AX_T(u_tpc__DOT__s_rvalid), b, 1), a.rr = getf(AX_T(u_tpc__DOT__s_rready), b, 1);
      a.rlast = getf(AX_T(u_tpc__DOT__s_rlast), m, 1);
      a.awv = getf(AX_T(u_tpc__DOT__s_awvalid), b, 1), a.awr = getf(AX_T(u_tpc__DOT__s_awready), b, 1);
      a.wv = getf(AX_T(u_tpc__DOT__s_wvalid), b, 1), a.wr = getf(AX_T(u_tpc__DOT__s_wready), b, 1);
      a.wlast = getf(AX_T(u_tpc__DOT__s_wlast), b, 1);
      a.bv = getf(AX_T(u_tpc__DOT__s_bvalid), b, 1), a.br = getf(AX_T(u_tpc__DOT__s_bready), b, 1);
      axm[k].sample(a, cyc);
    }
  ++axm_cycles;
#define AX_PF(d) r->tessera_sim_top__DOT__u_top__DOT__u_l2__DOT__g_slice__BRA__##d##__KET____DOT__u_l2__DOT__pf_enable
  if (!AX_PF(0)) ++axm_pf_off[0];
#if TESSERA_NUM_L2 > 1
  if (!AX_PF(1)) ++axm_pf_off[1];
#endif
#undef AX_PF
#define AX_RA(d, sig) r->tessera_sim_top__DOT__u_top__DOT__u_l2__DOT__g_slice__BRA__##d##__KET____DOT__u_l2__DOT__u_pf__DOT__##sig
#define AX_RA_SAMPLE(d)                                                                                      \
  ax_pf_sample(axm_pf[d], uint32_t(AX_RA(d, hint_valid_i)), uint32_t(AX_RA(d, h_push)), uint64_t(AX_RA(d, h_cnt_q)), \
               AX_RA(d, req_valid_o), AX_RA(d, req_gnt_i), AX_RA(d, cur_v_q), uint64_t(AX_RA(d, m_st_q)))
  AX_RA_SAMPLE(0);
#if TESSERA_NUM_L2 > 1
  AX_RA_SAMPLE(1);
#endif
#undef AX_RA_SAMPLE
#undef AX_RA
#define AX_BK(d, sig) r->tessera_sim_top__DOT__u_top__DOT__u_l2__DOT__g_slice__BRA__##d##__KET____DOT__u_l2__DOT__##sig
#define AX_BK_SAMPLE(d)                                                                                        \
  ax_bank_sample(axm_bank[d], uint64_t(AX_BK(d, eng_req)), uint64_t(AX_BK(d, eng_gnt)), uint64_t(AX_BK(d, eng_bank)), \
                 uint64_t(AX_BK(d, bk_side_v)), AX_BK(d, bk_gnt))
  AX_BK_SAMPLE(0);
#if TESSERA_NUM_L2 > 1
  AX_BK_SAMPLE(1);
#endif
#undef AX_BK_SAMPLE
#undef AX_BK
#undef AX_T
}

extern "C" {

void tsim_axistats_enable(tsim_t* s) {
  if (s->axm.empty()) s->axistats_setup();
}

void tsim_axistats_clear(tsim_t* s) {
  for (auto& m : s->axm) m.clear();
  s->axm_cycles = 0;
  for (auto& c : s->axm_pf_off) c = 0;
  for (auto& a : s->axm_pf) a = tsim::AxPf();
  for (auto& v : s->axm_bank) v.clear();
}

int tsim_axistats_port(tsim_t* s, const char* name, tsim_axi_port_stats_t* st) {
  for (const auto& m : s->axm)
    if (m.name() == name) {
      st->ar = m.ar(), st->r = m.r(), st->aw = m.aw(), st->w = m.w(), st->b = m.b();
      st->rd_first = m.rd_first(), st->rd_last = m.rd_last(), st->wr_lat = m.wr_lat();
      return TSIM_OK;
    }
  s->set_err("axi stats: %s", s->axm.empty() ? "not enabled" : "no such port");
  return TSIM_EARG;
}

void tsim_axistats_print(tsim_t* s, const char* label) {
  if (s->axm.empty()) return;
  std::printf("AXISTATS %s: per port over the run (latencies in cycles from the AR/AW handshake; "
              "stall = valid without ready, %% of cycles)\n", label);
  for (const auto& m : s->axm) m.print(stdout, label);
  const double c = s->axm_cycles ? double(s->axm_cycles) : 1.0;
  for (unsigned d = 0; d < TESSERA_NUM_L2; ++d) {
    const auto& a = s->axm_pf[d];
    std::printf("AXISTATS %s L2_%u read-ahead: held (write queue without room, maintenance) %.1f%% of cycles; "
                "hints %llu, dropped (FIFO full) %llu, in the FIFOs %.2f; working on a hint %.1f%%, lookup wanted "
                "%.1f%%, granted %.1f%% of cycles; MSHRs (of %u) free %.2f, looking up %.2f, waiting for AR %.2f, "
                "reading %.2f\n",
                label, d, 100.0 * double(s->axm_pf_off[d]) / c, (unsigned long long)a.hints,
                (unsigned long long)a.drops, double(a.fifo) / c, 100.0 * double(a.busy) / c,
                100.0 * double(a.want) / c, 100.0 * double(a.lookups) / c, kAxNumPf, double(a.mst[0]) / c,
                double(a.mst[1]) / c, double(a.mst[2]) / c, double(a.mst[3]) / c);
    bool any = false;
    for (unsigned e = 0; e < s->axm_bank[d].size(); ++e) {
      const auto& b = s->axm_bank[d][e];
      if (!b.req) continue;
      if (!any) std::printf("AXISTATS %s L2_%u bank lookups (cycles asked; refused: a side operation had the bank / "
                            "the read-ahead got it / another engine did):", label, d);
      any = true;
      const unsigned p = e / 2;
      const std::string who = e == kAxNumReq - 1 ? std::string("read-ahead")
                              : ax_l2_port_name(p) + (e & 1u ? ".wr" : ".rd");
      std::printf(" | %s %llu, granted %.1f%%, refused %.1f%% / %.1f%% / %.1f%%", who.c_str(),
                  (unsigned long long)b.req, 100.0 * double(b.gnt) / double(b.req), 100.0 * double(b.side) / double(b.req),
                  100.0 * double(b.pf) / double(b.req), 100.0 * double(b.eng) / double(b.req));
    }
    if (any) std::printf("\n");
  }
  std::fflush(stdout);
}

}  // extern "C"

#if VM_COVERAGE
// Coverage build (SIM_COV=1, `make coverage`): every model's counters are written to a
// temporary file when it is destroyed, added up per coverage point in the process, and
// the totals written once at exit to $TSIM_COVERAGE_FILE (default coverage.dat), in
// Verilator's coverage file format (read by verilator_coverage).
namespace {
struct CovTotals {
  std::unordered_map<std::string, uint64_t> count;
  std::vector<std::string> order;
  bool hooked = false;
};
CovTotals& cov_totals() {
  static CovTotals* t = new CovTotals();
  return *t;
}
std::string cov_file() {
  const char* f = std::getenv("TSIM_COVERAGE_FILE");
  return f && f[0] ? f : "coverage.dat";
}
void cov_write_totals() {
  CovTotals& t = cov_totals();
  const std::string path = cov_file();
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "tessera_sim: cannot write %s\n", path.c_str());
    return;
  }
  std::fprintf(f, "# SystemC::Coverage-3\n");
  for (const std::string& k : t.order) std::fprintf(f, "C '%s' %llu\n", k.c_str(), (unsigned long long)t.count[k]);
  std::fclose(f);
}
// Lines: C '<key>' <count>
void cov_collect(VerilatedContext* ctx) {
  CovTotals& t = cov_totals();
  const std::string part = cov_file() + ".part." + std::to_string(getpid());
  ctx->coveragep()->write(part.c_str());
  std::ifstream in(part);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 5 || line[0] != 'C') continue;
    const size_t q = line.rfind('\'');
    if (q == std::string::npos || q < 3) continue;
    const std::string key = line.substr(3, q - 3);
    const uint64_t n = std::strtoull(line.c_str() + q + 1, nullptr, 10);
    auto it = t.count.find(key);
    if (it == t.count.end()) {
      t.order.push_back(key);
      t.count.emplace(key, n);
    } else {
      it->second += n;
    }
  }
  std::remove(part.c_str());
  if (!t.hooked) {
    t.hooked = true;
    std::atexit(cov_write_totals);
  }
}
}  // namespace
#endif

extern "C" {

void tsim_opts_default(tsim_opts_t* o) {
  std::memset(o, 0, sizeof *o);
  o->uart_rx_gap = 2;
}

tsim_t* tsim_create(const tsim_opts_t* o) {
  std::unique_ptr<tsim> s(new tsim());
  if (o) s->opts = *o;
  else tsim_opts_default(&s->opts);
  s->echo = s->opts.uart_echo != 0;
  s->ctx.reset(new VerilatedContext());
  s->ctx->traceEverOn(true);
  s->ctx->randReset(0);
  // Verilator registers and erases a model's scopes in the thread's current context:
  // with several instances (tessera_multi.h) it must be this instance's at creation and
  // at destruction (tsim_destroy), or a destroyed instance's context is used
  Verilated::threadContextp(s->ctx.get());
  s->top.reset(new Vtessera_top(s->ctx.get(), "TOP"));
  if (kSdram) {  // the board's SDRAM at the chip clock, contents zero like the HBM model's
    tsdram_cfg_t sc;
    std::memset(&sc, 0, sizeof sc);
    sc.tck_ps = uint32_t(1000000000000ull / TESSERA_CLK_HZ);
    unsigned bits = 0;
    while ((1ull << bits) < TESSERA_SDRAM_BYTES) ++bits;
    sc.row_bits = bits - 1 - 9 - 2;  // 512 columns, 4 banks (sim/tessera_sim_top.sv)
    sc.col_bits = 9;
    sc.bank_bits = 2;
    s->sdram = tsdram_create(&sc);
    std::memset(tsdram_mem(s->sdram), 0, tsdram_words(s->sdram) * 2);
  }
  for (unsigned c = 0; c < kCh; ++c) {
    AxiMemConfig cfg;
    cfg.data_bytes = TESSERA_AXI_DATA_BYTES;
    cfg.base = TESSERA_HBM_BASE;
    cfg.size = TESSERA_HBM_SIZE;
    cfg.read_latency = s->opts.hbm_latency ? s->opts.hbm_latency : TESSERA_HBM_LATENCY_CYCLES;
    cfg.bytes_per_cycle = s->opts.hbm_bw ? s->opts.hbm_bw : TESSERA_HBM_BYTES_PER_CYCLE;
    cfg.max_reads = s->opts.hbm_max_reads ? s->opts.hbm_max_reads : TESSERA_HBM_MAX_READS;
    cfg.max_writes = 16;
    cfg.channel = c;
    cfg.num_channels = kCh;
    cfg.interleave_bytes = TESSERA_HBM_INTERLEAVE_BYTES;
    cfg.channel_hash = TESSERA_HBM_CHANNEL_HASH != 0;
    if (s->opts.hbm_size >= TESSERA_MEM_REGION_BYTES)  // whole regions (tsim_hbm_set_size)
      cfg.size = s->opts.hbm_size - s->opts.hbm_size % TESSERA_MEM_REGION_BYTES;
    cfg.banks = s->opts.hbm_banks;
    if (s->opts.hbm_row_bytes) cfg.row_bytes = s->opts.hbm_row_bytes;
    cfg.row_miss_cycles = s->opts.hbm_row_miss;
    s->ch.emplace_back(new AxiMemModel(cfg, &s->hbm));
  }
  {
    AxiMemConfig cfg;
    cfg.data_bytes = TESSERA_AXI_DATA_BYTES;
    cfg.base = TESSERA_HOST_BASE;
    cfg.size = TESSERA_HOST_SIZE;
    cfg.read_latency = s->opts.host_latency ? s->opts.host_latency : TESSERA_HOST_LATENCY_CYCLES;
    cfg.bytes_per_cycle = s->opts.host_bw ? s->opts.host_bw : TESSERA_HOST_BYTES_PER_CYCLE;
    cfg.max_reads = 64;   // 128 beats per DMA engine in 8-beat bursts, two engines
    cfg.max_writes = 32;
    s->hch.reset(new AxiMemModel(cfg, &s->hostmem));
  }
  {  // SPI NOR flash on the chip's flash pins, optionally backed by a file
    tflash_cfg_t fc;
    std::memset(&fc, 0, sizeof fc);
    fc.size = TESSERA_FLASH_BYTES;
    fc.prog_cycles = s->opts.flash_prog_cycles;
    fc.erase_cycles = s->opts.flash_erase_cycles;
    fc.path = s->opts.flash_file;
    s->flash = tflash_create(&fc);
    if (!s->flash) {
      std::fprintf(stderr, "tsim: flash: %s\n", tflash_last_error());
      return nullptr;
    }
  }
  // Deterministic start: on-chip RAMs cleared (the ROM keeps its $readmemh image).
  uint32_t n;
  uint32_t* w = s->sram_words(1, &n);
  std::memset(w, 0, n * 4);
  w = s->sram_words(2, &n);
  std::memset(w, 0, n * 4);
  Vtessera_top* t = s->top.get();
  t->clk_i = 0;
  t->rst_ni = 1;
  t->uart_rx_i = 1;
  t->host_req_i = 0;
  for (unsigned p = 0; p < kNic; ++p) setf(t->nic_tx_tready_i, p, 1, 1u);  // the MAC takes every beat
  t->eval();
  if (s->opts.trace_file && s->opts.trace_file[0]) {
    if (tsim_trace_open(s.get(), s->opts.trace_file) != TSIM_OK) return nullptr;
  }
  if (s->opts.timeline_file && s->opts.timeline_file[0]) tsim_timeline_open(s.get(), s->opts.timeline_file);
  if (s->opts.axi_stats) s->axistats_setup();
  tsim_reset(s.get());
  return s.release();
}

void tsim_destroy(tsim_t* s) {
  if (!s) return;
  Verilated::threadContextp(s->ctx.get());  // see tsim_create
  s->timeline_write();
  tsim_trace_close(s);
  s->top->final();
#if VM_COVERAGE
  cov_collect(s->ctx.get());
#endif
  if (tflash_save(s->flash) != 0) std::fprintf(stderr, "tsim: flash: %s\n", tflash_last_error());
  tflash_destroy(s->flash);
  if (s->sdram) tsdram_destroy(s->sdram);
  delete s;
}

void tsim_reset(tsim_t* s) {
  Vtessera_top* t = s->top.get();
  s->limit_base = s->cyc;  // a reset starts a new cycle budget (and recovers from the last one)
  t->host_req_i = 0;
  t->rst_ni = 0;
  t->clk_i = 0;
  t->eval();
  s->reset_models();
  s->rst_active = true;
  for (int i = 0; i < 4; ++i) s->cycle();
  t->rst_ni = 1;
  s->rst_active = false;
  for (int i = 0; i < 2; ++i) s->cycle();
  s->retired = 0;
  if (s->opts.l2_set_hash) {
    // the slices hold no valid line after reset, so the mapping may change now
    for (unsigned d = 0; d < TESSERA_NUM_L2; ++d) {
      uint32_t c = 0;
      if (tsim_host_read32(s, L2_REG(d, CTRL), &c) == TSIM_OK)
        tsim_host_write32(s, L2_REG(d, CTRL), c | L2__CTRL__SET_HASH_bm);
    }
  }
}

// ---------------------------------------------------------------- NIC streams
unsigned tsim_nic_ports(void) { return kNic; }

void tsim_nic_on_tx(tsim_t* s, tsim_nic_tx_fn fn, void* ctx) {
  s->nic_tx_fn = fn;
  s->nic_tx_ctx = ctx;
}

int tsim_nic_tx_pop(tsim_t* s, unsigned port, uint8_t* buf, uint32_t cap, uint32_t* len) {
  if (port >= kNic || s->nic[port].txq.empty()) return 0;
  std::vector<uint8_t>& f = s->nic[port].txq.front();
  const uint32_t n = f.size() < cap ? uint32_t(f.size()) : cap;
  std::memcpy(buf, f.data(), n);
  if (len) *len = n;
  s->nic[port].txq.pop_front();
  return 1;
}

int tsim_nic_rx_push(tsim_t* s, unsigned port, const uint8_t* frame, uint32_t len) {
  if (port >= kNic || !frame || !len) {
    s->set_err("tsim_nic_rx_push: port %u of %u, %u bytes", port, kNic, len);
    return TSIM_EARG;
  }
  s->nic[port].rxq.emplace_back(frame, frame + len);
  if (!s->nic[port].rx_on) s->nic_rx_load(port);
  return TSIM_OK;
}

unsigned tsim_nic_rx_pending(const tsim_t* s, unsigned port) {
  return port < kNic ? unsigned(s->nic[port].rxq.size()) : 0u;
}

void tsim_nic_tx_ready(tsim_t* s, unsigned port, int ready) {
  if (port < kNic) setf(s->top->nic_tx_tready_i, port, 1, ready ? 1u : 0u);
}

void tsim_nic_stats(const tsim_t* s, unsigned port, tsim_nic_stats_t* st) {
  if (port < kNic) *st = s->nic[port].st;
  else std::memset(st, 0, sizeof *st);
}

void tsim_set_cycle_hook(tsim_t* s, tsim_cycle_fn fn, void* ctx) {
  s->cyc_fn = fn;
  s->cyc_ctx = ctx;
}

const char* tsim_last_error(const tsim_t* s) { return s->err.c_str(); }
uint64_t tsim_cycles(const tsim_t* s) { return s->cyc; }

int tsim_step(tsim_t* s, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    if (s->limit_hit()) {
      s->set_err("cycle limit %llu reached", (unsigned long long)s->opts.max_cycles);
      return TSIM_ELIMIT;
    }
    s->cycle();
    if (kSdram) {
      s->sdram_check();
      if (s->sd_new_violation) {
        s->sd_new_violation = false;
        return TSIM_ESDRAM;
      }
    }
    if (s->prog_fn && s->cyc >= s->prog_next) {
      s->prog_next = s->cyc + s->prog_every;
      s->prog_fn(s, s->prog_ctx);
    }
  }
  return TSIM_OK;
}

void tsim_set_progress(tsim_t* s, tsim_progress_fn fn, void* ctx, uint64_t every) {
  s->prog_fn = fn;
  s->prog_ctx = ctx;
  s->prog_every = every ? every : 1000000;
  s->prog_next = s->cyc + s->prog_every;
}

int tsim_run_until(tsim_t* s, tsim_pred_fn pred, void* ctx, uint64_t budget, unsigned poll) {
  if (!poll) poll = 32;
  const uint64_t end = s->cyc + budget;
  for (;;) {
    if (pred(s, ctx)) return TSIM_OK;
    if (s->cyc >= end) {
      s->set_err("timeout: condition not met within %llu cycles", (unsigned long long)budget);
      if (!s->opts.quiet) tsim_diag(s, stderr, s->err.c_str());
      return TSIM_ETIMEOUT;
    }
    uint64_t n = end - s->cyc < poll ? end - s->cyc : poll;
    const int rc = tsim_step(s, n);
    if (rc != TSIM_OK) {
      if (rc == TSIM_ELIMIT && pred(s, ctx)) return TSIM_OK;
      if (!s->opts.quiet) tsim_diag(s, stderr, s->err.c_str());
      return rc;
    }
  }
}

// Engines and queues that are busy or stopped with an error, read through the host port
// (which still works after a run_until timeout; after the cycle limit it does not, and
// the lines say so). Each read advances the model by a few cycles.
static void diag_engines(tsim_t* s, FILE* f) {
  const std::string saved_err = s->err;  // host reads may overwrite it
  bool any = false;
  uint32_t v = 0, pc = 0;
  for (unsigned q = 0; q < TESSERA_QMAN_COUNT; ++q) {
    int rc = tsim_host_read32(s, TESSERA_QMAN_ADDR(q) + offsetof(qman_t, STATUS), &v);
    if (rc == TSIM_EBUS) continue;  // no queue in this slot
    if (rc != TSIM_OK) {
      std::fprintf(f, "engines: status not readable (%s)\n", s->err.c_str());
      s->err = saved_err;
      return;
    }
    if (!(v & QMAN__STATUS__BUSY_bm) && !(v & QMAN__STATUS__ERR_bm)) continue;
    if (tsim_host_read32(s, TESSERA_QMAN_ADDR(q) + offsetof(qman_t, PC), &pc) != TSIM_OK) pc = 0;
    std::fprintf(f, "queue %u: %s, packet at 0x%08x, opcode 0x%02x, err %u\n", q,
                 (v & QMAN__STATUS__BUSY_bm) ? "BUSY" : "stopped",
                 pc, (unsigned)((v & QMAN__STATUS__OPCODE_bm) >> QMAN__STATUS__OPCODE_bp),
                 (unsigned)((v & QMAN__STATUS__ERR_bm) >> QMAN__STATUS__ERR_bp));
    any = true;
  }
  for (unsigned e = 0; e < TESSERA_NUM_MME; ++e) {
    if (tsim_host_read32(s, TESSERA_MME_ADDR(e) + offsetof(mme_t, STATUS), &v) != TSIM_OK) continue;
    if (!(v & MME__STATUS__BUSY_bm) && !(v & MME__STATUS__ERR_bm)) continue;
    std::fprintf(f, "mme %u: %s, err %u\n", e, (v & MME__STATUS__BUSY_bm) ? "BUSY" : "idle",
                 (unsigned)((v & MME__STATUS__ERR_bm) >> MME__STATUS__ERR_bp));
    any = true;
  }
  for (unsigned d = 0; d < TESSERA_DMA_ENGINES; ++d) {
    if (tsim_host_read32(s, TESSERA_DMA_ADDR(d) + offsetof(dma_t, STATUS), &v) != TSIM_OK) continue;
    if (!(v & DMA__STATUS__BUSY_bm) && !(v & DMA__STATUS__ERR_bm)) continue;
    std::fprintf(f, "dma %u: %s, err %u\n", d, (v & DMA__STATUS__BUSY_bm) ? "BUSY" : "idle",
                 (unsigned)((v & DMA__STATUS__ERR_bm) >> DMA__STATUS__ERR_bp));
    any = true;
  }
  if (tsim_host_read32(s, TESSERA_TPC_ADDR(0) + offsetof(tpc_t, STATUS), &v) == TSIM_OK &&
      ((v & TPC__STATUS__BUSY_bm) || (v & TPC__STATUS__ERR_bm))) {
    uint32_t epc = 0, emask = 0;
    if (v & TPC__STATUS__ERR_bm) {
      if (tsim_host_read32(s, TESSERA_TPC_ADDR(0) + offsetof(tpc_t, ERR_PC), &epc) != TSIM_OK) epc = 0;
      if (tsim_host_read32(s, TESSERA_TPC_ADDR(0) + offsetof(tpc_t, ERR_MASK), &emask) != TSIM_OK) emask = 0;
    }
    if (v & TPC__STATUS__ERR_bm)
      std::fprintf(f, "tpc cluster: %s, err %u, at bundle %u, failing TPCs 0x%02x\n",
                   (v & TPC__STATUS__BUSY_bm) ? "BUSY" : "idle",
                   (unsigned)((v & TPC__STATUS__ERR_bm) >> TPC__STATUS__ERR_bp), epc, emask);
    else
      std::fprintf(f, "tpc cluster: BUSY, err 0\n");
    any = true;
  }
  if (!any) std::fprintf(f, "engines: no queue or engine busy or in error\n");
  s->err = saved_err;
}

unsigned tsim_diag_count(const tsim_t* s) { return s->ndiag; }

void tsim_diag(tsim_t* s, FILE* f, const char* cause_in) {
  ++s->ndiag;
  const std::string cause_copy = cause_in ? cause_in : "(none)";  // may point into s->err
  const char* cause = cause_copy.c_str();
  std::fprintf(f, "=== tessera sim diagnostic ===\n");
  std::fprintf(f, "cause : %s\n", cause);
  std::fprintf(f, "cycle : %llu   seed: %llu   retired: %llu\n", (unsigned long long)s->cyc,
               (unsigned long long)s->opts.seed, (unsigned long long)s->retired);
  uint32_t pcs[TSIM_RETIRE_RING], insns[TSIM_RETIRE_RING];
  unsigned n = tsim_retired(s, pcs, insns, TSIM_RETIRE_RING);
  if (n) {
    std::fprintf(f, "last PC: 0x%08x\nlast %u retired (oldest first):\n", pcs[n - 1], n);
    for (unsigned i = 0; i < n; ++i) std::fprintf(f, "  pc 0x%08x  insn 0x%08x\n", pcs[i], insns[i]);
  } else {
    std::fprintf(f, "last PC: (no instruction retired)\n");
  }
  if (kSdram) {
    tsdram_stats_t st;
    tsdram_stats(s->sdram, &st);
    std::fprintf(f, "sdram: %s, %llu reads, %llu writes, %llu refreshes, %llu timing violations\n",
                 st.init_done ? "initialised" : "in its init sequence", (unsigned long long)st.reads,
                 (unsigned long long)st.writes, (unsigned long long)st.refreshes,
                 (unsigned long long)st.violations);
    for (unsigned i = 0; i < 4 && tsdram_violation(s->sdram, i); ++i)
      std::fprintf(f, "  %s\n", tsdram_violation(s->sdram, i));
  }
  for (unsigned c = 0; c < (kSdram ? 0u : kCh); ++c) {
    const auto& k = s->ch[c]->counters();
    std::fprintf(f, "hbm ch%u: %s, rd %llu B, wr %llu B, decerr %llu\n", c,
                 s->ch[c]->idle() ? "idle" : "BUSY (transactions in flight)",
                 (unsigned long long)k.bytes_read, (unsigned long long)k.bytes_written,
                 (unsigned long long)k.decerr);
  }
  diag_engines(s, f);
  char tail[401];
  tsim_uart_tail(s, tail, sizeof tail);
  std::fprintf(f, "uart (last %zu of %zu bytes):\n%s\n", std::strlen(tail), s->uart_log.size(), tail);
  std::fprintf(f, "==============================\n");
  std::fflush(f);
}

// ---- back door
int tsim_mem_is_backed(uint32_t addr, size_t len) { return find_region(addr, len) != nullptr; }

int tsim_mem_read(tsim_t* s, uint32_t addr, void* buf, size_t len) {
  const Region* r = find_region(addr, len);
  if (!r) {
    s->set_err("back door: 0x%08x+%zu is not backed by memory", addr, len);
    return TSIM_EADDR;
  }
  if (r->kind == 3 && kSdram) {  // byte i of the device-memory window: byte i of the array
    std::memcpy(buf, reinterpret_cast<const uint8_t*>(tsdram_mem(s->sdram)) + (addr - r->base), len);
    return TSIM_OK;
  }
  if (r->kind >= 3) {
    (r->kind == 3 ? s->hbm : s->hostmem).read(addr, buf, len);
    return TSIM_OK;
  }
  uint32_t n;
  const uint32_t* w = s->sram_words(r->kind, &n);
  uint8_t* d = static_cast<uint8_t*>(buf);
  for (size_t i = 0; i < len; ++i) {
    uint32_t off = addr - r->base + uint32_t(i);
    d[i] = uint8_t(w[off >> 2] >> (8 * (off & 3)));
  }
  return TSIM_OK;
}

int tsim_mem_write(tsim_t* s, uint32_t addr, const void* buf, size_t len) {
  const Region* r = find_region(addr, len);
  if (!r) {
    s->set_err("back door: 0x%08x+%zu is not backed by memory", addr, len);
    return TSIM_EADDR;
  }
  if (r->kind == 0) {  // like the bus: the ROM refuses writes
    s->set_err("back door: write 0x%08x+%zu: the boot ROM [0x%08x, 0x%08x) is read-only", addr, len, r->base,
               r->base + r->bytes);
    return TSIM_EBUS;
  }
  if (r->kind == 3 && kSdram) {
    std::memcpy(reinterpret_cast<uint8_t*>(tsdram_mem(s->sdram)) + (addr - r->base), buf, len);
    return TSIM_OK;
  }
  if (r->kind >= 3) {
    (r->kind == 3 ? s->hbm : s->hostmem).write(addr, buf, len);
    return TSIM_OK;
  }
  uint32_t n;
  uint32_t* w = s->sram_words(r->kind, &n);
  const uint8_t* d = static_cast<const uint8_t*>(buf);
  for (size_t i = 0; i < len; ++i) {
    uint32_t off = addr - r->base + uint32_t(i);
    uint32_t sh = 8 * (off & 3);
    w[off >> 2] = (w[off >> 2] & ~(0xFFu << sh)) | (uint32_t(d[i]) << sh);
  }
  return TSIM_OK;
}

uint32_t tsim_mem_read32(tsim_t* s, uint32_t addr) {
  uint8_t b[4] = {0, 0, 0, 0};
  if (tsim_mem_read(s, addr, b, 4) != TSIM_OK) return 0;
  return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
}

int tsim_mem_write32(tsim_t* s, uint32_t addr, uint32_t v) {
  uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  return tsim_mem_write(s, addr, b, 4);
}

// ---- front door
int tsim_host_read32(tsim_t* s, uint32_t addr, uint32_t* value) {
  uint32_t v = 0;
  int rc = s->host_access(addr, false, 0xF, 0, &v);
  if (value) *value = v;
  return rc;
}
int tsim_host_write32(tsim_t* s, uint32_t addr, uint32_t value) {
  return s->host_access(addr, true, 0xF, value, nullptr);
}
int tsim_host_write_be(tsim_t* s, uint32_t addr, uint32_t value, unsigned be) {
  return s->host_access(addr, true, be, value, nullptr);
}
uint32_t tsim_host_irq(tsim_t* s) { return uint32_t(s->top->host_irq_o); }

// ---- boot and tohost
int tsim_boot(tsim_t* s, uint32_t entry) {
  int rc = tsim_host_write32(s, TESSERA_SYSCTRL_BASE + offsetof(sysctrl_t, BOOT_ADDR), entry);
  if (rc != TSIM_OK) return rc;
  return tsim_host_write32(s, TESSERA_SYSCTRL_BASE + offsetof(sysctrl_t, BOOT_CTRL),
                           SYSCTRL__BOOT_CTRL__GO_bm);
}

struct TohostCtx {
  uint32_t addr;
  uint32_t value;
};
static int tohost_pred(tsim_t* s, void* c) {
  TohostCtx* t = static_cast<TohostCtx*>(c);
  t->value = tsim_mem_read32(s, t->addr);
  return t->value != 0;
}
int tsim_run_tohost(tsim_t* s, uint32_t tohost_addr, uint64_t budget, uint32_t* value) {
  TohostCtx c{tohost_addr, 0};
  int rc = tsim_run_until(s, tohost_pred, &c, budget, 32);
  if (value) *value = c.value;
  return rc;
}

// ---- UART
tflash_t* tsim_flash(tsim_t* s) { return s->flash; }

const char* tsim_uart_log(const tsim_t* s) { return s->uart_log.c_str(); }
size_t tsim_uart_len(const tsim_t* s) { return s->uart_log.size(); }
int tsim_uart_contains(const tsim_t* s, const char* text) {
  return s->uart_log.find(text) != std::string::npos;
}
char* tsim_uart_tail(const tsim_t* s, char* buf, size_t bufsize) {
  if (!bufsize) return buf;
  const std::string& u = s->uart_log;
  size_t n = u.size() < bufsize - 1 ? u.size() : bufsize - 1;
  const char* src = u.data() + u.size() - n;
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(src[i]);
    buf[i] = (c >= 0x20 && c < 0x7F) || c == '\n' || c == '\r' || c == '\t' ? char(c) : '.';
  }
  buf[n] = 0;
  return buf;
}
void tsim_uart_clear(tsim_t* s) { s->uart_log.clear(); }
void tsim_uart_echo(tsim_t* s, int on) { s->echo = on != 0; }
void tsim_uart_input(tsim_t* s, const void* data, size_t len) {
  if (s->uin_pos == s->uin.size()) {
    s->uin.clear();
    s->uin_pos = 0;
  }
  s->uin.append(static_cast<const char*>(data), len);
}
size_t tsim_uart_input_pending(const tsim_t* s) {
  return s->uin.size() - s->uin_pos + (s->drv_active ? 1 : 0);
}
uint64_t tsim_uart_frame_errors(const tsim_t* s) { return s->ud_frame_err; }

struct UartCtx {
  const char* text;
  size_t from;
};
static int uart_pred(tsim_t* s, void* c) {
  UartCtx* u = static_cast<UartCtx*>(c);
  // Only search the part that can contain a new match.
  const size_t tl = std::strlen(u->text);
  const size_t start = u->from > tl ? u->from - tl : 0;
  u->from = s->uart_log.size();
  return s->uart_log.find(u->text, start) != std::string::npos;
}
int tsim_run_until_uart(tsim_t* s, const char* text, uint64_t budget) {
  UartCtx c{text, 0};
  return tsim_run_until(s, uart_pred, &c, budget, 64);
}

// ---- waves
int tsim_trace_open(tsim_t* s, const char* path) {
  tsim_trace_close(s);
  s->fst.reset(new VerilatedFstC());
  s->top->trace(s->fst.get(), 99);
  s->fst->open(path);
  if (!s->fst->isOpen()) {
    s->fst.reset();
    s->set_err("cannot open trace file %s", path);
    return TSIM_EIO;
  }
  return TSIM_OK;
}
void tsim_trace_close(tsim_t* s) {
  if (s->fst) {
    s->fst->close();
    s->fst.reset();
  }
}

// ---- retirement ring
unsigned tsim_retired(const tsim_t* s, uint32_t* pcs, uint32_t* insns, unsigned max) {
  const uint64_t have = s->retired < TSIM_RETIRE_RING ? s->retired : TSIM_RETIRE_RING;
  const unsigned n = unsigned(have < max ? have : max);
  for (unsigned i = 0; i < n; ++i) {
    const unsigned idx = unsigned((s->retired - n + i) % TSIM_RETIRE_RING);
    if (pcs) pcs[i] = s->ring_pc[idx];
    if (insns) insns[i] = s->ring_insn[idx];
  }
  return n;
}
uint64_t tsim_retired_count(const tsim_t* s) { return s->retired; }

// ---- HBM
unsigned tsim_hbm_channels(void) { return kCh; }
unsigned tsim_hbm_channel(uint32_t addr) {
  unsigned sh = 0;
  while ((1u << sh) < TESSERA_HBM_INTERLEAVE_BYTES) ++sh;
  return tessera::axi_mem_channel(addr, sh, kCh, TESSERA_HBM_CHANNEL_HASH != 0);
}
static void stats_of(const AxiMemModel& m, tsim_hbm_stats_t* o) {
  const auto& k = m.counters();
  o->bytes_read = k.bytes_read;
  o->bytes_written = k.bytes_written;
  o->read_bursts = k.read_bursts;
  o->write_bursts = k.write_bursts;
  o->busy_cycles = k.busy_cycles;
  o->decerr = k.decerr;
  o->slverr = k.slverr;
  o->row_misses = k.row_misses;
}
void tsim_hbm_stats(const tsim_t* s, unsigned c, tsim_hbm_stats_t* o) {
  std::memset(o, 0, sizeof *o);
  if (c < kCh) stats_of(*s->ch[c], o);
}
void tsim_hbm_config(tsim_t* s, unsigned latency, unsigned bpc) {
  for (auto& m : s->ch) {
    if (latency) m->set_read_latency(latency);
    if (bpc) m->set_bytes_per_cycle(bpc);
  }
}
void tsim_hbm_set_size(tsim_t* s, uint64_t bytes) {
  // memory is populated in whole regions (mem_region_bytes: the TPC's posted stores rely on it)
  bytes -= bytes % TESSERA_MEM_REGION_BYTES;
  for (auto& m : s->ch) m->set_size(bytes ? bytes : TESSERA_HBM_SIZE);
}
int tsim_has_sdram(void) { return kSdram; }
void tsim_sdram_stats(const tsim_t* s, tsim_sdram_stats_t* o) {
  std::memset(o, 0, sizeof *o);
  if (!s->sdram) return;
  tsdram_stats_t st;
  tsdram_stats(s->sdram, &st);
  o->cycles = st.cycles;
  o->acts = st.acts;
  o->reads = st.reads;
  o->writes = st.writes;
  o->precharges = st.precharges;
  o->refreshes = st.refreshes;
  o->violations = st.violations;
  o->max_ref_gap = st.max_ref_gap;
  o->bytes = tsdram_words(s->sdram) * 2;
}
const char* tsim_sdram_violation(const tsim_t* s, unsigned i) {
  return s->sdram ? tsdram_violation(s->sdram, i) : nullptr;
}
void tsim_host_mem_stats(const tsim_t* s, tsim_hbm_stats_t* o) {
  std::memset(o, 0, sizeof *o);
  stats_of(*s->hch, o);
}
void tsim_host_mem_config(tsim_t* s, unsigned latency, unsigned bpc) {
  if (latency) s->hch->set_read_latency(latency);
  if (bpc) s->hch->set_bytes_per_cycle(bpc);
}
void tsim_host_mem_set_size(tsim_t* s, uint64_t bytes) { s->hch->set_size(bytes ? bytes : TESSERA_HOST_SIZE); }
void tsim_hbm_row_model(tsim_t* s, unsigned banks, unsigned row_bytes, unsigned miss) {
  for (auto& m : s->ch) m->set_row_model(banks, row_bytes, miss);
}

// ---- L2 maintenance through the slices' registers (docs/l2.md, "Maintenance")
int tsim_l2_maint_all(tsim_t* s, unsigned op, uint64_t budget) {
  if (op < TSIM_L2_FLUSH || op > TSIM_L2_DISCARD) return TSIM_EARG;
  if (!budget) budget = 1000000;
  for (unsigned d = 0; d < TESSERA_NUM_L2; ++d) {
    int rc = tsim_host_write32(s, L2_REG(d, STATUS), L2__STATUS__DONE_bm);
    if (rc == TSIM_OK)
      rc = tsim_host_write32(s, L2_REG(d, MAINT_CMD),
                             (op << L2__MAINT_CMD__OP_bp) | L2__MAINT_CMD__WHOLE_bm | L2__MAINT_CMD__GO_bm);
    if (rc != TSIM_OK) return rc;
  }
  const uint64_t end = s->cyc + budget;
  for (unsigned d = 0; d < TESSERA_NUM_L2; ++d) {
    uint32_t st = 0;
    for (;;) {
      int rc = tsim_host_read32(s, L2_REG(d, STATUS), &st);
      if (rc != TSIM_OK) return rc;
      if (st & L2__STATUS__DONE_bm) break;
      if (s->cyc >= end) {
        s->set_err("L2 slice %u: maintenance not done within %llu cycles", d, (unsigned long long)budget);
        if (!s->opts.quiet) tsim_diag(s, stderr, s->err.c_str());
        return TSIM_ETIMEOUT;
      }
      tsim_step(s, 16);
    }
    int rc = tsim_host_write32(s, L2_REG(d, STATUS), L2__STATUS__DONE_bm);
    if (rc != TSIM_OK) return rc;
    const uint32_t code = (st & L2__STATUS__ERR_CODE_bm) >> L2__STATUS__ERR_CODE_bp;
    if (code != 0 || (st & L2__STATUS__WB_ERR_bm)) {
      s->set_err("L2 slice %u: maintenance refused or failed, STATUS 0x%08x", d, st);
      return TSIM_EBUS;
    }
  }
  return TSIM_OK;
}
int tsim_l2_flush_all(tsim_t* s) { return tsim_l2_maint_all(s, TSIM_L2_FLUSH, 0); }
int tsim_l2_invalidate_all(tsim_t* s) { return tsim_l2_maint_all(s, TSIM_L2_INVALIDATE, 0); }

// ---------------------------------------------------------------- timeline
// Queue managers in tessera_top's queue list order (MME i, the TPC cluster, DMA d, NIC port p).
#define TL_QSTATE(q) uint8_t(r->tessera_sim_top__DOT__u_top__DOT__g_qman__BRA__##q##__KET____DOT__u_qman__DOT__state_q)
namespace {
constexpr unsigned kTlEngQueues = TESSERA_NUM_MME + 1u + TESSERA_DMA_ENGINES;
constexpr unsigned kTlQueues = kTlEngQueues + kNic;
static_assert(kTlQueues <= 8, "timeline: qman_states reads at most 8 queue managers");
// each queue manager's state_q, in tessera_top's queue order
void qman_states(const Vtessera_top___024root* r, uint8_t* qs) {
  const uint8_t v[] = {TL_QSTATE(0), TL_QSTATE(1), TL_QSTATE(2)
#if TESSERA_NUM_MME + 1 + TESSERA_DMA_ENGINES + TESSERA_NIC_PORTS > 3
                       , TL_QSTATE(3)
#endif
#if TESSERA_NUM_MME + 1 + TESSERA_DMA_ENGINES + TESSERA_NIC_PORTS > 4
                       , TL_QSTATE(4)
#endif
#if TESSERA_NUM_MME + 1 + TESSERA_DMA_ENGINES + TESSERA_NIC_PORTS > 5
                       , TL_QSTATE(5)
#endif
#if TESSERA_NUM_MME + 1 + TESSERA_DMA_ENGINES + TESSERA_NIC_PORTS > 6
                       , TL_QSTATE(6)
#endif
#if TESSERA_NUM_MME + 1 + TESSERA_DMA_ENGINES + TESSERA_NIC_PORTS > 7
                       , TL_QSTATE(7)
#endif
  };
  static_assert(sizeof v == kTlQueues, "timeline: qman_states reads another number of queue managers");
  for (unsigned q = 0; q < kTlQueues; ++q) qs[q] = v[q];
}
// the IPv4 total length of a RoCE v2 ACKNOWLEDGE (IPv4 20 + UDP 8 + BTH 12 + AETH 4 +
// ICRC 4 bytes): a frame whose first beat carries it is counted as an ACK
constexpr unsigned kTlAckIpLen = 48;
constexpr unsigned kTlTpcs = TESSERA_DCORES * TESSERA_TPC_PER_DCORE;
// track indices: queue managers, engines (MME, TPC cluster, DMA), NIC port p's TX and
// RX, TPC cores
constexpr unsigned kTlEng = kTlQueues, kTlNic = kTlEng + kTlEngQueues, kTlTpc = kTlNic + 2u * kNic;
// counter series: HBM channel c read / write, Sync Manager writes, NIC port p's TX / RX
// bytes, its resent data frames
constexpr unsigned kTlCntSm = 2u * kCh, kTlCntNic = kTlCntSm + 1u, kTlCntRes = kTlCntNic + 2u * kNic,
                   kTlCnts = kTlCntRes + kNic;
// the L2 port (slice-major, as l2u_*) of NIC port p's memory master
constexpr unsigned tl_nic_l2u(unsigned p) {
  return (p % TESSERA_NUM_L2) * kAxL2Ports + 3u + kAxTpcPorts + p / TESSERA_NUM_L2;
}
std::string tl_queue_name(unsigned q) {
  if (q < TESSERA_NUM_MME) return "MME" + std::to_string(q);
  if (q == TESSERA_NUM_MME) return "TPC cluster";
  if (q < kTlEngQueues) return "DMA" + std::to_string(q - TESSERA_NUM_MME - 1u);
  return "NIC" + std::to_string(q - kTlEngQueues);
}
}  // namespace

void tsim::timeline_setup() {
  tl.reset(new tessera::Timeline);
  for (unsigned q = 0; q < kTlQueues; ++q)
    tl->add_track("QMAN " + tl_queue_name(q), {"packets", q < kTlEngQueues ? "engine barrier" : "work-request queue full",
                                              "fence wait", "WAIT packet"});
  for (unsigned q = 0; q < kTlEngQueues; ++q) tl->add_track(tl_queue_name(q), {"busy"});
  for (unsigned p = 0; p < kNic; ++p) {
    tl->add_track("NIC" + std::to_string(p) + " TX", {"data", "ACK", "data, wire busy", "ACK, wire busy"});
    tl->add_track("NIC" + std::to_string(p) + " RX", {"receiving", "receive held", "writing memory"});
  }
  for (unsigned p = 0; p < kTlTpcs; ++p) tl->add_track("TPC" + std::to_string(p), {"running"});
  for (unsigned c = 0; c < kCh; ++c) tl->add_counter("HBM ch" + std::to_string(c) + " beats %", {"read", "write"});
  tl->add_counter("Sync Manager object writes %", {"writes"});
  for (unsigned p = 0; p < kNic; ++p) tl->add_counter("NIC" + std::to_string(p) + " bytes/cycle", {"tx", "rx"}, 1.0);
  for (unsigned p = 0; p < kNic; ++p)
    tl->add_counter("NIC" + std::to_string(p) + " resent frames per window", {"resent"}, 1.0, true);
  tl->set_window(256);
  tl_state.assign(kTlTpc + kTlTpcs, 0);
  tl_cnt.assign(kTlCnts, 0);
  tl_tx_kind.assign(kNic, 0);
  tl_tx_beat.assign(kNic, 0);
  tl_psn.assign(kNic, {});
}

void tsim::timeline_sample() {
  auto* r = top->rootp;
  const Vtessera_top* t = top.get();
  uint8_t qs[kTlQueues];
  qman_states(r, qs);
  const uint32_t idle = uint32_t(r->tessera_sim_top__DOT__u_top__DOT__e_idle);
  const uint32_t tbusy = uint32_t(r->tessera_sim_top__DOT__u_top__DOT__u_tpc__DOT__c_busy);
  for (unsigned q = 0; q < kTlQueues; ++q) {
    // tessera_qman's states: 0 idle, 4 barrier check (waits while its engine is busy; a
    // NIC queue's "engine idle" is its port's work-request queue having room), 7 FENCE,
    // 8 WAIT; the others fetch and execute packets
    const uint8_t st = qs[q];
    const bool busy = !((idle >> q) & 1u);
    tl_state[q] = st == 0 ? 0 : st == 7 ? 3 : st == 8 ? 4 : (st == 4 && busy) ? 2 : 1;
    if (q < kTlEngQueues) tl_state[kTlEng + q] = busy;
  }
  for (unsigned p = 0; p < kNic; ++p) {
    const bool tv = (t->nic_tx_tvalid_o >> p) & 1u, tr = (t->nic_tx_tready_i >> p) & 1u;
    const bool rv = (t->nic_rx_tvalid_i >> p) & 1u, rr = (t->nic_rx_tready_o >> p) & 1u;
    // a frame's kind from its first beat: frame bytes 16-17 (word 4 of the beat), the
    // IPv4 total length, big-endian; kept until its last beat is taken
    uint8_t& kind = tl_tx_kind[p];
    if (tv && !kind) {
      const uint32_t w4 = getf(t->nic_tx_tdata_o, p * (kNicBeat / 4) + 4, 32);
      kind = ((w4 & 0xffu) << 8 | ((w4 >> 8) & 0xffu)) == kTlAckIpLen ? 2 : 1;
    }
    tl_state[kTlNic + 2 * p] = tv ? uint8_t(kind + (tr ? 0 : 2)) : 0;
    tl_cnt[kTlCntRes + p] = 0;
    if (tv && tr) {
      // a data frame's second beat holds the BTH's destination QP (frame bytes 47-49) and
      // PSN (51-53): not newer than the highest PSN sent to that QP is a resend
      if (tl_tx_beat[p] == 1 && kind == 1) {
        const unsigned w0 = p * (kNicBeat / 4);
        const uint32_t w3 = getf(t->nic_tx_tdata_o, w0 + 3, 32), w4 = getf(t->nic_tx_tdata_o, w0 + 4, 32),
                       w5 = getf(t->nic_tx_tdata_o, w0 + 5, 32);
        const uint32_t qp = (w3 >> 24) << 16 | (w4 & 0xffu) << 8 | ((w4 >> 8) & 0xffu);
        const uint32_t psn = (w4 >> 24) << 16 | (w5 & 0xffu) << 8 | ((w5 >> 8) & 0xffu);
        auto it = tl_psn[p].find(qp);
        if (it == tl_psn[p].end()) tl_psn[p][qp] = psn;
        else if (((psn - it->second) & 0xffffffu) - 1u < 0x800000u) it->second = psn;  // newer (24-bit serial)
        else tl_cnt[kTlCntRes + p] = 1;
      }
      tl_tx_beat[p] = ((t->nic_tx_tlast_o >> p) & 1u) ? 0 : tl_tx_beat[p] + 1u;
      if (!tl_tx_beat[p]) kind = 0;
    }
    tl_state[kTlNic + 2 * p + 1] =
        rv ? (rr ? 1 : 2) : getf(r->tessera_sim_top__DOT__u_top__DOT__l2u_wvalid, tl_nic_l2u(p), 1) ? 3 : 0;
    tl_cnt[kTlCntNic + 2 * p] = tv && tr ? unsigned(__builtin_popcount(getf(t->nic_tx_tkeep_o, p, 32))) : 0u;
    tl_cnt[kTlCntNic + 2 * p + 1] = rv && rr ? unsigned(__builtin_popcount(getf(t->nic_rx_tkeep_i, p, 32))) : 0u;
  }
  for (unsigned p = 0; p < kTlTpcs; ++p) tl_state[kTlTpc + p] = (tbusy >> p) & 1u;
  tl_cnt[kTlCntSm] = r->tessera_sim_top__DOT__u_top__DOT__u_syncmgr__DOT__sob_wr ? 1 : 0;
  tl->sample(cyc, tl_state.data(), tl_cnt.data());
}

bool tsim::timeline_write() {
  if (!tl) return true;
  if (tl_path.empty()) {  // a group member's, written by its group (tessera::timeline_write_group)
    tl.reset();
    return true;
  }
  const char* path = tl_path.c_str();
  const bool ok = tl->write(path, cyc, std::string("Tessera chip (") + TESSERA_CONFIG_NAME + ")");
  if (!ok)
    std::fprintf(stderr, "tsim: cannot write the timeline %s\n", path);
  else if (!opts.quiet)
    std::fprintf(stderr, "tsim: timeline %s: %llu events%s (ui.perfetto.dev or chrome://tracing; 1 ns = 1 cycle)\n",
                 path, (unsigned long long)tl->events(), tl->truncated() ? ", truncated" : "");
  tl.reset();
  return ok;
}

int tsim_timeline_open(tsim_t* s, const char* path) {
  if (!path || !path[0] || s->tl) {
    s->set_err("timeline: %s", s->tl ? "one is already open" : "no file name");
    return TSIM_EARG;
  }
  s->tl_path = path;
  s->timeline_setup();
  return TSIM_OK;
}

int tsim_timeline_close(tsim_t* s) {
  if (!s->tl) return TSIM_OK;
  if (s->timeline_write()) return TSIM_OK;
  s->set_err("timeline: cannot write %s", s->tl_path.c_str());
  return TSIM_EIO;
}

extern "C++" {
namespace tessera {
bool timeline_recording(const tsim_t* s) { return s->tl != nullptr; }

void timeline_record(tsim_t* s) {
  if (s->tl) return;
  s->tl_path.clear();
  s->timeline_setup();
}

bool timeline_write_group(tsim_t* const* chips, const int64_t* shift, unsigned n) {
  if (!n || !chips[0]->tl || chips[0]->tl_path.empty()) return true;
  std::vector<Timeline::Member> mem;
  for (unsigned i = 0; i < n; ++i) {
    tsim_t* c = chips[i];
    if (!c->tl) continue;
    c->tl->finish(c->cyc);
    mem.push_back({c->tl.get(), "chip " + std::to_string(i), shift[i]});
  }
  const std::string& path = chips[0]->tl_path;
  const bool ok = Timeline::write_group(
      path, "Tessera, " + std::to_string(n) + " chips (" + std::string(TESSERA_CONFIG_NAME) + ")", mem);
  uint64_t ev = 0;
  bool cut = false;
  for (const Timeline::Member& m : mem) ev += m.tl->events(), cut = cut || m.tl->truncated();
  if (!ok)
    std::fprintf(stderr, "tsim: cannot write the timeline %s\n", path.c_str());
  else if (!chips[0]->opts.quiet)
    std::fprintf(stderr, "tsim: timeline %s: %u chips, %llu events%s (ui.perfetto.dev or chrome://tracing; 1 ns = 1 cycle)\n",
                 path.c_str(), unsigned(mem.size()), (unsigned long long)ev, cut ? ", truncated" : "");
  for (unsigned i = 0; i < n; ++i) chips[i]->tl.reset();
  return ok;
}
}  // namespace tessera
}

void tsim_probe(tsim_t* s, tsim_probe_t* p) {
  auto* r = s->top->rootp;
  // tessera_top's queue list: MME i, the TPC cluster, DMA d (see its "queue list")
  uint32_t sel = uint32_t(r->tessera_sim_top__DOT__u_top__DOT__q_psel), mask = 0;
  for (unsigned q = 0; q < TESSERA_NUM_MME + 1u + TESSERA_DMA_ENGINES; q++) {
    unsigned slot = q < TESSERA_NUM_MME    ? TESSERA_QMAN_SLOT_MME + q
                    : q == TESSERA_NUM_MME ? TESSERA_QMAN_SLOT_TPC
                                           : TESSERA_QMAN_SLOT_DMA + (q - TESSERA_NUM_MME - 1u);
    if ((sel >> q) & 1u) mask |= 1u << slot;
  }
  p->qman_eng_sel = mask;
  const uint32_t idle = uint32_t(r->tessera_sim_top__DOT__u_top__DOT__e_idle);
  uint8_t qs[kTlQueues];
  qman_states(r, qs);
  p->eng_idle = p->qman_busy = 0;
  for (unsigned q = 0; q < kTlQueues; q++) {
    unsigned slot = q < TESSERA_NUM_MME    ? TESSERA_QMAN_SLOT_MME + q
                    : q == TESSERA_NUM_MME ? TESSERA_QMAN_SLOT_TPC
                                           : TESSERA_QMAN_SLOT_DMA + (q - TESSERA_NUM_MME - 1u);
    if ((idle >> q) & 1u) p->eng_idle |= 1u << slot;
    if (qs[q] != 0) p->qman_busy |= 1u << slot;
  }
  p->sm_object_update = r->tessera_sim_top__DOT__u_top__DOT__u_syncmgr__DOT__sob_wr ? 1 : 0;
  for (unsigned d = 0; d < 4; d++) p->dma_rd_outst[d] = p->dma_buf_beats[d] = 0;
  p->dma_rd_outst[0]  = uint32_t(r->tessera_sim_top__DOT__u_top__DOT__g_dma__BRA__0__KET____DOT__u_dma__DOT__r_outst_q);
  p->dma_buf_beats[0] = uint32_t(r->tessera_sim_top__DOT__u_top__DOT__g_dma__BRA__0__KET____DOT__u_dma__DOT__count_q);
#if TESSERA_DMA_ENGINES > 1
  p->dma_rd_outst[1]  = uint32_t(r->tessera_sim_top__DOT__u_top__DOT__g_dma__BRA__1__KET____DOT__u_dma__DOT__r_outst_q);
  p->dma_buf_beats[1] = uint32_t(r->tessera_sim_top__DOT__u_top__DOT__g_dma__BRA__1__KET____DOT__u_dma__DOT__count_q);
#endif
}

}  // extern "C"

// ELF loading lives in tsim_elf.cpp; it needs the symbol table of this struct.
void tsim_set_symbols(tsim_t* s, std::unordered_map<std::string, uint32_t>&& syms) {
  s->syms = std::move(syms);
}
bool tsim_get_symbol(const tsim_t* s, const char* name, uint32_t* addr) {
  auto it = s->syms.find(name);
  if (it == s->syms.end()) return false;
  *addr = it->second;
  return true;
}
void tsim_set_error(tsim_t* s, const std::string& e) { s->err = e; }
