/* vmeasure: a group's cases on the GPU: its fatbin loaded, its buffers
 * filled, each case's arguments built and its check's measurement run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/vrun.h"

typedef struct scalar_store {
    float f;
    double d;
    int32_t i;
    uint64_t u;
} scalar_store;

static void build_args(const vcase *c, gbuf *bufs, scalar_store *ss, void **args)
{
    for (int i = 0; i < c->n_args; i++) {
        const varg *a = &c->args[i];
        if (a->buffer >= 0) {
            args[i] = &bufs[a->buffer].dev;
            continue;
        }
        switch (a->type) {
        case VT_F64:
            ss[i].d = a->value;
            args[i] = &ss[i].d;
            break;
        case VT_I32:
            ss[i].i = (int32_t)a->value;
            args[i] = &ss[i].i;
            break;
        case VT_U64:
            ss[i].u = (uint64_t)a->value;
            args[i] = &ss[i].u;
            break;
        default:
            ss[i].f = (float)a->value;
            args[i] = &ss[i].f;
            break;
        }
    }
}

bool vmeasure_times(vmeasure *m)
{
    vrun *x = m->x;
    const vcase *c = m->c;
    int ci = m->ci;
    gbuf *restore[VMAN_MAX_BUFFERS];
    probe_copy copies[VMAN_MAX_BUFFERS];
    int n_restore = 0;
    bool ok = true;
    if (c->restore >= 0) {
        gbuf *b = &m->bufs[c->restore];
        ok = gbuf_keep(b, m->err, sizeof m->err);
        copies[n_restore] = (probe_copy){b->dev, b->pristine, b->bytes};
        restore[n_restore++] = b;
    }
    double *ms = xcalloc((size_t)m->repeat, sizeof *ms);
    ok = ok && probe_times(m->k, &m->l, m->args, m->warmup, m->repeat, copies, n_restore, ms,
                           m->err, sizeof m->err);
    if (ok) {
        double med = judge_median(ms, m->repeat, &x->spread[ci]);
        /* Coalescing compares ns per warp request; the rest, ms. */
        x->raw[ci] = c->kind == VK_SECTORS ? med * 1e6 / (double)c->requests : med;
        json_object_set_new(m->extra, "ms", json_real(med));
        json_object_set_new(m->extra, "spread", json_real(x->spread[ci]));
        if (c->result.fn != VR_NONE) {
            char why[256];
            if (!gbuf_check(&c->result, m->bufs, why, sizeof why)) {
                json_object_set_new(m->extra, "result", json_string(why));
                vrun_set_why(x, ci, "%s", why);
            } else {
                json_object_set_new(m->extra, "result", json_string("ok"));
            }
        }
    }
    /* An in-place kernel leaves its input changed: put it back for the
     * next case that reads the buffer. */
    for (int i = 0; ok && i < n_restore; i++)
        ok = gbuf_restore(restore[i], m->err, sizeof m->err);
    free(ms);
    return ok;
}

/* True, with the reason recorded, when a case cannot be measured. */
static bool cannot_run(vrun *x, int ci, const vgroup *g, bool have_launch)
{
    const vcase *c = &x->r->manifest.cases[ci];
    int cc = x->arch.cc_major * 10 + x->arch.cc_minor;
    if (c->min_cc && cc < c->min_cc) {
        vrun_set_why(x, ci, "needs compute capability %d.%d (%s); this GPU is %d.%d",
                     c->min_cc / 10, c->min_cc % 10,
                     c->min_cc >= 80 ? "bf16 tensor cores" : "tensor cores", x->arch.cc_major,
                     x->arch.cc_minor);
        return true;
    }
    const unit_info *ui = vrun_unit_for(x, g->file);
    if (c->kind != VK_RESIDENCY && c->kind != VK_CEILING && c->kind != VK_TIMING && ui &&
        ui->stale[0]) {
        vrun_set_why(x, ci, "%s", ui->stale);
        return true;
    }
    if (c->kind != VK_RESIDENCY && !have_launch) {
        vrun_set_why(x, ci, "no constant launch of %s in the predictions%s%s", c->kernel,
                     x->pred.why_none[0] ? ": " : "", x->pred.why_none);
        return true;
    }
    return false;
}

/* Runs one case; what it measured goes to raw/raw2/extra, or why it could
 * not to why. Returns false only when the GPU is no longer usable. */
