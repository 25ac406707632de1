/* chip_tb --uart-tcp / --uart-pty (uart_bridge.c, docs/sim.md "The UART outside the
 * simulator"). */
#ifndef TESSERA_UART_BRIDGE_H
#define TESSERA_UART_BRIDGE_H

#include "tessera_sim.h"

/* Run one chip (booting `elf` if not NULL, else the boot ROM: the flash image of
 * so->flash_file or waiting for the host) with its UART on 127.0.0.1:tcp_port (0: any
 * free port; the port is printed) or, with use_pty, on a new pseudo-terminal. Until
 * SIGINT/SIGTERM (exit 0) or the cycle limit so->max_cycles (0: 2G; exit 1 with the
 * chip's diagnostic); 2 if it cannot start. */
int uart_bridge(const tsim_opts_t *so, const char *elf, int tcp_port, int use_pty, int progress);

#endif
