/* hostlink transport over TCP on the loopback interface, and the matching
 * server that exposes any transport (chip_tb --serve PORT serves the
 * simulator). Frames are little-endian (docs/hostlink.md):
 *   request  op u32 | addr u32 | arg u64 | len u32 | payload[len]
 *   response status i32 | value u64 | len u32 | payload[len]
 * One request at a time (up to HL_SERVE_CLIENTS connections, see hl_serve_ex); the
 * server never accepts a non-loopback peer. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "hl_core.h"
#include "hl_sock.h"

/* Socket protocol (hl_sock.c, docs/hostlink.md): little-endian frames.
 * request:  op u32, addr u32, arg u64, len u32, payload[len]
 * response: status i32, value u64, len u32, payload[len] */
enum {
  HL_SOP_READ32 = 1, HL_SOP_WRITE32 = 2, HL_SOP_READ = 3, HL_SOP_WRITE = 4,
  HL_SOP_RESET = 5, HL_SOP_WAIT = 6, HL_SOP_NOW = 7, HL_SOP_HELLO = 8, HL_SOP_SHUTDOWN = 9
};
#define HL_SOCK_MAGIC 0x4B4C4854u  /* HELLO answer value: 'THLK' */
#define HL_SOCK_MAX_LEN (1u << 20)

static int xfer_all(int fd, void *buf, size_t len, int wr) {
  uint8_t *p = buf;
  while (len) {
    ssize_t n = wr ? send(fd, p, len, MSG_NOSIGNAL) : recv(fd, p, len, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }
static uint32_t get32(const uint8_t *p) { return p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24); }
static uint64_t get64(const uint8_t *p) { return get32(p) | ((uint64_t)get32(p + 4) << 32); }

/* ------------------------------------------------------------ client */
typedef struct { int fd; } sockctx_t;

/* One round trip; *value and `in` (in_len bytes expected) from the answer. */
static int call(sockctx_t *c, uint32_t op, uint32_t addr, uint64_t arg, const void *out, uint32_t out_len,
                uint64_t *value, void *in, uint32_t in_len) {
  uint8_t h[20], r[16];
  put32(h, op);
  put32(h + 4, addr);
  put64(h + 8, arg);
  put32(h + 16, out_len);
  if (xfer_all(c->fd, h, sizeof h, 1) || (out_len && xfer_all(c->fd, (void *)out, out_len, 1))) return HL_EIO;
  if (xfer_all(c->fd, r, sizeof r, 0)) return HL_EIO;
  int32_t st = (int32_t)get32(r);
  uint32_t len = get32(r + 12);
  if (value) *value = get64(r + 4);
  if (len > in_len) return HL_EIO;
  if (len && xfer_all(c->fd, in, len, 0)) return HL_EIO;
  return st;
}

static int c_read32(void *c, uint32_t a, uint32_t *v) {
  uint64_t x = 0;
  int rc = call(c, HL_SOP_READ32, a, 0, NULL, 0, &x, NULL, 0);
  *v = (uint32_t)x;
  return rc;
}
static int c_write32(void *c, uint32_t a, uint32_t v) { return call(c, HL_SOP_WRITE32, a, v, NULL, 0, NULL, NULL, 0); }
static int c_read(void *c, uint32_t a, void *buf, size_t len) {
  for (size_t done = 0; done < len;) {
    uint32_t n = len - done > HL_SOCK_MAX_LEN ? HL_SOCK_MAX_LEN : (uint32_t)(len - done);
    int rc = call(c, HL_SOP_READ, a + (uint32_t)done, n, NULL, 0, NULL, (uint8_t *)buf + done, n);
    if (rc) return rc;
    done += n;
  }
  return HL_OK;
}
static int c_write(void *c, uint32_t a, const void *buf, size_t len) {
  for (size_t done = 0; done < len;) {
    uint32_t n = len - done > HL_SOCK_MAX_LEN ? HL_SOCK_MAX_LEN : (uint32_t)(len - done);
    int rc = call(c, HL_SOP_WRITE, a + (uint32_t)done, 0, (const uint8_t *)buf + done, n, NULL, NULL, 0);
    if (rc) return rc;
    done += n;
  }
  return HL_OK;
}
static int c_reset(void *c) { return call(c, HL_SOP_RESET, 0, 0, NULL, 0, NULL, NULL, 0); }
/* A server runs at most HL_SERVE_MAX_WAIT cycles per WAIT request (other clients are
 * served between them): longer waits are split, ending early at the interrupt. */
static int c_wait(void *c, uint64_t cycles) {
  do {
    uint64_t irq = 0, n = cycles > HL_SERVE_MAX_WAIT ? HL_SERVE_MAX_WAIT : cycles;
    int rc = call(c, HL_SOP_WAIT, 0, n, NULL, 0, &irq, NULL, 0);
    if (rc < 0 || irq) return rc < 0 ? rc : 1;
    cycles -= n;
  } while (cycles);
  return 0;
}
static uint64_t c_now(void *c) {
  uint64_t v = 0;
  call(c, HL_SOP_NOW, 0, 0, NULL, 0, &v, NULL, 0);
  return v;
}
static void c_close(void *c) {
  sockctx_t *x = c;
  close(x->fd);
  free(x);
}

static const hl_ops_t tcp_ops = {"tcp", c_read32, c_write32, c_read, c_write, c_reset, c_wait, c_now, c_close};

int hl_open_tcp(const char *host, int port, hl_dev_t **dev) {
  struct sockaddr_in sa;
  memset(&sa, 0, sizeof sa);
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)port);
  if (inet_pton(AF_INET, host, &sa.sin_addr) != 1 || (ntohl(sa.sin_addr.s_addr) >> 24) != 127)
    return HL_EARG;   /* loopback only */
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return HL_EIO;
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa)) {
    close(fd);
    return HL_EIO;
  }
  sockctx_t *x = calloc(1, sizeof *x);
  if (!x) {
    close(fd);
    return HL_ENOMEM;
  }
  x->fd = fd;
  uint64_t magic = 0;
  if (call(x, HL_SOP_HELLO, 0, 0, NULL, 0, &magic, NULL, 0) != HL_OK || magic != HL_SOCK_MAGIC) {
    c_close(x);
    return HL_EIO;
  }
  int rc = hl_open_ops(&tcp_ops, x, dev);
  if (rc) c_close(x);
  return rc;
}

