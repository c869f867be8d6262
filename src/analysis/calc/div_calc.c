/* div_calc: `gpulint divergence` as a calculator: a branch condition or a
 * loop's trip count over threadIdx/blockIdx, for a block and a grid; the
 * counts (divcount.c) and their words, shared by the command line and the
 * web page. */
#include "analysis/calc/div_calc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/cexpr.h"
#include "util/errmsg.h"
#include "util/units.h"

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

static void explain_steps(sbuf *out, const divcount *r)
{
    sbuf_add(out, "\nhow:\n");
    sbuf_addf(out,
              "  A warp is 32 consecutive threads of a block (x fastest): %d warp%s per "
              "block, %lld in all.\n",
              r->warps_per_block, r->warps_per_block == 1 ? "" : "s", (long long)r->warps_in_grid);
    sbuf_add(out, r->every_block
                      ? "  The expression reads blockIdx/gridDim: every block was evaluated.\n"
                      : "  The expression reads no block index: every block behaves as block "
                        "0, whose warps follow.\n");
    for (int w = 0; w < r->warps_per_block; w++) {
        int lo = w * 32, hi = lo + r->first_lanes[w] - 1;
        if (r->first_taken[w] < 0)
            sbuf_addf(out, "  warp %d (threads %d-%d): no lane %s: the warp skips it\n", w, lo, hi,
                      r->loop ? "runs the loop" : "takes the then-path");
        else if (r->loop)
            sbuf_addf(out, "  warp %d (threads %d-%d): %d of %d lanes run the loop: %.1f%%\n", w,
                      lo, hi, r->first_taken[w], r->first_lanes[w], pct(r->first_efficiency[w]));
        else
            sbuf_addf(out, "  warp %d (threads %d-%d): %d of %d lanes %s: %.1f%% of 32%s\n", w, lo,
                      hi, r->first_taken[w], r->first_lanes[w],
                      r->loop ? "run the loop" : "take the then-path", pct(r->first_efficiency[w]),
                      r->first_taken[w] < r->first_lanes[w] && !r->loop
                          ? ", and it also runs the else-path: divergent"
                          : "");
    }
    if (r->loop) {
        sbuf_add(out, "  Lanes of warp 0 by trip count:\n");
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
            sbuf_addf(out, "    %lld iteration%s: lanes ", (long long)t, t == 1 ? "" : "s");
            lanes_with(out, r, t);
            sbuf_addc(out, '\n');
        }
        sbuf_add(out, "  A warp runs the body max(trips) times with only the lanes still "
                      "looping enabled, so\n  efficiency = sum of trips / (32 x sum over "
                      "warps of max trips).\n");
        sbuf_add(out, "  Regrouping puts threads of equal trips in the same warps (sort by "
                      "trips, 32 to a\n  warp); it needs as many threads of each count as "
                      "fill a warp.\n");
    } else
        sbuf_add(out, "  A path costs one warp execution per warp with at least one lane on "
                      "it; its SIMD\n  efficiency is the lanes on it / (32 x those warps).\n");
}

