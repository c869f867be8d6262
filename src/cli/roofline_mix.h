/* roofline_mix: `gpulint roofline --mix`, the mixed-precision speedup
 * calculator (analysis/mixprec), apart from the roofline itself. */
#ifndef GPULINT_ROOFLINE_MIX_H
#define GPULINT_ROOFLINE_MIX_H

#include <stdbool.h>

#include "cli/opt.h"

/* mix: "0.7@3", "20%@1" ... (fraction of the time @ relative rate).
 * target: the speedup to reach, <= 0 = none. Returns an exit code. */
int roofline_mix(const opt_list *mix, double target, bool explain, bool json);

#endif
