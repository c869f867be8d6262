/* pipes: which of an SM's execution pipes a PTX or SASS instruction is
 * issued to, where the pipe takes fewer than one warp instruction a clock
 * from its scheduler, and how many clocks a scheduler then spends on a
 * launch's mix (the issue term of analysis/timing/ktime). Nsight Compute's
 * pipe names: ALU (integer and logic but multiplies, compares, selects,
 * conversions to FP32), FMA-heavy (IMAD, IMUL, IDP), FP64, XU (MUFU, the
 * other conversions, POPC, FLO). FP32 and FP16 arithmetic, memory and
 * control are left in OTHER: their pipes take one a clock, or another term
 * counts them. Pure. */
#ifndef GPULINT_PIPES_H
#define GPULINT_PIPES_H

#include "analysis/timing/imix.h"

typedef enum pipes_pipe {
    PIPES_ALU,
    PIPES_FMA_HEAVY,
    PIPES_FP64,
    PIPES_XU,
    /* integer adds and shifts, which ptxas puts on either of the two
     * (IADD3 or IMAD.IADD, SHF or IMAD.SHL) */
    PIPES_ALU_OR_HEAVY,
    PIPES_OTHER,
    PIPES_N
} pipes_pipe;

const char *pipes_name(pipes_pipe p); /* "alu", "fma_heavy", "fp64", "xu", ..., "other" */

/* Adds to out[] the `count` warp instructions that one instruction `op`
 * stands for (PTX: ptxcost's SASS count, of which a division's or a
 * special function's sequence spreads over several pipes). */
void pipes_add(imix_level level, const char *op, double count, double out[PIPES_N]);

/* A 32-bit integer division's reciprocal (I2F.RP, MUFU.RCP, F2I and the
 * IMADs and adds that refine it): `count` warp instructions into out[]. */
void pipes_add_divisor_setup(double count, double out[PIPES_N]);

/* Clocks a scheduler spends a warp instruction of the mix insts[] (over
 * the pipes; the total is their sum), given each pipe's clocks a warp
 * instruction (0: as fast as issue). The instructions that may take
 * either the ALU or the FMA-heavy pipe go where they even the two out, as
 * ptxas places them. One a clock at best; a pipe of c clocks that takes
 * the share f of the instructions holds them to f x c; and an instruction
 * whose pipe took the one issued just before waits for it: (c - 1) x f^2
 * a warp instruction more. */
double pipes_issue_clocks(const double insts[PIPES_N], const double clocks[PIPES_N]);

#endif
