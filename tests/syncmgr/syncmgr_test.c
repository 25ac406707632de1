/* tessera_syncmgr block tests: directed and random, every result compared with
 * the golden model tests/golden/cp_model.c. Usage: Vtessera_syncmgr [--seed N]
 * [--ops N] [--bench]. Prints its seed; the last line is "N passed, M failed". */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tessera_cfg.h"
#include "cp_model.h"
#include "regs/syncmgr_regs.h"
#include "tb_drv.h"
#include "../framework/bench_rec.h"
#include "../framework/tf_seed.h"

#define OFF(f) ((uint32_t)offsetof(syncmgr_t, f))
#define SOB_SET_OFF(i) (OFF(SOB_SET) + 4u * (i))
#define SOB_ADD_OFF(i) (OFF(SOB_ADD) + 4u * (i))
#define MON_OFF(m, w) (OFF(MON) + 4u * ((m) * CP_MON_SLOT_WORDS + (w)))

static cp_sm_t model;
static uint64_t rng_state;
static char fail_msg[256];
static unsigned nsobs, nmons;

static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 11);
}

/* expected / received payload messages */
#define MAXMSG 65536
typedef struct { uint32_t addr, data; } msg_t;
static msg_t exp_msgs[MAXMSG], got_msgs[MAXMSG];
static unsigned n_exp, n_got;
static uint64_t first_msg_cycle;

static void model_msg(void *ctx, uint32_t addr, uint32_t data, uint32_t mon) {
  (void)ctx; (void)mon;
  if (n_exp < MAXMSG) exp_msgs[n_exp++] = (msg_t){addr, data};
}

#define CHECK(cond, ...) do { if (!(cond)) { snprintf(fail_msg, sizeof fail_msg, __VA_ARGS__); return 1; } } while (0)

static void collect(void) {
  uint32_t a, d;
  uint64_t c;
  while (tb_msg_pop(&a, &d, &c)) {
    if (n_got == 0 || first_msg_cycle == 0) first_msg_cycle = c;
    if (n_got < MAXMSG) got_msgs[n_got++] = (msg_t){a, d};
  }
}

/* write to both the DUT and the model */
static int wr(uint32_t off, uint32_t val) {
  int e = tb_apb_write(off, val);
  int me = cp_sm_write(&model, off, val, model_msg, NULL);
  collect();
  if (e < 0) { snprintf(fail_msg, sizeof fail_msg, "APB write 0x%x timed out", off); return 1; }
  if ((e != 0) != (me != 0)) {
    snprintf(fail_msg, sizeof fail_msg, "APB write 0x%x: pslverr %d, model %d", off, e, me);
    return 1;
  }
  return 0;
}

static int rd_cmp(uint32_t off) {
  uint32_t v = 0, mv = 0;
  int e = tb_apb_read(off, &v);
  int me = cp_sm_read(&model, off, &mv);
  collect();
  if ((e != 0) != (me != 0)) {
    snprintf(fail_msg, sizeof fail_msg, "APB read 0x%x: pslverr %d, model %d", off, e, me);
    return 1;
  }
  if (!e && v != mv) {
    snprintf(fail_msg, sizeof fail_msg, "read 0x%x = 0x%08x, model 0x%08x", off, v, mv);
    return 1;
  }
  return 0;
}

/* wait until the DUT has sent every payload (STATUS.busy == 0) */
static int drain(void) {
  for (int i = 0; i < 20000; i++) {
    uint32_t st;
    tb_apb_read(OFF(STATUS), &st);
    collect();
    if (!(st & SYNCMGR__STATUS__BUSY_bm)) return 0;
    for (int k = 0; k < 4; k++) tb_step();
    collect();
  }
  snprintf(fail_msg, sizeof fail_msg, "drain: STATUS.busy stuck");
  return 1;
}

static int cmp_msg(const void *a, const void *b) {
  const msg_t *x = a, *y = b;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  if (x->data != y->data) return x->data < y->data ? -1 : 1;
  return 0;
}

