/* web_occ: `gpulint occupancy` for the web page: the contract fields of its
 * JSON, its text, the worked steps, advice and the three curves; Little's
 * law with --latency. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calc/littlelaw.h"
#include "analysis/occupancy/occ.h"
#include "analysis/occupancy/occ_curves.h"
#include "analysis/calc/occ_explain.h"
#include "web/web_cluster.h"
#include "web/web_json.h"
#include "web/web_req.h"

static void json_limit(sbuf *o, const char *key, int v, int *count)
{
    wj_key(o, key, count);
    if (v == OCC_UNLIMITED)
        sbuf_add(o, "null");
    else
        wj_int(o, v);
}

/* The fields of `gpulint occupancy --format json`, under the same names. */
static void json_occ_contract(sbuf *o, const occ_kernel *k, const occ_launch *l,
                              const occ_result *r, int *c)
{
    wj_key(o, "threads_per_block", c);
    wj_int(o, l->threads_per_block);
    wj_key(o, "registers_per_thread", c);
    wj_int(o, k->regs_per_thread);
    wj_key(o, "static_smem", c);
    wj_int(o, k->static_smem);
    wj_key(o, "dynamic_smem", c);
    wj_int(o, l->dynamic_smem);
    wj_key(o, "barriers", c);
    wj_int(o, k->barriers);
    wj_key(o, "carveout_percent", c);
    if (l->carveout_percent < 0)
        sbuf_add(o, "null");
    else
        wj_int(o, l->carveout_percent);
    wj_key(o, "blocks_per_sm", c);
    wj_int(o, r->blocks_per_sm);
    wj_key(o, "warps_per_sm", c);
    wj_int(o, r->warps_per_sm);
    wj_key(o, "max_warps_per_sm", c);
    wj_int(o, r->max_warps_per_sm);
    wj_key(o, "occupancy", c);
    wj_num(o, r->occupancy);
    wj_key(o, "limiters", c);
    sbuf_addc(o, '[');
    int nl = 0;
    for (unsigned bit = 1; bit <= OCC_LIM_BARRIERS; bit <<= 1)
        if (r->limiters & bit) {
            if (nl++)
                sbuf_addc(o, ',');
            wj_str(o, occ_limiter_name((occ_limiter)bit));
        }
    sbuf_add(o, "]");
    wj_key(o, "limits", c);
    int lc = 0;
    sbuf_addc(o, '{');
    json_limit(o, "warps", r->limit_warps, &lc);
    json_limit(o, "registers", r->limit_registers, &lc);
    json_limit(o, "shared_memory", r->limit_smem, &lc);
    json_limit(o, "blocks", r->limit_blocks, &lc);
    json_limit(o, "barriers", r->limit_barriers, &lc);
    sbuf_addc(o, '}');
    wj_key(o, "allocated_registers_per_block", c);
    wj_int(o, r->regs_per_block_allocated);
    wj_key(o, "allocated_smem_per_block", c);
    wj_int(o, r->smem_per_block_allocated);
    wj_key(o, "smem_per_sm_used", c);
    wj_int(o, r->smem_per_sm_used);
    if (r->failure != OCC_OK) {
        wj_key(o, "reason", c);
        wj_str(o, occ_failure_reason(r->failure));
    }
}

static void json_curve(sbuf *o, const char *key, const occ_curve *cv, int *c)
{
    wj_key(o, key, c);
    sbuf_add(o, "{\"x\":[");
    for (int i = 0; i < cv->n; i++) {
        if (i)
            sbuf_addc(o, ',');
        wj_num(o, cv->x[i]);
    }
    sbuf_add(o, "],\"y\":[");
    for (int i = 0; i < cv->n; i++) {
        if (i)
            sbuf_addc(o, ',');
        wj_num(o, cv->y[i]);
    }
    sbuf_add(o, "]}");
}

static void json_curves(sbuf *o, const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                        int *c)
{
    double *buf = xcalloc(2 * OCC_MAX_SAMPLES, sizeof *buf);
    wj_key(o, "curves", c);
    sbuf_addc(o, '{');
    int cc = 0;
    occ_curve cv = {buf, buf + OCC_MAX_SAMPLES, 0};
    occ_curve_threads(a, k, l, &cv);
    json_curve(o, "threads", &cv, &cc);
    cv.n = 0;
    occ_curve_registers(a, k, l, &cv);
    json_curve(o, "registers", &cv, &cc);
    cv.n = 0;
    occ_curve_smem(a, k, l, &cv);
    json_curve(o, "shared_memory", &cv, &cc);
    sbuf_addc(o, '}');
    free(buf);
}

