/* cluster_explain: clusters in words; see the header. */
#include "analysis/calc/cluster_explain.h"

void cluster_shape_text(sbuf *out, const int dims[3])
{
    if (dims[1] == 1 && dims[2] == 1)
        sbuf_addf(out, "%d", dims[0]);
    else
        sbuf_addf(out, "%dx%dx%d", dims[0], dims[1], dims[2]);
}

/* GPCs of equal size run together: "16 SMs x5: 32 each". */
static void per_gpc(sbuf *out, const occ_cluster_result *r, bool explain)
{
    for (int g = 0; g < r->n_gpcs;) {
        int same = 1;
        while (g + same < r->n_gpcs && r->gpc_sms[g + same] == r->gpc_sms[g])
            same++;
        int n = r->gpc_sms[g];
        sbuf_addf(out, "    %2d SMs", n);
        if (same > 1)
            sbuf_addf(out, " x%d", same);
        if (n < r->size)
            sbuf_addf(out, ": 0 (fewer SMs than a cluster has blocks)\n");
        else if (explain)
            sbuf_addf(out, ": floor(%d x %d / %d) = %d%s\n", n, r->blocks_per_sm, r->size,
                      r->gpc_clusters[g], same > 1 ? " each" : "");
        else
            sbuf_addf(out, ": %d%s\n", r->gpc_clusters[g], same > 1 ? " each" : "");
        g += same;
    }
}

static void limits(sbuf *out, const gpu_arch *a, const occ_cluster_result *r)
{
    sbuf_addf(out,
              "  largest cluster  %d blocks (portable limit %d); %d with "
              "cudaFuncAttributeNonPortableClusterSizeAllowed (limit %d)\n",
              r->largest_portable, a->cluster_max_portable, r->largest_nonportable,
              a->cluster_max_nonportable);
}

void cluster_answer_text(sbuf *out, const gpu_arch *a, const occ_cluster_launch *l,
                         const occ_cluster_result *r, bool explain)
{
    sbuf_addf(out, "clusters of ");
    cluster_shape_text(out, l->dims);
    if (r->size > 1024)
        sbuf_addf(out, " (more than 1024 blocks)\n");
    else
        sbuf_addf(out, " (%d block%s%s)\n", r->size, r->size == 1 ? "" : "s",
                  a->cluster_max_portable && r->size > a->cluster_max_portable ? ", non-portable"
                                                                               : "");
    const char *why = occ_cluster_failure_reason(r->failure);
    if (r->failure != OCC_CLUSTER_OK && r->failure != OCC_CLUSTER_NO_LAYOUT &&
        r->failure != OCC_CLUSTER_NO_GPC) {
        sbuf_addf(out, "  cannot launch    %s\n", why);
        return;
    }
    sbuf_addf(out, "  blocks/SM        %d", r->blocks_per_sm);
    if (r->capped)
        sbuf_addf(out, " (occupancy allows %d; a cluster launch keeps at most %d on an SM)",
                  r->occ_blocks_per_sm, a->cluster_blocks_per_sm);
    sbuf_addc(out, '\n');
    if (r->failure == OCC_CLUSTER_NO_LAYOUT) {
        sbuf_addf(out, "  clusters         unknown: %s\n", why);
        limits(out, a, r);
        return;
    }
    int sms = 0;
    for (int g = 0; g < r->n_gpcs; g++)
        sms += r->gpc_sms[g];
    sbuf_addf(
        out,
        "  clusters         %lld resident at once (%lld blocks, in GPCs with %d of the %d SMs)\n",
        (long long)r->clusters, (long long)r->clusters * r->size, r->sms_used, sms);
    if (explain)
        sbuf_addf(out,
                  "  per GPC          a cluster's blocks share one GPC; a GPC of n SMs holds "
                  "floor(n x %d / %d) when n >= %d:\n",
                  r->blocks_per_sm, r->size, r->size);
    else
        sbuf_addf(out, "  per GPC\n");
    per_gpc(out, r, explain);
    if (r->slots_idle > 0)
        sbuf_addf(out, "  idle             %lld block slots no whole cluster fits in\n",
                  (long long)r->slots_idle);
    limits(out, a, r);
}

void cluster_block_text(sbuf *out, const gpu_arch *a, const occ_cluster_launch *l,
                        const occ_cluster_result *r, bool explain)
{
    sbuf_addc(out, '\n');
    cluster_answer_text(out, a, l, r, explain);
    if (r->failure == OCC_CLUSTER_NO_LAYOUT)
        sbuf_addf(out, "  (give the SMs of each GPC with --gpc-sms, or a --gpu whose model has "
                       "them: h200)\n");
}
