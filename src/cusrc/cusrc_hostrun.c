/* cusrc_hostrun: the value a host local has after a small loop that
 * computes it (`while (n % block != 0) n++;`, `while (p < n) p *= 2;`),
 * found by running the loop the way the program does, where every local
 * the loop assigns has a known value before it and the loop does nothing
 * but assign them. */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

/* A size loop ends in a few dozen trips (a round-up to a multiple, a
 * doubling); one that runs longer is not a size computation, and is not
 * worth running. */
#define HOSTRUN_MAX_TRIPS 100000
#define HOSTRUN_MAX_STEPS 16

typedef struct loop_run {
    fn_ctx *f;
    cnode *nodes[HOSTRUN_MAX_STEPS]; /* the for's init, then the body, then its increment */
    var_info *targets[HOSTRUN_MAX_STEPS];
    expr *values[HOSTRUN_MAX_STEPS]; /* each assignment's value, locals by name */
    int n, n_init;
    var_info *vars[HOSTRUN_MAX_STEPS]; /* each local assigned, once */
    int n_vars;
    bool ok;
} loop_run;

static void add_var(loop_run *r, var_info *v)
{
    for (int i = 0; i < r->n_vars; i++) {
        if (r->vars[i] == v)
            return;
        if (!strcmp(r->vars[i]->name, v->name))
            r->ok = false; /* two locals of one name would share a binding */
    }
    r->vars[r->n_vars++] = v;
}

static bool is_assignment(const cnode *n)
{
    if (n->kind == CXCursor_UnaryOperator && n->n_kids == 1) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(n->cur);
        return op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ||
               op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreDec;
    }
    if ((n->kind == CXCursor_BinaryOperator || n->kind == CXCursor_CompoundAssignOperator) &&
        n->n_kids == 2) {
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(n->cur);
        return op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign;
    }
    return false;
}

static bool is_comma(const cnode *n)
{
    return n->kind == CXCursor_BinaryOperator && n->n_kids == 2 &&
           clang_getCursorBinaryOperatorKind(n->cur) == CXBinaryOperator_Comma;
}

/* The statements of n, each an assignment to an integer local (or a
 * kernel launch, whose arguments go to the device by value: it assigns
 * none); anything else (a host call, a
 * branch, a store through a pointer) and n is not a loop that only
 * computes sizes. */
static void collect(loop_run *r, cnode *n)
{
    n = cn_strip(n);
    if (!n || !r->ok || n->kind == CXCursor_NullStmt || cn_chevron_config(n))
        return;
    if (n->kind == CXCursor_CompoundStmt || is_comma(n)) {
        /* `log2N -= 2, N >>= 2, M <<= 2`: each in turn. */
        for (int i = 0; i < n->n_kids; i++)
            collect(r, n->kids[i]);
        return;
    }
    cnode *lhs = is_assignment(n) ? cn_strip_casts(n->kids[0]) : NULL;
    var_info *v = lhs && lhs->kind == CXCursor_DeclRefExpr
                      ? fn_var(r->f, clang_getCursorReferenced(lhs->cur))
                      : NULL;
    if (!v || v->addr_taken || v->is_shared || r->n == HOSTRUN_MAX_STEPS ||
        !cn_type_is_integral(clang_getCursorType(v->decl))) {
        r->ok = false;
        return;
    }
    add_var(r, v);
    r->nodes[r->n] = n;
    r->targets[r->n++] = v;
}

/* The for's init: `int i = 0` declares a local with its first value. */
static void collect_init(loop_run *r, cnode *init, expr **firsts, const x_loop_eval *ev)
{
    init = cn_strip(init);
    if (!init || init->kind != CXCursor_DeclStmt) {
        collect(r, init);
        r->n_init = r->n;
        return;
    }
    for (int i = 0; r->ok && i < init->n_kids; i++) {
        cnode *d = init->kids[i];
        var_info *v = d->kind == CXCursor_VarDecl ? fn_var(r->f, d->cur) : NULL;
        if (!v || !v->init || r->n_vars == HOSTRUN_MAX_STEPS) {
            r->ok = false;
            return;
        }
        add_var(r, v);
        firsts[r->n_vars - 1] = ev->value_of(r->f, v->init);
    }
}

