/* Suite `l2`: the L2 slices inside the chip (docs/l2.md).
 *
 * The MMEs reach memory through their DCORE's slice; the host port and the back
 * door see memory behind the slices. These tests run GEMM jobs (tests/chip/mme.c
 * helpers, C checked bit-exactly against the golden model) and drive the slices'
 * registers through the host port: traffic of several engines through the L2
 * with host checks, the coherence contract (stale lines without an invalidate),
 * FLUSH / DISCARD / INVALIDATE on ranges with exact write-back counts, an engine
 * access to unpopulated device memory (error reported by the engine, no hang),
 * refused maintenance (error code, interrupt, no message), and shared mode
 * (slices interleaved by address). Block-level coverage: tests/l2 (suite `l2`). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "chip_gemm.h"
#include "chip_l2.h"
#include "regs/intc_regs.h"
#include "regs/l2_regs.h"

#define L2_REG(d, r) (TESSERA_L2_ADDR(d) + (uint32_t)offsetof(l2_t, r))
#define INTC_PENDING (TESSERA_INTC_BASE + (uint32_t)offsetof(intc_t, PENDING))
#define L2_IRQ_SRC(d) (12u + (d))        /* docs/interrupts.md */
#define L2_MSG_SCRATCH(d) (TESSERA_NUM_MME + (d))
#define R TESSERA_MME_ROWS

static int rd(tf_ctx_t *t, uint32_t addr, uint32_t *v) {
  TF_CHECK_OK(t, tsim_host_read32(t->sim, addr, v));
  return TF_PASS;
}

/* Clear slice d's counters (CTRL keeps its other fields). */
static int cnt_clear(tf_ctx_t *t, unsigned d) {
  uint32_t ctrl = 0;
  TF_CHECK_OK(t, tsim_host_read32(t->sim, L2_REG(d, CTRL), &ctrl));
  TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, CTRL), ctrl | L2__CTRL__CNT_CLR_bm));
  return TF_PASS;
}

/* Run one maintenance command on slice d (range [start, end) unless whole) and wait
 * for STATUS.done; *status gets STATUS (done is then cleared). */
static int maint(tf_ctx_t *t, unsigned d, unsigned op, int whole, uint32_t start, uint32_t end,
                 uint32_t *status) {
  TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, STATUS), L2__STATUS__DONE_bm));
  TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, MAINT_START), start));
  TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, MAINT_END), end));
  TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, MAINT_CMD),
                                   (op << L2__MAINT_CMD__OP_bp) | (whole ? L2__MAINT_CMD__WHOLE_bm : 0u) |
                                       L2__MAINT_CMD__GO_bm));
  uint64_t t0 = tsim_cycles(t->sim);
  uint32_t st = 0;
  for (;;) {
    TF_CHECK_OK(t, tsim_host_read32(t->sim, L2_REG(d, STATUS), &st));
    if (st & L2__STATUS__DONE_bm) break;
    if (tsim_cycles(t->sim) - t0 > 200000)
      return tf_fail(t, "slice %u: maintenance op %u not done after 200000 cycles (STATUS 0x%08x)", d, op, st);
    TF_CHECK_OK(t, tsim_step(t->sim, 16));
  }
  TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, STATUS), L2__STATUS__DONE_bm));
  *status = st;
  return TF_PASS;
}

static int maint_ok(tf_ctx_t *t, unsigned d, unsigned op, int whole, uint32_t start, uint32_t end) {
  uint32_t st = 0;
  int rc = maint(t, d, op, whole, start, end, &st);
  if (rc != TF_PASS) return rc;
  if (FIELD(st, L2__STATUS__ERR_CODE) || (st & L2__STATUS__WB_ERR_bm))
    return tf_fail(t, "slice %u: maintenance op %u failed, STATUS 0x%08x", d, op, st);
  return TF_PASS;
}

static void job_init(cjob_t *j, uint32_t s) {
  memset(j, 0, sizeof *j);
  j->g.m = j->g.n = j->g.k = s;
  j->g.ta = j->g.tb = NF_BF16;
  j->g.tc = NF_FP32;
}

/* Compare device memory [addr, addr+len) (back door) with `want`. */
static int mem_equals(tf_ctx_t *t, uint32_t addr, const uint8_t *want, size_t len) {
  uint8_t *got = malloc(len);
  tsim_mem_read(t->sim, addr, got, len);
  int same = memcmp(got, want, len) == 0;
  free(got);
  return same;
}

/* Every MME runs its own GEMM at the same time, each through its DCORE's slice; C is
 * checked through the back door and, for a sample of words, through the host port;
 * the slices' counters match the engines' traffic. */
