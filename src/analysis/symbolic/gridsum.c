/* gridsum: a per-thread expression as a short sum of terms c * f_x * f_y *
 * f_z, each f_d reading only dimension d's indices; the launch total is
 * then the sum of c times the product of each factor's own sum over its
 * dimension. Short-circuit and ?: arms are evaluated at every point of
 * their dimension, where the per-thread walk skips them: a factor that
 * fails anywhere makes the whole attempt fail rather than change a number. */
#include "analysis/symbolic/gridsum.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/exprpoly.h"
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

/* The counters of the loop sums around a subtree: names that take their
 * values inside the sum, not from the launch. */
typedef struct counters {
    const char *name;
    const struct counters *up;
} counters;

static bool is_counter(const counters *in, const char *name)
{
    for (; in && name; in = in->up)
        if (strcmp(in->name, name) == 0)
            return true;
    return false;
}

static int dims_read_in(const expr *e, const counters *in)
{
    if (!e)
        return 0;
    if (e->kind == EX_UNKNOWN)
        return -1;
    if (e->kind == EX_SYM) {
        for (int d = 0; d < 3; d++)
            if (e->builtin == tid_of[d] || e->builtin == bid_of[d])
                return 1 << d;
        return e->builtin == SYM_NAMED && is_counter(in, e->name) ? 0 : -1;
    }
    if (e->kind == EX_SUM) {
        counters inner = {e->name, in};
        int a = dims_read_in(e->a, in), b = dims_read_in(e->b, &inner),
            c = dims_read_in(e->c, &inner), d = dims_read_in(e->d, &inner);
        if (a < 0 || b < 0 || c < 0 || d < 0)
            return -1;
        return a | b | c | d;
    }
    int a = dims_read_in(e->a, in), b = dims_read_in(e->b, in), c = dims_read_in(e->c, in);
    if (a < 0 || b < 0 || c < 0)
        return -1;
    return a | b | c;
}

/* Bit d set when e reads dimension d's indices; -1 when it reads anything
 * else that has no value here (a name, another builtin, an unknown). A
 * loop sum's counter is its own. */
