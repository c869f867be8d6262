/* cusrc_helper: the value a host helper of several statements returns for
 * a call's arguments. `int PowTwoDivider(int n) { if (n == 0) return 0;
 * int d = 1; while ((n & d) == 0) d <<= 1; return d; }` sizes a block;
 * its body is evaluated in a context of its own, its parameters bound to
 * the call's arguments, each early `if (c) return x;` a choice before
 * the last statement, a return or an if/else whose arms both return
 * (`if (pow2) { return 1; } else { return 0; }`), whose locals take the
 * definitions that reach it (a loop run as the program runs it). The evaluator's entry points come
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

/* A statement that always returns, in the shapes read here: a return of
 * a value, an if whose two arms do (`if (c) { return 1; } else { return
 * 0; }`), or a block of statements ending in one (block_ok). */
static bool block_ok(cnode **st, int n);

static bool tail_ok(cnode *s)
{
    if (s->kind == CXCursor_ReturnStmt)
        return s->n_kids == 1;
    if (s->kind == CXCursor_IfStmt)
        return s->n_kids == 3 && !holds_return(s->kids[0]) && tail_ok(s->kids[1]) &&
               tail_ok(s->kids[2]);
    if (s->kind == CXCursor_CompoundStmt)
        return block_ok(s->kids, s->n_kids);
    return false;
}

/* Statements before the last may not return but by an early `if (c)
 * return x;`; the last always returns. */
static bool block_ok(cnode **st, int n)
{
    if (n < 1 || !tail_ok(st[n - 1]))
        return false;
    int exits = 0;
    for (int i = 0; i + 1 < n; i++) {
        cnode *c;
        if (early_return(st[i], &c))
            exits++;
        else if (holds_return(st[i]))
            return false;
    }
    return exits <= HELPER_MAX_EXITS;
}

typedef expr *(*value_fn)(fn_ctx *f, cnode *n);

static expr *block_value(fn_ctx *cf, cnode **st, int n, value_fn value);

static expr *tail_value(fn_ctx *cf, cnode *s, value_fn value)
{
    if (s->kind == CXCursor_ReturnStmt)
        return value(cf, s->kids[0]);
    if (s->kind == CXCursor_IfStmt)
        return expr_cond(value(cf, s->kids[0]), tail_value(cf, s->kids[1], value),
                         tail_value(cf, s->kids[2], value));
    return block_value(cf, s->kids, s->n_kids, value);
}

/* The last statement's value, each early return a choice before it. */
static expr *block_value(fn_ctx *cf, cnode **st, int n, value_fn value)
{
    expr *result = tail_value(cf, st[n - 1], value);
    for (int i = n - 2; i >= 0; i--) {
        cnode *c, *x = early_return(st[i], &c);
        if (x)
            result = expr_cond(value(cf, c), value(cf, x), result);
    }
    return result;
}

/* Nothing but ifs and returns, down to the leaves: no local to follow. */
static bool only_choices(const cnode *s)
{
    if (s->kind == CXCursor_ReturnStmt)
        return true;
    if (s->kind == CXCursor_IfStmt) {
        for (int i = 1; i < s->n_kids; i++)
            if (!only_choices(s->kids[i]))
                return false;
        return true;
    }
    if (s->kind != CXCursor_CompoundStmt)
        return false;
    for (int i = 0; i < s->n_kids; i++)
        if (!only_choices(s->kids[i]))
            return false;
    return true;
}

expr *x_choice_value(fn_ctx *f, cnode *body, expr *(*value)(fn_ctx *f, cnode *n))
{
    if (!body || !only_choices(body) || !block_ok(body->kids, body->n_kids))
        return NULL;
    return block_value(f, body->kids, body->n_kids, value);
}

#define CALLEE_MAX_PARAMS 16

expr *x_callee_value(fn_ctx *f, cnode *call, CXCursor def, cnode *tree, cnode *n, bool block)
{
    const x_obj_eval *ev = f->t->obj_eval;
    int np = clang_Cursor_getNumArguments(def);
    if (np < 0 || np > CALLEE_MAX_PARAMS || np != cn_n_expr_kids(call) - 1)
        return NULL;
    cnode *args[CALLEE_MAX_PARAMS];
    for (int i = 0; i < np; i++)
        args[i] = cn_expr_kid(call, i + 1);
    param_binding pb[CALLEE_MAX_PARAMS];
    int nb = ev->bind(f, call, def, args, np, pb);
    if (nb < 0)
        return NULL;
    fn_ctx cf;
    fn_init(&cf, f->t, tree, false);
    bind_frame fr = {pb, nb, NULL, false, NULL};
    cf.bindings = &fr;
    cf.depth = f->depth + 1;
    cf.budget = f->budget; /* the caller's expression, translated further */
    expr *result =
        block ? block_value(&cf, n->kids, n->n_kids, ev->value_of) : ev->value_of(&cf, n);
    expr *s = expr_simplify(result);
    expr_free(result);
    f->budget = cf.budget;
    ev->unbind(pb, nb);
    fn_free(&cf);
    if (expr_first_unknown(s)) {
        expr_free(s);
        return NULL;
    }
    return s;
}

expr *x_helper_value(fn_ctx *f, cnode *call, CXCursor def, cnode *tree, cnode *body)
{
    int np = clang_Cursor_getNumArguments(def);
    if (f->device || f->depth >= X_MAX_DEPTH || !body || np < 0 || np > HELPER_MAX_PARAMS ||
        !block_ok(body->kids, body->n_kids))
        return NULL;
    return x_callee_value(f, call, def, tree, body, true);
}