TF_TEST(l2, mmes_through_slices, 6000000) {
  cjob_t j[TESSERA_NUM_MME];
  int rc = TF_PASS;
  for (unsigned e = 0; e < TESSERA_NUM_MME; e++) {
    job_init(&j[e], 2 * R + 3 * e);
    cjob_prepare(t, &j[e], TESSERA_HBM_BASE + 0x400000u * (e + 1) + 256u * tf_rand_below(t, 32));
  }
  for (unsigned e = 0; e < TESSERA_NUM_MME && rc == TF_PASS; e++) {
    rc = cnt_clear(t, e);
    if (rc == TF_PASS) rc = cjob_program(t, (int)e, &j[e], 0, j[e].g.m, 0xC0DEu + e);
  }
  if (rc == TF_PASS) {
    TF_CHECK_OK(t, tsim_l2_invalidate_all(t->sim));
    for (unsigned e = 0; e < TESSERA_NUM_MME; e++)
      TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(e, CTRL), MME__CTRL__COMMIT_bm));
    cjob_done_t dn = {(1u << TESSERA_NUM_MME) - 1u};
    TF_CHECK_OK(t, tsim_run_until(t->sim, cjob_engines_done, &dn, t->budget, 16));
    TF_CHECK_OK(t, tsim_l2_flush_all(t->sim));
  }
  for (unsigned e = 0; e < TESSERA_NUM_MME && rc == TF_PASS; e++) {
    uint32_t st = 0, msg = 0, hits = 0, miss = 0, p0 = 0, p1 = 0, p2 = 0, p3 = 0, p4 = 0, brd = 0;
    TF_CHECK_OK(t, tsim_host_read32(t->sim, MME_REG(e, STATUS), &st));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, SCRATCH(e), &msg));
    if (FIELD(st, MME__STATUS__ERR) || msg != 0xC0DEu + e)
      return tf_fail(t, "MME%u: status 0x%08x, message 0x%x", e, st, msg);
    rc = cjob_check_c(t, &j[e]);
    /* host port reads of C (through the fabric, behind the slice) */
    for (unsigned i = 0; i < 16 && rc == TF_PASS; i++) {
      uint32_t row = tf_rand_below(t, j[e].g.m), col = tf_rand_below(t, j[e].g.n), v = 0;
      uint32_t off = row * j[e].ldc + 4u * col, want;
      memcpy(&want, j[e].cexp + off, 4);
      TF_CHECK_OK(t, tsim_host_read32(t->sim, j[e].c + off, &v));
      if (v != want) rc = tf_fail(t, "MME%u C[%u][%u] via host port 0x%08x, expected 0x%08x", e, row, col, v, want);
    }
    if (rc != TF_PASS) break;
    if ((rc = rd(t, L2_REG(e, HITS), &hits)) || (rc = rd(t, L2_REG(e, MISSES), &miss)) ||
        (rc = rd(t, L2_REG(e, PORT0_BYTES), &p0)) || (rc = rd(t, L2_REG(e, PORT1_BYTES), &p1)) ||
        (rc = rd(t, L2_REG(e, PORT2_BYTES), &p2)) || (rc = rd(t, L2_REG(e, PORT3_BYTES), &p3)) ||
        (rc = rd(t, L2_REG(e, PORT4_BYTES), &p4)) ||
        (rc = rd(t, MME_REG(e, PERF_BYTES_RD), &brd)))
      break;
    tf_log(t, "slice %u: hits %u, misses %u, port 0 %u + port 3 %u bytes (MME read %u)", e, hits,
           miss, p0, p3, brd);
    /* C bytes the MME writes: each column tile (MME_COLS FP32 columns) writes the 32-byte
     * beats its columns touch, so with tiles narrower than a beat (2x2 arrays: 8 bytes)
     * a beat is written once per tile in it */
    uint32_t cbeats = 0;
    for (uint32_t c0 = 0; c0 < j[e].g.n; c0 += TESSERA_MME_COLS) {
      uint32_t c1 = c0 + TESSERA_MME_COLS < j[e].g.n ? c0 + TESSERA_MME_COLS : j[e].g.n;
      cbeats += (4u * c1 - 1u) / 32u - (4u * c0) / 32u + 1u;
    }
    uint32_t cbytes = j[e].g.m * 32u * cbeats;
    /* the MME reads B on port 3 (its B port) and everything else on port 0 */
    uint32_t bbytes = j[e].g.k * j[e].g.n * (uint32_t)nf_bytes(j[e].g.tb);
    if (hits == 0 || miss == 0) rc = tf_fail(t, "slice %u: hits %u misses %u", e, hits, miss);
    else if (p0 + p3 != brd + cbytes)
      rc = tf_fail(t, "slice %u: port 0 + port 3 bytes %u + %u != MME reads %u + C %u", e, p0, p3, brd, cbytes);
    else if (p3 < bbytes)
      rc = tf_fail(t, "slice %u: port 3 (MME B port) %u bytes, B is at least %u", e, p3, bbytes);
    else if (p1 || p2 || p4)
      rc = tf_fail(t, "slice %u: traffic on ports without an engine (%u, %u, %u)", e, p1, p2, p4);
  }
  for (unsigned e = 0; e < TESSERA_NUM_MME; e++) cjob_free(&j[e]);
  return rc;
}