static int dims_read(const expr *e)
{
    return dims_read_in(e, NULL);
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

static bool is_zero(const expr *e)
{
    return e && e->kind == EX_CONST && e->value == 0;
}

/* body summed over counter = from .. to - 1, 32 values a walk. */
static bool counter_walk(const expr *body, const char *counter, int64_t from, int64_t to,
                         int64_t *out)
{
    expr_env *env = xcalloc(32, sizeof *env);
    for (int l = 0; l < 32; l++)
        expr_env_init(&env[l]);
    int64_t sum = 0;
    bool ok = true;
    for (int64_t v0 = from; ok && v0 < to; v0 += 32) {
        int n = to - v0 < 32 ? (int)(to - v0) : 32;
        uint32_t mask = n == 32 ? 0xffffffffu : (1u << n) - 1;
        for (int l = 0; l < n; l++)
            ok = ok && expr_env_set(&env[l], counter, v0 + l);
        int64_t v[32];
        ok = ok && expr_eval_lanes(body, env, mask, v) == mask;
        for (int l = 0; ok && l < n; l++)
            ok = !__builtin_add_overflow(sum, v[l], &sum);
    }
    free(env);
    if (ok)
        *out = sum;
    return ok;
}

/* e as cb * blockIdx_d + ct * threadIdx_d + k, the only form of index a
 * grid-stride loop starts from; false where e is not affine in them. */
static bool affine_dim(const expr *e, int d, int64_t *cb, int64_t *ct, int64_t *k)
{
    if (!e)
        return false;
    int64_t b1, t1, k1, b2, t2, k2;
    switch (e->kind) {
    case EX_CONST:
        *cb = *ct = 0, *k = e->value;
        return true;
    case EX_SYM:
        *cb = e->builtin == bid_of[d], *ct = e->builtin == tid_of[d], *k = 0;
        return *cb || *ct;
    case EX_UNARY:
        return e->op == OP_NEG && affine_dim(e->a, d, &b1, &t1, &k1) && b1 != INT64_MIN &&
               t1 != INT64_MIN && k1 != INT64_MIN && (*cb = -b1, *ct = -t1, *k = -k1, true);
    case EX_BINARY:
        if (!affine_dim(e->a, d, &b1, &t1, &k1) || !affine_dim(e->b, d, &b2, &t2, &k2))
            return false;
        if (e->op == OP_ADD)
            return !__builtin_add_overflow(b1, b2, cb) && !__builtin_add_overflow(t1, t2, ct) &&
                   !__builtin_add_overflow(k1, k2, k);
        if (e->op == OP_SUB)
            return !__builtin_sub_overflow(b1, b2, cb) && !__builtin_sub_overflow(t1, t2, ct) &&
                   !__builtin_sub_overflow(k1, k2, k);
        if (e->op == OP_MUL && ((b1 == 0 && t1 == 0) || (b2 == 0 && t2 == 0))) {
            int64_t s = b1 == 0 && t1 == 0 ? k1 : k2;
            int64_t bb = b1 == 0 && t1 == 0 ? b2 : b1, tt = b1 == 0 && t1 == 0 ? t2 : t1,
                    kk = b1 == 0 && t1 == 0 ? k2 : k1;
            return !__builtin_mul_overflow(bb, s, cb) && !__builtin_mul_overflow(tt, s, ct) &&
                   !__builtin_mul_overflow(kk, s, k);
        }
        return false;
    default:
        return false;
    }
}

/* e as c * g + k with g = blockIdx_d * blockDim_d + threadIdx_d, the
 * thread's index in the dimension. */
static bool affine_global(const expr *e, int d, int64_t block, int64_t *c, int64_t *k)
{
    int64_t cb, ct, want;
    return affine_dim(e, d, &cb, &ct, k) && !__builtin_mul_overflow(ct, block, &want) &&
           want == cb && (*c = ct, true);
}

/* Sum of floor(m / s) over m in [0, x]; 0 for x < 0. */
static __int128 floor_sum(int64_t x, int64_t s)
{
    if (x < 0)
        return 0;
    __int128 n = (__int128)x + 1, q = n / s, r = n % s;
    return s * q * (q - 1) / 2 + r * q;
}

/* A grid-stride loop's trip count, max(0, (k - g) / s) (the front end's
 * ceil((bound - g) / stride) with the rounding folded into k), summed in
 * closed form over the P = grid * block threads of the dimension: each
 * thread's share of [0, k] in steps of s. Without it a launch of more
 * threads than the walk's budget whose bound falls inside a block (every
 * thread one trip, the rest none) has no total. */
static bool stride_trips_sum(const expr *f, int d, int64_t grid, int64_t block, int64_t *out)
{
    if (f->kind != EX_BINARY || f->op != OP_MAX)
        return false;
    const expr *x = is_zero(f->a) ? f->b : is_zero(f->b) ? f->a : NULL;
    int64_t s = 1, c, k;
    if (x && x->kind == EX_BINARY && x->op == OP_DIV && x->b && x->b->kind == EX_CONST) {
        s = x->b->value;
        x = x->a;
    }
    if (!x || s < 1 || !affine_global(x, d, block, &c, &k) || c != -1)
        return false;
    /* g > k: (k - g) / s truncates to 0 or below, and max gives 0; g <= k:
     * floor((k - g) / s). So the sum runs over m = k - g in [lo, k]. */
    __int128 last = (__int128)grid * block - 1;
    if (k < 0) {
        *out = 0;
        return true;
    }
    int64_t lo = (int64_t)((__int128)k - (last < k ? last : k));
    __int128 sum = floor_sum(k, s) - floor_sum(lo - 1, s);
    if (sum > INT64_MAX)
        return false;
    *out = (int64_t)sum;
    return true;
}

/* The bound a loop sum's counter v runs below: v < n, v <= n - 1, n > v. */
static bool counter_bound(const expr *cond, const char *v, int64_t *end)
{
    if (!cond || cond->kind != EX_BINARY || !cond->a || !cond->b)
        return false;
    const expr *l = cond->a, *r = cond->b;
    bool lv = l->kind == EX_SYM && l->name && strcmp(l->name, v) == 0;
    bool rv = r->kind == EX_SYM && r->name && strcmp(r->name, v) == 0;
    const expr *n = lv ? r : rv ? l : NULL;
    if (!n || n->kind != EX_CONST || (lv && rv))
        return false;
    expr_op op = cond->op;
    if (rv)
        op = op == OP_GT ? OP_LT : op == OP_GE ? OP_LE : OP_EQ;
    if (op == OP_LT)
        *end = n->value;
    else if (op == OP_LE && n->value < INT64_MAX)
        *end = n->value + 1;
    else
        return false;
    return true;
}

/* A grid-stride loop's work, sum(v = g + k0; v < n; v += P: body(v)) with
 * P = grid * block, summed over the dimension's threads: every v of
 * [k0, n) is one thread's, once, so the total is the body summed over
 * them, in closed form where the body does not change with v. */
static bool stride_loop_sum(const expr *f, int d, int64_t grid, int64_t block, int64_t *out)
{
    int64_t c, k0, end, step, p;
    if (f->kind != EX_SUM || !f->name || !affine_global(f->a, d, block, &c, &k0) || c != 1 ||
        !counter_bound(f->b, f->name, &end) || __builtin_mul_overflow(grid, block, &p))
        return false;
    const expr *nx = f->c;
    if (!nx || nx->kind != EX_BINARY || nx->op != OP_ADD || !nx->a || !nx->b)
        return false;
    const expr *var = nx->a->kind == EX_SYM ? nx->a : nx->b, *by = var == nx->a ? nx->b : nx->a;
    if (var->kind != EX_SYM || !var->name || strcmp(var->name, f->name) != 0 ||
        by->kind != EX_CONST || (step = by->value) != p)
        return false;
    int64_t count = end > k0 ? end - k0 : 0;
    expr *body = exprpoly_fold(f->d);
    counters own = {f->name, NULL};
    bool ok = dims_read_in(body, &own) == 0;
    if (ok && !expr_uses_name(body, f->name)) {
        int64_t each;
        ok = expr_eval(body, NULL, &each, NULL) == EXPR_OK &&
             !__builtin_mul_overflow(each, count, out);
    } else if (ok) {
        ok = count <= GRIDSUM_MAX_EVALS && counter_walk(body, f->name, k0, end, out);
    }
    expr_free(body);
    return ok;
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

/* A factor's sum over its dimension without visiting each point, where it
 * is made of grid-stride loops' trip counts and work by +, - and constant
 * factors. */
static bool closed_sum(const expr *f, int d, const int64_t grid[3], const int64_t block[3],
                       int64_t *out)
{
    if (!f)
        return false;
    int64_t a, b, v;
    if (dims_read(f) == 0)
        return expr_eval(f, NULL, &v, NULL) == EXPR_OK &&
               !__builtin_mul_overflow(grid[d], block[d], &a) && !__builtin_mul_overflow(a, v, out);
    if (f->kind == EX_UNARY && f->op == OP_NEG)
        return closed_sum(f->a, d, grid, block, &a) && a != INT64_MIN && (*out = -a, true);
    if (f->kind == EX_BINARY && (f->op == OP_ADD || f->op == OP_SUB))
        return closed_sum(f->a, d, grid, block, &a) && closed_sum(f->b, d, grid, block, &b) &&
               !(f->op == OP_ADD ? __builtin_add_overflow(a, b, out)
                                 : __builtin_sub_overflow(a, b, out));
    if (f->kind == EX_BINARY && f->op == OP_MUL) {
        const expr *c = dims_read(f->a) == 0 ? f->a : dims_read(f->b) == 0 ? f->b : NULL;
        const expr *x = c == f->a ? f->b : f->a;
        return c && expr_eval(c, NULL, &v, NULL) == EXPR_OK && closed_sum(x, d, grid, block, &a) &&
               !__builtin_mul_overflow(a, v, out);
    }
    return stride_trips_sum(f, d, grid[d], block[d], out) ||
           stride_loop_sum(f, d, grid[d], block[d], out);
}

bool gridsum_separable(const expr *e, const int64_t grid[3], const int64_t block[3], int64_t *out)
{
    for (int d = 0; d < 3; d++)
        if (grid[d] < 1 || block[d] < 1)
            return false;
    terms *ts = xcalloc(1, sizeof *ts);
    bool ok = split(e, ts);
    /* Each factor costs its dimension's points, unless it has a closed
     * form: past the budget, the caller's walk (by block class on large
     * grids) is the cheaper way. */
    int64_t evals = 0;
    int64_t(*closed)[3] = ok ? xcalloc((size_t)ts->n, sizeof *closed) : NULL;
    bool(*has_closed)[3] = ok ? xcalloc((size_t)ts->n, sizeof *has_closed) : NULL;
    for (int i = 0; ok && i < ts->n; i++)
        for (int d = 0; d < 3; d++) {
            has_closed[i][d] = closed_sum(ts->t[i].f[d], d, grid, block, &closed[i][d]);
            if (ts->t[i].f[d] && !has_closed[i][d])
                evals += grid[d] * block[d];
        }
    ok = ok && evals <= GRIDSUM_MAX_EVALS;
    int64_t total = 0;
    for (int i = 0; ok && i < ts->n; i++) {
        int64_t prod = ts->t[i].c;
        for (int d = 0; ok && d < 3 && prod; d++) {
            int64_t s = closed[i][d];
            ok = (has_closed[i][d] || dim_sum(ts->t[i].f[d], d, grid, block, &s)) &&
                 !__builtin_mul_overflow(prod, s, &prod);
        }
        ok = ok && !__builtin_add_overflow(total, prod, &total);
    }
    free(closed);
    free(has_closed);
    terms_free(ts);
    free(ts);
    if (ok)
        *out = total;
    return ok;
}
