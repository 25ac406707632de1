// SPI NOR flash model (sim/include/tessera_flash.h, docs/spiflash.md "Flash model").
#include "tessera_flash.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {
std::string g_err;
}

struct tflash {
  tflash_cfg_t cfg;
  std::string path;
  std::vector<uint8_t> mem;
  tflash_stats_t st;
  // pins of the previous cycle
  int csn = 1, sck = 0;
  // command state (one CS-low period)
  bool active = false;
  unsigned bits = 0;       // SCK rising edges of this command
  uint8_t in = 0;          // byte being shifted in
  unsigned nbytes = 0;     // bytes received
  uint8_t opcode = 0;
  uint32_t addr = 0;
  bool ignore = false;     // command ignored (WIP, unknown): no output, no effect
  uint8_t next_out = 0xFF; // byte shifted out from the next falling edge on
  uint8_t out = 0xFF;      // byte being shifted out
  int miso = 1;
  // page program buffer
  std::vector<uint8_t> page;
  std::vector<bool> page_set;
  // status
  bool wel = false;
  uint64_t wip = 0;        // cycles left
  bool dirty = false;
};

static void fail(const std::string& e) { g_err = e; }

extern "C" {

const char* tflash_last_error(void) { return g_err.c_str(); }

tflash_t* tflash_create(const tflash_cfg_t* cfg) {
  tflash_t* f = new tflash;
  if (cfg) f->cfg = *cfg;
  else std::memset(&f->cfg, 0, sizeof f->cfg);
  if (!f->cfg.size) f->cfg.size = 16u << 20;
  if (!f->cfg.jedec_id) f->cfg.jedec_id = 0xEF4018u;
  if (!f->cfg.prog_cycles) f->cfg.prog_cycles = 4000u;
  if (!f->cfg.erase_cycles) f->cfg.erase_cycles = 20000u;
  if (f->cfg.size > (16u << 20) || (f->cfg.size & (f->cfg.size - 1u))) {
    fail("flash size must be a power of two of at most 16 MiB");
    delete f;
    return nullptr;
  }
  std::memset(&f->st, 0, sizeof f->st);
  f->mem.assign(f->cfg.size, 0xFF);
  f->page.assign(256, 0xFF);
  f->page_set.assign(256, false);
  if (f->cfg.path && f->cfg.path[0]) {
    f->path = f->cfg.path;
    f->cfg.path = nullptr;
    FILE* fp = std::fopen(f->path.c_str(), "rb");
    if (fp) {
      const size_t n = std::fread(f->mem.data(), 1, f->mem.size(), fp);
      const bool longer = std::fgetc(fp) != EOF;
      const bool err = std::ferror(fp) != 0;
      std::fclose(fp);
      if (err || longer) {
        fail(f->path + (err ? ": read error" : ": file larger than the flash"));
        delete f;
        return nullptr;
      }
      (void)n;  // a shorter file: the rest stays erased
    }
  }
  return f;
}

int tflash_save(tflash_t* f) {
  if (f->path.empty() || !f->dirty) return 0;
  const std::string tmp = f->path + ".tmp";
  FILE* fp = std::fopen(tmp.c_str(), "wb");
  if (!fp) {
    fail(f->path + ": cannot write");
    return -1;
  }
  const bool ok = std::fwrite(f->mem.data(), 1, f->mem.size(), fp) == f->mem.size();
  if (std::fclose(fp) != 0 || !ok || std::rename(tmp.c_str(), f->path.c_str()) != 0) {
    std::remove(tmp.c_str());
    fail(f->path + ": write failed");
    return -1;
  }
  f->dirty = false;
  return 0;
}

void tflash_destroy(tflash_t* f) {
  if (!f) return;
  (void)tflash_save(f);
  delete f;
}

uint8_t* tflash_data(tflash_t* f) {
  f->dirty = true;  // the caller may change it
  return f->mem.data();
}
uint32_t tflash_size(const tflash_t* f) { return f->cfg.size; }
uint8_t tflash_status(const tflash_t* f) { return uint8_t((f->wip ? 1u : 0u) | (f->wel ? 2u : 0u)); }
void tflash_stats(const tflash_t* f, tflash_stats_t* st) { *st = f->st; }

void tflash_reset_pins(tflash_t* f) {
  f->active = false;
  f->csn = 1;
  f->sck = 0;
  f->miso = 1;
}

}  // extern "C"

static bool has_addr(uint8_t op) { return op == 0x03 || op == 0x0B || op == 0x02 || op == 0x20; }