int hl_shutdown_server(hl_dev_t *dev) {
  void *ctx;
  if (hl_transport(dev, &ctx) != &tcp_ops) return HL_EUNSUP;
  return call(ctx, HL_SOP_SHUTDOWN, 0, 0, NULL, 0, NULL, NULL, 0);
}

/* ------------------------------------------------------------ server */
static int reply(int fd, int32_t st, uint64_t value, const void *buf, uint32_t len) {
  uint8_t r[16];
  put32(r, (uint32_t)st);
  put64(r + 4, value);
  put32(r + 12, len);
  if (xfer_all(fd, r, sizeof r, 1)) return -1;
  return len ? xfer_all(fd, (void *)buf, len, 1) : 0;
}

/* The server multiplexes up to HL_SERVE_CLIENTS connections with poll(): requests
 * run one at a time, in full, in the order their frames complete. A client that
 * leaves a frame incomplete for longer than the frame timeout, sends a length over
 * the maximum or does not take its answer is dropped (the reason goes to stderr);
 * the others go on. */
#define HL_SERVE_CLIENTS 8

typedef struct {
  int fd;
  unsigned id;
  uint8_t hdr[20];
  uint32_t got, need;     /* bytes of the current frame received / expected */
  uint8_t *buf;           /* payload and answer data (HL_SOCK_MAX_LEN, on first use) */
  struct timespec t0;     /* arrival of the frame's first byte */
} sclient_t;

static double ms_since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

static void drop(sclient_t *c, const char *why, int log) {
  if (log) fprintf(stderr, "hostlink serve: client %u dropped: %s\n", c->id, why);
  close(c->fd);
  free(c->buf);
  memset(c, 0, sizeof *c);
  c->fd = -1;
}

/* Run one complete request of client c; returns -1 to drop the client (answer not
 * taken), 1 on SHUTDOWN, else 0. */
