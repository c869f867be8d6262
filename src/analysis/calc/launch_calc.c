/* launch_calc: `gpulint launch` as a calculator: the problem and block
 * shapes read from the user's words, compared by launchplan (common shapes
 * and the best found when none is given), the recommendation with the
 * criterion that decided it, and the table and worked steps the command line
 * prints. Shared by the command line and the web page. */
#include "analysis/calc/launch_calc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/errmsg.h"
#include "util/units.h"

static const int64_t common_2d[][3] = {{32, 32, 1}, {16, 16, 1}, {256, 1, 1},
                                       {128, 2, 1}, {32, 8, 1},  {64, 4, 1}};
static const int64_t common_1d[][3] = {{128, 1, 1}, {256, 1, 1}, {512, 1, 1}, {1024, 1, 1}};

static void dims_text(sbuf *b, const int64_t d[3], bool force3)
{
    sbuf_addf(b, "%lldx%lld", (long long)d[0], (long long)d[1]);
    if (force3 || d[2] > 1)
        sbuf_addf(b, "x%lld", (long long)d[2]);
}

/* Why r beats o, in the terms of the first criterion of launchplan_compare
 * that tells them apart (the one that decided). */
static void beats(sbuf *b, const launchplan_candidate *r, const launchplan_candidate *o)
{
    if (r->launches != o->launches)
        sbuf_add(b, "it cannot launch");
    else if (r->coalesced != o->coalesced)
        sbuf_add(b, "its rows are not coalesced (sectors half used)");
    else if (lround(r->occ.occupancy * 100) != lround(o->occ.occupancy * 100))
        sbuf_addf(b, "higher occupancy (%.0f%% against %.0f%%)", 100 * r->occ.occupancy,
                  100 * o->occ.occupancy);
    else if (r->rows_per_warp != o->rows_per_warp)
        sbuf_addf(b,
                  "each warp reads %d row%s (whole 128-byte lines) where its warps span %d, at "
                  "the same occupancy",
                  r->rows_per_warp, r->rows_per_warp == 1 ? "" : "s", o->rows_per_warp);
    else if (fabs(r->idle_fraction - o->idle_fraction) > 1e-9)
        sbuf_addf(b,
                  "fewer idle threads (%.1f%% against %.1f%%) at the same occupancy and rows "
                  "per warp",
                  100 * r->idle_fraction, 100 * o->idle_fraction);
    else if (r->waves > 0 && o->waves > 0 &&
             fabs(r->waves / r->full_waves - o->waves / o->full_waves) > 1e-9)
        sbuf_add(b, "fuller waves at the same occupancy and idle share");
    else
        sbuf_add(b, "as good on every count: the wider block is taken");
}

/* The recommended candidate's numbers, then what decided it over each of
 * the others (a candidate may lose to it on a different count than the
 * runner-up does). */
void launch_calc_reason(sbuf *b, const launch_calc *lc)
{
    const launchplan_candidate *c = lc->c, *r = &c[lc->rec];
    int n = lc->n, rec = lc->rec;
    sbuf_addf(b, "%s, %.0f%% occupancy, %.1f%% idle threads",
              r->coalesced ? "coalesced rows" : "rows not coalesced", 100 * r->occ.occupancy,
              100 * r->idle_fraction);
    if (r->waves > 0)
        sbuf_addf(b, ", %d wave%s (the last %.0f%% full)", r->full_waves,
                  r->full_waves == 1 ? "" : "s", 100 * r->tail_fill);
    for (int i = 0; i < n; i++) {
        if (i == rec)
            continue;
        sbuf_add(b, "; over ");
        dims_text(b, c[i].block, false);
        sbuf_add(b, ": ");
        beats(b, r, &c[i]);
    }
}

