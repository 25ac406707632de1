/* Tessera BSP: interrupt controller (see docs/interrupts.md for the source map). */
#ifndef TESSERA_INTC_H
#define TESSERA_INTC_H

#include <stdint.h>

#define INTC_SRC_UART     0u
#define INTC_SRC_MME(i)   (1u + (i))    /* 1..4 */
#define INTC_SRC_TPC      5u
#define INTC_SRC_DMA(i)   (6u + (i))    /* 6..9 */
#define INTC_SRC_SYNCMGR  10u
#define INTC_SRC_QMAN     11u
#define INTC_SRC_L2(i)    (12u + (i))   /* 12..15 */
#define INTC_SRC_NIC(i)   (16u + (i))   /* 16..19 */
#define INTC_SRC_SWIRQ(n) (24u + (n))   /* 24..31 */
#define INTC_NUM_SRC      32u

typedef void (*intc_handler_t)(uint32_t src);

void intc_init(void);                            /* all sources disabled, SWIRQs cleared,
                                                    external interrupt handler installed */
void intc_set_handler(uint32_t src, intc_handler_t fn);
void intc_enable(uint32_t src);                  /* CORE_EN bit */
void intc_disable(uint32_t src);
void intc_host_enable(uint32_t src);             /* HOST_EN bit */
void intc_host_disable(uint32_t src);
uint32_t intc_pending(void);
int intc_claim(void);                            /* lowest pending+enabled source, -1 if none */
void intc_swirq_raise(uint32_t n);               /* SWIRQ bit n (source 24+n) */
void intc_swirq_clear(uint32_t n);
void intc_ext_enable(void);                      /* mie.MEIE */
void intc_ext_disable(void);
/* The machine-external-interrupt handler: claims and dispatches until no
 * enabled source is pending. Installed by intc_init(). Handlers must clear
 * their (level) source before returning. */
void intc_dispatch(void);

#endif /* TESSERA_INTC_H */
