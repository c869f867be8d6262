/* launch_calc: `gpulint launch` as a calculator (a problem of W x H x D
 * elements and the block shapes to compare, or common ones and the best
 * found): the candidates, the one recommended and why, and their words, for
 * the command line and the web page alike. */
#ifndef GPULINT_LAUNCH_CALC_H
#define GPULINT_LAUNCH_CALC_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/calc/launchplan.h"
#include "util/sbuf.h"

#define LAUNCH_CALC_MAX 72 /* the shapes a user may give, plus the common ones */

typedef struct launch_calc_in {
    const char *problem;       /* "1000x1000"; required */
    const char *const *blocks; /* shapes to compare; none = common ones and the best found */
    int n_blocks;
    int regs, elem;
    long long smem;
    bool seen_regs, seen_smem;
    const gpu_arch *arch;
    const char *label; /* the target as the command line prints it */
    int sm_count;      /* 0 = no product: no waves */
} launch_calc_in;

typedef enum launch_calc_status {
    LAUNCH_CALC_OK,
    LAUNCH_CALC_USAGE,     /* bad input */
    LAUNCH_CALC_NO_LAUNCH, /* no shape can launch with these resources */
} launch_calc_status;

typedef struct launch_calc {
    launchplan_problem p;
    launchplan_candidate c[LAUNCH_CALC_MAX];
    bool found[LAUNCH_CALC_MAX]; /* the best found by the search */
    int n, rec;
    const char *not_given; /* the resources not given, in words; NULL when all were */
    const char *label;
} launch_calc;

launch_calc_status launch_calc_run(const launch_calc_in *in, launch_calc *out, char *msg, size_t n);
/* Why the recommended shape beats each of the others. */
void launch_calc_reason(sbuf *b, const launch_calc *lc);
/* What `gpulint launch` prints; explain adds each candidate's worked steps. */
void launch_calc_text(sbuf *b, const launch_calc *lc, bool explain);

#endif
