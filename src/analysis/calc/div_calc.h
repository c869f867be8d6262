/* div_calc: `gpulint divergence` as a calculator (a branch condition or a
 * loop's trips over a block and a grid): the counts and their words, for the
 * command line and the web page alike. */
#ifndef GPULINT_DIV_CALC_H
#define GPULINT_DIV_CALC_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/warp/divcount.h"
#include "util/sbuf.h"

typedef struct div_calc_in {
    const char *cond, *trips; /* exactly one */
    const char *block;        /* required */
    const char *grid;         /* NULL = 1 */
} div_calc_in;

typedef struct div_calc {
    const char *text; /* the expression as given */
    expr *e;
    divcount *r;
} div_calc;

/* False with the command line's one-line message in msg (a usage error). */
bool div_calc_run(const div_calc_in *in, div_calc *out, char *msg, size_t n);
/* What `gpulint divergence` prints; explain adds the first block's warps. */
void div_calc_text(sbuf *out, const div_calc *dc, bool explain);
void div_calc_free(div_calc *dc);

#endif