/* Payload data in the random test encodes (generation, monitor, payload#):
 * per (generation, monitor) the payloads must arrive in order. */
static int check_order(void) {
  static int next_p[CP_SM_MAX_MONS];
  static uint32_t gen_of[CP_SM_MAX_MONS];
  memset(next_p, 0, sizeof next_p);
  memset(gen_of, 0xff, sizeof gen_of);
  for (unsigned i = 0; i < n_got; i++) {
    uint32_t d = got_msgs[i].data;
    if ((d >> 28) != 0xA) continue; /* not a tagged payload */
    uint32_t m = (d >> 4) & 0xFF, p = d & 0xF, g = (d >> 12) & 0xFFFF;
    if (gen_of[m] != g) { gen_of[m] = g; next_p[m] = 0; }
    CHECK((int)p == next_p[m], "monitor %u gen %u: payload %u arrived, expected %d", m, g, p, next_p[m]);
    next_p[m]++;
  }
  return 0;
}

static int compare_msgs(void) {
  if (drain()) return 1;
  if (check_order()) return 1;
  CHECK(n_got == n_exp, "payload count %u, model %u", n_got, n_exp);
  qsort(exp_msgs, n_exp, sizeof(msg_t), cmp_msg);
  qsort(got_msgs, n_got, sizeof(msg_t), cmp_msg);
  for (unsigned i = 0; i < n_exp; i++)
    CHECK(exp_msgs[i].addr == got_msgs[i].addr && exp_msgs[i].data == got_msgs[i].data,
          "payload mismatch: got (0x%08x,0x%08x), model (0x%08x,0x%08x)", got_msgs[i].addr,
          got_msgs[i].data, exp_msgs[i].addr, exp_msgs[i].data);
  n_exp = n_got = 0;
  return 0;
}

static int compare_state(int all_sobs) {
  if (compare_msgs()) return 1;
  static const uint32_t regs[] = {OFF(INFO), OFF(STATUS), OFF(IRQ_EN), OFF(CNT_UPDATES),
                                  OFF(CNT_FIRES), OFF(CNT_PAYLOADS), OFF(CNT_ERRORS),
                                  OFF(ARMED_LO), OFF(ARMED_HI), OFF(SENDING_LO), OFF(SENDING_HI)};
  for (unsigned i = 0; i < sizeof regs / sizeof regs[0]; i++)
    if (rd_cmp(regs[i])) return 1;
  for (unsigned s = 0; s < nsobs; s++)
    if (all_sobs || (rnd() & 7) == 0)
      if (rd_cmp((rnd() & 1) ? SOB_SET_OFF(s) : SOB_ADD_OFF(s))) return 1;
  CHECK(tb_irq() == (model.irq_en && model.err != 0), "irq_o %d, model err %u", tb_irq(), model.err);
  return 0;
}

static void fresh(void) {
  tb_reset();
  cp_sm_init(&model, nsobs, nmons);
  n_exp = n_got = 0;
  first_msg_cycle = 0;
}

/* program a monitor's payloads (npay) and arm it */
static int arm(uint32_t m, uint32_t group, uint32_t mask, uint32_t target, int eq, uint32_t npay,
               const uint32_t *pay) {
  for (uint32_t p = 0; p < npay; p++) {
    if (wr(MON_OFF(m, 2 * p), pay[2 * p])) return 1;
    if (wr(MON_OFF(m, 2 * p + 1), pay[2 * p + 1])) return 1;
  }
  return wr(MON_OFF(m, CP_MON_ARM_WORD), cp_arm_word(group, mask, target, eq, npay));
}

/* ------------------------------------------------------------ tests */
static int t_info_reset(void) {
  fresh();
  uint32_t v;
  tb_apb_read(OFF(INFO), &v);
  CHECK((v & SYNCMGR__INFO__SOBS_bm) == TESSERA_SYNC_OBJECTS, "INFO.sobs %u", v & 0xFFFF);
  CHECK((v >> SYNCMGR__INFO__MONS_bp) == TESSERA_SYNC_MONITORS, "INFO.mons %u", v >> 16);
  CHECK(tb_apb_write(OFF(INFO), 1) != 0, "write to read-only INFO did not answer pslverr");
  CHECK(tb_apb_read(0x0FF0, &v) != 0, "unmapped offset did not answer pslverr");
  return compare_state(1);
}

