// Stress AXI4 memory slave for the fabric tests. Same tick() protocol and port
// struct as sim/include/axi_mem_model.h (tessera::AxiMemPort), but adversarial:
//  * random back-pressure on AW, W and AR; random response latency;
//  * read bursts and write responses of DIFFERENT IDs are returned out of
//    order (random choice among the oldest pending burst of each ID);
//  * random gaps between R beats of a burst (never interleaving bursts);
//  * protocol checks: the burst must be routed to this channel, must not
//    cross an interleave granule, and its ID must name an existing master.
// Storage is a tessera::SparseMem shared with the other channels.
#ifndef TESSERA_FABRIC_SLAVE_H
#define TESSERA_FABRIC_SLAVE_H

#include <cstdint>
#include <deque>
#include <vector>

#include "axi_mem_model.h"
#include "fabric_util.h"

namespace fab {

struct SlaveCfg {
  unsigned channel = 0, num_channels = 1, interleave = 256, data_bytes = 32;
  bool hash = false;              // channel = XOR-fold of the granule index (ChannelHash)
  unsigned id_master_shift = 4;   // slave ID = {master, id}: master index at this bit
  unsigned num_masters = 1;
  double p_awready = 0.7, p_wready = 0.7, p_arready = 0.7, p_rbeat = 0.8, p_b = 0.7;
  unsigned max_lat = 24;          // response latency 1..max_lat cycles
  unsigned max_out = 8;           // outstanding reads / writes accepted
};

class StressSlave {
 public:
  StressSlave(const SlaveCfg& cfg, tessera::SparseMem* mem, uint64_t seed, ErrLog* err)
      : cfg_(cfg), mem_(mem), rng_(seed), err_(err) {}
  void tick(tessera::AxiMemPort& p);
  bool idle() const { return rd_.empty() && wq_.empty() && bq_.empty() && !rcur_; }
  uint64_t r_beats = 0, w_beats = 0;

 private:
  struct Burst {
    uint32_t id;
    uint64_t addr;
    unsigned len, beat;
    uint64_t ready_at;
  };
  void check(const char* ch, uint32_t id, uint64_t addr, unsigned len, unsigned size);
  SlaveCfg cfg_;
  tessera::SparseMem* mem_;
  Rng rng_;
  ErrLog* err_;
  uint64_t now_ = 0;
  std::vector<Burst> rd_;      // accepted reads not yet started, in acceptance order
  Burst rcur_b_{};
  bool rcur_ = false;          // a read burst is being returned
  bool rshown_ = false;        // an R beat is on the bus
  std::deque<Burst> wq_;       // AWs receiving W data, in order
  std::vector<Burst> bq_;      // writes done, B pending (acceptance order)
  bool bshown_ = false;
  size_t bsel_ = 0;
};

}  // namespace fab

#endif
