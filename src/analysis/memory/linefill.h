/* linefill: the share of its lines a global site's requests fill when
 * taken together with its siblings: the sites of the same pointer, in the
 * same loops under the same guard, whose addresses lie a constant apart
 * (`in[i] + in[i + 1] + ... + in[i + 15]` with i = 16 * thread). Each
 * alone touches one sector in two of its lines; together the warp's
 * loads of one iteration ask for every sector of the same lines at once,
 * and DRAM fills them whole (the time model's line fill, ktime.c). Pure:
 * no I/O, no globals. */
#ifndef GPULINT_ANALYSIS_LINEFILL_H
#define GPULINT_ANALYSIS_LINEFILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"
#include "analysis/symbolic/expr.h"

#define LINEFILL_MAX_SIBLINGS 32
/* The share is a mean over requests that repeat with the loops: a few
 * hundred tell it. */
#define LINEFILL_MAX_VISITS 256

/* The byte distances (into apart, at most LINEFILL_MAX_SIBLINGS) from
 * sites[i] to its siblings among sites[0..n); their count. */
int linefill_siblings(const mem_access *const *sites, size_t n, size_t i,
                      int64_t apart[LINEFILL_MAX_SIBLINGS]);

/* The sectors a's requests touch over those of the lines they touch, with
 * each lane's addresses at the `n_apart` distances beside its own, on the
 * interior block of `grid` (its first LINEFILL_MAX_VISITS requests); false
 * where the walk fails. */
bool linefill_share(const mem_access *a, const int64_t *apart, int n_apart, const int64_t grid[3],
                    const int64_t block[3], const expr_env *env, double *share);

#endif
