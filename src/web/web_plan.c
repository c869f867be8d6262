/* web_plan: the planning calculators for the web page: `gpulint launch`
 * (block shapes for a problem) and `gpulint roofline` (ceilings, points,
 * tiled and Tensor Core GEMMs, mixed precision), each answer its command
 * line text plus the fields behind it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calc/launch_calc.h"
#include "analysis/calc/roof_calc.h"
#include "web/web_json.h"
#include "web/web_req.h"

/* The option a calculator's message is about: the first --name in it that
 * the request may hold, else dflt. */
static const char *option_of(const char *msg, const char *const *keys, const char *dflt)
{
    const char *best = NULL, *at = NULL;
    for (const char *const *k = keys; *k; k++) {
        char flag[40];
        snprintf(flag, sizeof flag, "--%s", *k);
        for (const char *p = strstr(msg, flag); p; p = strstr(p + 1, flag)) {
            char next = p[strlen(flag)];
            if ((next == '-' || (next >= 'a' && next <= 'z')) || (at && p >= at))
                continue;
            best = *k;
            at = p;
        }
    }
    return best ? best : dflt;
}

static void launch_json(sbuf *o, const launch_calc *lc, const char *text)
{
    int c = 0;
    sbuf_addc(o, '{');
    wj_key(o, "problem", &c);
    wj_dims(o, lc->p.extent);
    wj_key(o, "candidates", &c);
    sbuf_addc(o, '[');
    for (int i = 0; i < lc->n; i++) {
        const launchplan_candidate *k = &lc->c[i];
        int cc = 0;
        sbuf_add(o, i ? ",{" : "{");
        wj_key(o, "block", &cc);
        wj_dims(o, k->block);
        wj_key(o, "grid", &cc);
        wj_dims(o, k->grid);
        wj_key(o, "idle_fraction", &cc);
        wj_num(o, k->idle_fraction);
        wj_key(o, "occupancy", &cc);
        wj_num(o, k->occ.occupancy);
        wj_key(o, "waves", &cc);
        if (k->waves > 0)
            wj_num(o, k->waves);
        else
            sbuf_add(o, "null");
        wj_key(o, "coalesced", &cc);
        sbuf_add(o, k->coalesced ? "true" : "false");
        wj_key(o, "best_found", &cc);
        sbuf_add(o, lc->found[i] ? "true" : "false");
        sbuf_addc(o, '}');
    }
    sbuf_addc(o, ']');
    wj_key(o, "recommended", &c);
    wj_int(o, lc->rec);
    wj_key(o, "text", &c);
    wj_str(o, text);
    sbuf_addc(o, '}');
}

/* `gpulint launch`: block shapes for a problem, compared on the target. */
bool web_launch(web_api *api, const web_req *r, web_err *e)
{
    static const char *const keys[] = {"cmd", "problem", "block",   "regs",    "smem",   "elem",
                                       "gpu", "arch",    "machine", "explain", "format", NULL};
    bool explain, seen_regs, seen_smem;
    int regs = 0, elem = 4;
    int64_t smem = 0;
    gpu_arch arch;
    char label[192];
    if (!web_req_known(r, keys, e) || !web_get_flag(r, "explain", &explain, e) ||
        !web_text_format(r, e) || !web_get_int(r, "regs", &regs, &seen_regs, e) ||
        !web_get_bytes(r, "smem", &smem, &seen_smem, e) ||
        !web_get_int(r, "elem", &elem, NULL, e) ||
        !web_resolve_target(api, r, &arch, label, sizeof label, e))
        return false;
    web_list blocks;
    if (!web_get_list(r, "block", &blocks, e)) {
        web_list_free(&blocks);
        return false;
    }
    const gpu_product *prod = web_target_product(api, r);
    launch_calc_in in = {.problem = web_req_get(r, "problem"),
                         .blocks = blocks.v,
                         .n_blocks = blocks.n,
                         .regs = regs,
                         .elem = elem,
                         .smem = smem,
                         .seen_regs = seen_regs,
                         .seen_smem = seen_smem,
                         .arch = &arch,
                         .label = label,
                         .sm_count = prod ? prod->sm_count : 0};
    launch_calc *lc = xcalloc(1, sizeof *lc);
    char msg[512];
    bool ok = launch_calc_run(&in, lc, msg, sizeof msg) == LAUNCH_CALC_OK;
    if (!ok) {
        web_refuse(e, option_of(msg, keys, strstr(msg, "block shape") ? "block" : "problem"), "%s",
                   msg);
    } else {
        sbuf t;
        sbuf_init(&t);
        launch_calc_text(&t, lc, explain);
        launch_json(&api->out, lc, sbuf_str(&t));
        sbuf_free(&t);
    }
    free(lc);
    web_list_free(&blocks);
    return ok;
}

static const char *const roofline_keys[] = {
    "cmd",  "peak",  "bw",       "gpu",   "precision",      "clock",   "source",
    "ai",   "label", "flops",    "bytes", "gemm",           "tile",    "thread-tile",
    "elem", "mma",   "measured", "mix",   "target-speedup", "explain", "format",
    NULL};

typedef struct roof_lists {
    web_list ai, labels, precisions, gemm, mix;
} roof_lists;

static void roof_lists_free(roof_lists *l)
{
    web_list_free(&l->ai);
    web_list_free(&l->labels);
    web_list_free(&l->precisions);
    web_list_free(&l->gemm);
    web_list_free(&l->mix);
}

