/* hostlink transport over a serial line: 32-bit register/memory accesses in
 * small CRC-checked frames answered by the firmware's frame handler
 * (firmware/console.c). Slow (about 15 bytes per access) but it needs nothing
 * but the UART: the board bring-up path. Bytes that are not part of a
 * response frame (the firmware's log lines) are skipped. The byte channel is
 * an hl_bytes_t: a POSIX tty, a TCP stream (a serial server: chip_tb --uart-tcp),
 * or the simulator's UART in-process. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <sys/socket.h>

#include "hl_core.h"
#include "hl_serial.h"
#include "tessera/serframe.h"
#include "tessera_cfg.h"

#define SER_TIMEOUT 400000u   /* device cycles for one answer */
#define SER_TRIES 3           /* sends of one request before HL_ETIMEOUT */

typedef struct {
  const hl_bytes_t *io;
  void *ctx;
  uint8_t tag;
  int rom;   /* HELLO was answered by the boot ROM's serial loader */
} serctx_t;

/* One attempt: send the frame f (n bytes), receive the answer to its op and tag. */
static int attempt(serctx_t *x, const uint8_t *f, size_t n, uint8_t *rsp, uint8_t *rlen) {
  const uint8_t op = f[1], tag = f[2];
  if (x->io->put(x->ctx, f, n)) return HL_EIO;
  for (;;) {
    int c = x->io->get(x->ctx, SER_TIMEOUT);
    if (c < 0) return HL_ETIMEOUT;
    if (c != SERFRAME_RSP) continue;   /* log text between frames */
    uint8_t body[SERFRAME_MAX_LEN + 4];
    for (int i = 0; i < 3; i++) {
      if ((c = x->io->get(x->ctx, SER_TIMEOUT)) < 0) return HL_ETIMEOUT;
      body[i] = (uint8_t)c;
    }
    if (body[2] > SERFRAME_MAX_LEN) continue;
    for (int i = 0; i <= body[2]; i++) {
      if ((c = x->io->get(x->ctx, SER_TIMEOUT)) < 0) return HL_ETIMEOUT;
      body[3 + i] = (uint8_t)c;
    }
    if (serframe_crc8(body, 3u + body[2]) != body[3 + body[2]] || body[0] != op || body[1] != tag) continue;
    if (body[2] < 1) return HL_EIO;
    if (body[3] == SERFRAME_BUS) return HL_EBUS;
    if (body[3] != SERFRAME_OK) return HL_EARG;
    *rlen = (uint8_t)(body[2] - 1);
    memcpy(rsp, body + 4, *rlen);
    return HL_OK;
  }
}

/* Send one request, receive its answer (payload into rsp, *rlen bytes). A request
 * whose answer does not come (the request or the answer was lost or corrupt) is sent
 * again, the same bytes with the same tag, up to SER_TRIES times: the device runs it
 * once and answers a resend from the answer it kept (tessera/serframe.h). */
static int xact(serctx_t *x, uint8_t op, const uint8_t *pay, uint8_t len, uint8_t *rsp, uint8_t *rlen) {
  uint8_t f[SERFRAME_MAX_LEN + 5];
  if (len > SERFRAME_MAX_LEN) return HL_EARG;
  x->tag++;
  f[0] = SERFRAME_REQ;
  f[1] = op;
  f[2] = x->tag;
  f[3] = len;
  memcpy(f + 4, pay, len);
  f[4 + len] = serframe_crc8(f + 1, 3u + len);
  int rc = HL_ETIMEOUT;
  for (int t = 0; t < SER_TRIES && rc == HL_ETIMEOUT; t++) rc = attempt(x, f, 5u + len, rsp, rlen);
  return rc;
}

static void le(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }

static int r_read32(void *c, uint32_t a, uint32_t *v) {
  uint8_t p[4], r[32], n = 0;
  le(p, a);
  int rc = xact(c, SERFRAME_READ32, p, 4, r, &n);
  if (rc) return rc;
  if (n != 4) return HL_EIO;
  *v = r[0] | (r[1] << 8) | (r[2] << 16) | ((uint32_t)r[3] << 24);
  return HL_OK;
}
static int r_write32(void *c, uint32_t a, uint32_t v) {
  uint8_t p[8], r[32], n = 0;
  le(p, a);
  le(p + 4, v);
  return xact(c, SERFRAME_WRITE32, p, 8, r, &n);
}
static int r_read(void *c, uint32_t a, void *buf, size_t len) {
  if ((a | len) & 3u) return HL_EARG;
  for (size_t i = 0; i < len; i += 4) {
    uint32_t v;
    int rc = r_read32(c, a + (uint32_t)i, &v);
    if (rc) return rc;
    memcpy((uint8_t *)buf + i, &v, 4);
  }
  return HL_OK;
}
static int r_write(void *c, uint32_t a, const void *buf, size_t len) {
  if ((a | len) & 3u) return HL_EARG;
  for (size_t i = 0; i < len; i += 4) {
    uint32_t v;
    memcpy(&v, (const uint8_t *)buf + i, 4);
    int rc = r_write32(c, a + (uint32_t)i, v);
    if (rc) return rc;
  }
  return HL_OK;
}
static int r_wait(void *c, uint64_t cycles) {
  serctx_t *x = c;
  return x->io->idle ? x->io->idle(x->ctx, cycles) : 0;
}
static uint64_t r_now(void *c) {
  serctx_t *x = c;
  return x->io->now(x->ctx);
}
static void r_close(void *c) {
  serctx_t *x = c;
  if (x->io->close) x->io->close(x->ctx);
  free(x);
}

