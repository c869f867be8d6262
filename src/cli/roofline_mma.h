/* roofline_mma: `gpulint roofline --gemm M,N,K --mma SHAPE --format json`. */
#ifndef GPULINT_ROOFLINE_MMA_H
#define GPULINT_ROOFLINE_MMA_H

#include "analysis/calc/mma_calc.h"

void roofline_mma_json(const mma_calc *m);

#endif
