/* roof_plot: the hierarchical roofline chart (see roof_plot.h). */
#include "report/roof_plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/roofline.h"
#include "util/sbuf.h"

static const char *const level_names[ROOF_PLOT_LEVELS] = {"DRAM", "L2", "L1"};

static double number(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : -1;
}

/* The bytes a launch moves at each level, -1 where not known: DRAM as
 * estimated (else the compulsory footprint), L2 read and written, and the
 * global sectors L1 serves (what Nsight Compute's L1 point counts). */
static void level_bytes(const json_t *e, double bytes[ROOF_PLOT_LEVELS])
{
    const json_t *est = json_object_get(e, "dram_bytes"); /* an object: the estimate */
    const json_t *comp = json_object_get(e, "dram_compulsory_bytes");
    bytes[ROOF_PLOT_DRAM] = number(est, "bytes");
    if (bytes[ROOF_PLOT_DRAM] < 0 && number(comp, "read_sectors") >= 0 &&
        number(comp, "write") >= 0)
        bytes[ROOF_PLOT_DRAM] = 32 * number(comp, "read_sectors") + number(comp, "write");
    const json_t *l2 = json_object_get(e, "l2_bytes");
    bytes[ROOF_PLOT_L2] = number(l2, "read") >= 0 && number(l2, "write") >= 0
                              ? number(l2, "read") + number(l2, "write")
                              : -1;
    const json_t *l1 = json_object_get(e, "l1_traffic");
    double ld = number(json_object_get(l1, "global_load"), "sectors");
    double st = number(json_object_get(l1, "global_store"), "sectors");
    double at = number(json_object_get(l1, "global_atomic"), "sectors");
    bytes[ROOF_PLOT_L1] = ld >= 0 && st >= 0 ? 32 * (ld + st + (at > 0 ? at : 0)) : -1;
}

static double total_flops(const json_t *e)
{
    static const char *const prec[] = {"fp16", "fp32", "fp64", "tensor"};
    const json_t *f = json_object_get(e, "flops");
    double sum = 0;
    for (size_t i = 0; i < sizeof prec / sizeof *prec; i++) {
        const json_t *v = json_object_get(f, prec[i]);
        if (!json_is_integer(v))
            return -1; /* an expression: sizes not bound */
        sum += (double)json_integer_value(v);
    }
    return sum;
}

static void ceilings(const gpu_product *p, const roof_ceilings *c32, roof_plot *out)
{
    chart_roofline *c = &out->chart;
    out->compute[c->n_compute++] = (chart_roof){"FP32", c32->flops.used, NULL};
    static const struct {
        model_precision prec;
        const char *label;
    } more[] = {{PREC_FP64, "FP64"}, {PREC_FP16_TENSOR, "FP16 Tensor Core"}};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) {
        roof_ceilings rc;
        const char *why = NULL;
        if (roofline_ceilings(p, more[i].prec, ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &rc, &why) &&
            rc.flops.used > 0)
            out->compute[c->n_compute++] = (chart_roof){more[i].label, rc.flops.used, NULL};
    }
    /* The L1 data stage returns one 128-byte wavefront an SM a clock (the
     * rate kroof's L1 bound takes); L2 at the model's measured read rate. */
    out->memory[ROOF_PLOT_DRAM] = (chart_roof){p->mem_type, c32->bandwidth.used, NULL};
    out->memory[ROOF_PLOT_L2] = (chart_roof){"L2", p->l2_read_bandwidth, NULL};
    out->memory[ROOF_PLOT_L1] =
        (chart_roof){"L1", 128.0 * p->sm_count * p->boost_clock_mhz * 1e6, NULL};
    c->n_memory = ROOF_PLOT_LEVELS;
}

bool roof_plot_build(const json_t *roofline, const gpu_product *p, roof_plot *out, char *why,
                     size_t why_size)
{
    memset(out, 0, sizeof *out);
    roof_ceilings c32;
    const char *w = NULL;
    if (!roofline_ceilings(p, PREC_FP32, ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &c32, &w) ||
        !(c32.flops.used > 0) || !(c32.bandwidth.used > 0)) {
        snprintf(why, why_size, "%s: %s", p->id, w ? w : "no FP32 rate or DRAM bandwidth");
        return false;
    }
    ceilings(p, &c32, out);
    size_t n = json_array_size(roofline) * ROOF_PLOT_LEVELS;
    out->points = xcalloc(n ? n : 1, sizeof *out->points);
    out->labels = xcalloc(n ? n : 1, sizeof *out->labels);
    int np = 0;
    bool any_bound = false;
    size_t i;
    const json_t *e;
    json_array_foreach(roofline, i, e)
    {
        double flops = total_flops(e), predicted = number(e, "predicted_time_s");
        double rate = predicted > 0 ? flops / predicted : number(e, "attainable_flops");
        if (!(flops > 0) || !(rate > 0))
            continue;
        any_bound |= !(predicted > 0);
        double bytes[ROOF_PLOT_LEVELS];
        level_bytes(e, bytes);
        int before = np;
        for (int lv = 0; lv < ROOF_PLOT_LEVELS; lv++) {
            if (!(bytes[lv] > 0) || !(out->memory[lv].value > 0))
                continue;
            /* A launch's points share their height: the first names the
             * launch and its rate, the others only their level. */
            char rate_text[48];
            if (np == before)
                snprintf(out->labels[np], sizeof out->labels[np], "%.60s:%lld %s, %s%s",
                         json_string_value(json_object_get(e, "kernel")),
                         (long long)json_integer_value(json_object_get(e, "line")), level_names[lv],
                         roofline_fmt_si(rate, "FLOP/s", rate_text, sizeof rate_text),
                         predicted > 0 ? "" : " (bound)");
            else
                snprintf(out->labels[np], sizeof out->labels[np], "%s", level_names[lv]);
            out->points[np] =
                (chart_point){out->labels[np], flops / bytes[lv], rate, CHART_POINT_PREDICTED,
                              lv + 1,          np > before};
            np++;
        }
        out->launches += np > before;
    }
    snprintf(out->title, sizeof out->title, "Hierarchical roofline: %s", p->name);
    out->chart = (chart_roofline){
        .title = out->title,
        .subtitle = "each launch at L1, L2 and DRAM: FLOPs over that level's bytes, at the "
                    "rate of its predicted time (static estimate)",
        .compute = out->compute,
        .n_compute = out->chart.n_compute,
        .memory = out->memory,
        .n_memory = out->chart.n_memory,
        .points = out->points,
        .n_points = np,
        .hierarchical = true,
        .point_legend = any_bound ? "predicted time (\"bound\": the attainable bound)"
                                  : "predicted: FLOPs over the predicted time",
    };
    return true;
}

void roof_plot_free(roof_plot *r)
{
    free(r->points);
    free(r->labels);
    memset(r, 0, sizeof *r);
}
