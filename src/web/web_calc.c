/* web_calc: the smaller calculators for the web page (`gpulint warps`,
 * `gpulint bank`, `gpulint coalesce`, `gpulint divergence`; a
 * GPU's roofline ceilings for the report viewer's chart), each answer its
 * command line text where it has one, plus the fields behind it. */
#include <stdio.h>
#include <string.h>

#include "analysis/calc/bank_calc.h"
#include "analysis/calc/coal_calc.h"
#include "analysis/calc/div_calc.h"
#include "analysis/timing/roofline.h"
#include "analysis/calc/warpmap.h"
#include "web/web_json.h"
#include "web/web_req.h"

/* `gpulint warps`: how a block's threads fall into warps. */
bool web_warps(web_api *api, const web_req *r, web_err *e)
{
    static const char *const keys[] = {"cmd", "block", "grid", "explain", "format", NULL};
    bool explain;
    int64_t block[3], grid[3];
    if (!web_req_known(r, keys, e) || !web_get_flag(r, "explain", &explain, e) ||
        !web_text_format(r, e) || !web_get_dim3(r, "block", NULL, block, e) ||
        !web_get_dim3(r, "grid", "1", grid, e))
        return false;
    warpmap m;
    char why[256];
    if (!warpmap_compute(block, grid, &m, why, sizeof why))
        return web_refuse(e, "block", "%s", why);
    sbuf t;
    sbuf_init(&t);
    warpmap_text(&t, &m, explain);
    sbuf *o = &api->out;
    int c = 0;
    sbuf_addc(o, '{');
    wj_key(o, "block", &c);
    wj_dims(o, m.block);
    wj_key(o, "grid", &c);
    wj_dims(o, m.grid);
    wj_key(o, "warps_per_block", &c);
    wj_int(o, m.warps_per_block);
    wj_key(o, "warps_in_grid", &c);
    wj_int(o, m.warps_in_grid);
    wj_key(o, "lane_use", &c);
    wj_num(o, m.lane_use);
    wj_key(o, "warps", &c);
    sbuf_addc(o, '[');
    for (int w = 0; w < m.warps_per_block; w++) {
        sbuf_addf(o, "%s{\"lanes\":%d,\"first_thread\":", w ? "," : "", m.warps[w].lanes);
        wj_dims(o, m.warps[w].first);
        sbuf_add(o, ",\"last_thread\":");
        wj_dims(o, m.warps[w].last);
        sbuf_addc(o, '}');
    }
    sbuf_addc(o, ']');
    wj_key(o, "text", &c);
    wj_str(o, sbuf_str(&t));
    sbuf_addc(o, '}');
    sbuf_free(&t);
    return true;
}

/* A product's ceilings at each precision it has (boost clock, the figure
 * `gpulint roofline --gpu ID` uses): the report viewer draws the roofs. */
bool web_roof(web_api *api, const web_req *r, web_err *e)
{
    static const char *const keys[] = {"cmd", "gpu", NULL};
    if (!web_req_known(r, keys, e))
        return false;
    const char *id = web_req_get(r, "gpu");
    const gpu_product *p = web_models_product(api->models, id ? id : DEFAULT_GPU);
    if (!p)
        return web_refuse(e, "gpu", "unknown GPU '%s'", id);
    sbuf *o = &api->out;
    int c = 0;
    sbuf_addc(o, '{');
    wj_key(o, "gpu", &c);
    wj_str(o, p->id);
    wj_key(o, "name", &c);
    wj_str(o, p->name);
    wj_key(o, "ceilings", &c);
    sbuf_addc(o, '[');
    int n = 0;
    for (int prec = 0; prec < PREC_COUNT; prec++) {
        roof_ceilings ceil;
        const char *why;
        if (!roofline_ceilings(p, (model_precision)prec, ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &ceil,
                               &why))
            continue;
        sbuf_add(o, n++ ? ",{" : "{");
        int cc = 0;
        wj_key(o, "precision", &cc);
        wj_str(o, model_precision_name((model_precision)prec));
        wj_key(o, "flops", &cc);
        wj_num(o, ceil.flops.used);
        wj_key(o, "bandwidth", &cc);
        wj_num(o, ceil.bandwidth.used);
        sbuf_addc(o, '}');
    }
    sbuf_add(o, "]}");
    return true;
}

