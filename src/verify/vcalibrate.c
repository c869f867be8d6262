/* vcalibrate: `verify --calibrate`: the time model's [timing] constants
 * measured on this card by the [calibration] probes (kernels/calibrate.cu),
 * a model of the card with them (the bundled twin's rates and this card's
 * clocks), and gpulint's predictions made again with that model, so that
 * the time rows are judged with the bundled and with the card's own
 * constants side by side. A constant whose probe fails, is refused or
 * measures nonsense keeps the bundled value, and the table says so. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"
#include "verify/vrun.h"

/* How a constant follows from its probe's runs: the time of one run, or
 * the slope of time over the runs' work, in the unit the model keeps. */
typedef enum cal_rule {
    CAL_TIME_NS,       /* one run's time */
    CAL_SLOPE_NS,      /* ns per step, block or pass */
    CAL_SLOPE_CYCLES,  /* the same in SM clocks at the device's clock */
    CAL_BANDWIDTH,     /* work in bytes: 1 / slope */
    CAL_CYCLES_A_WARP, /* SM clocks a step, over the warps resident on the SM */
} cal_rule;

static const struct {
    const char *name, *unit, *what;
    cal_rule rule;
    bool needs_l2; /* the probe's buffer must sit in L2 */
} rules[] = {
    {"launch_ns", "ns", "an empty kernel of one block", CAL_TIME_NS, false},
    {"block_dispatch_ns", "ns", "each further block an SM takes (1 block to 16 an SM)",
     CAL_SLOPE_NS, false},
    {"block_interval_ns", "ns", "empty blocks an SM starts, as many at once as fit", CAL_SLOPE_NS,
     false},
    {"block_serial_ns", "ns", "an empty block's life at one block an SM", CAL_SLOPE_NS, false},
    {"l1_latency_cycles", "clocks", "a dependent load chain over 16 KiB", CAL_SLOPE_CYCLES, false},
    {"l2_latency_ns", "ns", "a dependent load chain over 8 MiB", CAL_SLOPE_NS, true},
    {"dram_latency_ns", "ns", "a dependent load chain over 1 GiB", CAL_SLOPE_NS, false},
    {"dram_read_bandwidth", "B/s", "a streaming read of 1 and 2 GiB", CAL_BANDWIDTH, false},
    {"l2_read_bandwidth", "B/s", "ld.global.cg over 24 MiB, 1 and 41 passes", CAL_BANDWIDTH, true},
    {"l2_write_bandwidth", "B/s", "st.global.cg over 24 MiB, 1 and 41 passes", CAL_BANDWIDTH, true},
    {"l2_partial_write_bandwidth", "B/s", "4-byte stores, a line each, as 32-byte sectors",
     CAL_BANDWIDTH, true},
    {"barrier_cycles", "clocks", "a __syncthreads step, one block of 512 an SM", CAL_SLOPE_CYCLES,
     false},
    {"barrier_warp_cycles", "clocks", "the same step over the warps of 4 blocks of 512 an SM",
     CAL_CYCLES_A_WARP, false},
};
#define N_RULES (sizeof rules / sizeof rules[0])

/* Dynamic shared memory over half the SM's: two such blocks never fit. */
static int64_t alone_smem(const vrun *x)
{
    return x->arch.smem_per_sm / 2 + 1024;
}

bool vcalibrate_prepare(vmeasure *m, bool *skip)
{
    *skip = false;
    vrun *x = m->x;
    const vcase *c = m->c;
    if (c->alone) {
        int64_t dyn = alone_smem(x);
        if (dyn > x->arch.smem_per_block_optin) {
            vrun_set_why(x, m->ci,
                         "one block cannot be made to fill an SM: %lld B of shared memory is "
                         "above the %lld B a block may have",
                         (long long)dyn, (long long)x->arch.smem_per_block_optin);
            *skip = true;
            return true;
        }
        if (!gpurt_set_max_dynamic_smem(m->k, dyn, m->err, sizeof m->err))
            return false;
        m->l.dynamic_smem = dyn;
    }
    int resident = 0;
    if (gpurt_occupancy(m->k, m->l.block[0], m->l.dynamic_smem, &resident, m->err, sizeof m->err))
        json_object_set_new(m->extra, "resident_blocks", json_integer(resident));
    return true;
}

/* The least-squares slope of ms over work through the points, or the one
 * point's time; false when there is nothing to fit. */
