/* cluster_report: clusters as JSON; see the header. */
#include "report/cluster_report.h"

static json_t *dims_json(const int d[3])
{
    return json_pack("[iii]", d[0], d[1], d[2]);
}

json_t *cluster_json(const gpu_arch *a, const occ_cluster_launch *l, const occ_cluster_result *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "dims", dims_json(l->dims));
    json_object_set_new(o, "size", json_integer(r->size));
    json_object_set_new(o, "nonportable_opt_in", json_boolean(l->nonportable));
    json_object_set_new(o, "portable_limit", json_integer(a->cluster_max_portable));
    json_object_set_new(o, "nonportable_limit", json_integer(a->cluster_max_nonportable));
    const char *why = occ_cluster_failure_reason(r->failure);
    json_object_set_new(o, "error", why ? json_string(why) : json_null());
    if (r->failure != OCC_CLUSTER_OK && r->failure != OCC_CLUSTER_NO_LAYOUT &&
        r->failure != OCC_CLUSTER_NO_GPC)
        return o;
    json_object_set_new(o, "occupancy_blocks_per_sm", json_integer(r->occ_blocks_per_sm));
    json_object_set_new(o, "blocks_per_sm", json_integer(r->blocks_per_sm));
    json_object_set_new(o, "capped_by_cluster_launch", json_boolean(r->capped));
    json_object_set_new(o, "largest_portable", json_integer(r->largest_portable));
    json_object_set_new(o, "largest_nonportable", json_integer(r->largest_nonportable));
    if (r->failure == OCC_CLUSTER_NO_LAYOUT) {
        json_object_set_new(o, "active_clusters", json_null());
        return o;
    }
    json_object_set_new(o, "active_clusters", json_integer(r->clusters));
    json_object_set_new(o, "sms_used", json_integer(r->sms_used));
    json_object_set_new(o, "idle_block_slots", json_integer(r->slots_idle));
    json_t *gpcs = json_array();
    for (int g = 0; g < r->n_gpcs; g++)
        json_array_append_new(
            gpcs, json_pack("{s:i,s:i}", "sms", r->gpc_sms[g], "clusters", r->gpc_clusters[g]));
    json_object_set_new(o, "per_gpc", gpcs);
    return o;
}
