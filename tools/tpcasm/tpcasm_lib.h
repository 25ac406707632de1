/* TPC assembler / disassembler library (host side). Used by the tpcasm and
 * tpcdis tools and by the TPC model tests (kernels are assembled in-process).
 * Syntax: docs/tpc_isa.md "Assembly syntax". */
#ifndef TPCASM_LIB_H
#define TPCASM_LIB_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint64_t w[4]; /* slot 0 load, 1 scalar, 2 vector, 3 store */
} tpc_bundle_t;

typedef struct {
  const char *name;
  int64_t value;
} tpcasm_def_t;

/* Assemble `src` (NUL-terminated). `fname` names the source in messages.
 * defs: optional predefined constants (like .equ), ndefs entries.
 * On success returns 0 and a malloc'd array in *out (free it) with *n bundles.
 * On error returns -1 and writes "file:line: message" into err. */
int tpcasm_assemble(const char *src, const char *fname, const tpcasm_def_t *defs, int ndefs,
                    tpc_bundle_t **out, uint32_t *n, char *err, size_t errlen);
/* Assemble a file (reads it, then tpcasm_assemble). */
int tpcasm_assemble_file(const char *path, const tpcasm_def_t *defs, int ndefs,
                         tpc_bundle_t **out, uint32_t *n, char *err, size_t errlen);
/* Disassemble one slot. Returns 0, or -1 for an illegal encoding (text is then
 * ".illegal 0x..."). */
int tpcdis_slot(int slot, uint64_t w, char *buf, size_t len);
/* Disassemble a bundle into the positional form "{ load ; scalar ; vector ; store }"
 * (empty slots as nop), which tpcasm assembles back to the same bits.
 * Returns the number of illegal slots. */
int tpcdis_bundle(const tpc_bundle_t *b, char *buf, size_t len);
#ifdef __cplusplus
}
#endif
#endif
