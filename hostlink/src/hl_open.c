/* hostlink: open a device by name (docs/hostlink.md): the one place that knows
 * every transport, above them and the core. */
#include <stdlib.h>
#include <string.h>

#include "hl_core.h"
#include "hl_open.h"
#include "hl_serial.h"
#include "hl_sim.h"
#include "hl_sock.h"

int hl_open(const char *spec, hl_dev_t **dev) {
  if (!spec || !dev) return HL_EARG;
  if (!strcmp(spec, "sim")) return hl_open_sim(dev, 1, 0);
  if (!strncmp(spec, "tcp:", 4)) {
    const char *p = spec + 4, *colon = strrchr(p, ':');
    char host[64] = "127.0.0.1";
    if (colon) {
      size_t n = (size_t)(colon - p);
      if (n >= sizeof host) return HL_EARG;
      memcpy(host, p, n);
      host[n] = 0;
      p = colon + 1;
    }
    char *end;
    long port = strtol(p, &end, 10);
    if (*end || port <= 0 || port > 65535) return HL_EARG;
    return hl_open_tcp(host, (int)port, dev);
  }
  if (!strncmp(spec, "serial:", 7)) return hl_open_serial(spec + 7, dev);
  return HL_EARG;
}
