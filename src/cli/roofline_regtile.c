/* roofline_regtile: the register tile's figures in `gpulint roofline
 * --format json` (analysis/calc/regtile_text has its words). */
#include "cli/roofline_regtile.h"

static json_t *num_or_null(double v)
{
    return v > 0 ? json_real(v) : json_null();
}

json_t *roofline_regtile_json(const regtile *r, double peak)
{
    json_t *o = json_object();
    json_object_set_new(o, "tm", json_integer(r->tm));
    json_object_set_new(o, "tn", json_integer(r->tn));
    json_object_set_new(o, "threads_per_block", json_integer(r->threads_per_block));
    json_object_set_new(o, "outputs_per_thread", json_integer(r->outputs_per_thread));
    json_object_set_new(o, "fma_per_smem_load", json_real(r->fma_per_load));
    json_object_set_new(o, "load_reduction", json_real(r->gain));
    json_object_set_new(o, "smem_loads", json_real(r->smem_loads));
    json_object_set_new(o, "smem_bytes", json_real(r->smem_bytes));
    json_object_set_new(o, "smem_ai", json_real(r->smem_ai));
    json_object_set_new(o, "registers_min", json_integer(r->registers_min));
    json_object_set_new(o, "smem_bandwidth", num_or_null(r->smem_bandwidth));
    json_object_set_new(o, "smem_ceiling_flops", num_or_null(r->smem_ceiling));
    json_object_set_new(o, "smem_ceiling_flops_untiled", num_or_null(r->smem_ceiling_untiled));
    json_object_set_new(o, "a_conflict", num_or_null(r->a_conflict));
    json_object_set_new(o, "b_conflict", num_or_null(r->b_conflict));
    json_object_set_new(o, "smem_ceiling_flops_banked", num_or_null(r->smem_ceiling_banked));
    json_object_set_new(o, "smem_limits",
                        r->smem_ceiling > 0 && peak > 0
                            ? json_boolean((r->smem_ceiling_banked > 0 ? r->smem_ceiling_banked
                                                                       : r->smem_ceiling) < peak)
                            : json_null());
    return o;
}
