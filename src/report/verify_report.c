/* verify_report: verify's tables, JSON, saved model and chart (see verify_report.h). */
#include "report/verify_report.h"

#include <stddef.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/roofline.h"
#include "config.h"
#include "model/model_load.h"
#include "report/chart.h"
#include "util/jsontext.h"
#include "util/sbuf.h"

/* ---------------------------------------------------------------- tables */

#define COLS_MAX 12

typedef struct table {
    int n_cols;
    const char *head[COLS_MAX];
    bool left[COLS_MAX];
    char **cells; /* rows x n_cols */
    int n_rows;
} table;

static void table_row(table *t, ...)
{
    t->cells = xrealloc(t->cells, (size_t)(t->n_rows + 1) * (size_t)t->n_cols * sizeof *t->cells);
    va_list ap;
    va_start(ap, t);
    for (int c = 0; c < t->n_cols; c++)
        t->cells[t->n_rows * t->n_cols + c] = xstrdup(va_arg(ap, const char *));
    va_end(ap);
    t->n_rows++;
}

static void table_print(FILE *f, table *t)
{
    int w[COLS_MAX];
    for (int c = 0; c < t->n_cols; c++)
        w[c] = (int)strlen(t->head[c]);
    for (int r = 0; r < t->n_rows; r++)
        for (int c = 0; c < t->n_cols; c++) {
            int l = (int)strlen(t->cells[r * t->n_cols + c]);
            if (l > w[c])
                w[c] = l;
        }
    for (int r = -1; r < t->n_rows; r++) {
        fputs("  ", f);
        for (int c = 0; c < t->n_cols; c++) {
            const char *s = r < 0 ? t->head[c] : t->cells[r * t->n_cols + c];
            bool last = c == t->n_cols - 1;
            if (t->left[c] && last)
                fprintf(f, "%s", s);
            else if (t->left[c])
                fprintf(f, "%-*s  ", w[c], s);
            else
                fprintf(f, last ? "%*s" : "%*s  ", w[c], s);
        }
        fputc('\n', f);
    }
    for (int i = 0; i < t->n_rows * t->n_cols; i++)
        free(t->cells[i]);
    free(t->cells);
    t->cells = NULL;
    t->n_rows = 0;
}

static const char *num(double v, int digits, char *buf, size_t n)
{
    if (isnan(v))
        return "-";
    snprintf(buf, n, "%.*f", digits, v);
    return buf;
}

