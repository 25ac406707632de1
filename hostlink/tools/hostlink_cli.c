/* hostlink: command-line front end of the host library (docs/hostlink.md).
 *
 *   hostlink [options] COMMAND [ARGS] [, COMMAND [ARGS]] ...
 * Commands run in order on one device (with the in-process simulator every
 * invocation starts a fresh chip, so chain them with ","). */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hostlink.h"
#include "regs/sysctrl_regs.h"
#include "tessera_cfg.h"

#define SYSC(r) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, r))

static int verbose;

static void usage(FILE *f) {
  fprintf(f,
          "usage: hostlink [options] COMMAND [ARGS] [, COMMAND [ARGS]]...\n"
          "options:\n"
          "  --dev SPEC       sim (default: in-process simulator), tcp:PORT (a simulator\n"
          "                   serving with `chip_tb --serve PORT`), serial:/dev/ttyX (a board,\n"
          "                   or `chip_tb --uart-pty`), serial-tcp:[HOST:]PORT (the serial\n"
          "                   frames over TCP: `chip_tb --uart-tcp PORT`)\n"
          "  --seed N         simulator seed (recorded in diagnostics)\n"
          "  --flash FILE     sim: contents of the chip's SPI flash, loaded at start and written\n"
          "                   back at the end (default: an erased flash, not kept)\n"
          "  -v               more output (simulator UART echo)\n"
          "  --help           this text\n"
          "commands:\n"
          "  read ADDR [N]            read N (1) 32-bit words (registers or memory)\n"
          "  write ADDR VALUE...      write 32-bit words from ADDR on\n"
          "  dump ADDR BYTES FILE     copy a device range into FILE (bulk transfer)\n"
          "  upload FILE ADDR         copy FILE into the device from ADDR on (bulk transfer)\n"
          "                           (addresses of 32-bit words are 4-byte aligned; a range\n"
          "                           must lie in one region of the memory map; the boot ROM\n"
          "                           is read-only; long transfers show progress on stderr)\n"
          "  load FILE [STAGE]        boot FILE: a Tessera image is verified by the boot ROM\n"
          "                           (staged at STAGE, default 0x%08x); an ELF is loaded as\n"
          "                           linked and started; then wait for the firmware\n"
          "  flash FILE               write the Tessera image FILE into the SPI flash at 0x%06x\n"
          "                           (the boot ROM's checks first; erase, program, verify)\n"
          "  flash --verify FILE      compare the flash with the image FILE\n"
          "  flash --erase            erase the image's first sector: the ROM finds no image\n"
          "  flash --info             JEDEC ID and size of the flash\n"
          "  boot                     reset the chip; the boot ROM boots the image in the flash\n"
          "                           (prints the boot status: started, none, or rejected)\n"
          "  console [SECONDS] [--until TEXT]\n"
          "                           serial devices: print the chip's UART output (raw, nothing\n"
          "                           sent) for SECONDS (default: until the link closes) or until\n"
          "                           TEXT was printed (exit status 1 if it was not in time)\n"
          "  attach                   find the host interface of a running firmware\n"
          "  status                   boot/firmware status, engine queues, job counters\n"
          "  run CYCLES               let the device run\n"
          "  cb TEXT OUT              assemble a command buffer (one packet per line:\n"
          "                           nop | wreg32 OFF VAL | wreg_bulk OFF VAL... | msg_long ADDR DATA |\n"
          "                           msg_short SOB set|add VAL | fence ID TARGET |\n"
          "                           lin_dma SRC DST SIZE | wait CYCLES | stop; suffixes eb / mb)\n"
          "  submit [--sq N] [--dep SEQ]... [--budget CYCLES] [--buf BASE:SIZE]... QUEUE=CBFILE...\n"
          "                           upload the command buffers, submit one job, print its seq\n"
          "  wait SEQ [CYCLES]        wait for a job (default 10M cycles), print its completion\n"
          "  copy SRC DST SIZE [QUEUE]\n"
          "                           one DMA job (default queue dma0) copying device memory\n"
          "NIC (the firmware programs the port; PORT 0..N-1, QP 0..15):\n"
          "  nic-port PORT MAC IP     the port's own MAC (aa:bb:cc:dd:ee:ff) and IPv4 address\n"
          "  qp-create PORT QP [QPN]  a QP in RESET (local QPN, default 0x100 + 16 * PORT + QP)\n"
          "  qp-modify PORT QP STATE [ATTR=VALUE]...\n"
          "                           STATE reset|init|rtr|rts|error; ATTR dqpn, mac, ip (the\n"
          "                           remote end: all three), mtu (code 1..5), mode (selective|gbn),\n"
          "                           rq_psn, sq_psn, retry, rto (with guard); INIT -> RTR needs\n"
          "                           dqpn, mac, ip, mtu, rq_psn; RTR -> RTS needs sq_psn\n"
          "  qp-destroy PORT QP       back to RESET, the index is free\n"
          "  qp-query PORT QP         state, QPNs, PSNs, requester counters\n"
          "  mr-reg PORT BASE LEN RKEY [r|w|rw]\n"
          "                           a memory region (default w), prints its index\n"
          "  mr-dereg PORT INDEX      remove a memory region\n"
          "  rdma-write PORT QP LADDR VA RKEY LEN [CYCLES]\n"
          "                           RDMA WRITE, wait for its completion (default 10M cycles)\n"
          "  serve PORT               serve this device on 127.0.0.1:PORT (tcp transport)\n"
          "  shutdown                 stop the tcp server this device is connected to\n"
          "exit status 0 if every command succeeded; a job that ended with an error fails `wait`.\n",
          HL_LOAD_ADDR_DEFAULT, HL_FLASH_IMAGE_OFFSET);
}

/* A 32-bit number: decimal, 0x.. hex or 0.. octal, optionally with a k (1000) or M
 * (1000000) suffix; no sign, nothing after it, nothing above 0xFFFFFFFF. */
