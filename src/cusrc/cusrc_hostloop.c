/* cusrc_hostloop: how many times host code makes a call, per call of the
 * function it is in: the loops around it, each a `for` whose counter starts
 * at a value, is compared with a bound and stepped by a constant; the trip
 * count is an expression in the function's values (its callers' arguments
 * bound), so `for (int l = 0; l < L; l++)` runs a launch L times. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A step or factor: a constant, or a value the function's locals fix
 * (`ngrid += nrows / 4` with nrows from the program's arguments). */
static bool step_const(fn_ctx *f, cnode *n, int64_t *out)
{
    if (x_const(f, n, out))
        return true;
    expr *e = n ? x_expr(f, n) : NULL;
    expr *s = e ? expr_simplify(e) : NULL;
    bool known = s && s->kind == EX_CONST;
    if (known)
        *out = s->value;
    expr_free(e);
    expr_free(s);
    return known;
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
        refers_to(inc->kids[0], var) && step_const(f, inc->kids[1], step) && *step != 0) {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(inc->cur);
        if (k == CXBinaryOperator_SubAssign)
            *step = -*step;
        else if (k != CXBinaryOperator_AddAssign)
            return false;
        return true;
    }
    /* `i = i + 2`, `i = 2 + i`, `i = i - 4`. */
    cnode *rhs = inc->kind == CXCursor_BinaryOperator && inc->n_kids == 2 &&
                         clang_getCursorBinaryOperatorKind(inc->cur) == CXBinaryOperator_Assign &&
                         refers_to(inc->kids[0], var)
                     ? cn_strip(inc->kids[1])
                     : NULL;
    if (!rhs || rhs->kind != CXCursor_BinaryOperator || rhs->n_kids != 2)
        return false;
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(rhs->cur);
    if (op == CXBinaryOperator_Add && refers_to(rhs->kids[1], var))
        return step_const(f, rhs->kids[0], step) && *step != 0;
    if ((op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub) ||
        !refers_to(rhs->kids[0], var) || !step_const(f, rhs->kids[1], step) || *step == 0)
        return false;
    if (op == CXBinaryOperator_Sub)
        *step = -*step;
    return true;
}

/* Does p write the counter (`i++`, `i -= 2`, `i = ...`)? */
static bool writes_counter(cnode *p, CXCursor var)
{
    p = cn_strip(p);
    if (!p || p->n_kids < 1 || !refers_to(p->kids[0], var))
        return false;
    if (p->kind == CXCursor_UnaryOperator || p->kind == CXCursor_CompoundAssignOperator)
        return true;
    return p->kind == CXCursor_BinaryOperator &&
           clang_getCursorBinaryOperatorKind(p->cur) == CXBinaryOperator_Assign;
}

static bool is_comma(const cnode *n)
{
    return n && n->kind == CXCursor_BinaryOperator && n->n_kids == 2 &&
           clang_getCursorBinaryOperatorKind(n->cur) == CXBinaryOperator_Comma;
}

/* The part of a for's increment that steps the counter: the increment
 * itself, or the one operand of a comma list that writes it (`log2N -= 2,
 * N >>= 2, M <<= 2`: the other counters move with it, the trips are the
 * tested one's); NULL where two operands write it. */
static bool mentions(cnode *n, CXCursor var)
{
    if (!n)
        return false;
    if (refers_to(n, var))
        return true;
    for (int i = 0; i < n->n_kids; i++)
        if (mentions(n->kids[i], var))
            return true;
    return false;
}

/* Does an operand of the comma list other than the counter's write a
 * local the condition reads (`i += 3, j--` under `i < j`)? Then the
 * bound moves too, and the trips are not the counter's alone. */
