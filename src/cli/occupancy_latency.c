/* occupancy_latency: Little's law against an SM's warp slots. */
#include "cli/occupancy_latency.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/calc/littlelaw.h"
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
    littlelaw_text(&b, latency, throughput, per_warp, &r, explain);
    for (int i = 0; i < n_targets; i++)
        littlelaw_target_text(&b, targets[i].label, targets[i].arch.max_threads_per_sm / 32, &r);
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
    return EXIT_OK;
}
