// tessera_spiflash block testbench (through tests/spiflash/tb_spiflash_top.sv) against
// the simulator's SPI NOR flash model (sim/src/tsim_flash.cpp). Every data result is
// checked against a reference array kept here (erase = 0xFF, program = AND), and the
// model's own array is compared with it through the back door.
// Usage: Vtb_spiflash_top [--seed N] [--only SCENARIO]; last line "N passed, M failed".
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <unistd.h>

#include "Vtb_spiflash_top.h"
#include "verilated.h"

#include "apb_drv.h"
#include "blk_tb.h"
#include "regs/spiflash_regs.h"
#include "tessera/spiflash.h"
#include "tessera_flash.h"

namespace {

const uint32_t kFlash = 1u << 20;   // FlashBytes of the wrapper and the model's size
const uint32_t kProgCycles = 1500, kEraseCycles = 6000;
const uint32_t kCtrl = offsetof(spiflash_t, CTRL), kAddr = offsetof(spiflash_t, ADDR),
               kLen = offsetof(spiflash_t, LEN), kCmd = offsetof(spiflash_t, CMD),
               kStatus = offsetof(spiflash_t, STATUS), kId = offsetof(spiflash_t, ID),
               kIntr = offsetof(spiflash_t, INTR_STATE), kIe = offsetof(spiflash_t, INTR_ENABLE),
               kWdata = offsetof(spiflash_t, WDATA), kRdata = offsetof(spiflash_t, RDATA),
               kSize = offsetof(spiflash_t, FLASH_SIZE), kPolls = offsetof(spiflash_t, POLLS),
               kFifoCtrl = offsetof(spiflash_t, FIFO_CTRL);

Vtb_spiflash_top *dut;
tflash_t *flash;
uint64_t cyc;
int miso = 1;
// SCK timing: cycles between two SCK edges of one CS-low period
uint64_t last_edge, sck_min_half = ~0ull, sck_max_half;
int last_sck;
bool edge_seen;

void step() {
  dut->clk_i = 0;
  dut->miso_i = miso;
  dut->eval();
  dut->clk_i = 1;
  dut->eval();
  cyc++;
  miso = tflash_pins(flash, dut->csn_o, dut->sck_o, dut->mosi_o);
  if (dut->csn_o) {
    edge_seen = false;
  } else if (dut->sck_o != last_sck) {
    const uint64_t h = cyc - last_edge;
    if (edge_seen && h < sck_min_half) sck_min_half = h;
    if (edge_seen && h > sck_max_half) sck_max_half = h;
    edge_seen = true;
    last_edge = cyc;
  }
  last_sck = dut->sck_o;
}
void settle() { dut->clk_i = 0; dut->eval(); }

tb::ApbDriver<TB_APB_ADDR_T(dut, apb_)> *apb;

void reset() {
  apb->idle();
  dut->rst_ni = 0;
  for (int i = 0; i < 4; i++) step();
  dut->rst_ni = 1;
  step();
}
uint32_t rd(uint32_t a) {
  uint32_t v = 0;
  if (apb->read(a, &v) != 0) v = 0xDEADBEEF;
  return v;
}
void wr(uint32_t a, uint32_t v) { (void)apb->write(a, v); }
unsigned err_of(uint32_t st) { return (st & SPIFLASH__STATUS__ERR_bm) >> SPIFLASH__STATUS__ERR_bp; }

// start a command and wait until STATUS.busy clears; returns STATUS.err
unsigned run_cmd(uint32_t cmd, uint64_t budget = 2000000) {
  wr(kCmd, cmd);
  uint32_t st;
  const uint64_t end = cyc + budget;
  while (((st = rd(kStatus)) & SPIFLASH__STATUS__BUSY_bm) && cyc < end) {
  }
  return (st & SPIFLASH__STATUS__BUSY_bm) ? 0xFF : err_of(st);
}

unsigned read_bytes(uint32_t addr, uint32_t len, uint8_t *out, bool fast) {
  wr(kAddr, addr);
  wr(kLen, len);
  const unsigned e = run_cmd(fast ? SF_OP_FAST_READ : SF_OP_READ);
  if (e) return e;
  for (uint32_t i = 0; i < len; i += 4) {
    const uint32_t w = rd(kRdata);
    for (uint32_t b = 0; b < 4 && i + b < len; b++) out[i + b] = uint8_t(w >> (8 * b));
  }
  return 0;
}

unsigned program_bytes(uint32_t addr, const uint8_t *data, uint32_t len, bool poll = true) {
  wr(kFifoCtrl, 1);
  for (uint32_t i = 0; i < len; i += 4) {
    uint32_t w = 0;
    for (uint32_t b = 0; b < 4 && i + b < len; b++) w |= uint32_t(data[i + b]) << (8 * b);
    wr(kWdata, w);
  }
  wr(kAddr, addr);
  wr(kLen, len);
  return run_cmd(SF_OP_PROGRAM | SF_CMD_WREN | (poll ? SF_CMD_POLL : 0));
}

unsigned erase_sector(uint32_t addr) {
  wr(kAddr, addr);
  return run_cmd(SF_OP_ERASE_4K | SF_CMD_WREN | SF_CMD_POLL);
}

std::vector<uint8_t> ref;   // reference contents

bool same_as_ref(tb::Scenario &s, uint32_t addr, uint32_t len, const char *what) {
  const uint8_t *m = tflash_data(flash);
  for (uint32_t i = 0; i < len; i++) {
    if (m[addr + i] != ref[addr + i])
      return s.check(false, "%s: flash[0x%06x] = 0x%02x, reference 0x%02x", what, addr + i,
                     m[addr + i], ref[addr + i]);
  }
  return s.check(true, "");
}

void new_flash(uint64_t seed) {
  if (flash) tflash_destroy(flash);
  tflash_cfg_t c;
  std::memset(&c, 0, sizeof c);
  c.size = kFlash;
  c.prog_cycles = kProgCycles;
  c.erase_cycles = kEraseCycles;
  flash = tflash_create(&c);
  ref.assign(kFlash, 0xFF);
  tb::Rng r(seed);
  uint8_t *m = tflash_data(flash);
  for (uint32_t i = 0; i < kFlash; i++) ref[i] = m[i] = uint8_t(r.next());
}

tflash_stats_t stats() {
  tflash_stats_t st;
  tflash_stats(flash, &st);
  return st;
}

}  // namespace

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  tb::Run run("spiflash", argc, argv);
  dut = new Vtb_spiflash_top;
  tb::ApbDriver<TB_APB_ADDR_T(dut, apb_)> drv(TB_APB_PINS(dut, apb_), step, settle);
  apb = &drv;
  new_flash(run.seed());
  reset();

  run.scenario("id_status", [&](tb::Scenario &s, tb::Rng &) {
    s.eq(rd(kSize), kFlash, "FLASH_SIZE");
    s.eq(run_cmd(SF_OP_READ_ID), 0, "READ_ID err");
    s.eq(rd(kId), 0xEF4018, "ID (W25Q128JV)");
    s.eq(run_cmd(SF_OP_READ_STATUS), 0, "READ_STATUS err");
    s.eq((rd(kStatus) & SPIFLASH__STATUS__SR_bm) >> SPIFLASH__STATUS__SR_bp, 0, "SR idle");
    s.eq(run_cmd(SF_OP_WREN), 0, "WREN err");
    s.eq(tflash_status(flash), 2, "model WEL after WREN");
    s.eq(run_cmd(SF_OP_READ_STATUS), 0, "READ_STATUS err");
    s.eq((rd(kStatus) & SPIFLASH__STATUS__SR_bm) >> SPIFLASH__STATUS__SR_bp, 2, "SR WEL");
    s.eq(run_cmd(SF_OP_WRDI), 0, "WRDI err");
    s.eq(tflash_status(flash), 0, "model WEL after WRDI");
    s.eq(stats().violations, 0, "model protocol violations");
  });

  run.scenario("read_random", [&](tb::Scenario &s, tb::Rng &r) {
    std::vector<uint8_t> buf(256);
    for (int it = 0; it < 40; it++) {
      const unsigned div = r.below(4);
      wr(kCtrl, div);
      const uint32_t len = r.pct(20) ? 256 : r.range(1, 256);
      const uint32_t addr = r.pct(10) ? kFlash - len : r.below(kFlash - len + 1);
      const bool fast = r.pct(50);
      sck_min_half = ~0ull;
      sck_max_half = 0;
      if (!s.eq(read_bytes(addr, len, buf.data(), fast), 0, "read err")) break;
      s.check(std::memcmp(buf.data(), &ref[addr], len) == 0, "%s 0x%06x +%u (div %u): data differs",
              fast ? "FAST_READ" : "READ", addr, len, div);
      s.check(sck_min_half == div + 1 && sck_max_half == div + 1,
              "SCK half period %llu..%llu cycles, expected %u", (unsigned long long)sck_min_half,
              (unsigned long long)sck_max_half, div + 1);
      s.eq((rd(kStatus) & SPIFLASH__STATUS__FIFO_WORDS_bm), 0, "FIFO empty after draining");
    }
    wr(kCtrl, 0);
    s.eq(stats().violations, 0, "model protocol violations");
  });

  run.scenario("erase_program", [&](tb::Scenario &s, tb::Rng &r) {
    std::vector<uint8_t> buf(256), data(256);
    for (int it = 0; it < 6; it++) {
      const uint32_t sec = r.below(kFlash / SF_SECTOR_BYTES) * SF_SECTOR_BYTES;
      const tflash_stats_t before = stats();
      if (!s.eq(erase_sector(sec), 0, "erase err")) break;
      std::memset(&ref[sec], 0xFF, SF_SECTOR_BYTES);
      s.eq(stats().erases, before.erases + 1, "model erases");
      // WIP polling: the controller kept reading the status register while the erase ran
      const uint32_t polls = rd(kPolls);
      s.check(polls >= 2 && polls <= kEraseCycles / 20, "erase: %u WIP polls", polls);
      s.eq(tflash_status(flash), 0, "model idle (WIP, WEL clear) after the polled erase");
      same_as_ref(s, sec, SF_SECTOR_BYTES, "after erase");
      // random programs inside pages of the sector, some twice (bits only clear)
      for (int p = 0; p < 8; p++) {
        const uint32_t page = sec + r.below(SF_SECTOR_BYTES / SF_PAGE_BYTES) * SF_PAGE_BYTES;
        const uint32_t off = r.pct(40) ? 0 : r.below(SF_PAGE_BYTES);
        const uint32_t len = r.range(1, SF_PAGE_BYTES - off);
        for (uint32_t i = 0; i < len; i++) data[i] = uint8_t(r.next());
        if (!s.eq(program_bytes(page + off, data.data(), len), 0, "program err")) break;
        for (uint32_t i = 0; i < len; i++) ref[page + off + i] &= data[i];
        s.check(rd(kPolls) >= 2, "program: %u WIP polls", rd(kPolls));
        const uint32_t a = page + off;
        s.eq(read_bytes(a, len, buf.data(), r.pct(50)), 0, "read back err");
        s.check(std::memcmp(buf.data(), &ref[a], len) == 0, "program 0x%06x +%u: read back differs", a, len);
      }
      same_as_ref(s, sec, SF_SECTOR_BYTES, "sector after programs");
    }
    s.eq(stats().violations, 0, "model protocol violations");
  });

  run.scenario("errors", [&](tb::Scenario &s, tb::Rng &r) {
    std::vector<uint8_t> data(256, 0x00);
    wr(kIntr, 3);
    const tflash_stats_t before = stats();
    // program across a page boundary: refused, nothing on the pins
    const uint32_t page = r.below(kFlash / SF_PAGE_BYTES - 1) * SF_PAGE_BYTES;
    const uint32_t off = r.range(1, 255);
    s.eq(program_bytes(page + off, data.data(), SF_PAGE_BYTES - off + 1), SF_ERR_PAGE, "page cross");
    s.eq(rd(kIntr), SPIFLASH__INTR_STATE__ERR_bm, "INTR_STATE err only");
    wr(kIntr, 3);
    // past the flash: read, program, erase
    wr(kAddr, kFlash - 4);
    wr(kLen, 5);
    s.eq(run_cmd(SF_OP_READ), SF_ERR_RANGE, "read past the end");
    wr(kAddr, kFlash - 3);
    wr(kLen, 4);
    s.eq(run_cmd(SF_OP_FAST_READ), SF_ERR_RANGE, "fast read past the end");
    s.eq(program_bytes(kFlash - 2, data.data(), 4), SF_ERR_RANGE, "program past the end");
    wr(kAddr, kFlash);
    s.eq(run_cmd(SF_OP_ERASE_4K | SF_CMD_WREN), SF_ERR_RANGE, "erase past the end");
    wr(kAddr, SF_SECTOR_BYTES + 256);
    s.eq(run_cmd(SF_OP_ERASE_4K | SF_CMD_WREN), SF_ERR_ALIGN, "erase unaligned");
    wr(kAddr, 0);
    wr(kLen, 0);
    s.eq(run_cmd(SF_OP_READ), SF_ERR_LEN, "length 0");
    wr(kLen, 257);
    s.eq(run_cmd(SF_OP_READ), SF_ERR_LEN, "length 257");
    s.eq(run_cmd(9), SF_ERR_BAD_OP, "unknown op");
    wr(kFifoCtrl, 1);
    wr(kWdata, 0);
    wr(kLen, 8);
    s.eq(run_cmd(SF_OP_PROGRAM | SF_CMD_WREN), SF_ERR_DATA, "program data short");
    s.eq(stats().commands, before.commands, "refused commands send nothing to the flash");
    same_as_ref(s, 0, kFlash, "whole flash after refusals");
    // a command while busy: ignored, the running erase completes
    const uint32_t sec = r.below(kFlash / SF_SECTOR_BYTES) * SF_SECTOR_BYTES;
    wr(kAddr, sec);
    wr(kCmd, SF_OP_ERASE_4K | SF_CMD_WREN | SF_CMD_POLL);
    wr(kCmd, SF_OP_READ_ID);
    s.eq(err_of(rd(kStatus)), SF_ERR_BUSY, "command while busy");
    s.check(rd(kStatus) & SPIFLASH__STATUS__BUSY_bm, "erase still running");
    uint64_t end = cyc + 100000;
    while ((rd(kStatus) & SPIFLASH__STATUS__BUSY_bm) && cyc < end) {
    }
    std::memset(&ref[sec], 0xFF, SF_SECTOR_BYTES);
    same_as_ref(s, sec, SF_SECTOR_BYTES, "erase next to a refused command");
    s.eq(stats().violations, 0, "model protocol violations");
  });

  run.scenario("busy_polling", [&](tb::Scenario &s, tb::Rng &r) {
    std::vector<uint8_t> data(16), buf(16);
    for (auto &b : data) b = uint8_t(r.next());
    const uint32_t a = r.below(kFlash / SF_PAGE_BYTES) * SF_PAGE_BYTES;
    // without polling the controller is free at once while the flash is still busy
    s.eq(program_bytes(a, data.data(), 16, false), 0, "program (no poll)");
    for (uint32_t i = 0; i < 16; i++) ref[a + i] &= data[i];
    s.eq(tflash_status(flash) & 1, 1, "model WIP right after an unpolled program");
    s.eq(run_cmd(SF_OP_READ_STATUS), 0, "READ_STATUS");
    s.eq((rd(kStatus) >> SPIFLASH__STATUS__SR_bp) & 1, 1, "SR.WIP seen by the controller");
    const uint64_t v0 = stats().violations;
    wr(kAddr, a);
    wr(kLen, 16);
    s.eq(run_cmd(SF_OP_READ), 0, "READ while the flash is busy (the flash ignores it)");
    s.eq(stats().violations, v0 + 1, "model counts the command it ignored");
    wr(kFifoCtrl, 1);
    // a poll-only command waits for the end of the program
    s.eq(run_cmd(SF_OP_READ_STATUS | SF_CMD_POLL), 0, "READ_STATUS with poll");
    s.eq(tflash_status(flash) & 1, 0, "model idle after the poll");
    s.eq(read_bytes(a, 16, buf.data(), false), 0, "read back");
    s.check(std::memcmp(buf.data(), &ref[a], 16) == 0, "data after the unpolled program");
    // polled program: polls cover the WIP time
    wr(kCtrl, 0);
    s.eq(program_bytes(a + 64, data.data(), 16), 0, "program (poll)");
    for (uint32_t i = 0; i < 16; i++) ref[a + 64 + i] &= data[i];
    const uint32_t polls = rd(kPolls);
    // one poll at SCK = clk/2: 16 bits x 2 cycles + CS setup, end and gap (about 40 cycles)
    s.check(polls >= kProgCycles / 48 && polls <= kProgCycles / 30 + 2, "%u polls for %u WIP cycles",
            polls, kProgCycles);
    same_as_ref(s, a, 128, "after polled program");
  });

  run.scenario("interrupt", [&](tb::Scenario &s, tb::Rng &) {
    wr(kIntr, 3);
    wr(kIe, SPIFLASH__INTR_ENABLE__DONE_bm);
    s.eq(dut->irq_o, 0, "irq low before");
    s.eq(run_cmd(SF_OP_READ_ID), 0, "READ_ID");
    settle();
    s.eq(dut->irq_o, 1, "irq on done");
    wr(kIntr, SPIFLASH__INTR_STATE__DONE_bm);
    settle();
    s.eq(dut->irq_o, 0, "irq cleared (W1C)");
    wr(kIe, SPIFLASH__INTR_ENABLE__ERR_bm);
    s.eq(run_cmd(12), SF_ERR_BAD_OP, "bad op");
    settle();
    s.eq(dut->irq_o, 1, "irq on error");
    s.eq(rd(kIntr), SPIFLASH__INTR_STATE__ERR_bm, "INTR_STATE err");
    wr(kIntr, 3);
    wr(kIe, 0);
  });

  run.scenario("file_backing", [&](tb::Scenario &s, tb::Rng &r) {
    // the model's file survives a destroy / create (chip_tb --flash FILE)
    char path[] = "/tmp/tb_spiflash_XXXXXX";
    const int fd = mkstemp(path);
    s.check(fd >= 0, "temporary file");
    if (fd < 0) return;
    close(fd);
    remove(path);
    tflash_cfg_t c;
    std::memset(&c, 0, sizeof c);
    c.size = kFlash;
    c.path = path;
    tflash_t *f = tflash_create(&c);
    s.check(f != nullptr, "create with a missing file (erased flash)");
    if (!f) return;
    s.eq(tflash_data(f)[r.below(kFlash)], 0xFF, "erased byte");
    const uint32_t a = r.below(kFlash);
    tflash_data(f)[a] = 0x5A;
    tflash_destroy(f);
    f = tflash_create(&c);
    s.check(f != nullptr, "reopen");
    if (f) {
      s.eq(tflash_data(f)[a], 0x5A, "byte survived");
      tflash_destroy(f);
    }
    remove(path);
  });

  tflash_destroy(flash);
  delete dut;
  return run.finish();
}