static int num(const char *s, uint32_t *v) {
  char *e;
  if (!s || !*s || *s == '-' || *s == '+' || *s == ' ' || *s == '\t') return 0;
  errno = 0;
  unsigned long long x = strtoull(s, &e, 0);
  if (errno || e == s) return 0;
  unsigned long long mul = 1;
  if (*e == 'k' || *e == 'K') mul = 1000, e++;
  else if (*e == 'M') mul = 1000000, e++;
  if (*e || x > 0xFFFFFFFFull / mul) return 0;
  *v = (uint32_t)(x * mul);
  return 1;
}

static int fail(hl_dev_t *d, const char *what, int rc) {
  const char *detail = d ? hl_error(d) : NULL;
  if (detail && *detail) fprintf(stderr, "hostlink: %s: %s (%s)\n", what, hl_strerror(rc), detail);
  else fprintf(stderr, "hostlink: %s: %s\n", what, hl_strerror(rc));
  return 1;
}

/* ------------------------------------------------------------ cb assembler */
/* Field limits of the packet format (bsp/include/tessera/cp_pkt.h, docs/packets.md):
 * nothing is masked into a narrower field; a value that does not fit is an error
 * naming the file, line, packet kind and field. */
typedef struct {
  const char *in;
  int ln, bad;
} asm_ctx_t;

static int field(asm_ctx_t *x, const char *op, const char *name, uint32_t v, uint32_t lo, uint32_t hi) {
  if (v >= lo && v <= hi) return 1;
  fprintf(stderr, "hostlink: %s:%d: %s: %s %u (0x%x) out of range %u..%u (0x%x)\n", x->in, x->ln, op, name, v, v, lo,
          hi, hi);
  x->bad = 1;
  return 0;
}

/* One packet line, tokens tok[0..n) (suffixes removed); 0 or an HL_E* code. The
 * caller reports a non-zero code unless a field error was reported here. */
static int asm_line(asm_ctx_t *x, hl_cb_t *cb, uint32_t flags, char **tok, int n) {
  enum { MAX_ARGS = 300 };
  uint32_t a[MAX_ARGS];
  const char *op = tok[0];
  int is_short = !strcmp(op, "msg_short");
  for (int i = 1; i < n; i++)
    if (!(i == 2 && is_short) && !num(tok[i], &a[i])) {
      fprintf(stderr, "hostlink: %s:%d: %s: '%s' is not a 32-bit number\n", x->in, x->ln, op, tok[i]);
      x->bad = 1;
      return HL_EARG;
    }
  if (!strcmp(op, "nop") && n == 1) return hl_cb_nop(cb, flags);
  if (!strcmp(op, "wreg32") && n == 3)
    return field(x, op, "register offset", a[1], 0, 0xFFFFu) ? hl_cb_wreg32(cb, flags, a[1], a[2]) : HL_EARG;
  if (!strcmp(op, "wreg_bulk") && n >= 3)
    return field(x, op, "register offset", a[1], 0, 0xFFFFu) &&
                   field(x, op, "value count", (uint32_t)n - 2, 1, CP_BULK_MAX)
               ? hl_cb_wreg_bulk(cb, flags, a[1], (uint32_t)n - 2, a + 2)
               : HL_EARG;
  if (!strcmp(op, "msg_long") && n == 3) return hl_cb_msg_long(cb, flags, a[1], a[2]);
  if (is_short && n == 4 && (!strcmp(tok[2], "add") || !strcmp(tok[2], "set")))
    return field(x, op, "sync object", a[1], 0, 0xFFFFu) && field(x, op, "value", a[3], 0, CP_SOB_MASK)
               ? hl_cb_msg_short(cb, flags, a[1], !strcmp(tok[2], "add"), a[3])
               : HL_EARG;
  if (!strcmp(op, "fence") && n == 3)
    return field(x, op, "fence counter id", a[1], 0, CP_FENCES - 1u) && field(x, op, "target", a[2], 0, 0xFFFFu)
               ? hl_cb_fence(cb, flags, a[1], a[2])
               : HL_EARG;
  if (!strcmp(op, "lin_dma") && n == 4) return hl_cb_lin_dma(cb, flags, a[1], a[2], a[3]);
  if (!strcmp(op, "wait") && n == 2) return hl_cb_wait(cb, flags, a[1]);
  if (!strcmp(op, "stop") && n == 1) return hl_cb_stop(cb, flags);
  return HL_EARG;
}

static int assemble(const char *in, const char *out) {
  struct stat st;
  FILE *f = fopen(in, "r");
  if (!f) {
    fprintf(stderr, "hostlink: cannot open %s: %s\n", in, strerror(errno));
    return 1;
  }
  if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
    fprintf(stderr, "hostlink: %s is not a regular file\n", in);
    fclose(f);
    return 1;
  }
  hl_cb_t cb;
  hl_cb_init(&cb);
  enum { MAX_TOKENS = 300 };
  char line[1024];
  asm_ctx_t x = {in, 0, 0};
  while (fgets(line, sizeof line, f)) {
    x.ln++;
    size_t len = strlen(line);
    if (len && line[len - 1] != '\n') { /* no newline: the rest of the line did not fit (or EOF) */
      int c, more = 0;
      while ((c = fgetc(f)) != '\n' && c != EOF) more = 1;
      if (more) {
        fprintf(stderr, "hostlink: %s:%d: line longer than %d characters\n", in, x.ln, (int)sizeof line - 1);
        x.bad = 1;
        continue;
      }
    }
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *tok[MAX_TOKENS];
    int n = 0, over = 0;
    for (char *t = strtok(line, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
      if (n < MAX_TOKENS) tok[n++] = t;
      else over = 1;
    }
    if (over) {
      fprintf(stderr, "hostlink: %s:%d: more than %d tokens on one line\n", in, x.ln, MAX_TOKENS);
      x.bad = 1;
      continue;
    }
    uint32_t flags = 0;
    while (n > 1 && (!strcmp(tok[n - 1], "eb") || !strcmp(tok[n - 1], "mb")))
      flags |= !strcmp(tok[--n], "eb") ? HL_EB : HL_MB;
    if (!n) continue;
    int was_bad = x.bad;
    x.bad = 0;
    int rc = asm_line(&x, &cb, flags, tok, n);
    if (rc && !x.bad) fprintf(stderr, "hostlink: %s:%d: bad packet line (see --help for the syntax)\n", in, x.ln);
    x.bad |= was_bad || rc;
  }
  if (ferror(f)) {
    fprintf(stderr, "hostlink: cannot read %s: %s\n", in, strerror(errno));
    x.bad = 1;
  }
  fclose(f);
  if (!x.bad && !hl_cb_bytes(&cb)) {
    fprintf(stderr, "hostlink: %s: no packets\n", in);
    x.bad = 1;
  }
  if (!x.bad) {
    FILE *o = fopen(out, "wb");
    if (!o) {
      fprintf(stderr, "hostlink: cannot create %s: %s\n", out, strerror(errno));
      x.bad = 1;
    } else {
      int wr_bad = fwrite(hl_cb_words(&cb), 1, hl_cb_bytes(&cb), o) != hl_cb_bytes(&cb);
      if (fclose(o) || wr_bad) {
        fprintf(stderr, "hostlink: cannot write %s: %s\n", out, strerror(errno));
        x.bad = 1;
      }
    }
    if (!x.bad) printf("cb: %s: %u bytes\n", out, hl_cb_bytes(&cb));
  }
  hl_cb_free(&cb);
  return x.bad;
}

