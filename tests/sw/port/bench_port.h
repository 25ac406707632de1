/* Platform glue for the portable benchmark tests/sw/bench_int.c. To run the
 * benchmark on another RV32IM core, implement these five functions there
 * (tests/sw/port/tessera_port.c is the Tessera version). */
#ifndef BENCH_PORT_H
#define BENCH_PORT_H

#include <stdint.h>

void port_init(void);
void port_putc(int c);
uint32_t port_cycles(void);    /* free-running cycle counter (mcycle) */
uint32_t port_instret(void);   /* retired-instruction counter (minstret) */
void port_exit(int code) __attribute__((noreturn));   /* 0 = pass */

#endif
