/* roofline_mix: `gpulint roofline --mix --format json`. */
#ifndef GPULINT_ROOFLINE_MIX_H
#define GPULINT_ROOFLINE_MIX_H

#include "analysis/calc/mix_calc.h"

void roofline_mix_json(const mix_calc *m);

#endif
