/* cusrc_xlaunch: launches that cross translation units. A project often
 * keeps its kernels in one file and launches them from main.cu, which
 * only declares them (`__global__ void k(float *, int);` in a header):
 * nvcc links the launch to the kernel's host stub. The launching unit's
 * scan notes each such launch with its values, as it notes its calls
 * (cusrc_xcall.c); the scan of the unit that defines the kernel adds them
 * to its own launches, with the launching unit's path. */
#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/cexpr.h"
#include "cusrc/cusrc_int.h"
#include "cusrc/cusrc_scan.h"

static bool is_foreign(const scan_state *s, const char *usr)
{
    for (size_t i = 0; usr && i < s->n_foreign; i++)
        if (!strcmp(s->foreign[i], usr))
            return true;
    return false;
}

/* An unknown value's expression, where it reads back as one: the other
 * unit binds it with --define as this one would. */
static char *portable_expr(const expr *e)
{
    if (!e)
        return NULL;
    char *text = expr_to_string(e);
    cexpr_error err;
    expr *back = cexpr_parse(text, true, &err);
    if (!back) {
        free(text);
        return NULL;
    }
    expr_free(back);
    return text;
}

static void arg_of_value(cusrc_xarg *a, const cusrc_value *v)
{
    memset(a, 0, sizeof *a);
    a->known = v->known;
    a->value = v->value;
    a->text = xstrdup_null(v->text);
    if (!v->known) {
        a->why = xstrdup(v->why ? v->why : "not known in the launching unit");
        a->expr = portable_expr(v->e);
    }
}

static void value_of_arg(cusrc_value *v, const cusrc_xarg *a)
{
    memset(v, 0, sizeof *v);
    v->present = true;
    v->known = a->known;
    v->value = a->value;
    v->text = xstrdup_null(a->text);
    if (a->known) {
        v->e = expr_const(a->value);
        return;
    }
    v->why = xstrdup(a->why ? a->why : "not known in the launching unit");
    cexpr_error err;
    v->e = a->expr ? cexpr_parse(a->expr, true, &err) : NULL;
    if (!v->e)
        v->e = expr_unknown(v->why);
}

/* One launch, one call path: the other unit rebuilds a launch per path
 * and merges those that agree, as this unit did. */
static void emit(scan_state *s, const cusrc_launch *l, const char *usr, const cusrc_path *p)
{
    cusrc_xcalls *out = s->t->collect_calls;
    GROW(out->v, out->n, out->cap);
    cusrc_xcall *x = &out->v[out->n++];
    memset(x, 0, sizeof *x);
    x->launch = true;
    x->kind = (int)l->kind;
    x->usr = xstrdup(usr);
    x->callee = xstrdup(l->kernel_name ? l->kernel_name : "?");
    x->text = xstrdup_null(l->text);
    x->loc = l->loc;
    x->loc.file = xstrdup_null(l->loc.file);
    const cusrc_value *config[XLAUNCH_CONFIG] = {&l->grid.x,  &l->grid.y,  &l->grid.z, &l->block.x,
                                                 &l->block.y, &l->block.z, &l->smem};
    x->n_args = XLAUNCH_CONFIG + l->n_args;
    x->args = xcalloc((size_t)x->n_args, sizeof *x->args);
    for (int i = 0; i < XLAUNCH_CONFIG; i++)
        arg_of_value(&x->args[i], config[i]);
    for (int i = 0; i < l->n_args; i++)
        arg_of_value(&x->args[XLAUNCH_CONFIG + i], &l->args[i]);
    /* Struct arguments' fields ("p.n", by the declaration's parameter
     * names), all held by the first kernel argument. */
    for (int i = 0; i < l->n_arg_fields && l->n_args; i++) {
        cusrc_xarg *a = &x->args[XLAUNCH_CONFIG];
        a->fields = xrealloc(a->fields, (size_t)(a->n_fields + 1) * sizeof *a->fields);
        a->fields[a->n_fields++] =
            (struct cusrc_xfield){xstrdup(l->arg_fields[i].name), l->arg_fields[i].value};
    }
    x->n_folded = l->n_sizes_from;
    x->folded = xcalloc((size_t)x->n_folded + 1, sizeof *x->folded);
    for (int i = 0; i < x->n_folded; i++) {
        const cusrc_size_from *f = &l->sizes_from[i];
        x->folded[i] =
            (cusrc_size_from){xstrdup(f->name), f->value, xstrdup(f->function), f->loc, f->stepped};
        x->folded[i].loc.file = xstrdup_null(f->loc.file);
    }
    x->n_path = p->n;
    x->fn = xcalloc((size_t)p->n + 1, sizeof *x->fn);
    x->runs = xcalloc((size_t)p->n + 1, sizeof *x->runs);
    x->why = xcalloc((size_t)p->n + 1, sizeof *x->why);
    for (int i = 0; i < p->n; i++) {
        x->fn[i] = xstrdup(p->fn[i]);
        x->runs[i] = p->runs[i] && p->runs[i]->kind == EX_CONST ? p->runs[i]->value : -1;
        if (x->runs[i] < 0)
            x->why[i] = xstrdup(p->why[i] ? p->why[i] : "a count gpulint cannot compute");
    }
}