/* ------------------------------------------------------------ bulk transfers */
/* Memory ranges move in chunks of BULK_CHUNK bytes through hl_read / hl_write (the
 * transport's fastest path: the simulator's back door, tcp READ/WRITE frames), so a
 * transfer of any size streams with bounded host memory. Registers stay one 32-bit
 * access per word. Transfers of PROGRESS_MIN bytes or more, or running longer than
 * PROGRESS_SLOW, report progress on stderr. */
#define BULK_CHUNK (1u << 20)
#define PROGRESS_MIN (4u << 20)
#define PROGRESS_SLOW 2.0   /* seconds: a smaller transfer that takes longer shows it too */

typedef struct {
  const char *what;
  uint64_t total, done;
  double t0, last;
  int shown;
} progress_t;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void progress_start(progress_t *p, const char *what, uint64_t total) {
  p->what = what;
  p->total = total;
  p->done = 0;
  p->t0 = p->last = now_s();
  p->shown = 0;
}

static void progress(progress_t *p, uint64_t n) {
  p->done += n;
  const double t = now_s(), el = t - p->t0;
  if (p->total < PROGRESS_MIN && el < PROGRESS_SLOW && !p->shown) return;
  const int end = p->done >= p->total;
  if (!end && t - p->last < 0.5) return;
  p->last = t;
  p->shown = 1;
  const double rate = el > 0 ? (double)p->done / el : 0;
  if (end) {
    fprintf(stderr, "hostlink: %s: %llu bytes in %.2f s (%.1f %s)\n", p->what, (unsigned long long)p->done, el,
            rate >= 1e6 ? rate / 1e6 : rate >= 1e3 ? rate / 1e3 : rate, rate >= 1e6 ? "MB/s" : rate >= 1e3 ? "kB/s" : "B/s");
    return;
  }
  const double eta = rate > 0 ? (double)(p->total - p->done) / rate : 0;
  fprintf(stderr, "hostlink: %s: %llu of %llu bytes (%.0f%%), %.1f %s, ETA %.0f s%s", p->what,
          (unsigned long long)p->done, (unsigned long long)p->total, 100.0 * (double)p->done / (double)p->total,
          rate >= 1e6 ? rate / 1e6 : rate >= 1e3 ? rate / 1e3 : rate, rate >= 1e6 ? "MB/s" : rate >= 1e3 ? "kB/s" : "B/s", eta, isatty(2) ? "\r" : "\n");
}

static int is_memory(uint32_t a, uint64_t len) {
  const hl_region_t *r = hl_map_region(a, len);
  return r && r->kind != HL_MAP_REG;
}

static int aligned_words(uint32_t a, const char *what) {
  if (!(a & 3u)) return 1;
  fprintf(stderr, "hostlink: %s 0x%08x: address not 4-byte aligned (32-bit words need a multiple of 4)\n", what, a);
  return 0;
}

static int cmd_read(hl_dev_t *d, uint32_t a, uint32_t n) {
  const uint64_t bytes = 4ull * n;
  int rc;
  if (!aligned_words(a, "read")) return 1;
  if ((rc = hl_check_range(d, a, bytes, 0))) return fail(d, "read", rc);   /* before any access */
  progress_t p;
  progress_start(&p, "read", bytes);
  if (n == 1 || !is_memory(a, bytes)) {
    for (uint32_t i = 0; i < n; i++) {
      uint32_t v;
      if ((rc = hl_read32(d, a + 4 * i, &v))) return fail(d, "read", rc);
      printf("0x%08x: 0x%08x\n", a + 4 * i, v);
      progress(&p, 4);
    }
    return 0;
  }
  uint32_t *buf = malloc(bytes < BULK_CHUNK ? (size_t)bytes : BULK_CHUNK);
  if (!buf) return fail(d, "read", HL_ENOMEM);
  for (uint64_t off = 0; off < bytes;) {
    const uint32_t len = bytes - off < BULK_CHUNK ? (uint32_t)(bytes - off) : BULK_CHUNK;
    if ((rc = hl_read(d, a + (uint32_t)off, buf, len))) {
      free(buf);
      return fail(d, "read", rc);
    }
    for (uint32_t i = 0; i < len / 4; i++) printf("0x%08x: 0x%08x\n", a + (uint32_t)off + 4 * i, buf[i]);
    off += len;
    progress(&p, len);
  }
  free(buf);
  return 0;
}

static int cmd_write(hl_dev_t *d, uint32_t a, int argc, char **argv) {
  const uint32_t n = (uint32_t)argc;
  int rc;
  if (!aligned_words(a, "write")) return 1;
  uint32_t *w = malloc(4u * n);
  if (!w) return fail(d, "write", HL_ENOMEM);
  for (uint32_t i = 0; i < n; i++)
    if (!num(argv[i], &w[i])) {
      free(w);
      return fail(d, "write value", HL_EARG);
    }
  rc = hl_check_range(d, a, 4ull * n, 1);   /* before any access */
  if (!rc && n > 1 && is_memory(a, 4ull * n)) rc = hl_write(d, a, w, 4u * n);
  else
    for (uint32_t i = 0; !rc && i < n; i++) rc = hl_write32(d, a + 4u * i, w[i]);
  free(w);
  return rc ? fail(d, "write", rc) : 0;
}

