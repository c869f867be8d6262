/* verify: plan, build, predict, run, judge (see verify.h): the entry point
 * that runs the parts in order (vplan, vmeasure, one vcheck_* file per
 * check, vcounters) and frees what they made. */
#include "verify/verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_load.h"
#include "util/exitcode.h"
#include "verify/vrun.h"
#include "util/order.h"

const char *verify_kernels_dir(const char *models_dir)
{
    static char buf[4096];
    const char *env = getenv("GPULINT_KERNELS");
    if (env && *env)
        return env;
    const char *m = models_dir ? models_dir : model_default_dir();
    snprintf(buf, sizeof buf, "%s/../kernels", m);
    return buf;
}

/* |predicted / measured - 1| of n pairs: how many within the tolerance,
 * the median and the mean. errors is sorted. */
static void summarise(double *errors, int n, verify_errors *out)
{
    qsort(errors, (size_t)n, sizeof *errors, order_double);
    out->rows = n;
    out->within = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        out->within += errors[i] <= VERIFY_ESTIMATE_TOLERANCE;
        sum += errors[i];
    }
    out->median_error = n ? (n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2) : NAN;
    out->mean_error = n ? sum / n : NAN;
}

/* The verdicts, and the errors of the estimates (predicted times, DRAM
 * bytes where counters were read). */
void verify_count(verify_result *r)
{
    r->agrees = r->differs = r->not_comparable = 0;
    r->estimates_differ = 0;
    double *times = xcalloc((size_t)r->n_rows + 1, sizeof *times);
    double *drams = xcalloc((size_t)r->n_rows + 1, sizeof *drams);
    double *calibrated = xcalloc((size_t)r->n_rows + 1, sizeof *calibrated);
    int nt = 0, nd = 0, nc = 0;
    for (int i = 0; i < r->n_rows; i++) {
        const vrow *row = &r->rows[i];
        if (row->verdict == VV_AGREES)
            r->agrees++;
        else if (row->verdict == VV_DIFFERS)
            r->differs++;
        else
            r->not_comparable++;
        double est = vrun_jnum(row->detail, "dram_estimate_bytes");
        double dram = vrun_jnum(row->detail, "counter_dram_bytes");
        if (row->check == VCHECK_ROOFLINE && est >= 0 && dram > 0)
            drams[nd++] = fabs(est / dram - 1);
        if (row->check != VCHECK_TIME)
            continue;
        r->estimates_differ += row->verdict == VV_DIFFERS;
        if (row->predicted > 0 && row->measured > 0 && row->verdict != VV_NOT_COMPARABLE)
            times[nt++] = fabs(row->predicted / row->measured - 1);
        double cal = vrun_jnum(row->detail, "calibrated_predicted_ms");
        if (cal > 0 && row->measured > 0)
            calibrated[nc++] = fabs(cal / row->measured - 1);
    }
    summarise(times, nt, &r->time);
    summarise(drams, nd, &r->dram);
    summarise(calibrated, nc, &r->time_calibrated);
    free(times);
    free(drams);
    free(calibrated);
}

/* Every selected case on the GPU, the ceilings first (the roofline rows
 * and ladders read them). */
static int measure_all(vrun *x)
{
    const vmanifest *m = &x->r->manifest;
    double t0 = vrun_now();
    char err[GPURT_ERR_MAX];
    if (!gpurt_open(0, err, sizeof err))
        return vrun_fail(x, EXIT_NO_DEVICE, "%s", err);
    bool usable = true;
    for (int gi = 0; gi < m->n_groups && usable; gi++)
        if (strcmp(m->groups[gi].name, "ceilings") == 0)
            usable = vmeasure_group(x, gi);
    for (int gi = 0; gi < m->n_groups && usable; gi++)
        if (strcmp(m->groups[gi].name, "ceilings") != 0)
            usable = vmeasure_group(x, gi);
    if (!usable)
        fprintf(stderr, "gpulint: warning: a kernel fault left the GPU context unusable; "
                        "the remaining kernels were not run\n");
    gpurt_close();
    x->r->run_seconds = vrun_now() - t0;
    return EXIT_OK;
}

/* Each selected case into its row; the roofline rows after the ceilings are
 * known. */
static void judge_all(vrun *x)
{
    const vmanifest *m = &x->r->manifest;
    for (int i = 0; i < m->n_cases; i++) {
        if (!x->selected[i])
            continue;
        switch (m->cases[i].kind) {
        case VK_RESIDENCY:
            vcheck_occupancy_judge(x, i);
            break;
        case VK_CYCLES:
            vcheck_bank_judge(x, i);
            break;
        case VK_SECTORS:
            vcheck_coalescing_judge(x, i);
            break;
        case VK_LANES:
        case VK_TWINS:
            vcheck_divergence_judge(x, i);
            break;
        case VK_CEILING:
            vcheck_ceilings_judge(x, i);
            break;
        case VK_TIME:
        case VK_TIMING:
            break;
        }
    }
    unsigned checks = x->o->checks;
    bool floors = !checks || checks & 1u << VCHECK_ROOFLINE || x->o->ladder;
    bool times = !checks || checks & 1u << VCHECK_TIME || x->o->ladder;
    for (int i = 0; i < m->n_cases; i++)
        if (x->selected[i] && m->cases[i].kind == VK_TIME) {
            if (floors)
                vcheck_roofline_judge(x, i);
            if (times)
                vcheck_time_judge(x, i);
        }
}

