// Several chips in lockstep joined by link models (sim/include/tessera_multi.h,
// docs/nic.md "Multi-chip simulation").
//
// Every member carries the group's cycle hook (tsim_set_cycle_hook). When a member ends a
// cycle outside the group's own stepping, the hook steps every other member one cycle
// (their hooks see `busy` and return), then moves frames: the NIC's TX callback has
// already handed each frame a port ended in this cycle to its link; links with a frame
// due give it to the receive queue of the port at the other end, and every port's
// tx_tready follows its link's wire (low while the previous frame is being serialized).
#include "tessera_multi.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "tessera_cfg.h"
#include "tsim_timeline.h"

namespace {
constexpr uint32_t kMaxFrame = 16384;
}

struct tsim_multi {
  struct Dir {  // one link direction: port sp of chip src -> port dp of chip dst
    unsigned src, sp, dst, dp;
    tsim_link_t* link = nullptr;
    tsim_pcap_t* pcap = nullptr;
    int ready = 1;  // tx_tready last driven on the source port
  };
  std::vector<tsim_t*> chips;
  std::vector<Dir> dirs;
  std::vector<int> out;  // chips * ports: index into dirs of the port's outgoing link, -1
  uint64_t now = 0;
  bool busy = false;
  int lim = TSIM_OK;  // a member hit its cycle limit during a group cycle
  std::vector<uint8_t> buf = std::vector<uint8_t>(kMaxFrame);
  // chip 0 recorded a timeline when it joined: every member records one, written as one
  // file (a process per chip) when the group is freed; per chip, its cycle count minus
  // chip 0's when it joined (the chips run in lockstep from then on)
  bool timeline = false;
  std::vector<int64_t> tl_shift;

  int dir_of(unsigned chip, unsigned port) const {
    const unsigned np = tsim_nic_ports();
    return chip < chips.size() && port < np ? out[chip * np + port] : -1;
  }
  unsigned index_of(const tsim_t* s) const {
    for (unsigned i = 0; i < chips.size(); ++i)
      if (chips[i] == s) return i;
    return ~0u;
  }
  void move_frames();
};

void tsim_multi::move_frames() {
  for (Dir& d : dirs) {
    if (tsim_link_next_arrival(d.link) <= now) {
      uint32_t len = 0;
      uint64_t at = 0;
      while (tsim_link_recv(d.link, now, buf.data(), kMaxFrame, &len, &at))
        tsim_nic_rx_push(chips[d.dst], d.dp, buf.data(), len);
    }
    const int r = tsim_link_free_at(d.link) <= now + 1;
    if (r != d.ready) {
      d.ready = r;
      tsim_nic_tx_ready(chips[d.src], d.sp, r);
    }
  }
}

