/* ptxcost: how many SASS warp instructions one PTX instruction executes.
 * Where only PTX is at hand (no cuobjdump), a block's PTX instructions
 * stand for its SASS ones; most map one to one, but ptxas expands some
 * into sequences: a 32-bit integer division by a register is 9-12
 * instructions, a 64-bit one a call of 70-88, an IEEE float division
 * MUFU.RCP, FCHK, five FFMAs and a branch. Measured on an H200 (sm_90,
 * CUDA 13.0) under Nsight Compute with scripts/ptxprobe, recorded in
 * tests/data/ptxprobe (tests/ptxcost.py checks the table against the
 * recording), and with scripts/pipeprobe, whose chains ptxas cannot fold
 * (tests/data/pipeprobe; tests/unit/test_pipes.c). The fast path is what is counted (a divisor of
 * 1, values near 1.5): the slow paths for denormals and overflow run rarely. Pure. */
#ifndef GPULINT_PTXCOST_H
#define GPULINT_PTXCOST_H

#include <stdbool.h>
#include <stdint.h>

/* The warp instructions the PTX instruction op ("div.rn.f32", with its
 * modifiers as written) executes; 1 for one not measured. */
double ptxcost_sass_per_ptx(const char *op);

/* A SASS instruction takes one literal, of 32 bits. A double's fits where
 * its low word is zero (0.5, 3.0: the high word, as DFMA R4, R2, R4, 1.25
 * writes); any other one comes from the constant bank up to sm_89, and
 * from sm_90 is moved into a register pair first (analysis/timing/icount
 * says which, and how often). A pair takes two moves (UMOV, MOV,
 * HFMA2.MMA), one from sm_120 (UMOV.64, MOV.64). scripts/ptxprobe/f64lit.cu
 * and f64lit2.cu: the SASS of sm_80 to sm_120 and executed counts on an
 * H100, in tests/data/ptxprobe/f64lit and f64lit2. sm is the target's
 * number (90 for sm_90a). */
double ptxcost_f64_pair_moves(int sm);

/* Whether a double's bits fit a SASS instruction's 32-bit literal. */
bool ptxcost_f64_literal_fits(uint64_t bits);

#endif