/* Set-index hash (CTRL.set_hash): an FP8 GEMM whose B rows are 4 KiB apart (16 x 4096 x K)
 * runs bit-exact with the hash on, and the slice fetches every line about once. The K
 * lines of one 64-byte column block of B share their bank bits (4 KiB is a multiple of
 * line x banks), so the hash can spread them over the L2 / (line x banks) lines of that
 * bank position (128 in proto, 64 in tiny); K is half of that (64 in proto, 32 in tiny),
 * leaving room for A, C and the read-ahead. With the plain index the K rows fall into one
 * or two sets of 8 ways and B lines are fetched again for later column panels (proto: 20 496
 * misses for 8 208 lines), which fails the check; docs/l2.md "Banks". */
#define SH_K (TESSERA_L2_BYTES_PER_DCORE / (TESSERA_L2_LINE_BYTES * TESSERA_L2_BANKS) / 2u)
TF_TEST(l2, set_hash_gemm, 8000000) {
  cjob_t j;
  memset(&j, 0, sizeof j);
  j.g.m = 16;
  j.g.n = 4096;
  j.g.k = SH_K;
  j.g.ta = j.g.tb = NF_E4M3;
  j.g.tc = NF_FP32;
  cjob_prepare(t, &j, TESSERA_HBM_BASE + 0x1000000u);
  int rc = chip_l2_set_hash(t, 1);
  if (rc == TF_PASS) rc = cnt_clear(t, 0);
  uint64_t cyc = 0;
  if (rc == TF_PASS) rc = cjob_run(t, &j, 1u, 0, &cyc);
  uint32_t miss = 0;
  if (rc == TF_PASS) rc = rd(t, L2_REG(0, MISSES), &miss);
  /* lines of A, B and C, each missed once, plus a margin of 1/16 (maintenance lookups do
   * not count as misses) */
  uint32_t lines = (j.g.m * j.g.k + j.g.k * j.g.n + j.g.m * j.ldc) / TESSERA_L2_LINE_BYTES;
  if (rc == TF_PASS) {
    tf_log(t, "hashed set index: %llu cycles, %u misses for %u lines", (unsigned long long)cyc, miss, lines);
    if (miss > lines + lines / 16) rc = tf_fail(t, "hashed set index: %u misses for %u lines of A, B, C", miss, lines);
  }
  if (rc == TF_PASS) rc = chip_l2_set_hash(t, 0);
  cjob_free(&j);
  return rc;
}

/* The coherence contract in action: operands rewritten behind the L2 are not seen
 * by a job started without an invalidate (it computes the old C from cached lines);
 * after an INVALIDATE the job sees the new operands. */
TF_TEST(l2, stale_lines_need_invalidate, 4000000) {
  cjob_t j;
  job_init(&j, 4 * R);
  cjob_prepare(t, &j, TESSERA_HBM_BASE + 0x800000u);
  int rc = cjob_run(t, &j, 1u, 0, NULL);  /* A, B, C now cached in slice 0 */
  uint8_t *old = NULL;
  size_t csz = (size_t)j.g.m * j.ldc;
  if (rc == TF_PASS) {
    old = malloc(csz);
    memcpy(old, j.cexp, csz);
    cjob_free(&j);
    job_init(&j, 4 * R);
    cjob_prepare(t, &j, TESSERA_HBM_BASE + 0x800000u);  /* new A, B, golden (same addresses) */
    if (memcmp(old, j.cexp, csz) == 0) rc = tf_fail(t, "new operands give the same C");
  }
  if (rc == TF_PASS) rc = cjob_run(t, &j, 1u, CJOB_WARM | CJOB_NO_CHECK, NULL);
  if (rc == TF_PASS) {
    TF_CHECK_OK(t, tsim_l2_flush_all(t->sim));
    if (!mem_equals(t, j.c, old, csz)) rc = tf_fail(t, "without an invalidate the job did not use the cached operands");
  }
  if (rc == TF_PASS) rc = cjob_run(t, &j, 1u, 0, NULL);  /* invalidate first: new C */
  free(old);
  cjob_free(&j);
  return rc;
}

/* FLUSH / DISCARD / INVALIDATE on ranges through slice 0's registers, checked
 * against memory (back door) and the exact write-back and miss counts. */
