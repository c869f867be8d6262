/* roofline_mma: `gpulint roofline --gemm M,N,K --mma SHAPE`, a Tensor Core
 * GEMM as fragments against the roofline (analysis/mmaplan). */
#ifndef GPULINT_ROOFLINE_MMA_H
#define GPULINT_ROOFLINE_MMA_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/mmaplan.h"

/* what: "NVIDIA A100 SXM4 80GB, fp16-tensor" or "--peak/--bw". Returns an
 * exit code. */
/* precision: the Tensor Core precision, or NULL with --peak/--bw. */
int roofline_mma(const int64_t dims[3], const mma_shape *s, const char *precision, int in_elem,
                 int out_elem, double peak, double bandwidth, const char *what, double measured,
                 bool explain, bool json);

/* Operand and result bytes for a Tensor Core precision ("fp16-tensor"):
 * false for one without Tensor Cores. */
bool roofline_mma_elems(const char *precision, int *in_elem, int *out_elem);

#endif
