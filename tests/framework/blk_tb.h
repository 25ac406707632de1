// Small harness for the peripheral block testbenches (tests/uart, clint, intc,
// sysctrl, sysbus): command line (--seed N, --only NAME), a seeded xorshift
// generator, per-scenario checks and the closing "N passed, M failed" line.
//
//   tb::Run run("uart", argc, argv);          // prints the seed
//   run.scenario("tx_frames", [&](tb::Scenario &s) { s.check(a == b, "..."); });
//   return run.finish();                      // non-zero when a scenario failed
#ifndef TESSERA_BLK_TB_H
#define TESSERA_BLK_TB_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

namespace tb {

class Rng {
 public:
  explicit Rng(uint64_t seed = 1) { reseed(seed); }
  void reseed(uint64_t seed) {
    s_ = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    if (!s_) s_ = 1;
  }
  uint32_t next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return static_cast<uint32_t>(s_ >> 16);
  }
  uint32_t below(uint32_t n) { return n ? next() % n : 0; }   // 0 .. n-1
  uint32_t range(uint32_t lo, uint32_t hi) { return lo + below(hi - lo + 1); }  // lo .. hi
  bool pct(unsigned p) { return below(100) < p; }

 private:
  uint64_t s_;
};

// One scenario's verdict: check() counts and prints the first few failures.
class Scenario {
 public:
  explicit Scenario(const char *name) : name_(name) {}
  bool check(bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4))) {
    checks_++;
    if (ok) return true;
    if (fails_++ < 10) {
      va_list ap;
      va_start(ap, fmt);
      printf("  %s: ", name_);
      vprintf(fmt, ap);
      printf("\n");
      va_end(ap);
    }
    return false;
  }
  bool eq(uint64_t got, uint64_t want, const char *what) {
    return check(got == want, "%s = 0x%llx, expected 0x%llx", what, (unsigned long long)got,
                 (unsigned long long)want);
  }
  unsigned fails() const { return fails_; }
  unsigned checks() const { return checks_; }

 private:
  const char *name_;
  unsigned fails_ = 0, checks_ = 0;
};

class Run {
 public:
  Run(const char *block, int argc, char **argv) : block_(block) {
    seed_ = 1;
    for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed_ = strtoull(argv[++i], nullptr, 0);
      else if (!strcmp(argv[i], "--only") && i + 1 < argc) only_ = argv[++i];
      else if (argv[i][0] != '+') {   // +args belong to Verilator
        fprintf(stderr, "usage: %s [--seed N] [--only SCENARIO]\n", argv[0]);
        exit(2);
      }
    }
    printf("%s block test: seed %llu (reproduce with --seed %llu)\n", block_,
           (unsigned long long)seed_, (unsigned long long)seed_);
  }
  uint64_t seed() const { return seed_; }

  // Runs fn with a fresh Scenario and a generator seeded from the run seed and the name.
  void scenario(const char *name, const std::function<void(Scenario &, Rng &)> &fn) {
    if (!only_.empty() && only_ != name) return;
    uint64_t h = seed_;
    for (const char *p = name; *p; p++) h = (h ^ static_cast<uint8_t>(*p)) * 0x100000001B3ull;
    Rng rng(h);
    Scenario s(name);
    fn(s, rng);
    if (s.fails() == 0 && s.checks() > 0) {
      passed_++;
      printf("PASS %s (%u checks)\n", name, s.checks());
    } else {
      failed_++;
      printf("FAIL %s (%u of %u checks failed)\n", name, s.fails(), s.checks());
    }
  }
  int finish() {
    printf("%u passed, %u failed\n", passed_, failed_);
    return (failed_ || !passed_) ? 1 : 0;
  }

 private:
  const char *block_;
  uint64_t seed_;
  std::string only_;
  unsigned passed_ = 0, failed_ = 0;
};

}  // namespace tb

#endif
