/* littlelaw: see littlelaw.h. */
#include "analysis/littlelaw.h"

#include <math.h>
#include <stdio.h>

bool littlelaw_solve(double latency, double throughput, double per_warp, littlelaw *out, char *why,
                     size_t why_size)
{
    const double v[3] = {latency, throughput, per_warp};
    const char *names[3] = {"latency", "throughput", "operations per warp"};
    for (int i = 0; i < 3; i++)
        if (!(v[i] > 0) || !isfinite(v[i])) {
            snprintf(why, why_size, "%s must be a positive number", names[i]);
            return false;
        }
    out->in_flight = latency * throughput;
    out->warps = out->in_flight / per_warp;
    if (out->warps > 1e12) {
        snprintf(why, why_size, "more than 10^12 warps: check the units");
        return false;
    }
    /* A warp is whole; 1e-9 absorbs the rounding of decimal inputs. */
    out->warps_whole = (long)ceil(out->warps - 1e-9);
    return true;
}
