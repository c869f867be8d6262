/* occ_explain: an occupancy result in words: the worked derivation, the
 * limiters and the advice. Pure: renders into sbufs. */
#ifndef GPULINT_OCC_EXPLAIN_H
#define GPULINT_OCC_EXPLAIN_H

#include "analysis/occupancy/occ.h"
#include "util/sbuf.h"

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

/* What `gpulint occupancy` prints for one target: the summary, or with
 * explain the worked steps. */
typedef struct occ_answer {
    const gpu_arch *arch;
    const char *label; /* "sm_90 (NVIDIA H100 SXM5 80GB)" */
    bool real_gpu;     /* not a --machine: a compiled kernel has registers */
    const occ_kernel *k;
    const occ_launch *l;
    const occ_result *r;
    const char *not_given; /* "registers per thread (--regs)", NULL = all given */
    bool regs_given;
    bool explain;
} occ_answer;

void occ_answer_text(sbuf *b, const occ_answer *in);

#endif
