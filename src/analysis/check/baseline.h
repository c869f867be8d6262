/* baseline: the kernels of a report recorded earlier, as plain records:
 * what `gpulint check --baseline` compares today's kernels with. Read from
 * JSON by input/baseline_json; only the numbers the comparison needs. */
#ifndef GPULINT_BASELINE_H
#define GPULINT_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Occupancy the report recorded at one block size. */
typedef struct baseline_occ_at {
    int block;
    double occupancy;
} baseline_occ_at;

#define BASELINE_AT_MAX 8

typedef struct baseline_kernel {
    char *name; /* mangled */
    char *arch;
    int registers;
    int64_t stack, spill_stores, spill_loads;
    bool has_best; /* false when the arch had no model: no occupancy at all */
    int best_block;
    double best_occupancy;
    int n_at; /* the --block in use, then occupancy_by_block */
    baseline_occ_at at[BASELINE_AT_MAX];
} baseline_kernel;

typedef struct baseline {
    baseline_kernel *kernels;
    size_t n;
} baseline;

void baseline_free(baseline *b);
/* First kernel recorded for this (arch, mangled name), or NULL. */
const baseline_kernel *baseline_find(const baseline *b, const char *arch, const char *name);
/* Occupancy recorded at this block size; false when none was. */
bool baseline_occupancy_at(const baseline_kernel *k, int block, double *occupancy);

#endif
