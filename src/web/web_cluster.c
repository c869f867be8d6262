/* web_cluster: `gpulint occupancy --cluster` for the web page: the same
 * words as the command line after the occupancy answer, and a "clusters"
 * array with the fields of its JSON. */
#include "web/web_cluster.h"

#include <stdio.h>
#include <string.h>

#include "analysis/calc/cluster_explain.h"
#include "util/units.h"
#include "web/web_json.h"

bool web_clusters_parse(const web_api *api, const web_req *r, web_clusters *out, web_err *e)
{
    memset(out, 0, sizeof *out);
    const char *shapes = web_req_get(r, "cluster"), *grid = web_req_get(r, "grid"),
               *gpcs = web_req_get(r, "gpc-sms");
    bool nonportable = false;
    if (!web_get_flag(r, "non-portable", &nonportable, e))
        return false;
    if (!shapes) {
        if (nonportable || grid || gpcs)
            return web_refuse(e, "cluster",
                              "--non-portable, --grid and --gpc-sms go with --cluster");
        return true;
    }
    char why[160];
    int dims[OCC_CLUSTER_MAX_SHAPES][3];
    if (!occ_cluster_parse_list(shapes, dims, OCC_CLUSTER_MAX_SHAPES, &out->n, why, sizeof why))
        return web_refuse(e, "cluster", "--cluster: %s", why);
    int grid_dims[3] = {0, 0, 0};
    if (grid && !units_parse_dim3(grid, grid_dims))
        return web_refuse(e, "grid", "invalid --grid '%s': expected N, XxY or XxYxZ", grid);
    gpu_product given = {0};
    if (gpcs && !model_parse_gpcs(gpcs, &given, why, sizeof why))
        return web_refuse(e, "gpc-sms", "invalid --gpc-sms: %s", why);
    const gpu_product *p = web_target_product(api, r);
    out->n_gpcs = gpcs ? given.n_gpcs : p ? p->n_gpcs : 0;
    memcpy(out->gpcs, gpcs ? given.gpc_sms : p ? p->gpc_sms : out->gpcs, sizeof out->gpcs);
    for (int i = 0; i < out->n; i++) {
        out->launch[i] = (occ_cluster_launch){.nonportable = nonportable};
        memcpy(out->launch[i].dims, dims[i], sizeof dims[i]);
        memcpy(out->launch[i].grid, grid_dims, sizeof grid_dims);
    }
    return true;
}

static void json_one(sbuf *o, const gpu_arch *a, const occ_cluster_launch *l,
                     const occ_cluster_result *r)
{
    int c = 0;
    sbuf_addc(o, '{');
    int64_t d[3] = {l->dims[0], l->dims[1], l->dims[2]};
    wj_key(o, "dims", &c);
    wj_dims(o, d);
    wj_key(o, "size", &c);
    wj_int(o, r->size);
    wj_key(o, "nonportable_opt_in", &c);
    sbuf_add(o, l->nonportable ? "true" : "false");
    wj_key(o, "portable_limit", &c);
    wj_int(o, a->cluster_max_portable);
    wj_key(o, "nonportable_limit", &c);
    wj_int(o, a->cluster_max_nonportable);
    const char *why = occ_cluster_failure_reason(r->failure);
    wj_key(o, "error", &c);
    if (why)
        wj_str(o, why);
    else
        sbuf_add(o, "null");
    if (r->failure == OCC_CLUSTER_OK || r->failure == OCC_CLUSTER_NO_LAYOUT ||
        r->failure == OCC_CLUSTER_NO_GPC) {
        const struct {
            const char *key;
            int64_t v;
        } nums[] = {{"occupancy_blocks_per_sm", r->occ_blocks_per_sm},
                    {"blocks_per_sm", r->blocks_per_sm},
                    {"largest_portable", r->largest_portable},
                    {"largest_nonportable", r->largest_nonportable}};
        for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
            wj_key(o, nums[i].key, &c);
            wj_int(o, nums[i].v);
        }
        wj_key(o, "capped_by_cluster_launch", &c);
        sbuf_add(o, r->capped ? "true" : "false");
        wj_key(o, "active_clusters", &c);
        if (r->failure == OCC_CLUSTER_NO_LAYOUT) {
            sbuf_add(o, "null");
        } else {
            wj_int(o, r->clusters);
            wj_key(o, "sms_used", &c);
            wj_int(o, r->sms_used);
            wj_key(o, "idle_block_slots", &c);
            wj_int(o, r->slots_idle);
            wj_key(o, "per_gpc", &c);
            sbuf_addc(o, '[');
            for (int g = 0; g < r->n_gpcs; g++)
                sbuf_addf(o, "%s{\"sms\":%d,\"clusters\":%d}", g ? "," : "", r->gpc_sms[g],
                          r->gpc_clusters[g]);
            sbuf_addc(o, ']');
        }
    }
    sbuf_addc(o, '}');
}

void web_clusters_answer(const web_clusters *w, const gpu_arch *a, const occ_result *occ,
                         bool explain, sbuf *json, int *count, sbuf *text)
{
    if (!w->n)
        return;
    wj_key(json, "clusters", count);
    sbuf_addc(json, '[');
    const char *refused = NULL;
    for (int i = 0; i < w->n; i++) {
        occ_cluster_result r;
        occ_cluster_compute(a, w->gpcs, w->n_gpcs, occ, &w->launch[i], &r);
        if (i)
            sbuf_addc(json, ',');
        json_one(json, a, &w->launch[i], &r);
        cluster_block_text(text, a, &w->launch[i], &r, explain);
        if (!refused && r.failure != OCC_CLUSTER_OK && r.failure != OCC_CLUSTER_NO_LAYOUT)
            refused = occ_cluster_failure_reason(r.failure);
    }
    sbuf_addc(json, ']');
    if (refused) {
        wj_key(json, "cluster_error", count);
        wj_str(json, refused);
    }
}