static bool run_case(vrun *x, int ci, gpurt_module *mod, gbuf *bufs, const vgroup *g)
{
    const vcase *c = &x->r->manifest.cases[ci];
    vmeasure m = {.x = x, .ci = ci, .c = c, .mod = mod, .bufs = bufs};
    if (!gpurt_kernel_get(mod, c->kernel, &m.k, m.err, sizeof m.err)) {
        vrun_set_why(x, ci, "%s", m.err);
        return true;
    }
    m.repeat = x->o->repeat > 0 ? x->o->repeat : 5;
    /* A calibration slope is the difference of two times that may be a
     * microsecond apart (an empty launch's blocks): the median of more
     * runs, which cost little. */
    if (c->kind == VK_TIMING && m.repeat < CAL_REPEAT)
        m.repeat = CAL_REPEAT;
    /* Under Nsight Compute every probe launches exactly once. */
    m.warmup = vrun_once() ? 0 : 1;
    if (vrun_once())
        m.repeat = 1;
    bool have_launch = vrun_launch_of(x, c, c->kernel, &m.l);
    if (cannot_run(x, ci, g, have_launch))
        return true;
    scalar_store ss[VMAN_MAX_ARGS];
    void *args[VMAN_MAX_ARGS];
    build_args(c, bufs, ss, args);
    m.args = args;
    m.extra = x->extra[ci] = json_object();
    bool ok = true;
    switch (c->kind) {
    case VK_RESIDENCY:
        ok = vcheck_occupancy_measure(&m);
        break;
    case VK_CYCLES:
        ok = vcheck_bank_measure(&m);
        break;
    case VK_SECTORS:
    case VK_CEILING:
    case VK_TIME:
        ok = vmeasure_times(&m);
        break;
    case VK_TIMING: {
        bool skip;
        ok = vcalibrate_prepare(&m, &skip) && (skip || vmeasure_times(&m));
        break;
    }
    case VK_LANES:
        ok = vcheck_divergence_lanes(&m);
        break;
    case VK_TWINS:
        ok = vcheck_divergence_twins(&m);
        break;
    }
    if (!ok) {
        vrun_set_why(x, ci, "%s", m.err);
        /* A kernel fault leaves the context unusable: stop the run. */
        return strstr(m.err, "illegal") == NULL && strstr(m.err, "misaligned") == NULL &&
               strstr(m.err, "unspecified launch failure") == NULL;
    }
    return true;
}

bool vmeasure_group(vrun *x, int gi)
{
    const vmanifest *m = &x->r->manifest;
    const vgroup *g = &m->groups[gi];
    bool any = false;
    for (int i = 0; i < m->n_cases; i++)
        any = any || (x->selected[i] && m->cases[i].group == gi);
    if (!any)
        return true;
    char err[GPURT_ERR_MAX];
    unit_info *u = vrun_unit_for(x, g->file);
    gpurt_module *mod = NULL;
    if (!u || !u->build.fatbin || !gpurt_load(u->build.fatbin, &mod, err, sizeof err)) {
        for (int i = 0; i < m->n_cases; i++)
            if (x->selected[i] && m->cases[i].group == gi)
                vrun_set_why(x, i, "%s", u && u->build.fatbin ? err : "not built");
        return true;
    }
    gbuf bufs[VMAN_MAX_BUFFERS];
    memset(bufs, 0, sizeof bufs);
    bool ok = true;
    for (int b = 0; b < g->n_buffers && ok; b++) {
        ok = gbuf_create(&bufs[b], &g->buffers[b], 0x5eed0000u + (uint64_t)(gi * 16 + b), err,
                         sizeof err);
        if (!ok)
            for (int i = 0; i < m->n_cases; i++)
                if (x->selected[i] && m->cases[i].group == gi)
                    vrun_set_why(x, i, "buffer %s: %s", g->buffers[b].name, err);
    }
    /* Coalescing reads DRAM traffic as 32-byte sectors: no neighbour fetched along. */
    bool granularity = false;
    if (ok && g->check == VCHECK_COALESCING) {
        granularity = gpurt_set_l2_fetch_granularity(32, err, sizeof err);
        if (!granularity)
            fprintf(stderr, "gpulint: warning: %s; sectors may read high\n", err);
    }
    bool usable = true;
    for (int i = 0; ok && usable && i < m->n_cases; i++) {
        if (!x->selected[i] || m->cases[i].group != gi)
            continue;
        usable = run_case(x, i, mod, bufs, g);
        vrun_progress(x, m->cases[i].kernel);
    }
    if (granularity)
        gpurt_set_l2_fetch_granularity(64, err, sizeof err);
    for (int b = 0; b < g->n_buffers; b++)
        gbuf_free(&bufs[b]);
    gpurt_unload(mod);
    return usable;
}
