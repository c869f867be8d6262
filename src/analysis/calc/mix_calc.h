/* mix_calc: `gpulint roofline --mix` as a calculator: the speedup of moving
 * parts of a kernel's time to faster precisions (Amdahl's law), and the
 * share a target speedup needs; for the command line and the web page. */
#ifndef GPULINT_MIX_CALC_H
#define GPULINT_MIX_CALC_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/calc/mixprec.h"
#include "util/sbuf.h"

typedef struct mix_calc {
    mixprec_part parts[MIXPREC_MAX_PARTS];
    int n;
    double speedup;
    double target; /* <= 0: none */
    double fast;   /* the fastest part's rate */
    double need;   /* the share of the time at `fast` the target needs */
    bool reachable;
} mix_calc;

/* parts: "0.7@3", "20%@1" ... (fraction of the time @ relative rate).
 * False with the command line's message (a usage error). */
bool mix_calc_run(const char *const *parts, int n, double target, mix_calc *out, char *msg,
                  size_t msg_size);
void mix_calc_text(sbuf *b, const mix_calc *m, bool explain);

#endif
