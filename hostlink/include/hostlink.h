/* hostlink: the host-side library of Tessera (docs/hostlink.md).
 *
 * A device is opened over a transport (an ops table): the in-process
 * simulator ("sim"), a simulator serving on a TCP port on this machine
 * ("tcp:PORT" or "tcp:127.0.0.1:PORT", see chip_tb --serve), or a board's UART
 * ("serial:/dev/ttyUSB0", framing protocol in docs/hostlink.md). On top of the
 * transport: register and memory access, firmware loading through the boot
 * ROM, a device-memory allocator, the command-buffer builder (the packet
 * encoding of bsp/include/tessera/cp_pkt.h, docs/packets.md) and job submission to
 * the firmware scheduler's queues (bsp/include/tessera/hostif.h).
 *
 * Functions return HL_OK (0) or a negative HL_E* code; hl_error() describes
 * the last failure of a device. */
#ifndef TESSERA_HOSTLINK_H
#define TESSERA_HOSTLINK_H

#include <stddef.h>
#include <stdint.h>

#include "tessera/cp_pkt.h"
#include "tessera/hostif.h"

/* The library's interface, for programs; each part is its module's header
 * (docs/hostlink.md "Layers"), and the library's own sources include only
 * the parts they use. */
#include "hl_core.h"
#include "hl_cb.h"
#include "hl_coll.h"
#include "hl_flash.h"
#include "hl_nic.h"
#include "hl_serial.h"
#include "hl_sim.h"
#include "hl_sock.h"
#include "hl_open.h"

#endif /* TESSERA_HOSTLINK_H */
