/* cusrc_xcall: following sizes across the translation units of a project.
 * A unit's scan notes its calls to host functions it declares and does
 * not define, with the constant arguments and the call path from the
 * function scanned as written (main.cpp's `main > run(1 << 20)`); the scan
 * of the unit that defines the callee follows it from each such call
 * instead of scanning it unbound, so its launches see main's sizes and
 * count main's loops. Functions match by USR, which is the same in every
 * unit for a function with external linkage (a static one never matches). */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"
#include "cusrc/cusrc_scan.h"

static bool external_host_fn(scan_state *s, CXCursor fn)
{
    /* A method defined in the other unit (`perlin.calculate(...)`) as a
     * function; a virtual one may be another class's. */
    enum CXCursorKind k = clang_getCursorKind(fn);
    if ((k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) ||
        (k == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(fn)) ||
        clang_getCursorLinkage(fn) != CXLinkage_External)
        return false;
    if (!clang_Cursor_isNull(clang_getCursorDefinition(fn)))
        return false; /* this unit defines it: followed here */
    if (cn_has_attr(fn, CXCursor_CUDAGlobalAttr) ||
        (cn_has_attr(fn, CXCursor_CUDADeviceAttr) && !cn_has_attr(fn, CXCursor_CUDAHostAttr)))
        return false;
    /* The project's own declarations, not a library's. */
    return cn_in_main(s->t, fn) || cn_in_user_header(s->t, fn);
}

static int64_t runs_of(const expr *e)
{
    return e && e->kind == EX_CONST ? e->value : -1;
}

/* Where a value the call passes comes from, in words the other unit's
 * report can print: "'m' in main's call at main.cpp:15, which comes from
 * the command line (...)". */
static char *arg_origin(scan_state *s, fn_ctx *f, cnode *call, int i, const char *origin)
{
    cnode *args[XCALL_MAX_ARGS];
    CXCursor fn = clang_getCursorReferenced(call->cur);
    int n = cn_call_args(call, fn, args, XCALL_MAX_ARGS);
    char *text = i < n && args[i] ? cn_text_trunc(s->t, args[i]->cur, 60) : NULL;
    src_loc at = {0};
    cn_loc(s->t, call->cur, &at);
    const char *base = at.file ? strrchr(at.file, '/') : NULL;
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "'%s' in %s's call at %s:%d%s%s", text ? text : "?", f->name ? f->name : "?",
              base      ? base + 1
              : at.file ? at.file
                        : "?",
              at.line, origin ? ", which " : "", origin ? origin : "");
    free(text);
    free(at.file);
    return sbuf_take(&b);
}

/* A loop around the call, in one of the functions along the path (level),
 * whose constant values an argument reads: the call is handed on once per
 * value, as sweep_launches splits a launch (a range-for over sizes in main
 * calling the kernels' file with each). */
#define XSWEEP_LOOPS 2
#define XSWEEP_MAX 64 /* calls handed on for one call site at most */
typedef struct xsweep {
    int level, loop, n;
    int64_t vals[XSWEEP_MAX];
    src_loc at;
} xsweep;

typedef struct xcall_site {
    scan_state *s;
    fn_ctx *f;
    cnode *call;
    const expr *reach;
    param_binding *pb;
    int n;
    host_loops *levels[SCAN_MAX_DEPTH + 1];
    xsweep sw[XSWEEP_LOOPS];
    int n_sw;
} xcall_site;

static bool arg_reads(const param_binding *pb, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (pb[i].value && expr_uses_name(pb[i].value, name))
            return true;
    return false;
}

static void find_sweeps(xcall_site *c)
{
    int total = 1;
    for (int i = 0; i <= c->s->depth && c->n_sw < XSWEEP_LOOPS; i++) {
        const host_loops *h = c->levels[i];
        for (int j = 0; j < h->n && c->n_sw < XSWEEP_LOOPS; j++) {
            const host_loop *lp = &h->v[j];
            if (!lp->walkable || !lp->var || !arg_reads(c->pb, c->n, lp->var))
                continue;
            xsweep *w = &c->sw[c->n_sw];
            w->n = host_loop_values(lp, w->vals, XSWEEP_MAX);
            if (w->n <= 0 || total * w->n > XSWEEP_MAX)
                continue;
            total *= w->n;
            w->level = i;
            w->loop = j;
            memset(&w->at, 0, sizeof w->at);
            cn_loc(c->s->t, lp->loop->cur, &w->at);
            c->n_sw++;
        }
    }
}

