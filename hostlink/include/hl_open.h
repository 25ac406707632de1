/* hostlink: open a device by name (hl_open.c), any transport. */
#ifndef TESSERA_HL_OPEN_H
#define TESSERA_HL_OPEN_H

#include "hl_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "sim" (new in-process simulator), "tcp:[127.0.0.1:]PORT", "serial:PATH". */
int hl_open(const char *spec, hl_dev_t **dev);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HL_OPEN_H */
