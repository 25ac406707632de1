// Cycle-level SDR SDRAM model with a timing checker (sim/include/tessera_sdram.h,
// docs/sdram.md "SDRAM model").
#include "tessera_sdram.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const int64_t kNever = -(int64_t(1) << 40);

struct Bank {
  bool open = false;
  uint32_t row = 0;
  int64_t t_act = kNever, t_pre = kNever, t_wr = kNever;
  bool ras_max_flagged = false;
};

struct Out {
  int64_t due;      // tick at which the SDRAM drives the word
  uint16_t data;
};

}  // namespace

struct tsdram {
  tsdram_cfg_t cfg;
  uint32_t c_rcd, c_rp, c_rc, c_ras, c_ras_max, c_wr, c_rrd, c_mrd, c_rfc, c_refi, c_pwr;
  uint32_t nbanks, ncols, nrows;
  std::vector<uint16_t> mem;
  std::vector<Bank> bank;
  std::vector<Out> outq;
  int64_t n = -1;                     // current tick
  int64_t t_act_any = kNever, t_mrs = kNever, t_ref = kNever, t_drive = kNever;
  int64_t dqm_hist[3] = {0, 0, 0};    // DQM of ticks n, n-1, n-2 (bit mask)
  // init: 0 power-up, 1 waiting for PRECHARGE ALL, 2 refreshes/mode, 3 done
  int init = 0;
  uint32_t init_refs = 0;
  bool mode_set = false;
  uint32_t cl = 2;
  bool refi_flagged = false;
  tsdram_stats_t st;
  std::vector<std::string> log;
};