static void table_text(sbuf *out, const launch_calc *lc)
{
    const launchplan_problem *p = &lc->p;
    const launchplan_candidate *c = lc->c;
    int n = lc->n, rec = lc->rec;
    const bool *found = lc->found;
    const char *not_given = lc->not_given;
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "problem ");
    dims_text(&b, p->extent, p->extent[2] > 1);
    sbuf_addf(&b, " (%lld elements of %d bytes, one thread each), %s",
              (long long)(p->extent[0] * p->extent[1] * p->extent[2]), p->elem_size, lc->label);
    if (p->sm_count)
        sbuf_addf(&b, ", %d SMs", p->sm_count);
    sbuf_addc(&b, '\n');
    if (not_given)
        sbuf_addf(&b, "not given: %s, taken as 0 so that %s not limit occupancy\n", not_given,
                  strstr(not_given, " and ") ? "they do" : "it does");
    if (!p->sm_count)
        sbuf_add(&b, "no product model (--gpu): waves are not computed\n");
    sbuf_addf(&b, "\n  %-12s %-12s %10s %10s %6s %9s %9s %-16s %-9s %s\n", "block", "grid",
              "threads", "idle", "idle%", "blocks/SM", "occupancy", "waves", "coalesced",
              "rows/warp");
    for (int i = 0; i < n; i++) {
        sbuf bl, gr, wv;
        sbuf_init(&bl);
        sbuf_init(&gr);
        sbuf_init(&wv);
        dims_text(&bl, c[i].block, false);
        dims_text(&gr, c[i].grid, false);
        if (c[i].waves > 0)
            sbuf_addf(&wv, "%.2f (last %.0f%%)", c[i].waves, 100 * c[i].tail_fill);
        else
            sbuf_add(&wv, "-");
        sbuf_addf(&b, "%c %-12s %-12s %10lld %10lld %5.1f%% %9d %8.1f%% %-16s %-9s %d%s\n",
                  i == rec ? '*' : ' ', sbuf_str(&bl), sbuf_str(&gr), (long long)c[i].threads,
                  (long long)c[i].idle_threads, 100 * c[i].idle_fraction, c[i].occ.blocks_per_sm,
                  100 * c[i].occ.occupancy, sbuf_str(&wv), c[i].coalesced ? "yes" : "no",
                  c[i].rows_per_warp, found[i] ? "   (best found)" : "");
        sbuf_free(&bl);
        sbuf_free(&gr);
        sbuf_free(&wv);
    }
    sbuf_add(&b, "\nrecommended: ");
    dims_text(&b, c[rec].block, false);
    sbuf_add(&b, ": ");
    launch_calc_reason(&b, lc);
    sbuf_add(&b, "\n\nidle = threads the rounded-up grid launches beyond the problem; coalesced ="
                 " every warp of a\nblock fetches no more 32-byte sectors than its row-major "
                 "bytes need.\n");
    sbuf_add(out, sbuf_str(&b));
    sbuf_free(&b);
}

/* The worked steps for each candidate, in the order a student would do
 * them: the grid that covers the problem, the idle threads, what limits
 * the blocks per SM, the waves over the SMs, the sectors a warp reads. */
static void explain_one(sbuf *b, const launchplan_problem *p, const launchplan_candidate *c)
{
    sbuf_add(b, "\nblock ");
    dims_text(b, c->block, false);
    sbuf_add(b, ":\n");
    sbuf_add(b, "  grid = ceil(problem / block) per dimension:");
    const char axis[3] = {'x', 'y', 'z'};
    for (int d = 0; d < 3; d++)
        if (p->extent[d] > 1 || c->block[d] > 1)
            sbuf_addf(b, " %c: ceil(%lld / %lld) = %lld;", axis[d], (long long)p->extent[d],
                      (long long)c->block[d], (long long)c->grid[d]);
    sbuf_addf(b, " %lld blocks\n", (long long)c->blocks);
    int64_t need = p->extent[0] * p->extent[1] * p->extent[2];
    sbuf_addf(b,
              "  threads launched = %lld blocks x %lld = %lld; idle = %lld - %lld = %lld "
              "(%.1f%%)\n",
              (long long)c->blocks, (long long)(c->block[0] * c->block[1] * c->block[2]),
              (long long)c->threads, (long long)c->threads, (long long)need,
              (long long)c->idle_threads, 100 * c->idle_fraction);
    sbuf_addf(b, "  blocks per SM: %d (limited by ", c->occ.blocks_per_sm);
    size_t len = 0;
    for (unsigned bit = 1; bit <= OCC_LIM_BARRIERS; bit <<= 1)
        if (c->occ.limiters & bit) {
            sbuf_addf(b, "%s%s", len++ ? ", " : "", occ_limiter_name((occ_limiter)bit));
        }
    sbuf_addf(b,
              "), %d of %d warps: %.1f%% occupancy (gpulint occupancy --explain shows each "
              "limit)\n",
              c->occ.warps_per_sm, c->occ.max_warps_per_sm, 100 * c->occ.occupancy);
    if (c->waves > 0)
        sbuf_addf(b,
                  "  waves = blocks / (blocks per SM x SMs) = %lld / (%d x %d) = %.2f: %d "
                  "wave%s, the last %.0f%% full\n",
                  (long long)c->blocks, c->occ.blocks_per_sm, p->sm_count, c->waves, c->full_waves,
                  c->full_waves == 1 ? "" : "s", 100 * c->tail_fill);
    else
        sbuf_add(b, "  waves: need the GPU's SM count (--gpu)\n");
    sbuf_addf(b,
              "  a warp is 32 threads of a row-major block: it spans %d row%s; %.2f sectors of 32 "
              "bytes per request against %.2f for the same bytes packed: %s\n",
              c->rows_per_warp, c->rows_per_warp == 1 ? "" : "s", c->sectors, c->ideal_sectors,
              c->coalesced ? "coalesced" : "not coalesced");
}

