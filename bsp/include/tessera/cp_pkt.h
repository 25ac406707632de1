/* Tessera command-buffer packets: the encoding the queue managers execute
 * (docs/packets.md). One header for every side that builds or reads packets:
 * the firmware scheduler (firmware/cp.c), the host library (hostlink/) and the
 * control-path golden model (tests/golden/cp_model.h), which the RTL is
 * checked against. Plain C99 (also valid C++), header only: opcodes, header
 * bits, error codes, packet lengths and a buffer builder, all static inline,
 * no dependencies besides <stdint.h>.
 */
#ifndef TESSERA_CP_PKT_H
#define TESSERA_CP_PKT_H

#include <stdint.h>

/* ------------------------------------------------------------ header word */
/* Header word (first 32 bits of every packet, little-endian):
 *   [7:0]   opcode
 *   [8]     EB  engine barrier: wait for the engine to be idle first
 *   [9]     MB  message barrier: wait until earlier messages/register writes landed
 *   [15:10] reserved, must be 0 (else CP_ERR_RESERVED)
 *   [31:16] opcode-specific field ("arg") */
enum cp_opcode {
  CP_OP_NOP       = 0x00, /* 8 B                                              */
  CP_OP_WREG32    = 0x01, /* 8 B: arg = reg offset; w1 = value                */
  CP_OP_WREG_BULK = 0x02, /* 8 + 8*ceil(n/2) B: arg = offset; w1 = n; values  */
  CP_OP_MSG_LONG  = 0x03, /* 16 B: w1 = data; w2 = address; w3 = 0           */
  CP_OP_MSG_SHORT = 0x04, /* 8 B: arg = SOB id; w1[14:0] value, w1[31] add    */
  CP_OP_FENCE     = 0x05, /* 8 B: arg[1:0] counter id; w1[15:0] target       */
  CP_OP_LIN_DMA   = 0x06, /* 16 B: w1 = size; w2 = src; w3 = dst             */
  CP_OP_WAIT      = 0x07, /* 8 B: w1 = cycles                                 */
  CP_OP_STOP      = 0x08, /* 8 B                                              */
  CP_OP_COUNT
};

#define CP_HDR_OP_MASK   0x000000FFu
#define CP_HDR_EB        (1u << 8)
#define CP_HDR_MB        (1u << 9)
#define CP_HDR_RSVD_MASK 0x0000FC00u
#define CP_HDR_ARG_SHIFT 16u
#define CP_MSG_SHORT_ADD (1u << 31)
#define CP_SOB_MASK      0x7FFFu  /* sync-object value bits (MSG_SHORT w1[14:0]) */
#define CP_BULK_MAX      256u     /* WREG_BULK count 1..256 */
#define CP_FENCES        4u       /* fence counters per queue */

/* Error codes (QMAN STATUS.err). */
enum cp_err {
  CP_ERR_NONE          = 0,
  CP_ERR_OPCODE        = 1,  /* unknown opcode                                  */
  CP_ERR_TRUNCATED     = 2,  /* packet extends past the end of the buffer       */
  CP_ERR_REG_RANGE     = 3,  /* register offset unaligned or outside WIN_LIMIT  */
  CP_ERR_CB_RANGE      = 4,  /* buffer misaligned, empty, or outside device mem */
  CP_ERR_AXI           = 5,  /* command-buffer read returned an AXI error       */
  CP_ERR_APB           = 6,  /* engine register write answered pslverr          */
  CP_ERR_FENCE_TIMEOUT = 7,  /* FENCE waited longer than FENCE_TIMEOUT cycles   */
  CP_ERR_BAD_FENCE     = 8,  /* fence counter id >= 4                           */
  CP_ERR_BAD_SOB       = 9,  /* MSG_SHORT object id >= number of objects        */
  CP_ERR_NOT_DMA       = 10, /* LIN_DMA on a queue that is not a DMA queue      */
  CP_ERR_BULK_COUNT    = 11, /* WREG_BULK count 0 or > 256                      */
  CP_ERR_NO_STOP       = 12, /* reached the end of the buffer without a STOP    */
  CP_ERR_RESERVED      = 13, /* reserved header bits [15:10] not zero           */
  CP_ERR_MSG_ALIGN     = 14  /* MSG_LONG address not 4-byte aligned             */
};

/* Header encoder and field decoders. */
static inline uint32_t cp_hdr(uint32_t op, uint32_t flags, uint32_t arg) {
  return (op & CP_HDR_OP_MASK) | (flags & (CP_HDR_EB | CP_HDR_MB)) | ((arg & 0xFFFFu) << CP_HDR_ARG_SHIFT);
}
static inline uint32_t cp_hdr_op(uint32_t w0) { return w0 & CP_HDR_OP_MASK; }
static inline uint32_t cp_hdr_flags(uint32_t w0) { return w0 & (CP_HDR_EB | CP_HDR_MB); }
static inline uint32_t cp_hdr_arg(uint32_t w0) { return w0 >> CP_HDR_ARG_SHIFT; }

static inline const char *cp_err_name(unsigned code) {
  static const char *const n[] = {"NONE", "OPCODE", "TRUNCATED", "REG_RANGE", "CB_RANGE",
                                  "AXI", "APB", "FENCE_TIMEOUT", "BAD_FENCE", "BAD_SOB",
                                  "NOT_DMA", "BULK_COUNT", "NO_STOP", "RESERVED", "MSG_ALIGN"};
  return code < sizeof(n) / sizeof(n[0]) ? n[code] : "?";
}

