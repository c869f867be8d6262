/* cmd_divergence: `gpulint divergence`, the divergence calculator of the
 * textbooks: a branch condition (--cond) or a per-thread trip count
 * (--trips) over threadIdx/blockIdx, counted over every warp of a launch
 * by analysis/divcount; --explain shows each warp of the first block, and
 * for loops the lanes by trip count and the regrouping that removes the
 * divergence. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/divcount.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "report/warp_iters.h"
#include "analysis/cexpr.h"
#include "util/sbuf.h"
#include "util/units.h"

typedef struct div_args {
    const char *cond, *trips, *block, *grid, *format;
    bool explain, help;
} div_args;

static double pct(double x)
{
    return 100.0 * x;
}

static void dims_text(sbuf *b, const int64_t d[3])
{
    sbuf_addf(b, "%lld", (long long)d[0]);
    if (d[1] > 1 || d[2] > 1)
        sbuf_addf(b, "x%lld", (long long)d[1]);
    if (d[2] > 1)
        sbuf_addf(b, "x%lld", (long long)d[2]);
}

/* "0, 4, 8, ..., 28" for the lanes of the first warp with this trip count. */
static void lanes_with(sbuf *b, const divcount *r, int64_t trips)
{
    int lanes[32], n = 0;
    for (int l = 0; l < r->first_lanes[0]; l++)
        if (r->first_trips[l] == trips)
            lanes[n++] = l;
    for (int i = 0; i < n; i++) {
        if (n > 6 && i == 3) {
            sbuf_add(b, ", ...");
            i = n - 1;
        }
        sbuf_addf(b, "%s%d", i ? ", " : "", lanes[i]);
    }
    sbuf_addf(b, " (%d lane%s)", n, n == 1 ? "" : "s");
}

