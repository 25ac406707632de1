// tessera_apb_mux testbench: two random APB masters (each on its own half of a
// 128-word register file) through the mux into a slave model with random wait
// states and pslverr on some addresses. Checks: every transfer completes once,
// read data = the last value that master wrote, pslverr reaches the right
// master, slave-side setup/access phases are well formed and stable, and both
// masters progress when both request all the time.
// Usage: Vtessera_apb_mux [--seed N] [--transfers N]; last line "N passed, M failed".
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "Vtessera_apb_mux.h"
#include "verilated.h"
#include "../framework/tf_seed.h"

static uint64_t rs;
static uint32_t rnd() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (uint32_t)(rs >> 11); }

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = tf_env_seed(1);
  unsigned transfers = 20000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
    else if (!strcmp(argv[i], "--transfers") && i + 1 < argc) transfers = strtoul(argv[++i], nullptr, 0);
    else if (argv[i][0] != '+') {  // +args are Verilator's (Verilated::commandArgs)
      fprintf(stderr, "usage: %s [--seed N] [--transfers N]\n", argv[0]);
      return 2;
    }
  }
  printf("apb_mux test: seed %llu (reproduce with --seed %llu)\n", (unsigned long long)seed,
         (unsigned long long)seed);
  rs = seed * 0x9E3779B97F4A7C15ull + 1;
  if (!rs) rs = 1;
  Vtessera_apb_mux *d = new Vtessera_apb_mux;
  uint32_t slave[128] = {0}, shadow[128] = {0};
  struct M { bool active, setup, wr; uint32_t addr, data; unsigned done, idle; } m[2] = {};
  unsigned errors = 0, slave_wait = 0, slave_xfers = 0, phase_errs = 0;
  bool s_prev_sel = false, s_prev_en = false;
  uint32_t s_addr = 0, s_wdata = 0;
  bool s_wr = false;
  d->rst_ni = 0; d->clk_i = 0; d->m_psel_i = 0; d->m_penable_i = 0; d->eval();
  for (int i = 0; i < 4; i++) { d->clk_i = 1; d->eval(); d->clk_i = 0; d->eval(); }
  d->rst_ni = 1;
  auto pslverr_addr = [](uint32_t a) { return (a % 16) == 15; };
  uint64_t cyc = 0;
  while (m[0].done + m[1].done < transfers && cyc < 50ull * transfers) {
    // ---- master outputs for this cycle
    unsigned psel = 0, pen = 0, pwr = 0;
    for (int k = 0; k < 2; k++) {
      if (!m[k].active && (rnd() % 100) < 70) {
        m[k].active = true; m[k].setup = true;
        m[k].wr = rnd() & 1;
        m[k].addr = (k * 64 + rnd() % 64) * 4;
        m[k].data = rnd();
      }
      if (m[k].active) { psel |= 1u << k; if (!m[k].setup) pen |= 1u << k; if (m[k].wr) pwr |= 1u << k; }
    }
    d->m_psel_i = psel; d->m_penable_i = pen; d->m_pwrite_i = pwr;
    d->m_paddr_i = 0; d->m_pwdata_i = 0; d->m_pstrb_i = 0xFF; d->m_pprot_i = 0;
    uint32_t pa = 0; uint64_t pw = 0;
    for (int k = 0; k < 2; k++) { pa |= (m[k].addr & 0xFFFF) << (16 * k); pw |= (uint64_t)m[k].data << (32 * k); }
    d->m_paddr_i = pa; d->m_pwdata_i = pw;
    d->eval();
    // ---- slave model (combinational answer in the access phase)
    bool ssel = d->s_psel_o, sen = d->s_penable_o;
    d->s_pready_i = 0; d->s_pslverr_i = 0; d->s_prdata_i = 0;
    if (ssel && !sen) {           // setup phase
      if (s_prev_sel && !s_prev_en) phase_errs++;          // two setup cycles
      s_addr = d->s_paddr_o; s_wdata = d->s_pwdata_o; s_wr = d->s_pwrite_o;
      slave_wait = rnd() % 3;
    } else if (ssel && sen) {     // access phase
      if (!s_prev_sel) phase_errs++;                       // access without setup
      if (d->s_paddr_o != s_addr || d->s_pwrite_o != s_wr || (s_wr && d->s_pwdata_o != s_wdata)) phase_errs++;
      if (slave_wait == 0) {
        d->s_pready_i = 1;
        uint32_t w = (s_addr / 4) % 128;
        d->s_pslverr_i = pslverr_addr(w);
        if (s_wr && !pslverr_addr(w)) slave[w] = s_wdata;
        d->s_prdata_i = slave[w];
        slave_xfers++;
      } else {
        slave_wait--;
      }
    }
    d->eval();
    // ---- master completion
    for (int k = 0; k < 2; k++) {
      if (((d->m_pready_o >> k) & 1) && !(m[k].active && !m[k].setup)) {
        errors++;
        printf("master %d: pready outside its access phase\n", k);
      }
      if (m[k].active && !m[k].setup && ((d->m_pready_o >> k) & 1)) {
        uint32_t w = (m[k].addr / 4) % 128;
        bool err = (d->m_pslverr_o >> k) & 1;
        if (err != pslverr_addr(w)) { errors++; printf("master %d: pslverr %d at word %u\n", k, err, w); }
        if (!m[k].wr && !err && d->m_prdata_o != shadow[w]) {
          errors++;
          printf("master %d: read word %u = 0x%08x, expected 0x%08x\n", k, w, d->m_prdata_o, shadow[w]);
        }
        if (m[k].wr && !err) shadow[w] = m[k].data;
        m[k].active = false;
        m[k].done++;
      }
    }
    s_prev_sel = ssel; s_prev_en = sen;
    // ---- clock edge
    d->clk_i = 1; d->eval(); d->clk_i = 0; d->eval();
    for (int k = 0; k < 2; k++) if (m[k].active) m[k].setup = false;
    cyc++;
  }
  unsigned pass = 0, fail = 0;
  auto report = [&](const char *name, bool ok, const char *why) {
    if (ok) { pass++; printf("PASS %s\n", name); } else { fail++; printf("FAIL %s: %s (seed %llu)\n", name, why, (unsigned long long)seed); }
  };
  report("data_and_errors", errors == 0, "read data or pslverr mismatch");
  report("completion", m[0].done + m[1].done >= transfers && slave_xfers == m[0].done + m[1].done,
         "transfers lost, duplicated or hung");
  report("slave_phases", phase_errs == 0, "malformed setup/access phase on the slave side");
  report("fairness", m[0].done > transfers / 4 && m[1].done > transfers / 4, "one master starved");
  printf("  %u + %u transfers in %llu cycles\n", m[0].done, m[1].done, (unsigned long long)cyc);
  printf("%u passed, %u failed\n", pass, fail);
  delete d;
  return fail ? 1 : 0;
}
