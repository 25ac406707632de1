/* Host test of the firmware image format and the boot ROM's checker
 * (bsp/src/image.c, the same code the ROM runs).
 *   image_test [--seed N] [--iters N] [--elf prog.elf --img prog.img]
 * 1. CRC-32: the table-driven ROM routine against a bit-serial reference
 *    (random buffers, random split points for chaining) and the standard
 *    check value of "123456789".
 * 2. Random image chains (1..8 segments, random lengths and load addresses
 *    inside the configuration's RAM) are built here field by field, checked,
 *    "loaded" into a model of RAM as the ROM does it, and compared with the
 *    segments' source data.
 * 3. Every corruption class must be rejected with its own BOOT_ERR code.
 * 4. With --elf E --img I: the image mkimage made from E is accepted by the
 *    checker and every byte of every loadable ELF segment (read here with a
 *    separate minimal ELF reader) is in the image at its load address, and the
 *    entry is the ELF entry.
 * 5. With --elf E: the mkimage beside this program rejects the broken copies
 *    of E of hostlib/elf32_bad.h (ELF64, wrong machine, not ET_EXEC, truncated
 *    header, program headers past the end, filesz > memsz, entry outside the
 *    segments) with exit status 1, a message naming the file and the problem,
 *    and no image.
 * A case is one named check (the text given to check()), however many random
 * iterations it ran: one line per case ("PASS <name> (<n> iterations)"), then
 * "N passed, M failed" over the cases. The seed comes from --seed, else the SEED
 * environment variable, else 1. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elf32_bad.h"
#include "tessera_cfg.h"
#include "tessera/image.h"
#include "../../tests/framework/tf_seed.h"

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}
static uint32_t rnd_range(uint32_t lo, uint32_t hi) { return lo + rnd() % (hi - lo + 1u); }

/* The cases, in the order their first check ran; `what` is a string literal. */
#define MAX_CASES 64
static struct {
    const char *what;
    uint32_t runs, fails;
} cases[MAX_CASES];
static uint32_t ncases, nfail_lines;
static void check(int ok, const char *what, uint32_t iter)
{
    uint32_t i = 0;
    while (i < ncases && strcmp(cases[i].what, what))
        i++;
    if (i == ncases) {
        if (ncases == MAX_CASES) {
            printf("image_test: more than %d cases\n", MAX_CASES);
            exit(1);
        }
        cases[ncases++].what = what;
    }
    cases[i].runs++;
    if (!ok) {
        cases[i].fails++;
        if (++nfail_lines < 20)
            printf("FAIL: %s (iteration %u)\n", what, (unsigned)iter);
    }
}

static uint32_t crc_bitwise(const uint8_t *p, uint32_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int b = 0; b < 8; b++)
            c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

/* model of the chip: an image window in device memory, and the RAM */
#define WIN_BYTES (512u * 1024u)
#define ROM_RSVD  2048u
static uint8_t win[WIN_BYTES];
static uint8_t isram[TESSERA_ISRAM_BYTES], dsram[TESSERA_DSRAM_BYTES];
static const uint32_t win_base = TESSERA_HBM_BASE + 0x100000u;

static const void *map(uint32_t addr, uint32_t len, void *ctx)
{
    (void)ctx;
    if (addr >= win_base && addr - win_base <= WIN_BYTES && len <= WIN_BYTES - (addr - win_base))
        return win + (addr - win_base);
    return NULL;
}

static uint8_t *ram_ptr(uint32_t addr)
{
    if (addr >= TESSERA_ISRAM_BASE && addr - TESSERA_ISRAM_BASE < TESSERA_ISRAM_BYTES)
        return isram + (addr - TESSERA_ISRAM_BASE);
    if (addr >= TESSERA_DSRAM_BASE && addr - TESSERA_DSRAM_BASE < TESSERA_DSRAM_BYTES)
        return dsram + (addr - TESSERA_DSRAM_BASE);
    return NULL;
}

static const timg_range_t src_r[1] = { { win_base, WIN_BYTES } };
static const timg_range_t dst_r[2] = { { TESSERA_ISRAM_BASE, TESSERA_ISRAM_BYTES },
                                       { TESSERA_DSRAM_BASE, TESSERA_DSRAM_BYTES - ROM_RSVD } };
static timg_env_t env = { src_r, 1, dst_r, 2, map, NULL };

typedef struct { uint32_t load, len; uint32_t hdr_off; } seg_t;
typedef struct { uint32_t nseg, entry; seg_t s[TIMG_MAX_SEGS + 2]; uint32_t total; } img_t;

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

