/* gridsum: a per-thread expression as a short sum of terms c * f_x * f_y *
 * f_z, each f_d reading only dimension d's indices; the launch total is
 * then the sum of c times the product of each factor's own sum over its
 * dimension. Short-circuit and ?: arms are evaluated at every point of
 * their dimension, where the per-thread walk skips them: a factor that
 * fails anywhere makes the whole attempt fail rather than change a number. */
#include "analysis/symbolic/gridsum.h"

#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

#define GRIDSUM_MAX_TERMS 64
#define GRIDSUM_MAX_EVALS (1 << 22) /* as the per-thread walk allows itself */

typedef struct term {
    int64_t c;
    expr *f[3]; /* NULL: 1 at every point */
} term;

typedef struct terms {
    term t[GRIDSUM_MAX_TERMS];
    int n;
} terms;

static const expr_builtin tid_of[3] = {SYM_TID_X, SYM_TID_Y, SYM_TID_Z};
static const expr_builtin bid_of[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};

static void terms_free(terms *ts)
{
    for (int i = 0; i < ts->n; i++)
        for (int d = 0; d < 3; d++)
            expr_free(ts->t[i].f[d]);
    ts->n = 0;
}

/* Bit d set when e reads dimension d's indices; -1 when it reads anything
 * else that has no value here (a name, another builtin, an unknown). */
static int dims_read(const expr *e)
{
    if (!e)
        return 0;
    if (e->kind == EX_UNKNOWN || e->kind == EX_SUM)
        return -1;
    if (e->kind == EX_SYM) {
        for (int d = 0; d < 3; d++)
            if (e->builtin == tid_of[d] || e->builtin == bid_of[d])
                return 1 << d;
        return -1;
    }
    int a = dims_read(e->a), b = dims_read(e->b), c = dims_read(e->c);
    if (a < 0 || b < 0 || c < 0)
        return -1;
    return a | b | c;
}

static bool push(terms *ts, int64_t c, expr *f[3])
{
    if (ts->n >= GRIDSUM_MAX_TERMS) {
        for (int d = 0; d < 3; d++)
            expr_free(f[d]);
        return false;
    }
    term *t = &ts->t[ts->n++];
    t->c = c;
    memcpy(t->f, f, sizeof t->f);
    return true;
}

/* Moves from's terms to the end of to (negated); from is left empty. */
static bool append(terms *to, terms *from, bool negate)
{
    bool ok = true;
    for (int i = 0; i < from->n; i++) {
        term *t = &from->t[i];
        int64_t c = t->c;
        bool this_ok = ok;
        if (this_ok && negate) {
            if (c == INT64_MIN)
                this_ok = false;
            else
                c = -c;
        }
        if (this_ok) {
            this_ok = push(to, c, t->f); /* takes the factors, frees them on failure */
        } else {
            for (int d = 0; d < 3; d++)
                expr_free(t->f[d]);
        }
        memset(t->f, 0, sizeof t->f);
        ok = this_ok;
    }
    from->n = 0;
    return ok;
}

static expr *times(const expr *a, const expr *b)
{
    if (!a)
        return b ? expr_clone(b) : NULL;
    if (!b)
        return expr_clone(a);
    return expr_binary(OP_MUL, expr_clone(a), expr_clone(b));
}

/* out = a * b, term by term. */
static bool multiply(terms *a, terms *b, terms *out)
{
    bool ok = true;
    for (int i = 0; ok && i < a->n; i++)
        for (int j = 0; ok && j < b->n; j++) {
            int64_t c;
            if (__builtin_mul_overflow(a->t[i].c, b->t[j].c, &c)) {
                ok = false;
                break;
            }
            expr *f[3];
            for (int d = 0; d < 3; d++)
                f[d] = times(a->t[i].f[d], b->t[j].f[d]);
            ok = push(out, c, f);
        }
    terms_free(a);
    terms_free(b);
    return ok;
}

static bool split(const expr *e, terms *out);

/* e != 0 as 0 or 1: one factor where e reads one dimension, a product
 * where e is a conjunction. */
static bool indicator(const expr *e, terms *out)
{
    int dims = dims_read(e);
    if (dims < 0)
        return false;
    if (!(dims & (dims - 1))) {
        expr *ind = expr_cond(expr_clone(e), expr_const(1), expr_const(0));
        bool ok = split(ind, out);
        expr_free(ind);
        return ok;
    }
    if (e->kind != EX_BINARY || e->op != OP_LAND)
        return false;
    terms *a = xcalloc(2, sizeof *a), *b = a + 1;
    bool ok = indicator(e->a, a) && indicator(e->b, b) && multiply(a, b, out);
    terms_free(a);
    terms_free(b);
    free(a);
    return ok;
}

