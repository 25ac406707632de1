/* Tessera serial frames (docs/hostlink.md "Serial framing"): 32-bit register and memory
 * accesses over the UART, answered by the firmware or, while no firmware runs, by the
 * boot ROM's serial loader. Shared by the firmware, the boot ROM and hostlink, so it
 * depends on nothing but <stdint.h>.
 *
 *   request:  A5 op tag len payload[len] crc8      (host -> chip)
 *   response: A6 op tag len payload[len] crc8      (chip -> host)
 * CRC-8 polynomial 0x07, initial 0, over op tag len payload; tag is echoed. The
 * response payload is a status byte (SERFRAME_OK, _BUS, _BAD), then data. */
#ifndef TESSERA_SERFRAME_H
#define TESSERA_SERFRAME_H

#include <stdint.h>

#define SERFRAME_REQ     0xA5u
#define SERFRAME_RSP     0xA6u
#define SERFRAME_MAX_LEN 32u    /* longest payload */
enum { SERFRAME_HELLO = 1, SERFRAME_READ32 = 2, SERFRAME_WRITE32 = 3 };
enum { SERFRAME_OK = 0, SERFRAME_BUS = 1, SERFRAME_BAD = 2 };
/* HELLO's answer after the status byte: who answers */
#define SERFRAME_ID_FIRMWARE "TSFW"
#define SERFRAME_ID_BOOTROM  "TSRM"

uint8_t serframe_crc8(const uint8_t *p, uint32_t n);

/* The receiving side: feed it every byte. It keeps the last request answered and its
 * answer, so a resend of that request (its answer was lost or corrupt on the way
 * back: the host sends the same bytes, same tag, again) is answered again without
 * being executed twice. */
#define SERFRAME_ANSWER_MAX 16u
typedef struct {
    uint8_t buf[SERFRAME_MAX_LEN + 4u];    /* op tag len payload crc */
    uint32_t n;                            /* bytes after the A5 (0: not in a frame) */
    uint8_t last_req[SERFRAME_MAX_LEN + 4u];
    uint8_t answer[SERFRAME_ANSWER_MAX];   /* the last answer, A6 .. crc */
    uint32_t answer_len;                   /* 0: none yet */
} serframe_rx_t;
/* 0: the byte is not part of a frame; 1: taken; 2: taken and a request with a good CRC
 * is complete (op = buf[0], tag = buf[1], len = buf[2], payload from buf + 3). A bad CRC
 * or an impossible length drops the frame: the host times out and resends. */
int serframe_byte(serframe_rx_t *rx, uint8_t c);
/* After serframe_byte returned 2: 1 if the request repeats the last one answered (send
 * rx->answer again), else 0 (execute it, then serframe_answer). */
int serframe_is_repeat(const serframe_rx_t *rx);
/* Keep the answer to the request in rx->buf in rx->answer (status byte and data in pay,
 * len <= SERFRAME_ANSWER_MAX - 5); returns its length. */
uint32_t serframe_answer(serframe_rx_t *rx, const uint8_t *pay, uint32_t len);

/* The device side in one call, after serframe_byte returned 2: a resend is answered
 * again; otherwise HELLO is answered with id (4 bytes), READ32/WRITE32 of an aligned
 * address go through access (0: done; else SERFRAME_BUS), anything else SERFRAME_BAD.
 * The answer is then in rx->answer (rx->answer_len bytes) to send. Returns 1 if the
 * request was executed, 0 for a resend. */
typedef int (*serframe_access_fn)(uint32_t addr, uint32_t *value, int write);
int serframe_serve(serframe_rx_t *rx, const char *id, serframe_access_fn access);

/* An answer into out (at least 5 + len bytes); returns its length. */
uint32_t serframe_reply(uint8_t *out, uint8_t op, uint8_t tag, const uint8_t *pay, uint32_t len);

/* Little-endian word of a payload. */
static inline uint32_t serframe_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

#endif /* TESSERA_SERFRAME_H */
