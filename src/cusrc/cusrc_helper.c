/* cusrc_helper: the value a host helper of several statements returns for
 * a call's arguments. `int PowTwoDivider(int n) { if (n == 0) return 0;
 * int d = 1; while ((n & d) == 0) d <<= 1; return d; }` sizes a block;
 * its body is evaluated in a context of its own, its parameters bound to
 * the call's arguments, each early `if (c) return x;` a choice before
 * the last return, whose locals take the definitions that reach it (a
 * loop run as the program runs it). The evaluator's entry points come
 * through t->obj_eval (cusrc_eval.c calls this file). */
#include "cusrc/cusrc_int.h"

#define HELPER_MAX_PARAMS 8
#define HELPER_MAX_EXITS 8

static bool holds_return(const cnode *n)
{
    if (n->kind == CXCursor_ReturnStmt)
        return true;
    if (n->kind == CXCursor_LambdaExpr)
        return false;
    for (int i = 0; i < n->n_kids; i++)
        if (holds_return(n->kids[i]))
            return true;
    return false;
}

/* `if (c) return x;` or `if (c) { return x; }`, no else: x's node. */
static cnode *early_return(cnode *s, cnode **cond)
{
    if (s->kind != CXCursor_IfStmt || s->n_kids != 2)
        return NULL;
    cnode *then = s->kids[1];
    if (then->kind == CXCursor_CompoundStmt && then->n_kids == 1)
        then = then->kids[0];
    if (then->kind != CXCursor_ReturnStmt || then->n_kids != 1 || holds_return(s->kids[0]))
        return NULL;
    *cond = s->kids[0];
    return then->kids[0];
}

expr *x_helper_value(fn_ctx *f, cnode *call, CXCursor def, cnode *tree, cnode *body)
{
    const x_obj_eval *ev = f->t->obj_eval;
    int np = clang_Cursor_getNumArguments(def);
    if (f->device || f->depth >= X_MAX_DEPTH || !body || body->n_kids < 2 || np < 0 ||
        np > HELPER_MAX_PARAMS || np != cn_n_expr_kids(call) - 1)
        return NULL;
    /* Statements before the last return may not return but by an early
     * `if (c) return x;`; the last is the return. */
    cnode *last = body->kids[body->n_kids - 1];
    if (last->kind != CXCursor_ReturnStmt || last->n_kids != 1)
        return NULL;
    cnode *conds[HELPER_MAX_EXITS], *values[HELPER_MAX_EXITS];
    int n_exits = 0;
    for (int i = 0; i + 1 < body->n_kids; i++) {
        cnode *c = NULL, *x = early_return(body->kids[i], &c);
        if (x && n_exits < HELPER_MAX_EXITS) {
            conds[n_exits] = c;
            values[n_exits++] = x;
        } else if (holds_return(body->kids[i])) {
            return NULL;
        }
    }
    cnode *args[HELPER_MAX_PARAMS];
    for (int i = 0; i < np; i++)
        args[i] = cn_expr_kid(call, i + 1);
    param_binding pb[HELPER_MAX_PARAMS];
    int n = ev->bind(f, call, def, args, np, pb);
    if (n < 0)
        return NULL;
    fn_ctx cf;
    fn_init(&cf, f->t, tree, false);
    bind_frame fr = {pb, n, NULL, false, NULL};
    cf.bindings = &fr;
    cf.depth = f->depth + 1;
    cf.budget = f->budget; /* the caller's expression, translated further */
    expr *result = ev->value_of(&cf, last->kids[0]);
    for (int i = n_exits - 1; i >= 0; i--)
        result = expr_cond(ev->value_of(&cf, conds[i]), ev->value_of(&cf, values[i]), result);
    expr *s = expr_simplify(result);
    expr_free(result);
    f->budget = cf.budget;
    ev->unbind(pb, n);
    fn_free(&cf);
    if (expr_first_unknown(s)) {
        expr_free(s);
        return NULL;
    }
    return s;
}
