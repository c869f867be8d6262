/* cmd_launch: `gpulint launch`, launch planning for a problem of W x H x D
 * independent elements (exercise 13.6 and its kind): the block shapes given,
 * or common ones plus the best found, compared by analysis/calc/launchplan on
 * the target; one is recommended with the criterion that decided it. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calc/launch_calc.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/target_opts.h"
#include "util/sbuf.h"
#include "util/units.h"

typedef struct launch_args {
    target_opts target;
    const char *problem, *format;
    opt_list blocks;
    int regs, elem;
    bool seen_regs, seen_smem, seen_elem;
    int64_t smem;
    bool explain, help;
} launch_args;

static json_t *dims_json(const int64_t d[3])
{
    return json_pack("[I, I, I]", (json_int_t)d[0], (json_int_t)d[1], (json_int_t)d[2]);
}

static void print_json(const target *t, const launch_calc *lc)
{
    const launchplan_candidate *c = lc->c;
    const launchplan_problem *p = &lc->p;
    json_t *cands = json_array();
    for (int i = 0; i < lc->n; i++) {
        json_t *o = json_pack(
            "{s:o, s:o, s:I, s:I, s:I, s:f, s:i, s:f, s:o, s:o, s:b, s:f, s:f, s:i, s:b}", "block",
            dims_json(c[i].block), "grid", dims_json(c[i].grid), "blocks", (json_int_t)c[i].blocks,
            "threads", (json_int_t)c[i].threads, "idle_threads", (json_int_t)c[i].idle_threads,
            "idle_fraction", c[i].idle_fraction, "blocks_per_sm", c[i].occ.blocks_per_sm,
            "occupancy", c[i].occ.occupancy, "waves",
            c[i].waves > 0 ? json_real(c[i].waves) : json_null(), "tail_wave_fill",
            c[i].waves > 0 ? json_real(c[i].tail_fill) : json_null(), "coalesced", c[i].coalesced,
            "sectors_per_request", c[i].sectors, "ideal_sectors", c[i].ideal_sectors,
            "rows_per_warp", c[i].rows_per_warp, "best_found", lc->found[i]);
        json_array_append_new(cands, o);
    }
    sbuf why;
    sbuf_init(&why);
    launch_calc_reason(&why, lc);
    json_t *root =
        json_pack("{s:o, s:i, s:{s:s, s:o, s:o}, s:o, s:o, s:i, s:s}", "problem",
                  dims_json(p->extent), "elem_size", p->elem_size, "target", "arch", t->arch.name,
                  "gpu", t->has_product ? json_string(t->product.id) : json_null(), "sm_count",
                  p->sm_count ? json_integer(p->sm_count) : json_null(), "not_given",
                  lc->not_given ? json_string(lc->not_given) : json_null(), "candidates", cands,
                  "recommended", lc->rec, "reason", sbuf_str(&why));
    cli_put_json(root);
    sbuf_free(&why);
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
    model_db db;
    target targets[TARGET_MAX];
    int n_targets = 0;
    target_request req = target_request_of(&a.target);
    rc = target_resolve(&req, &db, targets, TARGET_MAX, &n_targets);
    if (rc != EXIT_OK)
        return rc;
    const target *t = &targets[0];
    launch_calc_in in = {.problem = a.problem,
                         .blocks = a.blocks.v,
                         .n_blocks = a.blocks.n,
                         .regs = a.regs,
                         .elem = a.elem,
                         .smem = a.smem,
                         .seen_regs = a.seen_regs,
                         .seen_smem = a.seen_smem,
                         .arch = &t->arch,
                         .label = t->label,
                         .sm_count = t->has_product ? t->product.sm_count : 0};
    launch_calc *lc = xcalloc(1, sizeof *lc);
    char msg[512];
    launch_calc_status st = launch_calc_run(&in, lc, msg, sizeof msg);
    if (st != LAUNCH_CALC_OK) {
        rc = diag_error(st == LAUNCH_CALC_USAGE ? EXIT_USAGE : EXIT_LAUNCH, "%s", msg);
    } else if (strcmp(a.format, "json") == 0) {
        print_json(t, lc);
    } else {
        sbuf b;
        sbuf_init(&b);
        launch_calc_text(&b, lc, a.explain);
        fputs(sbuf_str(&b), stdout);
        sbuf_free(&b);
    }
    free(lc);
    model_db_free(&db);
    return rc;
}