static void fix_hdr_crc(uint32_t hdr_off)
{
    put32(win + hdr_off + 28, crc_bitwise(win + hdr_off, 28));
}

/* lay the segments out in win[] from offset 0, headers written field by field */
static void emit(img_t *im, uint8_t *const data[])
{
    uint32_t off = 0;
    for (uint32_t i = 0; i < im->nseg; i++) {
        seg_t *s = &im->s[i];
        s->hdr_off = off;
        uint8_t *h = win + off;
        put32(h + 0, 0x57465354u);
        put32(h + 4, 1u | (8u << 8) | ((i + 1 < im->nseg) ? (1u << 16) : 0u));
        put32(h + 8, s->len);
        put32(h + 12, s->load);
        put32(h + 16, im->entry);
        put32(h + 20, crc_bitwise(data[i], s->len));
        put32(h + 24, 0);
        fix_hdr_crc(off);
        memcpy(h + 32, data[i], s->len);
        off += 32u + ((s->len + 3u) & ~3u);
    }
    im->total = off;
}

/* random non-overlapping segments inside RAM (ISRAM and DSRAM minus the ROM area) */
static void random_image(img_t *im, uint8_t *data[], uint32_t maxseg)
{
    im->nseg = rnd_range(1, maxseg);
    uint32_t pos_i = TESSERA_ISRAM_BASE, pos_d = TESSERA_DSRAM_BASE;
    for (uint32_t i = 0; i < im->nseg; i++) {
        int in_d = (int)(rnd() & 1u);
        uint32_t *pos = in_d ? &pos_d : &pos_i;
        uint32_t end = in_d ? TESSERA_DSRAM_BASE + TESSERA_DSRAM_BYTES - ROM_RSVD
                            : TESSERA_ISRAM_BASE + TESSERA_ISRAM_BYTES;
        uint32_t room = end - *pos;
        uint32_t budget = (in_d ? TESSERA_DSRAM_BYTES : TESSERA_ISRAM_BYTES) / 10u;
        if (room < 64u) {
            im->nseg = i ? i : 1u;
            break;
        }
        uint32_t len = rnd_range(1, room - 16u < budget ? room - 16u : budget);
        *pos += 4u * rnd_range(0, 3);
        im->s[i].load = *pos;
        im->s[i].len = len;
        *pos = (*pos + len + 3u) & ~3u;
        for (uint32_t k = 0; k < len; k++)
            data[i][k] = (uint8_t)rnd();
    }
    uint32_t e = rnd() % im->nseg;
    im->entry = im->s[e].load + 4u * (rnd() % ((im->s[e].len + 3u) / 4u));
}

static uint32_t verify(uint32_t *detail, timg_plan_t *plan)
{
    return timg_verify(win_base, &env, plan, detail);
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long l = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(l > 0 ? (size_t)l : 1u);
    if (b && l > 0 && fread(b, 1, (size_t)l, f) != (size_t)l) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *n = l > 0 ? (size_t)l : 0u;
    return b;
}

/* 4. mkimage output against the ELF it was made from */
static void check_elf_image(const char *elf_path, const char *img_path)
{
    size_t en = 0, in = 0;
    uint8_t *elf = slurp(elf_path, &en), *img = slurp(img_path, &in);
    check(elf && img && en >= 52 && in <= WIN_BYTES, "ELF and image readable", 0);
    if (!elf || !img || en < 52 || in > WIN_BYTES)
        return;
    memset(win, 0, sizeof win);
    memcpy(win, img, in);
    timg_plan_t plan;
    uint32_t detail;
    uint32_t err = timg_verify(win_base, &env, &plan, &detail);
    check(err == 0u, "mkimage image accepted", 0);
    if (err) {
        printf("  err 0x%02x detail 0x%06x\n", (unsigned)err, (unsigned)detail);
        return;
    }
    check(plan.entry == get32(elf + 24), "entry = ELF entry", 0);
    uint32_t phoff = get32(elf + 28), phnum = (uint32_t)(elf[44] | (elf[45] << 8));
    uint32_t phent = (uint32_t)(elf[42] | (elf[43] << 8)), bytes = 0, bad = 0;
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *ph = elf + phoff + i * phent;
        if (get32(ph) != 1u)
            continue;
        uint32_t off = get32(ph + 4), paddr = get32(ph + 12), filesz = get32(ph + 16);
        for (uint32_t k = 0; k < filesz; k++) {
            int found = 0;
            for (uint32_t sgi = 0; sgi < plan.nseg && !found; sgi++) {
                uint32_t a = paddr + k;
                if (a >= plan.seg[sgi].dst && a - plan.seg[sgi].dst < plan.seg[sgi].len) {
                    const uint8_t *p = map(plan.seg[sgi].src + (a - plan.seg[sgi].dst), 1, NULL);
                    found = 1;
                    bad += !p || *p != elf[off + k];
                }
            }
            bad += !found;
            bytes++;
        }
    }
    check(bad == 0u && bytes > 0u, "every ELF byte at its load address", 0);
    printf("image_test: %s: %u segment(s), %u ELF bytes compared\n", img_path, (unsigned)plan.nseg,
           (unsigned)bytes);
    free(elf);
    free(img);
}

