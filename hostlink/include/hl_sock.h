/* hostlink transport: TCP client and server on this machine (hl_sock.c). */
#ifndef TESSERA_HL_SOCK_H
#define TESSERA_HL_SOCK_H

#include "hl_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TCP client (hl_sock.c): loopback only. */
int hl_open_tcp(const char *host, int port, hl_dev_t **dev);
/* TCP server: serve one client at a time on 127.0.0.1:port over any
 * transport until a client sends SHUTDOWN (or *stop becomes non-zero). port 0
 * picks a free port; *bound (if set) receives it before the first accept. */
/* Ask a tcp server to stop (HL_EUNSUP on other transports). */
int hl_shutdown_server(hl_dev_t *dev);
int hl_serve(const hl_ops_t *ops, void *ctx, int port, volatile int *bound, volatile int *stop, int verbose);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HL_SOCK_H */
