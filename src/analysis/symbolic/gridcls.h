/* gridcls: totals over every block of a grid without walking every block.
 * Per dimension the blocks fall into three classes that bounds checks and
 * halo guards treat alike: the first block, the interior and the last. A
 * dimension whose block index the access does not use is one class. */
#ifndef GPULINT_ANALYSIS_GRIDCLS_H
#define GPULINT_ANALYSIS_GRIDCLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"

#define GRIDCLS_METRICS 9

/* Evaluates one block (blockIdx = bid) into m[0..GRIDCLS_METRICS). Returns
 * false, with a sentence in why, when the block cannot be evaluated. */
typedef bool (*gridcls_fn)(const int64_t bid[3], int64_t m[GRIDCLS_METRICS], char *why,
                           size_t why_size, void *ctx);

typedef struct gridcls_result {
    int64_t sum[GRIDCLS_METRICS]; /* over every block of the grid */
    int classes;                  /* blocks evaluated for the sum */
    /* False when interior blocks sampled besides the representative gave
     * other numbers: the sum then takes every interior block as like the
     * representative, and note says where they differed. */
    bool uniform;
    char note[192];
} gridcls_result;

/* The block index an analysis of "one interior block" uses: 1 where the
 * grid has more than one block in that dimension, else 0. */
int64_t gridcls_interior(int64_t extent);

/* Which block-index dimensions the access's offset, guard or loops use. */
void gridcls_uses_block_index(const mem_access *a, bool uses[3]);

/* Sums fn over the grid's blocks by class; the first `judged` metrics decide
 * whether sampled interior blocks are alike (uniform). Returns false, with
 * why, when fn fails for a class. */
bool gridcls_sum(const int64_t grid[3], const bool uses[3], int judged, gridcls_fn fn, void *ctx,
                 gridcls_result *res, char *why, size_t why_size);

#endif