static bool moves_bound(cnode *p, cnode *cond)
{
    p = cn_strip(p);
    cnode *lhs = p && p->n_kids >= 1 ? cn_strip_casts(p->kids[0]) : NULL;
    if (!lhs || lhs->kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor target = clang_getCursorReferenced(lhs->cur);
    return writes_counter(p, target) && mentions(cond, target);
}

/* The operands of a comma list in order (inc itself when it is none);
 * -1 when there are more than max. */
#define COMMA_MAX 16
static int comma_operands(cnode *inc, cnode **out, int max)
{
    inc = cn_strip(inc);
    if (!inc)
        return 0;
    if (!is_comma(inc)) {
        out[0] = inc;
        return 1;
    }
    int a = comma_operands(inc->kids[0], out, max);
    int b = a < 0 ? -1 : comma_operands(inc->kids[1], out + a, max - a);
    return b < 0 || a + b > max ? -1 : a + b;
}

static cnode *counter_step(cnode *inc, cnode *cond, CXCursor var)
{
    cnode *ops[COMMA_MAX], *found = NULL;
    int n = comma_operands(inc, ops, COMMA_MAX);
    if (n == 1)
        return ops[0];
    for (int i = 0; i < n; i++) {
        if (writes_counter(ops[i], var)) {
            if (found)
                return NULL;
            found = ops[i];
        } else if (moves_bound(ops[i], cond)) {
            return NULL;
        }
    }
    return found;
}

/* A comparison a counted loop's condition makes: == is not one. */
static bool is_comparison(const cnode *n)
{
    return cn_is_comparison(n) && clang_getCursorBinaryOperatorKind(n->cur) != CXBinaryOperator_EQ;
}

/* A for's init (NULL when left out), condition and increment. libclang
 * gives only the parts written: `for (; log2N > 4; log2N -= 2)` has three
 * kids, the first the condition (an init that is a bare comparison does
 * nothing, so a first kid that is one is taken as the condition). */
static bool for_parts(cnode *s, cnode **init, cnode **cond, cnode **inc)
{
    if (s->n_kids == 4) {
        *init = s->kids[0];
        *cond = cn_strip(s->kids[1]);
        *inc = s->kids[2];
        return *cond != NULL;
    }
    if (s->n_kids == 3 && is_comparison(cn_strip(s->kids[0]))) {
        *init = NULL;
        *cond = cn_strip(s->kids[0]);
        *inc = s->kids[1];
        return true;
    }
    return false;
}

/* `int i = 0, j = 10`: of several locals declared, the one the condition
 * tests and the increment steps. */
static bool counter_of_many(cnode *init, cnode *cond, cnode *inc, CXCursor *var, cnode **start)
{
    if (init->kind != CXCursor_DeclStmt || init->n_kids < 2)
        return false;
    for (int i = 0; i < init->n_kids; i++) {
        cnode *d = init->kids[i];
        if (d->kind != CXCursor_VarDecl || !fn_var_init(d) || !counter_step(inc, cond, d->cur) ||
            !(refers_to(cond->kids[0], d->cur) || refers_to(cond->kids[1], d->cur)))
            continue;
        *var = d->cur;
        *start = fn_var_init(d);
        return true;
    }
    return false;
}

/* The counter of a for without an init: the local its condition tests,
 * started at the value it has where the loop begins. */
static bool counter_before(fn_ctx *f, cnode *s, cnode *cond, cnode *inc, CXCursor *var, expr **from)
{
    for (int side = 0; side < 2; side++) {
        cnode *n = cn_strip_casts(cond->kids[side]);
        if (!n || n->kind != CXCursor_DeclRefExpr)
            continue;
        var_info *v = fn_var(f, clang_getCursorReferenced(n->cur));
        if (!v || !counter_step(inc, cond, v->decl))
            continue;
        *var = v->decl;
        *from = x_value_at(f, v, s);
        return *from != NULL;
    }
    return false;
}

static enum CXBinaryOperatorKind flipped(enum CXBinaryOperatorKind op)
{
    return op == CXBinaryOperator_LT   ? CXBinaryOperator_GT
           : op == CXBinaryOperator_GT ? CXBinaryOperator_LT
           : op == CXBinaryOperator_LE ? CXBinaryOperator_GE
           : op == CXBinaryOperator_GE ? CXBinaryOperator_LE
                                       : op;
}

/* `i *= 2`, `i = i * 4`, `i <<= 1`, `i /= 2`, `i >>= 1`: a counter that
 * grows or shrinks by a constant factor (size sweeps: N = 1, 4, 16, 64).
 * *factor > 1; *shrinks for / and >>. */
static bool factor_of(fn_ctx *f, cnode *inc, CXCursor var, int64_t *factor, bool *shrinks)
{
    inc = cn_strip(inc);
    if (!inc || inc->n_kids != 2 || !refers_to(inc->kids[0], var))
        return false;
    enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(inc->cur);
    cnode *by = inc->kids[1];
    if (inc->kind == CXCursor_BinaryOperator && k == CXBinaryOperator_Assign) {
        cnode *rhs = cn_strip(inc->kids[1]);
        if (!rhs || rhs->kind != CXCursor_BinaryOperator || rhs->n_kids != 2)
            return false;
        k = clang_getCursorBinaryOperatorKind(rhs->cur);
        if (refers_to(rhs->kids[0], var))
            by = rhs->kids[1];
        else if (refers_to(rhs->kids[1], var) && k == CXBinaryOperator_Mul)
            by = rhs->kids[0];
        else
            return false;
        k = k == CXBinaryOperator_Mul   ? CXBinaryOperator_MulAssign
            : k == CXBinaryOperator_Div ? CXBinaryOperator_DivAssign
            : k == CXBinaryOperator_Shl ? CXBinaryOperator_ShlAssign
            : k == CXBinaryOperator_Shr ? CXBinaryOperator_ShrAssign
                                        : CXBinaryOperator_Assign;
    } else if (inc->kind != CXCursor_CompoundAssignOperator) {
        return false;
    }
    int64_t c;
    if (!step_const(f, by, &c))
        return false;
    if ((k == CXBinaryOperator_ShlAssign || k == CXBinaryOperator_ShrAssign) && c >= 1 && c < 31)
        c = (int64_t)1 << c;
    else if (k != CXBinaryOperator_MulAssign && k != CXBinaryOperator_DivAssign)
        return false;
    *factor = c;
    *shrinks = k == CXBinaryOperator_DivAssign || k == CXBinaryOperator_ShrAssign;
    return c > 1;
}

static bool in_range(const host_loop *l, int64_t v)
{
    bool up = l->factor ? !l->shrinks : l->step > 0;
    return up ? (l->inclusive ? v <= l->bound : v < l->bound)
              : (l->inclusive ? v >= l->bound : v > l->bound);
}

int host_loop_values(const host_loop *l, int64_t *out, int max)
{
    if (!l->walkable)
        return -1;
    if (l->n_values) {
        if (l->n_values > max)
            return -1;
        memcpy(out, l->values, (size_t)l->n_values * sizeof *out);
        return l->n_values;
    }
    int n = 0;
    for (int64_t v = l->start; in_range(l, v);) {
        if (n == max)
            return -1;
        out[n++] = v;
        if (l->factor && l->shrinks) {
            if (v == 0)
                break;
            v /= l->factor;
        } else if (l->factor) {
            if (v == 0 || v > INT64_MAX / l->factor || v < INT64_MIN / l->factor)
                break;
            v *= l->factor;
        } else {
            v += l->step;
        }
    }
    return n;
}

/* A loop stepped by a factor over a constant range: walked for its trips. */
static bool geometric_loop(fn_ctx *f, cnode *cond, cnode *inc, CXCursor var, const expr *start,
                           host_loop *out)
{
    int64_t factor;
    bool shrinks;
    if (!cond || cond->kind != CXCursor_BinaryOperator || cond->n_kids != 2 ||
        !factor_of(f, inc, var, &factor, &shrinks))
        return false;
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond->cur);
    cnode *bound = cond->kids[1];
    if (refers_to(cond->kids[1], var)) {
        bound = cond->kids[0];
        op = flipped(op);
    } else if (!refers_to(cond->kids[0], var)) {
        return false;
    }
    int64_t to;
    expr *first = expr_simplify(start);
    bool known = first->kind == EX_CONST;
    int64_t from = known ? first->value : 0;
    expr_free(first);
    if (!known || !x_const(f, bound, &to))
        return false;
    bool ok = shrinks ? (op == CXBinaryOperator_GT || op == CXBinaryOperator_GE)
                      : (op == CXBinaryOperator_LT || op == CXBinaryOperator_LE);
    if (!ok || (!shrinks && from <= 0))
        return false;
    host_loop l = {.walkable = true,
                   .start = from,
                   .bound = to,
                   .factor = factor,
                   .shrinks = shrinks,
                   .inclusive = op == CXBinaryOperator_LE || op == CXBinaryOperator_GE};
    int64_t vals[64];
    int n = host_loop_values(&l, vals, 64);
    if (n < 0)
        return false;
    *out = l;
    out->var = cn_spelling(var);
    out->trips = expr_const(n);
    return true;
}

