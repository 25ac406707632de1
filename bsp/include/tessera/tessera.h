/* Tessera BSP umbrella header. */
#ifndef TESSERA_H
#define TESSERA_H
#include "tessera/mmio.h"
#include "tessera/csr.h"
#include "tessera/uart.h"
#include "tessera/timer.h"
#include "tessera/intc.h"
#include "tessera/sysctrl.h"
#include "tessera/trap.h"
#endif