/* The words: worked steps, advice, and the command line's refusal when the
 * block cannot launch. */
static void json_occ_words(sbuf *o, const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                           const occ_result *r, const char *not_given, int *c)
{
    sbuf t;
    sbuf_init(&t);
    if (not_given)
        sbuf_addf(&t, "not given: %s, taken as 0 so that %s not limit\n", not_given,
                  strstr(not_given, " and ") ? "they do" : "it does");
    occ_explain(&t, a, k, l, r);
    wj_key(o, "explain", c);
    wj_str(o, sbuf_str(&t));
    sbuf_free(&t);
    occ_advice adv[4];
    int n = r->failure == OCC_OK ? occ_advise(a, k, l, r, adv, 4) : 0;
    wj_key(o, "advice", c);
    sbuf_addc(o, '[');
    for (int i = 0; i < n; i++) {
        sbuf_init(&t);
        occ_advice_text(&t, &adv[i], l);
        if (i)
            sbuf_addc(o, ',');
        wj_str(o, sbuf_str(&t));
        sbuf_free(&t);
    }
    sbuf_addc(o, ']');
    sbuf_free(&t);
    if (r->failure != OCC_OK) {
        sbuf_init(&t);
        sbuf_addf(&t,
                  "%s: cannot launch %d threads with %d registers and %lld B of shared memory: "
                  "%s",
                  a->name, l->threads_per_block, k->regs_per_thread,
                  (long long)(k->static_smem + l->dynamic_smem), occ_failure_reason(r->failure));
        wj_key(o, "launch_error", c);
        wj_str(o, sbuf_str(&t));
        sbuf_free(&t);
    }
}

static const char *const occ_keys[] = {
    "cmd",          "gpu",          "arch",       "machine",  "threads",          "regs",
    "smem",         "dynamic-smem", "carveout",   "barriers", "max-dynamic-smem", "curves",
    "explain",      "latency",      "throughput", "per-warp", "format",           "cluster",
    "non-portable", "grid",         "gpc-sms",    NULL,
};

/* --latency --throughput [--per-warp]: Little's law against the target. */
static bool occupancy_latency(web_api *api, const web_req *r, bool explain, web_err *e)
{
    double latency = 0, throughput = 0, per_warp = 1;
    bool seen_l, seen_t, seen_p;
    if (!web_get_si(r, "latency", &latency, &seen_l, e) ||
        !web_get_si(r, "throughput", &throughput, &seen_t, e) ||
        !web_get_si(r, "per-warp", &per_warp, &seen_p, e))
        return false;
    if (!seen_l || !seen_t)
        return web_refuse(e, seen_l ? "throughput" : "latency",
                          "--latency and --throughput go together");
    if (web_req_get(r, "threads"))
        return web_refuse(e, "threads", "--latency takes no --threads, --block or --plot");
    if (web_req_get(r, "cluster"))
        return web_refuse(e, "cluster", "--latency takes no --cluster");
    if (!seen_p)
        per_warp = 1;
    gpu_arch arch;
    char label[256], why[128];
    if (!web_resolve_target(api, r, &arch, label, sizeof label, e))
        return false;
    littlelaw ll;
    if (!littlelaw_solve(latency, throughput, per_warp, &ll, why, sizeof why))
        return web_refuse(e, "latency", "--latency/--throughput: %s", why);
    sbuf t;
    sbuf_init(&t);
    littlelaw_text(&t, latency, throughput, per_warp, &ll, explain);
    int max_warps = arch.max_threads_per_sm / 32;
    littlelaw_target_text(&t, label, max_warps, &ll);
    sbuf *o = &api->out;
    int c = 0;
    sbuf_addc(o, '{');
    wj_key(o, "target", &c);
    wj_str(o, label);
    wj_key(o, "in_flight", &c);
    wj_num(o, ll.in_flight);
    wj_key(o, "warps", &c);
    wj_num(o, ll.warps);
    wj_key(o, "warps_needed", &c);
    wj_int(o, ll.warps_whole);
    wj_key(o, "max_warps_per_sm", &c);
    wj_int(o, max_warps);
    wj_key(o, "text", &c);
    wj_str(o, sbuf_str(&t));
    sbuf_addc(o, '}');
    sbuf_free(&t);
    return true;
}

