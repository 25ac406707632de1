// Engine-activity timeline of the chip simulator (simulation only, docs/sim.md
// "Timeline"): each track is a small state per cycle (0 = idle); runs of one
// state become Chrome/Perfetto "complete" events, and counters are averaged
// over fixed windows. Written as trace-event JSON that chrome://tracing and
// ui.perfetto.dev open, one process per chip (several chips of a multi-chip group
// in one file: Timeline::write_group). Time axis: 1 ns = 1 clock cycle.
#ifndef TSIM_TIMELINE_H
#define TSIM_TIMELINE_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

struct tsim;

namespace tessera {

class Timeline {
 public:
  // A track: its name and the names of its non-idle states (state s >= 1 is
  // names[s - 1]).
  unsigned add_track(const std::string& name, std::vector<std::string> states);
  // A counter series, one value per window: `scale` x the sum of the samples / the
  // window's cycles (100: percent of one sample per cycle; 1: per cycle), or with
  // per_window the sum itself.
  unsigned add_counter(const std::string& name, std::vector<std::string> series, double scale = 100.0,
                       bool per_window = false);
  void set_window(unsigned cycles) { window_ = cycles ? cycles : 1; }

  // Per cycle: the state of every track (in add_track order) and the samples of
  // every counter series (flattened in add_counter order).
  void sample(uint64_t cyc, const uint8_t* state, const uint32_t* counts);

  // Close open runs and the last window at `cyc` (once; later samples are ignored).
  void finish(uint64_t cyc);
  // finish(cyc) and write the JSON file, one process named `title`. false: cannot write.
  bool write(const std::string& path, uint64_t cyc, const std::string& title);
  // Several finished timelines in one file, member i as process i + 1 named name, its
  // cycles moved by `shift` (onto a common axis; runs before 0 are cut at 0).
  struct Member {
    const Timeline* tl;
    std::string name;
    int64_t shift;
  };
  static bool write_group(const std::string& path, const std::string& title, const std::vector<Member>& members);
  uint64_t events() const { return ev_.size(); }
  bool truncated() const { return dropped_ > 0; }

 private:
  struct Track {
    std::string name;
    std::vector<std::string> states;
    uint8_t cur = 0;
    uint64_t since = 0;
  };
  struct Counter {
    std::string name;
    std::vector<std::string> series;
    double scale = 100.0;
    bool per_window = false;
    unsigned first = 0;  // index of its first series in the flattened sums
  };
  struct Event {
    uint32_t track;
    uint8_t state;
    uint64_t start, end;
  };
  struct Window {
    uint64_t start;
    std::vector<uint64_t> sums;
  };
  void close_run(unsigned t, uint64_t cyc);
  void flush_window(uint64_t cyc);
  void put_events(FILE* f, unsigned pid, int64_t shift) const;

  std::vector<Track> tracks_;
  std::vector<Counter> counters_;
  unsigned nseries_ = 0;
  unsigned window_ = 256;
  std::vector<Event> ev_;
  std::vector<Window> win_;
  std::vector<uint64_t> acc_;
  uint64_t win_start_ = 0, last_ = 0, end_ = 0;
  bool started_ = false, finished_ = false;
  uint64_t dropped_ = 0;
  static constexpr size_t kMaxEvents = 4u << 20;  // about 100 MB of JSON
};

// Multi-chip groups (tsim_multi.cpp): whether a chip records a timeline; start recording
// one kept in memory (written only by its group); write the chips' timelines into chip
// 0's file, chip i as process "chip i" with its cycles moved by shift[i] onto chip 0's,
// and close them all. false: cannot write.
bool timeline_recording(const tsim* s);
void timeline_record(tsim* s);
bool timeline_write_group(tsim* const* chips, const int64_t* shift, unsigned n);

}  // namespace tessera

#endif
