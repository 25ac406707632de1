/* hostlink: open a device by name (docs/hostlink.md): the one place that knows
 * every transport, above them and the core. */
#define _GNU_SOURCE
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hl_core.h"
#include "hl_open.h"
#include "hl_serial.h"
#include "hl_sim.h"
#include "hl_sock.h"

/* "[HOST:]PORT" -> host (default 127.0.0.1), port; 0 or HL_EARG */
static int host_port(const char *p, char host[64], int *port) {
  const char *colon = strrchr(p, ':');
  strcpy(host, "127.0.0.1");
  if (colon) {
    size_t n = (size_t)(colon - p);
    if (n >= 64) return HL_EARG;
    memcpy(host, p, n);
    host[n] = 0;
    p = colon + 1;
  }
  char *end;
  long v = strtol(p, &end, 10);
  if (end == p || *end || v <= 0 || v > 65535) return HL_EARG;
  *port = (int)v;
  return HL_OK;
}

int hl_open(const char *spec, hl_dev_t **dev) {
  if (!spec || !dev) return HL_EARG;
  char host[64];
  int port;
  if (!strcmp(spec, "sim")) return hl_open_sim(dev, 1, 0);
  if (!strncmp(spec, "tcp:", 4))
    return host_port(spec + 4, host, &port) ? HL_EARG : hl_open_tcp(host, port, dev);
  if (!strncmp(spec, "serial-tcp:", 11))
    return host_port(spec + 11, host, &port) ? HL_EARG : hl_open_serial_tcp(host, port, dev);
  if (!strncmp(spec, "serial:", 7)) return hl_open_serial(spec + 7, dev);
  return HL_EARG;
}

static double wall(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int hl_console(const char *spec, double seconds, const char *until, FILE *out) {
  char host[64];
  int port, fd = -1;
  if (!spec) return HL_EARG;
  if (!strncmp(spec, "serial-tcp:", 11)) {
    if (host_port(spec + 11, host, &port)) return HL_EARG;
    fd = hl_serial_tcp_connect(host, port);
  } else if (!strncmp(spec, "serial:", 7)) {
    fd = hl_serial_tty_open(spec + 7);
  } else {
    return HL_EARG;
  }
  if (fd < 0) return HL_EIO;
  /* the newest bytes, to find `until` across reads */
  const size_t keep = until ? strlen(until) : 0;
  char *tail = keep ? calloc(2 * keep + 4096, 1) : NULL;
  size_t tl = 0;
  int rc = until ? HL_ETIMEOUT : HL_OK;
  const double end = seconds > 0 ? wall() + seconds : 0;
  for (;;) {
    int ms = 1000;
    if (end) {
      double left = end - wall();
      if (left <= 0) break;
      ms = left < 1.0 ? (int)(left * 1000) + 1 : 1000;
    }
    struct pollfd p = {fd, POLLIN, 0};
    int pr = poll(&p, 1, ms);
    if (pr < 0) break;
    if (pr == 0) continue;
    char b[4096];
    ssize_t r = read(fd, b, sizeof b);
    if (r <= 0) break;   /* closed */
    fwrite(b, 1, (size_t)r, out);
    fflush(out);
    if (tail) {
      memcpy(tail + tl, b, (size_t)r);
      tl += (size_t)r;
      tail[tl] = 0;
      if (memmem(tail, tl, until, keep)) {
        rc = HL_OK;
        break;
      }
      if (tl > keep) {
        memmove(tail, tail + tl - keep, keep);
        tl = keep;
      }
    }
  }
  free(tail);
  close(fd);
  return rc;
}