static bool fit(const double *w, const double *ms, int n, bool slope, double *out)
{
    if (n == 0 || (slope && n < 2))
        return false;
    if (!slope) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += ms[i];
        *out = s / n;
        return true;
    }
    double mw = 0, mt = 0;
    for (int i = 0; i < n; i++) {
        mw += w[i] / n;
        mt += ms[i] / n;
    }
    double sww = 0, swt = 0;
    for (int i = 0; i < n; i++) {
        sww += (w[i] - mw) * (w[i] - mw);
        swt += (w[i] - mw) * (ms[i] - mt);
    }
    if (!(sww > 0))
        return false;
    *out = swt / sww;
    return true;
}

/* One constant from its runs: the row of the calibration table (value,
 * or why the bundled value stays). */
static json_t *derive(vrun *x, size_t ri)
{
    const vmanifest *m = &x->r->manifest;
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(rules[ri].name));
    json_object_set_new(o, "unit", json_string(rules[ri].unit));
    json_object_set_new(o, "probe", json_string(rules[ri].what));
    double bundled = model_product_number(&x->product, "timing", rules[ri].name);
    json_object_set_new(o, "bundled", bundled > 0 ? json_real(bundled) : json_null());
    double w[8], ms[8];
    int n = 0, resident = 0, block = 0, per_sm = 0;
    json_t *runs = json_array(); /* what was timed: the constant can be derived again from it */
    json_object_set_new(o, "runs", runs);
    const char *why = NULL, *kernel = NULL;
    for (int i = 0; i < m->n_cases && n < 8; i++) {
        const vcase *c = &m->cases[i];
        if (c->kind != VK_TIMING || strcmp(c->constant, rules[ri].name) != 0)
            continue;
        kernel = c->kernel;
        if (!x->selected[i] || x->r->dry_run) {
            why = x->r->dry_run ? "dry run: nothing measured" : "not selected";
            continue;
        }
        if (x->why[i] || !(x->raw[i] > 0)) {
            why = x->why[i] ? x->why[i] : "not measured";
            continue;
        }
        w[n] = (double)c->work;
        ms[n++] = x->raw[i];
        json_t *run = json_object();
        json_object_set_new(run, "work", json_integer(c->work));
        json_object_set_new(run, "ms", json_real(x->raw[i]));
        json_object_set_new(run, "spread", json_real(x->spread[i]));
        json_object_set_new(
            run, "grid",
            json_integer(c->blocks_per_sm ? (json_int_t)c->blocks_per_sm * x->r->sms : c->grid));
        json_object_set_new(run, "threads", json_integer(c->threads));
        if (json_object_get(x->extra[i], "resident_blocks"))
            json_object_set(run, "resident_blocks",
                            json_object_get(x->extra[i], "resident_blocks"));
        json_array_append_new(runs, run);
        resident = (int)json_integer_value(json_object_get(x->extra[i], "resident_blocks"));
        block = (int)c->threads;
        per_sm = c->blocks_per_sm;
    }
    if (kernel)
        json_object_set_new(o, "kernel", json_string(kernel));
    char note[320] = "";
    if (!kernel)
        why = "no probe for it in verify.ini";
    if (!why && rules[ri].needs_l2 && x->product.l2_bytes > 0 &&
        x->product.l2_bytes < 2 * (int64_t)vrun_size_of(m, "CAL_L2_BYTES", 24 << 20)) {
        snprintf(note, sizeof note, "this card's L2 (%lld B) cannot hold the probe's buffer",
                 (long long)x->product.l2_bytes);
        why = note;
    }
    double v = 0;
    if (!why && !fit(w, ms, n, rules[ri].rule != CAL_TIME_NS, &v))
        why = "the runs give no slope (one run, or the same work twice)";
    if (!why && !(v > 0))
        why = "the longer run was not slower: no slope to read";
    if (!why) {
        double mhz = x->r->sm_clock_mhz;
        switch (rules[ri].rule) {
        case CAL_TIME_NS:
        case CAL_SLOPE_NS:
            v *= 1e6;
            break;
        case CAL_SLOPE_CYCLES:
            v *= 1e6 * mhz / 1e3;
            break;
        case CAL_BANDWIDTH:
            v = 1e3 / v;
            break;
        case CAL_CYCLES_A_WARP: {
            /* A grid of per_sm blocks an SM runs in waves of the resident
             * count; each wave's step is shared by its resident warps. */
            int fits = resident > 0 ? resident : per_sm;
            int waves = (per_sm + fits - 1) / fits, warps = (block + 31) / 32;
            v = v * 1e6 * mhz / 1e3 / waves / (fits * warps);
            snprintf(note, sizeof note, "%d blocks of %d resident an SM", fits, block);
            break;
        }
        }
        if (!(mhz > 0) &&
            (rules[ri].rule == CAL_SLOPE_CYCLES || rules[ri].rule == CAL_CYCLES_A_WARP))
            why = "the SM clock is not known";
    }
    if (why) {
        json_object_set_new(o, "value", json_null());
        json_object_set_new(o, "why", json_string(why));
        return o;
    }
    json_object_set_new(o, "value", json_real(v));
    if (note[0])
        json_object_set_new(o, "note", json_string(note));
    return o;
}