/* `gpulint bank`: the bank conflicts of a shared-memory access. */
bool web_bank(web_api *api, const web_req *r, web_err *e)
{
    static const char *const keys[] = {"cmd",   "stride",  "elem",   "decl", "access",
                                       "block", "explain", "format", NULL};
    bool explain, seen_stride, seen_elem;
    int stride = 0, elem = 4;
    if (!web_req_known(r, keys, e) || !web_get_flag(r, "explain", &explain, e) ||
        !web_text_format(r, e) || !web_get_int(r, "stride", &stride, &seen_stride, e) ||
        !web_get_int(r, "elem", &elem, &seen_elem, e))
        return false;
    if (!seen_elem)
        elem = 4;
    bank_calc_in in = {.seen_stride = seen_stride,
                       .seen_elem = seen_elem,
                       .stride = stride,
                       .elem = elem,
                       .decl = web_req_get(r, "decl"),
                       .access = web_req_get(r, "access"),
                       .block = web_req_get(r, "block")};
    bank_calc bc;
    char msg[512];
    if (!bank_calc_run(&in, &bc, msg, sizeof msg)) {
        bank_calc_free(&bc);
        return web_refuse(e, in.access ? "access" : "stride", "%s", msg);
    }
    sbuf t;
    sbuf_init(&t);
    bank_calc_text(&t, &bc, explain);
    sbuf *o = &api->out;
    int c = 0;
    sbuf_addc(o, '{');
    wj_key(o, "wavefronts", &c);
    wj_int(o, bc.r.worst);
    wj_key(o, "ideal_wavefronts", &c);
    wj_int(o, bc.r.ideal);
    wj_key(o, "degree", &c);
    wj_num(o, bc.r.degree);
    wj_key(o, "average_wavefronts", &c);
    wj_num(o, bc.r.average);
    wj_key(o, "banks", &c);
    sbuf_addc(o, '[');
    for (int k = 0; k < BANK_COUNT; k++)
        sbuf_addf(o, "%s%d", k ? "," : "", bc.r.worst_req.banks[k]);
    sbuf_addc(o, ']');
    wj_key(o, "text", &c);
    wj_str(o, sbuf_str(&t));
    sbuf_addc(o, '}');
    sbuf_free(&t);
    bank_calc_free(&bc);
    return true;
}

/* `gpulint coalesce`: the sectors a warp's global access touches. */
bool web_coalesce(web_api *api, const web_req *r, web_err *e)
{
    static const char *const keys[] = {"cmd",   "stride",  "elem",   "offset", "access",
                                       "block", "explain", "format", NULL};
    bool explain, seen_stride, seen_elem, seen_offset;
    int stride = 0, elem = 4, offset = 0;
    if (!web_req_known(r, keys, e) || !web_get_flag(r, "explain", &explain, e) ||
        !web_text_format(r, e) || !web_get_int(r, "stride", &stride, &seen_stride, e) ||
        !web_get_int(r, "elem", &elem, &seen_elem, e) ||
        !web_get_int(r, "offset", &offset, &seen_offset, e))
        return false;
    coal_calc_in in = {.seen_stride = seen_stride,
                       .stride = stride,
                       .offset = offset,
                       .elem = seen_elem ? elem : 4,
                       .access = web_req_get(r, "access"),
                       .block = web_req_get(r, "block")};
    coal_calc cc;
    char msg[512];
    if (!coal_calc_run(&in, &cc, msg, sizeof msg)) {
        coal_calc_free(&cc);
        return web_refuse(e, in.access ? "access" : "stride", "%s", msg);
    }
    sbuf t;
    sbuf_init(&t);
    coal_calc_text(&t, &cc, explain);
    sbuf *o = &api->out;
    int c = 0;
    sbuf_addc(o, '{');
    wj_key(o, "worst_sectors", &c);
    wj_int(o, cc.r.worst_sectors);
    wj_key(o, "average_sectors", &c);
    wj_num(o, cc.r.average_sectors);
    wj_key(o, "efficiency", &c);
    wj_num(o, cc.r.efficiency);
    wj_key(o, "text", &c);
    wj_str(o, sbuf_str(&t));
    sbuf_addc(o, '}');
    sbuf_free(&t);
    coal_calc_free(&cc);
    return true;
}

/* `gpulint divergence`: the warps a branch or a loop splits. */
bool web_divergence(web_api *api, const web_req *r, web_err *e)
{
    static const char *const keys[] = {"cmd",  "cond",    "trips",  "block",
                                       "grid", "explain", "format", NULL};
    bool explain;
    if (!web_req_known(r, keys, e) || !web_get_flag(r, "explain", &explain, e) ||
        !web_text_format(r, e))
        return false;
    div_calc_in in = {.cond = web_req_get(r, "cond"),
                      .trips = web_req_get(r, "trips"),
                      .block = web_req_get(r, "block"),
                      .grid = web_req_get(r, "grid")};
    div_calc dc;
    char msg[768];
    if (!div_calc_run(&in, &dc, msg, sizeof msg)) {
        div_calc_free(&dc);
        return web_refuse(e, in.trips ? "trips" : "cond", "%s", msg);
    }
    sbuf t;
    sbuf_init(&t);
    div_calc_text(&t, &dc, explain);
    sbuf *o = &api->out;
    int c = 0;
    sbuf_addc(o, '{');
    wj_key(o, "warps_in_grid", &c);
    wj_int(o, dc.r->warps_in_grid);
    wj_key(o, "warps_divergent", &c);
    wj_int(o, dc.r->warps_divergent);
    wj_key(o, "simd_efficiency", &c);
    wj_num(o, dc.r->taken.simd_efficiency);
    wj_key(o, "text", &c);
    wj_str(o, sbuf_str(&t));
    sbuf_addc(o, '}');
    sbuf_free(&t);
    div_calc_free(&dc);
    return true;
}