void xlaunch_collect(scan_state *s)
{
    cusrc_tu *t = s->t;
    if (!t->collect_calls)
        return;
    for (size_t i = 0; i < t->u->n_launches; i++) {
        const cusrc_launch *l = &t->u->launches[i];
        if (l->kernel >= 0 || l->pointer || !is_foreign(s, t->launch_usr[i]))
            continue;
        /* A launch these values show never runs is not handed on. */
        if (l->reach && l->reach->kind == EX_CONST && l->reach->value == 0)
            continue;
        for (int p = 0; p < l->call_paths; p++)
            emit(s, l, t->launch_usr[i], &l->paths[p]);
    }
}

static void path_of_call(cusrc_launch *l, const cusrc_xcall *x)
{
    l->call_paths = 1;
    l->paths = xcalloc(1, sizeof *l->paths);
    cusrc_path *p = &l->paths[0];
    p->n = x->n_path;
    p->fn = xcalloc((size_t)p->n + 1, sizeof *p->fn);
    p->runs = xcalloc((size_t)p->n + 1, sizeof *p->runs);
    p->why = xcalloc((size_t)p->n + 1, sizeof *p->why);
    sbuf via;
    sbuf_init(&via);
    for (int i = 0; i < p->n; i++) {
        sbuf_addf(&via, "%s%s", i ? " > " : "", x->fn[i]);
        p->fn[i] = xstrdup(x->fn[i]);
        p->runs[i] = x->runs[i] >= 0 ? expr_const(x->runs[i]) : expr_unknown(x->why[i]);
        p->why[i] = xstrdup_null(x->why[i]);
    }
    l->via = sbuf_take(&via);
    l->function = xstrdup(p->n ? p->fn[p->n - 1] : "?");
}

/* Struct fields by the parameter names of the launching unit's
 * declaration, which are the definition's where a header holds both. */
static void fields_of_call(cusrc_launch *l, const cusrc_xcall *x)
{
    const cusrc_xarg *a = x->n_args > XLAUNCH_CONFIG ? &x->args[XLAUNCH_CONFIG] : NULL;
    for (int i = 0; a && i < a->n_fields; i++) {
        l->arg_fields =
            xrealloc(l->arg_fields, (size_t)(l->n_arg_fields + 1) * sizeof *l->arg_fields);
        l->arg_fields[l->n_arg_fields++] =
            (struct cusrc_arg_field){xstrdup(a->fields[i].name), a->fields[i].value};
    }
}

static void add_one(scan_state *s, const cusrc_xcall *x, long k)
{
    cusrc_tu *t = s->t;
    cusrc_unit *u = t->u;
    GROW(u->launches, u->n_launches, t->cap_launches);
    t->launch_usr = xrealloc(t->launch_usr, t->cap_launches * sizeof *t->launch_usr);
    t->launch_usr[u->n_launches] = xstrdup(x->usr);
    cusrc_launch *l = &u->launches[u->n_launches++];
    memset(l, 0, sizeof *l);
    l->kind = x->kind > 0 && x->kind <= CUSRC_LAUNCH_COOPERATIVE ? (cusrc_launch_kind)x->kind
                                                                 : CUSRC_LAUNCH_CHEVRON;
    l->kernel = k;
    l->variant = -1;
    l->kernel_name = xstrdup(u->kernels[k].name);
    char *m = kern_mangling(t->kernel_cur[k]);
    l->mangled = m[0] ? m : (free(m), NULL);
    l->text = xstrdup_null(x->text);
    l->loc = x->loc;
    l->loc.file = xstrdup_null(x->loc.file);
    cusrc_value *config[XLAUNCH_CONFIG] = {&l->grid.x,  &l->grid.y,  &l->grid.z, &l->block.x,
                                           &l->block.y, &l->block.z, &l->smem};
    for (int i = 0; i < XLAUNCH_CONFIG && i < x->n_args; i++)
        value_of_arg(config[i], &x->args[i]);
    l->grid.present = l->block.present = true;
    l->n_args = x->n_args > XLAUNCH_CONFIG ? x->n_args - XLAUNCH_CONFIG : 0;
    l->args = xcalloc((size_t)l->n_args + 1, sizeof *l->args);
    for (int i = 0; i < l->n_args; i++)
        value_of_arg(&l->args[i], &x->args[XLAUNCH_CONFIG + i]);
    fields_of_call(l, x);
    l->n_sizes_from = x->n_folded;
    l->sizes_from = xcalloc((size_t)x->n_folded + 1, sizeof *l->sizes_from);
    for (int i = 0; i < x->n_folded; i++) {
        const cusrc_size_from *f = &x->folded[i];
        l->sizes_from[i] =
            (cusrc_size_from){xstrdup(f->name), f->value, xstrdup(f->function), f->loc, f->stepped};
        l->sizes_from[i].loc.file = xstrdup_null(f->loc.file);
    }
    path_of_call(l, x);
}

void xlaunch_add(scan_state *s)
{
    const cusrc_xcalls *calls = s->t->calls;
    for (size_t c = 0; calls && c < calls->n; c++) {
        const cusrc_xcall *x = &calls->v[c];
        long k = x->launch ? kern_by_usr(s->t, x->usr) : -1;
        /* A template's launch names an instantiation the other unit made. */
        if (k >= 0 && !s->t->u->kernels[k].templated)
            add_one(s, x, k);
    }
}
