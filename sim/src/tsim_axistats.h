// AXI port statistics of the chip simulator (simulation only, docs/sim.md "AXI port
// statistics"): per monitored AXI port, per cycle, the handshakes and stalls of the
// five channels, the latency of each read burst (AR handshake to its first and last R
// beat, matched per ID in order) and of each write burst (AW handshake to B), and the
// bursts in flight. Enabled by `chip_tb --axi-stats`; benches print one table per run.
#ifndef TSIM_AXISTATS_H
#define TSIM_AXISTATS_H

#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera {

// One cycle of an AXI port: valid/ready of each channel, the IDs and last flags.
struct AxiSample {
  bool arv = false, arr = false, rv = false, rr = false, rlast = false;
  bool awv = false, awr = false, wv = false, wr = false, wlast = false, bv = false, br = false;
  uint32_t arid = 0, rid = 0, awid = 0, bid = 0;
};

class AxiMonitor {
 public:
  explicit AxiMonitor(std::string name) : name_(std::move(name)) {}
  void sample(const AxiSample& s, uint64_t cyc);
  void clear();  // counters only; bursts in flight stay tracked
  // One line; nothing when the port moved nothing since the last clear.
  void print(FILE* f, const char* label) const;
  const std::string& name() const { return name_; }
  // counts since the last clear: bursts / beats per channel, mean latencies (cycles)
  uint64_t ar() const { return ar_; }
  uint64_t r() const { return r_; }
  uint64_t aw() const { return aw_; }
  uint64_t w() const { return w_; }
  uint64_t b() const { return b_; }
  double rd_first() const { return rd_first_.avg(); }
  double rd_last() const { return rd_last_.avg(); }
  double wr_lat() const { return wr_.avg(); }

 private:
  struct Lat {
    uint64_t n = 0, sum = 0, max = 0;
    void add(uint64_t v) {
      ++n;
      sum += v;
      if (v > max) max = v;
    }
    double avg() const { return n ? double(sum) / double(n) : 0.0; }
  };
  std::string name_;
  uint64_t cycles_ = 0;
  uint64_t ar_ = 0, ar_stall_ = 0, r_ = 0, r_stall_ = 0, aw_ = 0, aw_stall_ = 0;
  uint64_t w_ = 0, w_stall_ = 0, b_ = 0, b_stall_ = 0, rd_open_sum_ = 0, wr_open_sum_ = 0;
  Lat rd_first_, rd_last_, wr_;
  // first-beat read latency histogram: < 16, < 32, < 48, < 64, < 96, >= 96 cycles
  static constexpr unsigned kHist = 6;
  uint64_t rd_hist_[kHist] = {};
  // per ID: AR handshake cycles of the bursts whose data has not ended, and whether
  // the oldest has had its first beat
  std::unordered_map<uint32_t, std::deque<uint64_t>> rd_open_, wr_open_;
  std::unordered_map<uint32_t, bool> rd_started_;
  uint64_t rd_open_n_ = 0, wr_open_n_ = 0;
};

}  // namespace tessera

#endif
