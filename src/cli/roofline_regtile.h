/* roofline_regtile: `gpulint roofline --gemm M,N,K --tile T --thread-tile
 * TMxTN`, a register-tiled GEMM's shared-memory traffic and the ceiling it
 * puts beside the compute peak (analysis/regtile). */
#ifndef GPULINT_ROOFLINE_REGTILE_H
#define GPULINT_ROOFLINE_REGTILE_H

#include <jansson.h>
#include <stdbool.h>

#include "analysis/regtile.h"
#include "util/sbuf.h"

/* "8x8" or "8" (square); false for anything else. */
bool roofline_regtile_parse(const char *text, int *tm, int *tn);
/* peak: the compute ceiling the report uses (0 = none given); sm_count and
 * clock_mhz as given to regtile_compute. */
void roofline_regtile_text(const regtile *r, double peak, sbuf *b);
void roofline_regtile_explain(const regtile *r, double peak, int sm_count, double clock_mhz,
                              sbuf *b);
json_t *roofline_regtile_json(const regtile *r, double peak);

#endif
