/* Tessera BSP: system control block. */
#include "tessera/mmio.h"
#include "tessera/sysctrl.h"

uint32_t sysctrl_id(void) { return SYSCTRL_REG(ID); }
uint32_t sysctrl_platform(void) { return FIELD_GET(SYSCTRL__CONFIG0__PLATFORM, SYSCTRL_REG(CONFIG0)); }
uint32_t sysctrl_clk_hz(void) { return SYSCTRL_REG(CLK_HZ); }

void sysctrl_read_info(sysctrl_info_t *i)
{
    uint32_t v = SYSCTRL_REG(VERSION);
    uint32_t c0 = SYSCTRL_REG(CONFIG0);
    uint32_t c1 = SYSCTRL_REG(CONFIG1);
    i->id = SYSCTRL_REG(ID);
    i->ver_major = FIELD_GET(SYSCTRL__VERSION__MAJOR, v);
    i->ver_minor = FIELD_GET(SYSCTRL__VERSION__MINOR, v);
    i->ver_patch = FIELD_GET(SYSCTRL__VERSION__PATCH, v);
    i->dcores = FIELD_GET(SYSCTRL__CONFIG0__DCORES, c0);
    i->num_mme = FIELD_GET(SYSCTRL__CONFIG0__NUM_MME, c0);
    i->num_tpc = FIELD_GET(SYSCTRL__CONFIG0__NUM_TPC, c0);
    i->hbm_channels = FIELD_GET(SYSCTRL__CONFIG0__HBM_CHANNELS, c0);
    i->dma_engines = FIELD_GET(SYSCTRL__CONFIG0__DMA_ENGINES, c0);
    i->nic_ports = FIELD_GET(SYSCTRL__CONFIG0__NIC_PORTS, c0);
    i->platform = FIELD_GET(SYSCTRL__CONFIG0__PLATFORM, c0);
    i->mme_rows = FIELD_GET(SYSCTRL__CONFIG1__MME_ROWS, c1);
    i->mme_cols = FIELD_GET(SYSCTRL__CONFIG1__MME_COLS, c1);
    i->l2_log2_bytes = FIELD_GET(SYSCTRL__CONFIG1__L2_LOG2_BYTES, c1);
    i->l2_ways = FIELD_GET(SYSCTRL__CONFIG1__L2_WAYS, c1);
    i->clk_hz = SYSCTRL_REG(CLK_HZ);
}

void sysctrl_set_boot_status(uint32_t code, uint32_t detail)
{
    SYSCTRL_REG(BOOT_STATUS) = FIELD_PREP(SYSCTRL__BOOT_STATUS__CODE, code) |
                               FIELD_PREP(SYSCTRL__BOOT_STATUS__DETAIL, detail);
}

uint32_t sysctrl_boot_status(void) { return SYSCTRL_REG(BOOT_STATUS); }

void sysctrl_set_fw_state(uint32_t state)
{
    uint32_t v = SYSCTRL_REG(FW_STATUS);
    v = (v & ~SYSCTRL__FW_STATUS__STATE_bm) | FIELD_PREP(SYSCTRL__FW_STATUS__STATE, state);
    SYSCTRL_REG(FW_STATUS) = v;
}

uint32_t sysctrl_fw_state(void) { return FIELD_GET(SYSCTRL__FW_STATUS__STATE, SYSCTRL_REG(FW_STATUS)); }

void sysctrl_heartbeat(void)
{
    uint32_t v = SYSCTRL_REG(FW_STATUS);
    uint32_t hb = FIELD_GET(SYSCTRL__FW_STATUS__HEARTBEAT, v) + 1u;
    v = (v & ~SYSCTRL__FW_STATUS__HEARTBEAT_bm) | FIELD_PREP(SYSCTRL__FW_STATUS__HEARTBEAT, hb);
    SYSCTRL_REG(FW_STATUS) = v;
}

uint32_t sysctrl_heartbeat_count(void) { return FIELD_GET(SYSCTRL__FW_STATUS__HEARTBEAT, SYSCTRL_REG(FW_STATUS)); }
