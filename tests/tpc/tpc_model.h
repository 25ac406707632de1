/* Tessera TPC ISA model: executes TPC programs bundle by bundle on one TPC with
 * its register files, scalar/vector local memories and a flat device memory.
 * This is the golden reference for the TPC RTL (its testbench compares the
 * architectural state and memory against this model). See docs/tpc.md. */
#ifndef TPC_MODEL_H
#define TPC_MODEL_H
#include <stdint.h>
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

#define TPC_NSREG 32
#define TPC_NPREG 8
#define TPC_NVREG 32
#define TPC_NVPREG 8
#define TPC_NIREG 8
#define TPC_NDIMS 5
#define TPC_NTENSORS 8
#define TPC_NSARGS 16
#define TPC_VBYTES 32
#define TPC_SLM_BYTES 1024   /* scalar local memory; SLM[0..63] = launch scalar args */
#define TPC_VLM_BYTES 16384  /* vector local memory (512 vectors) */
#define TPC_MAX_DIM_SIZE (1u << 24)
#define TPC_LD_HIT_LAT 4      /* cycle estimate: ld.t latency when its blocks are buffered */
#define TPC_BLK_BYTES 256     /* prefetch block = HBM interleave granule = longest AXI burst */

/* error codes (status register of the TPC) */
enum {
  TPC_ERR_NONE = 0,
  TPC_ERR_ILLEGAL = 1,    /* unknown opcode, reserved bits set, type not allowed */
  TPC_ERR_PC_RANGE = 2,   /* branch target or fall-through outside the program */
  TPC_ERR_SLM_RANGE = 3,  /* scalar local memory address out of range */
  TPC_ERR_VLM_RANGE = 4,  /* vector local memory address out of range */
  TPC_ERR_MISALIGNED = 5, /* SLM address not 4-aligned / VLM address not 32-aligned */
  TPC_ERR_BAD_DESC = 6,   /* tensor number >= ntensors, bad dtype, 0/oversized dims, misaligned base */
  TPC_ERR_BUS = 7,        /* device memory access outside memory (AXI DECERR/SLVERR) */
  TPC_ERR_WCONFLICT = 8,  /* two slots of one bundle write the same register */
  TPC_ERR_TIMEOUT = 9,    /* bundle limit reached (model/testbench watchdog) */
  TPC_ERR_BAD_LAUNCH = 10 /* index-space size 0, program length 0 */
};
enum { TPC_RUNNING = 0, TPC_DONE = 1, TPC_ERROR = 2 };

typedef struct {
  uint32_t base;               /* byte address of element (0,..,0) */
  uint32_t dtype;              /* TPC_DT_* */
  uint32_t ndims;              /* 1..5 */
  uint32_t pad;                /* raw bits returned for out-of-bounds lanes */
  uint32_t size[TPC_NDIMS];    /* elements per dim (1..2^24); dims >= ndims ignored */
  int32_t stride[TPC_NDIMS];   /* in elements; dim 0 usually 1 */
} tpc_tensor_t;

typedef struct {
  uint32_t prog_addr;          /* device byte address of bundle 0 (32-byte aligned) */
  uint32_t prog_len;           /* program length in bundles */
  uint32_t ntensors;
  tpc_tensor_t tensor[TPC_NTENSORS];
  uint32_t sarg[TPC_NSARGS];   /* copied to SLM[0..63] */
  uint32_t idx_size[TPC_NDIMS];/* index space (unused dims = 1) */
  uint32_t rng_seed;
} tpc_launch_t;

typedef struct {
  uint8_t *data;
  uint32_t base;
  uint32_t size;
} tpc_devmem_t;

typedef struct {
  uint64_t bundles;      /* bundles executed */
  uint64_t cycles;       /* estimate: in-order issue, interlocked latencies, mem_latency for ld.t */
  uint64_t stall_cycles; /* cycles lost to interlocks (estimate) = stall_mem + stall_dep */
  uint64_t stall_mem;    /* ... waiting for an ld.t result */
  uint64_t stall_dep;    /* ... waiting for any other result */
  uint64_t branch_bubbles; /* 2 per taken branch */
  uint64_t bytes_ld, bytes_st; /* tensor bytes moved (in-bounds enabled lanes) */
  uint64_t slot_ops[4];  /* non-nop operations per slot */
} tpc_stats_t;

typedef struct tpc_core {
  uint32_t s[TPC_NSREG];
  uint8_t p[TPC_NPREG];
  uint32_t vp[TPC_NVPREG];
  uint8_t v[TPC_NVREG][TPC_VBYTES];
  int32_t ix[TPC_NIREG][TPC_NDIMS];
  uint32_t rng[8];
  uint8_t slm[TPC_SLM_BYTES];
  uint8_t vlm[TPC_VLM_BYTES];
  uint32_t pc, state, err, err_pc;
  uint32_t id, n, off[TPC_NDIMS], len[TPC_NDIMS];
  const tpc_launch_t *L;
  tpc_devmem_t *mem;
  uint32_t mem_latency;  /* for the cycle estimate (default 40) */
  /* cycle estimate: a 16-entry buffer of 256-byte blocks filled by pf.t and ld.t misses;
   * an ld.t whose blocks are all present returns after TPC_LD_HIT_LAT cycles */
  uint32_t blk_addr[16];
  uint64_t blk_ready[16];
  uint32_t blk_valid, blk_next;
  uint64_t cur_issue, ld_ready;
  uint64_t ready_s[TPC_NSREG], ready_v[TPC_NVREG], ready_vp[TPC_NVPREG], ready_p[TPC_NPREG];
  uint8_t v_from_ld[TPC_NVREG]; /* last writer of v[r] was ld.t (stall attribution) */
  tpc_stats_t st;
} tpc_core_t;

/* Slice of the launch index space given to TPC `id` of `n`: the highest dim with
 * size > 1 is split in contiguous chunks of ceil(size/n); other dims are whole. */
void tpc_slice(const tpc_launch_t *L, uint32_t n, uint32_t id, uint32_t off[TPC_NDIMS],
               uint32_t len[TPC_NDIMS]);
/* Reset a core and start the launch on it. Returns 0 or a TPC_ERR_* (core stopped). */
int tpc_core_start(tpc_core_t *c, const tpc_launch_t *L, tpc_devmem_t *mem, uint32_t id, uint32_t n);
/* Execute one bundle. Returns the state (TPC_RUNNING / TPC_DONE / TPC_ERROR). */
int tpc_core_step(tpc_core_t *c);
/* Run until done/error or max_bundles (then TPC_ERR_TIMEOUT). Returns err. */
int tpc_core_run(tpc_core_t *c, uint64_t max_bundles);
/* Run a launch on n TPCs (one after another; TPCs share only device memory).
 * Returns the first error (and its TPC in *err_tpc if not NULL); stats summed into *st. */
int tpc_run_cluster(const tpc_launch_t *L, tpc_devmem_t *mem, uint32_t n, uint64_t max_bundles,
                    tpc_stats_t *st, uint32_t *err_tpc, uint32_t *err_pc);
/* Decode check of one slot: 0 if legal, else TPC_ERR_ILLEGAL. */
int tpc_slot_legal(int slot, uint64_t w);
const char *tpc_err_name(int err);

/* lane access helpers (raw bits, zero-extended) */
uint32_t tpc_lane_get(const uint8_t *v, int dt, int k);
void tpc_lane_set(uint8_t *v, int dt, int k, uint32_t x);
#ifdef __cplusplus
}
#endif
#endif
