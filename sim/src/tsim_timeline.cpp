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

unsigned Timeline::add_counter(const std::string& name, std::vector<std::string> series, double scale,
                               bool per_window) {
  Counter c;
  c.name = name;
  c.series = std::move(series);
  c.scale = scale;
  c.per_window = per_window;
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
  if (finished_) return;
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

void Timeline::finish(uint64_t cyc) {
  if (finished_) return;
  finished_ = true;
  end_ = cyc > last_ ? cyc : last_ + 1;
  if (!started_) return;
  for (unsigned t = 0; t < tracks_.size(); ++t) {
    close_run(t, cyc);
    tracks_[t].since = cyc;
  }
  flush_window(end_);
}

void Timeline::put_events(FILE* f, unsigned pid, int64_t shift) const {
  // a cycle moved onto the common axis (cut at 0)
  auto at = [shift](uint64_t c) { return int64_t(c) + shift > 0 ? uint64_t(int64_t(c) + shift) : uint64_t(0); };
  for (unsigned t = 0; t < tracks_.size(); ++t) {
    std::fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}}", pid,
                 t + 1, jstr(tracks_[t].name).c_str());
    std::fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%u}}",
                 pid, t + 1, t + 1);
  }
  for (const Event& e : ev_) {
    const uint64_t s = at(e.start), n = at(e.end);
    if (n <= s) continue;
    const Track& k = tracks_[e.track];
    const std::string& nm = e.state <= k.states.size() ? k.states[e.state - 1] : std::string("state");
    std::fprintf(f, ",\n{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"name\":\"%s\",\"ts\":", pid, e.track + 1,
                 jstr(nm).c_str());
    put_us(f, s);
    std::fprintf(f, ",\"dur\":");
    put_us(f, n - s);
    std::fprintf(f, ",\"args\":{\"start cycle\":%llu,\"cycles\":%llu}}", (unsigned long long)s,
                 (unsigned long long)(n - s));
  }
  // counters: per window, scale x samples per cycle (or the window's sum)
  for (size_t w = 0; w < win_.size(); ++w) {
    const uint64_t end = w + 1 < win_.size() ? win_[w + 1].start : end_;
    const uint64_t len = end > win_[w].start ? end - win_[w].start : 1;
    if (int64_t(win_[w].start) + shift < 0) continue;
    for (const Counter& c : counters_) {
      std::fprintf(f, ",\n{\"ph\":\"C\",\"pid\":%u,\"name\":\"%s\",\"ts\":", pid, jstr(c.name).c_str());
      put_us(f, at(win_[w].start));
      std::fprintf(f, ",\"args\":{");
      for (unsigned i = 0; i < c.series.size(); ++i) {
        const double sum = double(win_[w].sums[c.first + i]);
        std::fprintf(f, "%s\"%s\":%.*f", i ? "," : "", jstr(c.series[i]).c_str(), c.per_window ? 0 : 1,
                     c.per_window ? sum : c.scale * sum / double(len));
      }
      std::fprintf(f, "}}");
    }
  }
}

bool Timeline::write(const std::string& path, uint64_t cyc, const std::string& title) {
  finish(cyc);
  return write_group(path, title, {{this, title, 0}});
}

bool Timeline::write_group(const std::string& path, const std::string& title, const std::vector<Member>& members) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  uint64_t dropped = 0;
  for (const Member& m : members) dropped += m.tl->dropped_;
  std::fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"title\":\"%s\",\"time axis\":\"1 ns = 1 cycle\","
               "\"events dropped\":%llu},\n\"traceEvents\":[\n",
               jstr(title).c_str(), (unsigned long long)dropped);
  for (unsigned i = 0; i < members.size(); ++i) {
    std::fprintf(f, "%s{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_name\",\"args\":{\"name\":\"%s\"}}", i ? ",\n" : "",
                 i + 1, jstr(members[i].name).c_str());
    std::fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%u}}", i + 1,
                 i + 1);
  }
  for (unsigned i = 0; i < members.size(); ++i) members[i].tl->put_events(f, i + 1, members[i].shift);
  std::fprintf(f, "\n]}\n");
  bool ok = !std::ferror(f);
  return std::fclose(f) == 0 && ok;
}

}  // namespace tessera
