/* baseline_json: a report recorded earlier by `gpulint FILE.cu --format json`
 * (or `gpulint check --write-baseline`), read back so `gpulint check
 * --baseline` can compare today's kernels with it. Only the numbers the
 * comparison needs are kept. */
#ifndef GPULINT_BASELINE_JSON_H
#define GPULINT_BASELINE_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/check/baseline.h"

/* Pure: the report's `kernels`. The contract fields (name, arch, registers,
 * stack, spill_stores, spill_loads) are required; occupancy fields are
 * optional. On failure err names the element ("kernels[2]: 'registers' is
 * missing or not a non-negative integer"). */
bool baseline_from_json(const json_t *root, baseline *out, char *err, size_t errlen);
/* Reads a file. err is a whole message: "PATH:LINE:COLUMN: invalid JSON: ..."
 * for syntax errors, "PATH: ..." otherwise. */
bool baseline_load(const char *path, baseline *out, char *err, size_t errlen);

#endif