static int t_set_add_wrap(void) {
  fresh();
  for (unsigned i = 0; i < 600; i++) {
    uint32_t s = rnd() % nsobs, v = rnd();
    if (wr((rnd() & 1) ? SOB_ADD_OFF(s) : SOB_SET_OFF(s), v)) return 1;
    if (rd_cmp(SOB_SET_OFF(s))) return 1;
  }
  /* explicit wrap: 0x7FF0 + 0x20 = 0x0010 (mod 2^15) */
  if (wr(SOB_SET_OFF(5), 0x7FF0) || wr(SOB_ADD_OFF(5), 0x20)) return 1;
  uint32_t v;
  tb_apb_read(SOB_SET_OFF(5), &v);
  CHECK(v == 0x10, "wrap: 0x7FF0 + 0x20 read 0x%x", v);
  /* bits above 14 are ignored */
  if (wr(SOB_SET_OFF(6), 0xFFFF8003u)) return 1;
  tb_apb_read(SOB_ADD_OFF(6), &v);
  CHECK(v == 3, "set with high bits read 0x%x", v);
  return compare_state(1);
}

static int t_mon_ge_oneshot(void) {
  fresh();
  uint32_t pay[8] = {0x10000000, 0xA0000000, 0x10000004, 0xA0000001,
                     0x20002000, 0xA0000002, 0x8000ABC0, 0xA0000003};
  /* group 3 (objects 24..31), mask 0x81 (objects 24 and 31), >= 5, 4 payloads */
  if (arm(7, 3, 0x81, 5, 0, 4, pay)) return 1;
  if (wr(SOB_ADD_OFF(24), 5)) return 1;          /* only one of two reached */
  if (wr(SOB_ADD_OFF(25), 100)) return 1;        /* unmasked object */
  if (compare_msgs()) return 1;
  CHECK(model.cnt_fires == 0, "model fired early");
  if (wr(SOB_ADD_OFF(31), 4)) return 1;          /* 4 < 5 */
  if (wr(SOB_ADD_OFF(31), 3)) return 1;          /* 7 >= 5: fires */
  CHECK(n_exp == 4, "model produced %u payloads", n_exp);
  if (compare_msgs()) return 1;
  if (wr(SOB_ADD_OFF(31), 1)) return 1;          /* one-shot: no second fire */
  if (wr(SOB_SET_OFF(24), 9)) return 1;
  CHECK(n_exp == 0, "one-shot monitor fired again");
  return compare_state(0);
}

static int t_mon_eq(void) {
  fresh();
  uint32_t pay[2] = {0x30400100, 0xA0000000};
  if (wr(SOB_SET_OFF(40), 0)) return 1;
  if (arm(1, 5, 0x01, 3, 1, 1, pay)) return 1;   /* object 40 == 3 */
  if (wr(SOB_ADD_OFF(40), 5)) return 1;          /* jumps over 3: == does not fire */
  CHECK(n_exp == 0, "== fired on 5");
  if (wr(SOB_SET_OFF(40), 3)) return 1;          /* equal: fires */
  CHECK(n_exp == 1, "== did not fire on 3");
  if (compare_msgs()) return 1;
  /* arm when the condition already holds: fires at once */
  uint32_t pay2[2] = {0x30400104, 0xA0000010};
  if (arm(2, 5, 0x01, 3, 1, 1, pay2)) return 1;
  CHECK(n_exp == 1, "arm on satisfied condition did not fire");
  /* >= with target 0 always holds */
  uint32_t pay3[2] = {0x30400108, 0xA0000020};
  if (arm(3, 0, 0xFF, 0, 0, 1, pay3)) return 1;
  CHECK(n_exp == 2, ">= 0 did not fire");
  return compare_state(0);
}