TF_TEST(l2, maint_ranges, 6000000) {
  cjob_t j;
  job_init(&j, 4 * R);
  cjob_prepare(t, &j, TESSERA_HBM_BASE + 0xC00000u);
  size_t csz = (size_t)j.g.m * j.ldc, half = (csz / 2) & ~(size_t)63;
  uint32_t c0 = j.c, c1 = j.c + (uint32_t)half, c2 = j.c + (uint32_t)csz;
  uint32_t v = 0;
  int rc = TF_PASS;
#define STEP(x) \
  if (rc == TF_PASS) rc = (x)
  STEP(cjob_run(t, &j, 1u, CJOB_NO_CHECK, NULL));
  /* write-back cache: C is only in the slice */
  if (rc == TF_PASS && !mem_equals(t, c0, j.ci, csz)) rc = tf_fail(t, "C reached memory without a flush");
  STEP(cnt_clear(t, 0));
  STEP(maint_ok(t, 0, TSIM_L2_FLUSH, 0, c0, c1));
  if (rc == TF_PASS && !(mem_equals(t, c0, j.cexp, half) && mem_equals(t, c1, j.ci + half, csz - half)))
    rc = tf_fail(t, "range FLUSH: memory does not hold exactly the first half of C");
  STEP(rd(t, L2_REG(0, WRITEBACKS), &v));
  if (rc == TF_PASS && v != half / 64) rc = tf_fail(t, "range FLUSH wrote back %u lines, expected %zu", v, half / 64);
  /* DISCARD the second half: dirty lines dropped, a later whole FLUSH writes nothing */
  STEP(maint_ok(t, 0, TSIM_L2_DISCARD, 0, c1, c2));
  STEP(maint_ok(t, 0, TSIM_L2_FLUSH, 1, 0, 0));
  STEP(rd(t, L2_REG(0, WRITEBACKS), &v));
  if (rc == TF_PASS && v != half / 64) rc = tf_fail(t, "write-backs after DISCARD + FLUSH: %u, expected %zu", v, half / 64);
  if (rc == TF_PASS && !mem_equals(t, c1, j.ci + half, csz - half)) rc = tf_fail(t, "discarded lines reached memory");
  /* warm re-run: only the discarded lines miss (one miss per 64-byte line written) */
  STEP(cnt_clear(t, 0));
  STEP(cjob_run(t, &j, 1u, CJOB_WARM | CJOB_NO_CHECK, NULL));
  STEP(rd(t, L2_REG(0, MISSES), &v));
  if (rc == TF_PASS && v != (csz - half) / 64)
    rc = tf_fail(t, "warm re-run after DISCARD: %u misses, expected %zu", v, (csz - half) / 64);
  /* INVALIDATE everything: dirty C written back, then a re-run misses on every line */
  STEP(maint_ok(t, 0, TSIM_L2_INVALIDATE, 1, 0, 0));
  if (rc == TF_PASS && !mem_equals(t, c0, j.cexp, csz)) rc = tf_fail(t, "INVALIDATE did not write C back");
  STEP(cnt_clear(t, 0));
  STEP(cjob_run(t, &j, 1u, CJOB_WARM, NULL));
  STEP(rd(t, L2_REG(0, MISSES), &v));
  size_t lines = ((size_t)j.g.m * j.lda + (size_t)j.g.k * j.ldb + csz) / 64;
  if (rc == TF_PASS && v < lines) rc = tf_fail(t, "after INVALIDATE: %u misses, expected at least %zu", v, lines);
#undef STEP
  cjob_free(&j);
  return rc;
}

/* An engine access to unpopulated device memory (HBM model populated to 64 MiB; with
 * the SDRAM, device_memory = "sdram", the memory above its 32 MiB, which the controller
 * answers with DECERR):
 * a read (B) gets DECERR through the slice and the MME reports error 7. A write (C):
 * where a tile's FP32 row is whole lines (MME_COLS x 4 bytes a multiple of the line, 16
 * columns in proto) the MME writes whole lines, which the slice allocates without a
 * refill read (docs/l2.md, "Full-line writes"), so the job completes and the error
 * surfaces at the write-back: after a flush, STATUS.wb_err with ERR_ADDR in the hole (and
 * only then). With narrower rows (8 columns, 32 bytes in tiny) every C write is a partial
 * line: its refill read gets DECERR, the MME reports error 7, nothing of the hole stays
 * in the slice (the flush finds no write-back error). Nothing hangs and the next job
 * runs correctly. */
