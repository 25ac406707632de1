/* hostlink transport: TCP client and server on this machine (hl_sock.c). */
#ifndef TESSERA_HL_SOCK_H
#define TESSERA_HL_SOCK_H

#include "hl_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TCP client (hl_sock.c): loopback only. */
int hl_open_tcp(const char *host, int port, hl_dev_t **dev);
/* Ask a tcp server to stop (HL_EUNSUP on other transports). */
int hl_shutdown_server(hl_dev_t *dev);

/* TCP server on 127.0.0.1:port over any transport, until a client sends SHUTDOWN
 * (or *stop becomes non-zero). port 0 picks a free port; *bound (if set) receives it
 * before the first accept. Up to 8 clients at once, one request at a time; a client
 * that leaves a frame incomplete for frame_timeout_ms, or does not take its answer
 * within it, is dropped (reason on stderr). A WAIT request may ask for at most
 * HL_SERVE_MAX_WAIT cycles (else HL_EARG; the tcp client splits longer waits).
 * Returns HL_EADDRINUSE if the port is taken. */
#define HL_SERVE_MAX_WAIT 10000000ull
#define HL_SERVE_FRAME_TIMEOUT_MS 5000u
typedef struct {
  uint32_t frame_timeout_ms;              /* 0: HL_SERVE_FRAME_TIMEOUT_MS */
  void (*on_bound)(int port, void *arg);  /* called once the port is bound (or NULL) */
  void *arg;
} hl_serve_opts_t;
void hl_serve_opts_default(hl_serve_opts_t *o);
int hl_serve(const hl_ops_t *ops, void *ctx, int port, volatile int *bound, volatile int *stop, int verbose);
int hl_serve_ex(const hl_ops_t *ops, void *ctx, int port, volatile int *bound, volatile int *stop, int verbose,
                const hl_serve_opts_t *o);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HL_SOCK_H */
