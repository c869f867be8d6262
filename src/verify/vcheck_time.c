/* vcheck_time: each roofline kernel's predicted time (analysis/timing/ktime, as
 * `gpulint FILE.cu --gpu MODEL` prints it) against the time measured for
 * its roofline row. A prediction is an estimate: a row outside
 * VERIFY_ESTIMATE_TOLERANCE says so, and the summary counts them, but only
 * bounds and exact counts fail verify (see verify.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verify/vrun.h"

static void components_text(const json_t *parts, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)parts, k, v)
    {
        if (strcmp(k, "launch") == 0 || !json_is_number(v) || used >= n)
            continue;
        int w = snprintf(buf + used, n - used, "%s%s %.3g ms", used ? ", " : "", k,
                         json_number_value(v) * 1e3);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* Whether the source's launch is the one timed: a time predicted for
 * another configuration is no prediction of this one. */
static bool same_launch(const json_t *launch, const probe_launch *timed)
{
    const json_t *grid = json_object_get(launch, "grid"), *block = json_object_get(launch, "block");
    for (int d = 0; d < 3; d++) {
        const json_t *g = json_array_get(grid, (size_t)d), *b = json_array_get(block, (size_t)d);
        if ((g ? json_integer_value(g) : 1) != timed->grid[d] ||
            (b ? json_integer_value(b) : 1) != timed->block[d])
            return false;
    }
    return true;
}

/* The launch's time as the report gives it, or why there is none. */
static const json_t *predicted_time(vrun *x, const vpred *pred, const char *product, const vcase *c,
                                    const probe_launch *timed, const char **why)
{
    *why = NULL;
    if (!pred->source) {
        *why = pred->why_none[0] ? pred->why_none : "no source predictions";
        return NULL;
    }
    if (!x->have_product || strcmp(pred->gpu, product) != 0) {
        *why = !x->have_product ? "no bundled model matches this GPU: its timing constants are "
                                  "not known"
               : x->pred.gpu[0] ? "the predictions were made for another GPU model"
                                : "the predictions were made for an architecture, not a GPU model "
                                  "(make them with --gpu)";
        return NULL;
    }
    const json_t *l = vpred_launch(pred, c->kernel);
    const json_t *t = l ? json_object_get(l, "time") : NULL;
    if (!t) {
        *why = "no launch with a constant grid and block in the source";
        return NULL;
    }
    if (!timed || !same_launch(l, timed)) {
        *why = "the source's launch is not the one timed (verify.ini sets another grid or block)";
        return NULL;
    }
    if (!json_is_number(json_object_get(t, "predicted_s"))) {
        const char *r = json_string_value(json_object_get(t, "reason"));
        *why = r ? r : "gpulint gives no time for this launch";
        return NULL;
    }
    return t;
}

void vcheck_time_judge(vrun *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    probe_launch l;
    bool has_launch;
    vrow *row = vrun_new_timed_row(x, c, &l, &has_launch);
    row->check = VCHECK_TIME;
    snprintf(row->tolerance, sizeof row->tolerance, "within %.0f%% (an estimate)",
             100 * VERIFY_ESTIMATE_TOLERANCE);
    const char *why;
    const json_t *t =
        predicted_time(x, &x->pred, x->r->product_id, c, has_launch ? &l : NULL, &why);
    if (!t) {
        snprintf(row->reason, sizeof row->reason, "no predicted time: %s", why);
        vrun_finish_row(x, row, ci);
        return;
    }
    double predicted = json_number_value(json_object_get(t, "predicted_s"));
    const char *limiter = json_string_value(json_object_get(t, "limiter"));
    const json_t *parts = json_object_get(t, "components_s");
    row->predicted = predicted * 1e3;
    json_object_set_new(row->detail, "limiter", json_string(limiter ? limiter : "?"));
    json_object_set(row->detail, "components_s", (json_t *)parts);
    double insts = vpred_warp_insts(&x->pred, c->kernel);
    if (insts >= 0)
        json_object_set_new(row->detail, "predicted_warp_instructions", json_real(insts));
    /* The same launch predicted with the card's own constants. */
    const json_t *ct = x->have_cal_pred ? predicted_time(x, &x->cal_pred, x->calibrated.id, c,
                                                         has_launch ? &l : NULL, &why)
                                        : NULL;
    double cal = ct ? vrun_jnum(ct, "predicted_s") : NAN;
    if (cal > 0) {
        json_object_set_new(row->detail, "calibrated_predicted_ms", json_real(cal * 1e3));
        const char *cl = json_string_value(json_object_get(ct, "limiter"));
        json_object_set_new(row->detail, "calibrated_limiter", json_string(cl ? cl : "?"));
        if (!x->r->dry_run && !x->why[ci] && x->raw[ci] > 0)
            json_object_set_new(row->detail, "calibrated_error",
                                json_real(cal * 1e3 / x->raw[ci] - 1));
    }
    if (!x->r->dry_run && !x->why[ci] && x->raw[ci] > 0) {
        row->measured = x->raw[ci];
        double error = row->predicted / row->measured - 1;
        json_object_set_new(row->detail, "error", json_real(error));
        bool within = fabs(error) <= VERIFY_ESTIMATE_TOLERANCE;
        row->verdict = within ? VV_AGREES : VV_DIFFERS;
        if (!within) {
            char comp[240];
            components_text(parts, comp, sizeof comp);
            snprintf(row->reason, sizeof row->reason,
                     "predicted %.4g ms, %+.0f%% of the measured %.4g ms (limited by %s; %s)",
                     row->predicted, 100 * error, row->measured, limiter ? limiter : "?", comp);
        }
    }
    vrun_finish_row(x, row, ci);
}
