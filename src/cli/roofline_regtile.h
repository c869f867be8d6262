/* roofline_regtile: `gpulint roofline --gemm M,N,K --tile T --thread-tile
 * TMxTN`, a register-tiled GEMM's shared-memory traffic and the ceiling it
 * puts beside the compute peak (analysis/calc/regtile). */
#ifndef GPULINT_ROOFLINE_REGTILE_H
#define GPULINT_ROOFLINE_REGTILE_H

#include <jansson.h>

#include "analysis/calc/regtile.h"

json_t *roofline_regtile_json(const regtile *r, double peak);

#endif
