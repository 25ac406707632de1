// ELF32 RISC-V loader for the Tessera simulator: validates the whole file first,
// then writes the PT_LOAD segments through the memory back door. A rejected file
// loads nothing. See tsim_load_elf() in sim/include/tessera_sim.h.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "tessera_cfg.h"
#include "tessera_sim.h"

void tsim_set_symbols(tsim_t* s, std::unordered_map<std::string, uint32_t>&& syms);
bool tsim_get_symbol(const tsim_t* s, const char* name, uint32_t* addr);
void tsim_set_error(tsim_t* s, const std::string& e);

namespace {

constexpr uint16_t kEmRiscv = 243;
constexpr uint16_t kEtExec = 2;
constexpr uint32_t kPtLoad = 1;
constexpr uint32_t kShtSymtab = 2;

uint16_t rd16(const uint8_t* p) { return uint16_t(p[0] | p[1] << 8); }
uint32_t rd32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

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

  const size_t sz = img.size();
  const uint8_t* p = img.data();
  if (sz < 16 || std::memcmp(p, "\x7f" "ELF", 4) != 0) return fail(TSIM_EELF, "not an ELF file");
  if (p[4] == 2) return fail(TSIM_EELF, "64-bit ELF (ELFCLASS64); need ELF32 for RV32");
  if (p[4] != 1) return fail(TSIM_EELF, "bad ELF class");
  if (p[5] != 1) return fail(TSIM_EELF, "not little-endian (EI_DATA != ELFDATA2LSB)");
  if (sz < 52) return fail(TSIM_EELF, "truncated ELF header");
  const uint16_t type = rd16(p + 16), machine = rd16(p + 18);
  if (machine != kEmRiscv)
    return fail(TSIM_EELF, "wrong machine " + std::to_string(machine) + " (need EM_RISCV=243)");
  if (type != kEtExec) return fail(TSIM_EELF, "not an executable (e_type " + std::to_string(type) + ")");
  const uint32_t entry = rd32(p + 24), phoff = rd32(p + 28), shoff = rd32(p + 32);
  const uint16_t phentsize = rd16(p + 42), phnum = rd16(p + 44);
  const uint16_t shentsize = rd16(p + 46), shnum = rd16(p + 48);
  if (phnum == 0) return fail(TSIM_EELF, "no program headers");
  if (phentsize != 32) return fail(TSIM_EELF, "bad program header size");
  if (uint64_t(phoff) + uint64_t(phnum) * phentsize > sz)
    return fail(TSIM_EELF, "truncated: program headers beyond end of file");

  struct Seg {
    uint32_t off, addr, filesz, memsz;
  };
  std::vector<Seg> segs;
  bool entry_ok = false;
  for (unsigned i = 0; i < phnum; ++i) {
    const uint8_t* ph = p + phoff + i * phentsize;
    if (rd32(ph) != kPtLoad) continue;
    Seg sg{rd32(ph + 4), rd32(ph + 12), rd32(ph + 16), rd32(ph + 20)};
    if (sg.memsz == 0) continue;
    if (sg.filesz > sg.memsz) return fail(TSIM_EELF, "segment " + std::to_string(i) + ": filesz > memsz");
    if (uint64_t(sg.off) + sg.filesz > sz)
      return fail(TSIM_EELF, "truncated: segment " + std::to_string(i) + " data beyond end of file");
    if (!range_loadable(sg.addr, sg.memsz))
      return fail(TSIM_EELF, "segment " + std::to_string(i) + " at " + hex(sg.addr) + "+" +
                                 hex(sg.memsz) + " is outside ISRAM/DSRAM/HBM");
    if (entry >= sg.addr && uint64_t(entry) < uint64_t(sg.addr) + sg.memsz) entry_ok = true;
    segs.push_back(sg);
  }
  if (segs.empty()) return fail(TSIM_EELF, "no loadable segment");
  if (!entry_ok) return fail(TSIM_EELF, "entry point " + hex(entry) + " is not inside a loaded segment");

  // Symbols (optional, but a corrupt section table is an error).
  std::unordered_map<std::string, uint32_t> syms;
  if (shoff && shnum) {
    if (shentsize != 40 || uint64_t(shoff) + uint64_t(shnum) * shentsize > sz)
      return fail(TSIM_EELF, "truncated or corrupt section header table");
    for (unsigned i = 0; i < shnum; ++i) {
      const uint8_t* sh = p + shoff + i * shentsize;
      if (rd32(sh + 4) != kShtSymtab) continue;
      const uint32_t off = rd32(sh + 16), size = rd32(sh + 20), link = rd32(sh + 24);
      const uint32_t entsize = rd32(sh + 36);
      if (entsize != 16 || uint64_t(off) + size > sz || link >= shnum)
        return fail(TSIM_EELF, "corrupt symbol table");
      const uint8_t* strh = p + shoff + link * shentsize;
      const uint32_t stroff = rd32(strh + 16), strsize = rd32(strh + 20);
      if (uint64_t(stroff) + strsize > sz) return fail(TSIM_EELF, "corrupt string table");
      for (uint32_t e = 0; e + 16 <= size; e += 16) {
        const uint8_t* st = p + off + e;
        const uint32_t name = rd32(st);
        if (!name || name >= strsize) continue;
        const char* nm = reinterpret_cast<const char*>(p + stroff + name);
        size_t maxlen = strsize - name;
        if (strnlen(nm, maxlen) == maxlen) return fail(TSIM_EELF, "corrupt string table");
        syms.emplace(nm, rd32(st + 4));
      }
    }
  }

  // Everything validated: load.
  uint32_t total = 0;
  for (const Seg& sg : segs) {
    std::vector<uint8_t> data(sg.memsz, 0);
    std::memcpy(data.data(), p + sg.off, sg.filesz);
    // Write region by region (a segment may run from ISRAM into DSRAM).
    uint64_t a = sg.addr, done = 0;
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
    info->entry = entry;
    info->tohost = tohost;
    info->has_tohost = has_tohost;
    info->segments = unsigned(segs.size());
    info->bytes = total;
  }
  return TSIM_OK;
}

extern "C" int tsim_elf_symbol(tsim_t* s, const char* name, uint32_t* addr) {
  if (tsim_get_symbol(s, name, addr)) return TSIM_OK;
  tsim_set_error(s, std::string("symbol not found: ") + name);
  return TSIM_EARG;
}