namespace {

uint32_t cyc(const tsdram *m, uint32_t ns) {
  return static_cast<uint32_t>((uint64_t(ns) * 1000 + m->cfg.tck_ps - 1) / m->cfg.tck_ps);
}

void flag(tsdram *m, int rule, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void flag(tsdram *m, int rule, const char *fmt, ...) {
  m->st.violations++;
  m->st.by_rule[rule]++;
  if (m->log.size() < 256) {
    char buf[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char line[300];
    snprintf(line, sizeof line, "cycle %lld %s: %s", static_cast<long long>(m->n),
             tsdram_rule_name(rule), buf);
    m->log.push_back(line);
  }
}

// elapsed ticks since t must be at least c, else rule is flagged
void need(tsdram *m, int64_t t, uint32_t c, int rule, const char *what, uint32_t b) {
  if (t == kNever) return;
  const int64_t d = m->n - t;
  if (d < static_cast<int64_t>(c))
    flag(m, rule, "%s bank %u after %lld cycles, needs %u", what, b, static_cast<long long>(d), c);
}

size_t word_index(const tsdram *m, uint32_t b, uint32_t row, uint32_t col) {
  return (static_cast<size_t>(row) << (m->cfg.bank_bits + m->cfg.col_bits)) |
         (static_cast<size_t>(b) << m->cfg.col_bits) | col;
}

}  // namespace

extern "C" {

const char *tsdram_rule_name(int rule) {
  static const char *const names[TSD_NRULES] = {
      "init", "tRCD", "tRP", "tRAS", "tRAS_max", "tRC", "tWR", "tRRD", "tMRD",
      "tRFC", "tREFI", "no_open_row", "row_open", "bus", "unsupported"};
  return (rule >= 0 && rule < TSD_NRULES) ? names[rule] : "?";
}

tsdram_t *tsdram_create(const tsdram_cfg_t *cfg) {
  tsdram *m = new tsdram();
  m->cfg = *cfg;
  tsdram_cfg_t &c = m->cfg;
  if (!c.tck_ps) c.tck_ps = 40000;
  if (!c.row_bits) c.row_bits = 13;
  if (!c.col_bits) c.col_bits = 9;
  if (!c.bank_bits) c.bank_bits = 2;
  if (!c.trcd) c.trcd = 21;
  if (!c.trp) c.trp = 21;
  if (!c.trc) c.trc = 63;
  if (!c.tras) c.tras = 42;
  if (!c.twr) c.twr = 14;
  if (!c.trrd) c.trrd = 14;
  if (!c.tmrd) c.tmrd = 14;
  if (!c.trfc) c.trfc = 63;
  if (!c.tras_max) c.tras_max = 120000;
  if (!c.trefi) c.trefi = 7812;
  if (!c.tpowerup) c.tpowerup = 200000;
  if (!c.init_refs) c.init_refs = 2;
  m->c_rcd = cyc(m, c.trcd);
  m->c_rp = cyc(m, c.trp);
  m->c_rc = cyc(m, c.trc);
  m->c_ras = cyc(m, c.tras);
  m->c_ras_max = static_cast<uint32_t>(uint64_t(c.tras_max) * 1000 / c.tck_ps);
  m->c_wr = cyc(m, c.twr);
  m->c_rrd = cyc(m, c.trrd);
  m->c_mrd = cyc(m, c.tmrd);
  m->c_rfc = cyc(m, c.trfc);
  m->c_refi = static_cast<uint32_t>(uint64_t(c.trefi) * 1000 / c.tck_ps);
  m->c_pwr = cyc(m, c.tpowerup);
  m->nbanks = 1u << c.bank_bits;
  m->ncols = 1u << c.col_bits;
  m->nrows = 1u << c.row_bits;
  m->mem.resize(size_t(m->nbanks) * m->ncols * m->nrows);
  uint32_t x = c.seed * 2654435761u + 12345u;
  for (auto &w : m->mem) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    w = static_cast<uint16_t>(x);
  }
  m->bank.resize(m->nbanks);
  memset(&m->st, 0, sizeof m->st);
  return m;
}

void tsdram_destroy(tsdram_t *m) { delete m; }

uint16_t *tsdram_mem(tsdram_t *m) { return m->mem.data(); }
size_t tsdram_words(const tsdram_t *m) { return m->mem.size(); }
uint32_t tsdram_cycles(const tsdram_t *m, uint32_t ns) { return cyc(m, ns); }

void tsdram_stats(const tsdram_t *m, tsdram_stats_t *st) {
  *st = m->st;
  st->init_done = m->init == 3;
}

void tsdram_print_violations(const tsdram_t *m, void *file, unsigned max) {
  FILE *f = static_cast<FILE *>(file);
  unsigned k = 0;
  for (const auto &l : m->log) {
    if (k++ >= max) break;
    fprintf(f, "  %s\n", l.c_str());
  }
}

int tsdram_tick(tsdram_t *m, const tsdram_pins_t *p, uint16_t *dq_out) {
  m->n++;
  m->st.cycles++;
  const int64_t n = m->n;
  m->dqm_hist[2] = m->dqm_hist[1];
  m->dqm_hist[1] = m->dqm_hist[0];
  m->dqm_hist[0] = p->dqm & 3;

  // the SDRAM's output of this cycle (a READ CL ticks ago), masked by DQM two ticks ago
  int drive = 0;
  uint16_t out = 0;
  if (!m->outq.empty() && m->outq.front().due == n) {
    out = m->outq.front().data;
    m->outq.erase(m->outq.begin());
    if (m->dqm_hist[2] != 3) {
      drive = 1;
      if (m->dqm_hist[2] & 1) out &= 0xFF00;   // masked byte lane: not driven (reads as 0)
      if (m->dqm_hist[2] & 2) out &= 0x00FF;
    }
  }
  if (p->dq_oe && drive) flag(m, TSD_BUS, "controller drives DQ while the SDRAM outputs read data");
  if (p->dq_oe && m->t_drive == n - 1)
    flag(m, TSD_BUS, "controller drives DQ the cycle after the SDRAM did (no turnaround)");
  if (drive) m->t_drive = n;

  // refresh interval and row-open time
  if (m->init == 3 && m->t_ref != kNever && n - m->t_ref > static_cast<int64_t>(m->c_refi) &&
      !m->refi_flagged) {
    m->refi_flagged = true;
    flag(m, TSD_REFI, "no AUTO REFRESH for more than %u cycles", m->c_refi);
  }
  for (uint32_t b = 0; b < m->nbanks; b++) {
    Bank &bk = m->bank[b];
    if (bk.open && !bk.ras_max_flagged && n - bk.t_act > static_cast<int64_t>(m->c_ras_max)) {
      bk.ras_max_flagged = true;
      flag(m, TSD_RAS_MAX, "bank %u row open for more than %u cycles", b, m->c_ras_max);
    }
  }

  const int cmd = (p->cs_n ? 8 : 0) | (p->ras_n ? 4 : 0) | (p->cas_n ? 2 : 0) | (p->we_n ? 1 : 0);
  const bool nop = (cmd & 8) || cmd == 7;
  if (!nop && !p->cke) flag(m, TSD_UNSUPPORTED, "command with CKE low");
  if (m->init == 0 && n >= static_cast<int64_t>(m->c_pwr)) m->init = 1;
  if (nop) {
    if (drive) *dq_out = out;
    return drive;
  }
  if (m->init == 0) {
    flag(m, TSD_INIT, "command %d before the power-up time (%u cycles)", cmd, m->c_pwr);
  }
  // any command after LOAD MODE / REFRESH waits tMRD / tRFC
  need(m, m->t_mrs, m->c_mrd, TSD_MRD, "command after LOAD MODE,", 0);
  need(m, m->t_ref, m->c_rfc, TSD_RFC, "command after REFRESH,", 0);

  const uint32_t b = p->ba & (m->nbanks - 1);
  Bank &bk = m->bank[b];
  const bool a10 = (p->a >> 10) & 1;
  switch (cmd) {
    case 3: {  // ACTIVE
      m->st.acts++;
      if (m->init != 3) flag(m, TSD_INIT, "ACTIVE before the init sequence completed");
      if (bk.open) flag(m, TSD_ROW_OPEN, "ACTIVE to bank %u with row %u open", b, bk.row);
      need(m, bk.t_pre, m->c_rp, TSD_RP, "ACTIVE after PRECHARGE,", b);
      need(m, bk.t_act, m->c_rc, TSD_RC, "ACTIVE after ACTIVE,", b);
      for (uint32_t o = 0; o < m->nbanks; o++) {
        if (o != b && m->bank[o].t_act != kNever &&
            n - m->bank[o].t_act < static_cast<int64_t>(m->c_rrd))
          flag(m, TSD_RRD, "ACTIVE bank %u %lld cycles after ACTIVE bank %u, needs %u", b,
               static_cast<long long>(n - m->bank[o].t_act), o, m->c_rrd);
      }
      bk.open = true;
      bk.row = p->a & (m->nrows - 1);
      bk.t_act = n;
      bk.ras_max_flagged = false;
      m->t_act_any = n;
      break;
    }
    case 5:    // READ
    case 4: {  // WRITE
      const bool wr = cmd == 4;
      if (wr) m->st.writes++;
      else m->st.reads++;
      if (a10) flag(m, TSD_UNSUPPORTED, "%s with auto precharge", wr ? "WRITE" : "READ");
      if (!bk.open) {
        flag(m, TSD_NO_ROW, "%s to bank %u without an open row", wr ? "WRITE" : "READ", b);
        break;
      }
      need(m, bk.t_act, m->c_rcd, TSD_RCD, wr ? "WRITE after ACTIVE," : "READ after ACTIVE,", b);
      const size_t wi = word_index(m, b, bk.row, p->a & (m->ncols - 1));
      if (wr) {
        if (!p->dq_oe) flag(m, TSD_BUS, "WRITE without the controller driving DQ");
        uint16_t &w = m->mem[wi];
        if (!(p->dqm & 1)) w = static_cast<uint16_t>((w & 0xFF00) | (p->dq & 0x00FF));
        if (!(p->dqm & 2)) w = static_cast<uint16_t>((w & 0x00FF) | (p->dq & 0xFF00));
        bk.t_wr = n;
      } else {
        m->outq.push_back({n + m->cl, m->mem[wi]});
      }
      break;
    }
    case 2: {  // PRECHARGE (A10: all banks)
      m->st.precharges++;
      if (m->init == 1 && a10) m->init = 2;
      else if (m->init == 1) flag(m, TSD_INIT, "first command after power-up is not PRECHARGE ALL");
      for (uint32_t o = 0; o < m->nbanks; o++) {
        if (!a10 && o != b) continue;
        Bank &x = m->bank[o];
        if (x.open) {
          need(m, x.t_act, m->c_ras, TSD_RAS, "PRECHARGE after ACTIVE,", o);
          need(m, x.t_wr, m->c_wr, TSD_WR, "PRECHARGE after WRITE,", o);
          x.open = false;
          x.t_pre = n;
        } else if (m->init < 3) {
          x.t_pre = n;
        }
      }
      break;
    }
    case 1: {  // AUTO REFRESH
      m->st.refreshes++;
      if (m->init == 1) flag(m, TSD_INIT, "REFRESH before the first PRECHARGE ALL");
      for (uint32_t o = 0; o < m->nbanks; o++) {
        Bank &x = m->bank[o];
        if (x.open) flag(m, TSD_ROW_OPEN, "REFRESH with bank %u open", o);
        need(m, x.t_pre, m->c_rp, TSD_RP, "REFRESH after PRECHARGE,", o);
        need(m, x.t_act, m->c_rc, TSD_RC, "REFRESH after ACTIVE,", o);
      }
      if (m->init == 3 && m->t_ref != kNever) {
        const uint64_t gap = static_cast<uint64_t>(n - m->t_ref);
        if (gap > m->st.max_ref_gap) m->st.max_ref_gap = gap;
      }
      m->t_ref = n;
      m->refi_flagged = false;
      if (m->init == 2 && ++m->init_refs >= m->cfg.init_refs && m->mode_set) m->init = 3;
      break;
    }
    case 0: {  // LOAD MODE REGISTER
      m->st.mode_sets++;
      if (m->init == 1) flag(m, TSD_INIT, "LOAD MODE before the first PRECHARGE ALL");
      for (uint32_t o = 0; o < m->nbanks; o++) {
        if (m->bank[o].open) flag(m, TSD_ROW_OPEN, "LOAD MODE with bank %u open", o);
        need(m, m->bank[o].t_pre, m->c_rp, TSD_RP, "LOAD MODE after PRECHARGE,", o);
      }
      const uint32_t bl = p->a & 7, bt = (p->a >> 3) & 1, cl = (p->a >> 4) & 7,
                     op = (p->a >> 7) & 3, wb = (p->a >> 9) & 1;
      if (bl != 0 || bt || op || wb || (cl != 2 && cl != 3) || p->ba)
        flag(m, TSD_UNSUPPORTED, "mode 0x%x (the model supports BL 1, sequential, CL 2/3)",
             p->a);
      if (cl == 2 || cl == 3) m->cl = cl;
      m->mode_set = true;
      m->t_mrs = n;
      if (m->init == 2 && m->init_refs >= m->cfg.init_refs) m->init = 3;
      break;
    }
    default:   // BURST TERMINATE (6)
      flag(m, TSD_UNSUPPORTED, "BURST TERMINATE");
      break;
  }
  if (drive) *dq_out = out;
  return drive;
}

}  // extern "C"
