/* baseline: a report recorded earlier by `gpulint FILE.cu --format json`
 * (or `gpulint check --write-baseline`), read back so `gpulint check
 * --baseline` can compare today's kernels with it. Only the numbers the
 * comparison needs are kept. */
#ifndef GPULINT_BASELINE_H
#define GPULINT_BASELINE_H

#include <jansson.h>
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

/* Pure: the report's `kernels`. The contract fields (name, arch, registers,
 * stack, spill_stores, spill_loads) are required; occupancy fields are
 * optional. On failure err names the element ("kernels[2]: 'registers' is
 * missing or not a non-negative integer"). */
bool baseline_from_json(const json_t *root, baseline *out, char *err, size_t errlen);
/* Reads a file. err is a whole message: "PATH:LINE:COLUMN: invalid JSON: ..."
 * for syntax errors, "PATH: ..." otherwise. */
bool baseline_load(const char *path, baseline *out, char *err, size_t errlen);
void baseline_free(baseline *b);
/* First kernel recorded for this (arch, mangled name), or NULL. */
const baseline_kernel *baseline_find(const baseline *b, const char *arch, const char *name);
/* Occupancy recorded at this block size; false when none was. */
bool baseline_occupancy_at(const baseline_kernel *k, int block, double *occupancy);

#endif