static void stepped_loop(fn_ctx *f, cnode *s, cnode *cond, CXCursor var, expr *from, int64_t step,
                         host_loop *out);

static void unknown_loop(fn_ctx *f, cnode *s, host_loop *out)
{
    src_loc l = {0};
    cn_loc(f->t, s->cur, &l);
    char why[96];
    snprintf(why, sizeof why, "the trip count of the loop at line %d", l.line);
    free(l.file);
    out->trips = expr_unknown(why);
}

/* Is p the one write of v inside loop s, v's address not taken? */
static bool only_step(const var_info *v, const cnode *p, const cnode *s)
{
    if (v->addr_taken)
        return false;
    for (int i = 0; i < v->n_assigns; i++)
        if (cn_inside(v->assigns[i], s) && !cn_inside(v->assigns[i], p))
            return false;
    return true;
}

/* The locals a comma increment steps beside the counter var, each by a
 * constant or a constant factor and written nowhere else in the loop,
 * whose value where the loop starts is a constant: recorded on a walkable
 * loop so that a launch reading one is split by trip as by the counter. */
static void companions(fn_ctx *f, cnode *s, cnode *inc, CXCursor var, host_loop *out)
{
    cnode *ops[COMMA_MAX];
    int n = out->walkable && inc ? comma_operands(inc, ops, COMMA_MAX) : 0;
    for (int i = 0; n > 1 && i < n && out->n_comp < HOST_COMP_MAX; i++) {
        cnode *p = ops[i];
        cnode *lhs = p->n_kids >= 1 ? cn_strip_casts(p->kids[0]) : NULL;
        if (!lhs || lhs->kind != CXCursor_DeclRefExpr)
            continue;
        CXCursor target = clang_getCursorReferenced(lhs->cur);
        var_info *v = fn_var(f, target);
        struct host_comp c = {0};
        if (!v || clang_equalCursors(target, var) ||
            !cn_type_is_integral(clang_getCursorType(target)) || !only_step(v, p, s))
            continue;
        if (!step_of(f, p, target, &c.by) &&
            !(c.factor = factor_of(f, p, target, &c.by, &c.shrinks)))
            continue;
        expr *at = x_value_at(f, v, s), *from = at ? expr_simplify(at) : NULL;
        if (from && from->kind == EX_CONST) {
            c.start = from->value;
            c.name = cn_spelling(target);
            out->comp[out->n_comp++] = c;
        }
        expr_free(at);
        expr_free(from);
    }
}

