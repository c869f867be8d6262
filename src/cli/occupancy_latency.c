/* occupancy_latency: Little's law against an SM's warp slots. */
#include "cli/occupancy_latency.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/littlelaw.h"
#include "cli/cli.h"
#include "util/sbuf.h"

int occupancy_latency(double latency, double throughput, double per_warp, const target *targets,
                      int n_targets, bool explain, bool json)
{
    littlelaw r;
    char why[128];
    if (!littlelaw_solve(latency, throughput, per_warp, &r, why, sizeof why))
        return diag_error(EXIT_USAGE, "--latency/--throughput: %s", why);
    if (json) {
        json_t *ts = json_array();
        for (int i = 0; i < n_targets; i++) {
            int max_warps = targets[i].arch.max_threads_per_sm / 32;
            json_array_append_new(ts,
                                  json_pack("{s:s, s:i, s:f, s:b}", "arch", targets[i].arch.name,
                                            "max_warps_per_sm", max_warps, "occupancy_needed",
                                            max_warps > 0 ? (double)r.warps_whole / max_warps : 0.0,
                                            "fits", r.warps_whole <= max_warps));
        }
        json_t *o =
            json_pack("{s:f, s:f, s:f, s:f, s:f, s:I, s:o}", "latency", latency, "throughput",
                      throughput, "per_warp", per_warp, "in_flight", r.in_flight, "warps", r.warps,
                      "warps_needed", (json_int_t)r.warps_whole, "targets", ts);
        cli_put_json(o);
        return EXIT_OK;
    }
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "in flight: %.6g cycles x %.6g per cycle = %.6g\n", latency, throughput,
              r.in_flight);
    sbuf_addf(&b, "warps needed: %.6g / %.6g per warp = %.6g", r.in_flight, per_warp, r.warps);
    if ((double)r.warps_whole != r.warps)
        sbuf_addf(&b, ", %ld whole warps", r.warps_whole);
    sbuf_addc(&b, '\n');
    if (explain)
        sbuf_add(&b, "  Little's law: a unit that finishes N operations per cycle, each taking\n"
                     "  L cycles to complete, is busy only while L x N operations are in flight;\n"
                     "  a warp instruction carries the given operations per warp, so that many\n"
                     "  warps must be ready to issue. Fewer, and the unit idles; the rest can\n"
                     "  come from independent instructions within a warp (ILP) instead.\n");
    for (int i = 0; i < n_targets; i++) {
        int max_warps = targets[i].arch.max_threads_per_sm / 32;
        if (max_warps <= 0)
            continue;
        if (r.warps_whole <= max_warps)
            sbuf_addf(&b, "%s: an SM holds %d warps; %ld needed is %.1f%% occupancy\n",
                      targets[i].label, max_warps, r.warps_whole,
                      100.0 * (double)r.warps_whole / max_warps);
        else
            sbuf_addf(&b,
                      "%s: an SM holds %d warps, fewer than the %ld needed: warps alone cannot "
                      "hide this latency (add independent instructions per warp)\n",
                      targets[i].label, max_warps, r.warps_whole);
    }
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
    return EXIT_OK;
}
