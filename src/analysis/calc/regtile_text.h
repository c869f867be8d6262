/* regtile_text: `gpulint roofline --gemm M,N,K --tile T --thread-tile
 * TMxTN` in words: a register-tiled GEMM's shared-memory traffic and the
 * ceiling it puts beside the compute peak (analysis/calc/regtile computes them). */
#ifndef GPULINT_REGTILE_TEXT_H
#define GPULINT_REGTILE_TEXT_H

#include <stdbool.h>

#include "analysis/calc/regtile.h"
#include "util/sbuf.h"

/* "8x8" or "8" (square); false for anything else. */
bool regtile_parse_shape(const char *text, int *tm, int *tn);
/* peak: the compute ceiling the report uses (0 = none given); sm_count and
 * clock_mhz as given to regtile_compute. */
void regtile_text(const regtile *r, double peak, sbuf *b);
void regtile_explain(const regtile *r, double peak, int sm_count, double clock_mhz, sbuf *b);

#endif