bool host_comp_value(const struct host_comp *c, int64_t trip, int64_t *out)
{
    int64_t v = c->start, step;
    if (!c->factor) /* a long sweep's last trip: no walk to it */
        return !__builtin_mul_overflow(c->by, trip, &step) && !__builtin_add_overflow(v, step, out);
    /* A factor of 2 or more reaches 0, or leaves int64, within 64 trips. */
    for (int64_t k = 0; k < trip && v != 0; k++) {
        if (c->shrinks)
            v /= c->by;
        else if (__builtin_mul_overflow(v, c->by, &v))
            return false;
    }
    *out = v;
    return true;
}

static void for_loop(fn_ctx *f, cnode *s, host_loop *out)
{
    CXCursor var;
    cnode *init, *cond, *inc, *start = NULL;
    expr *from = NULL;
    int64_t step;
    bool counted = false;
    if (for_parts(s, &init, &cond, &inc) && cond->kind == CXCursor_BinaryOperator &&
        cond->n_kids == 2) {
        if (init &&
            (counter_of(init, &var, &start) || counter_of_many(init, cond, inc, &var, &start)))
            from = x_expr(f, start);
        counted = from || (!init && counter_before(f, s, cond, inc, &var, &from));
    }
    cnode *all = counted ? inc : NULL;
    inc = counted ? counter_step(inc, cond, var) : NULL;
    if (inc && !step_of(f, inc, var, &step) && geometric_loop(f, cond, inc, var, from, out)) {
        expr_free(from);
        companions(f, s, all, var, out);
        return;
    }
    if (!inc || !step_of(f, inc, var, &step)) {
        expr_free(from);
        unknown_loop(f, s, out);
        return;
    }
    stepped_loop(f, s, cond, var, from, step, out);
    companions(f, s, all, var, out);
}

