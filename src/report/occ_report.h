/* occ_report: occupancy results as the JSON contract object, a compact text
 * block, the worked derivation (--explain) and advice sentences. Pure:
 * renders into jansson objects and sbufs. */
#ifndef GPULINT_OCC_REPORT_H
#define GPULINT_OCC_REPORT_H

#include <jansson.h>
#include <stdbool.h>

#include "analysis/occ.h"
#include "util/sbuf.h"

/* The contract object of `gpulint occupancy --format json`. */
json_t *occ_json(const gpu_arch *a, const occ_kernel *k, const occ_launch *l, const occ_result *r);
/* "cap registers at 32 with `__launch_bounds__(256, 8)` or `-maxrregcount=32` -> 100%" */
void occ_advice_text(sbuf *out, const occ_advice *adv, const occ_launch *l);
/* Limiters as "registers, shared memory". */
void occ_limiters_text(sbuf *out, unsigned limiters);
/* Worked steps a student would write, with every rounding. */
void occ_explain(sbuf *out, const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                 const occ_result *r);
/* The same arch without allocation units, reserved bytes or sub-partitions:
 * what per-thread textbook arithmetic assumes. */
gpu_arch occ_textbook_variant(const gpu_arch *a);

#endif
