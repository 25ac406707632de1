/* Link model for the multi-chip simulation; see sim/include/tessera_link.h. */
#include "tessera_link.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  uint64_t arrival;
  uint64_t seq;      /* send order: ties on arrival keep it */
  uint32_t len;
  uint8_t *data;
} lk_frame_t;

struct tsim_link {
  tsim_link_cfg_t cfg;
  uint64_t rng;
  uint64_t free_at;  /* first cycle the wire is free */
  uint64_t seq;
  lk_frame_t *heap;  /* min-heap on (arrival, seq) */
  uint32_t n, cap;
  tsim_pcap_t *pcap;
  uint32_t ns_per_cycle;
  tsim_link_stats_t st;
};

void tsim_link_cfg_default(tsim_link_cfg_t *c) {
  memset(c, 0, sizeof *c);
  c->latency = 200;
  c->bytes_per_cycle = 32;
  c->overhead = 24;
  c->reorder_max = 1000;
  c->dup_gap = 1;
  c->seed = 1;
}

/* splitmix64: small, seedable, good enough for impairment draws */
static uint64_t lk_rand(tsim_link_t *l) {
  uint64_t z = (l->rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static int lk_chance(tsim_link_t *l, uint32_t ppm) {
  return ppm && lk_rand(l) % 1000000u < ppm;
}

tsim_link_t *tsim_link_new(const tsim_link_cfg_t *cfg) {
  tsim_link_t *l = calloc(1, sizeof *l);
  if (!l) return NULL;
  l->cfg = *cfg;
  if (l->cfg.bytes_per_cycle == 0) l->cfg.bytes_per_cycle = 1;
  if (l->cfg.reorder_max == 0) l->cfg.reorder_max = 1;
  l->rng = cfg->seed;
  return l;
}

void tsim_link_free(tsim_link_t *l) {
  if (!l) return;
  for (uint32_t i = 0; i < l->n; i++) free(l->heap[i].data);
  free(l->heap);
  free(l);
}

void tsim_link_set_pcap(tsim_link_t *l, tsim_pcap_t *p, uint32_t ns_per_cycle) {
  l->pcap = p;
  l->ns_per_cycle = ns_per_cycle ? ns_per_cycle : 1;
}

static int lk_before(const lk_frame_t *a, const lk_frame_t *b) {
  return a->arrival < b->arrival || (a->arrival == b->arrival && a->seq < b->seq);
}

static int lk_push(tsim_link_t *l, uint64_t arrival, const uint8_t *data, uint32_t len) {
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? 2 * l->cap : 64;
    lk_frame_t *h = realloc(l->heap, nc * sizeof *h);
    if (!h) return -1;
    l->heap = h;
    l->cap = nc;
  }
  lk_frame_t f = {arrival, l->seq++, len, malloc(len)};
  if (!f.data) return -1;
  memcpy(f.data, data, len);
  uint32_t i = l->n++;
  while (i && lk_before(&f, &l->heap[(i - 1) / 2])) {
    l->heap[i] = l->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  l->heap[i] = f;
  return 0;
}

static lk_frame_t lk_pop(tsim_link_t *l) {
  lk_frame_t top = l->heap[0], last = l->heap[--l->n];
  uint32_t i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= l->n) break;
    if (c + 1 < l->n && lk_before(&l->heap[c + 1], &l->heap[c])) c++;
    if (!lk_before(&l->heap[c], &last)) break;
    l->heap[i] = l->heap[c];
    i = c;
  }
  if (l->n) l->heap[i] = last;
  return top;
}

uint64_t tsim_link_free_at(const tsim_link_t *l) { return l->free_at; }

uint64_t tsim_link_send(tsim_link_t *l, uint64_t now, const uint8_t *frame, uint32_t len) {
  if (len == 0) return 0;
  uint64_t start = now > l->free_at ? now : l->free_at;
  uint64_t wire = ((uint64_t)len + l->cfg.overhead + l->cfg.bytes_per_cycle - 1) / l->cfg.bytes_per_cycle;
  uint64_t end = start + wire;
  l->free_at = end;
  l->st.sent++;
  l->st.sent_bytes += len;
  l->st.busy_cycles += wire;
  if (l->pcap) tsim_pcap_write(l->pcap, start * l->ns_per_cycle, frame, len);

  /* Draws in a fixed order so that one rate does not shift the others' draws. */
  int drop = lk_chance(l, l->cfg.drop_ppm);
  int corrupt = lk_chance(l, l->cfg.corrupt_ppm);
  int dup = lk_chance(l, l->cfg.dup_ppm);
  int reorder = lk_chance(l, l->cfg.reorder_ppm);
  uint64_t r_bit = lk_rand(l), r_delay = lk_rand(l);
  if (drop) {
    l->st.dropped++;
    return end;
  }
  uint64_t arrival = end + l->cfg.latency;
  if (reorder) {
    arrival += 1 + r_delay % l->cfg.reorder_max;
    l->st.reordered++;
  }
  if (corrupt) {
    uint8_t *tmp = malloc(len);
    if (!tmp) return 0;
    memcpy(tmp, frame, len);
    uint64_t bit = r_bit % ((uint64_t)len * 8u);
    tmp[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    l->st.corrupted++;
    int rc = lk_push(l, arrival, tmp, len);
    if (rc == 0 && dup) rc = lk_push(l, arrival + l->cfg.dup_gap, tmp, len);
    free(tmp);
    if (rc) return 0;
  } else {
    if (lk_push(l, arrival, frame, len)) return 0;
    if (dup && lk_push(l, arrival + l->cfg.dup_gap, frame, len)) return 0;
  }
  if (dup) l->st.duplicated++;
  return end;
}

int tsim_link_recv(tsim_link_t *l, uint64_t now, uint8_t *buf, uint32_t cap, uint32_t *len,
                   uint64_t *arrival) {
  if (l->n == 0 || l->heap[0].arrival > now) return 0;
  lk_frame_t f = lk_pop(l);
  uint32_t n = f.len < cap ? f.len : cap;
  memcpy(buf, f.data, n);
  free(f.data);
  if (len) *len = n;
  if (arrival) *arrival = f.arrival;
  l->st.delivered++;
  l->st.delivered_bytes += f.len;
  return 1;
}

uint64_t tsim_link_next_arrival(const tsim_link_t *l) { return l->n ? l->heap[0].arrival : UINT64_MAX; }
uint32_t tsim_link_in_flight(const tsim_link_t *l) { return l->n; }
void tsim_link_stats(const tsim_link_t *l, tsim_link_stats_t *s) { *s = l->st; }
