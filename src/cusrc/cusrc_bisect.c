/* cusrc_bisect: how many times a binary search's loop runs. Two locals
 * bound an interval; each pass takes its midpoint and one arm of an if
 * moves one bound to it (`while (high - low > 1) { mid = low + (high -
 * low) / 2; if (z < a[mid]) high = mid; else low = mid; }`). Which arm
 * runs depends on the data, but the interval's width does not care where
 * it lies, so the passes follow from the width alone: at most the passes
 * of the path that keeps the larger half each time (ceil(log2 n) for the
 * loop above), and at least one fewer. The count is that most. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

/* The one assignment of v inside loop, a plain `=`; NULL otherwise. */
static cnode *only_assign_in(const var_info *v, const cnode *loop)
{
    cnode *found = NULL;
    for (int i = 0; i < v->n_assigns; i++) {
        if (!cn_inside(v->assigns[i], loop))
            continue;
        if (found)
            return NULL;
        found = v->assigns[i];
    }
    if (!found || found->kind != CXCursor_BinaryOperator || found->n_kids != 2 ||
        clang_getCursorBinaryOperatorKind(found->cur) != CXBinaryOperator_Assign)
        return NULL;
    return found;
}

/* The locals the condition reads, up to max (more: max + 1). */
static int cond_locals(fn_ctx *f, const cnode *n, var_info **out, int k, int max)
{
    if (n->kind == CXCursor_DeclRefExpr) {
        var_info *v = fn_var(f, clang_getCursorReferenced(n->cur));
        bool seen = false;
        for (int i = 0; v && i < k && i < max; i++)
            seen |= out[i] == v;
        if (v && !seen) {
            if (k < max)
                out[k] = v;
            k++;
        }
    }
    for (int i = 0; i < n->n_kids; i++)
        k = cond_locals(f, n->kids[i], out, k, max);
    return k;
}

/* a and b in the two arms of one if/else, one in each. */
static bool opposite_arms(const cnode *a, const cnode *b)
{
    const cnode *p = a->parent;
    while (p && !cn_inside(b, p))
        p = p->parent;
    if (!p || p->kind != CXCursor_IfStmt || p->n_kids < 3)
        return false;
    const cnode *then = p->kids[p->n_kids - 2], *other = p->kids[p->n_kids - 1];
    return (cn_inside(a, then) && cn_inside(b, other)) ||
           (cn_inside(a, other) && cn_inside(b, then));
}

/* The value of v as the loop starts: its initialiser where nothing before
 * the loop assigns it, else the definition that reaches the loop. */
static expr *start_value(fn_ctx *f, var_info *v, cnode *loop)
{
    bool outside = false;
    for (int i = 0; i < v->n_assigns; i++)
        outside |= !cn_inside(v->assigns[i], loop);
    if (!outside)
        return v->init ? x_expr(f, v->init) : NULL;
    return x_value_at(f, v, loop);
}

typedef struct bisection {
    const char *lo, *hi;
    expr *cond, *new_lo, *new_hi; /* in terms of lo and hi */
} bisection;

static bool eval2(const expr *e, const bisection *b, int64_t lo, int64_t hi, int64_t *out)
{
    expr_env env;
    expr_env_init(&env);
    expr_env_set(&env, b->lo, lo);
    expr_env_set(&env, b->hi, hi);
    return expr_eval(e, &env, out, NULL) == EXPR_OK;
}

/* Whether the search moves as the width alone says: the condition and
 * each arm's new bound shift with the interval (checked at a spread of
 * places and widths), and every pass the condition lets run narrows it. */