#define C_FULL_LINES ((TESSERA_MME_COLS * 4u) % TESSERA_L2_LINE_BYTES == 0u)
TF_TEST(l2, unmapped_access_engine_error, 4000000) {
  const uint32_t pop = tsim_has_sdram() ? TESSERA_SDRAM_BYTES : 64u << 20, hole = TESSERA_HBM_BASE + pop;
  if (!tsim_has_sdram()) tsim_hbm_set_size(t->sim, pop);
  uint32_t v = 0;
  if (tsim_host_read32(t->sim, hole + 0x1000u, &v) != TSIM_EBUS)
    return tf_fail(t, "host read of unpopulated memory did not fail");
  for (int which = 0; which < 2; which++) { /* 0: B unreadable, 1: C unwritable */
    cjob_t j;
    job_init(&j, 2 * R);
    cjob_prepare(t, &j, TESSERA_HBM_BASE + 0x1000000u);
    if (which == 0) j.b = hole + 0x4000u;
    else j.c = hole + 0x8000u;
    int rc = cjob_program(t, 0, &j, 0, j.g.m, 0xE77u);
    if (rc == TF_PASS) rc = tsim_l2_invalidate_all(t->sim) == TSIM_OK ? TF_PASS : tf_fail(t, "invalidate");
    if (rc == TF_PASS) {
      TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(0, CTRL), MME__CTRL__COMMIT_bm));
      cjob_done_t dn = {1u};
      TF_CHECK_OK(t, tsim_run_until(t->sim, cjob_engines_done, &dn, 1000000, 16));
      uint32_t st = 0, l2st = 0;
      TF_CHECK_OK(t, tsim_host_read32(t->sim, MME_REG(0, STATUS), &st));
      TF_CHECK_OK(t, tsim_host_read32(t->sim, L2_REG(0, STATUS), &l2st));
      tf_log(t, "%s unpopulated: MME STATUS 0x%08x, L2 STATUS 0x%08x", which ? "C" : "B", st, l2st);
      unsigned want = which && C_FULL_LINES ? 0u : 7u;
      if (FIELD(st, MME__STATUS__ERR) != want) rc = tf_fail(t, "MME error code %u, expected %u",
                                                           (unsigned)FIELD(st, MME__STATUS__ERR), want);
      else if (l2st & L2__STATUS__WB_ERR_bm) rc = tf_fail(t, "slice reports a write-back error before the flush");
      TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(0, STATUS), MME__STATUS__DONE_bm));
      if (rc == TF_PASS && which && !C_FULL_LINES) {
        /* partial lines: refused at the refill, so the flush writes nothing into the hole */
        if (tsim_l2_flush_all(t->sim) != TSIM_OK) rc = tf_fail(t, "flush after partial-line writes into the hole failed");
        TF_CHECK_OK(t, tsim_host_read32(t->sim, L2_REG(0, STATUS), &l2st));
        tf_log(t, "after the flush: L2 STATUS 0x%08x", l2st);
        if (rc == TF_PASS && (l2st & L2__STATUS__WB_ERR_bm))
          rc = tf_fail(t, "write-back error after partial-line writes: a line of the hole was allocated");
      } else if (rc == TF_PASS && which) {
        uint32_t ea = 0;
        /* the flush completes; the sim API reports the slice's write-back error as TSIM_EBUS */
        if (tsim_l2_flush_all(t->sim) != TSIM_EBUS) rc = tf_fail(t, "flush did not report the write-back error");
        TF_CHECK_OK(t, tsim_host_read32(t->sim, L2_REG(0, STATUS), &l2st));
        TF_CHECK_OK(t, tsim_host_read32(t->sim, L2_REG(0, ERR_ADDR), &ea));
        tf_log(t, "after the flush: L2 STATUS 0x%08x, ERR_ADDR 0x%08x", l2st, ea);
        if (!(l2st & L2__STATUS__WB_ERR_bm)) rc = tf_fail(t, "no write-back error for C in the hole");
        else if (ea < hole) rc = tf_fail(t, "ERR_ADDR 0x%08x not in the hole", ea);
        TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(0, STATUS), L2__STATUS__WB_ERR_bm));
      }
    }
    cjob_free(&j);
    if (rc != TF_PASS) return rc;
    /* the slice keeps working (no dirty line of the hole is left behind) */
    TF_CHECK_OK(t, tsim_l2_flush_all(t->sim));
  }
  cjob_t j;
  job_init(&j, 2 * R);
  cjob_prepare(t, &j, TESSERA_HBM_BASE + 0x1000000u);
  int rc = cjob_run(t, &j, 1u, 0, NULL);
  cjob_free(&j);
  return rc;
}

/* Maintenance commands with bad operands are refused with an error code, an
 * interrupt (INTC source 12 + d) and no completion message; an accepted command
 * sends its message. A command while one runs is refused with code 3. */
