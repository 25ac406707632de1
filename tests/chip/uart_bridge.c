/* chip_tb --uart-tcp PORT / --uart-pty: the simulated chip's UART as a byte stream
 * outside the process, the way a board's USB serial port is (docs/sim.md "The UART
 * outside the simulator"). The chip runs free; every few hundred cycles the bytes the
 * chip sent on uart_tx_o go to the client and the client's bytes are queued for
 * uart_rx_i. Raw bytes, no framing of its own: `hostlink --dev serial-tcp:PORT`, nc,
 * socat or a terminal program on the pseudo-terminal all work.
 *
 * TCP: one client at a time on 127.0.0.1; what the chip printed while nobody was
 * connected (up to BACKLOG bytes, the oldest dropped first) is sent when a client
 * connects, so the boot banner is not lost. A client that closes its end leaves the
 * chip running for the next one.
 * Pseudo-terminal: the slave's path is printed; the bridge keeps the slave open itself
 * (raw mode), so a terminal program may come and go.
 * The run ends at SIGINT/SIGTERM or at the cycle limit (--max-cycles, default 2G),
 * which prints the chip's diagnostic; the flash file (--flash) is written back. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "tessera_sim.h"
#include "tf.h"
#include "uart_bridge.h"

#define CHUNK 256u                 /* cycles between looks at the UART (a byte is 40) */
#define BACKLOG (64u * 1024u)      /* bytes kept for the next TCP client */
#define DEFAULT_LIMIT 2000000000ull

static volatile sig_atomic_t stop_sig;
static void on_signal(int sig) { stop_sig = sig; }

static double wall_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Write all of buf to a non-blocking client; 0 ok, -1 the client is gone. A client
 * that does not read for a second is treated as gone too, so the chip never waits. */
static int send_all(int fd, const uint8_t *b, size_t n) {
  double t0 = wall_s();
  while (n) {
    ssize_t w = write(fd, b, n);
    if (w > 0) {
      b += w;
      n -= (size_t)w;
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && wall_s() - t0 < 1.0) {
      struct pollfd p = {fd, POLLOUT, 0};
      poll(&p, 1, 100);
      continue;
    }
    return -1;
  }
  return 0;
}

static int listen_tcp(int port, int *bound) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t al = sizeof a;
  if (bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 1) || getsockname(fd, (struct sockaddr *)&a, &al)) {
    close(fd);
    return -1;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  *bound = ntohs(a.sin_port);
  return fd;
}

/* A pseudo-terminal in raw mode; the master is returned, the slave stays open in
 * *slave so the master never sees a hang-up while no terminal program has it open. */
static int open_pty(char *path, size_t pathlen, int *slave) {
  int m = posix_openpt(O_RDWR | O_NOCTTY);
  if (m < 0 || grantpt(m) || unlockpt(m) || ptsname_r(m, path, pathlen)) {
    if (m >= 0) close(m);
    return -1;
  }
  int s = open(path, O_RDWR | O_NOCTTY);
  if (s < 0) {
    close(m);
    return -1;
  }
  struct termios tio;
  if (tcgetattr(s, &tio) == 0) {
    cfmakeraw(&tio);
    tcsetattr(s, TCSANOW, &tio);
  }
  fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK);
  *slave = s;
  return m;
}

/* bytes for the next TCP client: a ring of the newest BACKLOG bytes */
typedef struct {
  uint8_t *buf;
  size_t len, head;   /* valid bytes; next write position */
} backlog_t;
static void backlog_add(backlog_t *b, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    b->buf[b->head] = p[i];
    b->head = (b->head + 1) % BACKLOG;
    if (b->len < BACKLOG) b->len++;
  }
}
static int backlog_flush(backlog_t *b, int fd) {
  size_t start = (b->head + BACKLOG - b->len) % BACKLOG, first = b->len < BACKLOG - start ? b->len : BACKLOG - start;
  int rc = send_all(fd, b->buf + start, first) || send_all(fd, b->buf, b->len - first);
  b->len = 0;
  return rc ? -1 : 0;
}

