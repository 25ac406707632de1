// Tessera AXI4 memory-slave model (device memory / HBM channel model).
//
// A cycle-based, reusable C++ model of an AXI4 memory slave. It does not depend on
// Verilator or on any Tessera RTL: a testbench copies the master's AXI outputs into
// an AxiMemPort struct, calls tick() once per rising clock edge, and copies the
// slave outputs back into its model. See docs/sim.md ("AXI memory model") for the
// timing rules and an example.
//
// Per-cycle protocol for the testbench (two evals per cycle):
//   1. clk = 0; drive the DUT's slave-side inputs from the port's *_ready / b* / r*
//      fields (the values tick() produced last cycle); eval().
//   2. Copy the DUT's master outputs (aw*, w*, ar*, bready, rready) into the port.
//   3. model.tick(port): handshakes of THIS cycle are those where valid && ready
//      (ready/valid as presented in step 1); the model then computes the slave
//      outputs for the NEXT cycle into the port.
//   4. clk = 1; eval()  (the DUT samples the step-1 values at this edge).
// The slave outputs only depend on the model state, never combinationally on the
// master's inputs in the same cycle, so there are no combinational loops.
//
// Storage is a SparseMem (4 KiB pages allocated on first write; untouched bytes
// read as 0). Several AxiMemModel instances (one per channel) may share one
// SparseMem so that the whole region is visible through one back door.
#ifndef TESSERA_AXI_MEM_MODEL_H
#define TESSERA_AXI_MEM_MODEL_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace tessera {

// ---------------------------------------------------------------- sparse storage
class SparseMem {
 public:
  static constexpr unsigned kPageBits = 12;
  static constexpr uint64_t kPageBytes = 1ull << kPageBits;

  SparseMem() = default;
  SparseMem(const SparseMem&) = delete;
  SparseMem& operator=(const SparseMem&) = delete;

  // Byte-granular access by absolute address. Reads of pages never written
  // return zeros (and allocate nothing).
  void read(uint64_t addr, void* dst, size_t len) const;
  void write(uint64_t addr, const void* src, size_t len);
  uint32_t read32(uint64_t addr) const;   // little endian
  void write32(uint64_t addr, uint32_t value);
  // Write `len` bytes at addr where strobe bit i enables byte i (len <= 64).
  void write_strobed(uint64_t addr, const uint8_t* src, size_t len, uint64_t strobe);
  void clear();                            // drop every page
  size_t pages_allocated() const { return pages_.size(); }

 private:
  uint8_t* page_for_write(uint64_t page);
  const uint8_t* page_for_read(uint64_t page) const;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
  mutable uint64_t last_page_ = ~0ull;
  mutable uint8_t* last_ptr_ = nullptr;
};

// ---------------------------------------------------------------- AXI4 signals
// Data buses are little-endian arrays of 32-bit words (word 0 = bits 31:0), the
// same layout Verilator uses for wide signals. Only the first data_bytes/4 words
// are used. IDs up to 32 bits.
static constexpr unsigned kAxiMaxDataBytes = 32;   // 256-bit data bus
static constexpr unsigned kAxiMaxDataWords = kAxiMaxDataBytes / 4;

struct AxiMemPort {
  // write address (master -> slave)
  uint32_t awid = 0;
  uint64_t awaddr = 0;
  uint8_t awlen = 0, awsize = 0, awburst = 1;
  bool awvalid = false;
  // write data (master -> slave)
  uint32_t wdata[kAxiMaxDataWords] = {};
  uint32_t wstrb = 0;
  bool wlast = false, wvalid = false;
  // read address (master -> slave)
  uint32_t arid = 0;
  uint64_t araddr = 0;
  uint8_t arlen = 0, arsize = 0, arburst = 1;
  bool arvalid = false;
  // response readies (master -> slave)
  bool bready = false, rready = false;

  // slave -> master (written by tick())
  bool awready = false, wready = false, arready = false;
  uint32_t bid = 0;
  uint8_t bresp = 0;
  bool bvalid = false;
  uint32_t rid = 0;
  uint32_t rdata[kAxiMaxDataWords] = {};
  uint8_t rresp = 0;
  bool rlast = false, rvalid = false;
};

enum : uint8_t { kAxiOkay = 0, kAxiExOkay = 1, kAxiSlvErr = 2, kAxiDecErr = 3 };
enum : uint8_t { kAxiBurstFixed = 0, kAxiBurstIncr = 1, kAxiBurstWrap = 2 };

// ---------------------------------------------------------------- configuration
struct AxiMemConfig {
  unsigned data_bytes = 32;          // bus width in bytes: 4, 8, 16 or 32
  uint64_t base = 0x80000000ull;     // region served; outside -> DECERR
  uint64_t size = 0x40000000ull;
  unsigned read_latency = 40;        // cycles from AR accepted to first R beat (>= 1)
  unsigned write_latency = 1;        // cycles from last W beat to B (>= 1)
  unsigned bytes_per_cycle = 32;     // channel bandwidth shared by R and W beats (>= 1)
  unsigned max_reads = 16;           // outstanding read bursts accepted
  unsigned max_writes = 16;          // outstanding write bursts accepted
  // Optional channel-interleave check: when interleave_bytes != 0, a beat whose
  // address has ((addr >> log2(interleave_bytes)) % num_channels) != channel
  // is answered with DECERR (a misrouted burst).
  unsigned channel = 0;
  unsigned num_channels = 1;
  unsigned interleave_bytes = 0;
  // with channel_hash the channel is the XOR of all log2(num_channels)-bit groups of the
  // granule index (the fabric's ChannelHash, docs/fabric.md) instead of index % channels
  bool channel_hash = false;
  // Optional DRAM bank/row effect (off when banks == 0): the channel has `banks` banks
  // with one open row each; row r = addr / row_bytes lives in bank r % banks. A read burst
  // whose row is not the open row of its bank waits `row_miss_cycles` more before its
  // first beat (precharge + activate); read and write bursts open their row.
  unsigned banks = 0;
  unsigned row_bytes = 2048;
  unsigned row_miss_cycles = 0;
};

