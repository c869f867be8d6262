/* roofline_mma: `gpulint roofline --gemm M,N,K --mma SHAPE --format json`
 * (analysis/calc/mma_calc has the calculator and its words). */
#include "cli/roofline_mma.h"

#include <jansson.h>

#include "cli/cli.h"

static json_t *lanes_json(const mma_lanes *l)
{
    json_t *wmma = json_null();
    if (l->wmma_elems[0])
        wmma = json_pack("{s:i, s:i, s:i}", "a", l->wmma_elems[0], "b", l->wmma_elems[1],
                         "accumulator", l->wmma_elems[2]);
    return json_pack("{s:i, s:i, s:i, s:[i,i,i], s:i, s:o}", "a", l->elems[0], "b", l->elems[1],
                     "c", l->elems[2], "registers", l->regs[0], l->regs[1], l->regs[2],
                     "accumulator_bytes", l->accumulator_bytes, "wmma", wmma);
}

void roofline_mma_json(const mma_calc *m)
{
    const mmaplan *r = &m->r;
    json_t *dims_j = json_array(), *frags = json_array(), *util = json_array();
    for (int i = 0; i < 3; i++) {
        json_array_append_new(dims_j, json_integer(r->dims[i]));
        json_array_append_new(frags, json_integer(r->frags[i]));
        json_array_append_new(util, json_real(r->util[i]));
    }
    json_t *o = json_pack(
        "{s:o, s:s, s:o, s:o, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:s, s:f, s:f}", "gemm",
        dims_j, "mma", m->shape.name, "fragments", frags, "utilization", util, "utilization_total",
        r->util_total, "flops", r->flops, "dram_bytes", r->bytes, "ai", r->ai, "peak", r->peak,
        "effective_peak", r->effective_peak, "bandwidth", r->bandwidth, "bandwidth_needed",
        r->bandwidth_needed, "attainable", r->attainable, "bound",
        r->memory_bound ? "memory" : "compute", "min_time", r->min_time, "time_memory",
        r->time_memory);
    json_object_set_new(o, "lanes", lanes_json(&m->lanes));
    if (m->measured > 0)
        json_object_set_new(o, "measured",
                            json_pack("{s:f, s:f, s:f}", "rate", r->measured, "of_peak", r->of_peak,
                                      "of_attainable", r->of_attainable));
    cli_put_json(o);
}