/* Stream `bytes` between device range `a` and the open file `f` (up: file -> device),
 * BULK_CHUNK at a time, after the range checks (before any access). Returns the exit
 * status; the file is closed. */
static int file_xfer(hl_dev_t *d, int up, uint32_t a, uint32_t bytes, FILE *f, const char *path) {
  const char *what = up ? "upload" : "dump";
  int rc = hl_check_range(d, a, bytes, up);
  uint8_t *buf = rc ? NULL : malloc(BULK_CHUNK);
  if (!rc && !buf) rc = HL_ENOMEM;
  progress_t p;
  progress_start(&p, what, bytes);
  for (uint32_t off = 0; !rc && off < bytes;) {
    const uint32_t len = bytes - off < BULK_CHUNK ? bytes - off : BULK_CHUNK;
    if (up && fread(buf, 1, len, f) != len) rc = HL_EFILE;
    else if ((rc = up ? hl_write(d, a + off, buf, len) : hl_read(d, a + off, buf, len))) break;
    else if (!up && fwrite(buf, 1, len, f) != len) rc = HL_EFILE;
    off += len;
    progress(&p, len);
  }
  free(buf);
  if (fclose(f) && !rc) rc = HL_EFILE;
  if (rc == HL_EFILE) {
    fprintf(stderr, "hostlink: %s: cannot %s %s\n", what, up ? "read" : "write", path);
    return 1;
  }
  return rc ? fail(d, what, rc) : 0;
}

/* dump ADDR BYTES FILE */
static int cmd_dump(hl_dev_t *d, uint32_t a, uint32_t bytes, const char *path) {
  int rc = hl_check_range(d, a, bytes, 0);   /* no file is created for a refused range */
  if (rc) return fail(d, "dump", rc);
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "hostlink: dump: cannot create %s\n", path);
    return 1;
  }
  return file_xfer(d, 0, a, bytes, f, path);
}

/* upload FILE ADDR */
static int cmd_upload(hl_dev_t *d, const char *path, uint32_t a) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "hostlink: upload: cannot open %s\n", path);
    return 1;
  }
  const long size = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
  rewind(f);
  if (size <= 0 || size > 0xFFFFFFFFL) {
    fprintf(stderr, "hostlink: upload: %s: %s\n", path, size ? "cannot determine the file size" : "empty file");
    fclose(f);
    return 1;
  }
  return file_xfer(d, 1, a, (uint32_t)size, f, path);
}

/* ------------------------------------------------------------ commands */
static void print_completion(const hl_completion_t *c, int w) {
  printf("job %u: %s, status %u cause %u (%s) detail 0x%x, sq %u, submit %u start %u end %u (%u cycles)\n", c->seq,
         hl_wait_name(w), c->status, c->cause, hl_cause_name(c->cause), c->detail, c->sq, c->t_submit, c->t_start,
         c->t_end, c->t_start ? c->t_end - c->t_start : 0u);
}

static int cmd_status(hl_dev_t *d) {
  uint32_t boot = 0, fw = 0;
  int rc;
  if ((rc = hl_read32(d, SYSC(BOOT_STATUS), &boot)) != HL_OK) return fail(d, "status", rc);
  if ((rc = hl_read32(d, SYSC(FW_STATUS), &fw)) != HL_OK) return fail(d, "status", rc);
  if (!hl_hif_addr(d)) hl_attach_fw(d, 1);
  printf("boot: status 0x%02x detail 0x%06x; firmware: state 0x%02x heartbeat %u\n", boot & 0xFFu, boot >> 8,
         fw & 0xFFu, fw >> 8);
  const char *peer = hl_serial_peer(d);
  if (peer) printf("serial frames answered by the %s\n", peer);
  if (!hl_hif_addr(d)) {
    printf("no firmware host interface\n");
    return 0;
  }
  uint32_t eq = hl_eq_present(d);
  printf("host interface at 0x%08x; engine queues:", hl_hif_addr(d));
  for (int k = 0; k < (int)HIF_NUM_EQ; k++) {
    char nm[16];
    if ((eq >> k) & 1u) printf(" %s", hl_queue_name(k, nm, sizeof nm));
  }
  printf("%s\n", eq ? "" : " none");
  hif_counters_t c;
  if ((rc = hl_fw_counters(d, &c))) return fail(d, "counters", rc);
  printf("jobs: taken %u ok %u error %u aborted %u; starts fw %u hw %u; doorbells %u; queue errors %u; "
         "cq stalls %u; TPC launches cancelled %u\n",
         c.jobs_taken, c.jobs_ok, c.jobs_error, c.jobs_aborted, c.fw_starts, c.hw_starts, c.doorbells, c.qman_errors,
         c.cq_stalls, c.tpc_cancels);
  return 0;
}

/* Upload a whole command-buffer file; problems with the file itself are reported here
 * (return HL_EFILE), device errors are returned. */
static int upload_file(hl_dev_t *d, const char *path, uint32_t *addr, uint32_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "hostlink: cannot open %s\n", path);
    return HL_EFILE;
  }
  long len = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
  rewind(f);
  uint8_t *buf = len > 0 && len <= 0xFFFFFFFFL ? malloc((size_t)len) : NULL;
  size_t n = buf ? fread(buf, 1, (size_t)len, f) : 0;
  fclose(f);
  int rc = HL_EFILE;
  if (len < 0) fprintf(stderr, "hostlink: %s: cannot determine the file size\n", path);
  else if (len == 0) fprintf(stderr, "hostlink: %s: empty command buffer\n", path);
  else if (len & 7)
    fprintf(stderr, "hostlink: %s: size %ld bytes is not a multiple of 8 (packets are whole 8-byte words)\n", path,
            len);
  else if (!buf || n != (size_t)len) fprintf(stderr, "hostlink: %s: cannot read %ld bytes\n", path, len);
  else if (!(rc = hl_alloc(d, (uint32_t)n, 64, addr))) {
    *size = (uint32_t)n;
    rc = hl_write(d, *addr, buf, n);
  }
  free(buf);
  return rc;
}

