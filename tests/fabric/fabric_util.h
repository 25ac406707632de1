// Helpers shared by the fabric testbenches: bit access into Verilator's packed
// port arrays (integral or VlWide), a seeded RNG and an error log.
#ifndef TESSERA_FABRIC_UTIL_H
#define TESSERA_FABRIC_UTIL_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "verilated.h"

namespace fab {

// ---- bit access: lsb/width inside a packed port (width <= 64)
template <typename T>
inline uint64_t getb(const T& s, unsigned lsb, unsigned w) {
  static_assert(std::is_integral<T>::value, "integral port");
  uint64_t v = uint64_t(s) >> lsb;
  return w >= 64 ? v : (v & ((1ull << w) - 1));
}
template <std::size_t N>
inline uint64_t getb(const VlWide<N>& s, unsigned lsb, unsigned w) {
  uint64_t v = 0;
  for (unsigned i = 0; i < w; ++i) {
    unsigned b = lsb + i;
    v |= uint64_t((s.at(b / 32) >> (b % 32)) & 1u) << i;
  }
  return v;
}
template <typename T>
inline void setb(T& s, unsigned lsb, unsigned w, uint64_t v) {
  static_assert(std::is_integral<T>::value, "integral port");
  uint64_t mask = (w >= 64 ? ~0ull : ((1ull << w) - 1)) << lsb;
  s = T((uint64_t(s) & ~mask) | ((v << lsb) & mask));
}
template <std::size_t N>
inline void setb(VlWide<N>& s, unsigned lsb, unsigned w, uint64_t v) {
  if (lsb % 32 == 0 && w % 32 == 0) {
    for (unsigned i = 0; i < w / 32; ++i) s.at(lsb / 32 + i) = uint32_t(v >> (32 * i));
    return;
  }
  for (unsigned i = 0; i < w; ++i) {
    unsigned b = lsb + i;
    uint32_t m = 1u << (b % 32);
    if ((v >> i) & 1) s.at(b / 32) |= m;
    else s.at(b / 32) &= ~m;
  }
}
// 32-bit word k of element idx of a [N][words*32] packed data array
template <typename T>
inline uint32_t getw(const T& s, unsigned elem_bits, unsigned idx, unsigned k) {
  return uint32_t(getb(s, idx * elem_bits + 32 * k, 32));
}
template <typename T>
inline void setw(T& s, unsigned elem_bits, unsigned idx, unsigned k, uint32_t v) {
  setb(s, idx * elem_bits + 32 * k, 32, v);
}

// ---- RNG (splitmix64)
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return n ? uint32_t(next() % n) : 0; }
  bool chance(double p) { return double(next() >> 11) * (1.0 / 9007199254740992.0) < p; }
};

// ---- error log: counts errors, prints the first few
struct ErrLog {
  unsigned count = 0;
  unsigned limit = 20;
  void operator()(const char* fmt, ...) __attribute__((format(printf, 2, 3))) {
    if (count++ < limit) {
      va_list ap;
      va_start(ap, fmt);
      std::printf("  ERROR: ");
      std::vprintf(fmt, ap);
      std::printf("\n");
      va_end(ap);
    } else if (count == limit + 1) {
      std::printf("  (further errors suppressed)\n");
    }
  }
};

}  // namespace fab

#endif
