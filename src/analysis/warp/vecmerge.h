/* vecmerge: a thread's loads of neighbouring shared-memory words that
 * ptxas issues as one wide load. A loop nvcc unrolls in full (a constant
 * trip count) whose site reads word i, i + 1, ... of an address the
 * compiler can prove aligned (`as[k][threadIdx.y * 4 + i]` for i < 4)
 * becomes LDS.64 or LDS.128: one request where the source has two or four,
 * with the bank rules of the wider access (analysis/warp/bank). Measured on
 * kernels/gemm.cu's gemm_regtile on an H200 (tests/data/timeprobe/h200/
 * gemm): 2 LDS.128 and 6 wavefronts per warp and k-step, where the scalar
 * loads would be 8 requests and 12 wavefronts. Pure: no I/O, no globals. */
#ifndef GPULINT_ANALYSIS_VECMERGE_H
#define GPULINT_ANALYSIS_VECMERGE_H

#include "analysis/symbolic/access.h"

/* How many iterations of one of a's loops (*level) one load of a covers:
 * 2 or 4 (the wide load is at most 16 bytes), or 1 when a is not such a
 * site: a shared load in a loop that runs a constant number of times, a
 * multiple of the group, stepping by one, that no guard or early exit
 * cuts, with only such loops inside it (nvcc unrolls them: the copies lie
 * side by side); whose address moves by its width each iteration; and
 * whose address at the loop's first iteration is a multiple of the group's
 * bytes for every value of every name in it (the alignment ptxas must
 * prove: checked at zero, at each name alone and at all of them together,
 * exact for addresses affine in their names). The innermost such loop
 * wins; `As[row + t][k]` under `for k, for t` merges along k. The array's
 * start is taken aligned, as ptxas lays out the arrays it merges. */
int vecmerge_group(const mem_access *a, int *level);

/* The site as the wide load: width times group, loop `level` stepping by
 * group. The loop's step is a new tree; free it with vecmerge_free. Only
 * where vecmerge_group(a, &level) > 1. */
void vecmerge_site(const mem_access *a, int group, int level, mem_access *out);
void vecmerge_free(mem_access *merged, int level);

#endif
