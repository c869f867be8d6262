/* roofline_mma: fragments, traffic, bound and the gap to a measured rate. */
#include "cli/roofline_mma.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/sbuf.h"
#include "analysis/roofline.h"
#include "util/units.h"

bool roofline_mma_elems(const char *p, int *in, int *out)
{
    /* Operands as the instruction reads them; results as GEMM libraries
     * store them (FP8 GEMMs write FP16/BF16, INT8 ones INT32). */
    static const struct {
        const char *name;
        int in, out;
    } t[] = {{"fp16-tensor", 2, 2}, {"bf16-tensor", 2, 2}, {"tf32-tensor", 4, 4},
             {"fp8-tensor", 1, 2},  {"int8-tensor", 1, 4}, {"fp64-tensor", 8, 8}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(p, t[i].name) == 0) {
            *in = t[i].in;
            *out = t[i].out;
            return true;
        }
    return false;
}

/* unit may carry text after the unit ("FLOP (2MNK)\n"): the number is
 * formatted with the first word, the rest follows. */
static void si(sbuf *b, double v, const char *unit)
{
    char u[32], buf[64];
    size_t n = strcspn(unit, " \n");
    snprintf(u, sizeof u, "%.*s", (int)n, unit);
    sbuf_addf(b, "%s%s", units_fmt_si(v, u, buf, sizeof buf), unit + n);
}

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

static void lanes_text(const mma_shape *s, const char *precision, const mma_lanes *l, sbuf *b)
{
    sbuf_addf(b,
              "per lane, each element held once: A %d x %d / 32 = %d (%d registers), B %d x %d "
              "/ 32 = %d (%d), C %d x %d / 32 = %d (%d, %d-byte accumulators)\n",
              s->m, s->k, l->elems[0], l->regs[0], s->k, s->n, l->elems[1], l->regs[1], s->m, s->n,
              l->elems[2], l->regs[2], l->accumulator_bytes);
    if (!precision)
        return;
    if (!l->wmma_elems[0]) {
        sbuf_addf(b, "WMMA has no %s fragment for %s: mma.sync (PTX) only\n", s->name, precision);
        return;
    }
    sbuf_addf(b, "WMMA fragment num_elements: A %d, B %d, accumulator %d", l->wmma_elems[0],
              l->wmma_elems[1], l->wmma_elems[2]);
    if (l->wmma_elems[0] != l->elems[0] || l->wmma_elems[1] != l->elems[1])
        sbuf_addf(b, " (fp16 operands keep the Volta layout: A %dx, B %dx the elements held once)",
                  l->wmma_elems[0] / l->elems[0], l->wmma_elems[1] / l->elems[1]);
    sbuf_addc(b, '\n');
}