static double dget(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *verdict_text(const vrow *row)
{
    return vverdict_name(row->verdict);
}

static void notes(FILE *f, const verify_result *r, vcheck check)
{
    for (int i = 0; i < r->n_rows; i++) {
        const vrow *row = &r->rows[i];
        if (row->check != check || !row->reason[0] || r->dry_run)
            continue;
        fprintf(f, "  %s %s: %s\n",
                row->verdict == VV_AGREES ? "note" : vverdict_name(row->verdict), row->kernel,
                row->reason);
    }
}

static bool any_rows(const verify_result *r, vcheck check, bool ladder)
{
    for (int i = 0; i < r->n_rows; i++)
        if (r->rows[i].check == check && (strncmp(r->rows[i].group, "ladder ", 7) == 0) == ladder)
            return true;
    return false;
}

static void heading(FILE *f, const verify_result *r)
{
    fprintf(f, "gpulint verify: %s (%s, %d SMs, SM %.0f MHz, memory %.0f MHz x %d bit)",
            r->device_name, r->arch, r->sms, r->sm_clock_mhz, r->mem_clock_mhz, r->mem_bus_bits);
    if (r->have_device)
        fprintf(f, ", driver %s, runtime %s", r->driver, r->runtime);
    fputc('\n', f);
    fprintf(f, "kernels: %s (%d built in %.1f s, %d from the cache), nvcc %s\n", r->kernels_dir,
            r->built, r->build_seconds, r->cached, r->nvcc_version);
    fprintf(f, "predictions: %s", r->predictions);
    if (r->predictions_note[0])
        fprintf(f, " (%s)", r->predictions_note);
    fprintf(f, "\ncounters: %s%s%s\n", r->counters, r->counters_note[0] ? ": " : "",
            r->counters_note);
    if (r->dry_run)
        fprintf(f, "dry run: what would be predicted and run; nothing was measured\n");
}

static void ceilings_table(FILE *f, const verify_result *r)
{
    table t = {.n_cols = 6,
               .head = {"ceiling", "kernel", "measured", "spec", "datasheet", "measured/spec"},
               .left = {true, true}};
    for (int i = 0; i < r->n_ceilings; i++) {
        const vceiling *c = &r->ceilings[i];
        if (!c->kernel[0])
            continue;
        const char *unit = c->bandwidth ? "B/s" : "FLOP/s";
        char m[48], s[48], d[48], p[32];
        table_row(&t, c->name, c->kernel,
                  c->measured > 0 ? roofline_fmt_si(c->measured, unit, m, sizeof m) : "-",
                  c->spec > 0 ? roofline_fmt_si(c->spec, unit, s, sizeof s) : "-",
                  c->datasheet > 0 ? roofline_fmt_si(c->datasheet, unit, d, sizeof d) : "-",
                  c->measured > 0 && c->spec > 0
                      ? (snprintf(p, sizeof p, "%.1f%%", 100 * c->measured / c->spec), p)
                      : "-");
    }
    if (!t.n_rows)
        return;
    fprintf(f,
            "\nceilings (spec: this card's SMs and clocks with the per-SM rates of "
            "models/gpu/%s.ini)\n",
            r->product_id[0] ? r->product_id : "?");
    table_print(f, &t);
    for (int i = 0; i < r->n_ceilings; i++)
        if (r->ceilings[i].kernel[0] && r->ceilings[i].note[0])
            fprintf(f, "  note %s: %s\n", r->ceilings[i].name, r->ceilings[i].note);
}

static void occupancy_table(FILE *f, const verify_result *r)
{
    if (!any_rows(r, VCHECK_OCCUPANCY, false))
        return;
    fprintf(f, "\noccupancy: blocks per SM; measured from residency records (%%smid, "
               "%%globaltimer), tolerance exact\n");
    table t = {.n_cols = 8,
               .head = {"kernel", "launch", "regs", "smem B", "predicted", "runtime API",
                        "measured", "verdict"},
               .left = {true, true, false, false, false, false, false, true}};
    for (int i = 0; i < r->n_rows; i++) {
        const vrow *row = &r->rows[i];
        if (row->check != VCHECK_OCCUPANCY)
            continue;
        char a[24], b[24], c[24], d[24], e[24];
        table_row(&t, row->kernel, row->launch, num(dget(row->detail, "registers"), 0, a, sizeof a),
                  num(dget(row->detail, "static_smem"), 0, b, sizeof b),
                  num(row->predicted, 0, c, sizeof c),
                  num(dget(row->detail, "api"), 0, d, sizeof d), num(row->measured, 0, e, sizeof e),
                  verdict_text(row));
    }
    table_print(f, &t);
    notes(f, r, VCHECK_OCCUPANCY);
}

static void bank_table(FILE *f, const verify_result *r)
{
    if (!any_rows(r, VCHECK_BANK, false))
        return;
    fprintf(f, "\nbank conflicts: wavefronts per shared-memory request; measured with clock64 "
               "(32 warps), cycles per wavefront fitted per access width on this run, tolerance "
               "0.5 or 5%%\n");
    table t = {.n_cols = 9,
               .head = {"kernel", "launch", "width", "predicted", "cycles/request", "fit",
                        "measured", "counter", "verdict"},
               .left = {true, true, false, false, false, true, false, false, true}};
    for (int i = 0; i < r->n_rows; i++) {
        const vrow *row = &r->rows[i];
        if (row->check != VCHECK_BANK)
            continue;
        char a[24], b[24], c[24], d[24], fit[48] = "-";
        if (!isnan(dget(row->detail, "fit_slope")))
            snprintf(fit, sizeof fit, "%.2f + %.3f w%s", dget(row->detail, "fit_intercept"),
                     dget(row->detail, "fit_slope"),
                     json_is_true(json_object_get(row->detail, "calibration")) ? " (cal)" : "");
        char e[24];
        table_row(&t, row->kernel, row->launch, num(dget(row->detail, "width"), 0, a, sizeof a),
                  num(row->predicted, 2, b, sizeof b),
                  num(dget(row->detail, "cycles_per_request"), 3, c, sizeof c), fit,
                  num(row->measured, 2, d, sizeof d),
                  num(dget(row->detail, "counter"), 2, e, sizeof e), verdict_text(row));
    }
    table_print(f, &t);
    notes(f, r, VCHECK_BANK);
}

static void coalescing_table(FILE *f, const verify_result *r)
{
    if (!any_rows(r, VCHECK_COALESCING, false))
        return;
    fprintf(f, "\ncoalescing: 32-byte sectors per warp request; measured from DRAM traffic (each "
               "sector read once, L2 fetch granularity 32 B), bandwidth calibrated per class on "
               "this run, tolerance 0.5 or 10%%\n");
    table t = {.n_cols = 8,
               .head = {"kernel", "launch", "class", "predicted", "ns/request", "measured",
                        "counter", "verdict"},
               .left = {true, true, true, false, false, false, false, true}};
    for (int i = 0; i < r->n_rows; i++) {
        const vrow *row = &r->rows[i];
        if (row->check != VCHECK_COALESCING)
            continue;
        char b[24], c[24], d[24];
        char cls[32];
        snprintf(cls, sizeof cls, "%s%s", row->cls, row->calibration ? " (cal)" : "");
        char e[24];
        table_row(&t, row->kernel, row->launch, cls, num(row->predicted, 2, b, sizeof b),
                  num(dget(row->detail, "ns_per_request"), 4, c, sizeof c),
                  num(row->measured, 2, d, sizeof d),
                  num(dget(row->detail, "counter"), 2, e, sizeof e), verdict_text(row));
    }
    table_print(f, &t);
    notes(f, r, VCHECK_COALESCING);
}

static void divergence_table(FILE *f, const verify_result *r)
{
    if (!any_rows(r, VCHECK_DIVERGENCE, false))
        return;
    fprintf(f, "\ndivergence: SIMT efficiency of the branch's region; measured by lane counters "
               "(tolerance 0.005) or as the warp-aligned twin's time over this one's (10%%)\n");
    table t = {.n_cols = 7,
               .head = {"kernel", "launch", "branch", "method", "predicted", "measured", "verdict"},
               .left = {true, true, true, true, false, false, true}};
    for (int i = 0; i < r->n_rows; i++) {
        const vrow *row = &r->rows[i];
        if (row->check != VCHECK_DIVERGENCE)
            continue;
        char b[24], c[24];
        const char *text = json_string_value(json_object_get(row->detail, "text"));
        table_row(&t, row->kernel, row->launch, text ? text : "-", row->kind,
                  num(row->predicted, 4, b, sizeof b), num(row->measured, 4, c, sizeof c),
                  verdict_text(row));
    }
    table_print(f, &t);
    notes(f, r, VCHECK_DIVERGENCE);
}

static void roofline_table(FILE *f, const verify_result *r)
{
    if (!any_rows(r, VCHECK_ROOFLINE, false) && !any_rows(r, VCHECK_ROOFLINE, true))
        return;
    fprintf(f, "\nroofline: time against gpulint's lower bound (FLOPs and DRAM bytes from the "
               "source, spec ceilings); never faster than the floor (2%% timer slack)\n");
    table t = {.n_cols = 8,
               .head = {"kernel", "launch", "bound", "bound ms", "floor ms", "measured ms",
                        "% of roof", "verdict"},
               .left = {true, true, true, false, false, false, false, true}};
    for (int i = 0; i < r->n_rows; i++) {
        const vrow *row = &r->rows[i];
        if (row->check != VCHECK_ROOFLINE)
            continue;
        char b[24], c[24], d[24], e[24];
        const char *bound = json_string_value(json_object_get(row->detail, "bound"));
        double frac = dget(row->detail, "fraction_of_measured_ceiling");
        table_row(&t, row->kernel, row->launch, bound ? bound : "-",
                  num(row->predicted, 4, b, sizeof b),
                  num(dget(row->detail, "floor_s") * 1e3, 4, c, sizeof c),
                  num(row->measured, 4, d, sizeof d),
                  isnan(frac) ? "-" : (snprintf(e, sizeof e, "%.1f%%", 100 * frac), e),
                  verdict_text(row));
    }
    table_print(f, &t);
    notes(f, r, VCHECK_ROOFLINE);
}

static void time_table(FILE *f, const verify_result *r)
{
    if (!any_rows(r, VCHECK_TIME, false) && !any_rows(r, VCHECK_TIME, true))
        return;
    fprintf(f,
            "\ntime: gpulint's predicted time (docs/roofline.md, \"Predicted time\") against "
            "the measured one; within %.0f%%, an estimate\n",
            100 * VERIFY_ESTIMATE_TOLERANCE);
    table t = {.n_cols = 7,
               .head = {"kernel", "launch", "limited by", "predicted ms", "measured ms", "error",
                        "verdict"},
               .left = {true, true, true, false, false, false, true}};
    for (int i = 0; i < r->n_rows; i++) {
        const vrow *row = &r->rows[i];
        if (row->check != VCHECK_TIME)
            continue;
        char b[24], c[24], d[24];
        const char *limiter = json_string_value(json_object_get(row->detail, "limiter"));
        bool both = row->predicted > 0 && row->measured > 0;
        table_row(
            &t, row->kernel, row->launch, limiter ? limiter : "-",
            num(row->predicted, 4, b, sizeof b), num(row->measured, 4, c, sizeof c),
            both ? (snprintf(d, sizeof d, "%+.0f%%", 100 * (row->predicted / row->measured - 1)), d)
                 : "-",
            verdict_text(row));
    }
    table_print(f, &t);
    notes(f, r, VCHECK_TIME);
}

/* A constant as the calibration table shows it: bandwidths in TB/s. */
static const char *constant_text(double v, const char *unit, char *buf, size_t n)
{
    if (!(v > 0))
        return "-";
    if (strcmp(unit, "B/s") == 0)
        snprintf(buf, n, "%.3g TB/s", v / 1e12);
    else
        snprintf(buf, n, "%.4g %s", v, unit);
    return buf;
}

/* --calibrate: the card's [timing] constants beside the bundled ones, and
 * the time rows predicted with both. */
static void calibration_tables(FILE *f, const verify_result *r)
{
    const json_t *cal = r->calibration;
    if (!cal)
        return;
    fprintf(f, "\ncalibration: the time model's [timing] constants measured on this card "
               "(kernels/calibrate.cu, CUDA events; docs/timing.md) beside the bundled model's\n");
    table t = {.n_cols = 4,
               .head = {"constant", "bundled", "this card", "probe"},
               .left = {true, false, false, true}};
    size_t i;
    const json_t *o;
    json_array_foreach(json_object_get(cal, "constants"), i, o)
    {
        const char *unit = json_string_value(json_object_get(o, "unit"));
        const char *why = json_string_value(json_object_get(o, "why"));
        const char *note = json_string_value(json_object_get(o, "note"));
        char a[48], b[48], probe[400];
        snprintf(probe, sizeof probe, "%s%s%s%s",
                 json_string_value(json_object_get(o, "probe"))
                     ? json_string_value(json_object_get(o, "probe"))
                     : "",
                 why ? "; not measured, the bundled value stays: " : (note ? "; " : ""),
                 why ? why : "", !why && note ? note : "");
        table_row(&t, json_string_value(json_object_get(o, "name")),
                  constant_text(dget(o, "bundled"), unit ? unit : "", a, sizeof a),
                  constant_text(dget(o, "value"), unit ? unit : "", b, sizeof b), probe);
    }
    table_print(f, &t);
    const char *why = json_string_value(json_object_get(cal, "why"));
    const char *model = json_string_value(json_object_get(cal, "model"));
    if (why)
        fprintf(f, "  note: %s\n", why);
    if (model)
        fprintf(f,
                "  the card's model: %s (--save-model FILE keeps it; gpulint --gpu FILE "
                "predicts with it)\n",
                model);
    if (r->time_calibrated.rows == 0)
        return;
    fprintf(f, "\ntime with this card's constants: the same launches predicted with the bundled "
               "and with the calibrated model\n");
    table tt = {.n_cols = 6,
                .head = {"kernel", "measured ms", "bundled ms", "error", "calibrated ms", "error"},
                .left = {true, false, false, false, false, false}};
    for (int k = 0; k < r->n_rows; k++) {
        const vrow *row = &r->rows[k];
        double cms = dget(row->detail, "calibrated_predicted_ms");
        if (row->check != VCHECK_TIME || !(cms > 0))
            continue;
        char m1[24], p1[24], e1[24], p2[24], e2[24];
        bool measured = row->measured > 0;
        table_row(
            &tt, row->kernel, num(row->measured, 4, m1, sizeof m1),
            num(row->predicted, 4, p1, sizeof p1),
            measured && row->predicted > 0
                ? (snprintf(e1, sizeof e1, "%+.0f%%", 100 * (row->predicted / row->measured - 1)),
                   e1)
                : "-",
            num(cms, 4, p2, sizeof p2),
            measured ? (snprintf(e2, sizeof e2, "%+.0f%%", 100 * (cms / row->measured - 1)), e2)
                     : "-");
    }
    table_print(f, &tt);
}

static void ladder_tables(FILE *f, const verify_result *r)
{
    for (int li = 0; li < r->n_ladders; li++) {
        const vladder *ld = &r->ladders[li];
        fprintf(f, "\nladder %s%s%s%s\n", ld->name, ld->book[0] ? " (book: " : "", ld->book,
                ld->book[0] ? ")" : "");
        table t = {.n_cols = 12,
                   .head = {"step", "ms", "predicted ms", "GB/s", "GFLOP/s", "% of roof", "speedup",
                            "divergence", "bank", "sectors", "occupancy", "book ms"},
                   .left = {true}};
        for (int s = 0; s < ld->n_steps; s++) {
            const vladder_step *st = &ld->steps[s];
            char a[24], pm[24], b[24], c[24], d[24], e[24], g1[24], h[24], k[24], o[24], bk[24];
            double occ = dget(st->predicted, "occupancy");
            table_row(
                &t, st->kernel, num(st->ms, 4, a, sizeof a),
                st->predicted_ms > 0 ? num(st->predicted_ms, 4, pm, sizeof pm) : "-",
                st->ms > 0 ? num(st->bytes / (st->ms * 1e-3) / 1e9, 0, b, sizeof b) : "-",
                st->ms > 0 && st->flops > 0 ? num(st->flops / (st->ms * 1e-3) / 1e9, 0, c, sizeof c)
                                            : "-",
                isnan(st->pct_ceiling)
                    ? "-"
                    : (snprintf(d, sizeof d, "%.1f%%", 100 * st->pct_ceiling), d),
                s > 0 && st->ms > 0 && ld->steps[s - 1].ms > 0
                    ? (snprintf(e, sizeof e, "%.2fx", ld->steps[s - 1].ms / st->ms), e)
                    : "-",
                num(dget(st->predicted, "divergence_efficiency"), 2, g1, sizeof g1),
                (snprintf(h, sizeof h, "%.0f-way", dget(st->predicted, "bank_degree")), h),
                (snprintf(k, sizeof k, "%.2fx", dget(st->predicted, "sectors_over_ideal")), k),
                isnan(occ) ? "-" : (snprintf(o, sizeof o, "%.0f%%", 100 * occ), o),
                st->book_ms > 0 ? num(st->book_ms, 3, bk, sizeof bk) : "-");
        }
        table_print(f, &t);
        fprintf(f, "  columns: predicted ms = gpulint's predicted time (the time rows); "
                   "divergence = the lowest SIMT efficiency gpulint predicts for a "
                   "divergent branch; bank = the worst conflict degree; sectors = the worst "
                   "sectors per request over the ideal; occupancy at the launch\n");
        for (int s = 0; s < ld->n_steps; s++)
            if (ld->steps[s].step[0])
                fprintf(f, "  %-20s %s%s%s\n", ld->steps[s].kernel, ld->steps[s].step,
                        strcmp(ld->steps[s].result, "ok") && strcmp(ld->steps[s].result, "-")
                            ? "; result: "
                            : "",
                        strcmp(ld->steps[s].result, "ok") && strcmp(ld->steps[s].result, "-")
                            ? ld->steps[s].result
                            : "");
        for (int n = 0; n < ld->n_notes; n++)
            fprintf(f, "  note: %s\n", ld->notes[n]);
    }
}

void vrep_summary(FILE *f, const verify_result *r)
{
    if (r->dry_run) {
        fprintf(f, "verify (dry run): %d rows would be measured on %s\n", r->n_rows, r->arch);
        return;
    }
    if (r->time.rows > 0)
        fprintf(f,
                "time: %d of %d predicted times within %.0f%% (median error %.0f%%, mean %.0f%%); "
                "a time outside it is shown, and fails nothing\n",
                r->time.within, r->time.rows, 100 * VERIFY_ESTIMATE_TOLERANCE,
                100 * r->time.median_error, 100 * r->time.mean_error);
    if (r->time_calibrated.rows > 0)
        fprintf(f,
                "time with this card's constants (--calibrate): %d of %d within %.0f%% (median "
                "error %.0f%%, mean %.0f%%)\n",
                r->time_calibrated.within, r->time_calibrated.rows, 100 * VERIFY_ESTIMATE_TOLERANCE,
                100 * r->time_calibrated.median_error, 100 * r->time_calibrated.mean_error);
    if (r->dram.rows > 0)
        fprintf(f,
                "dram: %d of %d DRAM estimates within %.0f%% of dram__bytes (median error %.0f%%, "
                "mean %.0f%%); an estimate, it fails nothing\n",
                r->dram.within, r->dram.rows, 100 * VERIFY_ESTIMATE_TOLERANCE,
                100 * r->dram.median_error, 100 * r->dram.mean_error);
    fprintf(f,
            "verify: %d rows: %d agree, %d differ, %d not comparable (%.1f s on the GPU, %.1f s "
            "in all)\n",
            r->n_rows, r->agrees, r->differs, r->not_comparable, r->run_seconds, r->seconds);
}

void vrep_text(FILE *f, const verify_result *r, bool ladders_only)
{
    heading(f, r);
    ceilings_table(f, r);
    if (!ladders_only) {
        occupancy_table(f, r);
        bank_table(f, r);
        coalescing_table(f, r);
        divergence_table(f, r);
        roofline_table(f, r);
        time_table(f, r);
    }
    calibration_tables(f, r);
    ladder_tables(f, r);
    fputc('\n', f);
    vrep_summary(f, r);
}

/* ---------------------------------------------------------------- JSON */

static json_t *jreal(double v)
{
    return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *errors_json(const verify_errors *e)
{
    return json_pack("{s:i, s:i, s:f, s:o, s:o}", "rows", e->rows, "within", e->within, "tolerance",
                     VERIFY_ESTIMATE_TOLERANCE, "median_error", jreal(e->median_error),
                     "mean_error", jreal(e->mean_error));
}

static json_t *row_json(const vrow *row)
{
    json_t *o = json_object();
    json_object_set_new(o, "check", json_string(vcheck_name(row->check)));
    json_object_set_new(o, "kernel", json_string(row->kernel));
    json_object_set_new(o, "launch", json_string(row->launch));
    json_object_set_new(o, "predicted", jreal(row->predicted));
    json_object_set_new(o, "measured", jreal(row->measured));
    json_object_set_new(o, "unit", json_string(row->unit));
    json_object_set_new(o, "method", json_string(row->method));
    json_object_set_new(o, "tolerance", json_string(row->tolerance));
    json_object_set_new(o, "verdict", json_string(vverdict_name(row->verdict)));
    json_object_set_new(o, "group", json_string(row->group));
    json_object_set_new(o, "kind", json_string(row->kind));
    if (row->check == VCHECK_COALESCING)
        json_object_set_new(o, "class", json_string(row->cls));
    if (row->calibration)
        json_object_set_new(o, "calibration", json_true());
    if (row->reason[0])
        json_object_set_new(o, "reason", json_text(row->reason));
    /* Check-specific numbers, never replacing a contract field. */
    const char *k;
    json_t *v;
    json_object_foreach(row->detail, k, v)
    {
        if (!json_object_get(o, k))
            json_object_set(o, k, v);
    }
    return o;
}

json_t *vrep_json(const verify_result *r)
{
    json_t *root = json_object();
    json_object_set_new(root, "tool", json_string("gpulint"));
    json_object_set_new(root, "version", json_string(GPULINT_VERSION));
    json_object_set_new(root, "command", json_string("verify"));
    json_object_set_new(root, "dry_run", json_boolean(r->dry_run));
    json_t *dev = json_object();
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", r->cc_major, r->cc_minor);
    json_object_set_new(dev, "name", json_text(r->device_name));
    json_object_set_new(dev, "cc", json_string(cc));
    json_object_set_new(dev, "arch", json_string(r->arch));
    json_object_set_new(dev, "sms", json_integer(r->sms));
    json_object_set_new(dev, "sm_clock_mhz", jreal(r->sm_clock_mhz));
    json_object_set_new(dev, "memory_clock_mhz", jreal(r->mem_clock_mhz));
    json_object_set_new(dev, "memory_bus_bits", json_integer(r->mem_bus_bits));
    json_object_set_new(dev, "driver", r->have_device ? json_string(r->driver) : json_null());
    json_object_set_new(dev, "runtime", r->have_device ? json_string(r->runtime) : json_null());
    json_object_set_new(dev, "model", r->product_id[0] ? json_string(r->product_id) : json_null());
    json_object_set_new(root, "device", dev);
    json_object_set_new(root, "counters", json_string(r->counters));
    if (r->counters_note[0])
        json_object_set_new(root, "counters_note", json_text(r->counters_note));
    json_t *build = json_object();
    json_object_set_new(build, "nvcc", json_text(r->nvcc_version));
    json_object_set_new(build, "kernels_dir", json_text(r->kernels_dir));
    json_object_set_new(build, "built", json_integer(r->built));
    json_object_set_new(build, "cached", json_integer(r->cached));
    json_object_set_new(build, "seconds", json_real(r->build_seconds));
    json_object_set_new(root, "build", build);
    json_t *pred = json_object();
    json_object_set_new(pred, "origin", json_text(r->predictions));
    if (r->predictions_note[0])
        json_object_set_new(pred, "note", json_text(r->predictions_note));
    json_object_set_new(root, "predictions", pred);
    json_t *ceil = json_object();
    for (int i = 0; i < r->n_ceilings; i++) {
        const vceiling *c = &r->ceilings[i];
        if (!c->kernel[0])
            continue;
        json_t *o = json_object();
        json_object_set_new(o, "measured", c->measured > 0 ? json_real(c->measured) : json_null());
        json_object_set_new(o, "spec", c->spec > 0 ? json_real(c->spec) : json_null());
        json_object_set_new(o, "datasheet",
                            c->datasheet > 0 ? json_real(c->datasheet) : json_null());
        json_object_set_new(o, "unit", json_string(c->bandwidth ? "B/s" : "FLOP/s"));
        json_object_set_new(o, "kernel", json_string(c->kernel));
        if (c->note[0])
            json_object_set_new(o, "note", json_text(c->note));
        json_object_set_new(ceil, c->name, o);
    }
    json_object_set_new(root, "ceilings", ceil);
    json_t *rows = json_array();
    for (int i = 0; i < r->n_rows; i++)
        json_array_append_new(rows, row_json(&r->rows[i]));
    json_object_set_new(root, "results", rows);
    json_t *ladders = json_object();
    for (int li = 0; li < r->n_ladders; li++) {
        const vladder *ld = &r->ladders[li];
        json_t *steps = json_array();
        for (int s = 0; s < ld->n_steps; s++) {
            const vladder_step *st = &ld->steps[s];
            json_t *o = json_object();
            json_object_set_new(o, "kernel", json_string(st->kernel));
            json_object_set_new(o, "step", json_text(st->step));
            json_object_set_new(o, "ms", jreal(st->ms));
            json_object_set_new(o, "predicted_ms",
                                st->predicted_ms > 0 ? json_real(st->predicted_ms) : json_null());
            json_object_set_new(o, "spread", jreal(st->spread));
            json_object_set_new(o, "bytes_per_s",
                                st->ms > 0 ? jreal(st->bytes / (st->ms * 1e-3)) : json_null());
            json_object_set_new(o, "flops_per_s",
                                st->ms > 0 && st->flops > 0 ? jreal(st->flops / (st->ms * 1e-3))
                                                            : json_null());
            json_object_set_new(o, "fraction_of_ceiling", jreal(st->pct_ceiling));
            json_object_set_new(o, "book_ms",
                                st->book_ms > 0 ? json_real(st->book_ms) : json_null());
            json_object_set_new(o, "predicted", json_incref(st->predicted));
            json_object_set_new(o, "result", json_text(st->result));
            json_array_append_new(steps, o);
        }
        json_t *lo = json_object();
        if (ld->book[0])
            json_object_set_new(lo, "book", json_text(ld->book));
        json_object_set_new(lo, "steps", steps);
        json_t *nt = json_array();
        for (int n = 0; n < ld->n_notes; n++)
            json_array_append_new(nt, json_text(ld->notes[n]));
        json_object_set_new(lo, "notes", nt);
        json_object_set_new(ladders, ld->name, lo);
    }
    json_object_set_new(root, "ladders", ladders);
    json_t *sum = json_object();
    json_object_set_new(sum, "rows", json_integer(r->n_rows));
    json_object_set_new(sum, "agrees", json_integer(r->agrees));
    json_object_set_new(sum, "differs", json_integer(r->differs));
    json_object_set_new(sum, "not_comparable", json_integer(r->not_comparable));
    if (r->time.rows > 0)
        json_object_set_new(sum, "time", errors_json(&r->time));
    if (r->dram.rows > 0)
        json_object_set_new(sum, "dram", errors_json(&r->dram));
    if (r->time_calibrated.rows > 0)
        json_object_set_new(sum, "time_calibrated", errors_json(&r->time_calibrated));
    if (r->calibration)
        json_object_set(root, "calibration", r->calibration);
    json_object_set_new(sum, "gpu_seconds", json_real(r->run_seconds));
    json_object_set_new(sum, "seconds", json_real(r->seconds));
    json_object_set_new(root, "summary", sum);
    return root;
}

/* ---------------------------------------------------------------- reading back */

static void sget(const json_t *o, const char *k, char *out, size_t n)
{
    const char *v = json_string_value(json_object_get(o, k));
    snprintf(out, n, "%s", v ? v : "");
}

static double nget(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

bool vrep_from_json(const json_t *j, verify_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    const char *cmd = json_string_value(json_object_get(j, "command"));
    const json_t *results = json_object_get(j, "results");
    if (!cmd || strcmp(cmd, "verify") != 0 || !json_is_array(results)) {
        snprintf(err, errlen,
                 "not a gpulint verify report (made with 'gpulint verify --json FILE' "
                 "or --format json)");
        return false;
    }
    r->dry_run = json_is_true(json_object_get(j, "dry_run"));
    const json_t *d = json_object_get(j, "device");
    sget(d, "name", r->device_name, sizeof r->device_name);
    sget(d, "arch", r->arch, sizeof r->arch);
    sget(d, "driver", r->driver, sizeof r->driver);
    sget(d, "runtime", r->runtime, sizeof r->runtime);
    sget(d, "model", r->product_id, sizeof r->product_id);
    r->have_device = r->driver[0] != '\0';
    sscanf(json_string_value(json_object_get(d, "cc")) ? json_string_value(json_object_get(d, "cc"))
                                                       : "0.0",
           "%d.%d", &r->cc_major, &r->cc_minor);
    r->sms = (int)json_integer_value(json_object_get(d, "sms"));
    r->sm_clock_mhz = nget(d, "sm_clock_mhz");
    r->mem_clock_mhz = nget(d, "memory_clock_mhz");
    r->mem_bus_bits = (int)json_integer_value(json_object_get(d, "memory_bus_bits"));
    sget(j, "counters", r->counters, sizeof r->counters);
    sget(j, "counters_note", r->counters_note, sizeof r->counters_note);
    const json_t *b = json_object_get(j, "build");
    sget(b, "nvcc", r->nvcc_version, sizeof r->nvcc_version);
    sget(b, "kernels_dir", r->kernels_dir, sizeof r->kernels_dir);
    r->built = (int)json_integer_value(json_object_get(b, "built"));
    r->cached = (int)json_integer_value(json_object_get(b, "cached"));
    r->build_seconds = nget(b, "seconds");
    const json_t *p = json_object_get(j, "predictions");
    sget(p, "origin", r->predictions, sizeof r->predictions);
    sget(p, "note", r->predictions_note, sizeof r->predictions_note);
    const json_t *cal = json_object_get(j, "calibration");
    if (json_is_object(cal))
        r->calibration = json_incref((json_t *)cal);
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)json_object_get(j, "ceilings"), key, v)
    {
        if (r->n_ceilings == (int)(sizeof r->ceilings / sizeof r->ceilings[0]))
            break;
        vceiling *c = &r->ceilings[r->n_ceilings++];
        snprintf(c->name, sizeof c->name, "%s", key);
        const char *unit = json_string_value(json_object_get(v, "unit"));
        c->bandwidth = unit && strcmp(unit, "B/s") == 0;
        c->precision = strcmp(key, "fp64") == 0          ? PREC_FP64
                       : strcmp(key, "fp16_tensor") == 0 ? PREC_FP16_TENSOR
                       : strcmp(key, "bf16_tensor") == 0 ? PREC_BF16_TENSOR
                                                         : PREC_FP32;
        c->measured = fmax(0, isnan(nget(v, "measured")) ? 0 : nget(v, "measured"));
        c->spec = isnan(nget(v, "spec")) ? 0 : nget(v, "spec");
        c->datasheet = isnan(nget(v, "datasheet")) ? 0 : nget(v, "datasheet");
        sget(v, "kernel", c->kernel, sizeof c->kernel);
        sget(v, "note", c->note, sizeof c->note);
    }
    r->rows = xcalloc(json_array_size(results) + 1, sizeof *r->rows);
    size_t i;
    json_array_foreach(results, i, v)
    {
        vrow *row = &r->rows[r->n_rows++];
        const char *check = json_string_value(json_object_get(v, "check"));
        const char *verdict = json_string_value(json_object_get(v, "verdict"));
        if (!check || !vcheck_from_name(check, &row->check) || !verdict) {
            snprintf(err, errlen, "results[%zu]: no check or verdict", i);
            verify_result_free(r);
            return false;
        }
        row->verdict = strcmp(verdict, "agrees") == 0    ? VV_AGREES
                       : strcmp(verdict, "differs") == 0 ? VV_DIFFERS
                                                         : VV_NOT_COMPARABLE;
        sget(v, "kernel", row->kernel, sizeof row->kernel);
        sget(v, "launch", row->launch, sizeof row->launch);
        sget(v, "unit", row->unit, sizeof row->unit);
        sget(v, "method", row->method, sizeof row->method);
        sget(v, "tolerance", row->tolerance, sizeof row->tolerance);
        sget(v, "reason", row->reason, sizeof row->reason);
        sget(v, "group", row->group, sizeof row->group);
        sget(v, "kind", row->kind, sizeof row->kind);
        sget(v, "class", row->cls, sizeof row->cls);
        row->calibration = json_is_true(json_object_get(v, "calibration"));
        row->predicted = nget(v, "predicted");
        row->measured = nget(v, "measured");
        row->detail = json_incref((json_t *)v);
    }
    json_object_foreach((json_t *)json_object_get(j, "ladders"), key, v)
    {
        if (r->n_ladders == (int)(sizeof r->ladders / sizeof r->ladders[0]))
            break;
        vladder *ld = &r->ladders[r->n_ladders++];
        snprintf(ld->name, sizeof ld->name, "%s", key);
        sget(v, "book", ld->book, sizeof ld->book);
        const json_t *steps = json_object_get(v, "steps"), *st;
        ld->steps = xcalloc(json_array_size(steps) + 1, sizeof *ld->steps);
        json_array_foreach(steps, i, st)
        {
            vladder_step *s = &ld->steps[ld->n_steps++];
            sget(st, "kernel", s->kernel, sizeof s->kernel);
            sget(st, "step", s->step, sizeof s->step);
            sget(st, "result", s->result, sizeof s->result);
            s->ms = nget(st, "ms");
            s->predicted_ms = nget(st, "predicted_ms");
            s->spread = nget(st, "spread");
            s->book_ms = isnan(nget(st, "book_ms")) ? 0 : nget(st, "book_ms");
            s->bytes = s->ms > 0 ? nget(st, "bytes_per_s") * s->ms * 1e-3 : 0;
            s->flops = s->ms > 0 && !isnan(nget(st, "flops_per_s"))
                           ? nget(st, "flops_per_s") * s->ms * 1e-3
                           : 0;
            s->pct_ceiling = nget(st, "fraction_of_ceiling");
            s->predicted = json_incref(json_object_get(st, "predicted"));
            if (!s->predicted)
                s->predicted = json_object();
        }
        const json_t *nt = json_object_get(v, "notes"), *n;
        json_array_foreach(nt, i, n)
        {
            if (ld->n_notes < 4)
                snprintf(ld->notes[ld->n_notes++], sizeof ld->notes[0], "%s",
                         json_string_value(n) ? json_string_value(n) : "");
        }
    }
    const json_t *sum = json_object_get(j, "summary");
    verify_count(r);
    r->run_seconds = nget(sum, "gpu_seconds");
    r->seconds = nget(sum, "seconds");
    return true;
}

/* ---------------------------------------------------------------- model and chart */

/* The INI key of a precision: "fp16_tensor" (the CLI spells it with '-'). */
static const char *prec_key(model_precision p)
{
    static char buf[32];
    snprintf(buf, sizeof buf, "%s", model_precision_name(p));
    for (char *c = buf; *c; c++)
        if (*c == '-')
            *c = '_';
    return buf;
}

/* [timing]: with --calibrate, the constants this card measured in place
 * of the bundled model's (which stay for the rest); without, the bundled
 * model's (a product file without [timing] gives no predicted times). */
static void save_timing(FILE *f, const verify_result *r, const gpu_product *twin)
{
    gpu_product p;
    verify_calibrated_product(twin, r->calibration, &p);
    /* A comment line per constant: a model file's lines stay short (inih
     * reads a long one in pieces). */
    fprintf(
        f,
        "\n; models/gpu/%s.ini's [timing], but where gpulint verify --calibrate measured "
        "a\n; constant on this card (kernels/calibrate.cu, CUDA events, the card's own clock):\n",
        twin->id);
    size_t i, n = 0;
    const json_t *o;
    json_array_foreach(json_object_get(r->calibration, "constants"), i, o)
    {
        if (dget(o, "value") > 0) {
            fprintf(f, ";   %s measured\n", json_string_value(json_object_get(o, "name")));
            n++;
        }
    }
    if (n == 0)
        fprintf(f, ";   none measured (run gpulint verify --calibrate)\n");
    sbuf text;
    sbuf_init(&text);
    model_product_ini(&p, "timing", &text);
    fputs(sbuf_str(&text), f);
    sbuf_free(&text);
}

bool vrep_save_model(const verify_result *r, const char *models_dir, const char *path, char *err,
                     size_t errlen)
{
    model_db db;
    model_load_error le = {0};
    if (!model_db_load(models_dir ? models_dir : model_default_dir(), &db, &le)) {
        snprintf(err, errlen, "%s: %s", le.path, le.err.message);
        return false;
    }
    const gpu_product *twin = r->product_id[0] ? model_find_product(&db, r->product_id) : NULL;
    if (!twin) {
        snprintf(err, errlen, "no bundled product model matches %s: its per-SM rates are unknown",
                 r->device_name);
        model_db_free(&db);
        return false;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write", path);
        model_db_free(&db);
        return false;
    }
    fprintf(f, "; %s as measured by gpulint verify %s (driver %s, runtime %s).\n", r->device_name,
            GPULINT_VERSION, r->driver, r->runtime);
    fprintf(f, "; SMs and clocks: the CUDA runtime; per-SM rates and datasheet figures:\n");
    fprintf(f, "; models/gpu/%s.ini; [measured]: this card's ceilings on this run.\n\n", twin->id);
    char id[96];
    snprintf(id, sizeof id, "%.60s-measured", twin->id);
    fprintf(f, "[product]\nid = %s\nname = %s (measured)\narch = %s\nsm_count = %d\n", id,
            r->device_name, r->arch, r->sms);
    fprintf(f, "base_clock_mhz = %.0f\nboost_clock_mhz = %.0f\nl2_bytes = %lld\n",
            twin->base_clock_mhz, r->sm_clock_mhz, (long long)twin->l2_bytes);
    if (twin->l2_partitions > 1)
        fprintf(f, "l2_partitions = %d\n", twin->l2_partitions);
    fprintf(f, "\n");
    fprintf(f, "[memory]\ntype = %s\nclock_mhz = %.0f\nbus_width_bits = %d\ndata_rate = %d\n",
            twin->mem_type, r->mem_clock_mhz, r->mem_bus_bits, twin->mem_data_rate);
    fprintf(f, "datasheet_bandwidth = %.6g\n\n", twin->datasheet_bandwidth);
    fprintf(f, "[throughput]\n");
    for (int p = 0; p < PREC_COUNT; p++)
        fprintf(f, "%s = %.6g\n", prec_key((model_precision)p), twin->flops_per_clock_per_sm[p]);
    fprintf(f, "\n[datasheet]\n");
    for (int p = 0; p < PREC_COUNT; p++)
        fprintf(f, "%s = %.6g\n", prec_key((model_precision)p), twin->datasheet_flops[p]);
    fprintf(f, "\n[measured]\n");
    for (int i = 0; i < r->n_ceilings; i++) {
        const vceiling *c = &r->ceilings[i];
        if (c->measured <= 0)
            continue;
        if (c->bandwidth)
            fprintf(f, "bandwidth = %.6g             ; %s, bytes read + written\n", c->measured,
                    c->kernel);
        else
            fprintf(f, "%s = %.6g            ; %s\n", prec_key(c->precision), c->measured,
                    c->kernel);
    }
    save_timing(f, r, twin);
    bool ok = fclose(f) == 0;
    model_db_free(&db);
    if (!ok)
        snprintf(err, errlen, "%s: cannot write", path);
    return ok;
}

bool vrep_plot(const verify_result *r, const char *path, char *err, size_t errlen)
{
    chart_roof compute[8], memory[2];
    int nc = 0, nm = 0;
    char labels[16][64];
    int nl = 0;
    for (int i = 0; i < r->n_ceilings && nc < 6; i++) {
        const vceiling *c = &r->ceilings[i];
        if (c->bandwidth) {
            if (c->spec > 0) {
                snprintf(labels[nl], 64, "DRAM spec");
                memory[nm++] = (chart_roof){labels[nl++], c->spec, NULL};
            }
            if (c->measured > 0) {
                snprintf(labels[nl], 64, "DRAM measured");
                memory[nm++] = (chart_roof){labels[nl++], c->measured, NULL};
            }
        } else if (c->precision == PREC_FP32 || c->precision == PREC_FP64) {
            if (c->spec > 0) {
                snprintf(labels[nl], 64, "%s spec", c->name);
                compute[nc++] = (chart_roof){labels[nl++], c->spec, NULL};
            }
            if (c->measured > 0) {
                snprintf(labels[nl], 64, "%s measured", c->name);
                compute[nc++] = (chart_roof){labels[nl++], c->measured, NULL};
            }
        }
    }
    chart_point *pts = xcalloc((size_t)r->n_rows + 1, sizeof *pts);
    int np = 0;
    for (int i = 0; i < r->n_rows; i++) {
        const vrow *row = &r->rows[i];
        double fl = dget(row->detail, "flops"), by = dget(row->detail, "compulsory_bytes");
        if (row->check != VCHECK_ROOFLINE || !(row->measured > 0) || !(fl > 0) || !(by > 0))
            continue;
        pts[np++] = (chart_point){row->kernel,          fl / by, fl / (row->measured * 1e-3),
                                  CHART_POINT_MEASURED, 0,       false};
    }
    char title[192];
    snprintf(title, sizeof title, "%s: spec and measured roofs", r->device_name);
    chart_roofline c = {.title = title,
                        .subtitle = "points: the reference kernels as measured (compulsory bytes)",
                        .compute = compute,
                        .n_compute = nc,
                        .memory = memory,
                        .n_memory = nm,
                        .points = pts,
                        .n_points = np};
    bool ok = nc > 0 && nm > 0 ? chart_roofline_write(&c, path, err, errlen) : false;
    if (!(nc > 0 && nm > 0))
        snprintf(err, errlen, "no ceilings to draw (were they measured?)");
    free(pts);
    return ok;
}
