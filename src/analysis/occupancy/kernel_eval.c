/* kernel_eval: per-kernel occupancy summary. */
#include "analysis/occupancy/kernel_eval.h"

#include <string.h>

const int kernel_eval_common_blocks[KERNEL_EVAL_COMMON] = {128, 256, 512, 1024};

void kernel_evaluate(const gpu_arch *a, const occ_kernel *k, const occ_launch *launch,
                     const occ_launch *defaults, kernel_eval *out)
{
    memset(out, 0, sizeof *out);
    out->res = *k;
    out->max_block = occ_max_block_for_registers(a, k);
    if (launch) {
        out->has_launch = true;
        out->launch = *launch;
        occ_compute(a, k, launch, &out->occ);
        out->n_advice = occ_advise(a, k, launch, &out->occ, out->advice, 4);
    }
    out->best_block = occ_best_block_size(a, k, defaults, &out->best);
    for (int i = 0; i < KERNEL_EVAL_COMMON; i++) {
        occ_launch l = *defaults;
        l.threads_per_block = kernel_eval_common_blocks[i];
        occ_compute(a, k, &l, &out->common[i]);
    }
}