/* Everything up to the GPU: models, manifest, selection, target, build,
 * predictions, and the per-case measurement slots. */
static int prepare(vrun *x)
{
    const verify_opts *o = x->o;
    verify_result *r = x->r;
    const char *kdir = o->kernels_dir ? o->kernels_dir : verify_kernels_dir(o->models_dir);
    char *real = realpath(kdir, NULL);
    snprintf(r->kernels_dir, sizeof r->kernels_dir, "%s", real ? real : kdir);
    free(real);
    model_load_error le = {0};
    const char *mdir = o->models_dir ? o->models_dir : model_default_dir();
    if (!model_db_load(mdir, &x->db, &le))
        return vrun_fail(x, EXIT_MODEL, "%s:%d: %s", le.path, le.err.line, le.err.message);
    int rc = vplan_manifest(x, r->kernels_dir);
    if (rc == EXIT_OK)
        rc = vplan_select(x);
    if (rc == EXIT_OK)
        rc = vplan_target(x);
    if (rc == EXIT_OK)
        rc = vplan_build(x);
    if (rc == EXIT_OK)
        rc = vplan_predict(x);
    if (rc != EXIT_OK)
        return rc;
    vcheck_ceilings_spec(x);
    size_t n = (size_t)r->manifest.n_cases + 1;
    x->raw = xcalloc(n, sizeof *x->raw);
    x->raw2 = xcalloc(n, sizeof *x->raw2);
    x->spread = xcalloc(n, sizeof *x->spread);
    x->why = xcalloc(n, sizeof *x->why);
    x->extra = xcalloc(n, sizeof *x->extra);
    return EXIT_OK;
}

static void run_free(vrun *x)
{
    for (int i = 0; i < x->n_units; i++) {
        kbuild_unit_free(&x->units[i].build);
        ptxas_log_free(&x->units[i].ptx);
    }
    free(x->units);
    if (x->why)
        for (int i = 0; i < x->r->manifest.n_cases; i++) {
            free(x->why[i]);
            json_decref(x->extra[i]);
        }
    free(x->why);
    free(x->extra);
    free(x->raw);
    free(x->raw2);
    free(x->spread);
    free(x->selected);
    if (x->pred.report)
        vpred_free(&x->pred);
    if (x->cal_pred.report)
        vpred_free(&x->cal_pred);
    model_db_free(&x->db);
}

int verify_run(const verify_opts *o, verify_result *r)
{
    memset(r, 0, sizeof *r);
    static char errbuf[1024];
    errbuf[0] = '\0';
    vrun x = {.o = o, .r = r, .err = errbuf, .errlen = sizeof errbuf, .started = vrun_now()};
    r->dry_run = o->dry_run;
    snprintf(r->counters, sizeof r->counters, "%s",
             o->counters == VCOUNTERS_OFF ? "off" : "unavailable");
    int rc = prepare(&x);
    if (rc == EXIT_OK && !o->dry_run)
        rc = measure_all(&x);
    if (rc == EXIT_OK && o->calibrate)
        vcalibrate_run(&x);
    if (rc == EXIT_OK) {
        judge_all(&x);
        if (!o->dry_run && o->counters != VCOUNTERS_OFF && !vrun_once()) {
            vcounters_read(&x);
            if (o->counters == VCOUNTERS_ON && strcmp(r->counters, "used") != 0)
                rc = vrun_fail(&x, EXIT_TOOL, "--counters on: %s", r->counters_note);
        }
    }
    if (rc == EXIT_OK) {
        vcheck_roofline_ladders(&x);
        verify_count(r);
        /* A predicted time is an estimate: its misses are shown and
         * counted, but only a bound or an exact count that the GPU
         * contradicts fails the run. */
        rc = r->differs > r->estimates_differ ? EXIT_CHECK_FAILED : EXIT_OK;
    }
    r->seconds = vrun_now() - x.started;
    if (rc != EXIT_OK && rc != EXIT_CHECK_FAILED && errbuf[0])
        fprintf(stderr, "gpulint: error: %s\n", errbuf);
    run_free(&x);
    return rc;
}

void verify_result_free(verify_result *r)
{
    for (int i = 0; i < r->n_rows; i++)
        json_decref(r->rows[i].detail);
    free(r->rows);
    for (int i = 0; i < r->n_ladders; i++) {
        for (int s = 0; s < r->ladders[i].n_steps; s++)
            json_decref(r->ladders[i].steps[s].predicted);
        free(r->ladders[i].steps);
    }
    json_decref(r->calibration);
    vman_free(&r->manifest);
    memset(r, 0, sizeof *r);
}