/* The request as the calculator's input; false with the refusal. */
static bool roofline_input(const web_req *r, roof_lists *l, roof_calc_in *in, web_err *e)
{
    memset(in, 0, sizeof *in);
    in->elem = 4;
    if (!web_get_si(r, "peak", &in->peak, &in->seen_peak, e) ||
        !web_get_si(r, "bw", &in->bw, &in->seen_bw, e) ||
        !web_get_si(r, "flops", &in->flops, &in->seen_flops, e) ||
        !web_get_si(r, "bytes", &in->bytes, &in->seen_bytes, e) ||
        !web_get_si(r, "target-speedup", &in->target_speedup, &in->seen_target, e) ||
        !web_get_si(r, "measured", &in->measured, &in->seen_measured, e) ||
        !web_get_int(r, "elem", &in->elem, &in->seen_elem, e) ||
        !web_get_list(r, "ai", &l->ai, e) || !web_get_list(r, "label", &l->labels, e) ||
        !web_get_list(r, "precision", &l->precisions, e) || !web_get_list(r, "gemm", &l->gemm, e) ||
        !web_get_list(r, "mix", &l->mix, e))
        return false;
    in->ai = l->ai.v;
    in->n_ai = l->ai.n;
    in->labels = l->labels.v;
    in->n_labels = l->labels.n;
    in->precisions = l->precisions.v;
    in->n_precisions = l->precisions.n;
    in->gemm = l->gemm.v;
    in->n_gemm = l->gemm.n;
    in->mix = l->mix.v;
    in->n_mix = l->mix.n;
    in->tile_text = web_req_get(r, "tile");
    in->seen_tile = in->tile_text != NULL;
    in->thread_tile = web_req_get(r, "thread-tile");
    in->mma = web_req_get(r, "mma");
    in->gpu = web_req_get(r, "gpu");
    in->clock = web_req_get(r, "clock");
    in->source = web_req_get(r, "source");
    return true;
}

/* The ceilings and points, for the page's chart. */
static void roofline_json(sbuf *o, const roof_calc *rc, const char *text)
{
    int c = 0;
    sbuf_addc(o, '{');
    if (rc->have_ceilings && !rc->is_mma) {
        wj_key(o, "peak_flops", &c);
        wj_num(o, rc->peak);
        wj_key(o, "peak_bandwidth", &c);
        wj_num(o, rc->bw);
        wj_key(o, "ceilings", &c);
        sbuf_addc(o, '[');
        for (int i = 0; i < rc->nc; i++) {
            sbuf_add(o, i ? ",{\"precision\":" : "{\"precision\":");
            wj_str(o, model_precision_name(rc->cs[i].prec));
            sbuf_add(o, ",\"flops\":");
            wj_num(o, rc->cs[i].c.flops.used);
            sbuf_addc(o, '}');
        }
        sbuf_addc(o, ']');
        wj_key(o, "points", &c);
        sbuf_addc(o, '[');
        for (int i = 0; i < rc->np; i++) {
            const roof_calc_point *p = &rc->pts[i];
            int pc = 0;
            sbuf_add(o, i ? ",{" : "{");
            wj_key(o, "label", &pc);
            wj_str(o, p->label);
            wj_key(o, "ai", &pc);
            wj_num(o, p->k.point.ai);
            wj_key(o, "attainable_flops", &pc);
            wj_num(o, p->k.point.attainable);
            wj_key(o, "bound", &pc);
            wj_str(o, roofline_bound_name(p->k.point.bound));
            if (p->has_work) {
                wj_key(o, "min_time_s", &pc);
                wj_num(o, p->k.min_time);
            }
            sbuf_addc(o, '}');
        }
        sbuf_addc(o, ']');
    }
    if (rc->is_mix) {
        wj_key(o, "speedup", &c);
        wj_num(o, rc->mix.speedup);
    }
    if (rc->is_mma) {
        wj_key(o, "attainable_flops", &c);
        wj_num(o, rc->mma.r.attainable);
        wj_key(o, "min_time_s", &c);
        wj_num(o, rc->mma.r.min_time);
    }
    wj_key(o, "text", &c);
    wj_str(o, text);
    sbuf_addc(o, '}');
}

/* `gpulint roofline`: ceilings, points, GEMM models, mixed precision. */
bool web_roofline(web_api *api, const web_req *r, web_err *e)
{
    bool explain;
    if (!web_req_known(r, roofline_keys, e) || !web_get_flag(r, "explain", &explain, e) ||
        !web_text_format(r, e))
        return false;
    roof_lists lists = {0};
    roof_calc_in in;
    roof_calc *rc = xcalloc(1, sizeof *rc);
    char msg[512];
    bool ok = roofline_input(r, &lists, &in, e);
    if (ok && roof_calc_check(&in, rc, msg, sizeof msg) != ROOF_CALC_OK)
        ok = web_refuse(e, option_of(msg, roofline_keys, NULL), "%s", msg);
    const gpu_product *prod = NULL;
    if (ok && !rc->is_mix && in.gpu)
        ok = (prod = web_find_product(api, in.gpu, e)) != NULL;
    if (ok && roof_calc_run(&in, rc, prod, msg, sizeof msg) != ROOF_CALC_OK)
        ok = web_refuse(e, option_of(msg, roofline_keys, NULL), "%s", msg);
    if (ok) {
        sbuf t;
        sbuf_init(&t);
        roof_calc_text(&t, rc, explain);
        roofline_json(&api->out, rc, sbuf_str(&t));
        sbuf_free(&t);
    }
    free(rc);
    roof_lists_free(&lists);
    return ok;
}
