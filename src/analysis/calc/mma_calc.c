/* mma_calc: `gpulint roofline --gemm M,N,K --mma SHAPE`, a Tensor Core
 * GEMM as fragments against the roofline (analysis/calc/mmaplan computes it):
 * the padding, the registers a lane holds, the bound and, with a measured
 * rate, the gap; words shared by the command line and the web page. */
#include "analysis/calc/mma_calc.h"

#include <stdio.h>
#include <string.h>

#include "analysis/timing/roofline.h"
#include "util/errmsg.h"
#include "util/units.h"

bool mma_calc_elems(const char *p, int *in, int *out)
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

bool mma_calc_run(const int64_t dims[3], const mma_shape *s, const char *precision, int in_elem,
                  int out_elem, double peak, double bandwidth, const char *what, double measured,
                  mma_calc *m, char *msg, size_t msg_size)
{
    m->shape = *s;
    m->precision = precision;
    m->in_elem = in_elem;
    m->out_elem = out_elem;
    m->measured = measured;
    snprintf(m->what, sizeof m->what, "%s", what);
    if (!mmaplan_compute(dims, s, in_elem, out_elem, peak, bandwidth, measured, &m->r))
        return errmsg_set(msg, msg_size, "--gemm/--mma: sizes must be at least 1");
    mmaplan_lanes(s, precision, in_elem, &m->lanes);
    return true;
}

void mma_calc_text(sbuf *b, const mma_calc *m, bool explain)
{
    const mmaplan *r = &m->r;
    const char *dim_name[3] = {"M", "N", "K"};
    const int edge[3] = {m->shape.m, m->shape.n, m->shape.k};
    sbuf_addf(b, "GEMM %lldx%lldx%lld (MxNxK) in %s fragments, %s\n", (long long)r->dims[0],
              (long long)r->dims[1], (long long)r->dims[2], m->shape.name, m->what);
    for (int i = 0; i < 3; i++) {
        sbuf_addf(b, "  %s: %lld / %d = %lld fragments", dim_name[i], (long long)r->dims[i],
                  edge[i], (long long)r->frags[i]);
        if (r->util[i] < 1)
            sbuf_addf(b, ", padded to %lld: %.1f%% used", (long long)(r->frags[i] * edge[i]),
                      100 * r->util[i]);
        else
            sbuf_add(b, ", exact");
        sbuf_addc(b, '\n');
    }
    sbuf_addf(b, "fragment utilisation: %.1f%%\n", 100 * r->util_total);
    lanes_text(&m->shape, m->precision, &m->lanes, b);
    sbuf_add(b, "FLOPs: ");
    si(b, r->flops, "FLOP (2MNK)\n");
    sbuf_addf(b, "DRAM bytes, at least: ");
    si(b, r->bytes, "B");
    sbuf_addf(b, " (%d x (MK + KN) + %d x MN: each operand read once, C written once)\n",
              m->in_elem, m->out_elem);
    sbuf_addf(b, "AI: %.1f FLOP/B; ridge %.1f FLOP/B\n", r->ai, r->effective_peak / r->bandwidth);
    sbuf_add(b, "bandwidth to feed the peak: ");
    si(b, r->bandwidth_needed, "B/s");
    sbuf_add(b, " of ");
    si(b, r->bandwidth, "B/s");
    sbuf_addf(b, " -> %s-bound\n", r->memory_bound ? "memory" : "compute");
    sbuf_add(b, "attainable: ");
    si(b, r->attainable, "FLOP/s");
    sbuf_add(b, "; at least ");
    char t[64];
    roofline_fmt_time(r->min_time, t, sizeof t);
    sbuf_addf(b, "%s (compute ", t);
    roofline_fmt_time(r->time_compute, t, sizeof t);
    sbuf_addf(b, "%s, memory ", t);
    roofline_fmt_time(r->time_memory, t, sizeof t);
    sbuf_addf(b, "%s)\n", t);
    if (m->measured > 0) {
        sbuf_add(b, "measured: ");
        si(b, r->measured, "FLOP/s");
        sbuf_addf(b, " = %.1f%% of the peak, %.1f%% of the attainable\n", 100 * r->of_peak,
                  100 * r->of_attainable);
        sbuf_add(b, "the gap: ");
        if (r->util_total < 0.999)
            sbuf_addf(b, "padding costs %.1f%% of the peak;\n  ", 100 * (1 - r->util_total));
        if (r->of_attainable > 0.95)
            sbuf_addf(b, "the rest is the %s roof itself\n",
                      r->memory_bound ? "bandwidth" : "Tensor Core");
        else
            sbuf_addf(b,
                      "%.1f%% of the attainable rate is below both roofs, so neither "
                      "bandwidth nor\n  Tensor Core throughput explains it: latency not "
                      "hidden (occupancy, too few\n  blocks for the SMs), instruction issue "
                      "and shared-memory staging, L2 misses\n",
                      100 * (1 - r->of_attainable));
    }
    if (explain)
        sbuf_add(b, "\nhow:\n  fragments per dimension = ceil(size / fragment edge); a padded "
                    "fragment does\n  full work, so the usable peak is the peak x the "
                    "utilisation of all three.\n  AI = 2MNK / bytes; the peak needs AI x "
                    "bandwidth >= peak, i.e. bytes / (FLOPs /\n  peak) of bandwidth.\n");
}
