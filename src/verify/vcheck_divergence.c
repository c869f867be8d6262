/* vcheck_divergence: SIMT efficiency of a branch, from lane counters
 * (__activemask, __popc) or from the time of a divergent kernel against
 * its warp-aligned twin, against the divergence analysis; cuobjdump's SASS
 * tells a predicated branch from a divergent one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/sbuf.h"
#include "util/spawn.h"
#include "verify/vrun.h"

bool vcheck_divergence_lanes(vmeasure *m)
{
    vrun *x = m->x;
    const vcase *c = m->c;
    int ci = m->ci;
    gbuf *counters = c->n_args > 0 && c->args[0].buffer >= 0 ? &m->bufs[c->args[0].buffer] : NULL;
    if (!counters || counters->spec->type != VT_U64) {
        vrun_set_why(x, ci, "the first argument must be the u64 lane counters");
        return true;
    }
    size_t n = counters->bytes / sizeof(uint64_t);
    uint64_t *counts = xcalloc(n, sizeof *counts);
    bool ok = probe_lanes_run(m->k, &m->l, m->args, counters->dev, counters->bytes, counts, n,
                              m->err, sizeof m->err);
    const json_t *b = vpred_branch(&x->pred, c->kernel, 0);
    json_int_t line = b ? json_integer_value(json_object_get(b, "line")) : 0;
    if (ok && line > 0 && (size_t)(2 * line + 1) < n) {
        uint64_t lanes = counts[2 * line], runs = counts[2 * line + 1];
        x->raw[ci] = runs ? (double)lanes / (32.0 * (double)runs) : NAN;
        json_object_set_new(m->extra, "lanes", json_integer((json_int_t)lanes));
        json_object_set_new(m->extra, "executions", json_integer((json_int_t)runs));
        json_object_set_new(m->extra, "line", json_integer(line));
        if (!runs)
            vrun_set_why(x, ci, "the counters of line %lld stayed at zero", (long long)line);
    } else if (ok) {
        vrun_set_why(x, ci, "no predicted branch to read the counters of");
    }
    free(counts);
    return ok;
}

bool vcheck_divergence_twins(vmeasure *m)
{
    vrun *x = m->x;
    const vcase *c = m->c;
    int ci = m->ci;
    gpurt_kernel ref;
    probe_launch lr;
    if (!gpurt_kernel_get(m->mod, c->reference, &ref, m->err, sizeof m->err)) {
        vrun_set_why(x, ci, "%s", m->err);
        return true;
    }
    if (!vrun_launch_of(x, c, c->reference, &lr)) {
        vrun_set_why(x, ci, "no constant launch of %s in the predictions", c->reference);
        return true;
    }
    /* Alternately, so that a clock change hits both alike. */
    double *ms = xcalloc((size_t)m->repeat, sizeof *ms),
           *ms2 = xcalloc((size_t)m->repeat, sizeof *ms2);
    double s2;
    bool ok = true;
    for (int rr = -m->warmup; ok && rr < m->repeat; rr++) {
        double t1, t2;
        ok = probe_times(m->k, &m->l, m->args, 0, 1, NULL, 0, &t1, m->err, sizeof m->err) &&
             probe_times(ref, &lr, m->args, 0, 1, NULL, 0, &t2, m->err, sizeof m->err);
        if (ok && rr >= 0) {
            ms[rr] = t1;
            ms2[rr] = t2;
        }
    }
    if (ok) {
        x->raw[ci] = judge_median(ms, m->repeat, &x->spread[ci]);
        x->raw2[ci] = judge_median(ms2, m->repeat, &s2);
        json_object_set_new(m->extra, "divergent_ms", json_real(x->raw[ci]));
        json_object_set_new(m->extra, "converged_ms", json_real(x->raw2[ci]));
        json_object_set_new(m->extra, "spread", json_real(fmax(x->spread[ci], s2)));
    }
    free(ms);
    free(ms2);
    return ok;
}

/* Divergent-branch reconvergence points (BSSY) in a kernel's SASS, from
 * cuobjdump beside nvcc; -1 when it cannot be read. A branch the compiler
 * predicated leaves none. */
