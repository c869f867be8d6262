/* The basic blocks of one function's code as icount places them: shared
 * by icount and the modules of its placing rules (rarearm). */
#ifndef GPULINT_ICFG_H
#define GPULINT_ICFG_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/timing/imix.h"

typedef struct block {
    size_t first, end; /* instructions [first, end) */
    int succ[2], n_succ;
    int n_pred, pred; /* pred: the one predecessor when n_pred == 1 */
    bool leaves;      /* a guarded exit: a way out besides its successors */
    bool reached, placed, guessed;
    double count;
    double loop_count; /* a loop anchor's count for the back edge that ends here (0: none) */
    size_t guess_loop; /* guessed from the placed blocks of the loop ending here; 0: none */
} block;

typedef struct code {
    imix_level level;
    const imix_insn *insns;
    size_t n;
    block *b;
    int n_blocks;
    int *block_of; /* per instruction */
} code;

#endif