static int t_errors(void) {
  fresh();
  uint32_t pay[2] = {0x1000, 0xA0000000};
  /* nonexistent group */
  if (wr(MON_OFF(4, CP_MON_ARM_WORD), cp_arm_word(nsobs / 8, 0x1, 1, 0, 1))) return 1;
  CHECK(model.err == CP_SM_ERR_BAD_GROUP, "model err %u", model.err);
  if (compare_state(0)) return 1;
  CHECK(tb_irq(), "irq_o not raised on error");
  if (wr(OFF(CTRL), SYNCMGR__CTRL__ERR_CLR_bm)) return 1;
  if (compare_state(0)) return 1;
  CHECK(!tb_irq(), "irq_o still high after ERR_CLR");
  /* write to an armed monitor */
  if (arm(9, 2, 0x3, 10, 0, 1, pay)) return 1;
  if (wr(MON_OFF(9, 0), 0x2000)) return 1;
  CHECK(model.err == CP_SM_ERR_MON_BUSY, "model err %u", model.err);
  if (compare_state(0)) return 1;
  /* disarm with mask 0: condition later true, nothing fires */
  if (wr(OFF(CTRL), SYNCMGR__CTRL__ERR_CLR_bm)) return 1;
  if (wr(MON_OFF(9, CP_MON_ARM_WORD), 0)) return 1;
  if (wr(SOB_SET_OFF(16), 10) || wr(SOB_SET_OFF(17), 10)) return 1;
  CHECK(n_exp == 0, "disarmed monitor fired");
  /* disarm_all */
  if (arm(10, 2, 0x4, 1, 0, 1, pay) || arm(11, 2, 0x8, 1, 0, 1, pay)) return 1;
  if (wr(OFF(CTRL), SYNCMGR__CTRL__DISARM_ALL_bm)) return 1;
  if (wr(SOB_SET_OFF(18), 1) || wr(SOB_SET_OFF(19), 1)) return 1;
  CHECK(n_exp == 0, "monitor fired after DISARM_ALL");
  if (compare_state(0)) return 1;
  /* irq enable off masks irq_o */
  if (wr(MON_OFF(4, CP_MON_ARM_WORD), cp_arm_word(63, 0x1, 1, 0, 1))) return 1;
  if (wr(OFF(IRQ_EN), 0)) return 1;
  if (compare_state(0)) return 1;
  CHECK(!tb_irq(), "irq_o high with IRQ_EN = 0");
  /* payload write failure reported by the message master */
  if (wr(OFF(IRQ_EN), 1) || wr(OFF(CTRL), SYNCMGR__CTRL__ERR_CLR_bm)) return 1;
  tb_msg_err_pulse();
  tb_step();
  model.err = CP_SM_ERR_PAYLOAD; /* modelled here: the model has no bus */
  model.cnt_errors++;
  uint32_t st;
  tb_apb_read(OFF(STATUS), &st);
  CHECK((st & SYNCMGR__STATUS__ERR_bm) == CP_SM_ERR_PAYLOAD, "STATUS.err 0x%x after msg_err_i", st);
  model.err_mon = (st & SYNCMGR__STATUS__ERR_MON_bm) >> SYNCMGR__STATUS__ERR_MON_bp;
  return compare_state(0);
}

static int t_table_readback(void) {
  fresh();
  /* payload words are not reset (RAM): write them all first */
  for (uint32_t m = 0; m < nmons; m++)
    for (uint32_t w = 0; w < CP_MON_ARM_WORD; w++)
      if (wr(MON_OFF(m, w), 0)) return 1;
  for (unsigned i = 0; i < 300; i++) {
    uint32_t m = rnd() % nmons, w = rnd() % CP_MON_SLOT_WORDS;
    if (w == CP_MON_ARM_WORD) continue;
    if (wr(MON_OFF(m, w), rnd())) return 1;
  }
  for (uint32_t m = 0; m < nmons; m++)
    for (uint32_t w = 0; w < CP_MON_SLOT_WORDS; w++)
      if (rd_cmp(MON_OFF(m, w))) return 1;
  return compare_state(0);
}

