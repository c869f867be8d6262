/* cmd_launch: `gpulint launch`, launch planning for a problem of W x H x D
 * independent elements (exercise 13.6 and its kind): the block shapes given,
 * or common ones plus the best found, compared by analysis/launchplan on
 * the target; one is recommended with the criterion that decided it. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/launchplan.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/target_opts.h"
#include "util/sbuf.h"
#include "util/units.h"

#define MAX_CANDIDATES (OPT_LIST_MAX + 8)

typedef struct launch_args {
    target_opts target;
    const char *problem, *format;
    opt_list blocks;
    int regs, elem;
    bool seen_regs, seen_smem, seen_elem;
    int64_t smem;
    bool explain, help;
} launch_args;

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
static void reason(sbuf *b, const launchplan_candidate *c, int n, int rec)
{
    const launchplan_candidate *r = &c[rec];
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

static void print_text(const target *t, const launchplan_problem *p, const launchplan_candidate *c,
                       const bool *found, int n, int rec, const char *not_given)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "problem ");
    dims_text(&b, p->extent, p->extent[2] > 1);
    sbuf_addf(&b, " (%lld elements of %d bytes, one thread each), %s",
              (long long)(p->extent[0] * p->extent[1] * p->extent[2]), p->elem_size, t->label);
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
    reason(&b, c, n, rec);
    sbuf_add(&b, "\n\nidle = threads the rounded-up grid launches beyond the problem; coalesced ="
                 " every warp of a\nblock fetches no more 32-byte sectors than its row-major "
                 "bytes need.\n");
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
}

static json_t *dims_json(const int64_t d[3])
{
    return json_pack("[I, I, I]", (json_int_t)d[0], (json_int_t)d[1], (json_int_t)d[2]);
}

static void print_json(const target *t, const launchplan_problem *p, const launchplan_candidate *c,
                       const bool *found, int n, int rec, const char *not_given)
{
    json_t *cands = json_array();
    for (int i = 0; i < n; i++) {
        json_t *o = json_pack(
            "{s:o, s:o, s:I, s:I, s:I, s:f, s:i, s:f, s:o, s:o, s:b, s:f, s:f, s:i, s:b}", "block",
            dims_json(c[i].block), "grid", dims_json(c[i].grid), "blocks", (json_int_t)c[i].blocks,
            "threads", (json_int_t)c[i].threads, "idle_threads", (json_int_t)c[i].idle_threads,
            "idle_fraction", c[i].idle_fraction, "blocks_per_sm", c[i].occ.blocks_per_sm,
            "occupancy", c[i].occ.occupancy, "waves",
            c[i].waves > 0 ? json_real(c[i].waves) : json_null(), "tail_wave_fill",
            c[i].waves > 0 ? json_real(c[i].tail_fill) : json_null(), "coalesced", c[i].coalesced,
            "sectors_per_request", c[i].sectors, "ideal_sectors", c[i].ideal_sectors,
            "rows_per_warp", c[i].rows_per_warp, "best_found", found[i]);
        json_array_append_new(cands, o);
    }
    sbuf why;
    sbuf_init(&why);
    reason(&why, c, n, rec);
    json_t *root =
        json_pack("{s:o, s:i, s:{s:s, s:o, s:o}, s:o, s:o, s:i, s:s}", "problem",
                  dims_json(p->extent), "elem_size", p->elem_size, "target", "arch", t->arch.name,
                  "gpu", t->has_product ? json_string(t->product.id) : json_null(), "sm_count",
                  p->sm_count ? json_integer(p->sm_count) : json_null(), "not_given",
                  not_given ? json_string(not_given) : json_null(), "candidates", cands,
                  "recommended", rec, "reason", sbuf_str(&why));
    cli_put_json(root);
    sbuf_free(&why);
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

static void print_explain(const launchplan_problem *p, const launchplan_candidate *c, int n)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "\nhow:");
    for (int i = 0; i < n; i++)
        explain_one(&b, p, &c[i]);
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
}

int cmd_launch(int argc, char **argv)
{
    launch_args a = {.format = "text", .elem = 4};
    const opt_spec specs[] = {
        {"problem", 'p', OPT_STRING, &a.problem, NULL, "WxHxD",
         "elements to cover, one thread each, e.g. 1000x1000"},
        {"block", 'b', OPT_LIST, &a.blocks, NULL, "XxYxZ",
         "block shapes to compare (repeatable; default: common shapes and the best found)"},
        {"regs", 'r', OPT_INT, &a.regs, &a.seen_regs, "N", "registers per thread"},
        {"smem", 's', OPT_BYTES, &a.smem, &a.seen_smem, "BYTES", "static shared memory per block"},
        {"elem", 'e', OPT_INT, &a.elem, &a.seen_elem, "BYTES",
         "bytes per element for the coalescing check (default 4)"},
        TARGET_OPTIONS(&a.target),
        {"explain", 'x', OPT_FLAG, &a.explain, NULL, NULL,
         "the worked steps: grid, idle threads, blocks per SM, waves, sectors"},
        {"format", 'f', OPT_STRING, &a.format, NULL, "text|json", "output format"},
        {"help", 'h', OPT_FLAG, &a.help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    int rc = opt_parse_command("launch", specs, argc, argv,
                               "gpulint launch --problem WxHxD [--block XxY ...] [--regs N] "
                               "[--smem B] [--arch A|--gpu G] [--explain] [--format text|json]",
                               &a.help, &a.format);
    if (rc >= 0)
        return rc;
    int pd[3];
    if (!a.problem)
        return diag_error(EXIT_USAGE, "--problem WxHxD is required, e.g. --problem 1000x1000");
    if (!units_parse_dim3(a.problem, pd) || pd[0] < 1 || pd[1] < 1 || pd[2] < 1)
        return diag_error(EXIT_USAGE,
                          "invalid --problem '%s': expected W, WxH or WxHxD of positive "
                          "integers",
                          a.problem);
    if (a.elem < 1 || a.elem > 16 || (a.elem & (a.elem - 1)))
        return diag_error(EXIT_USAGE, "invalid --elem %d: expected 1, 2, 4, 8 or 16", a.elem);
    model_db db;
    target targets[TARGET_MAX];
    int n_targets = 0;
    target_request req = target_request_of(&a.target);
    rc = target_resolve(&req, &db, targets, TARGET_MAX, &n_targets);
    if (rc != EXIT_OK)
        return rc;
    const target *t = &targets[0];
    launchplan_problem p = {.extent = {pd[0], pd[1], pd[2]},
                            .elem_size = a.elem,
                            .kernel = {.regs_per_thread = a.regs, .static_smem = a.smem},
                            .sm_count = t->has_product ? t->product.sm_count : 0};
    launchplan_candidate c[MAX_CANDIDATES];
    bool found[MAX_CANDIDATES] = {false};
    int n = 0;
    char why[256];
    if (a.blocks.n) {
        for (int i = 0; i < a.blocks.n && rc == EXIT_OK; i++) {
            int bd[3];
            if (!units_parse_dim3(a.blocks.v[i], bd) || bd[0] < 1 || bd[1] < 1 || bd[2] < 1)
                rc = diag_error(EXIT_USAGE, "invalid --block '%s': expected N, XxY or XxYxZ",
                                a.blocks.v[i]);
            else if (!launchplan_evaluate(&t->arch, &p, (int64_t[3]){bd[0], bd[1], bd[2]}, &c[n],
                                          why, sizeof why))
                rc = diag_error(EXIT_USAGE, "--block %s: %s", a.blocks.v[i], why);
            else
                n++;
        }
    } else {
        bool one_d = pd[1] == 1 && pd[2] == 1;
        const int64_t(*common)[3] = one_d ? common_1d : common_2d;
        int n_common = one_d ? 4 : 6;
        for (int i = 0; i < n_common; i++)
            if (launchplan_evaluate(&t->arch, &p, common[i], &c[n], why, sizeof why))
                n++;
        launchplan_candidate best;
        if (launchplan_search(&t->arch, &p, &best)) {
            int same = -1;
            for (int i = 0; i < n; i++)
                if (!memcmp(c[i].block, best.block, sizeof best.block))
                    same = i;
            if (same >= 0)
                found[same] = true;
            else {
                c[n] = best;
                found[n++] = true;
            }
        }
    }
    if (rc == EXIT_OK && n == 0)
        rc = diag_error(EXIT_LAUNCH, "no block shape can launch on %s", t->label);
    if (rc == EXIT_OK) {
        int rec = 0;
        for (int i = 1; i < n; i++)
            if (launchplan_compare(&c[i], &c[rec]) > 0)
                rec = i;
        const char *not_given = !a.seen_regs && !a.seen_smem
                                    ? "registers per thread (--regs) and static shared memory "
                                      "(--smem)"
                                : !a.seen_regs ? "registers per thread (--regs)"
                                : !a.seen_smem ? "static shared memory (--smem)"
                                               : NULL;
        if (!c[rec].launches)
            rc =
                diag_error(EXIT_LAUNCH, "none of the block shapes can launch with these resources");
        else if (strcmp(a.format, "json") == 0)
            print_json(t, &p, c, found, n, rec, not_given);
        else {
            print_text(t, &p, c, found, n, rec, not_given);
            if (a.explain)
                print_explain(&p, c, n);
        }
    }
    model_db_free(&db);
    return rc;
}
