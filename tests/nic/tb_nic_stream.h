// Shared parts of the NIC block testbenches (tb_nic_crc32.cpp, tb_nic_rx_check.cpp):
// a seeded generator and a driver for a DUT that taps an AXI4-Stream through
// the ports beat_i, data_i, keep_i, last_i with TB_BYTES bytes per beat.
#ifndef TESSERA_TB_NIC_STREAM_H
#define TESSERA_TB_NIC_STREAM_H

#include <cstdint>

#ifndef TB_BYTES
#define TB_BYTES 8
#endif

static uint64_t tb_rng;
static inline uint32_t tb_rnd() {
  tb_rng ^= tb_rng >> 12;
  tb_rng ^= tb_rng << 25;
  tb_rng ^= tb_rng >> 27;
  return (uint32_t)((tb_rng * 0x2545F4914F6CDD1Dull) >> 32);
}
static inline void tb_seed(uint64_t seed) { tb_rng = seed * 0x9E3779B97F4A7C15ull + 7; }

template <class Dut>
struct TbStream {
  Dut dut;
  uint64_t cycles = 0;
  void tick() {
    dut.clk_i = 0;
    dut.eval();
    dut.clk_i = 1;
    dut.eval();
    cycles++;
  }
  void reset() {
    dut.rst_ni = 0;
    dut.beat_i = 0;
    tick();
    dut.rst_ni = 1;
    tick();
  }
  // one beat's bytes onto data_i (byte i in bits 8*i +: 8)
  void set_data(const uint8_t *bytes) {
#if TB_BYTES <= 8
    uint64_t v = 0;
    for (int i = TB_BYTES - 1; i >= 0; i--) v = v << 8 | bytes[i];
    dut.data_i = v;
#else
    for (int w = 0; w < TB_BYTES / 4; w++)
      dut.data_i[w] = (uint32_t)bytes[4 * w] | (uint32_t)bytes[4 * w + 1] << 8 |
                      (uint32_t)bytes[4 * w + 2] << 16 | (uint32_t)bytes[4 * w + 3] << 24;
#endif
  }
  // a cycle without a beat, random values on the data lines
  void idle() {
    uint8_t junk[TB_BYTES];
    for (auto &b : junk) b = (uint8_t)tb_rnd();
    set_data(junk);
    dut.keep_i = tb_rnd();
    dut.beat_i = 0;
    dut.last_i = tb_rnd() & 1;
    tick();
  }
};

#endif  // TESSERA_TB_NIC_STREAM_H
