/* occ_report: occupancy results as the JSON contract object, a compact text
 * block. The words (--explain, advice) are analysis/calc/occ_explain.h's. */
#ifndef GPULINT_OCC_REPORT_H
#define GPULINT_OCC_REPORT_H

#include <jansson.h>
#include <stdbool.h>

#include "analysis/occupancy/occ.h"
#include "analysis/calc/occ_explain.h"
#include "util/sbuf.h"

/* The contract object of `gpulint occupancy --format json`. */
json_t *occ_json(const gpu_arch *a, const occ_kernel *k, const occ_launch *l, const occ_result *r);
#endif
