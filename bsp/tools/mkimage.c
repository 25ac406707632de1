/* mkimage: wrap a RISC-V ELF (or a raw binary) into a Tessera firmware image
 * (format: bsp/include/tessera/image.h, docs/boot.md). Host program.
 *
 *   mkimage [-o out.img] [--gap N] prog.elf
 *       PT_LOAD segments (by physical address) become image segments; segments
 *       closer than N bytes (default 256) are merged, the gap zero-filled.
 *       The entry point is the ELF entry.
 *   mkimage -o out.img --bin data.bin --load ADDR [--entry ADDR]
 *       one segment; the entry defaults to the load address.
 *   mkimage --info img [--base ADDR]
 *       print the headers and check the image with the boot ROM's own checker
 *       as if it were placed at ADDR (default 0x80000000, device memory).
 * Exit status 0 on success. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf32.h"
#include "tessera_cfg.h"
#include "tessera/image.h"

#define MAX_CHUNKS TIMG_MAX_SEGS

typedef struct { uint32_t addr, len; uint8_t *data; } chunk_t;

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "mkimage: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    exit(1);
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot open %s", path);
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    if (!buf)
        die("out of memory reading %s", path);
    *len = n;
    return buf;
}

static void wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static int cmp_chunk(const void *a, const void *b)
{
    const chunk_t *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* ELF32 RISC-V (checked by the shared reader, hostlib/elf32.h): collect the
 * PT_LOAD file contents by physical address */
static uint32_t elf_chunks(const char *path, const uint8_t *f, size_t n, uint32_t gap, chunk_t *out, uint32_t *nout)
{
    elf32_t elf;
    char why[ELF32_ERR_BYTES];
    if (elf32_parse(&elf, f, n, why, sizeof why)) {
        fprintf(stderr, "mkimage: %s: %s\n", path, why);
        exit(1);
    }
    uint32_t entry = elf.entry;
    chunk_t segs[ELF32_MAX_SEGS];
    uint32_t ns = 0;
    for (uint32_t i = 0; i < elf.nseg; i++) {
        if (elf.seg[i].filesz == 0)   /* bss only: the loaded program clears it */
            continue;
        segs[ns].addr = elf.seg[i].paddr;
        segs[ns].len = elf.seg[i].filesz;
        segs[ns].data = (uint8_t *)f + elf.seg[i].offset;
        ns++;
    }
    if (ns == 0)
        die("%s", "no segment with file contents");
    qsort(segs, ns, sizeof segs[0], cmp_chunk);
    /* merge neighbours closer than gap */
    uint32_t nc = 0;
    for (uint32_t i = 0; i < ns; i++) {
        if (nc && segs[i].addr >= out[nc - 1].addr + out[nc - 1].len &&
            segs[i].addr - (out[nc - 1].addr + out[nc - 1].len) <= gap) {
            chunk_t *c = &out[nc - 1];
            uint32_t newlen = segs[i].addr + segs[i].len - c->addr;
            c->data = realloc(c->data, newlen);
            memset(c->data + c->len, 0, newlen - c->len);
            memcpy(c->data + (segs[i].addr - c->addr), segs[i].data, segs[i].len);
            c->len = newlen;
            continue;
        }
        if (nc && segs[i].addr < out[nc - 1].addr + out[nc - 1].len)
            die("%s", "overlapping segments");
        if (nc == MAX_CHUNKS)
            die("%s", "more than 8 separate segments; raise --gap");
        out[nc].addr = segs[i].addr;
        out[nc].len = segs[i].len;
        out[nc].data = malloc(segs[i].len);
        memcpy(out[nc].data, segs[i].data, segs[i].len);
        nc++;
    }
    *nout = nc;
    return entry;
}

static void write_image(const char *path, const chunk_t *c, uint32_t nc, uint32_t entry)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        die("cannot create %s", path);
    for (uint32_t i = 0; i < nc; i++) {
        uint8_t h[TIMG_HDR_BYTES];
        wr32(h + 0, TIMG_MAGIC);
        wr32(h + 4, TIMG_VERSION_WORD(i + 1 < nc));
        wr32(h + 8, c[i].len);
        wr32(h + 12, c[i].addr);
        wr32(h + 16, entry);
        wr32(h + 20, crc32(c[i].data, c[i].len));
        wr32(h + 24, 0);
        wr32(h + 28, crc32(h, TIMG_HDR_BYTES - 4));
        static const uint8_t pad[3];
        if (fwrite(h, 1, sizeof h, f) != sizeof h || fwrite(c[i].data, 1, c[i].len, f) != c[i].len ||
            fwrite(pad, 1, (4 - (c[i].len & 3)) & 3, f) != ((4 - (c[i].len & 3)) & 3))
            die("write error on %s", path);
        printf("mkimage: segment %u: load 0x%08x, %u bytes, crc 0x%08x\n", (unsigned)i,
               (unsigned)c[i].addr, (unsigned)c[i].len, (unsigned)crc32(c[i].data, c[i].len));
    }
    if (fclose(f) != 0)
        die("write error on %s", path);
    printf("mkimage: %s: %u segment(s), entry 0x%08x\n", path, (unsigned)nc, (unsigned)entry);
}