/* A loop whose counter var starts at from (taken) and moves by step each
 * trip while cond holds: its trips, and its range where constant. */
static void stepped_loop(fn_ctx *f, cnode *s, cnode *cond, CXCursor var, expr *from, int64_t step,
                         host_loop *out)
{
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond->cur);
    cnode *bound = cond->kids[1];
    if (refers_to(cond->kids[1], var)) { /* B > i  ==  i < B */
        bound = cond->kids[0];
        op = flipped(op);
    } else if (!refers_to(cond->kids[0], var)) {
        expr_free(from);
        unknown_loop(f, s, out);
        return;
    }
    /* The span the counter covers, in steps: up to a bound it stays
     * below (or reaches, for <=), or down to one it stays above. */
    expr *to = x_expr(f, bound), *span = NULL;
    bool up = step > 0, unit = step == 1 || step == -1;
    if (up && (op == CXBinaryOperator_LT || (op == CXBinaryOperator_NE && unit)))
        span = expr_binary(OP_SUB, expr_clone(to), expr_clone(from));
    else if (up && op == CXBinaryOperator_LE)
        span = expr_binary(OP_ADD, expr_binary(OP_SUB, expr_clone(to), expr_clone(from)),
                           expr_const(1));
    else if (!up && (op == CXBinaryOperator_GT || (op == CXBinaryOperator_NE && unit)))
        span = expr_binary(OP_SUB, expr_clone(from), expr_clone(to));
    else if (!up && op == CXBinaryOperator_GE)
        span = expr_binary(OP_ADD, expr_binary(OP_SUB, expr_clone(from), expr_clone(to)),
                           expr_const(1));
    if (!span) {
        expr_free(from);
        expr_free(to);
        unknown_loop(f, s, out);
        return;
    }
    int64_t by = up ? step : -step;
    expr *trips = by == 1 ? span
                          : expr_binary(OP_DIV, expr_binary(OP_ADD, span, expr_const(by - 1)),
                                        expr_const(by));
    expr *t = expr_binary(OP_MAX, expr_const(0), trips);
    out->trips = expr_simplify(t);
    expr_free(t);
    /* A constant range can be walked value by value. */
    expr *a = expr_simplify(from), *b = expr_simplify(to);
    if (a->kind == EX_CONST && b->kind == EX_CONST) {
        out->var = cn_spelling(var);
        out->walkable = true;
        out->start = a->value;
        out->bound = b->value;
        out->step = step;
        out->inclusive = op == CXBinaryOperator_LE || op == CXBinaryOperator_GE;
    } else {
        out->var = cn_spelling(var);
        out->start_e = expr_clone(a);
        out->bound_e = expr_clone(b);
        out->step = step;
        out->inclusive = op == CXBinaryOperator_LE || op == CXBinaryOperator_GE;
    }
    expr_free(a);
    expr_free(b);
    expr_free(from);
    expr_free(to);
}

