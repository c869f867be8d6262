/* Literal moves: what ptxas makes to hold the float literals a PTX
 * function reads, where a SASS instruction takes one literal of 32 bits
 * (scripts/ptxprobe/f64lit.cu and f64lit2.cu, tests/data/ptxprobe; checked
 * by tests/f64lit.py). icount adds them to a block's count and to the
 * kernel's prologue. Pure. */
#ifndef GPULINT_LITERALS_H
#define GPULINT_LITERALS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/timing/imix.h"

typedef struct lit_set lit_set;

/* The literals each SASS instruction takes, for n PTX instructions: gone[i]
 * marks one ptxas makes no instruction of (a multiply fused into its
 * reader, a folded copy; NULL: none), block_end[i] the end of i's basic
 * block. Freed with free(). */
lit_set *lit_sets(const imix_insn *insns, size_t n, const bool *gone, const size_t *block_end);

/* The moves a warp makes each time the block [first, end) runs, on sm
 * (the target's number; 0: taken as sm_90). */
double lit_block_moves(const imix_insn *insns, size_t first, size_t end, const lit_set *l, int sm);

/* The moves a warp makes once, before the kernel's loops. */
double lit_kernel_moves(const imix_insn *insns, size_t n, const lit_set *l);

#endif