struct AxiMemCounters {
  uint64_t bytes_read = 0;      // bytes on R beats with OKAY (full bus width per beat)
  uint64_t bytes_written = 0;   // bytes actually written (strobed bytes)
  uint64_t read_bursts = 0;
  uint64_t write_bursts = 0;
  uint64_t busy_cycles = 0;     // cycles with any transaction in flight
  uint64_t decerr = 0;          // bursts answered with DECERR
  uint64_t slverr = 0;          // bursts answered with SLVERR (unsupported burst type)
  uint64_t row_misses = 0;      // bursts that opened a new row (bank/row model on)
  uint64_t cycles = 0;          // tick() calls
};

// ---------------------------------------------------------------- the model
// Channel of a byte address: granule (addr >> il_shift) mod num_channels, or with hash the
// XOR of all log2(num_channels)-bit groups of the granule index (num_channels a power of two).
unsigned axi_mem_channel(uint64_t addr, unsigned il_shift, unsigned num_channels, bool hash);

class AxiMemModel {
 public:
  // mem == nullptr: the model owns a private SparseMem.
  explicit AxiMemModel(const AxiMemConfig& cfg, SparseMem* mem = nullptr);
  AxiMemModel(const AxiMemModel&) = delete;
  AxiMemModel& operator=(const AxiMemModel&) = delete;

  // One rising clock edge (see the protocol at the top of this file).
  void tick(AxiMemPort& p);
  // Drop every transaction in flight and clear the outputs in p (reset).
  void reset(AxiMemPort& p);

  // Runtime tuning (takes effect for new transactions).
  void set_read_latency(unsigned cycles);
  void set_bytes_per_cycle(unsigned bytes);
  // Populated size from `base` (beats above it get DECERR, e.g. a board with less DRAM
  // than the address window); bank/row model (banks == 0: off).
  void set_size(uint64_t bytes) { cfg_.size = bytes; }
  void set_row_model(unsigned banks, unsigned row_bytes, unsigned row_miss_cycles);

  const AxiMemConfig& config() const { return cfg_; }
  const AxiMemCounters& counters() const { return cnt_; }
  void clear_counters() { cnt_ = AxiMemCounters(); }
  bool idle() const;              // nothing in flight
  SparseMem& mem() { return *mem_; }

 private:
  struct Burst {
    uint32_t id;
    uint64_t addr;      // start address
    unsigned len;       // beats
    unsigned size;      // log2 bytes per beat
    uint8_t burst;
    unsigned beat;      // next beat index
    uint64_t ready_at;  // cycle when the first R beat / the B may go
    uint8_t resp;       // accumulated response
  };
  uint64_t beat_addr(const Burst& b, unsigned i) const;
  uint8_t check_addr(uint64_t addr, unsigned size) const;
  void fill_rbeat(AxiMemPort& p, Burst& b);
  // one W beat (data, strobes, WLAST) into the oldest accepted AW's burst
  void do_wbeat(const uint32_t* wdata, uint32_t wstrb, Burst& b);
  void take_wbeat(const uint32_t* wdata, uint32_t wstrb, bool wlast);
  // W beats accepted before their AW (AXI allows W ahead of AW; a controller's write-data
  // buffer): held in order until the AWs arrive. Without them a W beat could be accepted
  // at the earliest in the cycle after its AW, which caps a master that streams one-beat
  // write bursts through the fabric's 2-deep W route FIFOs at 2 bursts per 3 cycles. One
  // beat ahead is enough for that (2 and 8 measured the same at chip level).
  struct EarlyW {
    uint32_t data[kAxiMaxDataWords];
    uint32_t strb;
    bool last;
  };
  static constexpr size_t kEarlyWBeats = 2;
  std::deque<EarlyW> ew_;

  AxiMemConfig cfg_;
  std::unique_ptr<SparseMem> own_;
  SparseMem* mem_;
  unsigned il_shift_ = 0;
  AxiMemCounters cnt_;
  uint64_t now_ = 0;
  int64_t credit_ = 0;          // bandwidth bucket in bytes
  std::deque<Burst> rq_;        // accepted read bursts, in order
  std::deque<Burst> wq_;        // accepted AWs waiting for / receiving W beats
  std::deque<Burst> bq_;        // write bursts complete, waiting for B
  bool r_presented_ = false;    // an R beat is on the bus (rvalid)
  bool prefer_w_ = false;       // bandwidth arbitration when both R and W want it
  std::vector<uint64_t> open_row_;  // per bank: open row + 1 (0 = none)
  unsigned open_row_penalty(uint64_t addr);  // row-miss cycles for a burst at addr
};

}  // namespace tessera

#endif  // TESSERA_AXI_MEM_MODEL_H
