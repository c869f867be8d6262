/* depchain: how long one warp takes to issue the blocks of a kernel's PTX
 * when nothing else issues between its instructions. A warp issues in
 * order, and an instruction waits until the instructions whose registers
 * it reads have their results (analysis/timing/ptxlat). The order is the
 * PTX's: ptxas keeps NVVM's order closely enough that walking it in order
 * gives what one warp measures (scripts/latprobe/chainprobe.cu on an
 * H200: 277.5 clocks a pass walked, 278.0 measured; 240.5 and 230.6 for
 * its variant with approximate square roots), where letting independent
 * instructions of a block fill the waits gave 134.5 and 92.5. A block
 * waits for what the blocks before it still compute. The blocks are
 * walked in the code's order; an innermost loop's blocks are walked twice
 * and the second pass is kept, so a pass waits for what the one before
 * left in flight (an accumulator, the counter). Pure. */
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