static bool run_steps(const loop_run *r, int from, int to, expr_env *env)
{
    for (int i = from; i < to; i++) {
        int64_t v;
        if (expr_eval(r->values[i], env, &v, NULL) != EXPR_OK ||
            !expr_env_set(env, r->targets[i]->name, v))
            return false;
    }
    return true;
}

static bool run(const loop_run *r, const expr *cond, bool test_first, expr_env *env)
{
    if (!run_steps(r, 0, r->n_init, env))
        return false;
    if (!test_first && !run_steps(r, r->n_init, r->n, env))
        return false;
    for (int trip = 0; trip < HOSTRUN_MAX_TRIPS; trip++) {
        int64_t c;
        if (expr_eval(cond, env, &c, NULL) != EXPR_OK)
            return false;
        if (!c)
            return true;
        if (!run_steps(r, r->n_init, r->n, env))
            return false;
    }
    return false;
}

/* Does the for's init give v its first value with a plain `=` (`for (i =
 * 0; ...)` over a local declared before): its value before the loop is
 * never read. */
static bool set_by_init(const loop_run *r, const var_info *v)
{
    for (int i = 0; i < r->n_init; i++)
        if (r->targets[i] == v && r->nodes[i]->kind == CXCursor_BinaryOperator &&
            clang_getCursorBinaryOperatorKind(r->nodes[i]->cur) == CXBinaryOperator_Assign)
            return true;
    return false;
}

/* Does a do-while's body give v its value with a plain `=` before
 * anything else assigns it (`do { waves++; m = ceildiv(n, waves * sms); }
 * while (m > 16);`): every pass sets it, the first included, so its value
 * before the loop is never what the loop leaves. A read before the
 * assignment finds it unbound, and the run stops there. */
static bool set_first_in_do(const loop_run *r, const cnode *loop, const var_info *v)
{
    if (loop->kind != CXCursor_DoStmt)
        return false;
    for (int i = r->n_init; i < r->n; i++)
        if (r->targets[i] == v)
            return r->nodes[i]->kind == CXCursor_BinaryOperator &&
                   clang_getCursorBinaryOperatorKind(r->nodes[i]->cur) == CXBinaryOperator_Assign;
    return false;
}

/* Each local's value before the loop (the init's own where it declares
 * them), which must be a number. */
static bool first_values(loop_run *r, cnode *loop, expr **firsts, expr_env *env,
                         const x_loop_eval *ev)
{
    for (int i = 0; i < r->n_vars; i++) {
        if (!firsts[i] && (set_by_init(r, r->vars[i]) || set_first_in_do(r, loop, r->vars[i])))
            continue;
        expr *e = firsts[i] ? firsts[i] : ev->value_at(r->f, r->vars[i], loop);
        firsts[i] = NULL;
        expr *s = e ? expr_simplify(e) : NULL;
        bool known = s && s->kind == EX_CONST && expr_env_set(env, r->vars[i]->name, s->value);
        expr_free(e);
        expr_free(s);
        if (!known)
            return false;
    }
    return true;
}

/* A loop of one local whose condition reads a value not known here (a
 * parameter that a caller's loop sets: geglu's `while (for_loop > 0 &&
 * n * dim % (1280 * for_loop) != 0) for_loop /= 2;`): its result as a
 * loop sum, first + the sum over passes of (next - v), which the launch
 * evaluates where those values are bound (each value of the caller's
 * loop). NULL where the loop is not of that shape, or where nothing but
 * its length kept it from running. */
