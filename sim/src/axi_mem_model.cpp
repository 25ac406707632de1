// Tessera AXI4 memory-slave model: implementation. See axi_mem_model.h.
#include "axi_mem_model.h"

#include <algorithm>
#include <cstring>

namespace tessera {

// ================================================================ SparseMem
uint8_t* SparseMem::page_for_write(uint64_t page) {
  if (page == last_page_) return last_ptr_;
  auto it = pages_.find(page);
  uint8_t* p;
  if (it == pages_.end()) {
    std::unique_ptr<uint8_t[]> fresh(new uint8_t[kPageBytes]);
    std::memset(fresh.get(), 0, kPageBytes);
    p = fresh.get();
    pages_.emplace(page, std::move(fresh));
  } else {
    p = it->second.get();
  }
  last_page_ = page;
  last_ptr_ = p;
  return p;
}

const uint8_t* SparseMem::page_for_read(uint64_t page) const {
  if (page == last_page_) return last_ptr_;
  auto it = pages_.find(page);
  if (it == pages_.end()) return nullptr;
  last_page_ = page;
  last_ptr_ = it->second.get();
  return last_ptr_;
}

void SparseMem::read(uint64_t addr, void* dst, size_t len) const {
  uint8_t* d = static_cast<uint8_t*>(dst);
  while (len) {
    uint64_t off = addr & (kPageBytes - 1);
    size_t n = std::min<uint64_t>(len, kPageBytes - off);
    const uint8_t* p = page_for_read(addr >> kPageBits);
    if (p) std::memcpy(d, p + off, n);
    else std::memset(d, 0, n);
    d += n;
    addr += n;
    len -= n;
  }
}

void SparseMem::write(uint64_t addr, const void* src, size_t len) {
  const uint8_t* s = static_cast<const uint8_t*>(src);
  while (len) {
    uint64_t off = addr & (kPageBytes - 1);
    size_t n = std::min<uint64_t>(len, kPageBytes - off);
    std::memcpy(page_for_write(addr >> kPageBits) + off, s, n);
    s += n;
    addr += n;
    len -= n;
  }
}

uint32_t SparseMem::read32(uint64_t addr) const {
  uint8_t b[4];
  read(addr, b, 4);
  return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
}

void SparseMem::write32(uint64_t addr, uint32_t v) {
  uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  write(addr, b, 4);
}

void SparseMem::write_strobed(uint64_t addr, const uint8_t* src, size_t len, uint64_t strobe) {
  for (size_t i = 0; i < len; ++i) {
    if (!((strobe >> i) & 1)) continue;
    // run of enabled bytes
    size_t j = i;
    while (j < len && ((strobe >> j) & 1)) ++j;
    write(addr + i, src + i, j - i);
    i = j;
  }
}

void SparseMem::clear() {
  pages_.clear();
  last_page_ = ~0ull;
  last_ptr_ = nullptr;
}

// ================================================================ AxiMemModel
static unsigned log2u(uint64_t v) {
  unsigned n = 0;
  while ((1ull << n) < v) ++n;
  return n;
}

AxiMemModel::AxiMemModel(const AxiMemConfig& cfg, SparseMem* mem) : cfg_(cfg) {
  if (cfg_.data_bytes < 4) cfg_.data_bytes = 4;
  if (cfg_.data_bytes > kAxiMaxDataBytes) cfg_.data_bytes = kAxiMaxDataBytes;
  if (cfg_.read_latency < 1) cfg_.read_latency = 1;
  if (cfg_.write_latency < 1) cfg_.write_latency = 1;
  if (cfg_.bytes_per_cycle < 1) cfg_.bytes_per_cycle = 1;
  if (cfg_.max_reads < 1) cfg_.max_reads = 1;
  if (cfg_.max_writes < 1) cfg_.max_writes = 1;
  if (cfg_.num_channels < 1) cfg_.num_channels = 1;
  il_shift_ = cfg_.interleave_bytes ? log2u(cfg_.interleave_bytes) : 0;
  if (mem) {
    mem_ = mem;
  } else {
    own_.reset(new SparseMem());
    mem_ = own_.get();
  }
}

void AxiMemModel::set_read_latency(unsigned cycles) { cfg_.read_latency = cycles ? cycles : 1; }
void AxiMemModel::set_bytes_per_cycle(unsigned bytes) { cfg_.bytes_per_cycle = bytes ? bytes : 1; }
void AxiMemModel::set_row_model(unsigned banks, unsigned row_bytes, unsigned row_miss_cycles) {
  cfg_.banks = banks;
  cfg_.row_bytes = row_bytes ? row_bytes : 1;
  cfg_.row_miss_cycles = row_miss_cycles;
  open_row_.assign(banks, 0);
}

unsigned AxiMemModel::open_row_penalty(uint64_t addr) {
  if (cfg_.banks == 0) return 0;
  if (open_row_.size() != cfg_.banks) open_row_.assign(cfg_.banks, 0);
  const uint64_t row = addr / cfg_.row_bytes;
  uint64_t& open = open_row_[row % cfg_.banks];
  if (open == row + 1) return 0;
  open = row + 1;
  ++cnt_.row_misses;
  return cfg_.row_miss_cycles;
}

bool AxiMemModel::idle() const { return rq_.empty() && wq_.empty() && bq_.empty() && ew_.empty(); }

void AxiMemModel::reset(AxiMemPort& p) {
  rq_.clear();
  wq_.clear();
  bq_.clear();
  ew_.clear();
  r_presented_ = false;
  prefer_w_ = false;
  credit_ = 0;
  open_row_.assign(cfg_.banks, 0);
  p.awready = p.wready = p.arready = false;
  p.bvalid = p.rvalid = p.rlast = false;
  p.bid = p.rid = 0;
  p.bresp = p.rresp = 0;
  std::memset(p.rdata, 0, sizeof p.rdata);
}

uint64_t AxiMemModel::beat_addr(const Burst& b, unsigned i) const {
  if (b.burst == kAxiBurstFixed || i == 0) return b.addr;
  uint64_t bytes = 1ull << b.size;
  return (b.addr & ~(bytes - 1)) + uint64_t(i) * bytes;
}

unsigned axi_mem_channel(uint64_t addr, unsigned il_shift, unsigned num_channels, bool hash) {
  uint32_t g = uint32_t(addr >> il_shift);
  if (!hash) return g % num_channels;
  unsigned bits = 0;
  while ((1u << bits) < num_channels) ++bits;
  if (bits == 0) return 0;
  uint32_t c = 0;
  for (unsigned k = 0; k < 32; k += bits) c ^= g >> k;
  return c & (num_channels - 1);
}

uint8_t AxiMemModel::check_addr(uint64_t addr, unsigned size) const {
  uint64_t bytes = 1ull << size;
  uint64_t aligned = addr & ~(bytes - 1);
  if (aligned < cfg_.base || aligned + bytes > cfg_.base + cfg_.size) return kAxiDecErr;
  if (cfg_.interleave_bytes && axi_mem_channel(aligned, il_shift_, cfg_.num_channels, cfg_.channel_hash) != cfg_.channel)
    return kAxiDecErr;
  return kAxiOkay;
}

void AxiMemModel::fill_rbeat(AxiMemPort& p, Burst& b) {
  const unsigned db = cfg_.data_bytes;
  uint64_t a = beat_addr(b, b.beat);
  uint8_t resp = b.resp != kAxiOkay ? b.resp : check_addr(a, b.size);
  uint8_t buf[kAxiMaxDataBytes];
  if (resp == kAxiOkay) mem_->read(a & ~uint64_t(db - 1), buf, db);
  else std::memset(buf, 0, db);
  for (unsigned w = 0; w < db / 4; ++w)
    p.rdata[w] = uint32_t(buf[4 * w]) | uint32_t(buf[4 * w + 1]) << 8 |
                 uint32_t(buf[4 * w + 2]) << 16 | uint32_t(buf[4 * w + 3]) << 24;
  p.rid = b.id;
  p.rresp = resp;
  p.rlast = (b.beat + 1 == b.len);
  p.rvalid = true;
}

void AxiMemModel::do_wbeat(const uint32_t* wdata, uint32_t wstrb, Burst& b) {
  const unsigned db = cfg_.data_bytes;
  uint64_t a = beat_addr(b, b.beat);
  uint8_t resp = b.resp != kAxiOkay ? b.resp : check_addr(a, b.size);
  if (resp != kAxiOkay) {
    b.resp = resp;
    return;
  }
  uint64_t bytes = 1ull << b.size;
  unsigned lo = unsigned(a & (db - 1));
  unsigned hi = unsigned(((a & ~(bytes - 1)) & (db - 1)) + bytes);  // exclusive
  uint64_t lanes = (hi >= 64 ? ~0ull : ((1ull << hi) - 1)) & ~((1ull << lo) - 1);
  uint64_t strobe = uint64_t(wstrb) & lanes;
  if (!strobe) return;
  uint8_t buf[kAxiMaxDataBytes];
  for (unsigned w = 0; w < db / 4; ++w) {
    buf[4 * w] = uint8_t(wdata[w]);
    buf[4 * w + 1] = uint8_t(wdata[w] >> 8);
    buf[4 * w + 2] = uint8_t(wdata[w] >> 16);
    buf[4 * w + 3] = uint8_t(wdata[w] >> 24);
  }
  mem_->write_strobed(a & ~uint64_t(db - 1), buf, db, strobe);
  cnt_.bytes_written += uint64_t(__builtin_popcountll(strobe));
}

void AxiMemModel::take_wbeat(const uint32_t* wdata, uint32_t wstrb, bool wlast) {
  Burst& b = wq_.front();
  do_wbeat(wdata, wstrb, b);
  ++b.beat;
  const bool last_beat = (b.beat == b.len);
  if (last_beat != wlast && b.resp == kAxiOkay) b.resp = kAxiSlvErr;  // WLAST mismatch
  if (last_beat || wlast) {
    b.ready_at = now_ + cfg_.write_latency;
    if (b.resp == kAxiDecErr) ++cnt_.decerr;
    else if (b.resp == kAxiSlvErr) ++cnt_.slverr;
    bq_.push_back(b);
    wq_.pop_front();
  }
}

void AxiMemModel::tick(AxiMemPort& p) {
  ++now_;
  ++cnt_.cycles;
  const unsigned db = cfg_.data_bytes;
  const int64_t cap = std::max<int64_t>(cfg_.bytes_per_cycle, 2 * int64_t(db));

  const bool aw_hs = p.awvalid && p.awready;
  const bool w_hs = p.wvalid && p.wready;
  const bool ar_hs = p.arvalid && p.arready;
  const bool b_hs = p.bvalid && p.bready;
  const bool r_hs = p.rvalid && p.rready;

  // Fast path: nothing in flight and nothing arriving.
  if (!aw_hs && !w_hs && !ar_hs && rq_.empty() && wq_.empty() && bq_.empty() && ew_.empty()) {
    credit_ = cap;
    p.awready = true;
    p.arready = true;
    p.wready = true;
    p.bvalid = false;
    p.rvalid = false;
    return;
  }
  ++cnt_.busy_cycles;

  // ---- handshakes of this cycle
  if (r_hs) {
    Burst& b = rq_.front();
    if (p.rresp == kAxiOkay) cnt_.bytes_read += 1ull << b.size;
    credit_ -= db;
    if (++b.beat == b.len) rq_.pop_front();
    r_presented_ = false;
  }
  if (b_hs) bq_.pop_front();
  if (w_hs) {
    credit_ -= db;
    if (wq_.empty()) {
      EarlyW e;
      std::copy(p.wdata, p.wdata + kAxiMaxDataWords, e.data);
      e.strb = p.wstrb;
      e.last = p.wlast;
      ew_.push_back(e);
    } else {
      take_wbeat(p.wdata, p.wstrb, p.wlast);
    }
  }
  if (aw_hs) {
    Burst b{p.awid, p.awaddr, unsigned(p.awlen) + 1u, p.awsize, p.awburst, 0, 0, kAxiOkay};
    if (b.burst != kAxiBurstIncr && b.burst != kAxiBurstFixed) b.resp = kAxiSlvErr;
    if ((1u << b.size) > db) b.resp = kAxiSlvErr;
    ++cnt_.write_bursts;
    open_row_penalty(b.addr);
    wq_.push_back(b);
  }
  // early W beats go into their bursts as the AWs arrive (W order = AW order)
  while (!ew_.empty() && !wq_.empty()) {
    take_wbeat(ew_.front().data, ew_.front().strb, ew_.front().last);
    ew_.pop_front();
  }
  if (ar_hs) {
    Burst b{p.arid, p.araddr, unsigned(p.arlen) + 1u, p.arsize, p.arburst, 0,
            now_ + cfg_.read_latency, kAxiOkay};
    if (b.burst != kAxiBurstIncr && b.burst != kAxiBurstFixed) b.resp = kAxiSlvErr;
    if ((1u << b.size) > db) b.resp = kAxiSlvErr;
    // Whole-burst address check so the counters see one error per burst.
    if (b.resp == kAxiOkay) {
      for (unsigned i = 0; i < b.len; ++i)
        if (check_addr(beat_addr(b, i), b.size) != kAxiOkay) {
          ++cnt_.decerr;
          break;
        }
    } else {
      ++cnt_.slverr;
    }
    ++cnt_.read_bursts;
    b.ready_at += open_row_penalty(b.addr);
    rq_.push_back(b);
  }

  credit_ = std::min<int64_t>(credit_ + cfg_.bytes_per_cycle, cap);

  // ---- outputs for the next cycle
  p.awready = (wq_.size() + bq_.size()) < cfg_.max_writes;
  p.arready = rq_.size() < cfg_.max_reads;

  if (!bq_.empty() && bq_.front().ready_at <= now_ + 1) {
    p.bvalid = true;
    p.bid = bq_.front().id;
    p.bresp = bq_.front().resp;
  } else {
    p.bvalid = false;
  }

  int64_t avail = credit_;
  if (r_presented_) avail -= db;  // held beat keeps its reservation
  const bool r_want = !r_presented_ && !rq_.empty() && rq_.front().ready_at <= now_ + 1;
  const bool w_want = !wq_.empty();
  bool r_go = false, w_go = false;
  if (r_want && w_want && avail < 2 * int64_t(db)) {
    if (avail >= int64_t(db)) {
      if (prefer_w_) w_go = true;
      else r_go = true;
      prefer_w_ = !prefer_w_;
    }
  } else {
    r_go = r_want && avail >= int64_t(db);
    w_go = w_want && avail - (r_go ? int64_t(db) : 0) >= int64_t(db);
  }
  if (r_go) {
    fill_rbeat(p, rq_.front());
    r_presented_ = true;
  } else if (!r_presented_) {
    p.rvalid = false;
  }
  // room for a W beat ahead of its AW: only with the bandwidth left over (an expected
  // beat never takes a cycle from a read)
  if (!w_go && !w_want && ew_.size() < kEarlyWBeats)
    w_go = avail - (r_go ? int64_t(db) : 0) >= int64_t(db);
  p.wready = w_go;
}

}  // namespace tessera
