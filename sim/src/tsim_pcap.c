/* pcap writer and reader for the NIC links; see sim/include/tessera_pcap.h. */
#include "tessera_pcap.h"

#include <stdio.h>
#include <stdlib.h>

#define PCAP_MAGIC_US 0xA1B2C3D4u
#define PCAP_MAGIC_NS 0xA1B23C4Du

struct tsim_pcap {
  FILE *f;
  int writer;
  int swap;       /* reader: file in the other byte order */
  int nsec;       /* reader: nanosecond timestamps */
  int err;
  uint64_t count;
};

static void put_le32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint32_t bswap32(uint32_t v) {
  return v >> 24 | (v >> 8 & 0xFF00u) | (v << 8 & 0xFF0000u) | v << 24;
}

tsim_pcap_t *tsim_pcap_create(const char *path) {
  tsim_pcap_t *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->f = fopen(path, "wb");
  if (!p->f) { free(p); return NULL; }
  p->writer = 1;
  uint8_t h[24];
  put_le32(h, PCAP_MAGIC_NS);
  put_le32(h + 4, 2u | 4u << 16);   /* version 2.4 */
  put_le32(h + 8, 0);               /* thiszone */
  put_le32(h + 12, 0);              /* sigfigs */
  put_le32(h + 16, TSIM_PCAP_SNAPLEN);
  put_le32(h + 20, TSIM_PCAP_LINKTYPE_ETHERNET);
  if (fwrite(h, sizeof h, 1, p->f) != 1) p->err = 1;
  return p;
}

int tsim_pcap_write(tsim_pcap_t *p, uint64_t t_ns, const uint8_t *frame, uint32_t len) {
  if (!p || !p->writer) return -1;
  uint32_t cap = len > TSIM_PCAP_SNAPLEN ? TSIM_PCAP_SNAPLEN : len;
  uint8_t r[16];
  put_le32(r, (uint32_t)(t_ns / 1000000000u));
  put_le32(r + 4, (uint32_t)(t_ns % 1000000000u));
  put_le32(r + 8, cap);
  put_le32(r + 12, len);
  if (fwrite(r, sizeof r, 1, p->f) != 1 || (cap && fwrite(frame, cap, 1, p->f) != 1)) {
    p->err = 1;
    return -1;
  }
  p->count++;
  return 0;
}

tsim_pcap_t *tsim_pcap_open(const char *path) {
  tsim_pcap_t *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->f = fopen(path, "rb");
  uint8_t h[24];
  if (!p->f || fread(h, sizeof h, 1, p->f) != 1) goto fail;
  uint32_t magic = get_le32(h);
  if (magic == PCAP_MAGIC_US || magic == PCAP_MAGIC_NS) {
    p->swap = 0;
  } else if (bswap32(magic) == PCAP_MAGIC_US || bswap32(magic) == PCAP_MAGIC_NS) {
    p->swap = 1;
    magic = bswap32(magic);
  } else {
    goto fail;
  }
  p->nsec = magic == PCAP_MAGIC_NS;
  uint32_t link = get_le32(h + 20);
  if (p->swap) link = bswap32(link);
  if ((link & 0xFFFFu) != TSIM_PCAP_LINKTYPE_ETHERNET) goto fail;
  return p;
fail:
  if (p->f) fclose(p->f);
  free(p);
  return NULL;
}

int tsim_pcap_read(tsim_pcap_t *p, uint64_t *t_ns, uint8_t *buf, uint32_t cap, uint32_t *len,
                   uint32_t *orig_len) {
  if (!p || p->writer) return -1;
  uint8_t r[16];
  size_t got = fread(r, 1, sizeof r, p->f);
  if (got == 0 && feof(p->f)) return 0;
  if (got != sizeof r) return -1;
  uint32_t w[4];
  for (int i = 0; i < 4; i++) w[i] = p->swap ? bswap32(get_le32(r + 4 * i)) : get_le32(r + 4 * i);
  if (w[2] > cap) return -1;
  if (w[2] && fread(buf, w[2], 1, p->f) != 1) return -1;
  if (t_ns) *t_ns = (uint64_t)w[0] * 1000000000u + (p->nsec ? w[1] : (uint64_t)w[1] * 1000u);
  if (len) *len = w[2];
  if (orig_len) *orig_len = w[3];
  p->count++;
  return 1;
}

uint64_t tsim_pcap_count(const tsim_pcap_t *p) { return p ? p->count : 0; }

int tsim_pcap_close(tsim_pcap_t *p) {
  if (!p) return 0;
  int err = p->err;
  if (fclose(p->f) != 0) err = 1;
  free(p);
  return err ? -1 : 0;
}