void launch_calc_text(sbuf *b, const launch_calc *lc, bool explain)
{
    table_text(b, lc);
    if (!explain)
        return;
    sbuf_add(b, "\nhow:");
    for (int i = 0; i < lc->n; i++)
        explain_one(b, &lc->p, &lc->c[i]);
}

static bool read_dims(const char *text, int d[3])
{
    return units_parse_dim3(text, d) && d[0] >= 1 && d[1] >= 1 && d[2] >= 1;
}

/* No shapes given: the common ones for the problem's rank, and the best the
 * search finds (marked, or added when it is none of them). */
static void common_candidates(const launch_calc_in *in, launch_calc *lc, bool one_d)
{
    const int64_t(*common)[3] = one_d ? common_1d : common_2d;
    int n_common = one_d ? 4 : 6;
    char why[256];
    for (int i = 0; i < n_common; i++)
        if (launchplan_evaluate(in->arch, &lc->p, common[i], &lc->c[lc->n], why, sizeof why))
            lc->n++;
    launchplan_candidate best;
    if (!launchplan_search(in->arch, &lc->p, &best))
        return;
    for (int i = 0; i < lc->n; i++)
        if (!memcmp(lc->c[i].block, best.block, sizeof best.block)) {
            lc->found[i] = true;
            return;
        }
    lc->c[lc->n] = best;
    lc->found[lc->n++] = true;
}

launch_calc_status launch_calc_run(const launch_calc_in *in, launch_calc *lc, char *msg, size_t n)
{
    memset(lc, 0, sizeof *lc);
    int pd[3];
    if (!in->problem)
        return errmsg_set(msg, n, "--problem WxHxD is required, e.g. --problem 1000x1000"),
               LAUNCH_CALC_USAGE;
    if (!read_dims(in->problem, pd))
        return errmsg_set(msg, n,
                          "invalid --problem '%s': expected W, WxH or WxHxD of positive integers",
                          in->problem),
               LAUNCH_CALC_USAGE;
    if (in->elem < 1 || in->elem > 16 || (in->elem & (in->elem - 1)))
        return errmsg_set(msg, n, "invalid --elem %d: expected 1, 2, 4, 8 or 16", in->elem),
               LAUNCH_CALC_USAGE;
    if (in->n_blocks > LAUNCH_CALC_MAX)
        return errmsg_set(msg, n, "at most %d block shapes", LAUNCH_CALC_MAX), LAUNCH_CALC_USAGE;
    lc->label = in->label;
    lc->p = (launchplan_problem){
        .extent = {pd[0], pd[1], pd[2]},
        .elem_size = in->elem,
        .kernel = {.regs_per_thread = in->regs, .static_smem = (int64_t)in->smem},
        .sm_count = in->sm_count};
    char why[256];
    for (int i = 0; i < in->n_blocks; i++) {
        int bd[3];
        if (!read_dims(in->blocks[i], bd))
            return errmsg_set(msg, n, "invalid --block '%s': expected N, XxY or XxYxZ",
                              in->blocks[i]),
                   LAUNCH_CALC_USAGE;
        if (!launchplan_evaluate(in->arch, &lc->p, (int64_t[3]){bd[0], bd[1], bd[2]}, &lc->c[lc->n],
                                 why, sizeof why))
            return errmsg_set(msg, n, "--block %s: %s", in->blocks[i], why), LAUNCH_CALC_USAGE;
        lc->n++;
    }
    if (in->n_blocks == 0)
        common_candidates(in, lc, pd[1] == 1 && pd[2] == 1);
    if (lc->n == 0)
        return errmsg_set(msg, n, "no block shape can launch on %s", in->label),
               LAUNCH_CALC_NO_LAUNCH;
    for (int i = 1; i < lc->n; i++)
        if (launchplan_compare(&lc->c[i], &lc->c[lc->rec]) > 0)
            lc->rec = i;
    lc->not_given = !in->seen_regs && !in->seen_smem
                        ? "registers per thread (--regs) and static shared memory (--smem)"
                    : !in->seen_regs ? "registers per thread (--regs)"
                    : !in->seen_smem ? "static shared memory (--smem)"
                                     : NULL;
    if (!lc->c[lc->rec].launches)
        return errmsg_set(msg, n, "none of the block shapes can launch with these resources"),
               LAUNCH_CALC_NO_LAUNCH;
    return LAUNCH_CALC_OK;
}
