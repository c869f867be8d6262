/* littlelaw: see littlelaw.h. */
#include "analysis/calc/littlelaw.h"

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

void littlelaw_text(sbuf *b, double latency, double throughput, double per_warp, const littlelaw *r,
                    bool explain)
{
    sbuf_addf(b, "in flight: %.6g cycles x %.6g per cycle = %.6g\n", latency, throughput,
              r->in_flight);
    sbuf_addf(b, "warps needed: %.6g / %.6g per warp = %.6g", r->in_flight, per_warp, r->warps);
    if ((double)r->warps_whole != r->warps)
        sbuf_addf(b, ", %ld whole warps", r->warps_whole);
    sbuf_addc(b, '\n');
    if (explain)
        sbuf_add(b, "  Little's law: a unit that finishes N operations per cycle, each taking\n"
                    "  L cycles to complete, is busy only while L x N operations are in flight;\n"
                    "  a warp instruction carries the given operations per warp, so that many\n"
                    "  warps must be ready to issue. Fewer, and the unit idles; the rest can\n"
                    "  come from independent instructions within a warp (ILP) instead.\n");
}

void littlelaw_target_text(sbuf *b, const char *label, int max_warps, const littlelaw *r)
{
    if (max_warps <= 0)
        return;
    if (r->warps_whole <= max_warps)
        sbuf_addf(b, "%s: an SM holds %d warps; %ld needed is %.1f%% occupancy\n", label, max_warps,
                  r->warps_whole, 100.0 * (double)r->warps_whole / max_warps);
    else
        sbuf_addf(b,
                  "%s: an SM holds %d warps, fewer than the %ld needed: warps alone cannot "
                  "hide this latency (add independent instructions per warp)\n",
                  label, max_warps, r->warps_whole);
}
