/* Broken copies of a valid ELF32 executable, for the tests of the programs that
 * read ELF files through elf32.h (hostlink's hl_load in tests/chip/hostlink.c,
 * mkimage in bsp/tools/image_test.c; the simulator's loader has its own
 * builder in tests/chip/elf.c). Each case names the words it changes and the
 * text elf32_parse must put in its message. Header only, plain C99.
 */
#ifndef TESSERA_ELF32_BAD_H
#define TESSERA_ELF32_BAD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ELF32_BAD_CASES 7

static inline uint32_t elf32_bad_rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void elf32_bad_wr32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* File offset of the first PT_LOAD program header of the valid file good[0, n),
 * or 0 if there is none. */
static inline uint32_t elf32_bad_first_load(const uint8_t *good, size_t n) {
  if (n < 52) return 0;
  uint32_t phoff = elf32_bad_rd32(good + 28), phnum = (uint32_t)(good[44] | good[45] << 8);
  for (uint32_t i = 0; i < phnum && (uint64_t)phoff + 32u * (i + 1u) <= n; i++)
    if (elf32_bad_rd32(good + phoff + 32u * i) == 1u) return phoff + 32u * i;
  return 0;
}

/* Case k (0 .. ELF32_BAD_CASES-1): bad[] = good[0, n) broken, *len its length;
 * ph = elf32_bad_first_load(good, n) (non-zero). Returns the text the
 * rejection message must contain. */
static inline const char *elf32_bad_case(int k, const uint8_t *good, size_t n, uint32_t ph, uint8_t *bad,
                                         size_t *len) {
  memcpy(bad, good, n);
  *len = n;
  switch (k) {
    case 0: bad[4] = 2; return "64-bit";
    case 1: bad[18] = 62; bad[19] = 0; return "wrong machine 62";
    case 2: bad[16] = 1; bad[17] = 0; return "not an executable";
    case 3: *len = 40; return "truncated ELF header";
    case 4: elf32_bad_wr32(bad + 28, (uint32_t)n - 16u); return "program headers beyond end of file";
    case 5: elf32_bad_wr32(bad + ph + 16, elf32_bad_rd32(bad + ph + 20) + 1u); return "filesz > memsz";
    default: elf32_bad_wr32(bad + 24, 0x4u); return "not inside a loaded segment";
  }
}

#endif