/* --info: place the image at base in a host buffer and run the ROM checker */
typedef struct { uint32_t base; const uint8_t *buf; size_t len; } hostmem_t;

static const void *host_map(uint32_t addr, uint32_t len, void *ctx)
{
    hostmem_t *m = ctx;
    if (addr < m->base || addr - m->base > m->len || len > m->len - (addr - m->base))
        return NULL;
    return m->buf + (addr - m->base);
}

static int info(const char *path, uint32_t base)
{
    size_t n;
    uint8_t *img = read_file(path, &n);
    hostmem_t m = { base, img, n };
    const timg_range_t src[1] = { { base, (uint32_t)n } };
    const timg_range_t dst[2] = { { TESSERA_ISRAM_BASE, TESSERA_ISRAM_BYTES },
                                  { TESSERA_DSRAM_BASE, TESSERA_DSRAM_BYTES - 2048u } };
    const timg_range_t dstj[1] = { { TESSERA_ISRAM_BASE, TESSERA_ISRAM_BYTES + TESSERA_DSRAM_BYTES - 2048u } };
    timg_env_t env = { src, 1, dst, 2, host_map, &m };
    if (TESSERA_ISRAM_BASE + TESSERA_ISRAM_BYTES == TESSERA_DSRAM_BASE) {
        env.dst = dstj;
        env.ndst = 1;
    }
    timg_plan_t plan;
    uint32_t detail;
    uint32_t err = timg_verify(base, &env, &plan, &detail);
    if (err) {
        printf("mkimage: %s at 0x%08x: REJECTED, boot status code 0x%02x detail 0x%06x\n", path,
               (unsigned)base, (unsigned)err, (unsigned)detail);
        return 1;
    }
    for (uint32_t i = 0; i < plan.nseg; i++)
        printf("  segment %u: image offset 0x%x -> load 0x%08x, %u bytes\n", (unsigned)i,
               (unsigned)(plan.seg[i].src - base), (unsigned)plan.seg[i].dst, (unsigned)plan.seg[i].len);
    printf("mkimage: %s (%s config) at 0x%08x: OK, %u segment(s), entry 0x%08x\n", path,
           TESSERA_CONFIG_NAME, (unsigned)base, (unsigned)plan.nseg, (unsigned)plan.entry);
    free(img);
    return 0;
}

static uint32_t num(const char *s)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 0);
    if (errno || *end || v > 0xFFFFFFFFul)
        die("bad number '%s'", s);
    return (uint32_t)v;
}

int main(int argc, char **argv)
{
    const char *out = "image.img", *in = NULL, *bin = NULL, *info_path = NULL;
    uint32_t load = 0, entry = 0, gap = 256, base = TESSERA_HBM_BASE;
    int have_load = 0, have_entry = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "-o") && more) out = argv[++i];
        else if (!strcmp(a, "--bin") && more) bin = argv[++i];
        else if (!strcmp(a, "--load") && more) { load = num(argv[++i]); have_load = 1; }
        else if (!strcmp(a, "--entry") && more) { entry = num(argv[++i]); have_entry = 1; }
        else if (!strcmp(a, "--gap") && more) gap = num(argv[++i]);
        else if (!strcmp(a, "--info") && more) info_path = argv[++i];
        else if (!strcmp(a, "--base") && more) base = num(argv[++i]);
        else if (a[0] != '-' && !in) in = a;
        else {
            fprintf(stderr, "usage: mkimage [-o out.img] [--gap N] prog.elf\n"
                            "       mkimage -o out.img --bin data.bin --load ADDR [--entry ADDR]\n"
                            "       mkimage --info image.img [--base ADDR]\n");
            return 2;
        }
    }
    if (info_path)
        return info(info_path, base);

    chunk_t c[MAX_CHUNKS];
    uint32_t nc = 0;
    if (bin) {
        if (!have_load)
            die("%s", "--bin needs --load");
        size_t n;
        c[0].data = read_file(bin, &n);
        if (n == 0 || n > 0x40000000u)
            die("bad binary size for %s", bin);
        c[0].addr = load;
        c[0].len = (uint32_t)n;
        nc = 1;
        if (!have_entry)
            entry = load;
    } else {
        if (!in)
            die("%s", "no input file");
        size_t n;
        uint8_t *f = read_file(in, &n);
        uint32_t e = elf_chunks(in, f, n, gap, c, &nc);
        if (!have_entry)
            entry = e;
    }
    write_image(out, c, nc, entry);
    return 0;
}