static expr *deferred_run(const loop_run *r, const expr *cond, int64_t first, const expr_env *env)
{
    const char *v = r->vars[0]->name;
    const expr *next = r->values[0];
    if (!next || !cond || expr_first_unknown(cond) || expr_first_unknown(next))
        return NULL;
    /* A name other than the local's own lacks a value. */
    expr_env inside = *env;
    if (!expr_env_set(&inside, v, first) ||
        (!expr_first_unbound(cond, &inside) && !expr_first_unbound(next, &inside)))
        return NULL;
    expr *moves = expr_binary(OP_SUB, expr_clone(next), expr_named(v));
    expr *sum = expr_loop_sum(v, expr_const(first), expr_clone(cond), expr_clone(next), moves);
    return expr_binary(OP_ADD, expr_const(first), sum);
}

expr *x_run_host_loop(fn_ctx *f, var_info *v, cnode *loop, const x_loop_eval *ev)
{
    cnode *init = NULL, *cond = NULL, *inc = NULL, *body = NULL;
    bool test_first = loop->kind != CXCursor_DoStmt;
    if (loop->kind == CXCursor_WhileStmt && loop->n_kids == 2) {
        cond = loop->kids[0];
        body = loop->kids[1];
    } else if (loop->kind == CXCursor_DoStmt && loop->n_kids == 2) {
        body = loop->kids[0];
        cond = loop->kids[1];
    } else if (loop->kind == CXCursor_ForStmt && loop->n_kids == 4) {
        init = loop->kids[0];
        cond = loop->kids[1];
        inc = loop->kids[2];
        body = loop->kids[3];
    } else if (loop->kind == CXCursor_ForStmt && loop->n_kids == 3 &&
               cn_is_comparison(cn_strip(loop->kids[0]))) {
        /* `for (; log2N > 4; log2N -= 2)`: an init that is a bare
         * comparison would do nothing, so the first kid is the condition. */
        cond = loop->kids[0];
        inc = loop->kids[1];
        body = loop->kids[2];
    } else {
        return NULL; /* a for with a part left out: its kids do not say which */
    }
    size_t mark = f->origin.len;
    loop_run r = {.f = f, .ok = true};
    expr *firsts[HOSTRUN_MAX_STEPS] = {NULL};
    expr_env env;
    expr_env_init(&env);
    if (init)
        collect_init(&r, init, firsts, ev);
    collect(&r, body);
    collect(&r, inc);
    expr *c = NULL, *deferred = NULL;
    bool done = false;
    if (r.ok && first_values(&r, loop, firsts, &env, ev)) {
        int at = r.n_vars == 1 ? expr_env_find(&env, r.vars[0]->name) : -1;
        int64_t first = at >= 0 ? env.values[at] : 0;
        /* Inside the loop its locals are names the run binds. */
        for (int i = 0; i < r.n_vars; i++)
            r.vars[i]->visiting++;
        c = ev->value_of(f, cond);
        for (int i = 0; i < r.n; i++)
            r.values[i] = ev->assigned(f, r.targets[i], r.nodes[i]);
        for (int i = 0; i < r.n_vars; i++)
            r.vars[i]->visiting--;
        done = run(&r, c, test_first, &env);
        if (!done && at >= 0 && r.vars[0] == v && !init && test_first && r.n == 1)
            deferred = deferred_run(&r, c, first, &env);
    }
    for (int i = 0; i < HOSTRUN_MAX_STEPS; i++) {
        expr_free(firsts[i]);
        expr_free(i < r.n ? r.values[i] : NULL);
    }
    expr_free(c);
    int slot = done ? expr_env_find(&env, v->name) : -1;
    if (slot >= 0)
        return expr_const(env.values[slot]);
    if (deferred) {
        sbuf_truncate(&f->origin, mark);
        return deferred;
    }
    /* What the attempt noted is about the loop's insides; the loop is the
     * reason the user needs. */
    sbuf_truncate(&f->origin, mark);
    if (!f->origin.len) {
        src_loc at = {0};
        cn_loc(f->t, loop->cur, &at);
        sbuf_addf(&f->origin,
                  "depends on '%s', set by the loop at line %d, which gpulint runs only where it "
                  "does nothing but assign integer locals known before it, and ends within %d "
                  "trips",
                  v->name, at.line, HOSTRUN_MAX_TRIPS);
        free(at.file);
    }
    return NULL;
}
