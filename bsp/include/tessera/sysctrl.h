/* Tessera BSP: system control block (identification, configuration, boot and
 * firmware status). */
#ifndef TESSERA_SYSCTRL_H
#define TESSERA_SYSCTRL_H

#include <stdint.h>

typedef struct {
    uint32_t id;              /* 'TESS' */
    uint32_t ver_major, ver_minor, ver_patch;
    uint32_t dcores, num_mme, num_tpc, hbm_channels, dma_engines, nic_ports, platform;
    uint32_t mme_rows, mme_cols, l2_log2_bytes, l2_ways;
    uint32_t clk_hz;
} sysctrl_info_t;

#define SYSCTRL_CHIP_ID      0x54455353u  /* 'TESS' (value from the RDL reset) */
#define SYSCTRL_PLATFORM_SIM 0u

void sysctrl_read_info(sysctrl_info_t *info);
uint32_t sysctrl_id(void);
uint32_t sysctrl_platform(void);
uint32_t sysctrl_clk_hz(void);

void sysctrl_set_boot_status(uint32_t code, uint32_t detail);
uint32_t sysctrl_boot_status(void);

/* FW_STATUS.state values (see docs/firmware.md) */
#define FW_STATE_OFF    0x00u
#define FW_STATE_BOOTED 0x01u
#define FW_STATE_IDLE   0x02u
#define FW_STATE_FATAL  0xE0u
void sysctrl_set_fw_state(uint32_t state);
uint32_t sysctrl_fw_state(void);
void sysctrl_heartbeat(void);              /* FW_STATUS.heartbeat += 1 (24-bit, wraps) */
uint32_t sysctrl_heartbeat_count(void);

#endif /* TESSERA_SYSCTRL_H */
