/* hostlink transport over TCP on the loopback interface, and the matching
 * server that exposes any transport (chip_tb --serve PORT serves the
 * simulator). Frames are little-endian (docs/hostlink.md):
 *   request  op u32 | addr u32 | arg u64 | len u32 | payload[len]
 *   response status i32 | value u64 | len u32 | payload[len]
 * One request at a time; the server never accepts a non-loopback peer. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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
static int c_wait(void *c, uint64_t cycles) {
  uint64_t irq = 0;
  int rc = call(c, HL_SOP_WAIT, 0, cycles, NULL, 0, &irq, NULL, 0);
  return rc < 0 ? rc : (int)irq;
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

/* Serve one connection; returns 1 on SHUTDOWN, 0 when the client left. */
static int serve_client(const hl_ops_t *ops, void *ctx, int fd, int verbose) {
  uint8_t *buf = malloc(HL_SOCK_MAX_LEN);
  if (!buf) return 0;
  int shutdown_req = 0;
  for (;;) {
    uint8_t h[20];
    if (xfer_all(fd, h, sizeof h, 0)) break;
    uint32_t op = get32(h), addr = get32(h + 4), len = get32(h + 16);
    uint64_t arg = get64(h + 8);
    if (len > HL_SOCK_MAX_LEN) break;
    if (len && xfer_all(fd, buf, len, 0)) break;
    int rc = 0;
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
        else if (!(rc = ops->read(ctx, addr, buf, (size_t)arg))) rlen = (uint32_t)arg;
        break;
      case HL_SOP_WRITE: rc = ops->write(ctx, addr, buf, len); break;
      case HL_SOP_RESET: rc = ops->reset ? ops->reset(ctx) : HL_EUNSUP; break;
      case HL_SOP_WAIT:
        rc = ops->wait(ctx, arg);
        if (rc >= 0) value = (uint64_t)rc, rc = 0;
        break;
      case HL_SOP_NOW: value = ops->now(ctx); break;
      case HL_SOP_SHUTDOWN: shutdown_req = 1; break;
      default: rc = HL_EARG; break;
    }
    if (verbose > 1) fprintf(stderr, "hostlink serve: op %u addr 0x%08x -> %d\n", op, addr, rc);
    if (reply(fd, rc, value, buf, rlen) || shutdown_req) break;
  }
  free(buf);
  return shutdown_req;
}

int hl_serve(const hl_ops_t *ops, void *ctx, int port, volatile int *bound, volatile int *stop, int verbose) {
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
  if (bind(ls, (struct sockaddr *)&sa, sizeof sa) || listen(ls, 1) || getsockname(ls, (struct sockaddr *)&sa, &sl)) {
    close(ls);
    return HL_EIO;
  }
  if (verbose) fprintf(stderr, "hostlink: serving %s on 127.0.0.1:%d\n", ops->name, ntohs(sa.sin_port));
  if (bound) *bound = ntohs(sa.sin_port);
  int rc = HL_OK;
  while (!(stop && *stop)) {
    struct sockaddr_in peer;
    socklen_t pl = sizeof peer;
    int fd = accept(ls, (struct sockaddr *)&peer, &pl);
    if (fd < 0) {
      if (errno == EINTR) continue;
      rc = HL_EIO;
      break;
    }
    if ((ntohl(peer.sin_addr.s_addr) >> 24) != 127) {   /* loopback peers only */
      close(fd);
      continue;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int done = serve_client(ops, ctx, fd, verbose);
    close(fd);
    if (done) break;
  }
  close(ls);
  return rc;
}