static inline const char *cp_op_name(unsigned op) {
  static const char *const n[] = {"NOP", "WREG32", "WREG_BULK", "MSG_LONG", "MSG_SHORT",
                                  "FENCE", "LIN_DMA", "WAIT", "STOP"};
  return op < CP_OP_COUNT ? n[op] : "?";
}

/* Packet length in bytes from its first two words (w1 is needed by WREG_BULK);
 * 0 for an unknown opcode. */
static inline uint32_t cp_pkt_bytes(uint32_t w0, uint32_t w1) {
  switch (cp_hdr_op(w0)) {
    case CP_OP_NOP: case CP_OP_WREG32: case CP_OP_MSG_SHORT: case CP_OP_FENCE:
    case CP_OP_WAIT: case CP_OP_STOP:
      return 8;
    case CP_OP_MSG_LONG: case CP_OP_LIN_DMA:
      return 16;
    case CP_OP_WREG_BULK:
      /* count in w1 (low 16 bits); a bad count still has a defined length so
       * that the error is reported at this packet */
      return 8u + 8u * (((w1 & 0xFFFFu) + 1u) / 2u);
    default:
      return 0;
  }
}

/* ------------------------------------------------------------ builder */
/* Appends packets to a word buffer. Functions return 0, or -1 if the buffer
 * is full (nothing appended). */
typedef struct {
  uint32_t *w;      /* storage (little-endian words as they go to memory) */
  uint32_t cap;     /* capacity in words (keep it even) */
  uint32_t n;       /* words used (always even after a complete packet) */
} cp_buf_t;

static inline void cp_buf_init(cp_buf_t *b, uint32_t *storage, uint32_t cap_words) {
  b->w = storage;
  b->cap = cap_words & ~1u;
  b->n = 0;
}

/* n words, padded with a zero word to an even count (8-byte packets). */
static inline int cp_put(cp_buf_t *b, const uint32_t *w, uint32_t n) {
  uint32_t padded = (n + 1u) & ~1u;
  if (b->n + padded > b->cap) return -1;
  for (uint32_t i = 0; i < n; i++) b->w[b->n + i] = w[i];
  if (padded != n) b->w[b->n + n] = 0;
  b->n += padded;
  return 0;
}

static inline int cp_nop(cp_buf_t *b, uint32_t flags) {
  uint32_t w[2] = {cp_hdr(CP_OP_NOP, flags, 0), 0};
  return cp_put(b, w, 2);
}
static inline int cp_wreg32(cp_buf_t *b, uint32_t flags, uint32_t off, uint32_t val) {
  uint32_t w[2] = {cp_hdr(CP_OP_WREG32, flags, off), val};
  return cp_put(b, w, 2);
}
static inline int cp_wreg_bulk(cp_buf_t *b, uint32_t flags, uint32_t off, uint32_t n, const uint32_t *vals) {
  uint32_t need = 2u + ((n + 1u) & ~1u);
  if (b->n + need > b->cap) return -1;
  uint32_t w[2] = {cp_hdr(CP_OP_WREG_BULK, flags, off), n};
  cp_put(b, w, 2);
  cp_put(b, vals, n);
  return 0;
}
static inline int cp_msg_long(cp_buf_t *b, uint32_t flags, uint32_t addr, uint32_t data) {
  uint32_t w[4] = {cp_hdr(CP_OP_MSG_LONG, flags, 0), data, addr, 0};
  return cp_put(b, w, 4);
}
static inline int cp_msg_short(cp_buf_t *b, uint32_t flags, uint32_t sob, int add, uint32_t val) {
  uint32_t w[2] = {cp_hdr(CP_OP_MSG_SHORT, flags, sob), (val & CP_SOB_MASK) | (add ? CP_MSG_SHORT_ADD : 0u)};
  return cp_put(b, w, 2);
}
static inline int cp_fence(cp_buf_t *b, uint32_t flags, uint32_t id, uint32_t target) {
  uint32_t w[2] = {cp_hdr(CP_OP_FENCE, flags, id), target & 0xFFFFu};
  return cp_put(b, w, 2);
}
static inline int cp_lin_dma(cp_buf_t *b, uint32_t flags, uint32_t src, uint32_t dst, uint32_t size) {
  uint32_t w[4] = {cp_hdr(CP_OP_LIN_DMA, flags, 0), size, src, dst};
  return cp_put(b, w, 4);
}
static inline int cp_wait(cp_buf_t *b, uint32_t flags, uint32_t cycles) {
  uint32_t w[2] = {cp_hdr(CP_OP_WAIT, flags, 0), cycles};
  return cp_put(b, w, 2);
}
static inline int cp_stop(cp_buf_t *b, uint32_t flags) {
  uint32_t w[2] = {cp_hdr(CP_OP_STOP, flags, 0), 0};
  return cp_put(b, w, 2);
}
/* Any header/words verbatim (for bad-input tests). */
static inline int cp_raw(cp_buf_t *b, const uint32_t *words, uint32_t n) { return cp_put(b, words, n); }

#endif