static int sass_bssy(vrun *x, const char *file, const char *kernel)
{
    unit_info *u = vrun_unit_for(x, file);
    if (!u || !u->build.fatbin || !x->nvcc[0])
        return -1;
    char tool[4200];
    snprintf(tool, sizeof tool, "%s", x->nvcc);
    char *slash = strrchr(tool, '/');
    if (!slash)
        return -1;
    snprintf(slash + 1, sizeof tool - (size_t)(slash + 1 - tool), "cuobjdump");
    if (access(tool, X_OK) != 0)
        return -1;
    const char *argv[] = {tool, "-sass", "-fun", kernel, u->build.fatbin, NULL};
    spawn_result r;
    char err[256];
    if (!spawn_run(argv, NULL, &r, err, sizeof err))
        return -1;
    int n = -1;
    if (r.status == 0 && strstr(r.out, "Function")) {
        n = 0;
        for (const char *p = r.out; (p = strstr(p, "BSSY")); p += 4)
            n++;
    }
    spawn_result_free(&r);
    return n;
}

void vcheck_divergence_judge(vrun *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    vrow *row = vrun_new_row(x, c);
    snprintf(row->unit, sizeof row->unit, "SIMT efficiency");
    const json_t *b = vpred_branch(&x->pred, c->kernel, 0);
    probe_launch l;
    if (vrun_launch_of(x, c, c->kernel, &l))
        vrun_launch_text(&l, row->launch, sizeof row->launch);
    if (c->kind == VK_LANES) {
        snprintf(row->method, sizeof row->method, "lane counters (__activemask, __popc)");
        snprintf(row->tolerance, sizeof row->tolerance, "0.005");
    } else {
        snprintf(row->method, sizeof row->method, "time of the warp-aligned twin / this time");
        snprintf(row->tolerance, sizeof row->tolerance, "10%%");
    }
    if (!b) {
        snprintf(row->reason, sizeof row->reason, "no prediction: %s",
                 x->pred.why_none[0] ? x->pred.why_none : "no branch found");
        vrun_finish_row(x, row, ci);
        return;
    }
    row->predicted = vrun_jnum(b, "efficiency");
    json_object_set_new(row->detail, "text",
                        json_string(json_string_value(json_object_get(b, "text"))));
    json_object_set_new(row->detail, "line", json_incref(json_object_get(b, "line")));
    if (!x->r->dry_run && !x->why[ci]) {
        if (c->kind == VK_LANES) {
            row->measured = x->raw[ci];
            row->verdict = judge_count(row->predicted, row->measured, 0.005, 0);
        } else {
            bool predicated;
            row->measured = x->raw2[ci] / x->raw[ci];
            row->verdict =
                judge_twins(row->predicted, x->raw[ci], x->raw2[ci], 0.10, 0.05, &predicated);
            int bssy = predicated ? sass_bssy(x, vrun_group_of(x, c)->file, c->kernel) : -1;
            json_object_set_new(row->detail, "sass_bssy",
                                bssy >= 0 ? json_integer(bssy) : json_null());
            if (predicated && bssy > 0) {
                /* The SASS has a real branch, yet no time was lost: that is
                 * a disagreement, not predication. */
                row->verdict = VV_DIFFERS;
                snprintf(row->reason, sizeof row->reason,
                         "the twins took the same time (%.4f and %.4f ms) although the SASS "
                         "keeps %d divergent branch(es) (BSSY)",
                         x->raw[ci], x->raw2[ci], bssy);
            } else if (predicated) {
                snprintf(row->reason, sizeof row->reason,
                         "the compiler predicated this short branch: both sides ran for every "
                         "lane, so the divergent and converged twins took the same time (%.4f "
                         "and %.4f ms)%s; the lane counters measure branches as written",
                         x->raw[ci], x->raw2[ci],
                         bssy == 0 ? " and its SASS has no divergent branch (no BSSY, "
                                     "cuobjdump)"
                                   : " (cuobjdump not found to show the SASS)");
            }
        }
    }
    vrun_finish_row(x, row, ci);
}
