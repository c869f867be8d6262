/* cmd_divergence: `gpulint divergence`, the divergence calculator of the
 * textbooks: a branch condition (--cond) or a per-thread trip count
 * (--trips) over threadIdx/blockIdx, counted over every warp of a launch
 * by analysis/warp/divcount; --explain shows each warp of the first block, and
 * for loops the lanes by trip count and the regrouping that removes the
 * divergence. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calc/div_calc.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "report/warp_iters.h"
#include "analysis/symbolic/cexpr.h"
#include "util/sbuf.h"
#include "util/units.h"

typedef struct div_args {
    const char *cond, *trips, *block, *grid, *format;
    bool explain, help;
} div_args;

static json_t *dims_json(const int64_t d[3])
{
    return json_pack("[I, I, I]", (json_int_t)d[0], (json_int_t)d[1], (json_int_t)d[2]);
}

static void print_json(const div_args *a, const divcount *r)
{
    json_t *eff = json_array();
    for (int w = 0; w < r->warps_per_block; w++)
        json_array_append_new(eff, r->first_efficiency[w] < 0 ? json_null()
                                                              : json_real(r->first_efficiency[w]));
    json_t *o = json_pack(
        "{s:s, s:s, s:o, s:o, s:i, s:I, s:b, s:I, s:I, s:o, s:o}", "kind",
        r->loop ? "loop" : "branch", "expression", r->loop ? a->trips : a->cond, "block",
        dims_json(r->block), "grid", dims_json(r->grid), "warps_per_block", r->warps_per_block,
        "warps_in_grid", (json_int_t)r->warps_in_grid, "every_block_evaluated", r->every_block,
        "warps_entering", (json_int_t)r->taken.warps_entering, "warps_divergent",
        (json_int_t)r->warps_divergent, "warp_efficiency", eff, "simd_efficiency", json_null());
    /* No warp on the path: there is no efficiency to speak of. */
    if (r->taken.warps_entering)
        json_object_set_new(o, "simd_efficiency", json_real(r->taken.simd_efficiency));
    if (r->loop) {
        json_object_set_new(o, "iterations_uniform", json_integer(r->iterations_uniform));
        json_object_set_new(o, "iterations_divergent", json_integer(r->iterations_divergent));
        warp_iters_json(o, &r->per_warp, true);
        json_object_set_new(o, "min_trips", json_integer(r->min_trips));
        json_object_set_new(o, "max_trips", json_integer(r->max_trips));
        json_t *lanes = json_array();
        for (int l = 0; l < r->first_lanes[0]; l++)
            json_array_append_new(lanes, json_integer(r->first_trips[l]));
        json_object_set_new(o, "first_warp_trips", lanes);
        json_object_set_new(
            o, "regrouped",
            json_pack("{s:f, s:o}", "simd_efficiency", r->regrouped_efficiency, "full_block",
                      r->regroup_full_block ? json_integer(r->regroup_full_block) : json_null()));
    } else
        json_object_set_new(
            o, "else",
            json_pack("{s:I, s:o}", "warps_entering", (json_int_t)r->other.warps_entering,
                      "simd_efficiency",
                      r->other.warps_entering ? json_real(r->other.simd_efficiency) : json_null()));
    cli_put_json(o);
}

int cmd_divergence(int argc, char **argv)
{
    div_args a = {.format = "text", .grid = "1"};
    const opt_spec specs[] = {
        {"cond", 'c', OPT_STRING, &a.cond, NULL, "EXPR",
         "branch condition over threadIdx/blockIdx, e.g. \"threadIdx.x % 2 == 0\""},
        {"trips", 't', OPT_STRING, &a.trips, NULL, "EXPR",
         "loop iterations per thread, e.g. \"(threadIdx.x % 4) + 1\""},
        {"block", 'b', OPT_STRING, &a.block, NULL, "XxYxZ", "block size, e.g. 128 or 16x16"},
        {"grid", 'g', OPT_STRING, &a.grid, NULL, "XxYxZ", "grid size (default 1)"},
        {"explain", 'e', OPT_FLAG, &a.explain, NULL, NULL, "show every warp of the first block"},
        {"format", 'f', OPT_STRING, &a.format, NULL, "text|json", "output format"},
        {"help", 'h', OPT_FLAG, &a.help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    int rc = opt_parse_command(
        "divergence", specs, argc, argv,
        "gpulint divergence (--cond EXPR | --trips EXPR) --block XxYxZ [--grid XxYxZ] "
        "[--explain] [--format json]",
        &a.help, &a.format);
    if (rc >= 0)
        return rc;
    div_calc_in in = {.cond = a.cond, .trips = a.trips, .block = a.block, .grid = a.grid};
    div_calc dc;
    char msg[768];
    if (!div_calc_run(&in, &dc, msg, sizeof msg)) {
        rc = diag_error(EXIT_USAGE, "%s", msg);
    } else if (strcmp(a.format, "json") == 0) {
        rc = EXIT_OK;
        print_json(&a, dc.r);
    } else {
        rc = EXIT_OK;
        sbuf b;
        sbuf_init(&b);
        div_calc_text(&b, &dc, a.explain);
        fputs(sbuf_str(&b), stdout);
        sbuf_free(&b);
    }
    div_calc_free(&dc);
    return rc;
}
