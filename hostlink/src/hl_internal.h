/* hostlink: declarations shared by the library's source files. */
#ifndef TESSERA_HL_INTERNAL_H
#define TESSERA_HL_INTERNAL_H

#include "hostlink.h"

int hl_set_error(hl_dev_t *d, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Socket protocol (hl_sock.c, docs/hostlink.md): little-endian frames.
 * request:  op u32, addr u32, arg u64, len u32, payload[len]
 * response: status i32, value u64, len u32, payload[len] */
enum {
  HL_SOP_READ32 = 1, HL_SOP_WRITE32 = 2, HL_SOP_READ = 3, HL_SOP_WRITE = 4,
  HL_SOP_RESET = 5, HL_SOP_WAIT = 6, HL_SOP_NOW = 7, HL_SOP_HELLO = 8, HL_SOP_SHUTDOWN = 9
};
#define HL_SOCK_MAGIC 0x4B4C4854u  /* HELLO answer value: 'THLK' */
#define HL_SOCK_MAX_LEN (1u << 20)

#endif
