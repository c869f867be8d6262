/* vrun: the run's shared helpers (see vrun.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/sbuf.h"
#include "verify/vrun.h"

double vrun_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int vrun_fail(vrun *x, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err, x->errlen, fmt, ap);
    va_end(ap);
    return code;
}

const vgroup *vrun_group_of(const vrun *x, const vcase *c)
{
    return &x->r->manifest.groups[c->group];
}

unit_info *vrun_unit_for(vrun *x, const char *file)
{
    for (int i = 0; i < x->n_units; i++)
        if (strcmp(x->units[i].file, file) == 0)
            return &x->units[i];
    return NULL;
}

const ptxas_kernel *vrun_ptx_kernel(const unit_info *u, const char *name)
{
    for (size_t i = 0; u && i < u->ptx.n_kernels; i++)
        if (u->ptx.kernels[i].is_entry && strcmp(u->ptx.kernels[i].name, name) == 0)
            return &u->ptx.kernels[i];
    return NULL;
}

void vrun_set_why(vrun *x, int i, const char *fmt, ...)
{
    if (x->why[i])
        return;
    sbuf b;
    sbuf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sbuf_vaddf(&b, fmt, ap);
    va_end(ap);
    x->why[i] = sbuf_take(&b);
}

void vrun_progress(vrun *x, const char *kernel)
{
    x->done++;
    if (!x->o->progress)
        return;
    fprintf(stderr, "\r\033[Kverify: %d/%d %s (%.1f s)", x->done, x->n_selected, kernel,
            vrun_now() - x->started);
    if (x->done == x->n_selected)
        fputc('\n', stderr);
    fflush(stderr);
}

static bool json_dims(const json_t *a, int out[3])
{
    if (!json_is_array(a) || json_array_size(a) != 3)
        return false;
    for (int i = 0; i < 3; i++) {
        json_int_t v = json_integer_value(json_array_get(a, (size_t)i));
        if (v <= 0 || v > 0x7fffffff)
            return false;
        out[i] = (int)v;
    }
    return true;
}

/* From the source's launch site, else the manifest's grid=/threads=. */
bool vrun_launch_of(vrun *x, const vcase *c, const char *kernel, probe_launch *l)
{
    memset(l, 0, sizeof *l);
    const unit_info *u = vrun_unit_for(x, vrun_group_of(x, c)->file);
    const json_t *j = u && u->stale[0] ? NULL : vpred_launch(&x->pred, kernel);
    if (j && json_dims(json_object_get(j, "grid"), l->grid) &&
        json_dims(json_object_get(j, "block"), l->block)) {
        l->dynamic_smem = json_integer_value(json_object_get(j, "dynamic_smem"));
        return true;
    }
    if (c->blocks_per_sm > 0 && c->threads > 0 && x->r->sms > 0) {
        l->grid[0] = c->blocks_per_sm * x->r->sms;
        l->grid[1] = l->grid[2] = 1;
        l->block[0] = (int)c->threads;
        l->block[1] = l->block[2] = 1;
        return true;
    }
    if (c->grid > 0 && c->threads > 0) {
        l->grid[0] = (int)c->grid;
        l->grid[1] = l->grid[2] = 1;
        l->block[0] = (int)c->threads;
        l->block[1] = l->block[2] = 1;
        return true;
    }
    return false;
}

vrow *vrun_new_timed_row(vrun *x, const vcase *c, probe_launch *l, bool *has_launch)
{
    vrow *row = vrun_new_row(x, c);
    snprintf(row->unit, sizeof row->unit, "ms");
    snprintf(row->method, sizeof row->method, "CUDA events, median of %d runs",
             x->o->repeat > 0 ? x->o->repeat : 5);
    *has_launch = vrun_launch_of(x, c, c->kernel, l);
    if (*has_launch)
        vrun_launch_text(l, row->launch, sizeof row->launch);
    return row;
}

void vrun_launch_text(const probe_launch *l, char *buf, size_t n)
{
    char g[48], b[48];
    if (l->grid[1] == 1 && l->grid[2] == 1)
        snprintf(g, sizeof g, "%d", l->grid[0]);
    else
        snprintf(g, sizeof g, "%dx%dx%d", l->grid[0], l->grid[1], l->grid[2]);
    if (l->block[1] == 1 && l->block[2] == 1)
        snprintf(b, sizeof b, "%d", l->block[0]);
    else
        snprintf(b, sizeof b, "%dx%dx%d", l->block[0], l->block[1], l->block[2]);
    snprintf(buf, n, "<<<%s, %s>>>", g, b);
}

