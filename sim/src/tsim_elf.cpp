// ELF32 RISC-V loader for the Tessera simulator: the shared reader
// (hostlib/elf32.h) checks the file, this file checks that every segment lies in
// loadable chip memory, then writes the PT_LOAD segments through the memory back
// door. A rejected file loads nothing. See tsim_load_elf() in sim/include/tessera_sim.h.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "elf32.h"
#include "tessera_cfg.h"
#include "tessera_sim.h"

void tsim_set_symbols(tsim_t* s, std::unordered_map<std::string, uint32_t>&& syms);
bool tsim_get_symbol(const tsim_t* s, const char* name, uint32_t* addr);
void tsim_set_error(tsim_t* s, const std::string& e);

namespace {

// Loadable memory: populated ISRAM, DSRAM (both executable) and HBM.
struct LoadRegion {
  uint32_t base, bytes;
};
const LoadRegion kLoadable[] = {
    {TESSERA_ISRAM_BASE, TESSERA_ISRAM_BYTES},
    {TESSERA_DSRAM_BASE, TESSERA_DSRAM_BYTES},
    {TESSERA_HBM_BASE, TESSERA_HBM_SIZE},
};

// Every byte of [addr, addr+len) must be inside some loadable region (a range
// may run from ISRAM into DSRAM when they are contiguous).
bool range_loadable(uint64_t addr, uint64_t len) {
  const uint64_t end = addr + len;
  while (addr < end) {
    bool found = false;
    for (const LoadRegion& r : kLoadable) {
      if (addr >= r.base && addr < uint64_t(r.base) + r.bytes) {
        addr = uint64_t(r.base) + r.bytes;  // covered up to the end of this region
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%08llx", (unsigned long long)v);
  return b;
}

}  // namespace

extern "C" int tsim_load_elf(tsim_t* s, const char* path, tsim_elf_info_t* info) {
  auto fail = [&](int rc, const std::string& why) {
    tsim_set_error(s, std::string(path) + ": " + why);
    return rc;
  };
  FILE* f = std::fopen(path, "rb");
  if (!f) return fail(TSIM_EIO, std::string("cannot open: ") + std::strerror(errno));
  std::vector<uint8_t> img;
  uint8_t buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) img.insert(img.end(), buf, buf + n);
  const bool rerr = std::ferror(f);
  std::fclose(f);
  if (rerr) return fail(TSIM_EIO, "read error");

  elf32_t elf;
  char why[ELF32_ERR_BYTES];
  if (elf32_parse(&elf, img.data(), img.size(), why, sizeof why) != 0) return fail(TSIM_EELF, why);
  for (uint32_t i = 0; i < elf.nseg; ++i) {
    const elf32_seg_t& sg = elf.seg[i];
    if (!range_loadable(sg.paddr, sg.memsz))
      return fail(TSIM_EELF, "segment " + std::to_string(sg.index) + " at " + hex(sg.paddr) + "+" +
                                 hex(sg.memsz) + " is outside ISRAM/DSRAM/HBM");
  }
  std::unordered_map<std::string, uint32_t> syms;
  elf32_symbols(
      &elf,
      [](void* ctx, const char* name, uint32_t value) {
        static_cast<std::unordered_map<std::string, uint32_t>*>(ctx)->emplace(name, value);
      },
      &syms);

  // Everything validated: load.
  uint32_t total = 0;
  for (uint32_t i = 0; i < elf.nseg; ++i) {
    const elf32_seg_t& sg = elf.seg[i];
    std::vector<uint8_t> data(sg.memsz, 0);
    std::memcpy(data.data(), img.data() + sg.offset, sg.filesz);
    // Write region by region (a segment may run from ISRAM into DSRAM).
    uint64_t a = sg.paddr, done = 0;
    while (done < sg.memsz) {
      uint64_t chunk = sg.memsz - done;
      for (const LoadRegion& r : kLoadable)
        if (a >= r.base && a < uint64_t(r.base) + r.bytes && uint64_t(r.base) + r.bytes - a < chunk)
          chunk = uint64_t(r.base) + r.bytes - a;
      if (tsim_mem_write(s, uint32_t(a), data.data() + done, size_t(chunk)) != TSIM_OK)
        return fail(TSIM_EELF, "back-door write failed at " + hex(a));
      a += chunk;
      done += chunk;
    }
    total += sg.memsz;
  }
  uint32_t tohost = 0;
  auto it = syms.find("tohost");
  const bool has_tohost = it != syms.end();
  if (has_tohost) tohost = it->second;
  tsim_set_symbols(s, std::move(syms));
  if (info) {
    info->entry = elf.entry;
    info->tohost = tohost;
    info->has_tohost = has_tohost;
    info->segments = unsigned(elf.nseg);
    info->bytes = total;
  }
  return TSIM_OK;
}

extern "C" int tsim_elf_symbol(tsim_t* s, const char* name, uint32_t* addr) {
  if (tsim_get_symbol(s, name, addr)) return TSIM_OK;
  tsim_set_error(s, std::string("symbol not found: ") + name);
  return TSIM_EARG;
}