static int cmd_submit(hl_dev_t *d, int argc, char **argv) {
  hl_job_t j;
  memset(&j, 0, sizeof j);
  for (int i = 0; i < argc; i++) {
    uint32_t v, w;
    char *colon;
    if (!strcmp(argv[i], "--sq") && i + 1 < argc && num(argv[i + 1], &v)) j.sq = v, i++;
    else if (!strcmp(argv[i], "--dep") && i + 1 < argc && num(argv[i + 1], &v) && j.ndep < HIF_MAX_DEPS)
      j.dep[j.ndep++] = v, i++;
    else if (!strcmp(argv[i], "--budget") && i + 1 < argc && num(argv[i + 1], &v)) j.budget = v, i++;
    else if (!strcmp(argv[i], "--buf") && i + 1 < argc && (colon = strchr(argv[i + 1], ':')) && j.nbuf < HIF_MAX_BUFS) {
      *colon = 0;
      if (!num(argv[i + 1], &v) || !num(colon + 1, &w)) return fail(d, "submit --buf", HL_EARG);
      j.buf[j.nbuf].base = v;
      j.buf[j.nbuf++].size = w;
      i++;
    } else if ((colon = strchr(argv[i], '=')) && j.ncb < HIF_MAX_CBS) {
      *colon = 0;
      int eq = hl_queue_id(argv[i]);
      if (eq < 0) {
        fprintf(stderr, "hostlink: unknown queue '%s'\n", argv[i]);
        return 1;
      }
      uint32_t a, sz;
      int rc = upload_file(d, colon + 1, &a, &sz);
      if (rc) return rc == HL_EFILE ? 1 : fail(d, colon + 1, rc);
      j.cb[j.ncb].eq = eq;
      j.cb[j.ncb].addr = a;
      j.cb[j.ncb++].size = sz;
      if (j.nbuf < HIF_MAX_BUFS) j.buf[j.nbuf].base = a, j.buf[j.nbuf++].size = sz;
    } else {
      fprintf(stderr, "hostlink: submit: bad argument '%s'\n", argv[i]);
      return 1;
    }
  }
  uint32_t seq;
  int rc = hl_submit(d, &j, &seq);
  if (rc) return fail(d, "submit", rc);
  printf("submitted job %u\n", seq);
  return 0;
}

static int cmd_copy(hl_dev_t *d, uint32_t src, uint32_t dst, uint32_t size, const char *q) {
  int eq = hl_queue_id(q ? q : "dma0");
  if (eq < 0) return fail(d, "copy: queue", HL_EARG);
  hl_cb_t cb;
  hl_cb_init(&cb);
  hl_cb_lin_dma(&cb, 0, src, dst, size);
  hl_cb_stop(&cb, HL_EB);
  uint32_t a;
  int rc = hl_cb_upload(d, &cb, &a);
  hl_job_t j;
  memset(&j, 0, sizeof j);
  j.ncb = 1;
  j.cb[0].eq = eq;
  j.cb[0].addr = a;
  j.cb[0].size = hl_cb_bytes(&cb);
  /* the job owns what it touches: its command buffer, the source and the destination
   * (the packet check refuses a copy outside the job's buffers, DMA_RANGE) */
  j.nbuf = 3;
  j.buf[0].base = a;
  j.buf[0].size = hl_cb_bytes(&cb);
  j.buf[1].base = src;
  j.buf[1].size = size;
  j.buf[2].base = dst;
  j.buf[2].size = size;
  hl_cb_free(&cb);
  uint32_t seq;
  if (rc || (rc = hl_submit(d, &j, &seq))) return fail(d, "copy", rc);
  hl_completion_t c;
  int w = hl_wait(d, seq, 10000000, &c);
  if (w < 0) return fail(d, "copy: wait", w);
  if (w == HL_COMPLETED || w == HL_FAILED || w == HL_ABORTED) print_completion(&c, w);
  else printf("job %u: %s\n", seq, hl_wait_name(w));
  return w != HL_COMPLETED;
}

/* ------------------------------------------------------------ NIC */
static int nic_fail(hl_dev_t *d, const char *what, int rc) {
  if (rc == HL_EREFUSED) {
    fprintf(stderr, "hostlink: %s\n", hl_error(d));   /* names the cause, port, QP and reason */
    return 1;
  }
  return fail(d, what, rc);
}

static int parse_mac(const char *s, uint64_t *mac) {
  unsigned b[6];
  char end;
  if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &end) != 6) return 0;
  *mac = 0;
  for (int i = 0; i < 6; i++) *mac = (*mac << 8) | b[i];
  return 1;
}

static int parse_ip(const char *s, uint32_t *ip) {
  unsigned b[4];
  char end;
  if (sscanf(s, "%u.%u.%u.%u%c", &b[0], &b[1], &b[2], &b[3], &end) != 4 || b[0] > 255 || b[1] > 255 || b[2] > 255 ||
      b[3] > 255)
    return 0;
  *ip = (b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3];
  return 1;
}

