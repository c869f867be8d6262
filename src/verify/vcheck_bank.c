/* vcheck_bank: shared-memory wavefronts per request, measured in clock64
 * cycles of one-block probes and read through a line fitted to probes whose
 * count is not in doubt (per access width), against the bank model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"
#include "verify/vrun.h"

bool vcheck_bank_measure(vmeasure *m)
{
    vrun *x = m->x;
    int threads = m->l.block[0] * m->l.block[1] * m->l.block[2];
    int64_t requests =
        (int64_t)(threads / 32) * vrun_size_of(&x->r->manifest, "BANK_ITERS", 256) * 4;
    double *per = xcalloc((size_t)m->repeat + 1, sizeof *per);
    bool ok = probe_cycles_run(m->k, &m->l, m->repeat, !vrun_once(), per, m->err, sizeof m->err);
    if (ok) {
        for (int r = 0; r < m->repeat; r++)
            per[r] /= (double)requests;
        x->raw[m->ci] = judge_median(per, m->repeat, &x->spread[m->ci]);
        json_object_set_new(m->extra, "cycles_per_request", json_real(x->raw[m->ci]));
    }
    free(per);
    return ok;
}

static int access_width(vrun *x, int ci)
{
    const json_t *a = vpred_access(&x->pred, "shared_accesses", x->r->manifest.cases[ci].kernel);
    return a ? (int)json_integer_value(json_object_get(a, "width")) : 0;
}

static bool same_width(vrun *x, int ci, int width)
{
    return access_width(x, ci) == width;
}

/* Cycles of the width's floor probe (a broadcast), 0 when none ran. */
static double bank_floor(vrun *x, int width)
{
    const vmanifest *m = &x->r->manifest;
    for (int i = 0; i < m->n_cases; i++)
        if (x->selected[i] && m->cases[i].kind == VK_CYCLES && m->cases[i].floor && !x->why[i] &&
            x->raw[i] > 0 && access_width(x, i) == width)
            return x->raw[i];
    return 0;
}

void vcheck_bank_judge(vrun *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    vrow *row = vrun_new_row(x, c);
    snprintf(row->unit, sizeof row->unit, "wavefronts");
    snprintf(row->tolerance, sizeof row->tolerance, "0.5 or 5%%");
    const json_t *a = vpred_access(&x->pred, "shared_accesses", c->kernel);
    probe_launch l;
    if (vrun_launch_of(x, c, c->kernel, &l))
        vrun_launch_text(&l, row->launch, sizeof row->launch);
    if (!a || !json_is_true(json_object_get(a, "analyzed"))) {
        snprintf(row->reason, sizeof row->reason, "no prediction: %s",
                 a ? json_string_value(json_object_get(a, "reason"))
                   : (x->pred.why_none[0] ? x->pred.why_none : "the load was not found"));
        snprintf(row->method, sizeof row->method, "clock64");
        vrun_finish_row(x, row, ci);
        return;
    }
    int width = (int)json_integer_value(json_object_get(a, "width"));
    row->predicted = vrun_jnum(a, "average_wavefronts");
    json_object_set_new(row->detail, "width", json_integer(width));
    json_object_set_new(row->detail, "text",
                        json_string(json_string_value(json_object_get(a, "text"))));
    fitline f = vrun_fit_where(x, VK_CYCLES, same_width, width);
    snprintf(row->method, sizeof row->method, "clock64, %d-byte fit: %.2f + %.3f cycles/wavefront",
             width, f.a, f.b);
    if (!x->r->dry_run && !x->why[ci]) {
        double floor_cycles = bank_floor(x, width);
        if (!f.ok) {
            snprintf(row->reason, sizeof row->reason,
                     "no calibration for %d-byte accesses on this run", width);
        } else if (floor_cycles > 0 && f.a + f.b * row->predicted < floor_cycles - 0.5 * f.b) {
            /* The prediction asks for less time than the cheapest request of
             * this width takes: timing cannot see it. */
            row->measured = (x->raw[ci] - f.a) / f.b;
            snprintf(row->reason, sizeof row->reason,
                     "below what timing resolves for %d-byte requests: even a broadcast (every "
                     "lane on one address) takes %.2f cycles, %.2f wavefront-times, and this "
                     "request is predicted at %.2f; the hardware's wavefront counter is the "
                     "measure here (--counters)",
                     width, floor_cycles, (floor_cycles - f.a) / f.b, row->predicted);
            json_object_set_new(row->detail, "floor_cycles", json_real(floor_cycles));
        } else {
            row->measured = (x->raw[ci] - f.a) / f.b;
            row->verdict = judge_count(row->predicted, row->measured, 0.5, 0.05);
            json_object_set_new(row->detail, "fit_intercept", json_real(f.a));
            json_object_set_new(row->detail, "fit_slope", json_real(f.b));
            if (c->calibrate)
                json_object_set_new(row->detail, "calibration", json_true());
        }
    }
    vrun_finish_row(x, row, ci);
}