static bool split_binary(const expr *e, terms *out)
{
    terms *a = xcalloc(2, sizeof *a), *b = a + 1;
    bool ok;
    switch (e->op) {
    case OP_ADD:
    case OP_SUB:
        ok = split(e->a, a) && split(e->b, b) && append(out, a, false) &&
             append(out, b, e->op == OP_SUB);
        break;
    case OP_MUL:
        ok = split(e->a, a) && split(e->b, b) && multiply(a, b, out);
        break;
    case OP_LAND:
        ok = indicator(e, out);
        break;
    default:
        ok = false;
        break;
    }
    terms_free(a);
    terms_free(b);
    free(a);
    return ok;
}

/* c ? x : y = [c] * x + y - [c] * y */
static bool split_cond(const expr *e, terms *out)
{
    terms *t = xcalloc(7, sizeof *t);
    terms *c1 = &t[0], *c2 = &t[1], *x = &t[2], *y = &t[3], *y2 = &t[4], *cx = &t[5], *cy = &t[6];
    bool ok = indicator(e->a, c1) && indicator(e->a, c2) && split(e->b, x) && split(e->c, y) &&
              split(e->c, y2) && multiply(c1, x, cx) && multiply(c2, y2, cy) &&
              append(out, cx, false) && append(out, y, false) && append(out, cy, true);
    for (int i = 0; i < 7; i++)
        terms_free(&t[i]);
    free(t);
    return ok;
}

static bool split(const expr *e, terms *out)
{
    if (!e)
        return false;
    int dims = dims_read(e);
    if (dims < 0)
        return false;
    expr *f[3] = {NULL, NULL, NULL};
    if (dims == 0) {
        int64_t v;
        return expr_eval(e, NULL, &v, NULL) == EXPR_OK && push(out, v, f);
    }
    if (!(dims & (dims - 1))) {
        f[__builtin_ctz((unsigned)dims)] = expr_clone(e);
        return push(out, 1, f);
    }
    switch (e->kind) {
    case EX_BINARY:
        return split_binary(e, out);
    case EX_COND:
        return split_cond(e, out);
    default:
        return false;
    }
}

/* The sum of f over dimension d's points (blockIdx, threadIdx). */
static bool dim_sum(const expr *f, int d, const int64_t grid[3], const int64_t block[3],
                    int64_t *out)
{
    if (!f)
        return !__builtin_mul_overflow(grid[d], block[d], out);
    /* 32 threads of the dimension at a time, one walk of the tree each. */
    expr_env *env = xcalloc(32, sizeof *env);
    for (int l = 0; l < 32; l++)
        expr_env_init(&env[l]);
    int64_t sum = 0;
    bool ok = true;
    for (int64_t b = 0; ok && b < grid[d]; b++) {
        for (int l = 0; l < 32; l++)
            expr_env_set_builtin(&env[l], bid_of[d], b);
        for (int64_t t0 = 0; ok && t0 < block[d]; t0 += 32) {
            int n = block[d] - t0 < 32 ? (int)(block[d] - t0) : 32;
            uint32_t mask = n == 32 ? 0xffffffffu : (1u << n) - 1;
            for (int l = 0; l < n; l++)
                expr_env_set_builtin(&env[l], tid_of[d], t0 + l);
            int64_t v[32];
            ok = expr_eval_lanes(f, env, mask, v) == mask;
            for (int l = 0; ok && l < n; l++)
                ok = !__builtin_add_overflow(sum, v[l], &sum);
        }
    }
    free(env);
    if (ok)
        *out = sum;
    return ok;
}

bool gridsum_separable(const expr *e, const int64_t grid[3], const int64_t block[3], int64_t *out)
{
    for (int d = 0; d < 3; d++)
        if (grid[d] < 1 || block[d] < 1)
            return false;
    terms *ts = xcalloc(1, sizeof *ts);
    bool ok = split(e, ts);
    /* Each factor costs its dimension's points: past the budget, the
     * caller's walk (by block class on large grids) is the cheaper way. */
    int64_t evals = 0;
    for (int i = 0; ok && i < ts->n; i++)
        for (int d = 0; d < 3; d++)
            if (ts->t[i].f[d])
                evals += grid[d] * block[d];
    ok = ok && evals <= GRIDSUM_MAX_EVALS;
    int64_t total = 0;
    for (int i = 0; ok && i < ts->n; i++) {
        int64_t prod = ts->t[i].c;
        for (int d = 0; ok && d < 3 && prod; d++) {
            int64_t s;
            ok = dim_sum(ts->t[i].f[d], d, grid, block, &s) &&
                 !__builtin_mul_overflow(prod, s, &prod);
        }
        ok = ok && !__builtin_add_overflow(total, prod, &total);
    }
    terms_free(ts);
    free(ts);
    if (ok)
        *out = total;
    return ok;
}