// A whole byte has come in: decide what goes out next.
static void byte_in(tflash_t* f, uint8_t b) {
  const unsigned i = f->nbytes++;
  if (i == 0) {
    f->opcode = b;
    f->addr = 0;
    ++f->st.commands;
    if (f->wip && b != 0x05) {  // busy: only RDSR is answered
      f->ignore = true;
      ++f->st.violations;
      return;
    }
    switch (b) {
    case 0x9F: f->next_out = uint8_t(f->cfg.jedec_id >> 16); break;
    case 0x05: f->next_out = tflash_status(f); ++f->st.status_reads; break;
    case 0x03: case 0x0B: ++f->st.reads; break;
    case 0x06: case 0x04: case 0x02: case 0x20: break;
    default: f->ignore = true; ++f->st.violations; break;
    }
    return;
  }
  if (f->ignore) return;
  const uint8_t op = f->opcode;
  if (op == 0x9F) {
    f->next_out = i < 3 ? uint8_t(f->cfg.jedec_id >> (16 - 8 * i)) : 0xFF;
    return;
  }
  if (op == 0x05) {
    f->next_out = tflash_status(f);
    return;
  }
  if (has_addr(op) && i <= 3) {
    f->addr = (f->addr << 8) | b;
    if (i == 3) {
      f->addr &= f->cfg.size - 1u;
      if (op == 0x03) f->next_out = f->mem[f->addr];
      if (op == 0x02) {
        std::fill(f->page.begin(), f->page.end(), 0xFF);
        std::fill(f->page_set.begin(), f->page_set.end(), false);
      }
    }
    return;
  }
  if (op == 0x0B && i == 4) {  // dummy byte
    f->next_out = f->mem[f->addr];
    return;
  }
  if (op == 0x03 || op == 0x0B) {
    f->addr = (f->addr + 1u) & (f->cfg.size - 1u);
    f->next_out = f->mem[f->addr];
    return;
  }
  if (op == 0x02) {  // data byte: the address wraps inside the page
    const unsigned k = (f->addr + (i - 4u)) & 0xFFu;
    f->page[k] &= b;
    f->page_set[k] = true;
  }
}

// CS rises: a program or erase starts now.
static void command_end(tflash_t* f) {
  if (f->bits % 8u) ++f->st.violations;
  if (f->ignore || f->nbytes == 0) return;
  const uint8_t op = f->opcode;
  if (op == 0x06 && f->nbytes == 1) f->wel = true;
  if (op == 0x04 && f->nbytes == 1) f->wel = false;
  if (op == 0x02 && f->nbytes > 4) {
    if (!f->wel) {
      ++f->st.violations;
      return;
    }
    const uint32_t base = f->addr & ~0xFFu;
    for (unsigned k = 0; k < 256; ++k)
      if (f->page_set[k]) f->mem[base + k] &= f->page[k];
    f->dirty = true;
    f->wip = f->cfg.prog_cycles;
    ++f->st.programs;
  }
  if (op == 0x20 && f->nbytes == 4) {
    if (!f->wel) {
      ++f->st.violations;
      return;
    }
    std::memset(&f->mem[f->addr & ~0xFFFu], 0xFF, 4096);
    f->dirty = true;
    f->wip = f->cfg.erase_cycles;
    ++f->st.erases;
  }
}

extern "C" int tflash_pins(tflash_t* f, int csn, int sck, int mosi) {
  csn = csn != 0;
  sck = sck != 0;
  if (f->wip) {
    ++f->st.busy_cycles;
    if (--f->wip == 0) f->wel = false;
  }
  if (f->csn && !csn) {  // select
    if (sck) ++f->st.violations;  // mode 0: SCK low at CS fall
    f->active = true;
    f->bits = 0;
    f->nbytes = 0;
    f->ignore = false;
    f->next_out = 0xFF;
    f->out = 0xFF;
  } else if (!f->csn && csn) {  // deselect
    if (f->active) command_end(f);
    f->active = false;
    f->miso = 1;
  } else if (f->active && !csn) {
    if (!f->sck && sck) {  // rising edge: sample MOSI
      f->in = uint8_t((f->in << 1) | (mosi ? 1 : 0));
      if (++f->bits % 8u == 0) byte_in(f, f->in);
    } else if (f->sck && !sck) {  // falling edge: next MISO bit
      const unsigned pos = f->bits % 8u;
      if (pos == 0) f->out = f->next_out;
      f->miso = f->ignore ? 1 : (f->out >> (7 - pos)) & 1;
    }
  }
  f->csn = csn;
  f->sck = sck;
  return f->miso;
}