static int serve_request(const hl_ops_t *ops, void *ctx, sclient_t *c, int verbose) {
  const uint8_t *h = c->hdr;
  uint32_t op = get32(h), addr = get32(h + 4), len = get32(h + 16);
  uint64_t arg = get64(h + 8);
  int rc = 0, shutdown_req = 0;
  uint64_t value = 0;
  uint32_t rlen = 0;
  switch (op) {
    case HL_SOP_HELLO: value = HL_SOCK_MAGIC; break;
    case HL_SOP_READ32: {
      uint32_t v = 0;
      rc = ops->read32(ctx, addr, &v);
      value = v;
      break;
    }
    case HL_SOP_WRITE32: rc = ops->write32(ctx, addr, (uint32_t)arg); break;
    case HL_SOP_READ:
      if (arg > HL_SOCK_MAX_LEN) rc = HL_EARG;
      else if (!c->buf && !(c->buf = malloc(HL_SOCK_MAX_LEN))) rc = HL_ENOMEM;
      else if (!(rc = ops->read(ctx, addr, c->buf, (size_t)arg))) rlen = (uint32_t)arg;
      break;
    case HL_SOP_WRITE: rc = ops->write(ctx, addr, c->buf, len); break;
    case HL_SOP_RESET: rc = ops->reset ? ops->reset(ctx) : HL_EUNSUP; break;
    case HL_SOP_WAIT:
      if (arg > HL_SERVE_MAX_WAIT) {
        fprintf(stderr, "hostlink serve: client %u: WAIT of %llu cycles refused (at most %llu per request)\n", c->id,
                (unsigned long long)arg, (unsigned long long)HL_SERVE_MAX_WAIT);
        rc = HL_EARG;
        break;
      }
      rc = ops->wait(ctx, arg);
      if (rc >= 0) value = (uint64_t)rc, rc = 0;
      break;
    case HL_SOP_NOW: value = ops->now(ctx); break;
    case HL_SOP_SHUTDOWN: shutdown_req = 1; break;
    default: rc = HL_EARG; break;
  }
  if (verbose > 1) fprintf(stderr, "hostlink serve: client %u: op %u addr 0x%08x -> %d\n", c->id, op, addr, rc);
  if (reply(c->fd, rc, value, c->buf, rlen)) return -1;
  return shutdown_req;
}

/* Receive what client c has (never past its current frame); run the request once
 * the frame is complete. Returns 1 on SHUTDOWN. */
static int serve_input(const hl_ops_t *ops, void *ctx, sclient_t *c, int verbose) {
  char why[128];
  uint8_t *dst = c->got < 20u ? c->hdr + c->got : c->buf + (c->got - 20u);
  ssize_t n = recv(c->fd, dst, c->need - c->got, MSG_DONTWAIT);
  if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
  if (n <= 0) {
    snprintf(why, sizeof why, "connection closed %s (%u of %u bytes of a frame)", n ? "by an error" : "by the client",
             c->got, c->need);
    drop(c, why, c->got != 0 || verbose);
    return 0;
  }
  if (!c->got) clock_gettime(CLOCK_MONOTONIC, &c->t0);
  c->got += (uint32_t)n;
  if (c->got == 20u && c->need == 20u) {
    uint32_t len = get32(c->hdr + 16);
    if (len > HL_SOCK_MAX_LEN) {
      snprintf(why, sizeof why, "frame length %u over the maximum %u", len, HL_SOCK_MAX_LEN);
      drop(c, why, 1);
      return 0;
    }
    if (len && !c->buf && !(c->buf = malloc(HL_SOCK_MAX_LEN))) {
      drop(c, "out of memory", 1);
      return 0;
    }
    c->need = 20u + len;
  }
  if (c->got < c->need) return 0;
  c->got = 0;
  c->need = 20u;
  int r = serve_request(ops, ctx, c, verbose);
  if (r < 0) drop(c, "answer not taken", 1);
  return r > 0;
}

void hl_serve_opts_default(hl_serve_opts_t *o) {
  memset(o, 0, sizeof *o);
  o->frame_timeout_ms = HL_SERVE_FRAME_TIMEOUT_MS;
}

int hl_serve(const hl_ops_t *ops, void *ctx, int port, volatile int *bound, volatile int *stop, int verbose) {
  hl_serve_opts_t o;
  hl_serve_opts_default(&o);
  return hl_serve_ex(ops, ctx, port, bound, stop, verbose, &o);
}

