/* Tessera BSP: CLINT timer (mtime counts core clock cycles) and software interrupt. */
#ifndef TESSERA_TIMER_H
#define TESSERA_TIMER_H

#include <stdint.h>

uint64_t timer_now(void);                 /* 64-bit mtime, read consistently (hi/lo/hi) */
void timer_set_cmp(uint64_t when);        /* mtimecmp, written without a spurious early match */
void timer_set_cmp_rel(uint32_t cycles);  /* mtimecmp = now + cycles */
void timer_disarm(void);                  /* mtimecmp = all ones */
void timer_irq_enable(void);              /* mie.MTIE */
void timer_irq_disable(void);
void timer_delay_cycles(uint32_t cycles); /* busy-wait on mtime */
void timer_delay_us(uint32_t us);         /* uses SYSCTRL.CLK_HZ */

void msip_set(void);                      /* CLINT.MSIP = 1 -> mip.MSIP */
void msip_clear(void);

#endif /* TESSERA_TIMER_H */
