/* hostlink transport: the serial framing over a byte channel (hl_serial.c). */
#ifndef TESSERA_HL_SERIAL_H
#define TESSERA_HL_SERIAL_H

#include <stddef.h>
#include <stdint.h>

#include "hl_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Serial framing (hl_serial.c, docs/hostlink.md). The byte channel is an
 * ops table too, so the same protocol runs over a tty or the simulator's UART. */
typedef struct {
  int (*put)(void *ctx, const uint8_t *buf, size_t len);
  /* one byte, or -1 if none arrived within `cycles` device cycles */
  int (*get)(void *ctx, uint64_t cycles);
  int (*idle)(void *ctx, uint64_t cycles);   /* let the device run (no host interrupt line: 0) */
  uint64_t (*now)(void *ctx);                /* device cycles */
  void (*close)(void *ctx);
} hl_bytes_t;
/* The frames are tessera/serframe.h's. HELLO is answered by the firmware or, while
 * no firmware runs, by the boot ROM's serial loader; hl_serial_peer tells which. */
int hl_open_serial_bytes(const hl_bytes_t *io, void *ctx, hl_dev_t **dev);
int hl_open_serial(const char *path, hl_dev_t **dev);
/* "firmware", "boot ROM", or NULL for a device that is not a serial one. */
const char *hl_serial_peer(hl_dev_t *dev);
/* Channels served by a program rather than a UART (TCP, a pseudo-terminal under
 * /dev/pts/: e.g. the simulator's chip_tb --uart-tcp / --uart-pty) await each answer
 * byte at least this long: a simulated chip runs about a thousand times slower. */
#define HL_SERIAL_SERVED_WAIT_MS 10000
int hl_open_serial_tcp(const char *host, int port, hl_dev_t **dev);
/* A tty opened read/write, raw, 115 200 baud (TESSERA_UART_BAUD), or -1. */
int hl_serial_tty_open(const char *path);
/* A connected TCP socket (TCP_NODELAY) or -1. */
int hl_serial_tcp_connect(const char *host, int port);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HL_SERIAL_H */
