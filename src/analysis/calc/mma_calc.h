/* mma_calc: `gpulint roofline --gemm M,N,K --mma SHAPE` as a calculator: a
 * Tensor Core GEMM as fragments against the roofline, in words, for the
 * command line and the web page. */
#ifndef GPULINT_MMA_CALC_H
#define GPULINT_MMA_CALC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/calc/mmaplan.h"
#include "util/sbuf.h"

typedef struct mma_calc {
    mma_shape shape;
    const char *precision; /* the Tensor Core precision; NULL with --peak/--bw */
    int in_elem, out_elem;
    double measured; /* a measured rate, 0 = none */
    char what[256];  /* "NVIDIA A100 SXM4 80GB, fp16-tensor" or "--peak/--bw, ..." */
    mmaplan r;
    mma_lanes lanes;
} mma_calc;

/* Operand and result bytes for a Tensor Core precision ("fp16-tensor"):
 * false for one without Tensor Cores. */
bool mma_calc_elems(const char *precision, int *in_elem, int *out_elem);
/* False with the command line's message (a usage error). */
bool mma_calc_run(const int64_t dims[3], const mma_shape *s, const char *precision, int in_elem,
                  int out_elem, double peak, double bandwidth, const char *what, double measured,
                  mma_calc *out, char *msg, size_t msg_size);
void mma_calc_text(sbuf *b, const mma_calc *m, bool explain);

#endif
