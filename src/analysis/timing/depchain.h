/* depchain: how long one warp takes to issue the blocks of a kernel's PTX
 * when nothing else issues between its instructions. A warp issues in
 * order, an instruction waits until the instructions whose registers it
 * reads have their results (analysis/timing/ptxlat), and ptxas orders a
 * block's instructions so that independent ones fill those waits: a block
 * takes its longest chain of dependent latencies, or one clock an
 * instruction where that is longer, and a block waits for what the blocks
 * before it still compute. The blocks are walked in the code's order;
 * an innermost loop's blocks are walked twice and the second pass is
 * kept, so a pass waits for what the one before left in flight (an
 * accumulator, the counter). Pure. */
#ifndef GPULINT_DEPCHAIN_H
#define GPULINT_DEPCHAIN_H

#include <stddef.h>

#include "analysis/timing/imix.h"

typedef struct depchain depchain;

/* n: the instructions of the code the walk will see. */
depchain *depchain_new(size_t n);
/* Issues insns[0, k) after what the walk issued so far: the SM clocks
 * from the block's start to when the next block can start, at least the
 * SASS instructions they become (ptxcost). */
double depchain_block(depchain *d, const imix_insn *insns, size_t k);
void depchain_free(depchain *d);

#endif