void div_calc_text(sbuf *out, const div_calc *dc, bool explain)
{
    const divcount *r = dc->r;
    sbuf_addf(out, "%s: %s\n", r->loop ? "trips" : "condition", dc->text);
    sbuf_add(out, "launch: grid ");
    dims_text(out, r->grid);
    sbuf_add(out, " x block ");
    dims_text(out, r->block);
    sbuf_addf(out, ": %lld warp%s in the grid (%d per block)\n\n", (long long)r->warps_in_grid,
              r->warps_in_grid == 1 ? "" : "s", r->warps_per_block);
    if (r->loop) {
        sbuf_addf(out, "warps that run the loop:   %lld\n", (long long)r->taken.warps_entering);
        sbuf_addf(out, "warps that diverge:        %lld\n", (long long)r->warps_divergent);
        /* Per warp, as a textbook asks, beside the sums over the grid. */
        if (divcount_classes_agree(&r->per_warp) && r->warps_in_grid == 1) {
            sbuf_addf(out, "iterations, all lanes:     %lld (the grid's one warp)\n",
                      (long long)r->iterations_uniform);
            sbuf_addf(out, "iterations, some lanes:    %lld\n", (long long)r->iterations_divergent);
        } else if (divcount_classes_agree(&r->per_warp)) {
            sbuf_addf(out,
                      "iterations, all lanes:     %lld per warp, in each of the %lld warps (%lld "
                      "summed over warps)\n",
                      (long long)r->per_warp.c[0].uniform, (long long)r->warps_in_grid,
                      (long long)r->iterations_uniform);
            sbuf_addf(out, "iterations, some lanes:    %lld per warp (%lld summed)\n",
                      (long long)r->per_warp.c[0].divergent, (long long)r->iterations_divergent);
        } else {
            sbuf_addf(out, "iterations, all lanes:     %lld (summed over warps)\n",
                      (long long)r->iterations_uniform);
            sbuf_addf(out, "iterations, some lanes:    %lld\n", (long long)r->iterations_divergent);
            sbuf_add(out, "iterations per warp:       ");
            divcount_classes_text(out, &r->per_warp, true, (long long)r->warps_in_grid);
            sbuf_addc(out, '\n');
        }
        sbuf_addf(out, "SIMD efficiency:           %.1f%% (%lld lane-iterations / (32 x %lld))\n",
                  pct(r->taken.simd_efficiency), (long long)r->lane_trips_sum,
                  (long long)r->warp_trips_sum);
        sbuf_addf(out, "regrouped by trip count:   %.1f%% in this block",
                  pct(r->regrouped_efficiency));
        if (r->regrouped_efficiency < 1.0 && r->regroup_full_block)
            sbuf_addf(out, "; 100%% from a block of %d threads", r->regroup_full_block);
        sbuf_addc(out, '\n');
    } else {
        sbuf_add(out, "path       warps entering  SIMD efficiency\n");
        const divcount_path *paths[2] = {&r->taken, &r->other};
        for (int i = 0; i < 2; i++) {
            sbuf_addf(out, "%-10s %14lld  ", i ? "else" : "then",
                      (long long)paths[i]->warps_entering);
            if (paths[i]->warps_entering)
                sbuf_addf(out, "%14.1f%%\n", pct(paths[i]->simd_efficiency));
            else
                sbuf_addf(out, "%15s\n", "-");
        }
        sbuf_addf(out, "warps that diverge (run both paths): %lld of %lld\n",
                  (long long)r->warps_divergent, (long long)r->warps_in_grid);
    }
    if (explain)
        explain_steps(out, r);
}

bool div_calc_run(const div_calc_in *in, div_calc *out, char *msg, size_t n)
{
    *out = (div_calc){0};
    if (!in->cond == !in->trips)
        return errmsg_set(msg, n, "give one of --cond (a branch) or --trips (a loop)");
    if (!in->block)
        return errmsg_set(msg, n, "--block is needed: warps are made from the block's threads");
    int bd[3], gd[3];
    const char *grid = in->grid ? in->grid : "1";
    if (!units_parse_dim3(in->block, bd) || bd[0] < 1 || bd[1] < 1 || bd[2] < 1)
        return errmsg_set(msg, n,
                          "invalid --block '%s': expected N, XxY or XxYxZ of positive integers",
                          in->block);
    if (!units_parse_dim3(grid, gd) || gd[0] < 1 || gd[1] < 1 || gd[2] < 1)
        return errmsg_set(
            msg, n, "invalid --grid '%s': expected N, XxY or XxYxZ of positive integers", grid);
    out->text = in->cond ? in->cond : in->trips;
    cexpr_error err;
    out->e = cexpr_parse(out->text, false, &err);
    if (!out->e)
        return errmsg_set(msg, n, "--%s \"%s\": column %d: %s", in->cond ? "cond" : "trips",
                          out->text, err.column, err.msg);
    int64_t block[3] = {bd[0], bd[1], bd[2]}, grid3[3] = {gd[0], gd[1], gd[2]};
    out->r = xmalloc(sizeof *out->r);
    char why[512];
    bool ok = in->cond ? divcount_branch(out->e, block, grid3, NULL, out->r, why, sizeof why)
                       : divcount_loop(out->e, block, grid3, NULL, out->r, why, sizeof why);
    if (!ok)
        return errmsg_set(msg, n, "--%s \"%s\": %s", in->cond ? "cond" : "trips", out->text, why);
    return true;
}

void div_calc_free(div_calc *dc)
{
    free(dc->r);
    expr_free(dc->e);
    dc->r = NULL;
    dc->e = NULL;
}
