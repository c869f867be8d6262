/* occupancy_latency: `gpulint occupancy --latency C --throughput N`, the
 * warps needed to hide a latency (analysis/calc/littlelaw) against the warps an
 * SM of each target holds. */
#ifndef GPULINT_OCCUPANCY_LATENCY_H
#define GPULINT_OCCUPANCY_LATENCY_H

#include <stdbool.h>

#include "cli/target_opts.h"

/* per_warp: operations one warp instruction issues (1 when the throughput
 * is in warp instructions per cycle, 32 when it is in thread operations).
 * Returns an exit code. */
int occupancy_latency(double latency, double throughput, double per_warp, const target *targets,
                      int n_targets, bool explain, bool json);

#endif