/* The model file the calibrated predictions are made with, beside the
 * kernels' builds (it is also what --save-model writes, with comments). */
static bool write_model(vrun *x, const gpu_product *cal, char *path, size_t n)
{
    const char *fat = x->n_units ? x->units[0].build.fatbin : NULL;
    const char *slash = fat ? strrchr(fat, '/') : NULL;
    if (!slash)
        return false;
    snprintf(path, n, "%.*s/calibrated-%s.ini", (int)(slash - fat), fat, cal->id);
    sbuf b;
    sbuf_init(&b);
    model_product_ini(cal, NULL, &b);
    FILE *f = fopen(path, "w");
    bool ok = f && fputs(sbuf_str(&b), f) >= 0;
    if (f)
        ok = fclose(f) == 0 && ok;
    sbuf_free(&b);
    return ok;
}

void verify_calibrated_product(const gpu_product *bundled, const json_t *calibration,
                               gpu_product *out)
{
    *out = *bundled;
    bool latency = false;
    size_t i;
    const json_t *o;
    json_array_foreach(json_object_get(calibration, "constants"), i, o)
    {
        const char *name = json_string_value(json_object_get(o, "name"));
        const json_t *v = json_object_get(o, "value");
        if (!name || !json_is_number(v) || !(json_number_value(v) > 0) ||
            !model_product_set_number(out, "timing", name, json_number_value(v)))
            continue;
        latency = latency || strstr(name, "latency_ns") != NULL;
    }
    /* Latencies measured at the card's own clock hold as measured there:
     * no second clock to carry them to another. */
    if (latency)
        out->latency_clock_mhz = out->boost_dram_latency_ns = out->boost_l2_latency_ns = 0;
}

void vcalibrate_run(vrun *x)
{
    verify_result *r = x->r;
    json_t *cal = json_object(), *rows = json_array();
    json_object_set_new(cal, "constants", rows);
    r->calibration = cal;
    if (!x->have_product) {
        json_object_set_new(cal, "why",
                            json_string("no bundled model matches this GPU: its per-SM rates, "
                                        "which the calibrated model borrows, are unknown"));
        return;
    }
    int measured = 0;
    for (size_t i = 0; i < N_RULES; i++) {
        json_t *o = derive(x, i);
        measured += json_is_number(json_object_get(o, "value"));
        json_array_append_new(rows, o);
    }
    gpu_product p;
    verify_calibrated_product(&x->product, cal, &p);
    snprintf(p.id, sizeof p.id, "%.40s-calibrated", x->product.id);
    snprintf(p.name, sizeof p.name, "%.48s (calibrated)", r->device_name);
    json_object_set_new(cal, "measured", json_integer(measured));
    json_object_set_new(cal, "product", json_string(p.id));
    x->calibrated = p;
    if (measured == 0) {
        json_object_set_new(cal, "why",
                            json_string("no constant was measured: the bundled "
                                        "constants stay in use"));
        return;
    }
    char path[1024];
    if (!write_model(x, &p, path, sizeof path)) {
        json_object_set_new(cal, "why",
                            json_string("the calibrated model could not be written "
                                        "beside the kernels' builds"));
        return;
    }
    json_object_set_new(cal, "model", json_string(path));
    if (x->o->predictions || !x->pred.source) {
        json_object_set_new(cal, "why",
                            json_string("the time rows need gpulint's own source predictions "
                                        "(libclang) to be made again with the card's constants"));
        return;
    }
    kbuild_unit *units = xcalloc((size_t)x->n_units + 1, sizeof *units);
    for (int i = 0; i < x->n_units; i++)
        units[i] = x->units[i].build;
    char msg[512];
    if (vpred_run(x->o->self, units, x->n_units, x->arch.name, p.id, path, x->o->jobs, &x->cal_pred,
                  msg, sizeof msg))
        x->have_cal_pred = true;
    else
        json_object_set_new(cal, "why", json_string(msg));
    free(units);
}