/* 5. mkimage (hostlib/elf32.c) on broken ELF files */
static void check_mkimage_rejects(const char *argv0, const char *elf_path)
{
    char tool[1024], bad_path[64], img_path[64], err_path[64], cmd[4096];
    const char *slash = strrchr(argv0, '/');
    snprintf(tool, sizeof tool, "%.*smkimage", slash ? (int)(slash - argv0 + 1) : 0, argv0);
    size_t n = 0;
    uint8_t *good = slurp(elf_path, &n);
    check(good && n >= 52, "ELF readable for the mkimage checks", 0);
    if (!good || n < 52)
        return;
    uint8_t *bad = malloc(n);
    uint32_t ph = elf32_bad_first_load(good, n);
    check(bad && ph, "ELF has a PT_LOAD segment", 0);
    if (!bad || !ph) {
        free(good);
        free(bad);
        return;
    }
    unsigned pid = (unsigned)getpid();
    snprintf(bad_path, sizeof bad_path, "/tmp/image_test_%u.elf", pid);
    snprintf(img_path, sizeof img_path, "/tmp/image_test_%u.img", pid);
    snprintf(err_path, sizeof err_path, "/tmp/image_test_%u.err", pid);
    int rejected = 0;
    for (int k = 0; k < ELF32_BAD_CASES; k++) {
        size_t len;
        const char *why = elf32_bad_case(k, good, n, ph, bad, &len);
        FILE *f = fopen(bad_path, "wb");
        int wrote = f && fwrite(bad, 1, len, f) == len;
        if (f)
            fclose(f);
        remove(img_path);
        snprintf(cmd, sizeof cmd, "'%s' -o %s %s >/dev/null 2>%s", tool, img_path, bad_path, err_path);
        int rc = wrote ? system(cmd) : -1;
        size_t en = 0;
        uint8_t *msg = slurp(err_path, &en);
        char text[512] = "";
        if (msg)
            snprintf(text, sizeof text, "%.*s", (int)(en < 511 ? en : 511), (const char *)msg);
        FILE *img = fopen(img_path, "rb");
        int ok = rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 1 && strstr(text, why) &&
                 strstr(text, bad_path) && !img;
        check(ok, why, (uint32_t)k);
        rejected += ok;
        if (!ok)
            printf("  mkimage case %d: status %d, image %s, message '%s'\n", k, rc, img ? "written" : "none", text);
        if (img)
            fclose(img);
        free(msg);
    }
    printf("image_test: mkimage rejected %d of %d broken copies of %s as expected\n", rejected, ELF32_BAD_CASES,
           elf_path);
    remove(bad_path);
    remove(img_path);
    remove(err_path);
    free(good);
    free(bad);
}

