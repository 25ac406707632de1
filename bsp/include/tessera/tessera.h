/* Tessera BSP umbrella header: every BSP interface, for programs (firmware,
 * boot ROM, tests). The BSP's own sources include only what they use
 * (docs/bsp.md "Layers"). */
#ifndef TESSERA_H
#define TESSERA_H
#include "tessera/mmio.h"
#include "tessera/csr.h"
#include "tessera/uart.h"
#include "tessera/uart_rx.h"
#include "tessera/timer.h"
#include "tessera/intc.h"
#include "tessera/sysctrl.h"
#include "tessera/trap.h"
#endif
