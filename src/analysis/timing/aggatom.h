/* aggatom: the PTX atomics ptxas turns into one reduction a warp. An
 * `atom.global.add` (or `red`) of a 32-bit integer whose result nothing
 * reads, at an address every lane of the warp holds alike, becomes on
 * sm_80 and later S2R of the lane id, REDUX.SUM, VOTEU.ANY, UFLO, a move,
 * an ISETP and one predicated REDG: seven warp instructions where the PTX
 * has one (ptxas of CUDA 13.0 for sm_90: HeCBench's all-pairs-distance,
 * atomicReduction, accuracy and mr in tests/data/hecbench/sass). A
 * constant's add is taken at the same length (not seen in those
 * listings). Pure. */
#ifndef GPULINT_ANALYSIS_AGGATOM_H
#define GPULINT_ANALYSIS_AGGATOM_H

#include <stddef.h>

#include "analysis/timing/imix.h"

/* The warp instructions ptxas adds to each aggregated atomic. */
#define AGGATOM_EXTRA 6

/* Sets aggregated on each such instruction of one PTX function's in[0..n). */
void aggatom_mark(imix_insn *in, size_t n);

#endif
