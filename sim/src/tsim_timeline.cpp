// Engine-activity timeline: see tsim_timeline.h and docs/sim.md "Timeline".
#include "tsim_timeline.h"

namespace tessera {

unsigned Timeline::add_track(const std::string& name, std::vector<std::string> states) {
  Track t;
  t.name = name;
  t.states = std::move(states);
  tracks_.push_back(std::move(t));
  return unsigned(tracks_.size() - 1);
}

unsigned Timeline::add_counter(const std::string& name, std::vector<std::string> series) {
  Counter c;
  c.name = name;
  c.series = std::move(series);
  c.first = nseries_;
  nseries_ += unsigned(c.series.size());
  counters_.push_back(std::move(c));
  acc_.assign(nseries_, 0);
  return unsigned(counters_.size() - 1);
}

void Timeline::close_run(unsigned t, uint64_t cyc) {
  Track& k = tracks_[t];
  if (k.cur && cyc > k.since) {
    if (ev_.size() < kMaxEvents) ev_.push_back({t, k.cur, k.since, cyc});
    else ++dropped_;
  }
}

void Timeline::flush_window(uint64_t cyc) {
  if (!nseries_ || cyc <= win_start_) return;
  win_.push_back({win_start_, acc_});
  acc_.assign(nseries_, 0);
  win_start_ = cyc;
}

void Timeline::sample(uint64_t cyc, const uint8_t* state, const uint32_t* counts) {
  if (!started_) {
    started_ = true;
    win_start_ = cyc;
    for (Track& k : tracks_) k.since = cyc;
  }
  for (unsigned t = 0; t < tracks_.size(); ++t) {
    Track& k = tracks_[t];
    if (state[t] != k.cur) {
      close_run(t, cyc);
      k.cur = state[t];
      k.since = cyc;
    }
  }
  if (nseries_) {
    if (cyc - win_start_ >= window_) flush_window(cyc);
    for (unsigned i = 0; i < nseries_; ++i) acc_[i] += counts[i];
  }
  last_ = cyc;
}

namespace {
// JSON string body (names are ASCII identifiers and spaces; escape anyway)
std::string jstr(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o;
}
// cycles -> trace-event microseconds, 1 cycle = 1 ns
void put_us(FILE* f, uint64_t cyc) { std::fprintf(f, "%llu.%03u", (unsigned long long)(cyc / 1000), unsigned(cyc % 1000)); }
}  // namespace

bool Timeline::write(const std::string& path, uint64_t cyc, const std::string& title) {
  if (started_) {
    for (unsigned t = 0; t < tracks_.size(); ++t) {
      close_run(t, cyc);
      tracks_[t].since = cyc;
    }
    flush_window(cyc > last_ ? cyc : last_ + 1);
  }
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  std::fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"title\":\"%s\",\"time axis\":\"1 ns = 1 cycle\","
               "\"events dropped\":%llu},\n\"traceEvents\":[\n",
               jstr(title).c_str(), (unsigned long long)dropped_);
  std::fprintf(f, "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"%s\"}}", jstr(title).c_str());
  for (unsigned t = 0; t < tracks_.size(); ++t) {
    std::fprintf(f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}}", t + 1,
                 jstr(tracks_[t].name).c_str());
    std::fprintf(f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%u}}",
                 t + 1, t + 1);
  }
  for (const Event& e : ev_) {
    const Track& k = tracks_[e.track];
    const std::string& n = e.state <= k.states.size() ? k.states[e.state - 1] : std::string("state");
    std::fprintf(f, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"name\":\"%s\",\"ts\":", e.track + 1, jstr(n).c_str());
    put_us(f, e.start);
    std::fprintf(f, ",\"dur\":");
    put_us(f, e.end - e.start);
    std::fprintf(f, ",\"args\":{\"start cycle\":%llu,\"cycles\":%llu}}", (unsigned long long)e.start,
                 (unsigned long long)(e.end - e.start));
  }
  // counters: per window, percent of one sample per cycle
  for (size_t w = 0; w < win_.size(); ++w) {
    uint64_t end = w + 1 < win_.size() ? win_[w + 1].start : (cyc > last_ ? cyc : last_ + 1);
    uint64_t len = end > win_[w].start ? end - win_[w].start : 1;
    for (const Counter& c : counters_) {
      std::fprintf(f, ",\n{\"ph\":\"C\",\"pid\":1,\"name\":\"%s\",\"ts\":", jstr(c.name).c_str());
      put_us(f, win_[w].start);
      std::fprintf(f, ",\"args\":{");
      for (unsigned i = 0; i < c.series.size(); ++i)
        std::fprintf(f, "%s\"%s\":%.1f", i ? "," : "", jstr(c.series[i]).c_str(),
                     100.0 * double(win_[w].sums[c.first + i]) / double(len));
      std::fprintf(f, "}}");
    }
  }
  std::fprintf(f, "\n]}\n");
  bool ok = !std::ferror(f);
  return std::fclose(f) == 0 && ok;
}

}  // namespace tessera
