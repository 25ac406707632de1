/* hostlink transport: the in-process simulator (hl_sim.c), directly or
 * through its UART with the serial framing. */
#ifndef TESSERA_HL_SIM_H
#define TESSERA_HL_SIM_H

#include <stdint.h>

#include "hl_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* In-process simulator (hl_sim.c, needs the chip model). attach: use an
 * existing tessera_sim instance (not destroyed on close). */
struct tsim;
int hl_open_sim(hl_dev_t **dev, uint64_t seed, int verbose);
/* The same with the SPI flash backed by flash_file (tsim_opts_t.flash_file; NULL: an
 * erased flash): loaded now, written back when the device is closed. */
int hl_open_sim_flash(hl_dev_t **dev, uint64_t seed, int verbose, const char *flash_file);
int hl_open_sim_attach(struct tsim *sim, hl_dev_t **dev);
struct tsim *hl_sim_of(hl_dev_t *dev);   /* NULL if not a simulator transport */
/* In-process: the frames go through the simulator's UART (tsim_uart_input /
 * the TX decoder) to the firmware's frame handler (hl_serial.h). */
int hl_open_sim_uart(struct tsim *sim, hl_dev_t **dev);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HL_SIM_H */
