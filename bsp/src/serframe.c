/* Tessera serial frames (bsp/include/tessera/serframe.h): built for the firmware and the
 * boot ROM (RV32) and for hostlink. */
#include "tessera/serframe.h"

uint8_t serframe_crc8(const uint8_t *p, uint32_t n)
{
    uint8_t c = 0;
    for (uint32_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int b = 0; b < 8; b++)
            c = (uint8_t)((c & 0x80u) ? (uint8_t)((c << 1) ^ 0x07u) : (uint8_t)(c << 1));
    }
    return c;
}

int serframe_byte(serframe_rx_t *rx, uint8_t c)
{
    if (rx->n == 0u) {
        if (c != SERFRAME_REQ)
            return 0;
        rx->n = 1u;
        return 1;
    }
    rx->buf[rx->n - 1u] = c;
    rx->n++;
    if (rx->n >= 4u && rx->buf[2] > SERFRAME_MAX_LEN) {
        rx->n = 0u;   /* impossible length: resynchronise */
        return 1;
    }
    if (rx->n >= 4u && rx->n - 1u == 4u + rx->buf[2]) {
        const uint32_t len = rx->buf[2];
        rx->n = 0u;
        return serframe_crc8(rx->buf, 3u + len) == rx->buf[3u + len] ? 2 : 1;
    }
    return 1;
}

uint32_t serframe_reply(uint8_t *out, uint8_t op, uint8_t tag, const uint8_t *pay, uint32_t len)
{
    out[0] = SERFRAME_RSP;
    out[1] = op;
    out[2] = tag;
    out[3] = (uint8_t)len;
    for (uint32_t i = 0; i < len; i++)
        out[4 + i] = pay[i];
    out[4 + len] = serframe_crc8(out + 1, 3u + len);
    return 5u + len;
}

int serframe_is_repeat(const serframe_rx_t *rx)
{
    if (!rx->answer_len)
        return 0;
    for (uint32_t i = 0; i < 4u + rx->buf[2]; i++)
        if (rx->buf[i] != rx->last_req[i])
            return 0;
    return 1;
}

uint32_t serframe_answer(serframe_rx_t *rx, const uint8_t *pay, uint32_t len)
{
    for (uint32_t i = 0; i < 4u + rx->buf[2]; i++)
        rx->last_req[i] = rx->buf[i];
    rx->answer_len = serframe_reply(rx->answer, rx->buf[0], rx->buf[1], pay, len);
    return rx->answer_len;
}

int serframe_serve(serframe_rx_t *rx, const char *id, serframe_access_fn access)
{
    if (serframe_is_repeat(rx))
        return 0;
    const uint8_t op = rx->buf[0], len = rx->buf[2], *pay = rx->buf + 3;
    uint8_t r[5] = { SERFRAME_BAD, 0, 0, 0, 0 };
    uint32_t rlen = 1u, a, v;
    if (op == SERFRAME_HELLO && len == 0u) {
        r[0] = SERFRAME_OK;
        for (int i = 0; i < 4; i++)
            r[1 + i] = (uint8_t)id[i];
        rlen = 5u;
    } else if (op == SERFRAME_READ32 && len == 4u && !((a = serframe_le32(pay)) & 3u)) {
        r[0] = access(a, &v, 0) ? SERFRAME_BUS : SERFRAME_OK;
        if (r[0] == SERFRAME_OK) {
            r[1] = (uint8_t)v, r[2] = (uint8_t)(v >> 8), r[3] = (uint8_t)(v >> 16), r[4] = (uint8_t)(v >> 24);
            rlen = 5u;
        }
    } else if (op == SERFRAME_WRITE32 && len == 8u && !((a = serframe_le32(pay)) & 3u)) {
        v = serframe_le32(pay + 4);
        r[0] = access(a, &v, 1) ? SERFRAME_BUS : SERFRAME_OK;
    }
    serframe_answer(rx, r, rlen);
    return 1;
}