/* qp-modify PORT QP STATE [ATTR=VALUE]... */
static int cmd_qp_modify(hl_dev_t *d, unsigned port, unsigned qp, const char *st, int argc, char **argv) {
  const int state = hl_qp_state_id(st);
  if (state < 0) {
    fprintf(stderr, "hostlink: qp-modify: unknown state '%s' (reset, init, rtr, rts or error)\n", st);
    return 1;
  }
  hl_qp_attr_t a;
  memset(&a, 0, sizeof a);
  unsigned dest = 0;
  for (int i = 0; i < argc; i++) {
    char *eq = strchr(argv[i], '=');
    const char *v = eq ? eq + 1 : "";
    if (eq) *eq = 0;
    const char *k = argv[i];
    uint32_t x = 0;
    int ok = 1;
    if (!strcmp(k, "mac")) ok = parse_mac(v, &a.rmac), dest |= 1;
    else if (!strcmp(k, "ip")) ok = parse_ip(v, &a.rip), dest |= 2;
    else if (!strcmp(k, "mode")) {
      ok = !strcmp(v, "selective") || !strcmp(v, "gbn");
      a.selective = !strcmp(v, "selective");
      a.attr_mask |= HIF_NIC_ATTR_MODE;
    } else if (!eq || !num(v, &x)) ok = 0;
    else if (!strcmp(k, "dqpn")) a.dqpn = x, dest |= 4;
    else if (!strcmp(k, "mtu")) a.mtu = x, a.attr_mask |= HIF_NIC_ATTR_MTU;
    else if (!strcmp(k, "rq_psn")) a.rq_psn = x, a.attr_mask |= HIF_NIC_ATTR_RQ_PSN;
    else if (!strcmp(k, "sq_psn")) a.sq_psn = x, a.attr_mask |= HIF_NIC_ATTR_SQ_PSN;
    else if (!strcmp(k, "retry")) a.retry = x, a.attr_mask |= HIF_NIC_ATTR_RETRY;
    else if (!strcmp(k, "rto")) a.rto = x, a.attr_mask |= HIF_NIC_ATTR_TIMER;
    else if (!strcmp(k, "guard")) a.guard = x, a.attr_mask |= HIF_NIC_ATTR_TIMER;
    else {
      fprintf(stderr, "hostlink: qp-modify: unknown attribute '%s' (dqpn, mac, ip, mtu, mode, rq_psn, sq_psn, retry, "
              "rto, guard)\n", k);
      return 1;
    }
    if (!ok) {
      fprintf(stderr, "hostlink: qp-modify: bad value '%s' for %s%s\n", v, k,
              !strcmp(k, "mac") ? " (aa:bb:cc:dd:ee:ff)" : !strcmp(k, "ip") ? " (a.b.c.d)"
              : !strcmp(k, "mode") ? " (selective or gbn)" : " (a 32-bit number)");
      return 1;
    }
  }
  if (dest && dest != 7) {
    fprintf(stderr, "hostlink: qp-modify: the remote end needs dqpn, mac and ip together\n");
    return 1;
  }
  if (dest) a.attr_mask |= HIF_NIC_ATTR_DEST;
  if ((a.attr_mask & HIF_NIC_ATTR_TIMER) && !a.rto) a.rto = 20000;
  if ((a.attr_mask & HIF_NIC_ATTR_TIMER) && !a.guard) a.guard = 1000;
  int rc = hl_qp_modify(d, port, qp, (unsigned)state, &a, NULL);
  if (rc) return nic_fail(d, "qp-modify", rc);
  printf("qp %u of port %u: %s\n", qp, port, hl_qp_state_name((unsigned)state));
  return 0;
}

static int cmd_qp_query(hl_dev_t *d, unsigned port, unsigned qp) {
  hif_nic_info_t i;
  int rc = hl_qp_query(d, port, qp, &i, NULL);
  if (rc) return nic_fail(d, "qp-query", rc);
  printf("qp %u of port %u: state %s, qpn 0x%06x -> 0x%06x, mtu code %u, %s, sq_psn 0x%06x rq_psn 0x%06x; "
         "requester %s%s, packets %u resent %u timeouts %u\n",
         qp, port, hl_qp_state_name(HIF_NIC_INFO_STATE(i.state)), i.lqpn, i.dqpn, HIF_NIC_INFO_MTU(i.state),
         (i.state & HIF_NIC_INFO_SELECTIVE) ? "selective" : "go-back-N", i.sq_psn, i.rq_psn,
         !(i.state & HIF_NIC_INFO_REQ) ? "none" : (i.state & HIF_NIC_INFO_REQ_ERR) ? "in error" : "ok",
         (i.state & HIF_NIC_INFO_REQ) && (i.state & HIF_NIC_INFO_REQ_IDLE) ? " (idle)" : "", i.pkts, i.resends,
         i.timeouts);
  return 0;
}

/* The NIC commands (argv[0] is the command); -1: not a NIC command. */
static int nic_cmd(hl_dev_t *d, int argc, char **argv) {
  const char *c = argv[0];
  static const char *const names[] = {"nic-port", "qp-create", "qp-modify", "qp-destroy", "qp-query",
                                      "mr-reg", "mr-dereg", "rdma-write"};
  unsigned k = 0;
  while (k < sizeof names / sizeof names[0] && strcmp(c, names[k])) k++;
  if (k == sizeof names / sizeof names[0]) return -1;
  uint32_t n[8] = {0};
  int rc;
  /* every command starts with PORT and (but nic-port) a number; mr-reg's access and
   * qp-modify's state and attributes are words */
  const int nnum = k == 0 ? 1 : k == 2 ? 2 : k == 5 ? 4 : argc - 1;
  static const int min_args[] = {4, 3, 4, 3, 3, 5, 3, 7}, max_args[] = {4, 4, 64, 3, 3, 6, 3, 8};
  if (argc < min_args[k] || argc > max_args[k]) {
    fprintf(stderr, "hostlink: %s: wrong number of arguments (see --help)\n", c);
    return 2;
  }
  for (int i = 1; i <= nnum && i < argc; i++)
    if (!num(argv[i], &n[i - 1])) {
      fprintf(stderr, "hostlink: %s: '%s' is not a 32-bit number\n", c, argv[i]);
      return 1;
    }
  if (!hl_hif_addr(d) && (rc = hl_attach_fw(d, 0))) return fail(d, c, rc);
  const unsigned port = n[0], qp = n[1];
  switch (k) {
    case 0: {
      uint64_t mac;
      uint32_t ip;
      if (!parse_mac(argv[2], &mac) || !parse_ip(argv[3], &ip)) {
        fprintf(stderr, "hostlink: nic-port: MAC aa:bb:cc:dd:ee:ff and IPv4 a.b.c.d expected\n");
        return 1;
      }
      if ((rc = hl_nic_port_set(d, port, mac, ip, NULL))) return nic_fail(d, c, rc);
      printf("port %u: MAC %s, IPv4 %s\n", port, argv[2], argv[3]);
      return 0;
    }
    case 1: {
      uint32_t qpn = 0;
      if ((rc = hl_qp_create(d, port, qp, argc == 4 ? n[2] : 0, &qpn, NULL))) return nic_fail(d, c, rc);
      printf("qp %u of port %u: created, qpn 0x%06x, RESET\n", qp, port, qpn);
      return 0;
    }
    case 2: return cmd_qp_modify(d, port, qp, argv[3], argc - 4, argv + 4);
    case 3:
      if ((rc = hl_qp_destroy(d, port, qp, NULL))) return nic_fail(d, c, rc);
      printf("qp %u of port %u: destroyed\n", qp, port);
      return 0;
    case 4: return cmd_qp_query(d, port, qp);
    case 5: {
      const char *acc = argc == 6 ? argv[5] : "w";
      unsigned access = !strcmp(acc, "r") ? HIF_NIC_MR_READ : !strcmp(acc, "w") ? HIF_NIC_MR_WRITE
                        : !strcmp(acc, "rw") ? HIF_NIC_MR_READ | HIF_NIC_MR_WRITE : 0u;
      if (!access) {
        fprintf(stderr, "hostlink: mr-reg: access '%s' is not r, w or rw\n", acc);
        return 1;
      }
      unsigned idx;
      if ((rc = hl_mr_reg(d, port, n[1], n[2], n[3], access, &idx, NULL))) return nic_fail(d, c, rc);
      printf("region %u of port %u: [0x%08x, +0x%x) R_Key 0x%08x\n", idx, port, n[1], n[2], n[3]);
      return 0;
    }
    case 6:
      if ((rc = hl_mr_dereg(d, port, n[1], NULL))) return nic_fail(d, c, rc);
      printf("region %u of port %u: removed\n", n[1], port);
      return 0;
    default: {
      uint32_t seq;
      if ((rc = hl_rdma_write(d, port, qp, n[2], n[3], n[4], n[5], &seq))) return fail(d, c, rc);
      hl_completion_t comp;
      int w = hl_wait(d, seq, argc == 8 ? n[6] : 10000000u, &comp);
      if (w < 0) return fail(d, "rdma-write: wait", w);
      char buf[200];
      if (w == HL_BUSY || w == HL_TIMEDOUT) printf("rdma-write %u: %s\n", seq, hl_wait_name(w));
      else if (w == HL_COMPLETED) printf("rdma-write %u: completed, %u bytes\n", seq, n[5]);
      else fprintf(stderr, "hostlink: rdma-write %u: %s\n", seq, hl_nic_describe(&comp, buf, sizeof buf));
      return w != HL_COMPLETED;
    }
  }
}

