/* vcheck_occupancy: blocks per SM, measured from residency records (which
 * SM each block ran on, and when) against the occupancy engine; for a
 * cluster launch, clusters resident at once against the cluster
 * calculator with the GPU model's GPC layout. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/occupancy/occ.h"
#include "analysis/occupancy/occ_cluster.h"
#include "util/sbuf.h"
#include "verify/vrun.h"

/* Above 48 KB of shared memory a block must opt in (cudaFuncSetAttribute). */
#define STATIC_SMEM_LIMIT 49152

/* The occupancy engine's blocks per SM for the case, from ptxas's numbers
 * (none known: a kernel of no resources, which the probe's launch only
 * uses to size its grid). */
static void predict(const vrun *x, const vcase *c, const ptxas_kernel *pk, occ_result *occ)
{
    occ_kernel k = {pk ? pk->registers : 0, pk ? pk->static_smem : 0, pk ? pk->barriers : 0};
    occ_launch l = {.threads_per_block = c->block,
                    .dynamic_smem = c->dynamic_smem,
                    .carveout_percent = c->carveout,
                    .smem_optin = c->dynamic_smem > STATIC_SMEM_LIMIT - k.static_smem,
                    .max_dynamic_smem = c->dynamic_smem};
    occ_compute(&x->arch, &k, &l, occ);
}

/* Clusters resident at once as the calculator has them (0 when it cannot
 * say; *cr says why). */
static int64_t predict_clusters(const vrun *x, const vcase *c, const occ_result *occ,
                                occ_cluster_result *cr)
{
    occ_cluster_launch l = {.dims = {c->cluster, 1, 1}, .nonportable = c->nonportable};
    const gpu_product *p = x->have_product ? &x->product : NULL;
    occ_cluster_compute(&x->arch, p ? p->gpc_sms : NULL, p ? p->n_gpcs : 0, occ, &l, cr);
    return cr->failure == OCC_CLUSTER_OK ? cr->clusters : 0;
}

bool vcheck_occupancy_measure(vmeasure *m)
{
    vrun *x = m->x;
    const vcase *c = m->c;
    const ptxas_kernel *pk =
        vrun_ptx_kernel(vrun_unit_for(x, vrun_group_of(x, c)->file), c->kernel);
    occ_result occ;
    predict(x, c, pk, &occ);
    occ_cluster_result cr;
    int64_t clusters = c->cluster ? predict_clusters(x, c, &occ, &cr) : 0;
    probe_residency_spec spec = {
        .block = c->block,
        .dynamic_smem = c->dynamic_smem,
        .carveout = c->carveout,
        .predicted = c->cluster ? (int)clusters : occ.blocks_per_sm,
        .sms = x->r->sms,
        .spin_ns = (uint64_t)vrun_size_of(&x->r->manifest, "RESIDENCY_SPIN_NS", 20000),
        .cluster = c->cluster,
        .nonportable = c->nonportable};
    probe_residency pr;
    bool ok = probe_residency_run(m->k, &spec, &pr, m->err, sizeof m->err);
    if (ok && c->cluster) {
        x->raw[m->ci] = judge_clusters(pr.records, (size_t)pr.grid, c->cluster);
        x->raw2[m->ci] = pr.api;
        json_object_set_new(m->extra, "api", json_integer(pr.api));
        json_object_set_new(m->extra, "grid", json_integer(pr.grid));
        json_object_set_new(m->extra, "runtime_registers", json_integer(pr.registers));
        free(pr.records);
    } else if (ok) {
        int sms_at_max = 0;
        x->raw[m->ci] = judge_residency(pr.records, (size_t)pr.grid, x->r->sms, &sms_at_max);
        x->raw2[m->ci] = pr.api;
        json_object_set_new(m->extra, "api", json_integer(pr.api));
        json_object_set_new(m->extra, "grid", json_integer(pr.grid));
        json_object_set_new(m->extra, "sms_at_max", json_integer(sms_at_max));
        json_object_set_new(m->extra, "runtime_registers", json_integer(pr.registers));
        free(pr.records);
    }
    return ok;
}

void vcheck_occupancy_judge(vrun *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    vrow *row = vrun_new_row(x, c);
    const ptxas_kernel *pk =
        vrun_ptx_kernel(vrun_unit_for(x, vrun_group_of(x, c)->file), c->kernel);
    snprintf(row->unit, sizeof row->unit, c->cluster ? "clusters" : "blocks/SM");
    snprintf(row->method, sizeof row->method, "residency records (%%smid, %%globaltimer)");
    snprintf(row->tolerance, sizeof row->tolerance, "exact");
    sbuf b;
    sbuf_init(&b);
    if (c->cluster)
        sbuf_addf(&b, "clusters of %d%s, ", c->cluster, c->nonportable ? " (non-portable)" : "");
    sbuf_addf(&b, "block %d", c->block);
    if (c->dynamic_smem)
        sbuf_addf(&b, ", dynamic %lld B", (long long)c->dynamic_smem);
    if (c->carveout >= 0)
        sbuf_addf(&b, ", carveout %d%%", c->carveout);
    snprintf(row->launch, sizeof row->launch, "%s", sbuf_str(&b));
    sbuf_free(&b);
    if (!pk) {
        snprintf(row->reason, sizeof row->reason, "ptxas reported no resources for %s", c->kernel);
        vrun_finish_row(x, row, ci);
        return;
    }
    occ_result occ;
    predict(x, c, pk, &occ);
    occ_cluster_result cr = {0};
    row->predicted = c->cluster ? (double)predict_clusters(x, c, &occ, &cr) : occ.blocks_per_sm;
    if (c->cluster && cr.failure != OCC_CLUSTER_OK) {
        snprintf(row->reason, sizeof row->reason, "%s", occ_cluster_failure_reason(cr.failure));
        row->predicted = NAN;
    }
    json_object_set_new(row->detail, "registers", json_integer(pk->registers));
    json_object_set_new(row->detail, "static_smem", json_integer(pk->static_smem));
    json_object_set_new(row->detail, "barriers", json_integer(pk->barriers));
    json_t *lims = json_array();
    for (unsigned bit = 1; bit <= OCC_LIM_BARRIERS; bit <<= 1)
        if (occ.limiters & bit)
            json_array_append_new(lims, json_string(occ_limiter_name((occ_limiter)bit)));
    json_object_set_new(row->detail, "limiters", lims);
    if (c->cluster) {
        json_object_set_new(row->detail, "cluster", json_integer(c->cluster));
        json_object_set_new(row->detail, "cluster_blocks_per_sm", json_integer(cr.blocks_per_sm));
        json_object_set_new(row->detail, "gpcs", json_integer(cr.n_gpcs));
    }
    if (!x->r->dry_run && !x->why[ci]) {
        row->measured = x->raw[ci];
        row->verdict = judge_count(row->predicted, row->measured, 0, 0);
        if (x->raw2[ci] != row->predicted && !isnan(row->predicted))
            snprintf(row->reason, sizeof row->reason, "%s says %.0f",
                     c->cluster ? "cudaOccupancyMaxActiveClusters"
                                : "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                     x->raw2[ci]);
    }
    vrun_finish_row(x, row, ci);
}