static bool shifts_with_interval(const bisection *b)
{
    /* lo and hi the right way round: a wide interval is searched, one
     * whose bounds have crossed is not. */
    int64_t wide, crossed;
    if (!eval2(b->cond, b, 0, 1 << 20, &wide) || !eval2(b->cond, b, 0, -1, &crossed) || !wide ||
        crossed)
        return false;
    static const int64_t widths[] = {1, 2, 3, 5, 8, 13, 64, 1000, 1023, 1 << 20};
    static const int64_t places[] = {0, 1, 7, 1000, 123457};
    for (size_t i = 0; i < sizeof widths / sizeof *widths; i++) {
        int64_t c0, l0, h0;
        int64_t w = widths[i];
        if (!eval2(b->cond, b, 0, w, &c0) || !eval2(b->new_lo, b, 0, w, &l0) ||
            !eval2(b->new_hi, b, 0, w, &h0))
            return false;
        if (c0 && (l0 <= 0 || h0 >= w))
            return false;
        for (size_t j = 1; j < sizeof places / sizeof *places; j++) {
            int64_t p = places[j], c, l, h;
            if (!eval2(b->cond, b, p, p + w, &c) || !eval2(b->new_lo, b, p, p + w, &l) ||
                !eval2(b->new_hi, b, p, p + w, &h) || !c != !c0 || l - p != l0 || h - p != h0)
                return false;
        }
    }
    return true;
}

/* e of the interval [0, w]: lo read as 0, hi as the width w. */
static expr *at_width(const expr *e, const bisection *b, const char *w)
{
    expr *zero = expr_const(0), *width = expr_named(w);
    expr *from0 = expr_substitute_name(e, b->lo, zero);
    expr *r = expr_substitute_name(from0, b->hi, width);
    expr_free(from0);
    expr_free(zero);
    expr_free(width);
    return r;
}

/* The width's next value on the path that keeps the larger part. */
static expr *wider_next(const bisection *b, const char *w)
{
    return expr_binary(OP_MAX, expr_binary(OP_SUB, expr_named(w), at_width(b->new_lo, b, w)),
                       at_width(b->new_hi, b, w));
}

static expr *trips_of(fn_ctx *f, bisection *b, var_info *lo, var_info *hi, cnode *loop, int line)
{
    if (!shifts_with_interval(b))
        return NULL;
    expr *lo_start = start_value(f, lo, loop),
         *hi_start = lo_start ? start_value(f, hi, loop) : NULL;
    if (!hi_start || expr_first_unknown(lo_start) || expr_first_unknown(hi_start)) {
        expr_free(lo_start);
        expr_free(hi_start);
        return NULL;
    }
    char w[32];
    snprintf(w, sizeof w, "width_L%d", line);
    expr *sum = expr_loop_sum(w, expr_binary(OP_SUB, hi_start, lo_start), at_width(b->cond, b, w),
                              wider_next(b, w), expr_const(1));
    expr *s = expr_simplify(sum);
    expr_free(sum);
    return s;
}

expr *x_bisection_trips(fn_ctx *f, cnode *loop, cnode *cond)
{
    var_info *v[3];
    if (!cond || cond_locals(f, cond, v, 0, 3) != 2 || v[0]->is_shared || v[1]->is_shared ||
        v[0]->addr_taken || v[1]->addr_taken)
        return NULL;
    cnode *a0 = only_assign_in(v[0], loop), *a1 = a0 ? only_assign_in(v[1], loop) : NULL;
    if (!a1 || !opposite_arms(a0, a1))
        return NULL;
    v[0]->visiting++;
    v[1]->visiting++;
    expr *c = x_expr(f, cond), *n0 = x_expr(f, a0->kids[1]), *n1 = x_expr(f, a1->kids[1]);
    v[0]->visiting--;
    v[1]->visiting--;
    src_loc at = {0};
    cn_loc(f->t, loop->cur, &at);
    free(at.file);
    expr *trips = NULL;
    /* Either local may be the low bound. */
    for (int lo = 0; lo < 2 && !trips && !expr_first_unknown(c); lo++) {
        bisection b = {v[lo]->name, v[1 - lo]->name, c, lo ? n1 : n0, lo ? n0 : n1};
        trips = trips_of(f, &b, v[lo], v[1 - lo], loop, at.line);
    }
    expr_free(c);
    expr_free(n0);
    expr_free(n1);
    return trips;
}
