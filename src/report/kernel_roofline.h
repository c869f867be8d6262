/* kernel_roofline: FLOPs and DRAM bytes of a kernel launch, estimated from
 * the front end's per-thread counts (or a `// gpulint: flops=… bytes=…`
 * annotation) times the launch's threads, and the roofline bound they give
 * on a product. Symbolic where values are unknown; `--define NAME=VALUE`
 * binds names. Pure. */
#ifndef GPULINT_KERNEL_ROOFLINE_H
#define GPULINT_KERNEL_ROOFLINE_H

#include <jansson.h>
#include <stdbool.h>

#include "analysis/expr.h"
#include "cusrc/cusrc.h"
#include "model/model.h"
#include "util/sbuf.h"

typedef struct kroof {
    const char *kernel; /* variant name */
    const char *file;
    int line;       /* launch site, or the kernel when there is none */
    bool annotated; /* counts came from a gpulint: comment */
    /* The kernel branches: every arm was counted, so the counts are upper
     * bounds (a reduction's guarded adds count in every iteration). */
    bool upper_bound;
    /* Totals for the launch (or per thread when there is no launch). */
    bool per_thread;
    expr *flops[4];       /* fp16, fp32, fp64, tensor */
    expr *transcendental; /* calls, reported apart from the flops */
    expr *bytes;          /* DRAM bytes requested (loads + stores) */
    expr *accesses;       /* global loads and stores issued by all threads; NULL when annotated */
    bool known;           /* every count evaluated */
    double flops_value[4], transcendental_value, bytes_value, accesses_value;
    /* The launch's threads, when known: the totals over them are the
     * per-thread counts a book asks for (exact averages when threads
     * differ, e.g. a bounds check's idle last block still counted). */
    bool threads_known, accesses_known;
    double threads_value;
    char *unbound; /* first name without a value, when !known */
    /* With a product: */
    bool has_bound;
    double compute_time, memory_time, min_time, ai, attainable;
    bool memory_bound;
    char *why_no_bound;
} kroof;

typedef struct kroof_defines {
    int n;
    const char *names[EXPR_MAX_BINDINGS];
    int64_t values[EXPR_MAX_BINDINGS];
} kroof_defines;

/* Whether counting a branch's every arm is exact: a bounds check or a
 * condition the same for the whole block is (a bounds check's arm counted
 * for every launched thread where its bound is not known); any other is
 * not, unless the arm is an if's or a ?:'s whose condition the launch lets
 * gpulint evaluate thread by thread. */
typedef struct kroof_branches {
    bool ifs_uniform;    /* every if, ?: (and early exit) with work */
    bool others_uniform; /* every switch with work */
} kroof_branches;

/* launch may be NULL (per-thread counts only). product may be NULL.
 * Counts that branches make more than runs are upper bounds, and no time
 * bound is claimed from them. */
void kroof_compute(const cusrc_unit *u, const cusrc_variant *v, const cusrc_launch *launch,
                   const kroof_defines *defs, const gpu_product *product, kroof_branches branches,
                   kroof *out);
void kroof_free(kroof *k);
json_t *kroof_json(const kroof *k);
double kroof_total_flops(const kroof *k); /* every precision, tensor included */
void kroof_text(sbuf *out, const kroof *k);

#endif
