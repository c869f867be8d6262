/* launch_cluster: clusters of one launch; see the header. */
#include "report/launch_cluster.h"

#include <stdio.h>

#include "analysis/calc/cluster_explain.h"
#include "analysis/occupancy/occ_cluster.h"
#include "report/cluster_report.h"
#include "util/sbuf.h"

static bool refused(occ_cluster_failure f)
{
    return f != OCC_CLUSTER_OK && f != OCC_CLUSTER_NO_LAYOUT && f != OCC_CLUSTER_UNMEASURED;
}

static void note(const launch_cluster_in *in, const occ_cluster_result *r, sbuf *m)
{
    const gpu_arch *a = in->arch;
    const char *on = in->product ? in->product->name : a->name;
    if (r->failure == OCC_CLUSTER_UNMEASURED) {
        sbuf_addf(m, "; %s", occ_cluster_failure_reason(r->failure));
        return;
    }
    if (r->failure == OCC_CLUSTER_OK)
        sbuf_addf(m, ": %lld resident at once on %s", (long long)r->clusters, on);
    else
        sbuf_addf(m,
                  ": how many are resident at once on %s is not known (its model gives no GPC "
                  "layout)",
                  on);
    if (r->capped)
        sbuf_addf(m,
                  "; %d blocks an SM where occupancy allows %d (a cluster launch keeps at most %d)",
                  r->blocks_per_sm, r->occ_blocks_per_sm, a->cluster_blocks_per_sm);
    if (r->failure == OCC_CLUSTER_OK && r->slots_idle > 0)
        sbuf_addf(m,
                  "; %lld block slots stay idle (GPCs of fewer SMs than a cluster, or a "
                  "remainder)",
                  (long long)r->slots_idle);
}

static int check(const launch_cluster_in *in, json_t *launch_json, finding_list *findings)
{
    const cusrc_launch *l = in->launch;
    if (!l->cluster.present)
        return 0;
    const cusrc_value *v[3] = {&l->cluster.x, &l->cluster.y, &l->cluster.z};
    occ_cluster_launch cl = {.nonportable = l->cluster_nonportable};
    for (int d = 0; d < 3; d++) {
        if (!v[d]->known) {
            json_object_set_new(
                launch_json, "cluster",
                json_pack("{s:s, s:n, s:s}", "from", l->cluster_from, "dims", "reason",
                          v[d]->why ? v[d]->why : "the cluster size is not a constant"));
            return 0;
        }
        cl.dims[d] = v[d]->value > 1024 ? 1025 : v[d]->value < 0 ? 0 : (int)v[d]->value;
        cl.grid[d] = in->grid ? (int)(in->grid[d] > 0x7fffffff ? 0 : in->grid[d]) : 0;
    }
    const gpu_product *p = in->product;
    occ_cluster_result r;
    occ_cluster_compute(in->arch, p ? p->gpc_sms : NULL, p ? p->n_gpcs : 0, in->occ, &cl, &r);
    json_t *o = cluster_json(in->arch, &cl, &r);
    json_object_set_new(o, "from", json_string(l->cluster_from));
    json_object_set_new(launch_json, "cluster", o);
    sbuf shape, m;
    sbuf_init(&shape);
    sbuf_init(&m);
    cluster_shape_text(&shape, cl.dims);
    sbuf_addf(&m, "this launch of '%s' runs in clusters of %s (%s)", in->kernel, sbuf_str(&shape),
              l->cluster_from);
    if (refused(r.failure)) {
        sbuf_addf(&m, " and will fail on %s: %s", in->arch->name,
                  occ_cluster_failure_reason(r.failure));
        if (r.failure == OCC_CLUSTER_NEEDS_OPTIN)
            sbuf_addf(&m,
                      "; call cudaFuncSetAttribute(%s, "
                      "cudaFuncAttributeNonPortableClusterSizeAllowed, 1) first",
                      l->kernel_name ? l->kernel_name : in->kernel);
        findings_add(findings, "gpulint-cluster", SEV_ERROR, in->file, l->loc.line, l->loc.column,
                     NULL, "%s", sbuf_str(&m));
    } else {
        note(in, &r, &m);
        findings_add(findings, "gpulint-cluster", SEV_NOTE, in->file, l->loc.line, l->loc.column,
                     r.failure == OCC_CLUSTER_OK
                         ? json_pack("{s:I}", "active_clusters", (json_int_t)r.clusters)
                         : NULL,
                     "%s", sbuf_str(&m));
    }
    sbuf_free(&shape);
    sbuf_free(&m);
    return !refused(r.failure) && r.capped ? r.blocks_per_sm : 0;
}

bool launch_cluster_apply(const launch_cluster_in *in, occ_result *held, json_t *launch_json,
                          finding_list *findings)
{
    int capped = check(in, launch_json, findings);
    if (!capped)
        return false;
    held->blocks_per_sm = capped;
    held->warps_per_sm = capped * held->warps_per_block;
    held->occupancy = (double)held->warps_per_sm / held->max_warps_per_sm;
    return true;
}

void launch_cluster_occupancy_cell(const json_t *occ, const json_t *cluster, char *cell, size_t n)
{
    json_int_t blocks = json_integer_value(json_object_get(occ, "blocks_per_sm"));
    double occupancy = json_real_value(json_object_get(occ, "occupancy"));
    if (json_is_true(json_object_get(cluster, "capped_by_cluster_launch")) && blocks > 0) {
        json_int_t held = json_integer_value(json_object_get(cluster, "blocks_per_sm"));
        snprintf(cell, n, "%lld blocks/SM, %.1f%% (clusters)", (long long)held,
                 occupancy * (double)held / (double)blocks * 100.0);
        return;
    }
    snprintf(cell, n, "%lld blocks/SM, %.1f%%", (long long)blocks, occupancy * 100.0);
}
