/* ptxcost: how many SASS warp instructions one PTX instruction executes.
 * Where only PTX is at hand (no cuobjdump), a block's PTX instructions
 * stand for its SASS ones; most map one to one, but ptxas expands some
 * into sequences: a 32-bit integer division by a register is 9-12
 * instructions, a 64-bit one a call of 70-88, an IEEE float division
 * MUFU.RCP, FCHK, five FFMAs and a branch. Measured on an H200 (sm_90,
 * CUDA 13.0) under Nsight Compute with scripts/ptxprobe, recorded in
 * tests/data/ptxprobe (tests/ptxcost.py checks the table against the
 * recording), and with scripts/pipeprobe, whose chains ptxas cannot fold
 * (tests/data/pipeprobe; tests/unit/test_pipes.c). The fast path is what is counted (a divisor of 1, values near
 * 1.5): the slow paths for denormals and overflow run rarely. Pure. */
#ifndef GPULINT_PTXCOST_H
#define GPULINT_PTXCOST_H

/* The warp instructions the PTX instruction op ("div.rn.f32", with its
 * modifiers as written) executes; 1 for one not measured. */
double ptxcost_sass_per_ptx(const char *op);

#endif