static void print_text(const div_args *a, const divcount *r)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s: %s\n", r->loop ? "trips" : "condition", r->loop ? a->trips : a->cond);
    sbuf_add(&b, "launch: grid ");
    dims_text(&b, r->grid);
    sbuf_add(&b, " x block ");
    dims_text(&b, r->block);
    sbuf_addf(&b, ": %lld warp%s in the grid (%d per block)\n\n", (long long)r->warps_in_grid,
              r->warps_in_grid == 1 ? "" : "s", r->warps_per_block);
    if (r->loop) {
        sbuf_addf(&b, "warps that run the loop:   %lld\n", (long long)r->taken.warps_entering);
        sbuf_addf(&b, "warps that diverge:        %lld\n", (long long)r->warps_divergent);
        /* Per warp, as a textbook asks, beside the sums over the grid. */
        json_t *pw = json_object();
        warp_iters_json(pw, &r->per_warp, true);
        if (divcount_classes_agree(&r->per_warp) && r->warps_in_grid == 1) {
            sbuf_addf(&b, "iterations, all lanes:     %lld (the grid's one warp)\n",
                      (long long)r->iterations_uniform);
            sbuf_addf(&b, "iterations, some lanes:    %lld\n", (long long)r->iterations_divergent);
        } else if (divcount_classes_agree(&r->per_warp)) {
            sbuf_addf(&b,
                      "iterations, all lanes:     %lld per warp, in each of the %lld warps (%lld "
                      "summed over warps)\n",
                      (long long)r->per_warp.c[0].uniform, (long long)r->warps_in_grid,
                      (long long)r->iterations_uniform);
            sbuf_addf(&b, "iterations, some lanes:    %lld per warp (%lld summed)\n",
                      (long long)r->per_warp.c[0].divergent, (long long)r->iterations_divergent);
        } else {
            sbuf_addf(&b, "iterations, all lanes:     %lld (summed over warps)\n",
                      (long long)r->iterations_uniform);
            sbuf_addf(&b, "iterations, some lanes:    %lld\n", (long long)r->iterations_divergent);
            sbuf_add(&b, "iterations per warp:       ");
            warp_iters_text(&b, pw, (long long)r->warps_in_grid);
            sbuf_addc(&b, '\n');
        }
        json_decref(pw);
        sbuf_addf(&b, "SIMD efficiency:           %.1f%% (%lld lane-iterations / (32 x %lld))\n",
                  pct(r->taken.simd_efficiency), (long long)r->lane_trips_sum,
                  (long long)r->warp_trips_sum);
        sbuf_addf(&b, "regrouped by trip count:   %.1f%% in this block",
                  pct(r->regrouped_efficiency));
        if (r->regrouped_efficiency < 1.0 && r->regroup_full_block)
            sbuf_addf(&b, "; 100%% from a block of %d threads", r->regroup_full_block);
        sbuf_addc(&b, '\n');
    } else {
        sbuf_add(&b, "path       warps entering  SIMD efficiency\n");
        const divcount_path *paths[2] = {&r->taken, &r->other};
        for (int i = 0; i < 2; i++) {
            sbuf_addf(&b, "%-10s %14lld  ", i ? "else" : "then",
                      (long long)paths[i]->warps_entering);
            if (paths[i]->warps_entering)
                sbuf_addf(&b, "%14.1f%%\n", pct(paths[i]->simd_efficiency));
            else
                sbuf_addf(&b, "%15s\n", "-");
        }
        sbuf_addf(&b, "warps that diverge (run both paths): %lld of %lld\n",
                  (long long)r->warps_divergent, (long long)r->warps_in_grid);
    }
    if (a->explain) {
        sbuf_add(&b, "\nhow:\n");
        sbuf_addf(&b,
                  "  A warp is 32 consecutive threads of a block (x fastest): %d warp%s per "
                  "block, %lld in all.\n",
                  r->warps_per_block, r->warps_per_block == 1 ? "" : "s",
                  (long long)r->warps_in_grid);
        sbuf_add(&b, r->every_block
                         ? "  The expression reads blockIdx/gridDim: every block was evaluated.\n"
                         : "  The expression reads no block index: every block behaves as block "
                           "0, whose warps follow.\n");
        for (int w = 0; w < r->warps_per_block; w++) {
            int lo = w * 32, hi = lo + r->first_lanes[w] - 1;
            if (r->first_taken[w] < 0)
                sbuf_addf(&b, "  warp %d (threads %d-%d): no lane %s: the warp skips it\n", w, lo,
                          hi, r->loop ? "runs the loop" : "takes the then-path");
            else if (r->loop)
                sbuf_addf(&b, "  warp %d (threads %d-%d): %d of %d lanes run the loop: %.1f%%\n", w,
                          lo, hi, r->first_taken[w], r->first_lanes[w],
                          pct(r->first_efficiency[w]));
            else
                sbuf_addf(&b, "  warp %d (threads %d-%d): %d of %d lanes %s: %.1f%% of 32%s\n", w,
                          lo, hi, r->first_taken[w], r->first_lanes[w],
                          r->loop ? "run the loop" : "take the then-path",
                          pct(r->first_efficiency[w]),
                          r->first_taken[w] < r->first_lanes[w] && !r->loop
                              ? ", and it also runs the else-path: divergent"
                              : "");
        }
        if (r->loop) {
            sbuf_add(&b, "  Lanes of warp 0 by trip count:\n");
            int64_t seen[32];
            int n_seen = 0;
            for (int l = 0; l < r->first_lanes[0]; l++) {
                bool dup = false;
                for (int i = 0; i < n_seen; i++)
                    dup |= seen[i] == r->first_trips[l];
                if (dup)
                    continue;
                int64_t t = r->first_trips[l];
                seen[n_seen++] = t;
                sbuf_addf(&b, "    %lld iteration%s: lanes ", (long long)t, t == 1 ? "" : "s");
                lanes_with(&b, r, t);
                sbuf_addc(&b, '\n');
            }
            sbuf_add(&b, "  A warp runs the body max(trips) times with only the lanes still "
                         "looping enabled, so\n  efficiency = sum of trips / (32 x sum over "
                         "warps of max trips).\n");
            sbuf_add(&b, "  Regrouping puts threads of equal trips in the same warps (sort by "
                         "trips, 32 to a\n  warp); it needs as many threads of each count as "
                         "fill a warp.\n");
        } else
            sbuf_add(&b, "  A path costs one warp execution per warp with at least one lane on "
                         "it; its SIMD\n  efficiency is the lanes on it / (32 x those warps).\n");
    }
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
}

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
    if (!a.cond == !a.trips)
        return diag_error(EXIT_USAGE, "give one of --cond (a branch) or --trips (a loop)");
    if (!a.block)
        return diag_error(EXIT_USAGE, "--block is needed: warps are made from the block's threads");
    int bd[3], gd[3];
    if (!units_parse_dim3(a.block, bd) || bd[0] < 1 || bd[1] < 1 || bd[2] < 1)
        return diag_error(EXIT_USAGE,
                          "invalid --block '%s': expected N, XxY or XxYxZ of positive "
                          "integers",
                          a.block);
    if (!units_parse_dim3(a.grid, gd) || gd[0] < 1 || gd[1] < 1 || gd[2] < 1)
        return diag_error(EXIT_USAGE,
                          "invalid --grid '%s': expected N, XxY or XxYxZ of positive "
                          "integers",
                          a.grid);
    const char *text = a.cond ? a.cond : a.trips;
    cexpr_error err;
    expr *e = cexpr_parse(text, false, &err);
    if (!e)
        return diag_error(EXIT_USAGE, "--%s \"%s\": column %d: %s", a.cond ? "cond" : "trips", text,
                          err.column, err.msg);
    int64_t block[3] = {bd[0], bd[1], bd[2]}, grid[3] = {gd[0], gd[1], gd[2]};
    divcount *r = malloc(sizeof *r);
    char why[512];
    bool ok = a.cond ? divcount_branch(e, block, grid, NULL, r, why, sizeof why)
                     : divcount_loop(e, block, grid, NULL, r, why, sizeof why);
    rc = EXIT_OK;
    if (!ok)
        rc = diag_error(EXIT_USAGE, "--%s \"%s\": %s", a.cond ? "cond" : "trips", text, why);
    else if (strcmp(a.format, "json") == 0)
        print_json(&a, r);
    else
        print_text(&a, r);
    free(r);
    expr_free(e);
    return rc;
}