bool host_loop_given(const host_loop *l, const expr_env *env, host_loop *out)
{
    if (l->walkable || !l->var || !l->start_e || !l->bound_e)
        return false;
    expr *a0 = expr_bind(l->start_e, env), *b0 = expr_bind(l->bound_e, env);
    expr *a = expr_simplify(a0), *b = expr_simplify(b0);
    bool known = a->kind == EX_CONST && b->kind == EX_CONST;
    if (known) {
        *out = *l;
        out->walkable = true;
        out->start = a->value;
        out->bound = b->value;
        out->start_e = out->bound_e = NULL;
    }
    expr_free(a0);
    expr_free(b0);
    expr_free(a);
    expr_free(b);
    return known;
}

/* `for (int b : {64, 128, 256})` and kin: walked value by value. */
static void range_loop(fn_ctx *f, cnode *s, host_loop *out)
{
    int n = host_range_values(f, s, out->values);
    if (!n) {
        unknown_loop(f, s, out);
        return;
    }
    out->n_values = n;
    out->trips = expr_const(n);
    out->var = cn_spelling(s->kids[0]->cur);
    out->walkable = true;
}

static bool is_loop(const cnode *n)
{
    return n->kind == CXCursor_ForStmt || n->kind == CXCursor_WhileStmt ||
           n->kind == CXCursor_DoStmt || n->kind == CXCursor_CXXForRangeStmt;
}

/* Does the loop body hold a `continue` of its own (one that could skip
 * the counter's step)? Nested loops' are theirs. */
static bool continues(const cnode *n)
{
    if (n->kind == CXCursor_ContinueStmt)
        return true;
    if (is_loop(n))
        return false;
    for (int i = 0; i < n->n_kids; i++)
        if (continues(n->kids[i]))
            return true;
    return false;
}