TF_TEST(l2, maint_refused, 2000000) {
  static const struct { unsigned op; uint32_t start, end; unsigned code; const char *what; } bad[] = {
      {0, TESSERA_HBM_BASE, TESSERA_HBM_BASE + 64u, 1, "op 0"},
      {TSIM_L2_FLUSH, TESSERA_HBM_BASE + 128u, TESSERA_HBM_BASE + 128u, 2, "empty range"},
      {TSIM_L2_INVALIDATE, TESSERA_HBM_BASE + 256u, TESSERA_HBM_BASE + 64u, 2, "start > end"},
      {TSIM_L2_FLUSH, TESSERA_HBM_BASE + 32u, TESSERA_HBM_BASE + 128u, 2, "misaligned start"},
      {TSIM_L2_DISCARD, TESSERA_DSRAM_BASE, TESSERA_DSRAM_BASE + 64u, 2, "outside device memory"},
      {TSIM_L2_FLUSH, TESSERA_HBM_BASE + TESSERA_HBM_SIZE - 64u, TESSERA_HBM_BASE + TESSERA_HBM_SIZE + 64u, 2,
       "past the end of device memory"},
  };
  for (unsigned d = 0; d < TESSERA_NUM_L2; d++) {
    uint32_t scr = SCRATCH(L2_MSG_SCRATCH(d)), v = 0, pend = 0;
    TF_CHECK_OK(t, tsim_host_write32(t->sim, scr, 0));
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, MSG_ADDR), scr));
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, MSG_DATA), 0x12C0u + d));
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, MSG_CTRL), L2__MSG_CTRL__EN_bm));
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, IE), L2__IE__ERR_bm));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      uint32_t st = 0;
      int rc = maint(t, d, bad[i].op, 0, bad[i].start, bad[i].end, &st);
      if (rc != TF_PASS) return rc;
      TF_CHECK_OK(t, tsim_host_read32(t->sim, INTC_PENDING, &pend));
      TF_CHECK_OK(t, tsim_host_read32(t->sim, scr, &v));
      if (FIELD(st, L2__STATUS__ERR_CODE) != bad[i].code)
        return tf_fail(t, "slice %u, %s: error code %u, expected %u", d, bad[i].what,
                       (unsigned)FIELD(st, L2__STATUS__ERR_CODE), bad[i].code);
      if (!((pend >> L2_IRQ_SRC(d)) & 1u)) return tf_fail(t, "slice %u, %s: no interrupt", d, bad[i].what);
      if (v != 0) return tf_fail(t, "slice %u, %s: a refused command sent a message", d, bad[i].what);
    }
    /* an accepted command clears the error (and the interrupt) and sends its message */
    int rc = maint_ok(t, d, TSIM_L2_FLUSH, 0, TESSERA_HBM_BASE, TESSERA_HBM_BASE + 4096u);
    if (rc != TF_PASS) return rc;
    TF_CHECK_OK(t, tsim_host_read32(t->sim, INTC_PENDING, &pend));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, scr, &v));
    if ((pend >> L2_IRQ_SRC(d)) & 1u) return tf_fail(t, "slice %u: interrupt still pending", d);
    if (v != 0x12C0u + d) return tf_fail(t, "slice %u: completion message 0x%x", d, v);
    /* busy: a second command during a whole INVALIDATE */
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, MAINT_CMD),
                                     (TSIM_L2_INVALIDATE << L2__MAINT_CMD__OP_bp) | L2__MAINT_CMD__WHOLE_bm |
                                         L2__MAINT_CMD__GO_bm));
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, MAINT_CMD),
                                     (TSIM_L2_FLUSH << L2__MAINT_CMD__OP_bp) | L2__MAINT_CMD__WHOLE_bm |
                                         L2__MAINT_CMD__GO_bm));
    uint32_t st = 0;
    TF_CHECK_OK(t, tsim_host_read32(t->sim, L2_REG(d, STATUS), &st));
    if (FIELD(st, L2__STATUS__ERR_CODE) != 3 || !(st & L2__STATUS__BUSY_bm))
      return tf_fail(t, "slice %u: command while busy: STATUS 0x%08x, expected busy and code 3", d, st);
    for (int n = 0; st & L2__STATUS__BUSY_bm; n++) {
      if (n > 10000) return tf_fail(t, "slice %u: INVALIDATE does not end", d);
      TF_CHECK_OK(t, tsim_step(t->sim, 16));
      TF_CHECK_OK(t, tsim_host_read32(t->sim, L2_REG(d, STATUS), &st));
    }
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, IE), 0));
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, STATUS), L2__STATUS__DONE_bm));
  }
  return TF_PASS;
}

/* Shared mode: the slices act as one cache interleaved by 256-byte granule. One
 * MME's traffic is spread over every slice; a GEMM split over all MMEs is correct;
 * back in private mode each MME uses its own slice again. */
