/* vcheck_coalescing: global sectors per warp request, from DRAM time
 * through a bandwidth calibrated on dense and sparse patterns (the L2 fetch
 * granularity set to 32 B), against the coalescing analysis. Measured by
 * vmeasure_times. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"
#include "verify/vrun.h"

static bool same_class(vrun *x, int ci, int sparse)
{
    return x->r->manifest.cases[ci].sparse == (sparse != 0);
}

void vcheck_coalescing_judge(vrun *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    vrow *row = vrun_new_row(x, c);
    snprintf(row->unit, sizeof row->unit, "sectors");
    snprintf(row->tolerance, sizeof row->tolerance, "0.5 or 10%%");
    const json_t *a = vpred_access(&x->pred, "global_accesses", c->kernel);
    probe_launch l;
    if (vrun_launch_of(x, c, c->kernel, &l))
        vrun_launch_text(&l, row->launch, sizeof row->launch);
    fitline dense = vrun_fit_where(x, VK_SECTORS, same_class, 0);
    fitline sparse = vrun_fit_where(x, VK_SECTORS, same_class, 1);
    /* The sparse class keeps the dense intercept (launch and tail cost) and
     * gets its own cost per sector from its calibration pattern. */
    double slope = dense.b;
    bool ok = dense.ok;
    if (c->sparse) {
        ok = ok && sparse.ok;
        slope = 0;
        for (int i = 0; ok && i < x->r->manifest.n_cases; i++) {
            const vcase *s = &x->r->manifest.cases[i];
            if (x->selected[i] && s->kind == VK_SECTORS && s->sparse && s->calibrate &&
                x->raw[i] > 0 && !x->why[i]) {
                slope = (x->raw[i] - dense.a) / s->calibrate_value;
                break;
            }
        }
    }
    snprintf(row->method, sizeof row->method,
             "DRAM time x calibrated bandwidth (%s), L2 fetch granularity 32 B",
             c->sparse ? "sparse: one sector per 128-byte line" : "dense");
    if (!a || !json_is_true(json_object_get(a, "analyzed"))) {
        snprintf(row->reason, sizeof row->reason, "no prediction: %s",
                 a ? json_string_value(json_object_get(a, "reason"))
                   : (x->pred.why_none[0] ? x->pred.why_none : "the load was not found"));
        vrun_finish_row(x, row, ci);
        return;
    }
    row->predicted = vrun_jnum(a, "average_sectors");
    json_object_set_new(row->detail, "width",
                        json_object_get(a, "width") ? json_incref(json_object_get(a, "width"))
                                                    : json_null());
    json_object_set_new(row->detail, "requests", json_integer(c->requests));
    if (!x->r->dry_run && !x->why[ci] && x->raw[ci] > 0) {
        double ns = x->raw[ci];
        json_object_set_new(row->detail, "ns_per_request", json_real(ns));
        json_object_set_new(row->detail, "sector_gbps", json_real(row->predicted * 32.0 / ns));
        if (!ok || !(slope > 0)) {
            snprintf(row->reason, sizeof row->reason, "no %s calibration on this run",
                     c->sparse ? "sparse" : "dense");
        } else {
            row->measured = (ns - dense.a) / slope;
            json_object_set_new(row->detail, "fit_intercept_ns", json_real(dense.a));
            json_object_set_new(row->detail, "fit_ns_per_sector", json_real(slope));
            row->verdict = judge_count(row->predicted, row->measured, 0.5, 0.10);
            if ((c->scattered || c->straddles) && row->measured >= 0.9 * row->predicted) {
                /* Time that is not sectors: an upper bound only. */
                row->verdict = VV_NOT_COMPARABLE;
                snprintf(row->reason, sizeof row->reason,
                         "%s: the time (%.1f sector-times) bounds the sectors from above and is "
                         "consistent with the predicted %.0f; the sector counter is the measure "
                         "here (--counters)",
                         c->scattered
                             ? "its lanes are far apart in memory, so each sector also costs a "
                               "DRAM row activation the calibration pattern does not pay"
                             : "each request spans two 128-byte lines for five sectors, and the "
                               "L2's work per line adds time the calibration patterns (a line "
                               "per four sectors) do not have",
                         row->measured, row->predicted);
            }
            if (c->calibrate)
                json_object_set_new(row->detail, "calibration", json_true());
        }
    }
    vrun_finish_row(x, row, ci);
}