int main(int argc, char **argv)
{
    uint32_t seed = (uint32_t)tf_env_seed(1), iters = 200;
    const char *elf_path = NULL, *img_path = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--seed"))
            seed = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--iters"))
            iters = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--elf"))
            elf_path = argv[i + 1];
        else if (!strcmp(argv[i], "--img"))
            img_path = argv[i + 1];
    }
    printf("image_test: seed %u (reproduce with --seed %u or SEED=%u), %u iterations, config %s\n", (unsigned)seed,
           (unsigned)seed, (unsigned)seed, (unsigned)iters, TESSERA_CONFIG_NAME);
    rng_state = seed;

    /* 1. CRC */
    check(crc32("123456789", 9) == 0xCBF43926u, "CRC-32 check value", 0);
    check(crc32("", 0) == 0u, "CRC-32 of nothing", 0);
    static uint8_t buf[4096];
    for (uint32_t it = 0; it < iters; it++) {
        uint32_t n = rnd_range(0, sizeof buf);
        for (uint32_t k = 0; k < n; k++)
            buf[k] = (uint8_t)rnd();
        uint32_t ref = crc_bitwise(buf, n);
        check(crc32(buf, n) == ref, "table CRC == bitwise CRC", it);
        uint32_t cut = n ? rnd() % n : 0;
        check(crc32_update(crc32(buf, cut), buf + cut, n - cut) == ref, "CRC chaining", it);
    }

    static uint8_t segdata[TIMG_MAX_SEGS + 2][TESSERA_DSRAM_BYTES];
    uint8_t *data[TIMG_MAX_SEGS + 2];
    for (uint32_t i = 0; i < TIMG_MAX_SEGS + 2; i++)
        data[i] = segdata[i];

    for (uint32_t it = 0; it < iters; it++) {
        img_t im;
        timg_plan_t plan;
        uint32_t detail, err;

        /* 2. good image: accepted, and the ROM's copy reproduces the data */
        random_image(&im, data, TIMG_MAX_SEGS);
        emit(&im, data);
        err = verify(&detail, &plan);
        check(err == 0u, "good image accepted", it);
        if (err) {
            printf("  err 0x%02x detail 0x%06x nseg %u\n", (unsigned)err, (unsigned)detail, (unsigned)im.nseg);
            continue;
        }
        check(plan.nseg == im.nseg && plan.entry == im.entry, "plan segments/entry", it);
        memset(isram, 0, sizeof isram);
        memset(dsram, 0, sizeof dsram);
        int same = 1;
        for (uint32_t i = 0; i < plan.nseg; i++) {
            for (uint32_t k = 0; k < plan.seg[i].len; k++) {
                uint8_t *d = ram_ptr(plan.seg[i].dst + k);
                const uint8_t *s = map(plan.seg[i].src + k, 1, NULL);
                if (!d || !s) { same = 0; break; }
                *d = *s;
            }
        }
        for (uint32_t i = 0; i < im.nseg && same; i++)
            for (uint32_t k = 0; k < im.s[i].len; k++)
                if (*ram_ptr(im.s[i].load + k) != data[i][k]) { same = 0; break; }
        check(same, "loaded RAM equals segment data", it);

        /* 3. corruptions, each on a fresh copy of the good image */
        uint32_t victim = rnd() % im.nseg;
        uint32_t ho = im.s[victim].hdr_off;
        static uint8_t saved[WIN_BYTES];
        memcpy(saved, win, im.total);
#define RESTORE() memcpy(win, saved, im.total)

        win[ho + 32 + rnd() % im.s[victim].len] ^= (uint8_t)(1u << (rnd() % 8));
        err = verify(&detail, &plan);
        check(err == BOOT_ERR_PAYLOAD_CRC && (detail >> 20) == victim, "payload bit flip -> PAYLOAD_CRC", it);
        RESTORE();

        win[ho + rnd() % 4] ^= 0x20;
        check(verify(&detail, &plan) == BOOT_ERR_MAGIC, "magic -> MAGIC", it);
        RESTORE();

        win[ho + 4 + rnd() % 24] ^= (uint8_t)(1u << (rnd() % 8));
        check(verify(&detail, &plan) == BOOT_ERR_HDR_CRC, "header bit flip -> HDR_CRC", it);
        RESTORE();

        win[ho + 28 + rnd() % 4] ^= 0x01;
        check(verify(&detail, &plan) == BOOT_ERR_HDR_CRC, "header CRC flip -> HDR_CRC", it);
        RESTORE();

        put32(win + ho + 4, (get32(win + ho + 4) & ~0xFFu) | 2u);
        fix_hdr_crc(ho);
        check(verify(&detail, &plan) == BOOT_ERR_VERSION, "version 2 -> VERSION", it);
        RESTORE();

        put32(win + ho + 24, 1u);
        fix_hdr_crc(ho);
        check(verify(&detail, &plan) == BOOT_ERR_VERSION, "reserved != 0 -> VERSION", it);
        RESTORE();

        put32(win + ho + 8, 0u);
        fix_hdr_crc(ho);
        check(verify(&detail, &plan) == BOOT_ERR_LENGTH, "length 0 -> LENGTH", it);
        RESTORE();

        put32(win + ho + 8, WIN_BYTES);
        fix_hdr_crc(ho);
        check(verify(&detail, &plan) == BOOT_ERR_LENGTH, "length past the window -> LENGTH", it);
        RESTORE();

        static const uint32_t bad_loads[] = { 0x00000000u, 0x20000000u, TESSERA_HBM_BASE, 0x7FFFFFF0u };
        put32(win + ho + 12, bad_loads[rnd() % 4]);
        fix_hdr_crc(ho);
        check(verify(&detail, &plan) == BOOT_ERR_LOAD, "load outside RAM -> LOAD", it);
        RESTORE();

        /* into the boot ROM's own RAM at the top of DSRAM */
        put32(win + ho + 12, TESSERA_DSRAM_BASE + TESSERA_DSRAM_BYTES - ROM_RSVD / 2u);
        fix_hdr_crc(ho);
        check(verify(&detail, &plan) == BOOT_ERR_LOAD, "load over the ROM's stack -> LOAD", it);
        RESTORE();

        put32(win + ho + 12, im.s[victim].load + 2u);
        fix_hdr_crc(ho);
        check(verify(&detail, &plan) == BOOT_ERR_LOAD, "misaligned load -> LOAD", it);
        RESTORE();

        if (im.nseg > 1) {   /* two segments loading to the same place */
            uint32_t other = (victim + 1u) % im.nseg;
            put32(win + ho + 12, im.s[other].load);
            fix_hdr_crc(ho);
            err = verify(&detail, &plan);
            check(err == BOOT_ERR_LOAD || err == BOOT_ERR_ENTRY, "overlapping destinations rejected", it);
            RESTORE();
        }

        uint32_t lo = im.s[im.nseg - 1].hdr_off;
        put32(win + lo + 16, im.entry + 2u);
        fix_hdr_crc(lo);
        check(verify(&detail, &plan) == BOOT_ERR_ENTRY, "misaligned entry -> ENTRY", it);
        RESTORE();

        put32(win + lo + 16, TESSERA_BOOTROM_BASE);
        fix_hdr_crc(lo);
        check(verify(&detail, &plan) == BOOT_ERR_ENTRY, "entry outside the image -> ENTRY", it);
        RESTORE();

        /* header not aligned / not readable */
        check(timg_verify(win_base + 2u, &env, &plan, &detail) == BOOT_ERR_ADDR, "misaligned header -> ADDR", it);
        check(timg_verify(0x70000000u, &env, &plan, &detail) == BOOT_ERR_ADDR, "unmapped header -> ADDR", it);

        /* MORE on the last segment: the next "header" is whatever follows */
        put32(win + im.total, 0xFFFFFFFFu);
        put32(win + lo + 4, get32(win + lo + 4) | (1u << 16));
        fix_hdr_crc(lo);
        err = verify(&detail, &plan);
        if (im.nseg == TIMG_MAX_SEGS)
            check(err == BOOT_ERR_CHAIN, "MORE on the 8th segment -> CHAIN", it);
        else
            check(err == BOOT_ERR_MAGIC && (detail >> 20) == im.nseg,
                  "chain running off the end -> MAGIC of segment n", it);
        RESTORE();
    }

    /* more than TIMG_MAX_SEGS segments */
    {
        img_t im;
        im.nseg = TIMG_MAX_SEGS + 1u;
        for (uint32_t i = 0; i < im.nseg; i++) {
            im.s[i].load = TESSERA_ISRAM_BASE + 64u * i;
            im.s[i].len = 32u;
            memset(data[i], (int)i, 32);
        }
        im.entry = TESSERA_ISRAM_BASE;
        emit(&im, data);
        timg_plan_t plan;
        uint32_t detail;
        check(verify(&detail, &plan) == BOOT_ERR_CHAIN, "9 segments -> CHAIN", 0);
        im.nseg = TIMG_MAX_SEGS;
        emit(&im, data);
        check(verify(&detail, &plan) == 0u, "8 segments accepted", 0);
    }

    if (elf_path && img_path)
        check_elf_image(elf_path, img_path);
    if (elf_path)
        check_mkimage_rejects(argv[0], elf_path);

    uint32_t passed = 0, failed = 0;
    for (uint32_t i = 0; i < ncases; i++) {
        printf("%s %s (%u iteration%s", cases[i].fails ? "FAIL" : "PASS", cases[i].what,
               (unsigned)cases[i].runs, cases[i].runs == 1u ? "" : "s");
        if (cases[i].fails)
            printf(", %u failed", (unsigned)cases[i].fails);
        printf(")\n");
        passed += !cases[i].fails;
        failed += !!cases[i].fails;
    }
    printf("%u passed, %u failed\n", (unsigned)passed, (unsigned)failed);
    return failed ? 1 : 0;
}