int uart_bridge(const tsim_opts_t *base, const char *elf, int tcp_port, int use_pty, int progress) {
  tsim_opts_t so = *base;
  const uint64_t limit = so.max_cycles ? so.max_cycles : DEFAULT_LIMIT;
  so.max_cycles = limit;
  so.uart_echo = 0;   /* bytes go to the client (and to stdout with -v below) */
  const int echo = base->uart_echo;
  so.quiet = 1;
  tsim_t *s = tsim_create(&so);
  if (!s) {
    fprintf(stderr, "chip_tb: cannot create simulator\n");
    return 2;
  }
  int rc = 2, lfd = -1, cfd = -1, slave = -1;
  uint8_t *ring = NULL;
  if (elf) {
    tsim_elf_info_t info;
    if (tsim_load_elf(s, elf, &info) != TSIM_OK) {
      fprintf(stderr, "chip_tb: ELF rejected: %s\n", tsim_last_error(s));
      goto out;
    }
    if (tsim_boot(s, info.entry) != TSIM_OK) {
      fprintf(stderr, "chip_tb: boot failed: %s\n", tsim_last_error(s));
      goto out;
    }
  }
  char where[128];
  if (use_pty) {
    char path[64];
    if ((cfd = open_pty(path, sizeof path, &slave)) < 0) {
      fprintf(stderr, "chip_tb: cannot open a pseudo-terminal: %s\n", strerror(errno));
      goto out;
    }
    snprintf(where, sizeof where, "%s", path);
  } else {
    int bound = 0;
    if ((lfd = listen_tcp(tcp_port, &bound)) < 0) {
      fprintf(stderr, "chip_tb: cannot listen on 127.0.0.1:%d: %s\n", tcp_port, strerror(errno));
      goto out;
    }
    snprintf(where, sizeof where, "tcp 127.0.0.1:%d", bound);
  }
  ring = malloc(BACKLOG);
  if (!ring) goto out;
  backlog_t bl = {ring, 0, 0};
  printf("chip_tb: UART on %s (config %s, %s, seed %llu, cycle limit %llu)\n", where, TSIM_CONFIG,
         elf ? elf : so.flash_file ? "booting from the flash" : "boot ROM waiting for the host",
         (unsigned long long)so.seed, (unsigned long long)limit);
  fflush(stdout);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  size_t seen = 0;
  uint64_t rx = 0, tx = 0;
  double t0 = wall_s(), tshow = t0 + 2.0;
  const uint64_t c0 = tsim_cycles(s);
  int srun = TSIM_OK;
  while (!stop_sig) {
    if (lfd >= 0 && cfd < 0) {
      int fd = accept(lfd, NULL, NULL);
      if (fd >= 0) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        cfd = fd;
        if (backlog_flush(&bl, cfd)) close(cfd), cfd = -1;
      }
    }
    if ((srun = tsim_step(s, CHUNK)) != TSIM_OK) break;
    /* chip -> client */
    const size_t n = tsim_uart_len(s);
    if (n > seen) {
      const uint8_t *p = (const uint8_t *)tsim_uart_log(s) + seen;
      if (echo) fwrite(p, 1, n - seen, stdout), fflush(stdout);
      tx += n - seen;
      if (cfd >= 0) {
        if (send_all(cfd, p, n - seen)) {
          if (!use_pty) close(cfd), cfd = -1;
        }
      } else {
        backlog_add(&bl, p, n - seen);
      }
      tsim_uart_clear(s);   /* the log is not kept: the client has it */
      seen = 0;
    }
    /* client -> chip */
    if (cfd >= 0) {
      uint8_t b[4096];
      ssize_t r = read(cfd, b, sizeof b);
      if (r > 0) {
        tsim_uart_input(s, b, (size_t)r);
        rx += (uint64_t)r;
      } else if (r == 0 && !use_pty) {
        close(cfd);   /* the client closed its end; wait for the next */
        cfd = -1;
      }
    }
    if (progress) {
      double t = wall_s();
      if (t >= tshow) {
        const uint64_t c = tsim_cycles(s) - c0;
        fprintf(stderr, "\r  %llu cycles, %.0f cycles/s, UART %llu bytes out / %llu in, %s   ",
                (unsigned long long)c, c / (t - t0), (unsigned long long)tx, (unsigned long long)rx,
                cfd >= 0 ? "client connected" : "no client");
        tshow = t + 2.0;
      }
    }
  }
  if (progress) fprintf(stderr, "\n");
  const uint64_t c = tsim_cycles(s) - c0;
  if (srun != TSIM_OK) {
    printf("chip_tb: UART bridge stopped at the cycle limit (%llu cycles)\n", (unsigned long long)c);
    tsim_diag(s, stdout, "cycle limit of the UART bridge (--max-cycles)");
    rc = 1;
  } else {
    printf("chip_tb: UART bridge stopped by signal %d after %llu cycles (%.0f cycles/s), %llu bytes out, %llu in\n",
           (int)stop_sig, (unsigned long long)c, c / (wall_s() - t0 + 1e-9), (unsigned long long)tx,
           (unsigned long long)rx);
    rc = 0;
  }
out:
  if (cfd >= 0) close(cfd);
  if (slave >= 0) close(slave);
  if (lfd >= 0) close(lfd);
  free(ring);
  tsim_destroy(s);   /* writes the flash file back */
  return rc;
}