/* ------------------------------------------------------------ flash */
static void flash_progress(void *ctx, const char *what, uint64_t done, uint64_t total) {
  progress_t *p = ctx;
  if (p->what != what && strcmp(p->what, what)) progress_start(p, what, total);
  progress(p, done - p->done);
}

static int cmd_flash(hl_dev_t *d, int argc, char **argv) {
  int rc;
  progress_t p;
  progress_start(&p, "", 0);
  if (argc == 1 && !strcmp(argv[0], "--info")) {
    uint32_t id = 0, size = 0;
    if ((rc = hl_flash_info(d, &id, &size))) return fail(d, "flash", rc);
    printf("flash: JEDEC ID %06x, %u bytes, image at 0x%06x\n", id, size, HL_FLASH_IMAGE_OFFSET);
    return 0;
  }
  if (argc == 1 && !strcmp(argv[0], "--erase")) {
    if ((rc = hl_flash_erase_image(d))) return fail(d, "flash --erase", rc);
    printf("flash: image sector at 0x%06x erased\n", HL_FLASH_IMAGE_OFFSET);
    return 0;
  }
  int verify = argc == 2 && !strcmp(argv[0], "--verify");
  if (!(argc == 1 && argv[0][0] != '-') && !verify) {
    fprintf(stderr, "hostlink: flash: FILE, --verify FILE, --erase or --info\n");
    return 2;
  }
  const char *path = argv[argc - 1];
  const double t0 = now_s();
  if ((rc = hl_flash_image(d, path, verify, flash_progress, &p))) return fail(d, verify ? "flash --verify" : "flash", rc);
  printf("flash: %s %s at 0x%06x (%.1f s)\n", path, verify ? "matches the flash" : "written and verified",
         HL_FLASH_IMAGE_OFFSET, now_s() - t0);
  return 0;
}

static int cmd_boot(hl_dev_t *d) {
  uint32_t st = 0;
  int rc = hl_boot(d, 0, &st);
  if (rc) return fail(d, "boot", rc);
  uint32_t code = st & 0xFFu;
  if (code == 0x06u) {
    printf("boot: started the flash image, entry 0x%08x\n", (st >> 8) << 8);
    return 0;
  }
  if (code == 0x02u) printf("boot: no image in the flash; the boot ROM waits for the host\n");
  else printf("boot: flash image rejected (BOOT_STATUS 0x%08x); the boot ROM waits for the host\n", st);
  return 1;
}

