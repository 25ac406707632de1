/* hostlink: open a device by name (hl_open.c), any transport. */
#ifndef TESSERA_HL_OPEN_H
#define TESSERA_HL_OPEN_H

#include "hl_core.h"

#ifdef __cplusplus
extern "C" {
#endif

#include <stdio.h>

/* "sim" (new in-process simulator), "tcp:[HOST:]PORT" (a simulator serving the
 * host port: chip_tb --serve), "serial:PATH" (a tty: a board's USB serial port or
 * chip_tb --uart-pty's pseudo-terminal), "serial-tcp:[HOST:]PORT" (the serial frames
 * over a TCP byte stream: chip_tb --uart-tcp, or a network serial server). HOST
 * defaults to 127.0.0.1. */
int hl_open(const char *spec, hl_dev_t **dev);

/* The device's console: copy the raw bytes of its UART ("serial:PATH" or
 * "serial-tcp:[HOST:]PORT", no framing, nothing sent) to `out` until `until` has been
 * seen (NULL: never), for at most `seconds` (0: until the channel closes). HL_OK when
 * `until` was seen or, without it, when the time is up or the channel closed;
 * HL_ETIMEOUT when `until` was not seen in time; HL_EARG for another kind of device. */
int hl_console(const char *spec, double seconds, const char *until, FILE *out);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HL_OPEN_H */