static unsigned lat_best = 0, lat_worst = 0;
static int t_latency(void) {
  fresh();
  lat_best = 1000; lat_worst = 0;
  /* measure precisely: a single update, messages collected without other accesses */
  for (unsigned i = 0; i < 20; i++) {
    uint32_t m = rnd() % nmons, g = rnd() % (nsobs / 8), j = rnd() % 8;
    uint32_t pay[2] = {0x30400100, 0xA0000000 | (m << 4)};
    if (wr(SOB_SET_OFF(g * 8 + j), 0)) return 1;
    if (arm(m, g, 1u << j, 1, 0, 1, pay)) return 1;
    if (compare_msgs()) return 1;
    first_msg_cycle = 0;
    tb_apb_write(SOB_ADD_OFF(g * 8 + j), 1);
    uint64_t t0 = tb_apb_last_access();
    cp_sm_write(&model, SOB_ADD_OFF(g * 8 + j), 1, model_msg, NULL);
    for (int k = 0; k < 40; k++) tb_step();
    collect();
    CHECK(n_got == 1, "latency probe: %u payloads", n_got);
    unsigned lat = (unsigned)(first_msg_cycle - t0);
    if (lat < lat_best) lat_best = lat;
    if (lat > lat_worst) lat_worst = lat;
    if (compare_msgs()) return 1;
  }
  printf("  latency SOB write (APB access phase) -> payload msg_valid_o: best %u, worst %u cycles\n",
         lat_best, lat_worst);
  CHECK(lat_worst <= 10, "latency %u > 10 cycles", lat_worst);
  return 0;
}

static unsigned rand_ops = 4000;
static int t_random(unsigned ready_pct) {
  fresh();
  tb_set_msg_ready(ready_pct, rnd());
  /* a few hot groups so that monitors fire often */
  uint32_t hot[4];
  for (int i = 0; i < 4; i++) hot[i] = rnd() % (nsobs / 8);
  uint32_t gen = 0;
  for (unsigned op = 0; op < rand_ops; op++) {
    uint32_t r = rnd() % 100;
    uint32_t g = (rnd() % 4) ? hot[rnd() % 4] : rnd() % (nsobs / 8);
    if (r < 55) {
      uint32_t s = g * 8 + rnd() % 8;
      if (rnd() % 3) { if (wr(SOB_ADD_OFF(s), rnd() % 4)) return 1; }
      else if (rnd() % 8 == 0) { if (wr(SOB_ADD_OFF(s), 0x7FF0 + rnd() % 32)) return 1; } /* wraps */
      else { if (wr(SOB_SET_OFF(s), rnd() % 12)) return 1; }
    } else if (r < 85) {
      /* arm a monitor that the model says is idle (re-arm needs the DUT idle too) */
      uint32_t m = rnd() % nmons;
      if (model.mon[m].armed) {
        if (rnd() % 8 == 0) { if (wr(MON_OFF(m, CP_MON_ARM_WORD), 0)) return 1; } /* disarm */
        continue;
      }
      if (compare_msgs()) return 1; /* also waits until no monitor is sending */
      uint32_t npay = 1 + rnd() % 4, pay[8];
      gen++;
      for (uint32_t p = 0; p < npay; p++) {
        pay[2 * p] = (rnd() & ~3u);
        pay[2 * p + 1] = 0xA0000000u | ((gen & 0xFFFF) << 12) | (m << 4) | p;
      }
      uint32_t mask = rnd() & 0xFF;
      if (!mask) mask = 1;
      if (arm(m, g, mask, rnd() % 10, rnd() & 1, npay, pay)) return 1;
    } else if (r < 88) {
      /* error cases */
      uint32_t m = rnd() % nmons;
      if (compare_msgs()) return 1;
      if (rnd() & 1) { if (wr(MON_OFF(m, CP_MON_ARM_WORD), cp_arm_word(nsobs / 8 + rnd() % (64 - nsobs / 8), 1, 1, 0, 1))) return 1; }
      else if (model.mon[m].armed) { if (wr(MON_OFF(m, rnd() % 8), rnd())) return 1; }
      if (rnd() & 1) { if (wr(OFF(CTRL), SYNCMGR__CTRL__ERR_CLR_bm)) return 1; }
    } else if (r < 89) {
      if (wr(OFF(CTRL), SYNCMGR__CTRL__DISARM_ALL_bm)) return 1;
    } else if (r < 99) {
      for (int k = rnd() % 8; k > 0; k--) tb_step();
      collect();
    } else {
      if (compare_state(0)) return 1;
    }
  }
  if (compare_state(1)) return 1;
  printf("  %u ops, %u fires, %u payloads (msg_ready %u%%)\n", rand_ops, model.cnt_fires,
         model.cnt_payloads, ready_pct);
  return 0;
}
static int t_random_full(void) { return t_random(100); }
static int t_random_bp(void) { return t_random(40); }

