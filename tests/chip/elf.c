/* Suite `elf`: the ELF loader. Each test builds its ELF files at run time in a
 * temporary directory: a small valid RV32 program (hand-encoded instructions
 * that store a value to `tohost`) and corrupted variants that must be rejected
 * with a clear message without loading anything. The run_* tests also boot
 * the program on the core (boot ROM -> BOOT_ADDR) and check the tohost result. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tessera_cfg.h"
#include "tf.h"

/* ---------------------------------------------------------------- ELF builder */
typedef struct {
  uint8_t b[4096];
  size_t n;
} buf_t;

static void put8(buf_t *b, size_t off, uint8_t v) { b->b[off] = v; }
static void put16(buf_t *b, size_t off, uint16_t v) {
  b->b[off] = (uint8_t)v;
  b->b[off + 1] = (uint8_t)(v >> 8);
}
static void put32(buf_t *b, size_t off, uint32_t v) {
  for (int i = 0; i < 4; ++i) b->b[off + i] = (uint8_t)(v >> (8 * i));
}

/* RV32I encoders (x5 = t0, x6 = t1). */
static uint32_t lui(unsigned rd, uint32_t imm20) { return (imm20 << 12) | (rd << 7) | 0x37u; }
static uint32_t addi(unsigned rd, unsigned rs1, int32_t imm) {
  return ((uint32_t)(imm & 0xFFF) << 20) | (rs1 << 15) | (rd << 7) | 0x13u;
}
static uint32_t sw(unsigned rs2, unsigned rs1, int32_t imm) {
  uint32_t i = (uint32_t)imm & 0xFFFu;
  return ((i >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (2u << 12) | ((i & 0x1Fu) << 7) | 0x23u;
}
#define JAL_SELF 0x0000006Fu /* j . */

#define CODE_ADDR (TESSERA_ISRAM_BASE + 0x200u)
#define TOHOST_ADDR (TESSERA_DSRAM_BASE + 0x400u)

typedef struct {
  uint8_t ei_class, ei_data;
  uint16_t type, machine;
  uint32_t entry;
  uint32_t seg1_addr;     /* data segment (tohost) */
  uint32_t tohost_value;  /* stored by the program */
  size_t truncate_to;     /* 0 = full file */
} elf_spec_t;

static void spec_default(elf_spec_t *s) {
  memset(s, 0, sizeof *s);
  s->ei_class = 1;
  s->ei_data = 1;
  s->type = 2;
  s->machine = 243;
  s->entry = CODE_ADDR;
  s->seg1_addr = TOHOST_ADDR;
  s->tohost_value = 1;
}

/* Layout: ehdr(52) | 2 phdrs(64) @52 | code @0x100 | strtab @0x180 | symtab @0x1c0 |
 *         shstrtab @0x200 | 4 shdrs(160) @0x240 */
static size_t build_elf(buf_t *b, const elf_spec_t *s) {
  memset(b, 0, sizeof *b);
  const uint32_t code_off = 0x100, str_off = 0x180, sym_off = 0x1C0, shstr_off = 0x200,
                 sh_off = 0x240;
  /* ELF header */
  memcpy(b->b, "\x7f" "ELF", 4);
  put8(b, 4, s->ei_class);
  put8(b, 5, s->ei_data);
  put8(b, 6, 1);
  put16(b, 16, s->type);
  put16(b, 18, s->machine);
  put32(b, 20, 1);
  put32(b, 24, s->entry);
  put32(b, 28, 52);      /* phoff */
  put32(b, 32, sh_off);  /* shoff */
  put16(b, 40, 52);
  put16(b, 42, 32);
  put16(b, 44, 2);
  put16(b, 46, 40);
  put16(b, 48, 4);
  put16(b, 50, 3);       /* shstrndx */
  /* code */
  uint32_t hi = (TOHOST_ADDR + 0x800u) >> 12;
  int32_t lo = (int32_t)(TOHOST_ADDR - (hi << 12));
  uint32_t code[4] = {lui(5, hi), addi(6, 0, (int32_t)s->tohost_value), sw(6, 5, lo), JAL_SELF};
  for (int i = 0; i < 4; ++i) put32(b, code_off + 4 * i, code[i]);
  /* phdr 0: code, R+X */
  size_t ph = 52;
  put32(b, ph + 0, 1);
  put32(b, ph + 4, code_off);
  put32(b, ph + 8, CODE_ADDR);
  put32(b, ph + 12, CODE_ADDR);
  put32(b, ph + 16, 16);
  put32(b, ph + 20, 16);
  put32(b, ph + 24, 5);
  put32(b, ph + 28, 4);
  /* phdr 1: tohost, bss-like (filesz 0, memsz 8) */
  ph += 32;
  put32(b, ph + 0, 1);
  put32(b, ph + 4, code_off);
  put32(b, ph + 8, s->seg1_addr);
  put32(b, ph + 12, s->seg1_addr);
  put32(b, ph + 16, 0);
  put32(b, ph + 20, 8);
  put32(b, ph + 24, 6);
  put32(b, ph + 28, 8);
  /* strtab: "\0tohost\0_start\0" */
  memcpy(b->b + str_off, "\0tohost\0_start\0", 15);
  /* symtab: null, tohost, _start */
  put32(b, sym_off + 16 + 0, 1);
  put32(b, sym_off + 16 + 4, s->seg1_addr);
  put32(b, sym_off + 16 + 8, 4);
  put8(b, sym_off + 16 + 12, 0x11); /* GLOBAL OBJECT */
  put32(b, sym_off + 32 + 0, 8);
  put32(b, sym_off + 32 + 4, CODE_ADDR);
  put8(b, sym_off + 32 + 12, 0x12); /* GLOBAL FUNC */
  /* shstrtab: "\0.symtab\0.strtab\0.shstrtab\0" */
  memcpy(b->b + shstr_off, "\0.symtab\0.strtab\0.shstrtab\0", 27);
  /* section headers: 0 null, 1 .symtab, 2 .strtab, 3 .shstrtab */
  size_t sh = sh_off + 40;
  put32(b, sh + 0, 1);
  put32(b, sh + 4, 2);
  put32(b, sh + 16, sym_off);
  put32(b, sh + 20, 48);
  put32(b, sh + 24, 2);
  put32(b, sh + 36, 16);
  sh += 40;
  put32(b, sh + 0, 9);
  put32(b, sh + 4, 3);
  put32(b, sh + 16, str_off);
  put32(b, sh + 20, 15);
  sh += 40;
  put32(b, sh + 0, 17);
  put32(b, sh + 4, 3);
  put32(b, sh + 16, shstr_off);
  put32(b, sh + 20, 27);
  b->n = sh_off + 4 * 40;
  if (s->truncate_to && s->truncate_to < b->n) b->n = s->truncate_to;
  return b->n;
}

typedef struct {
  char dir[64];
  char path[128];
} tmp_t;

static int write_tmp(tf_ctx_t *t, tmp_t *tmp, const char *name, const void *data, size_t n) {
  if (!tmp->dir[0]) {
    strcpy(tmp->dir, "/tmp/chip_tb_elf_XXXXXX");
    if (!mkdtemp(tmp->dir)) return tf_fail(t, "mkdtemp failed");
  }
  snprintf(tmp->path, sizeof tmp->path, "%s/%s", tmp->dir, name);
  FILE *f = fopen(tmp->path, "wb");
  if (!f) return tf_fail(t, "cannot create %s", tmp->path);
  size_t w = n ? fwrite(data, 1, n, f) : 0;
  fclose(f);
  if (w != n) return tf_fail(t, "short write to %s", tmp->path);
  return TF_PASS;
}
static void cleanup_tmp(tmp_t *tmp) {
  if (tmp->dir[0]) {
    unlink(tmp->path);
    rmdir(tmp->dir);
  }
}

#define CANARY 0xDEADBEEFu
static void fill_canary(tsim_t *s) {
  for (uint32_t a = CODE_ADDR; a < CODE_ADDR + 16; a += 4) tsim_mem_write32(s, a, CANARY);
  for (uint32_t a = TOHOST_ADDR; a < TOHOST_ADDR + 8; a += 4) tsim_mem_write32(s, a, CANARY);
}
static int canary_intact(tsim_t *s) {
  for (uint32_t a = CODE_ADDR; a < CODE_ADDR + 16; a += 4)
    if (tsim_mem_read32(s, a) != CANARY) return 0;
  for (uint32_t a = TOHOST_ADDR; a < TOHOST_ADDR + 8; a += 4)
    if (tsim_mem_read32(s, a) != CANARY) return 0;
  return 1;
}

/* Write the ELF described by spec, load it, expect rejection mentioning `why`. */
static int expect_reject(tf_ctx_t *t, const elf_spec_t *spec, const char *why) {
  buf_t b;
  tmp_t tmp = {{0}, {0}};
  build_elf(&b, spec);
  int rc = write_tmp(t, &tmp, "bad.elf", b.b, b.n);
  if (rc != TF_PASS) return rc;
  fill_canary(t->sim);
  tsim_elf_info_t info;
  rc = tsim_load_elf(t->sim, tmp.path, &info);
  cleanup_tmp(&tmp);
  const char *err = tsim_last_error(t->sim);
  if (rc != TSIM_EELF) return tf_fail(t, "load returned %d, expected TSIM_EELF (%s)", rc, err);
  if (!strstr(err, why)) return tf_fail(t, "error message '%s' does not mention '%s'", err, why);
  if (!canary_intact(t->sim)) return tf_fail(t, "rejected ELF modified memory");
  tf_log(t, "rejected: %s", err);
  return TF_PASS;
}

TF_TEST_F(elf, load_valid, 100000, TF_SMOKE) {
  elf_spec_t s;
  spec_default(&s);
  buf_t b;
  tmp_t tmp = {{0}, {0}};
  build_elf(&b, &s);
  int rc = write_tmp(t, &tmp, "ok.elf", b.b, b.n);
  if (rc != TF_PASS) return rc;
  fill_canary(t->sim);
  tsim_elf_info_t info;
  rc = tsim_load_elf(t->sim, tmp.path, &info);
  cleanup_tmp(&tmp);
  if (rc != TSIM_OK) return tf_fail(t, "valid ELF rejected: %s", tsim_last_error(t->sim));
  TF_CHECK_EQ(t, info.entry, CODE_ADDR);
  TF_CHECK(t, info.has_tohost);
  TF_CHECK_EQ(t, info.tohost, TOHOST_ADDR);
  TF_CHECK_EQ(t, info.segments, 2);
  TF_CHECK_EQ(t, info.bytes, 24);
  TF_CHECK_EQ(t, tsim_mem_read32(t->sim, CODE_ADDR + 12), JAL_SELF);
  TF_CHECK_EQ(t, tsim_mem_read32(t->sim, CODE_ADDR), lui(5, (TOHOST_ADDR + 0x800u) >> 12));
  TF_CHECK_EQ(t, tsim_mem_read32(t->sim, TOHOST_ADDR), 0); /* memsz beyond filesz is zeroed */
  uint32_t a = 0;
  TF_CHECK_OK(t, tsim_elf_symbol(t->sim, "_start", &a));
  TF_CHECK_EQ(t, a, CODE_ADDR);
  TF_CHECK(t, tsim_elf_symbol(t->sim, "no_such_symbol", &a) != TSIM_OK);
  return TF_PASS;
}

TF_TEST_F(elf, reject_elf64, 100000, TF_SMOKE) {
  elf_spec_t s;
  spec_default(&s);
  s.ei_class = 2;
  return expect_reject(t, &s, "64-bit");
}
TF_TEST_F(elf, reject_big_endian, 100000, TF_SMOKE) {
  elf_spec_t s;
  spec_default(&s);
  s.ei_data = 2;
  return expect_reject(t, &s, "little-endian");
}
TF_TEST_F(elf, reject_wrong_machine, 100000, TF_SMOKE) {
  elf_spec_t s;
  spec_default(&s);
  s.machine = 62; /* x86-64 */
  return expect_reject(t, &s, "machine");
}
TF_TEST_F(elf, reject_not_executable, 100000, TF_SMOKE) {
  elf_spec_t s;
  spec_default(&s);
  s.type = 1; /* ET_REL */
  return expect_reject(t, &s, "executable");
}
TF_TEST_F(elf, reject_truncated, 100000, TF_SMOKE) {
  elf_spec_t s;
  spec_default(&s);
  s.truncate_to = 0x108; /* in the middle of the code */
  int rc = expect_reject(t, &s, "truncated");
  if (rc != TF_PASS) return rc;
  s.truncate_to = 40;    /* inside the ELF header */
  rc = expect_reject(t, &s, "truncated");
  if (rc != TF_PASS) return rc;
  s.truncate_to = 60;    /* inside the program headers */
  return expect_reject(t, &s, "truncated");
}
TF_TEST_F(elf, reject_segment_outside, 100000, TF_SMOKE) {
  /* First segment valid, second outside memory: nothing may be loaded. */
  elf_spec_t s;
  spec_default(&s);
  s.seg1_addr = 0x40000000u;
  int rc = expect_reject(t, &s, "outside");
  if (rc != TF_PASS) return rc;
  s.seg1_addr = TESSERA_BOOTROM_BASE + 0x100u; /* ROM is not loadable */
  rc = expect_reject(t, &s, "outside");
  if (rc != TF_PASS) return rc;
  s.seg1_addr = TESSERA_DSRAM_BASE + TESSERA_DSRAM_BYTES - 4; /* runs past the end */
  return expect_reject(t, &s, "outside");
}
TF_TEST_F(elf, reject_bad_entry, 100000, TF_SMOKE) {
  elf_spec_t s;
  spec_default(&s);
  s.entry = TESSERA_ISRAM_BASE + 0x8000u;
  return expect_reject(t, &s, "entry");
}
TF_TEST_F(elf, reject_not_elf, 100000, TF_SMOKE) {
  tmp_t tmp = {{0}, {0}};
  const char text[] = "#!/bin/sh\necho this is not an ELF file\n";
  int rc = write_tmp(t, &tmp, "text.elf", text, sizeof text);
  if (rc != TF_PASS) return rc;
  rc = tsim_load_elf(t->sim, tmp.path, NULL);
  cleanup_tmp(&tmp);
  if (rc != TSIM_EELF || !strstr(tsim_last_error(t->sim), "not an ELF"))
    return tf_fail(t, "text file: rc %d, '%s'", rc, tsim_last_error(t->sim));
  rc = tsim_load_elf(t->sim, "/nonexistent/file.elf", NULL);
  if (rc != TSIM_EIO) return tf_fail(t, "missing file: rc %d, expected TSIM_EIO", rc);
  return TF_PASS;
}

/* Boot the valid program on the core: it stores `value` to tohost. */
static int run_program(tf_ctx_t *t, uint32_t value, uint32_t *got) {
  elf_spec_t s;
  spec_default(&s);
  s.tohost_value = value;
  buf_t b;
  tmp_t tmp = {{0}, {0}};
  build_elf(&b, &s);
  int rc = write_tmp(t, &tmp, "run.elf", b.b, b.n);
  if (rc != TF_PASS) return rc;
  tsim_elf_info_t info;
  rc = tsim_load_elf(t->sim, tmp.path, &info);
  cleanup_tmp(&tmp);
  TF_CHECK_OK(t, rc);
  TF_CHECK_OK(t, tsim_boot(t->sim, info.entry));
  TF_CHECK_OK(t, tsim_run_tohost(t->sim, info.tohost, t->budget, got));
  return TF_PASS;
}

TF_TEST_F(elf, run_pass, 300000, TF_SMOKE) {
  uint32_t v = 0;
  int rc = run_program(t, 1, &v);
  if (rc != TF_PASS) return rc;
  TF_CHECK_EQ(t, v, 1);
  /* The last retired instructions are the program's. */
  uint32_t pcs[TSIM_RETIRE_RING];
  unsigned n = tsim_retired(t->sim, pcs, NULL, TSIM_RETIRE_RING);
  TF_CHECK(t, n > 0);
  TF_CHECK(t, pcs[n - 1] >= CODE_ADDR && pcs[n - 1] < CODE_ADDR + 16);
  return TF_PASS;
}

TF_TEST_F(elf, run_fail_code, 300000, TF_SMOKE) {
  /* A program reporting failure code n writes (n << 1) | 1. */
  uint32_t code = 1 + tf_rand_below(t, 500), v = 0;
  int rc = run_program(t, (code << 1) | 1u, &v);
  if (rc != TF_PASS) return rc;
  TF_CHECK_EQ(t, v >> 1, code);
  TF_CHECK(t, v != 1);
  return TF_PASS;
}
