/* ptxlat: how many SM clocks after one PTX instruction issues a dependent
 * instruction can issue, on sm_90: the latency of the SASS ptxas makes of
 * it. Measured on an H200 with scripts/latprobe (one warp, a chain of
 * dependent copies between two clock reads), recorded in
 * tests/data/latprobe; tests/ptxlat.py checks the table against the
 * recording. Pure. */
#ifndef GPULINT_PTXLAT_H
#define GPULINT_PTXLAT_H

#include <stdbool.h>

/* The latency of PTX instruction op ("fma.rn.f32", with its modifiers as
 * written). *measured: whether the probe measured this instruction (else
 * the latency is that of the measured one it is taken as). */
double ptxlat_cycles(const char *op, bool *measured);

/* Where ptxas's SASS for op holds a branch to a slow path (an IEEE
 * division, square root or reciprocal, a 64-bit integer division), the
 * clocks from its first instruction to that branch; 0 where it holds
 * none. The branch ends a basic block: nothing after it issues earlier,
 * and nothing before it issues later. */
double ptxlat_branch_at(const char *op);

#endif