/* ------------------------------------------------------------ runner */
typedef struct { const char *name; int (*fn)(void); } test_t;

int syncmgr_tests_main(int argc, char **argv) {
  uint64_t seed = tf_env_seed(1);
  int bench = 0;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--ops") && i + 1 < argc) rand_ops = (unsigned)strtoul(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--bench")) bench = 1;
    else if (!strcmp(argv[i], "--test") && i + 1 < argc) only = argv[++i];
    else if (argv[i][0] != '+') { /* +args are Verilator's */
      fprintf(stderr, "usage: %s [--seed N] [--ops N] [--bench] [--test NAME]\n", argv[0]);
      return 2;
    }
  }
  nsobs = TESSERA_SYNC_OBJECTS;
  nmons = TESSERA_SYNC_MONITORS;
  printf("syncmgr tests: seed %llu (reproduce with --seed %llu)\n", (unsigned long long)seed,
         (unsigned long long)seed);
  static const test_t tests[] = {
      {"info_reset", t_info_reset},   {"set_add_wrap", t_set_add_wrap},
      {"mon_ge_oneshot", t_mon_ge_oneshot}, {"mon_eq", t_mon_eq},
      {"errors", t_errors},           {"table_readback", t_table_readback},
      {"latency", t_latency},         {"random", t_random_full},
      {"random_backpressure", t_random_bp},
  };
  unsigned pass = 0, fail = 0;
  for (unsigned i = 0; i < sizeof tests / sizeof tests[0]; i++) {
    if (bench && strcmp(tests[i].name, "latency")) continue;
    if (only && strcmp(tests[i].name, only)) continue;
    rng_state = seed * 0x9E3779B97F4A7C15ull + i + 1;
    if (!rng_state) rng_state = 1;
    fail_msg[0] = 0;
    uint64_t c0 = tb_cycle();
    int r = tests[i].fn();
    if (r == 0) { pass++; printf("PASS %s (%llu cycles)\n", tests[i].name, (unsigned long long)(tb_cycle() - c0)); }
    else { fail++; printf("FAIL %s: %s (seed %llu)\n", tests[i].name, fail_msg, (unsigned long long)seed); }
  }
  if (only && pass + fail == 0) {
    fprintf(stderr, "error: --test %s matches no test%s; tests:", only, bench ? " run by --bench" : "");
    for (unsigned i = 0; i < sizeof tests / sizeof tests[0]; i++) fprintf(stderr, " %s", tests[i].name);
    fprintf(stderr, "\n");
    return 2;
  }
  if (bench) {
    printf("bench syncmgr: SOB update -> monitor payload latency %u cycles (target <= 10)\n", lat_worst);
    bench_record("syncmgr/sob_to_payload_latency", NULL, lat_worst, 0, "\"best\":%u,\"target\":10", lat_best);
  }
  printf("%u passed, %u failed\n", pass, fail);
  return fail ? 1 : 0;
}
