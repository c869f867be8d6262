/* roof_calc: `gpulint roofline` as a calculator: the ceilings (a product's,
 * per precision, or a given peak and bandwidth), the points (--ai, a
 * kernel's --flops/--bytes, a tiled GEMM with or without a register tile),
 * a Tensor Core GEMM (--mma) and mixed precision (--mix); which options go
 * together, in the command line's words; and the text it prints. For the
 * command line and the web page alike: the caller finds the product. */
#ifndef GPULINT_ROOF_CALC_H
#define GPULINT_ROOF_CALC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/calc/mix_calc.h"
#include "analysis/calc/mma_calc.h"
#include "analysis/calc/regtile.h"
#include "analysis/timing/roofline.h"
#include "util/sbuf.h"

#define ROOF_CALC_LIST_MAX 64
#define ROOF_CALC_MAX_POINTS (ROOF_CALC_LIST_MAX + 2)

/* The options as given; lists as split on commas. */
typedef struct roof_calc_in {
    double peak, bw, flops, bytes, target_speedup, measured;
    bool seen_peak, seen_bw, seen_flops, seen_bytes, seen_target, seen_measured;
    const char *const *ai, *const *labels, *const *precisions, *const *gemm, *const *mix;
    int n_ai, n_labels, n_precisions, n_gemm, n_mix;
    const char *mma, *thread_tile, *tile_text; /* --tile T or TMxTN */
    bool seen_tile, seen_elem;
    int elem;
    const char *gpu, *clock, *source;
    bool models_given; /* --models DIR */
    bool plot;         /* --plot FILE */
    /* Why the --plot file cannot be written (the caller's check: its
     * extension, a build without charts); NULL when it can or none is given. */
    const char *plot_error;
} roof_calc_in;

typedef enum roof_calc_status {
    ROOF_CALC_OK,
    ROOF_CALC_USAGE, /* options that do not go together, a bad value */
    ROOF_CALC_MODEL, /* the product has no figure for a precision */
} roof_calc_status;

/* One row of the report: an AI alone, or a kernel with its work. */
typedef struct roof_calc_point {
    char label[64];
    bool has_work;
    roof_kernel k; /* k.point is valid for every row */
} roof_calc_point;

typedef struct roof_calc_ceiling {
    model_precision prec;
    roof_ceilings c;
} roof_calc_ceiling;

typedef struct roof_calc {
    bool is_mix, is_mma;
    mix_calc mix;
    mma_calc mma;
    roof_clock clock;
    roof_prefer prefer;
    bool have_ceilings;
    const gpu_product *prod; /* with --gpu */
    roof_calc_ceiling cs[PREC_COUNT];
    int nc;
    double peak, bw; /* the first precision's, or as given */
    double ais[ROOF_CALC_LIST_MAX];
    mma_shape shape;
    int64_t mma_dims[3];
    int tile, tile_m, tile_n; /* --tile; tile = 0 when not square */
    int thread_m, thread_n;   /* --thread-tile */
    roof_gemm gemm;
    bool has_gemm;
    regtile rt;
    bool has_regtile;
    roof_calc_point pts[ROOF_CALC_MAX_POINTS];
    int np;
} roof_calc;

/* Reads and checks the options; --mix is answered here. Then, unless
 * rc->is_mix, the caller finds in->gpu's product (if given) and calls
 * roof_calc_run. */
roof_calc_status roof_calc_check(const roof_calc_in *in, roof_calc *rc, char *msg, size_t n);
/* The ceilings from prod (NULL without --gpu) and the answer. */
roof_calc_status roof_calc_run(const roof_calc_in *in, roof_calc *rc, const gpu_product *prod,
                               char *msg, size_t n);
/* What `gpulint roofline` prints; explain puts the worked steps first. */
void roof_calc_text(sbuf *b, const roof_calc *rc, bool explain);
/* "FP16 Tensor Core" for fp16-tensor, "FP32" for fp32: a chart's legend. */
const char *roof_calc_prec_title(model_precision p, char *buf, size_t n);

#endif
