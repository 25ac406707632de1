/* ELF32 RISC-V executable reader. See elf32.h. */
#include "elf32.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define EHDR_BYTES   52u
#define PHDR_BYTES   32u
#define SHDR_BYTES   40u
#define SYM_BYTES    16u
#define ET_EXEC      2u
#define PT_LOAD      1u
#define SHT_SYMTAB   2u

static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | rd16(p + 2) << 16; }

static int reject(char *err, size_t n, const char *fmt, ...) {
  if (err && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* The symbol tables: entries inside the file, a string table inside the file,
 * every name NUL-terminated inside its string table. */
static int check_symbols(const elf32_t *e, char *err, size_t n) {
  const uint8_t *p = e->data;
  for (uint32_t i = 0; i < e->shnum; i++) {
    const uint8_t *sh = p + e->shoff + (size_t)i * SHDR_BYTES;
    if (rd32(sh + 4) != SHT_SYMTAB) continue;
    uint32_t off = rd32(sh + 16), size = rd32(sh + 20), link = rd32(sh + 24), entsize = rd32(sh + 36);
    if (entsize != SYM_BYTES || (uint64_t)off + size > e->size || link >= e->shnum)
      return reject(err, n, "corrupt symbol table");
    const uint8_t *strh = p + e->shoff + (size_t)link * SHDR_BYTES;
    uint32_t stroff = rd32(strh + 16), strsize = rd32(strh + 20);
    if ((uint64_t)stroff + strsize > e->size) return reject(err, n, "corrupt string table");
    for (uint32_t s = 0; s + SYM_BYTES <= size; s += SYM_BYTES) {
      uint32_t name = rd32(p + off + s);
      if (!name || name >= strsize) continue;
      if (!memchr(p + stroff + name, 0, strsize - name)) return reject(err, n, "corrupt string table");
    }
  }
  return 0;
}

int elf32_parse(elf32_t *e, const void *data, size_t size, char *err, size_t n) {
  const uint8_t *p = (const uint8_t *)data;
  memset(e, 0, sizeof *e);
  e->data = p;
  e->size = size;
  if (size < 16 || memcmp(p, "\177ELF", 4) != 0) return reject(err, n, "not an ELF file");
  if (p[4] == 2) return reject(err, n, "64-bit ELF (ELFCLASS64); need ELF32 for RV32");
  if (p[4] != 1) return reject(err, n, "bad ELF class %u", (unsigned)p[4]);
  if (p[5] != 1) return reject(err, n, "not little-endian (EI_DATA != ELFDATA2LSB)");
  if (size < EHDR_BYTES) return reject(err, n, "truncated ELF header (%zu bytes)", size);
  uint32_t type = rd16(p + 16), machine = rd16(p + 18);
  if (machine != ELF32_EM_RISCV)
    return reject(err, n, "wrong machine %u (need EM_RISCV=%u)", (unsigned)machine, ELF32_EM_RISCV);
  if (type != ET_EXEC) return reject(err, n, "not an executable (e_type %u)", (unsigned)type);
  uint32_t phoff = rd32(p + 28), shoff = rd32(p + 32);
  uint32_t phentsize = rd16(p + 42), phnum = rd16(p + 44);
  uint32_t shentsize = rd16(p + 46), shnum = rd16(p + 48);
  e->entry = rd32(p + 24);
  if (phnum == 0) return reject(err, n, "no program headers");
  if (phentsize != PHDR_BYTES) return reject(err, n, "bad program header size %u", (unsigned)phentsize);
  if ((uint64_t)phoff + (uint64_t)phnum * PHDR_BYTES > size)
    return reject(err, n, "truncated: program headers beyond end of file");

  int entry_ok = 0;
  for (uint32_t i = 0; i < phnum; i++) {
    const uint8_t *ph = p + phoff + (size_t)i * PHDR_BYTES;
    if (rd32(ph) != PT_LOAD) continue;
    elf32_seg_t s = {i, rd32(ph + 4), rd32(ph + 12), rd32(ph + 16), rd32(ph + 20)};
    if (s.memsz == 0) continue;
    if (s.filesz > s.memsz) return reject(err, n, "segment %u: filesz > memsz", (unsigned)i);
    if ((uint64_t)s.offset + s.filesz > size)
      return reject(err, n, "truncated: segment %u data beyond end of file", (unsigned)i);
    if (e->nseg == ELF32_MAX_SEGS)
      return reject(err, n, "more than %u loadable segments", ELF32_MAX_SEGS);
    if (e->entry >= s.paddr && (uint64_t)e->entry < (uint64_t)s.paddr + s.memsz) entry_ok = 1;
    e->seg[e->nseg++] = s;
  }
  if (e->nseg == 0) return reject(err, n, "no loadable segment");
  if (!entry_ok) return reject(err, n, "entry point 0x%08x is not inside a loaded segment", (unsigned)e->entry);

  if (shoff && shnum) {
    if (shentsize != SHDR_BYTES || (uint64_t)shoff + (uint64_t)shnum * SHDR_BYTES > size)
      return reject(err, n, "truncated or corrupt section header table");
    e->shoff = shoff;
    e->shnum = shnum;
    if (check_symbols(e, err, n)) return -1;
  }
  return 0;
}

void elf32_symbols(const elf32_t *e, elf32_sym_fn fn, void *ctx) {
  const uint8_t *p = e->data;
  for (uint32_t i = 0; i < e->shnum; i++) {
    const uint8_t *sh = p + e->shoff + (size_t)i * SHDR_BYTES;
    if (rd32(sh + 4) != SHT_SYMTAB) continue;
    uint32_t off = rd32(sh + 16), size = rd32(sh + 20), link = rd32(sh + 24);
    const uint8_t *strh = p + e->shoff + (size_t)link * SHDR_BYTES;
    uint32_t stroff = rd32(strh + 16), strsize = rd32(strh + 20);
    for (uint32_t s = 0; s + SYM_BYTES <= size; s += SYM_BYTES) {
      const uint8_t *st = p + off + s;
      uint32_t name = rd32(st);
      if (!name || name >= strsize) continue;
      fn(ctx, (const char *)(p + stroff + name), rd32(st + 4));
    }
  }
}
