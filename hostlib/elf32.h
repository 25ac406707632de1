/* ELF32 RISC-V executable reader shared by the host-side programs: the
 * simulator's loader (sim/src/tsim_elf.cpp), hostlink's firmware loader
 * (hostlink/src/hl_core.c) and the image tool (bsp/tools/mkimage.c).
 *
 * elf32_parse checks the whole file before anyone uses it: identification
 * (magic, ELFCLASS32, little-endian), header size, EM_RISCV, ET_EXEC, the
 * program header table, every PT_LOAD segment (filesz <= memsz, its data inside
 * the file), at least one loadable segment, the entry inside one of them, and
 * a section header table and symbol tables if there are any. A rejected file
 * gets one line naming the problem. What a caller adds (where segments may
 * go, how they are written) stays with the caller. Plain C99, host only; also
 * usable from C++. docs/sim.md "ELF files".
 */
#ifndef TESSERA_ELF32_H
#define TESSERA_ELF32_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ELF32_EM_RISCV  243u
#define ELF32_MAX_SEGS  64u    /* loadable segments kept (more: rejected) */
#define ELF32_ERR_BYTES 128u   /* room for a message of elf32_parse */

/* One PT_LOAD segment with memsz != 0, in program header order. */
typedef struct {
  uint32_t index;    /* program header index (used in messages) */
  uint32_t offset;   /* file offset of its data */
  uint32_t paddr;    /* physical (load) address */
  uint32_t filesz;   /* bytes from the file; memsz - filesz zero bytes follow */
  uint32_t memsz;
} elf32_seg_t;

typedef struct {
  const uint8_t *data;   /* the file as given to elf32_parse (not copied) */
  size_t size;
  uint32_t entry;
  uint32_t nseg;
  elf32_seg_t seg[ELF32_MAX_SEGS];
  uint32_t shoff, shnum; /* section header table (shnum 0: none) */
} elf32_t;

/* Parse and check data[0, size). Returns 0, or -1 with a message in err
 * (err_bytes >= ELF32_ERR_BYTES keeps every message whole). */
int elf32_parse(elf32_t *e, const void *data, size_t size, char *err, size_t err_bytes);

/* Every named symbol of every symbol table of a parsed file, in table order. */
typedef void (*elf32_sym_fn)(void *ctx, const char *name, uint32_t value);
void elf32_symbols(const elf32_t *e, elf32_sym_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