extern "C" {

static void multi_tx(tsim_t* s, unsigned port, const uint8_t* frame, uint32_t len, void* ctx) {
  tsim_multi* m = static_cast<tsim_multi*>(ctx);
  const int k = m->dir_of(m->index_of(s), port);
  if (k < 0) return;  // an unconnected port: its frames go nowhere, as on an open socket
  tsim_link_send(m->dirs[size_t(k)].link, m->now, frame, len);
}

static void multi_hook(tsim_t* s, void* ctx) {
  tsim_multi* m = static_cast<tsim_multi*>(ctx);
  if (m->busy) return;
  m->busy = true;
  for (tsim_t* c : m->chips)
    if (c != s) {
      const int rc = tsim_step(c, 1);
      if (rc != TSIM_OK) m->lim = rc;
    }
  ++m->now;
  m->move_frames();
  m->busy = false;
}

tsim_multi_t* tsim_multi_new(void) { return new tsim_multi(); }

void tsim_multi_free(tsim_multi_t* m) {
  if (!m) return;
  if (m->timeline) tessera::timeline_write_group(m->chips.data(), m->tl_shift.data(), unsigned(m->chips.size()));
  for (tsim_t* c : m->chips) {
    tsim_set_cycle_hook(c, nullptr, nullptr);
    tsim_nic_on_tx(c, nullptr, nullptr);
  }
  for (auto& d : m->dirs) {
    tsim_link_free(d.link);
    if (d.pcap) tsim_pcap_close(d.pcap);
  }
  delete m;
}

int tsim_multi_add(tsim_multi_t* m, tsim_t* chip) {
  if (!m || !chip || m->index_of(chip) != ~0u) return TSIM_EARG;
  m->chips.push_back(chip);
  if (m->chips.size() == 1) m->timeline = tessera::timeline_recording(chip);
  else if (m->timeline) tessera::timeline_record(chip);
  m->tl_shift.push_back(int64_t(tsim_cycles(m->chips[0])) - int64_t(tsim_cycles(chip)));
  m->out.resize(m->chips.size() * tsim_nic_ports(), -1);
  tsim_set_cycle_hook(chip, multi_hook, m);
  tsim_nic_on_tx(chip, multi_tx, m);
  return int(m->chips.size() - 1);
}

unsigned tsim_multi_count(const tsim_multi_t* m) { return unsigned(m->chips.size()); }
tsim_t* tsim_multi_chip(const tsim_multi_t* m, unsigned i) {
  return i < m->chips.size() ? m->chips[i] : nullptr;
}
uint64_t tsim_multi_cycles(const tsim_multi_t* m) { return m->now; }

int tsim_nic_connect(tsim_multi_t* m, unsigned a, unsigned pa, unsigned b, unsigned pb,
                     const tsim_link_cfg_t* cfg) {
  const unsigned np = tsim_nic_ports();
  if (!m || a >= m->chips.size() || b >= m->chips.size() || pa >= np || pb >= np ||
      (a == b && pa == pb) || m->out[a * np + pa] >= 0 || m->out[b * np + pb] >= 0)
    return TSIM_EARG;
  tsim_link_cfg_t c;
  if (cfg) c = *cfg;
  else tsim_link_cfg_default(&c);
  for (int k = 0; k < 2; ++k) {
    tsim_multi::Dir d;
    d.src = k ? b : a, d.sp = k ? pb : pa, d.dst = k ? a : b, d.dp = k ? pa : pb;
    tsim_link_cfg_t ck = c;
    ck.seed = c.seed + uint64_t(k);
    d.link = tsim_link_new(&ck);
    if (!d.link) return TSIM_EARG;
    m->out[d.src * np + d.sp] = int(m->dirs.size());
    m->dirs.push_back(d);
  }
  return TSIM_OK;
}

int tsim_multi_topology(tsim_multi_t* m, const char* name, const tsim_link_cfg_t* cfg) {
  const unsigned n = unsigned(m->chips.size()), np = tsim_nic_ports();
  tsim_link_cfg_t c;
  if (cfg) c = *cfg;
  else tsim_link_cfg_default(&c);
  const uint64_t seed = c.seed;
  unsigned k = 0;  // connection index
  auto con = [&](unsigned a, unsigned pa, unsigned b, unsigned pb) {
    c.seed = seed + 2u * uint64_t(k++);
    return tsim_nic_connect(m, a, pa, b, pb, &c);
  };
  if (!std::strcmp(name, "pair")) {
    if (n < 2 || n % 2 || np < 1) return TSIM_EARG;
    for (unsigned i = 0; i < n; i += 2)
      for (unsigned p = 0; p < np; ++p)
        if (con(i, p, i + 1, p) != TSIM_OK) return TSIM_EARG;
    return TSIM_OK;
  }
  if (!std::strcmp(name, "ring")) {
    if (n < 2 || np < 2) return TSIM_EARG;
    for (unsigned i = 0; i < n; ++i)
      if (con(i, 0, (i + 1) % n, 1) != TSIM_OK) return TSIM_EARG;
    return TSIM_OK;
  }
  if (!std::strcmp(name, "full")) {
    if (n < 2 || n - 1 > np) return TSIM_EARG;
    for (unsigned i = 0; i < n; ++i)
      for (unsigned j = i + 1; j < n; ++j)
        if (con(i, j - 1, j, i) != TSIM_OK) return TSIM_EARG;
    return TSIM_OK;
  }
  return TSIM_EARG;
}

tsim_link_t* tsim_multi_link(const tsim_multi_t* m, unsigned chip, unsigned port) {
  const int k = m->dir_of(chip, port);
  return k < 0 ? nullptr : m->dirs[size_t(k)].link;
}

int tsim_multi_pcap(tsim_multi_t* m, const char* dir) {
  const uint32_t ns = uint32_t(1000000000ull / TESSERA_CLK_HZ);
  for (auto& d : m->dirs) {
    if (d.pcap) continue;
    char path[4096];
    std::snprintf(path, sizeof path, "%s/c%up%u-c%up%u.pcap", dir, d.src, d.sp, d.dst, d.dp);
    d.pcap = tsim_pcap_create(path);
    if (!d.pcap) return TSIM_EIO;
    tsim_link_set_pcap(d.link, d.pcap, ns ? ns : 1);
  }
  return TSIM_OK;
}

int tsim_multi_inject(tsim_multi_t* m, unsigned chip, unsigned port, const char* path,
                      unsigned* frames) {
  if (!m || chip >= m->chips.size() || port >= tsim_nic_ports()) return TSIM_EARG;
  tsim_pcap_t* p = tsim_pcap_open(path);
  if (!p) return TSIM_EIO;
  unsigned n = 0;
  int rc;
  uint64_t t;
  uint32_t len, orig;
  while ((rc = tsim_pcap_read(p, &t, m->buf.data(), kMaxFrame, &len, &orig)) == 1) {
    if (len) tsim_nic_rx_push(m->chips[chip], port, m->buf.data(), len), ++n;
  }
  tsim_pcap_close(p);
  if (frames) *frames = n;
  return rc < 0 ? TSIM_EIO : TSIM_OK;
}

int tsim_multi_step(tsim_multi_t* m, uint64_t n) {
  if (m->chips.empty()) return TSIM_EARG;
  m->lim = TSIM_OK;
  const int rc = tsim_step(m->chips[0], n);
  return rc != TSIM_OK ? rc : m->lim;
}

namespace {
struct RunCtx {
  tsim_multi_t* m;
  tsim_multi_pred_fn pred;
  void* ctx;
};
int run_pred(tsim_t*, void* c) {
  RunCtx* r = static_cast<RunCtx*>(c);
  return r->pred(r->m, r->ctx);
}
}  // namespace

int tsim_multi_run_until(tsim_multi_t* m, tsim_multi_pred_fn pred, void* ctx, uint64_t budget,
                         unsigned poll) {
  if (m->chips.empty() || !pred) return TSIM_EARG;
  RunCtx r{m, pred, ctx};
  m->lim = TSIM_OK;
  const int rc = tsim_run_until(m->chips[0], run_pred, &r, budget, poll);
  return rc != TSIM_OK ? rc : m->lim;
}

uint64_t tsim_multi_frames_pending(const tsim_multi_t* m) {
  uint64_t n = 0;
  for (const auto& d : m->dirs) n += tsim_link_in_flight(d.link);
  for (tsim_t* c : m->chips)
    for (unsigned p = 0; p < tsim_nic_ports(); ++p) n += tsim_nic_rx_pending(c, p);
  return n;
}

}  // extern "C"