static bool swept(const xcall_site *c, int level, int loop)
{
    for (int k = 0; k < c->n_sw; k++)
        if (c->sw[k].level == level && c->sw[k].loop == loop)
            return true;
    return false;
}

/* The object a method is called on, as the caller knows it. */
static void call_self(xcall_site *c, cusrc_xcall *x)
{
    CXCursor fn = clang_getCursorReferenced(c->call->cur);
    obj_fields o;
    if (fn.kind != CXCursor_CXXMethod || clang_CXXMethod_isStatic(fn) ||
        !x_call_object(c->f, c->call, &o))
        return;
    x->has_self = true;
    x->self = xcalloc((size_t)o.n + 1, sizeof *x->self);
    for (int i = 0; i < o.n; i++)
        x->self[x->n_self++] = (struct cusrc_xfield){xstrdup(o.v[i].path), o.v[i].value};
    obj_free(&o);
}

static void emit_xcall(xcall_site *c, const expr_env *env)
{
    scan_state *s = c->s;
    cusrc_xcalls *out = s->t->collect_calls;
    expr *reach = NULL;
    if (c->reach) {
        expr *b = expr_bind(c->reach, env);
        reach = expr_simplify(b);
        expr_free(b);
        if (reach->kind == EX_CONST && reach->value == 0) {
            expr_free(reach);
            return; /* not with this value */
        }
    }
    CXCursor fn = clang_getCursorReferenced(c->call->cur);
    GROW(out->v, out->n, out->cap);
    cusrc_xcall *x = &out->v[out->n++];
    memset(x, 0, sizeof *x);
    x->usr = cx_str(clang_getCursorUSR(fn));
    x->callee = cn_spelling(fn);
    cn_loc(s->t, c->call->cur, &x->loc);
    x->n_args = c->n;
    x->args = xcalloc((size_t)c->n + 1, sizeof *x->args);
    folded_list folded = {0};
    for (int k = 0; k < c->n_sw; k++) {
        const host_loop *lp = &c->levels[c->sw[k].level]->v[c->sw[k].loop];
        cusrc_size_from from = {lp->var, env->values[expr_env_find(env, lp->var)],
                                (char *)s->names[c->sw[k].level], c->sw[k].at, true};
        folded_add(&folded, &from);
    }
    param_binding *pb = c->pb;
    for (int i = 0; i < c->n; i++) {
        expr *b = expr_bind(pb[i].value, env), *v = expr_simplify(b);
        expr_free(b);
        if (v->kind == EX_CONST) {
            x->args[i].known = true;
            x->args[i].value = v->value;
            for (int k = 0; k < pb[i].folded.n; k++)
                folded_add(&folded, &pb[i].folded.v[k]);
        } else {
            x->args[i].why = arg_origin(s, c->f, c->call, i, pb[i].origin);
        }
        expr_free(v);
        if (pb[i].n_fields) {
            x->args[i].fields = xcalloc((size_t)pb[i].n_fields, sizeof *x->args[i].fields);
            for (int k = 0; k < pb[i].n_fields; k++)
                x->args[i].fields[k] =
                    (struct cusrc_xfield){xstrdup(pb[i].fields[k].name), pb[i].fields[k].value};
            x->args[i].n_fields = pb[i].n_fields;
            for (int k = 0; k < pb[i].folded.n; k++)
                folded_add(&folded, &pb[i].folded.v[k]);
        }
    }
    x->folded = folded.v;
    x->n_folded = folded.n;
    call_self(c, x);
    /* Followed from another unit's call: that unit's path first. */
    const cusrc_xcall *from = s->from;
    int pre = from ? from->n_path : 0;
    x->n_path = pre + s->depth + 1;
    x->fn = xcalloc((size_t)x->n_path, sizeof *x->fn);
    x->runs = xcalloc((size_t)x->n_path, sizeof *x->runs);
    x->why = xcalloc((size_t)x->n_path, sizeof *x->why);
    for (int i = 0; i < pre; i++) {
        x->fn[i] = xstrdup(from->fn[i]);
        x->runs[i] = from->runs[i];
        x->why[i] = xstrdup_null(from->why[i]);
    }
    for (int i = 0; i <= s->depth; i++) {
        x->fn[pre + i] = xstrdup(s->names[i] ? s->names[i] : "?");
        /* A swept loop's trips are the calls handed on, one per value. */
        host_loops rest = *c->levels[i];
        rest.n = 0;
        for (int j = 0; j < c->levels[i]->n; j++)
            if (!swept(c, i, j))
                rest.v[rest.n++] = c->levels[i]->v[j];
        expr *r = host_loops_runs(&rest, reach);
        x->runs[pre + i] = runs_of(r);
        if (x->runs[pre + i] < 0)
            x->why[pre + i] = xstrdup(rest.why ? rest.why : "a count gpulint cannot compute");
        expr_free(r);
    }
    expr_free(reach);
}

