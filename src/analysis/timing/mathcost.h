/* mathcost: the floating-point instructions a division or a math-library
 * call becomes once nvcc has compiled it, as FLOPs the way Nsight Compute
 * counts them (FADD, FMUL 1; FFMA 2; likewise DADD, DMUL, DFMA). An IEEE
 * `a / b` is MUFU.RCP and five FFMAs (10 FP32 FLOPs), expf ten, powf 61:
 * a count of one per call is not what runs. Measured per call on an H100
 * under Nsight Compute (scripts/mathprobe, recorded in
 * tests/data/mathprobe). Pure. */
#ifndef GPULINT_MATHCOST_H
#define GPULINT_MATHCOST_H

#include <stdbool.h>

/* The nvcc flags that change what a call compiles into. */
typedef enum math_mode {
    MATH_DEFAULT, /* IEEE division and square root, denormals kept */
    MATH_FTZ,     /* -ftz=true */
    MATH_APPROX,  /* -prec-div=false and/or -prec-sqrt=false */
    MATH_FAST,    /* --use_fast_math: all of these and the __expf-style intrinsics */
    MATH_MODES
} math_mode;

typedef struct math_cost {
    /* Per call, over the measured arguments: the least and the most. They
     * differ where the call's path depends on its argument (sinf's range
     * reduction, erff's two polynomials). */
    double fp32_lo, fp32_hi, fp64_lo, fp64_hi;
} math_cost;

/* op: a function name ("expf", "__fdividef", "exp" on double), or one of
 * the division forms "div" (a / b), "rcp" (1 / b), "div_const" (a
 * constant divisor that is not a power of two); fp64: the precision of
 * the operation (selects "div" on double, "sqrt" on double). False when
 * gpulint has no measurement for it. */
bool mathcost_find(const char *op, bool fp64, math_mode mode, math_cost *out);

#endif