int roofline_mma(const int64_t dims[3], const mma_shape *s, const char *precision, int in_elem,
                 int out_elem, double peak, double bandwidth, const char *what, double measured,
                 bool explain, bool json)
{
    mmaplan r;
    if (!mmaplan_compute(dims, s, in_elem, out_elem, peak, bandwidth, measured, &r))
        return diag_error(EXIT_USAGE, "--gemm/--mma: sizes must be at least 1");
    mma_lanes lanes;
    mmaplan_lanes(s, precision, in_elem, &lanes);
    if (json) {
        json_t *dims_j = json_array(), *frags = json_array(), *util = json_array();
        for (int i = 0; i < 3; i++) {
            json_array_append_new(dims_j, json_integer(r.dims[i]));
            json_array_append_new(frags, json_integer(r.frags[i]));
            json_array_append_new(util, json_real(r.util[i]));
        }
        json_t *o = json_pack(
            "{s:o, s:s, s:o, s:o, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:s, s:f, s:f}",
            "gemm", dims_j, "mma", s->name, "fragments", frags, "utilization", util,
            "utilization_total", r.util_total, "flops", r.flops, "dram_bytes", r.bytes, "ai", r.ai,
            "peak", r.peak, "effective_peak", r.effective_peak, "bandwidth", r.bandwidth,
            "bandwidth_needed", r.bandwidth_needed, "attainable", r.attainable, "bound",
            r.memory_bound ? "memory" : "compute", "min_time", r.min_time, "time_memory",
            r.time_memory);
        json_object_set_new(o, "lanes", lanes_json(&lanes));
        if (measured > 0)
            json_object_set_new(o, "measured",
                                json_pack("{s:f, s:f, s:f}", "rate", r.measured, "of_peak",
                                          r.of_peak, "of_attainable", r.of_attainable));
        cli_put_json(o);
        return EXIT_OK;
    }
    sbuf b;
    sbuf_init(&b);
    const char *dim_name[3] = {"M", "N", "K"};
    const int edge[3] = {s->m, s->n, s->k};
    sbuf_addf(&b, "GEMM %lldx%lldx%lld (MxNxK) in %s fragments, %s\n", (long long)r.dims[0],
              (long long)r.dims[1], (long long)r.dims[2], s->name, what);
    for (int i = 0; i < 3; i++) {
        sbuf_addf(&b, "  %s: %lld / %d = %lld fragments", dim_name[i], (long long)r.dims[i],
                  edge[i], (long long)r.frags[i]);
        if (r.util[i] < 1)
            sbuf_addf(&b, ", padded to %lld: %.1f%% used", (long long)(r.frags[i] * edge[i]),
                      100 * r.util[i]);
        else
            sbuf_add(&b, ", exact");
        sbuf_addc(&b, '\n');
    }
    sbuf_addf(&b, "fragment utilisation: %.1f%%\n", 100 * r.util_total);
    lanes_text(s, precision, &lanes, &b);
    sbuf_add(&b, "FLOPs: ");
    si(&b, r.flops, "FLOP (2MNK)\n");
    sbuf_addf(&b, "DRAM bytes, at least: ");
    si(&b, r.bytes, "B");
    sbuf_addf(&b, " (%d x (MK + KN) + %d x MN: each operand read once, C written once)\n", in_elem,
              out_elem);
    sbuf_addf(&b, "AI: %.1f FLOP/B; ridge %.1f FLOP/B\n", r.ai, r.effective_peak / r.bandwidth);
    sbuf_add(&b, "bandwidth to feed the peak: ");
    si(&b, r.bandwidth_needed, "B/s");
    sbuf_add(&b, " of ");
    si(&b, r.bandwidth, "B/s");
    sbuf_addf(&b, " -> %s-bound\n", r.memory_bound ? "memory" : "compute");
    sbuf_add(&b, "attainable: ");
    si(&b, r.attainable, "FLOP/s");
    sbuf_add(&b, "; at least ");
    char t[64];
    roofline_fmt_time(r.min_time, t, sizeof t);
    sbuf_addf(&b, "%s (compute ", t);
    roofline_fmt_time(r.time_compute, t, sizeof t);
    sbuf_addf(&b, "%s, memory ", t);
    roofline_fmt_time(r.time_memory, t, sizeof t);
    sbuf_addf(&b, "%s)\n", t);
    if (measured > 0) {
        sbuf_add(&b, "measured: ");
        si(&b, r.measured, "FLOP/s");
        sbuf_addf(&b, " = %.1f%% of the peak, %.1f%% of the attainable\n", 100 * r.of_peak,
                  100 * r.of_attainable);
        sbuf_add(&b, "the gap: ");
        if (r.util_total < 0.999)
            sbuf_addf(&b, "padding costs %.1f%% of the peak;\n  ", 100 * (1 - r.util_total));
        if (r.of_attainable > 0.95)
            sbuf_addf(&b, "the rest is the %s roof itself\n",
                      r.memory_bound ? "bandwidth" : "Tensor Core");
        else
            sbuf_addf(&b,
                      "%.1f%% of the attainable rate is below both roofs, so neither "
                      "bandwidth nor\n  Tensor Core throughput explains it: latency not "
                      "hidden (occupancy, too few\n  blocks for the SMs), instruction issue "
                      "and shared-memory staging, L2 misses\n",
                      100 * (1 - r.of_attainable));
    }
    if (explain)
        sbuf_add(&b, "\nhow:\n  fragments per dimension = ceil(size / fragment edge); a padded "
                     "fragment does\n  full work, so the usable peak is the peak x the "
                     "utilisation of all three.\n  AI = 2MNK / bytes; the peak needs AI x "
                     "bandwidth >= peak, i.e. bytes / (FLOPs /\n  peak) of bandwidth.\n");
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
    return EXIT_OK;
}
