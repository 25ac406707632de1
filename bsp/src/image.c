/* Tessera firmware image: CRC-32 and chain verification (bsp/include/tessera/image.h).
 * Built for the boot ROM (RV32) and for host tools. */
#include "tessera/image.h"

/* CRC-32 with a 16-entry table (one nibble per step): 64 bytes of table keeps
 * the boot ROM small; the host test checks it against a bit-serial version. */
static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu,
    0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

static uint32_t crc_byte(uint32_t crc, uint32_t b)
{
    crc ^= b;
    crc = (crc >> 4) ^ crc_nibble[crc & 0xFu];
    crc = (crc >> 4) ^ crc_nibble[crc & 0xFu];
    return crc;
}

uint32_t crc32_update(uint32_t crc, const void *data, uint32_t len)
{
    const uint8_t *p = data;
    crc = ~crc;
    while (len && ((uintptr_t)p & 3u)) {
        crc = crc_byte(crc, *p++);
        len--;
    }
    /* whole words: one (slow, device-memory) load per four bytes */
    while (len >= 4u) {
        uint32_t w = *(const uint32_t *)(const void *)p;
        crc = crc_byte(crc, w & 0xFFu);
        crc = crc_byte(crc, (w >> 8) & 0xFFu);
        crc = crc_byte(crc, (w >> 16) & 0xFFu);
        crc = crc_byte(crc, w >> 24);
        p += 4;
        len -= 4u;
    }
    while (len--)
        crc = crc_byte(crc, *p++);
    return ~crc;
}

static int range_inside(uint32_t a, uint32_t len, const timg_range_t *r, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (a >= r[i].base && len <= r[i].size && a - r[i].base <= r[i].size - len)
            return 1;
    }
    return 0;
}

static int overlap(uint32_t a, uint32_t alen, uint32_t b, uint32_t blen)
{
    return a < b + blen && b < a + alen;
}

uint32_t timg_check_header(const timg_header_t *h, uint32_t seg, uint32_t *detail)
{
    if (h->magic != TIMG_MAGIC) {
        *detail = TIMG_DETAIL(seg, h->magic);
        return BOOT_ERR_MAGIC;
    }
    uint32_t hc = crc32(h, TIMG_HDR_BYTES - 4u);
    if (hc != h->hdr_crc) {
        *detail = TIMG_DETAIL(seg, hc);
        return BOOT_ERR_HDR_CRC;
    }
    if ((h->version & ~TIMG_FLAG_MORE) != TIMG_VERSION_WORD(0) || h->reserved != 0u) {
        *detail = TIMG_DETAIL(seg, h->version);
        return BOOT_ERR_VERSION;
    }
    return 0;
}

uint32_t timg_check_entry(const timg_plan_t *plan, uint32_t *detail)
{
    uint32_t e = plan->entry;
    int in_seg = 0;
    for (uint32_t i = 0; i < plan->nseg; i++)
        if (e >= plan->seg[i].dst && e - plan->seg[i].dst < plan->seg[i].len)
            in_seg = 1;
    if ((e & 3u) != 0u || !in_seg) {
        *detail = TIMG_DETAIL(plan->nseg - 1u, e >> 12);
        return BOOT_ERR_ENTRY;
    }
    return 0;
}

int timg_range_inside(uint32_t a, uint32_t len, const timg_range_t *r, uint32_t n)
{
    return range_inside(a, len, r, n);
}

uint32_t timg_verify(uint32_t addr, const timg_env_t *env, timg_plan_t *plan, uint32_t *detail)
{
    uint32_t hdr_addrs[TIMG_MAX_SEGS];
    uint32_t seg = 0;
    uint32_t more = 1;
    *detail = 0;
    plan->nseg = 0;
    plan->entry = 0;

    while (more) {
        if (seg >= TIMG_MAX_SEGS) {
            *detail = TIMG_DETAIL(seg, TIMG_MAX_SEGS);
            return BOOT_ERR_CHAIN;
        }
        const timg_header_t *h = 0;
        if ((addr & 3u) == 0u && range_inside(addr, TIMG_HDR_BYTES, env->src, env->nsrc))
            h = env->map(addr, TIMG_HDR_BYTES, env->ctx);
        if (!h) {
            *detail = TIMG_DETAIL(seg, addr >> 12);
            return BOOT_ERR_ADDR;
        }
        uint32_t err = timg_check_header(h, seg, detail);
        if (err)
            return err;
        uint32_t len = h->payload_len;
        uint32_t src = addr + TIMG_HDR_BYTES;
        const void *payload = 0;
        if (len != 0u && src > addr && range_inside(src, len, env->src, env->nsrc))
            payload = env->map(src, len, env->ctx);
        if (!payload) {
            *detail = TIMG_DETAIL(seg, len);
            return BOOT_ERR_LENGTH;
        }
        uint32_t dst = h->load_addr;
        if ((dst & 3u) != 0u || !range_inside(dst, len, env->dst, env->ndst)) {
            *detail = TIMG_DETAIL(seg, dst >> 12);
            return BOOT_ERR_LOAD;
        }
        uint32_t pc = crc32(payload, len);
        if (pc != h->payload_crc) {
            *detail = TIMG_DETAIL(seg, pc);
            return BOOT_ERR_PAYLOAD_CRC;
        }
        hdr_addrs[seg] = addr;
        plan->seg[seg].src = src;
        plan->seg[seg].dst = dst;
        plan->seg[seg].len = len;
        plan->entry = h->entry;
        more = h->version & TIMG_FLAG_MORE;
        addr = (src + len + 3u) & ~3u;
        seg++;
    }
    plan->nseg = seg;

    /* A destination may not overlap any header or payload of the chain (the
     * copy would destroy data not yet copied), except a payload that already
     * sits at its load address; nor another destination. */
    for (uint32_t i = 0; i < seg; i++) {
        uint32_t d = plan->seg[i].dst, l = plan->seg[i].len;
        for (uint32_t j = 0; j < seg; j++) {
            int bad = overlap(d, l, hdr_addrs[j], TIMG_HDR_BYTES);
            if (!(i == j && plan->seg[i].src == d))
                bad |= overlap(d, l, plan->seg[j].src, plan->seg[j].len);
            if (j != i)
                bad |= overlap(d, l, plan->seg[j].dst, plan->seg[j].len);
            if (bad) {
                *detail = TIMG_DETAIL(i, d >> 12);
                return BOOT_ERR_LOAD;
            }
        }
    }

    return timg_check_entry(plan, detail);
}