int hl_serve_ex(const hl_ops_t *ops, void *ctx, int port, volatile int *bound, volatile int *stop, int verbose,
                const hl_serve_opts_t *o) {
  const uint32_t tmo = o && o->frame_timeout_ms ? o->frame_timeout_ms : HL_SERVE_FRAME_TIMEOUT_MS;
  int ls = socket(AF_INET, SOCK_STREAM, 0);
  if (ls < 0) return HL_EIO;
  int one = 1;
  setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in sa;
  memset(&sa, 0, sizeof sa);
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)port);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t sl = sizeof sa;
  if (bind(ls, (struct sockaddr *)&sa, sizeof sa)) {
    int e = errno;
    close(ls);
    return e == EADDRINUSE ? HL_EADDRINUSE : HL_EIO;
  }
  if (listen(ls, HL_SERVE_CLIENTS) || getsockname(ls, (struct sockaddr *)&sa, &sl)) {
    close(ls);
    return HL_EIO;
  }
  if (verbose) fprintf(stderr, "hostlink: serving %s on 127.0.0.1:%d\n", ops->name, ntohs(sa.sin_port));
  if (o && o->on_bound) o->on_bound(ntohs(sa.sin_port), o->arg);
  if (bound) *bound = ntohs(sa.sin_port);
  sclient_t cl[HL_SERVE_CLIENTS];
  for (int i = 0; i < HL_SERVE_CLIENTS; i++) memset(&cl[i], 0, sizeof cl[i]), cl[i].fd = -1;
  unsigned next_id = 1;
  int rc = HL_OK, done = 0;
  while (!done && !(stop && *stop)) {
    struct pollfd pf[1 + HL_SERVE_CLIENTS];
    int map[1 + HL_SERVE_CLIENTS], np = 0, nfree = 0;
    for (int i = 0; i < HL_SERVE_CLIENTS; i++) {
      if (cl[i].fd < 0) {
        nfree++;
        continue;
      }
      pf[np].fd = cl[i].fd, pf[np].events = POLLIN, pf[np].revents = 0, map[np++] = i;
    }
    if (nfree) pf[np].fd = ls, pf[np].events = POLLIN, pf[np].revents = 0, map[np++] = -1;
    int n = poll(pf, (nfds_t)np, 50);
    if (n < 0) {
      if (errno == EINTR) continue;
      rc = HL_EIO;
      break;
    }
    for (int k = 0; k < np && !done; k++) {
      if (!pf[k].revents) continue;
      if (map[k] >= 0) {
        done = serve_input(ops, ctx, &cl[map[k]], verbose);
        continue;
      }
      struct sockaddr_in peer;
      socklen_t pl = sizeof peer;
      int fd = accept(ls, (struct sockaddr *)&peer, &pl);
      if (fd < 0) {
        if (errno == EINTR || errno == EAGAIN || errno == ECONNABORTED) continue;
        rc = HL_EIO;
        done = 1;
        break;
      }
      if ((ntohl(peer.sin_addr.s_addr) >> 24) != 127) {   /* loopback peers only */
        close(fd);
        continue;
      }
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      struct timeval tv = {(time_t)(tmo / 1000u), (suseconds_t)(tmo % 1000u) * 1000};
      setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);   /* an answer not taken drops the client */
      for (int i = 0; i < HL_SERVE_CLIENTS; i++)
        if (cl[i].fd < 0) {
          cl[i].fd = fd, cl[i].id = next_id++, cl[i].need = 20u;
          if (verbose) fprintf(stderr, "hostlink serve: client %u connected\n", cl[i].id);
          break;
        }
    }
    for (int i = 0; i < HL_SERVE_CLIENTS; i++)
      if (cl[i].fd >= 0 && cl[i].got && ms_since(&cl[i].t0) > tmo) {
        char why[128];
        snprintf(why, sizeof why, "frame incomplete (%u of %u bytes) for more than %u ms", cl[i].got, cl[i].need, tmo);
        drop(&cl[i], why, 1);
      }
  }
  for (int i = 0; i < HL_SERVE_CLIENTS; i++)
    if (cl[i].fd >= 0) drop(&cl[i], "server stopping", 0);
  close(ls);
  return rc;
}