/* Set in the child that runs under Nsight Compute (see vcounters_read()). */
bool vrun_once(void)
{
    const char *v = getenv("GPULINT_VERIFY_ONCE");
    return v && strcmp(v, "1") == 0;
}

int64_t vrun_size_of(const vmanifest *m, const char *name, int64_t fallback)
{
    for (int i = 0; i < m->n_sizes; i++)
        if (strcmp(m->sizes[i].name, name) == 0)
            return m->sizes[i].value;
    return fallback;
}

vrow *vrun_new_row(vrun *x, const vcase *c)
{
    verify_result *r = x->r;
    r->rows = xrealloc(r->rows, (size_t)(r->n_rows + 1) * sizeof *r->rows);
    vrow *row = &r->rows[r->n_rows++];
    memset(row, 0, sizeof *row);
    row->check = vrun_group_of(x, c)->check;
    row->vc = c;
    static const char *const kinds[] = {"residency", "cycles",  "sectors", "lanes",
                                        "timing",    "ceiling", "time",    "calibration"};
    snprintf(row->group, sizeof row->group, "%s", vrun_group_of(x, c)->name);
    snprintf(row->kind, sizeof row->kind, "%s", kinds[c->kind]);
    snprintf(row->cls, sizeof row->cls, "%s",
             c->scattered ? "scattered"
             : c->sparse  ? "sparse"
                          : "dense");
    row->calibration = c->calibrate;
    snprintf(row->kernel, sizeof row->kernel, "%s", c->kernel);
    row->predicted = row->measured = NAN;
    row->verdict = VV_NOT_COMPARABLE;
    row->detail = json_object();
    return row;
}

double vrun_jnum(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

void vrun_finish_row(vrun *x, vrow *row, int ci)
{
    if (x->extra[ci]) {
        json_object_update(row->detail, x->extra[ci]);
    }
    if (x->why[ci] && row->verdict == VV_AGREES) {
        row->verdict = VV_DIFFERS; /* e.g. a wrong result */
        snprintf(row->reason, sizeof row->reason, "%s", x->why[ci]);
    } else if (x->why[ci] && !row->reason[0]) {
        row->verdict =
            strncmp(x->why[ci], "wrong result", 12) == 0 ? VV_DIFFERS : VV_NOT_COMPARABLE;
        snprintf(row->reason, sizeof row->reason, "%s", x->why[ci]);
    }
    if (x->r->dry_run) {
        /* What the row could not predict stays in view: the dry run is
         * where a missing prediction is found before a GPU is at hand. */
        char why[sizeof row->reason];
        snprintf(why, sizeof why, "%s", row->reason);
        row->verdict = VV_NOT_COMPARABLE;
        row->measured = NAN;
        snprintf(row->reason, sizeof row->reason, "dry run: not measured%s%.*s", why[0] ? "; " : "",
                 (int)sizeof row->reason - 32, why);
    }
}

vceiling *vrun_ceiling(verify_result *r, const char *name)
{
    for (int i = 0; i < r->n_ceilings; i++)
        if (strcmp(r->ceilings[i].name, name) == 0)
            return &r->ceilings[i];
    return NULL;
}

fitline vrun_fit_where(vrun *x, vkind kind, bool (*match)(vrun *, int, int), int key)
{
    const vmanifest *m = &x->r->manifest;
    double xs[64], ys[64];
    int n = 0;
    for (int i = 0; i < m->n_cases && n < 64; i++) {
        const vcase *c = &m->cases[i];
        if (!x->selected[i] || c->kind != kind || !c->calibrate || x->why[i] || !(x->raw[i] > 0))
            continue;
        if (!match(x, i, key))
            continue;
        xs[n] = c->calibrate_value;
        ys[n] = x->raw[i];
        n++;
    }
    fitline f = {0, 0, n, false};
    if (n >= 2)
        f.ok = judge_fit(xs, ys, n, &f.a, &f.b);
    else if (n == 1) { /* one point: a line through the origin */
        f.a = 0;
        f.b = ys[0] / xs[0];
        f.ok = f.b > 0;
    }
    return f;
}
