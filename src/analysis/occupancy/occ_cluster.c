/* occ_cluster: resident thread-block clusters; the rule is in the header. */
#include "analysis/occupancy/occ_cluster.h"

#include <stdio.h>
#include <string.h>

#include "util/units.h"

/* Clusters of c blocks a GPC of n SMs holds at b blocks an SM: a cluster
 * never spans GPCs, and its blocks may share an SM, yet a GPC of fewer
 * SMs than the cluster has blocks holds none (clusters of 4 and 8 never
 * used the H200's four 2-SM groups, even at 8 blocks an SM). */
static int64_t gpc_holds(int n, int b, int c)
{
    return n >= c ? (int64_t)n * b / c : 0;
}

static int64_t count(const int *gpcs, int n_gpcs, int b, int c)
{
    int64_t total = 0;
    for (int g = 0; g < n_gpcs; g++)
        total += gpc_holds(gpcs[g], b, c);
    return total;
}

/* The largest cluster size up to limit that holds at least once. */
static int largest(const int *gpcs, int n_gpcs, int b, int limit)
{
    if (!n_gpcs)
        return limit;
    for (int c = limit; c >= 1; c--)
        if (count(gpcs, n_gpcs, b, c) > 0)
            return c;
    return 0;
}

static bool fail(occ_cluster_result *r, occ_cluster_failure f)
{
    r->failure = f;
    return false;
}

static occ_cluster_failure check_shape(const gpu_arch *a, const occ_cluster_launch *l,
                                       occ_cluster_result *r)
{
    int64_t size = 1;
    for (int d = 0; d < 3; d++) {
        if (l->dims[d] < 1)
            return OCC_CLUSTER_BAD_SHAPE;
        size *= l->dims[d];
        if (size > 1024) /* past every limit; stops the product overflowing */
            break;
    }
    r->size = size > 1024 ? 1025 : (int)size;
    if (!a->cluster_max_portable)
        return a->cc_major >= 9 ? OCC_CLUSTER_UNMEASURED : OCC_CLUSTER_UNSUPPORTED;
    r->size_limit = l->nonportable ? a->cluster_max_nonportable : a->cluster_max_portable;
    if (size > a->cluster_max_nonportable)
        return OCC_CLUSTER_TOO_LARGE;
    if (size > r->size_limit)
        return OCC_CLUSTER_NEEDS_OPTIN;
    for (int d = 0; d < 3; d++)
        if (l->grid[d] > 0 && l->grid[d] % l->dims[d] != 0)
            return OCC_CLUSTER_GRID;
    return OCC_CLUSTER_OK;
}

bool occ_cluster_compute(const gpu_arch *arch, const int *gpcs, int n_gpcs, const occ_result *occ,
                         const occ_cluster_launch *l, occ_cluster_result *r)
{
    memset(r, 0, sizeof *r);
    occ_cluster_failure f = check_shape(arch, l, r);
    if (f != OCC_CLUSTER_OK)
        return fail(r, f);
    if (n_gpcs > MODEL_MAX_GPCS)
        n_gpcs = MODEL_MAX_GPCS;
    r->n_gpcs = gpcs ? n_gpcs : 0;
    if (r->n_gpcs)
        memcpy(r->gpc_sms, gpcs, (size_t)r->n_gpcs * sizeof *gpcs);
    r->occ_blocks_per_sm = occ->blocks_per_sm;
    r->blocks_per_sm = occ->blocks_per_sm < arch->cluster_blocks_per_sm
                           ? occ->blocks_per_sm
                           : arch->cluster_blocks_per_sm;
    r->capped = occ->blocks_per_sm > arch->cluster_blocks_per_sm;
    if (occ->failure != OCC_OK || r->blocks_per_sm <= 0)
        return fail(r, OCC_CLUSTER_BLOCK);
    r->largest_portable =
        largest(r->gpc_sms, r->n_gpcs, r->blocks_per_sm, arch->cluster_max_portable);
    r->largest_nonportable =
        largest(r->gpc_sms, r->n_gpcs, r->blocks_per_sm, arch->cluster_max_nonportable);
    if (!r->n_gpcs)
        return fail(r, OCC_CLUSTER_NO_LAYOUT);
    for (int g = 0; g < r->n_gpcs; g++) {
        int64_t held = gpc_holds(r->gpc_sms[g], r->blocks_per_sm, r->size);
        r->gpc_clusters[g] = (int)held;
        r->clusters += held;
        if (held)
            r->sms_used += r->gpc_sms[g];
        r->slots_idle += (int64_t)r->gpc_sms[g] * r->blocks_per_sm - held * r->size;
    }
    return r->clusters > 0 ? true : fail(r, OCC_CLUSTER_NO_GPC);
}

const char *occ_cluster_failure_reason(occ_cluster_failure f)
{
    switch (f) {
    case OCC_CLUSTER_OK:
        return NULL;
    case OCC_CLUSTER_UNSUPPORTED:
        return "thread-block clusters need compute capability 9.0 or later";
    case OCC_CLUSTER_UNMEASURED:
        return "the model gives no cluster limits for this architecture (not measured)";
    case OCC_CLUSTER_BAD_SHAPE:
        return "every cluster dimension must be at least 1";
    case OCC_CLUSTER_TOO_LARGE:
        return "cudaErrorInvalidClusterSize: more blocks than any cluster may have";
    case OCC_CLUSTER_NEEDS_OPTIN:
        return "cudaErrorInvalidClusterSize: above the portable cluster size without "
               "cudaFuncAttributeNonPortableClusterSizeAllowed";
    case OCC_CLUSTER_GRID:
        return "cudaErrorInvalidClusterSize: the grid is not a whole number of clusters in "
               "every dimension";
    case OCC_CLUSTER_BLOCK:
        return "a block of this launch cannot run on an SM";
    case OCC_CLUSTER_NO_LAYOUT:
        return "the GPU model gives no GPC layout (gpc_sms), so the count of clusters is "
               "not known";
    case OCC_CLUSTER_NO_GPC:
        return "no GPC has enough SMs for one cluster";
    }
    return "unknown";
}

bool occ_cluster_parse_list(const char *text, int dims[][3], int max, int *n, char *why,
                            size_t why_len)
{
    *n = 0;
    const char *p = text;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char one[64];
        if (*n == max) {
            snprintf(why, why_len, "at most %d shapes", max);
            return false;
        }
        if (len == 0 || len >= sizeof one) {
            snprintf(why, why_len, "expected N, XxY or XxYxZ between the commas of '%s'", text);
            return false;
        }
        memcpy(one, p, len);
        one[len] = '\0';
        if (!units_parse_dim3(one, dims[*n])) {
            snprintf(why, why_len, "invalid shape '%s': expected N, XxY or XxYxZ", one);
            return false;
        }
        (*n)++;
        if (!end)
            return true;
        p = end + 1;
    }
}