static int run_cmd(hl_dev_t *d, int argc, char **argv) {
  const char *c = argv[0];
  uint32_t a, v;
  int rc;
  if (!strcmp(c, "read") && (argc == 2 || argc == 3) && num(argv[1], &a)) {
    uint32_t n = 1;
    if (argc == 3 && !num(argv[2], &n)) return fail(d, "read count", HL_EARG);
    return cmd_read(d, a, n);
  }
  if (!strcmp(c, "write") && argc >= 3 && num(argv[1], &a)) return cmd_write(d, a, argc - 2, argv + 2);
  if (!strcmp(c, "dump") && argc == 4 && num(argv[1], &a) && num(argv[2], &v)) return cmd_dump(d, a, v, argv[3]);
  if (!strcmp(c, "upload") && argc == 3 && num(argv[2], &a)) return cmd_upload(d, argv[1], a);
  if (!strcmp(c, "load") && (argc == 2 || argc == 3)) {
    uint32_t stage = 0;
    if (argc == 3 && (!num(argv[2], &stage) || !stage)) {
      fprintf(stderr, "hostlink: load: bad staging address '%s' (a device-memory address; omit it for 0x%08x)\n",
              argv[2], HL_LOAD_ADDR_DEFAULT);
      return 1;
    }
    if ((rc = hl_load(d, argv[1], stage, 1, 0))) return fail(d, "load", rc);
    printf("firmware running, host interface at 0x%08x\n", hl_hif_addr(d));
    return 0;
  }
  if (!strcmp(c, "attach") && argc == 1) {
    if ((rc = hl_attach_fw(d, 0))) return fail(d, "attach", rc);
    printf("host interface at 0x%08x\n", hl_hif_addr(d));
    return 0;
  }
  if (!strcmp(c, "status") && argc == 1) return cmd_status(d);
  if (!strcmp(c, "flash") && argc >= 2) return cmd_flash(d, argc - 1, argv + 1);
  if (!strcmp(c, "boot") && argc == 1) return cmd_boot(d);
  if (!strcmp(c, "run") && argc == 2 && num(argv[1], &v)) return (rc = hl_run(d, v)) ? fail(d, "run", rc) : 0;
  if (!strcmp(c, "submit") && argc >= 2) {
    if (!hl_hif_addr(d) && (rc = hl_attach_fw(d, 0))) return fail(d, "submit", rc);
    return cmd_submit(d, argc - 1, argv + 1);
  }
  if (!strcmp(c, "wait") && (argc == 2 || argc == 3) && num(argv[1], &a)) {
    uint32_t t = 10000000;
    if (argc == 3 && !num(argv[2], &t)) return fail(d, "wait cycles", HL_EARG);
    if (!hl_hif_addr(d) && (rc = hl_attach_fw(d, 0))) return fail(d, "wait", rc);
    hl_completion_t comp;
    int w = hl_wait(d, a, t, &comp);
    if (w < 0) return fail(d, "wait", w);
    if (w == HL_BUSY || w == HL_TIMEDOUT) printf("job %u: %s\n", a, hl_wait_name(w));
    else print_completion(&comp, w);
    return w != HL_COMPLETED;
  }
  if (!strcmp(c, "copy") && (argc == 4 || argc == 5)) {
    uint32_t s, n;
    if (!num(argv[1], &s) || !num(argv[2], &a) || !num(argv[3], &n)) return fail(d, "copy", HL_EARG);
    if (!hl_hif_addr(d) && (rc = hl_attach_fw(d, 0))) return fail(d, "copy", rc);
    return cmd_copy(d, s, a, n, argc == 5 ? argv[4] : NULL);
  }
  if (!strcmp(c, "serve") && argc == 2 && num(argv[1], &v)) {
    void *ctx;
    const hl_ops_t *ops = hl_transport(d, &ctx);
    return (rc = hl_serve(ops, ctx, (int)v, NULL, NULL, 1)) ? fail(d, "serve", rc) : 0;
  }
  if (!strcmp(c, "shutdown") && argc == 1) return (rc = hl_shutdown_server(d)) ? fail(d, "shutdown", rc) : 0;
  if ((rc = nic_cmd(d, argc, argv)) >= 0) return rc;
  fprintf(stderr, "hostlink: bad command '%s' (see --help)\n", c);
  return 2;
}

/* console [SECONDS] [--until TEXT]: the raw UART bytes of a serial device. It opens
 * the byte channel itself (no frames, no handshake), so it also shows what the boot
 * ROM prints when no firmware answers frames. */
static int console(const char *spec, int argc, char **argv) {
  double secs = 0;
  const char *until = NULL;
  for (int k = 0; k < argc; k++) {
    char *end;
    if (!strcmp(argv[k], "--until") && k + 1 < argc) {
      until = argv[++k];
    } else if ((secs = strtod(argv[k], &end)) > 0 && !*end && secs <= 1e6) {
      continue;
    } else {
      fprintf(stderr, "hostlink: console [SECONDS] [--until TEXT]: bad argument '%s'\n", argv[k]);
      return 2;
    }
  }
  int rc = hl_console(spec, secs, until, stdout);
  if (rc == HL_EARG) {
    fprintf(stderr, "hostlink: console needs a serial device (serial:PATH or serial-tcp:[HOST:]PORT), not '%s'\n",
            spec);
    return 2;
  }
  if (rc == HL_EIO) {
    fprintf(stderr, "hostlink: console: cannot open %s\n", spec);
    return 1;
  }
  if (rc == HL_ETIMEOUT) {
    fprintf(stderr, "\nhostlink: console: '%s' not seen within %g s\n", until, secs);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *spec = "sim", *flash_file = NULL;
  uint32_t seed = 1;
  int i = 1;
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--dev") && i + 1 < argc) {
      spec = argv[++i];
    } else if (!strcmp(argv[i], "--seed")) {
      if (i + 1 >= argc || !num(argv[i + 1], &seed)) {
        fprintf(stderr, "hostlink: --seed needs a number 0..4294967295%s%s%s\n", i + 1 < argc ? ", not '" : "",
                i + 1 < argc ? argv[i + 1] : "", i + 1 < argc ? "'" : "");
        return 2;
      }
      i++;
    } else if (!strcmp(argv[i], "--dev")) {
      fprintf(stderr, "hostlink: --dev needs a device (sim, tcp:PORT, serial:/dev/ttyX or serial-tcp:PORT)\n");
      return 2;
    } else if (!strcmp(argv[i], "--flash") && i + 1 < argc) {
      flash_file = argv[++i];
    } else if (!strcmp(argv[i], "-v")) {
      verbose = 1;
    } else {
      fprintf(stderr, "hostlink: unknown option %s (see --help)\n", argv[i]);
      return 2;
    }
  }
  if (i >= argc) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[i], "cb")) {
    if (argc - i != 3) {
      usage(stderr);
      return 2;
    }
    return assemble(argv[i + 1], argv[i + 2]);
  }
  if (!strcmp(argv[i], "console")) return console(spec, argc - i - 1, argv + i + 1);
  hl_dev_t *d = NULL;
  if (flash_file && strcmp(spec, "sim")) {
    fprintf(stderr, "hostlink: --flash FILE is for the sim device (a served simulator takes chip_tb --flash)\n");
    return 2;
  }
  int rc = !strcmp(spec, "sim") ? hl_open_sim_flash(&d, seed, verbose, flash_file) : hl_open(spec, &d);
  if (rc) return fail(NULL, spec, rc);
  int status = 0;
  while (i < argc && !status) {
    int j = i;
    while (j < argc && strcmp(argv[j], ",")) j++;
    if (j > i) status = run_cmd(d, j - i, argv + i);
    i = j + 1;
  }
  hl_close(d);
  return status;
}
