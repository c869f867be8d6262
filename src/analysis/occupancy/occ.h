/* occ: theoretical occupancy of one kernel launch on one SM model.
 * Pure: no I/O, no globals. Follows the hardware rules that NVIDIA's
 * cuda_occupancy.h encodes, driven by the numbers in a gpu_arch so that
 * hypothetical (textbook) machines work the same way. */
#ifndef GPULINT_OCC_H
#define GPULINT_OCC_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

#define OCC_UNLIMITED 0x7fffffff

typedef struct occ_kernel {
    int regs_per_thread;
    int64_t static_smem;
    int barriers; /* named barriers per block; ptxas omits 0 and 1 */
} occ_kernel;

typedef struct occ_launch {
    int threads_per_block;
    int64_t dynamic_smem;
    int carveout_percent; /* cudaFuncAttributePreferredSharedMemoryCarveout; -1 = default */
    /* cudaFuncAttributeMaxDynamicSharedMemorySize was set (opt-in to more
     * than smem_per_block). max_dynamic_smem is the attribute's value. */
    bool smem_optin;
    int64_t max_dynamic_smem;
} occ_launch;

typedef enum occ_limiter {
    OCC_LIM_WARPS = 1u << 0,
    OCC_LIM_REGISTERS = 1u << 1,
    OCC_LIM_SMEM = 1u << 2,
    OCC_LIM_BLOCKS = 1u << 3,
    OCC_LIM_BARRIERS = 1u << 4,
} occ_limiter;

/* Why a configuration cannot launch at all (blocks_per_sm == 0). */
typedef enum occ_failure {
    OCC_OK = 0,
    OCC_FAIL_BAD_INPUT,         /* non-positive threads, negative sizes */
    OCC_FAIL_THREADS,           /* block larger than max_threads_per_block */
    OCC_FAIL_REGS_PER_THREAD,   /* more registers than a thread may have */
    OCC_FAIL_REGS_PER_BLOCK,    /* "too many resources requested for launch" */
    OCC_FAIL_SMEM_PER_BLOCK,    /* static + dynamic over the per-block limit */
    OCC_FAIL_DYNAMIC_ATTRIBUTE, /* dynamic smem above the function's attribute */
    OCC_FAIL_BARRIERS,          /* more named barriers than a block may use */
} occ_failure;

typedef struct occ_result {
    occ_failure failure;
    int blocks_per_sm;
    int warps_per_sm;
    int max_warps_per_sm;
    double occupancy;  /* active warps / max warps, 0..1 */
    unsigned limiters; /* occ_limiter bits; 0 when it cannot launch */

    /* Block count each resource alone allows (OCC_UNLIMITED = none). */
    int limit_warps, limit_registers, limit_smem, limit_blocks, limit_barriers;

    /* Intermediate values, for --explain and JSON. */
    int warps_per_block;
    int regs_per_warp;           /* regs * warp_size */
    int regs_per_warp_allocated; /* rounded up to the allocation unit */
    int64_t regs_per_block_allocated;
    int64_t regs_per_block_launch_check; /* warps rounded to the sub-partitions */
    int regs_per_sub_partition;
    int warps_per_sub_partition;

    int64_t smem_per_block_requested; /* static + reserved + dynamic */
    int64_t smem_per_block_allocated; /* rounded to the allocation unit */
    int64_t smem_per_block_limit;     /* what a block may use, reserved included */
    int64_t smem_carveout_preferred;  /* the preference mapped to a carveout */
    int64_t smem_per_sm_used;         /* the carveout the driver picks */
    int barrier_slots_per_sm;
} occ_result;

/* Compute occupancy. Always fills res; returns false if it cannot launch. */
bool occ_compute(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l, occ_result *res);

/* Largest block (threads) the kernel's registers allow; multiple of warp_size
 * unless max_threads_per_block itself is not. 0 if none fits. */
int occ_max_block_for_registers(const gpu_arch *arch, const occ_kernel *k);

/* Block size (multiple of the warp size) with the highest occupancy; ties go
 * to the larger block, as cudaOccMaxPotentialOccupancyBlockSize does. */
int occ_best_block_size(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l,
                        occ_result *best);

/* The smallest change to one resource that raises occupancy. */
typedef enum occ_advice_kind {
    OCC_ADVICE_NONE = 0,
    OCC_ADVICE_REGISTERS, /* value = register cap */
    OCC_ADVICE_BLOCK,     /* value = threads per block */
    OCC_ADVICE_SMEM,      /* value = total shared bytes per block */
    OCC_ADVICE_CARVEOUT,  /* value = carveout percent */
} occ_advice_kind;

typedef struct occ_advice {
    occ_advice_kind kind;
    int64_t value;
    int min_blocks_per_sm; /* for __launch_bounds__(threads, min_blocks) */
    double new_occupancy;
} occ_advice;

/* Up to max advices, best first (highest resulting occupancy, then the
 * smallest change). Returns how many were written. */
int occ_advise(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l,
               const occ_result *cur, occ_advice *out, int max);

const char *occ_limiter_name(occ_limiter lim); /* "registers", ... (JSON names) */
const char *occ_failure_reason(occ_failure f);

#endif