static bool same_bound(fn_ctx *f, cnode *a, cnode *b)
{
    char *x = cn_text(f->t, cn_strip_casts(a)->cur), *y = cn_text(f->t, cn_strip_casts(b)->cur);
    bool same = x && y && x[0] && !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

/* `c + K` (either order) with K a positive constant: K. */
static bool plus_const(fn_ctx *f, cnode *n, CXCursor var, int64_t *step)
{
    n = cn_strip_casts(n);
    if (!n || n->kind != CXCursor_BinaryOperator || n->n_kids != 2 ||
        clang_getCursorBinaryOperatorKind(n->cur) != CXBinaryOperator_Add)
        return false;
    for (int side = 0; side < 2; side++)
        if (refers_to(n->kids[side], var) && x_const(f, n->kids[1 - side], step) && *step > 0)
            return true;
    return false;
}

/* `if (e >= B) e = B;` (or `>`; B the loop's bound): e clamped to B. */
static bool clamps_to(fn_ctx *f, cnode *assign, CXCursor e, cnode *bound)
{
    cnode *ifs = assign->parent;
    if (ifs && ifs->kind == CXCursor_CompoundStmt && ifs->n_kids == 1)
        ifs = ifs->parent;
    if (!ifs || ifs->kind != CXCursor_IfStmt || ifs->n_kids != 2 ||
        clang_getCursorBinaryOperatorKind(assign->cur) != CXBinaryOperator_Assign ||
        !same_bound(f, assign->kids[1], bound))
        return false;
    cnode *c = cn_strip(ifs->kids[0]);
    if (!c || c->kind != CXCursor_BinaryOperator || c->n_kids != 2)
        return false;
    enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(c->cur);
    return (k == CXBinaryOperator_GE || k == CXBinaryOperator_GT) && refers_to(c->kids[0], e) &&
           same_bound(f, c->kids[1], bound);
}

/* `c = c + K`, or `c = e` for a local e of the body that starts at
 * `c + K` and is at most clamped to the loop's bound (`end = pos + batch;
 * if (end >= n) end = n; ... pos = end;`, a batched loop): stepped by K,
 * for the clamp only ends the last trip where the bound would. */
static bool assigned_step(fn_ctx *f, cnode *a, CXCursor var, cnode *body, cnode *bound,
                          int64_t *step)
{
    if (a->kind != CXCursor_BinaryOperator || a->n_kids != 2 ||
        clang_getCursorBinaryOperatorKind(a->cur) != CXBinaryOperator_Assign)
        return false;
    if (plus_const(f, a->kids[1], var, step))
        return true;
    cnode *r = cn_strip_casts(a->kids[1]);
    var_info *e =
        r && r->kind == CXCursor_DeclRefExpr ? fn_var(f, clang_getCursorReferenced(r->cur)) : NULL;
    if (!e || e->is_param || e->addr_taken || !e->init || !e->decl_node ||
        !cn_inside(e->decl_node, body) || !plus_const(f, e->init, var, step))
        return false;
    for (int i = 0; i < e->n_assigns; i++)
        if (!clamps_to(f, e->assigns[i], e->decl, bound))
            return false;
    return true;
}

/* `while (c < M) { ...; c += K; }`: a counter the condition tests and the
 * body steps once, at its top level, by a constant (or to a local that
 * does, clamped to the bound); with no `continue` to skip the step. */
static void while_loop(fn_ctx *f, cnode *s, host_loop *out)
{
    cnode *cond = s->n_kids == 2 ? cn_strip(s->kids[0]) : NULL;
    cnode *body = s->n_kids == 2 ? s->kids[1] : NULL;
    if (!is_comparison(cond) || !body || body->kind != CXCursor_CompoundStmt || continues(body)) {
        unknown_loop(f, s, out);
        return;
    }
    for (int side = 0; side < 2; side++) {
        cnode *n = cn_strip_casts(cond->kids[side]);
        var_info *v = n && n->kind == CXCursor_DeclRefExpr
                          ? fn_var(f, clang_getCursorReferenced(n->cur))
                          : NULL;
        if (!v || v->addr_taken)
            continue;
        cnode *step_at = NULL;
        int inside = 0;
        for (int i = 0; i < v->n_assigns; i++)
            if (cn_inside(v->assigns[i], body)) {
                inside++;
                step_at = v->assigns[i];
            }
        int64_t step;
        if (inside != 1 || cn_strip(step_at) != step_at || step_at->parent != body ||
            !(step_of(f, step_at, v->decl, &step) ||
              assigned_step(f, step_at, v->decl, body, cond->kids[1 - side], &step)))
            continue;
        expr *from = x_value_at(f, v, s);
        if (!from)
            break;
        stepped_loop(f, s, cond, v->decl, from, step, out);
        return;
    }
    unknown_loop(f, s, out);
}

void host_loops_of(fn_ctx *f, cnode *call, host_loops *out)
{
    memset(out, 0, sizeof *out);
    sbuf saved = f->origin;
    sbuf_init(&f->origin);
    for (cnode *from = call, *p = call->parent; p && from != f->root; from = p, p = p->parent) {
        if (!is_loop(p) || out->n == HOST_LOOPS_MAX)
            continue;
        /* The body runs each trip: the last kid of a for or while, the
         * first of a do. A call in a loop's condition is not followed. */
        cnode *body = p->kind == CXCursor_DoStmt ? p->kids[0] : p->kids[p->n_kids - 1];
        if (from != body)
            continue;
        host_loop *l = &out->v[out->n++];
        if (p->kind == CXCursor_ForStmt)
            for_loop(f, p, l);
        else if (p->kind == CXCursor_WhileStmt)
            while_loop(f, p, l);
        else if (p->kind == CXCursor_CXXForRangeStmt)
            range_loop(f, p, l);
        else
            unknown_loop(f, p, l);
        l->loop = p;
    }
    out->why = f->origin.len ? sbuf_take(&f->origin) : NULL;
    sbuf_free(&f->origin);
    f->origin = saved;
}

/* Counter values the launch runs for: those its reach does not rule out
 * (`if (i >= 2)` in a loop from 0 to 102: 100 of them). Walked up to a
 * million values; -1 when the loop cannot be walked. */
#define WALK_MAX (1 << 20)

static int64_t walked(const host_loop *l, const expr *reach)
{
    if (!l->walkable || !reach || !expr_uses_name(reach, l->var))
        return -1;
    expr_env env;
    expr_env_init(&env);
    int64_t n = 0, steps = 0;
    if (l->factor || l->n_values) {
        int64_t vals[64];
        int k = host_loop_values(l, vals, 64);
        for (int i = 0; i < k; i++) {
            expr_env_set(&env, l->var, vals[i]);
            n += cusrc_truth(reach, &env) != 0;
        }
        return k < 0 ? -1 : n;
    }
    for (int64_t v = l->start; in_range(l, v); v += l->step) {
        if (++steps > WALK_MAX)
            return -1;
        expr_env_set(&env, l->var, v);
        n += cusrc_truth(reach, &env) != 0;
    }
    return n;
}

int64_t host_loop_span(const host_loop *l, const expr *reach, int64_t *first, int64_t *last)
{
    if (!l->walkable || l->factor || l->n_values || !l->var)
        return -1;
    expr_env env;
    expr_env_init(&env);
    int64_t n = 0, steps = 0;
    for (int64_t v = l->start; in_range(l, v); v += l->step) {
        if (++steps > WALK_MAX)
            return -1;
        expr_env_set(&env, l->var, v);
        if (reach && cusrc_truth(reach, &env) == 0)
            continue;
        if (n++ == 0)
            *first = v;
        *last = v;
    }
    return n;
}

/* The trips of a walkable loop o and of the loops inside it whose trips
 * read its counter (a triangular nest, `for (stage = step; stage >= 0;
 * stage--)`), summed over o's values: NULL where there are none such or
 * o has too many values; marks the loops it counts in done. */
static expr *nest_runs(const host_loops *h, int o, const expr *reach, bool *done)
{
    const host_loop *lo = &h->v[o];
    int64_t vals[64];
    int n = lo->walkable && lo->var ? host_loop_values(lo, vals, 64) : -1, inner[HOST_LOOPS_MAX];
    int n_inner = 0;
    for (int k = 0; k < h->n && n >= 0; k++)
        if (k != o && !done[k] && expr_uses_name(h->v[k].trips, lo->var))
            inner[n_inner++] = k;
    if (n < 0 || !n_inner)
        return NULL;
    expr *sum = expr_const(0);
    for (int i = 0; i < n; i++) {
        expr_env env;
        expr_env_init(&env);
        expr_env_set(&env, lo->var, vals[i]);
        if (reach && expr_uses_name(reach, lo->var) && cusrc_truth(reach, &env) == 0)
            continue;
        expr *prod = expr_const(1);
        for (int k = 0; k < n_inner; k++)
            prod = expr_binary(OP_MUL, prod, expr_bind(h->v[inner[k]].trips, &env));
        sum = expr_binary(OP_ADD, sum, prod);
    }
    done[o] = true;
    for (int k = 0; k < n_inner; k++)
        done[inner[k]] = true;
    expr *s = expr_simplify(sum);
    expr_free(sum);
    return s;
}

expr *host_loops_runs(const host_loops *h, const expr *reach)
{
    expr *runs = NULL;
    bool done[HOST_LOOPS_MAX] = {false};
    for (int o = h->n - 1; o >= 0; o--) { /* outermost first */
        expr *t = done[o] ? NULL : nest_runs(h, o, reach, done);
        if (t)
            runs = runs ? expr_binary(OP_MUL, t, runs) : t;
    }
    for (int i = 0; i < h->n; i++) {
        if (done[i])
            continue;
        int64_t n = walked(&h->v[i], reach);
        expr *t = n >= 0 ? expr_const(n) : expr_clone(h->v[i].trips);
        runs = runs ? expr_binary(OP_MUL, t, runs) : t;
    }
    if (!runs)
        return expr_const(1);
    expr *s = expr_simplify(runs);
    expr_free(runs);
    return s;
}

void host_loops_free(host_loops *h)
{
    for (int i = 0; i < h->n; i++) {
        free(h->v[i].var);
        for (int k = 0; k < h->v[i].n_comp; k++)
            free(h->v[i].comp[k].name);
        expr_free(h->v[i].trips);
        expr_free(h->v[i].start_e);
        expr_free(h->v[i].bound_e);
    }
    free(h->why);
    memset(h, 0, sizeof *h);
}