TF_TEST(l2, shared_mode, 6000000) {
  if (TESSERA_NUM_L2 < 2) {
    tf_log(t, "one slice in this configuration: shared mode is the private mode");
    return TF_PASS;
  }
  unsigned k = 0;
  while ((1u << k) < TESSERA_NUM_L2) k++;
  TF_CHECK_OK(t, tsim_l2_invalidate_all(t->sim));
  for (unsigned d = 0; d < TESSERA_NUM_L2; d++) {
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, SHARED),
                                     (k << L2__SHARED__SLICES_LOG2_bp) | (d << L2__SHARED__SLICE_ID_bp)));
    int rc = cnt_clear(t, d);
    if (rc != TF_PASS) return rc;
  }
  cjob_t j;
  job_init(&j, 2 * R + 5);
  cjob_prepare(t, &j, TESSERA_HBM_BASE + 0x1400000u);
  int rc = cjob_run(t, &j, 1u, 0, NULL);
  for (unsigned d = 0; d < TESSERA_NUM_L2 && rc == TF_PASS; d++) {
    uint32_t p0 = 0, p3 = 0;
    rc = rd(t, L2_REG(d, PORT0_BYTES), &p0);
    if (rc == TF_PASS) rc = rd(t, L2_REG(d, PORT3_BYTES), &p3);
    tf_log(t, "shared mode, MME 0 only: slice %u port 0 %u bytes, port 3 (B) %u bytes", d, p0, p3);
    if (rc == TF_PASS && (p0 == 0 || p3 == 0))
      rc = tf_fail(t, "slice %u saw no traffic of MME 0's port %s in shared mode", d, p0 ? "3" : "0");
  }
  if (rc == TF_PASS) rc = cjob_run(t, &j, (1u << TESSERA_NUM_MME) - 1u, 0, NULL);
  cjob_free(&j);
  if (rc != TF_PASS) return rc;
  /* back to private mode (slices emptied first) */
  TF_CHECK_OK(t, tsim_l2_invalidate_all(t->sim));
  for (unsigned d = 0; d < TESSERA_NUM_L2; d++) {
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, SHARED), 0));
    rc = cnt_clear(t, d);
    if (rc != TF_PASS) return rc;
  }
  job_init(&j, 2 * R);
  cjob_prepare(t, &j, TESSERA_HBM_BASE + 0x1800000u);
  rc = cjob_run(t, &j, 1u, 0, NULL);
  uint32_t p0 = 0, p3 = 0;
  if (rc == TF_PASS) rc = rd(t, L2_REG(1, PORT0_BYTES), &p0);
  if (rc == TF_PASS) rc = rd(t, L2_REG(1, PORT3_BYTES), &p3);
  if (rc == TF_PASS && (p0 || p3)) rc = tf_fail(t, "private mode: slice 1 saw %u + %u bytes of MME 0", p0, p3);
  cjob_free(&j);
  return rc;
}

/* ---------------------------------------------------------------- benchmarks
 * `make bench` (line l2_chip). Streaming + reuse mix on slice 0 through MME 0: a
 * reuse job X (M=N=K=4*rows, BF16 -> FP32, A+B+C = half the slice in proto) runs,
 * then a streaming job Y whose operands and result are larger than the slice, then X
 * again (warm: no invalidate). X's lines are class 3; Y's hint varies. Reported: the
 * cycles and misses of X's second run (ideal: 0 misses, X fully cached) and of Y. */
static int hint_mix(tf_ctx_t *t, uint32_t ycache, const char *what) {
  cjob_t x, y;
  job_init(&x, 4 * R);
  memset(&y, 0, sizeof y);
  y.g.m = 16 * R;  /* A 16R x 4R, B 4R x 4R, C 16R x 4R FP32 */
  y.g.n = y.g.k = 4 * R;
  y.g.ta = y.g.tb = NF_BF16;
  y.g.tc = NF_FP32;
  cjob_prepare(t, &x, TESSERA_HBM_BASE + 0x2000000u);
  cjob_prepare(t, &y, TESSERA_HBM_BASE + 0x3000000u);
  x.cache = MME__CACHE__RD_ALLOC_bm | MME__CACHE__WR_ALLOC_bm | (3u << MME__CACHE__RD_CLASS_bp) |
            (3u << MME__CACHE__WR_CLASS_bp);
  y.cache = ycache;
  uint64_t ycyc = 0, xcyc = 0;
  uint32_t ymiss = 0, xmiss = 0;
  int rc = cjob_run(t, &x, 1u, 0, NULL);
  if (rc == TF_PASS) rc = cnt_clear(t, 0);
  if (rc == TF_PASS) rc = cjob_run(t, &y, 1u, CJOB_WARM | CJOB_NO_CHECK, &ycyc);
  if (rc == TF_PASS) rc = rd(t, L2_REG(0, MISSES), &ymiss);
  if (rc == TF_PASS) rc = cnt_clear(t, 0);
  if (rc == TF_PASS) rc = cjob_run(t, &x, 1u, CJOB_WARM | CJOB_NO_CHECK, &xcyc);
  if (rc == TF_PASS) rc = rd(t, L2_REG(0, MISSES), &xmiss);
  if (rc == TF_PASS) {
    TF_CHECK_OK(t, tsim_l2_flush_all(t->sim));
    rc = cjob_check_c(t, &x);
  }
  if (rc == TF_PASS) rc = cjob_check_c(t, &y);
  if (rc == TF_PASS) {
    double ideal = (double)x.g.m * x.g.n * x.g.k / ((double)TESSERA_MME_ROWS * TESSERA_MME_COLS);
    printf("L2BENCH hint mix, stream %-28s: stream %llu cycles %u misses; reuse re-run %llu cycles "
           "%u misses (utilization %.1f%%)\n",
           what, (unsigned long long)ycyc, ymiss, (unsigned long long)xcyc, xmiss, 100.0 * ideal / (double)xcyc);
    tf_bench(t, NULL, NULL, (double)xcyc, ideal, "\"misses\":%u,\"stream_cycles\":%llu,\"stream_misses\":%u",
             xmiss, (unsigned long long)ycyc, ymiss);
  }
  cjob_free(&x);
  cjob_free(&y);
  return rc;
}

