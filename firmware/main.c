/* Tessera management firmware: start-up (docs/firmware.md).
 *   1. UART bit time (boards), banner with the chip configuration from SYSCTRL
 *   2. FW_STATUS.state = BOOTED, trap handler, INTC, timer tick
 *   3. scheduler loop (FW_STATUS.state = IDLE) */
#include <stdio.h>
#include "tessera/tessera.h"
#include "fw.h"
#include "console.h"
#include "sched.h"

static const char *platform_name(uint32_t p)
{
    return p == SYSCTRL_PLATFORM_SIM ? "simulation" : "FPGA board";
}

static void banner(void)
{
    sysctrl_info_t i;
    sysctrl_read_info(&i);
    printf("Tessera firmware v%d.%d.%d (build config %s)\n", FW_VERSION_MAJOR, FW_VERSION_MINOR,
           FW_VERSION_PATCH, TESSERA_CONFIG_NAME);
    printf("chip: id 0x%08lx v%lu.%lu.%lu, %s, %lu Hz\n", (unsigned long)i.id, (unsigned long)i.ver_major,
           (unsigned long)i.ver_minor, (unsigned long)i.ver_patch, platform_name(i.platform),
           (unsigned long)i.clk_hz);
    printf("config: DCOREs %lu, MMEs %lu (%lux%lu), TPCs %lu, HBM channels %lu, DMA %lu, NIC ports %lu, "
           "L2 %lu KiB x %lu-way per DCORE\n",
           (unsigned long)i.dcores, (unsigned long)i.num_mme, (unsigned long)i.mme_rows,
           (unsigned long)i.mme_cols, (unsigned long)i.num_tpc, (unsigned long)i.hbm_channels,
           (unsigned long)i.dma_engines, (unsigned long)i.nic_ports,
           (unsigned long)((1ul << i.l2_log2_bytes) >> 10), (unsigned long)i.l2_ways);
    if (i.id != SYSCTRL_CHIP_ID)
        printf("warning: unexpected chip id\n");
    if (i.dcores != TESSERA_DCORES || i.num_mme != TESSERA_NUM_MME || i.num_tpc != TESSERA_NUM_TPC ||
        i.hbm_channels != TESSERA_HBM_CHANNELS || i.mme_rows != TESSERA_MME_ROWS)
        printf("warning: chip configuration differs from the build config %s\n", TESSERA_CONFIG_NAME);
}

/* Any trap without a handler is fatal for the firmware: report it, publish
 * FW_STATUS.state = FATAL and park with interrupts off. */
void trap_unexpected(trap_frame_t *f)
{
    sysctrl_set_fw_state(FW_STATE_FATAL);
    uart_puts("\r\nfw: FATAL unexpected trap mcause=");
    uart_put_hex32(f->mcause);
    uart_puts(" mepc=");
    uart_put_hex32(f->mepc);
    uart_puts(" mtval=");
    uart_put_hex32(f->mtval);
    uart_puts("\r\n");
    uart_flush();
    csr_write(mie, 0u);
    for (;;)
        wfi();
}

int main(void)
{
    uart_init(TESSERA_UART_BAUD);
    trap_init(MTVEC_DIRECT);
    banner();
    sysctrl_set_fw_state(FW_STATE_BOOTED);
    intc_init();
    fw_sched_init();
    fw_console_init();
    fw_sched_run();
}