static const hl_ops_t ser_ops = {"serial", r_read32, r_write32, r_read, r_write, NULL, r_wait, r_now, r_close};

const char *hl_serial_peer(hl_dev_t *dev) {
  void *ctx;
  if (hl_transport(dev, &ctx) != &ser_ops) return NULL;
  return ((serctx_t *)ctx)->rom ? "boot ROM" : "firmware";
}

int hl_open_serial_bytes(const hl_bytes_t *io, void *ctx, hl_dev_t **dev) {
  serctx_t *x = calloc(1, sizeof *x);
  if (!x) return HL_ENOMEM;
  x->io = io;
  x->ctx = ctx;
  /* a different first tag per process: a request of this process is never taken for
   * a resend of the last one another process sent */
  x->tag = (uint8_t)(getpid() ^ (io->now ? io->now(ctx) : 0));
  uint8_t r[32], n = 0;
  int rc = xact(x, SERFRAME_HELLO, NULL, 0, r, &n);
  if (rc == HL_OK && n == 4 && !memcmp(r, SERFRAME_ID_BOOTROM, 4)) x->rom = 1;
  else if (rc == HL_OK && (n != 4 || memcmp(r, SERFRAME_ID_FIRMWARE, 4))) rc = HL_EIO;
  if (rc == HL_OK) rc = hl_open_ops(&ser_ops, x, dev);
  if (rc) free(x);
  return rc;
}

/* ------------------------------------------------------------ POSIX tty, TCP */
/* A file descriptor: a tty, or a TCP connection to a serial server (chip_tb
 * --uart-tcp, or a network serial server in front of a board). min_ms is the least
 * time get() waits for a byte: a simulated chip behind TCP or a pseudo-terminal runs
 * a thousand times slower than the board, so its device cycles say nothing about
 * wall time. */
typedef struct {
  int fd;
  int min_ms;
} ttyctx_t;

static uint64_t tty_now(void *c) {
  (void)c;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * TESSERA_CLK_HZ + (uint64_t)ts.tv_nsec * (TESSERA_CLK_HZ / 1000000u) / 1000u;
}
static int tty_put(void *c, const uint8_t *b, size_t n) {
  ttyctx_t *t = c;
  while (n) {
    ssize_t w = write(t->fd, b, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    b += w;
    n -= (size_t)w;
  }
  return 0;
}
static int tty_get(void *c, uint64_t cycles) {
  ttyctx_t *t = c;
  struct pollfd p = {t->fd, POLLIN, 0};
  int ms = (int)(cycles / (TESSERA_CLK_HZ / 1000u)) + 50;
  if (ms < t->min_ms) ms = t->min_ms;
  if (poll(&p, 1, ms) != 1) return -1;
  uint8_t b;
  return read(t->fd, &b, 1) == 1 ? b : -1;
}
static int tty_idle(void *c, uint64_t cycles) {
  (void)c;
  struct timespec ts = {0, (long)(cycles * 1000u / (TESSERA_CLK_HZ / 1000000u))};
  while (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
  nanosleep(&ts, NULL);
  return 0;
}
static void tty_close(void *c) {
  ttyctx_t *t = c;
  close(t->fd);
  free(t);
}
static const hl_bytes_t tty_io = {tty_put, tty_get, tty_idle, tty_now, tty_close};

int hl_serial_tty_open(const char *path) {
  int fd = open(path, O_RDWR | O_NOCTTY);
  if (fd < 0) return -1;
  struct termios tio;
  if (tcgetattr(fd, &tio) == 0) {
    cfmakeraw(&tio);
    cfsetispeed(&tio, B115200);   /* TESSERA_UART_BAUD */
    cfsetospeed(&tio, B115200);
    tcsetattr(fd, TCSANOW, &tio);
  }
  return fd;
}

/* the serial frames over an open descriptor (owned from here on) */
static int open_fd(int fd, int min_ms, hl_dev_t **dev) {
  ttyctx_t *t = calloc(1, sizeof *t);
  if (!t) {
    close(fd);
    return HL_ENOMEM;
  }
  t->fd = fd;
  t->min_ms = min_ms;
  int rc = hl_open_serial_bytes(&tty_io, t, dev);
  if (rc) tty_close(t);
  return rc;
}

int hl_open_serial(const char *path, hl_dev_t **dev) {
  int fd = hl_serial_tty_open(path);
  if (fd < 0) return HL_EFILE;
  return open_fd(fd, strncmp(path, "/dev/pts/", 9) ? 0 : HL_SERIAL_SERVED_WAIT_MS, dev);
}

int hl_serial_tcp_connect(const char *host, int port) {
  char ps[16];
  snprintf(ps, sizeof ps, "%d", port);
  struct addrinfo hints, *ai = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(host, ps, &hints, &ai) || !ai) return -1;
  int fd = -1;
  for (struct addrinfo *a = ai; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen)) close(fd), fd = -1;
  }
  freeaddrinfo(ai);
  if (fd >= 0) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  return fd;
}

int hl_open_serial_tcp(const char *host, int port, hl_dev_t **dev) {
  int fd = hl_serial_tcp_connect(host, port);
  if (fd < 0) return HL_EIO;
  return open_fd(fd, HL_SERIAL_SERVED_WAIT_MS, dev);
}

