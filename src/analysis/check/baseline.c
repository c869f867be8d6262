/* baseline: look-ups in a recorded report's kernels (see baseline.h). */
#include "analysis/check/baseline.h"

#include <stdlib.h>
#include <string.h>

void baseline_free(baseline *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->kernels[i].name);
        free(b->kernels[i].arch);
    }
    free(b->kernels);
    memset(b, 0, sizeof *b);
}

const baseline_kernel *baseline_find(const baseline *b, const char *arch, const char *name)
{
    for (size_t i = 0; i < b->n; i++)
        if (strcmp(b->kernels[i].name, name) == 0 && strcmp(b->kernels[i].arch, arch) == 0)
            return &b->kernels[i];
    return NULL;
}

bool baseline_occupancy_at(const baseline_kernel *k, int block, double *occupancy)
{
    for (int i = 0; i < k->n_at; i++)
        if (k->at[i].block == block) {
            *occupancy = k->at[i].occupancy;
            return true;
        }
    return false;
}
