/* warp_iters: a loop's iterations per warp (all lanes / only some), as JSON
 * fields and in words, for the report and the divergence calculator: "3
 * uniform, 2 divergent in each of the 32 warps", or the classes of warps
 * where they differ. */
#ifndef GPULINT_WARP_ITERS_H
#define GPULINT_WARP_ITERS_H

#include <jansson.h>
#include <stdbool.h>

#include "analysis/warp/divcount.h"
#include "util/sbuf.h"

/* Sets iterations_uniform_per_warp / iterations_divergent_per_warp (null
 * where warps differ) and iterations_per_warp (each class; its "warps" null
 * when !counted: the grid was sampled by block class, not walked). */
void warp_iters_json(json_t *o, const divcount_classes *s, bool counted);
/* Words from those fields: "3 uniform, 2 divergent in each of the 32
 * warps", else "warps differ: 3 uniform + 2 divergent in 28 warps (first:
 * block 0, warp 0); ...". False when o has no per-warp fields. */
bool warp_iters_text(sbuf *out, const json_t *o, long long warps);

#endif
