/* occ_report: occupancy in words and JSON. */
#include "report/occ_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static json_t *limit_value(int v)
{
    return v == OCC_UNLIMITED ? json_null() : json_integer(v);
}

json_t *occ_json(const gpu_arch *a, const occ_kernel *k, const occ_launch *l, const occ_result *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "arch", json_string(a->name));
    json_object_set_new(o, "threads_per_block", json_integer(l->threads_per_block));
    json_object_set_new(o, "registers_per_thread", json_integer(k->regs_per_thread));
    json_object_set_new(o, "static_smem", json_integer(k->static_smem));
    json_object_set_new(o, "dynamic_smem", json_integer(l->dynamic_smem));
    json_object_set_new(o, "barriers", json_integer(k->barriers));
    json_object_set_new(o, "carveout_percent",
                        l->carveout_percent < 0 ? json_null() : json_integer(l->carveout_percent));
    json_object_set_new(o, "blocks_per_sm", json_integer(r->blocks_per_sm));
    json_object_set_new(o, "warps_per_sm", json_integer(r->warps_per_sm));
    json_object_set_new(o, "max_warps_per_sm", json_integer(r->max_warps_per_sm));
    json_object_set_new(o, "occupancy", json_real(r->occupancy));
    json_t *lims = json_array();
    for (unsigned bit = 1; bit <= OCC_LIM_BARRIERS; bit <<= 1)
        if (r->limiters & bit)
            json_array_append_new(lims, json_string(occ_limiter_name((occ_limiter)bit)));
    json_object_set_new(o, "limiters", lims);
    json_t *limits = json_object();
    json_object_set_new(limits, "warps", limit_value(r->limit_warps));
    json_object_set_new(limits, "registers", limit_value(r->limit_registers));
    json_object_set_new(limits, "shared_memory", limit_value(r->limit_smem));
    json_object_set_new(limits, "blocks", limit_value(r->limit_blocks));
    json_object_set_new(limits, "barriers", limit_value(r->limit_barriers));
    json_object_set_new(o, "limits", limits);
    json_object_set_new(o, "allocated_registers_per_block",
                        json_integer(r->regs_per_block_allocated));
    json_object_set_new(o, "allocated_smem_per_block", json_integer(r->smem_per_block_allocated));
    json_object_set_new(o, "smem_per_sm_used", json_integer(r->smem_per_sm_used));
    if (r->failure != OCC_OK)
        json_object_set_new(o, "reason", json_string(occ_failure_reason(r->failure)));
    return o;
}