bool web_occupancy(web_api *api, const web_req *r, web_err *e)
{
    bool explain;
    if (!web_req_known(r, occ_keys, e) || !web_get_flag(r, "explain", &explain, e))
        return false;
    if (!web_text_format(r, e))
        return false;
    if (web_req_get(r, "latency") || web_req_get(r, "throughput") || web_req_get(r, "per-warp"))
        return occupancy_latency(api, r, explain, e);
    int threads = 0, regs = 0, barriers = 0;
    int64_t smem = 0, dsmem = 0, maxd = 0;
    double carveout = 0;
    bool seen_threads, seen_regs, seen_smem, seen_carveout, seen_optin;
    if (!web_req_known(r, occ_keys, e) || !web_get_int(r, "threads", &threads, &seen_threads, e) ||
        !web_get_int(r, "regs", &regs, &seen_regs, e) ||
        !web_get_bytes(r, "smem", &smem, &seen_smem, e) ||
        !web_get_bytes(r, "dynamic-smem", &dsmem, NULL, e) ||
        !web_get_percent(r, "carveout", &carveout, &seen_carveout, e) ||
        !web_get_int(r, "barriers", &barriers, NULL, e) ||
        !web_get_bytes(r, "max-dynamic-smem", &maxd, &seen_optin, e))
        return false;
    if (!seen_threads)
        return web_refuse(e, "threads", "--threads N (or --block XxY) is required");
    if (threads == 0)
        return web_refuse(e, "threads", "--threads must be at least 1");
    /* curves=no: the answer without the three curves (a sweep's many calls). */
    const char *curves = web_req_get(r, "curves");
    if (curves && strcmp(curves, "no") != 0)
        return web_refuse(e, "curves", "curves takes 'no' (the default draws them), got '%s'",
                          curves);
    gpu_arch arch;
    char label[256];
    web_clusters clusters;
    if (!web_resolve_target(api, r, &arch, label, sizeof label, e) ||
        !web_clusters_parse(api, r, &clusters, e))
        return false;
    bool real_gpu = web_req_get(r, "machine") == NULL;
    const char *not_given = !seen_regs && !seen_smem
                                ? "registers per thread (--regs) and static shared memory (--smem)"
                            : !seen_regs ? "registers per thread (--regs)"
                            : !seen_smem ? "static shared memory (--smem)"
                                         : NULL;
    occ_kernel k = {.regs_per_thread = regs, .static_smem = smem, .barriers = barriers};
    occ_launch l = {.threads_per_block = threads,
                    .dynamic_smem = dsmem,
                    .carveout_percent = seen_carveout ? (int)(carveout + 0.5) : -1,
                    .smem_optin = seen_optin,
                    .max_dynamic_smem = maxd};
    occ_result res;
    occ_compute(&arch, &k, &l, &res);
    sbuf *o = &api->out;
    int c = 0;
    sbuf_addc(o, '{');
    wj_key(o, "target", &c);
    wj_str(o, label);
    wj_key(o, "arch", &c);
    wj_str(o, arch.name);
    json_occ_contract(o, &k, &l, &res, &c);
    wj_key(o, "not_given", &c);
    sbuf_add(o, !seen_regs && !seen_smem ? "[\"registers_per_thread\",\"static_smem\"]"
                : !seen_regs             ? "[\"registers_per_thread\"]"
                : !seen_smem             ? "[\"static_smem\"]"
                                         : "[]");
    json_occ_words(o, &arch, &k, &l, &res, not_given, &c);
    sbuf t;
    sbuf_init(&t);
    /* What the command line prints; a block that cannot launch gets its
     * refusal (launch_error) instead, unless the steps were asked for. */
    if (explain || res.failure == OCC_OK)
        occ_answer_text(&t, &(occ_answer){.arch = &arch,
                                          .label = label,
                                          .real_gpu = real_gpu,
                                          .k = &k,
                                          .l = &l,
                                          .r = &res,
                                          .not_given = not_given,
                                          .regs_given = seen_regs,
                                          .explain = explain});
    if (explain || res.failure == OCC_OK)
        web_clusters_answer(&clusters, &arch, &res, explain, o, &c, &t);
    wj_key(o, "text", &c);
    wj_str(o, sbuf_str(&t));
    sbuf_free(&t);
    if (res.failure == OCC_OK && !curves)
        json_curves(o, &arch, &k, &l, &c);
    sbuf_addc(o, '}');
    return true;
}
