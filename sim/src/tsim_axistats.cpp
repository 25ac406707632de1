// AXI port statistics (see tsim_axistats.h).
#include "tsim_axistats.h"

namespace tessera {

void AxiMonitor::sample(const AxiSample& s, uint64_t cyc) {
  ++cycles_;
  rd_open_sum_ += rd_open_n_;
  wr_open_sum_ += wr_open_n_;
  // read data first: a burst whose AR is accepted in this cycle cannot return data in it
  if (s.rv && s.rr) {
    ++r_;
    auto it = rd_open_.find(s.rid);
    if (it != rd_open_.end() && !it->second.empty()) {
      const uint64_t t0 = it->second.front();
      bool& started = rd_started_[s.rid];
      if (!started) {
        const uint64_t l = cyc - t0;
        rd_first_.add(l);
        ++rd_hist_[l < 16 ? 0 : l < 32 ? 1 : l < 48 ? 2 : l < 64 ? 3 : l < 96 ? 4 : 5];
        started = true;
      }
      if (s.rlast) {
        rd_last_.add(cyc - t0);
        it->second.pop_front();
        started = false;
        --rd_open_n_;
      }
    }
  } else if (s.rv) {
    ++r_stall_;
  }
  if (s.arv && s.arr) {
    ++ar_;
    rd_open_[s.arid].push_back(cyc);
    ++rd_open_n_;
  } else if (s.arv) {
    ++ar_stall_;
  }
  if (s.bv && s.br) {
    ++b_;
    auto it = wr_open_.find(s.bid);
    if (it != wr_open_.end() && !it->second.empty()) {
      wr_.add(cyc - it->second.front());
      it->second.pop_front();
      --wr_open_n_;
    }
  } else if (s.bv) {
    ++b_stall_;
  }
  if (s.awv && s.awr) {
    ++aw_;
    wr_open_[s.awid].push_back(cyc);
    ++wr_open_n_;
  } else if (s.awv) {
    ++aw_stall_;
  }
  if (s.wv && s.wr) ++w_;
  else if (s.wv) ++w_stall_;
}

void AxiMonitor::clear() {
  cycles_ = ar_ = ar_stall_ = r_ = r_stall_ = aw_ = aw_stall_ = 0;
  w_ = w_stall_ = b_ = b_stall_ = rd_open_sum_ = wr_open_sum_ = 0;
  rd_first_ = rd_last_ = wr_ = Lat();
  for (auto& h : rd_hist_) h = 0;
}

void AxiMonitor::print(FILE* f, const char* label) const {
  if (!cycles_ || (!ar_ && !aw_ && !r_ && !w_ && !b_)) return;
  const double c = double(cycles_);
  auto pct = [c](uint64_t v) { return 100.0 * double(v) / c; };
  std::fprintf(f, "AXISTATS %s %-10s", label, name_.c_str());
  if (ar_ || r_)
    std::fprintf(f,
                 " | AR %6llu stall %4.1f%% | R %6llu beats %4.1f%% of cycles, stall %4.1f%% | rd lat first %5.1f last %5.1f max %4llu, in flight %5.2f",
                 (unsigned long long)ar_, pct(ar_stall_), (unsigned long long)r_, pct(r_), pct(r_stall_),
                 rd_first_.avg(), rd_last_.avg(), (unsigned long long)rd_last_.max, double(rd_open_sum_) / c);
  if (rd_first_.n) {
    std::fprintf(f, " (first <16/32/48/64/96/more:");
    for (unsigned i = 0; i < kHist; ++i)
      std::fprintf(f, "%s%.0f%%", i ? "/" : " ", 100.0 * double(rd_hist_[i]) / double(rd_first_.n));
    std::fprintf(f, ")");
  }
  if (aw_ || w_ || b_)
    std::fprintf(f,
                 " | AW %6llu stall %4.1f%% | W %6llu beats %4.1f%%, stall %4.1f%% | B lat %5.1f max %4llu, in flight %5.2f, B stall %4.1f%%",
                 (unsigned long long)aw_, pct(aw_stall_), (unsigned long long)w_, pct(w_), pct(w_stall_), wr_.avg(),
                 (unsigned long long)wr_.max, double(wr_open_sum_) / c, pct(b_stall_));
  std::fprintf(f, "\n");
}

}  // namespace tessera
