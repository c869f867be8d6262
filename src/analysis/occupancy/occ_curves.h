/* occ_curves: occupancy as threads per block, registers per thread or
 * shared memory per block varies, the rest of the launch held. */
#ifndef GPULINT_OCC_CURVES_H
#define GPULINT_OCC_CURVES_H

#include <stdint.h>

#include "analysis/occupancy/occ.h"

#define OCC_MAX_SAMPLES 2048

/* Samples of one curve: x and y point at OCC_MAX_SAMPLES doubles each; y is
 * occupancy in percent. */
typedef struct occ_curve {
    double *x, *y;
    int n;
} occ_curve;

/* Threads per block: every multiple of the warp size. */
void occ_curve_threads(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l,
                       occ_curve *c);
/* Registers per thread: 0 .. the per-thread maximum. */
void occ_curve_registers(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l,
                         occ_curve *c);
/* Shared memory per block (static + dynamic), 0 .. what a block may have with
 * the opt-in attribute, stepped by the allocation unit; returns that maximum. */
int64_t occ_curve_smem(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l,
                       occ_curve *c);

#endif