static void emit_values(xcall_site *c, int k, expr_env *env)
{
    if (k >= c->n_sw || k >= XSWEEP_LOOPS) {
        emit_xcall(c, env);
        return;
    }
    const char *var = c->levels[c->sw[k].level]->v[c->sw[k].loop].var;
    for (int i = 0; i < c->sw[k].n; i++) {
        expr_env_set(env, var, c->sw[k].vals[i]);
        emit_values(c, k + 1, env);
    }
    expr_env_unset(env, var);
}

void xcall_collect(scan_state *s, fn_ctx *f, cnode *call, const expr *reach)
{
    cusrc_xcalls *out = s->t->collect_calls;
    CXCursor fn = clang_getCursorReferenced(call->cur);
    if (!out || clang_Cursor_isNull(fn) || !external_host_fn(s, fn))
        return;
    if (reach && reach->kind == EX_CONST && reach->value == 0)
        return; /* never runs with these values */
    param_binding pb[XCALL_MAX_ARGS];
    int n = x_bind_args(f, call, fn, pb, XCALL_MAX_ARGS);
    if (n < 0)
        return;
    host_loops here;
    host_loops_of(f, call, &here);
    xcall_site c = {s, f, call, reach, pb, n, {0}, {{0}}, 0};
    for (int i = 0; i < s->depth; i++)
        c.levels[i] = &s->loops[i];
    c.levels[s->depth] = &here;
    find_sweeps(&c);
    expr_env env;
    expr_env_init(&env);
    emit_values(&c, 0, &env);
    for (int k = 0; k < c.n_sw; k++)
        free(c.sw[k].at.file);
    host_loops_free(&here);
    x_unbind(pb, n);
}

int xcall_bind(const cusrc_xcall *x, CXCursor def, param_binding *pb, int max)
{
    int np = clang_Cursor_getNumArguments(def);
    int n = 0;
    for (int i = 0; i < np && i < x->n_args && n < max; i++) {
        param_binding *b = &pb[n++];
        memset(b, 0, sizeof *b);
        b->parm = clang_Cursor_getArgument(def, (unsigned)i);
        char *pname = cn_spelling(b->parm);
        for (int k = 0; k < x->args[i].n_fields && k < BIND_MAX_FIELDS; k++) {
            b->fields[k].name = xstrdup(x->args[i].fields[k].name);
            b->fields[k].value = x->args[i].fields[k].value;
            b->n_fields = k + 1;
        }
        if (!x->args[i].known) {
            /* Still the parameter's name, now with the caller's reason. */
            b->value = expr_named(pname);
            sbuf o;
            sbuf_init(&o);
            sbuf_addf(&o, "depends on '%s', %s", pname, x->args[i].why ? x->args[i].why : "?");
            b->origin = sbuf_take(&o);
            free(pname);
            continue;
        }
        b->value = expr_const(x->args[i].value);
        for (int k = 0; k < x->n_folded; k++)
            folded_add(&b->folded, &x->folded[k]);
        /* The argument itself, where the call passes it (the size's place
         * in the other file), unless a variable of the caller with that
         * value is listed already. */
        cusrc_size_from at = {pname, x->args[i].value, x->fn[x->n_path - 1], x->loc, false};
        bool named = false;
        for (int k = 0; k < x->n_folded && !named; k++)
            named = x->folded[k].value == x->args[i].value;
        if (pname[0] && !named)
            folded_add(&b->folded, &at);
        free(pname);
    }
    return n;
}