TF_TEST_F(l2, bench_hint_mix_same_class, 20000000, TF_BENCH) {
  return hint_mix(t, MME__CACHE__RD_ALLOC_bm | MME__CACHE__WR_ALLOC_bm | (3u << MME__CACHE__RD_CLASS_bp) |
                         (3u << MME__CACHE__WR_CLASS_bp),
                  "allocate, class 3 (as reuse)");
}
TF_TEST_F(l2, bench_hint_mix_class0, 20000000, TF_BENCH) {
  return hint_mix(t, MME__CACHE__RD_ALLOC_bm | MME__CACHE__WR_ALLOC_bm, "allocate, class 0");
}
TF_TEST_F(l2, bench_hint_mix_no_alloc, 20000000, TF_BENCH) { return hint_mix(t, 0u, "no allocate"); }

/* Shared vs private mode throughput (docs/l2.md "Shared-mode routing"): a cold BF16
 * GEMM of s x s x s (FP32 C) on MME 0 alone, then split over every MME, with the
 * slices in the given mode. Reported: cycles and utilization (ideal = M*N*K / (R*C) per
 * MME). The slices go back to private mode afterwards. */
static int set_mode(tf_ctx_t *t, unsigned k) {
  TF_CHECK_OK(t, tsim_l2_invalidate_all(t->sim));
  for (unsigned d = 0; d < TESSERA_NUM_L2; d++)
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, SHARED),
                                     (k << L2__SHARED__SLICES_LOG2_bp) | ((k ? d : 0u) << L2__SHARED__SLICE_ID_bp)));
  return TF_PASS;
}

static int mode_gemm(tf_ctx_t *t, unsigned k, uint32_t s) {
  cjob_t j;
  job_init(&j, s);
  cjob_prepare(t, &j, TESSERA_HBM_BASE + 0x2000000u);
  int rc = set_mode(t, k);
  const unsigned masks[2] = {1u, (1u << TESSERA_NUM_MME) - 1u};
  for (unsigned i = 0; i < 2 && rc == TF_PASS; i++) {
    uint64_t cyc = 0;
    rc = cjob_run(t, &j, masks[i], 0, &cyc);
    unsigned engines = i ? TESSERA_NUM_MME : 1u;
    double ideal = (double)s * s * s / ((double)TESSERA_MME_ROWS * TESSERA_MME_COLS * engines);
    if (rc == TF_PASS)
      printf("L2BENCH %s mode, GEMM BF16 %ux%ux%u cold on %u MME(s): %llu cycles (utilization %.1f%%)\n",
             k ? "shared " : "private", s, s, s, engines, (unsigned long long)cyc, 100.0 * ideal / (double)cyc);
    if (rc == TF_PASS) {
      char sub[16];
      snprintf(sub, sizeof sub, "%umme", engines);
      tf_bench(t, sub, NULL, (double)cyc, ideal, "\"mode\":\"%s\",\"m\":%u,\"n\":%u,\"k\":%u,\"engines\":%u",
               k ? "shared" : "private", s, s, s, engines);
    }
  }
  cjob_free(&j);
  int rc2 = set_mode(t, 0);
  return rc != TF_PASS ? rc : rc2;
}

static unsigned log2_slices(void) {
  unsigned k = 0;
  while ((1u << k) < TESSERA_NUM_L2) k++;
  return k;
}

TF_TEST_F(l2, bench_mode_private, 40000000, TF_BENCH) { return mode_gemm(t, 0, 8 * R); }
TF_TEST_F(l2, bench_mode_shared, 40000000, TF_BENCH) { return mode_gemm(t, log2_slices(), 8 * R); }

int chip_l2_all_shared(tf_ctx_t *t) {
  unsigned k = 0;
  while ((1u << k) < TESSERA_NUM_L2) k++;
  TF_CHECK_OK(t, tsim_l2_invalidate_all(t->sim));
  for (unsigned d = 0; d < TESSERA_NUM_L2; d++)
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, SHARED),
                                     (k << L2__SHARED__SLICES_LOG2_bp) | (d << L2__SHARED__SLICE_ID_bp)));
  return TF_PASS;
}

int chip_l2_set_hash(tf_ctx_t *t, int on) {
  TF_CHECK_OK(t, tsim_l2_invalidate_all(t->sim));
  for (unsigned d = 0; d < TESSERA_NUM_L2; d++) {
    uint32_t c = 0;
    TF_CHECK_OK(t, tsim_host_read32(t->sim, L2_REG(d, CTRL), &c));
    c = on ? (c | L2__CTRL__SET_HASH_bm) : (c & ~(uint32_t)L2__CTRL__SET_HASH_bm);
    TF_CHECK_OK(t, tsim_host_write32(t->sim, L2_REG(d, CTRL), c));
  }
  return TF_PASS;
}

