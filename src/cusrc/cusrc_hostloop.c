/* cusrc_hostloop: how many times host code makes a call, per call of the
 * function it is in: the loops around it, each a `for` whose counter starts
 * at a value, is compared with a bound and stepped by a constant; the trip
 * count is an expression in the function's values (its callers' arguments
 * bound), so `for (int l = 0; l < L; l++)` runs a launch L times. */
#include <stdio.h>
#include <stdlib.h>

#include "cusrc/cusrc_int.h"
#include "cusrc/cusrc_scan.h"

static bool refers_to(cnode *n, CXCursor var)
{
    n = cn_strip_casts(n);
    return n && n->kind == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(n->cur), var);
}

/* `int i = start` or `i = start`. */
static bool counter_of(cnode *init, CXCursor *var, cnode **start)
{
    if (init->kind == CXCursor_DeclStmt && init->n_kids == 1 &&
        init->kids[0]->kind == CXCursor_VarDecl) {
        *var = init->kids[0]->cur;
        *start = fn_var_init(init->kids[0]);
        return *start != NULL;
    }
    init = cn_strip(init);
    if (init && init->kind == CXCursor_BinaryOperator && init->n_kids == 2 &&
        clang_getCursorBinaryOperatorKind(init->cur) == CXBinaryOperator_Assign) {
        cnode *lhs = cn_strip_casts(init->kids[0]);
        if (!lhs || lhs->kind != CXCursor_DeclRefExpr)
            return false;
        *var = clang_getCursorReferenced(lhs->cur);
        *start = init->kids[1];
        return true;
    }
    return false;
}

/* `i++`, `--i`, `i += 2`, `i -= 4`: the constant step. */
static bool step_of(fn_ctx *f, cnode *inc, CXCursor var, int64_t *step)
{
    inc = cn_strip(inc);
    if (!inc)
        return false;
    if (inc->kind == CXCursor_UnaryOperator && inc->n_kids == 1 && refers_to(inc->kids[0], var)) {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(inc->cur);
        if (k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PreInc)
            *step = 1;
        else if (k == CXUnaryOperator_PostDec || k == CXUnaryOperator_PreDec)
            *step = -1;
        else
            return false;
        return true;
    }
    if (inc->kind == CXCursor_CompoundAssignOperator && inc->n_kids == 2 &&
        refers_to(inc->kids[0], var) && x_const(f, inc->kids[1], step) && *step != 0) {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(inc->cur);
        if (k == CXBinaryOperator_SubAssign)
            *step = -*step;
        else if (k != CXBinaryOperator_AddAssign)
            return false;
        return true;
    }
    return false;
}

static expr *unknown_loop(fn_ctx *f, cnode *s)
{
    src_loc l = {0};
    cn_loc(f->t, s->cur, &l);
    char why[96];
    snprintf(why, sizeof why, "the trip count of the loop at line %d", l.line);
    free(l.file);
    return expr_unknown(why);
}

static expr *for_trips(fn_ctx *f, cnode *s)
{
    /* init; cond; inc; body (a for with a part left out has fewer kids). */
    if (s->n_kids != 4)
        return unknown_loop(f, s);
    CXCursor var;
    cnode *start;
    int64_t step;
    cnode *cond = cn_strip(s->kids[1]);
    if (!counter_of(s->kids[0], &var, &start) || !step_of(f, s->kids[2], var, &step) || !cond ||
        cond->kind != CXCursor_BinaryOperator || cond->n_kids != 2)
        return unknown_loop(f, s);
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond->cur);
    cnode *bound = cond->kids[1];
    if (refers_to(cond->kids[1], var)) { /* B > i  ==  i < B */
        bound = cond->kids[0];
        op = op == CXBinaryOperator_LT   ? CXBinaryOperator_GT
             : op == CXBinaryOperator_GT ? CXBinaryOperator_LT
             : op == CXBinaryOperator_LE ? CXBinaryOperator_GE
             : op == CXBinaryOperator_GE ? CXBinaryOperator_LE
                                         : op;
    } else if (!refers_to(cond->kids[0], var)) {
        return unknown_loop(f, s);
    }
    /* The span the counter covers, in steps: up to a bound it stays
     * below (or reaches, for <=), or down to one it stays above. */
    expr *from = x_expr(f, start), *to = x_expr(f, bound), *span = NULL;
    if (step > 0 && (op == CXBinaryOperator_LT || (op == CXBinaryOperator_NE && step == 1)))
        span = expr_binary(OP_SUB, to, from);
    else if (step > 0 && op == CXBinaryOperator_LE)
        span = expr_binary(OP_ADD, expr_binary(OP_SUB, to, from), expr_const(1));
    else if (step < 0 && (op == CXBinaryOperator_GT || (op == CXBinaryOperator_NE && step == -1)))
        span = expr_binary(OP_SUB, from, to);
    else if (step < 0 && op == CXBinaryOperator_GE)
        span = expr_binary(OP_ADD, expr_binary(OP_SUB, from, to), expr_const(1));
    if (!span) {
        expr_free(from);
        expr_free(to);
        return unknown_loop(f, s);
    }
    int64_t by = step > 0 ? step : -step;
    expr *trips = by == 1 ? span
                          : expr_binary(OP_DIV, expr_binary(OP_ADD, span, expr_const(by - 1)),
                                        expr_const(by));
    expr *t = expr_binary(OP_MAX, expr_const(0), trips);
    expr *simple = expr_simplify(t);
    expr_free(t);
    return simple;
}

static bool is_loop(const cnode *n)
{
    return n->kind == CXCursor_ForStmt || n->kind == CXCursor_WhileStmt ||
           n->kind == CXCursor_DoStmt || n->kind == CXCursor_CXXForRangeStmt;
}

expr *host_runs_of(fn_ctx *f, cnode *call, char **why)
{
    expr *runs = NULL;
    sbuf saved = f->origin;
    sbuf_init(&f->origin);
    for (cnode *from = call, *p = call->parent; p && from != f->root; from = p, p = p->parent) {
        if (!is_loop(p))
            continue;
        /* The body runs each trip: the last kid of a for or while, the
         * first of a do. A call in a loop's condition is not followed. */
        cnode *body = p->kind == CXCursor_DoStmt ? p->kids[0] : p->kids[p->n_kids - 1];
        if (from != body)
            continue;
        expr *t = p->kind == CXCursor_ForStmt ? for_trips(f, p) : unknown_loop(f, p);
        runs = runs ? expr_binary(OP_MUL, t, runs) : t;
    }
    *why = f->origin.len ? sbuf_take(&f->origin) : NULL;
    sbuf_free(&f->origin);
    f->origin = saved;
    if (!runs)
        return expr_const(1);
    expr *s = expr_simplify(runs);
    expr_free(runs);
    if (s->kind == EX_CONST) {
        free(*why);
        *why = NULL;
    }
    return s;
}
