/* coal_calc: `gpulint coalesce` as a calculator (a stride or an element
 * index over a block): the analysis and its words, for the command line and
 * the web page alike. */
#ifndef GPULINT_COAL_CALC_H
#define GPULINT_COAL_CALC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/cexpr.h"
#include "analysis/warp/coalesce.h"
#include "util/sbuf.h"

/* What is analysed, in the user's terms. */
typedef struct coal_case {
    const char *access; /* --access, or NULL for --stride */
    int64_t stride, offset;
    int elem;
    int64_t block[3];
    expr *bytes; /* each lane's byte offset from the array's (aligned) base */
} coal_case;

typedef struct coal_calc_in {
    bool seen_stride;
    int64_t stride, offset; /* elements */
    int elem;               /* bytes per lane (default 4) */
    const char *access;     /* NULL unless given */
    const char *block;      /* NULL = one warp */
} coal_calc_in;

typedef struct coal_calc {
    coal_case c;
    coalesce_result r;
} coal_calc;

/* False with the command line's one-line message in msg (a usage error). */
bool coal_calc_run(const coal_calc_in *in, coal_calc *out, char *msg, size_t n);
/* What `gpulint coalesce` prints; explain adds each lane's address and sector. */
void coal_calc_text(sbuf *out, const coal_calc *cc, bool want_explain);
void coal_calc_free(coal_calc *cc);

#endif
