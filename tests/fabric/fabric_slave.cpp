// Stress AXI4 memory slave: see fabric_slave.h.
#include "fabric_slave.h"

#include <cstring>

namespace fab {

void StressSlave::check(const char* ch, uint32_t id, uint64_t addr, unsigned len, unsigned size) {
  unsigned shift = 0;
  while ((1u << shift) < cfg_.interleave) ++shift;
  if (tessera::axi_mem_channel(addr, shift, cfg_.num_channels, cfg_.hash) != cfg_.channel)
    (*err_)("channel %u: %s addr 0x%08llx misrouted", cfg_.channel, ch, (unsigned long long)addr);
  uint64_t off = addr & (cfg_.interleave - 1);
  if (off + (uint64_t(len) << size) > cfg_.interleave)
    (*err_)("channel %u: %s addr 0x%08llx len %u crosses the interleave granule", cfg_.channel, ch,
            (unsigned long long)addr, len);
  if ((id >> cfg_.id_master_shift) >= cfg_.num_masters)
    (*err_)("channel %u: %s id 0x%x names no master", cfg_.channel, ch, id);
  if ((1u << size) != cfg_.data_bytes)
    (*err_)("channel %u: %s size %u is not the bus width", cfg_.channel, ch, size);
}

void StressSlave::tick(tessera::AxiMemPort& p) {
  ++now_;
  const unsigned db = cfg_.data_bytes;
  // ---- handshakes of this cycle
  if (p.awvalid && p.awready) {
    check("AW", p.awid, p.awaddr, p.awlen + 1u, p.awsize);
    wq_.push_back(Burst{p.awid, p.awaddr, p.awlen + 1u, 0, 0});
  }
  if (p.wvalid && p.wready) {
    Burst& b = wq_.front();
    uint8_t buf[32];
    for (unsigned w = 0; w < db / 4; ++w) std::memcpy(buf + 4 * w, &p.wdata[w], 4);
    uint64_t a = (b.addr & ~uint64_t(db - 1)) + uint64_t(b.beat) * db;
    mem_->write_strobed(a, buf, db, p.wstrb);
    ++w_beats;
    ++b.beat;
    bool last = b.beat == b.len;
    if (last != p.wlast)
      (*err_)("channel %u: W id 0x%x beat %u wlast=%d expected %d", cfg_.channel, b.id, b.beat - 1,
              int(p.wlast), int(last));
    if (last || p.wlast) {
      b.ready_at = now_ + 1 + rng_.below(cfg_.max_lat);
      bq_.push_back(b);
      wq_.pop_front();
    }
  }
  if (p.arvalid && p.arready) {
    check("AR", p.arid, p.araddr, p.arlen + 1u, p.arsize);
    rd_.push_back(Burst{p.arid, p.araddr, p.arlen + 1u, 0, now_ + 1 + rng_.below(cfg_.max_lat)});
  }
  if (p.rvalid && p.rready) {
    ++r_beats;
    rshown_ = false;
    if (++rcur_b_.beat == rcur_b_.len) rcur_ = false;
  }
  if (p.bvalid && p.bready) {
    bq_.erase(bq_.begin() + long(bsel_));
    bshown_ = false;
  }

  // ---- outputs for the next cycle
  p.awready = (wq_.size() + bq_.size()) < cfg_.max_out && rng_.chance(cfg_.p_awready);
  p.arready = (rd_.size() + (rcur_ ? 1 : 0)) < cfg_.max_out && rng_.chance(cfg_.p_arready);
  p.wready = !wq_.empty() && rng_.chance(cfg_.p_wready);

  // R: pick a new burst among the oldest pending burst of every ID
  if (!rcur_) {
    std::vector<size_t> cand;
    for (size_t i = 0; i < rd_.size(); ++i) {
      bool older_same = false;
      for (size_t j = 0; j < i; ++j) older_same |= rd_[j].id == rd_[i].id;
      if (!older_same && rd_[i].ready_at <= now_) cand.push_back(i);
    }
    if (!cand.empty()) {
      size_t k = cand[rng_.below(unsigned(cand.size()))];
      rcur_b_ = rd_[k];
      rd_.erase(rd_.begin() + long(k));
      rcur_ = true;
    }
  }
  if (rcur_ && !rshown_ && rng_.chance(cfg_.p_rbeat)) {
    uint8_t buf[32];
    uint64_t a = (rcur_b_.addr & ~uint64_t(db - 1)) + uint64_t(rcur_b_.beat) * db;
    mem_->read(a, buf, db);
    for (unsigned w = 0; w < db / 4; ++w) std::memcpy(&p.rdata[w], buf + 4 * w, 4);
    p.rid = rcur_b_.id;
    p.rresp = 0;
    p.rlast = rcur_b_.beat + 1 == rcur_b_.len;
    rshown_ = true;
  }
  p.rvalid = rshown_;

  // B: oldest pending B of a randomly chosen ID
  if (!bshown_ && rng_.chance(cfg_.p_b)) {
    std::vector<size_t> cand;
    for (size_t i = 0; i < bq_.size(); ++i) {
      bool older_same = false;
      for (size_t j = 0; j < i; ++j) older_same |= bq_[j].id == bq_[i].id;
      if (!older_same && bq_[i].ready_at <= now_) cand.push_back(i);
    }
    if (!cand.empty()) {
      bsel_ = cand[rng_.below(unsigned(cand.size()))];
      p.bid = bq_[bsel_].id;
      p.bresp = 0;
      bshown_ = true;
    }
  }
  p.bvalid = bshown_;
}

}  // namespace fab
