/* affbox: each loop's counter becomes init + step * j with a step index j;
 * the offset, guard and loop conditions become affine forms over the
 * thread, block and step indices. A division or remainder by a constant
 * that cuts an index (tid / 32, tid % 32, tid >> 5, tid & 31) splits that
 * index into two digits, lane + 32 * warp, and the analysis restarts with
 * the split in place. The guard is expanded into disjuncts (an else arm's
 * negated conjunction, a !=); each disjunct is a set of constraints. Then
 * indices that always appear together as digits of one mixed-radix number
 * (blockIdx.x * blockDim.x + threadIdx.x, a grid-stride loop's tid +
 * stride * j, or a split's two digits) merge back into one, after which
 * every constraint must bound a single index, or hold (or fail) on the
 * whole box. */
#include "analysis/symbolic/affbox.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/expr.h"
#include "util/sbuf.h"

#define MAX_SPLITS 6
#define NV (6 + ACCESS_MAX_LOOPS + 2 * MAX_SPLITS)
#define MAX_CONS 24
#define INF INT64_MAX

typedef struct aff {
    int64_t c[NV]; /* tid x y z, bid x y z, one step index per loop, split digits */
    int64_t k;
} aff;

typedef struct box {
    int64_t lo[NV], hi[NV]; /* [lo, hi); hi INF: unbounded */
    aff off;
    aff cons[MAX_CONS]; /* each >= 0 */
    int n_cons;
    bool empty;
} box;

typedef struct boxes {
    box *b;
    int n;
} boxes;

/* Index var = r + m * q, r in [0, m). */
typedef struct split {
    int var, r, q;
    int64_t m;
} split;

typedef struct ctx {
    const mem_access *a;
    int64_t lo0[NV], hi0[NV]; /* ranges before any condition */
    split splits[MAX_SPLITS];
    int64_t split_range[MAX_SPLITS]; /* the index's range before the split; INF: unbounded */
    int n_splits;
    bool restart;  /* a split was asked for: start again */
    bool no_split; /* probing: a split fails instead */
    bool partial;  /* only part of the iteration space is followed */
    const char *partial_why;
    bool cover;    /* a condition that cannot be cut may be relaxed (affbox_cover) */
    bool in_guard; /* reading the access's guard, not a loop's condition */
    aff loopv[ACCESS_MAX_LOOPS];
    int n_ready; /* loops whose counter is set */
    const char *why;
} ctx;

#define FIRST_ITERATION_ONLY                                                                       \
    "a loop whose step is not a constant added to its counter is followed through its first "      \
    "iteration only"

/* Bands a box is cut into where a condition bounds two indices at once:
 * each band keeps, for the subset, the rows the condition holds for over
 * the whole band, for the cover the rows it holds for anywhere in it, so
 * the two differ by about one band's share of the triangle (1/32 with 16
 * bands). */
#define MAX_BANDS 16

static bool fail(ctx *s, const char *why)
{
    if (!s->why)
        s->why = why;
    return false;
}

/* ---- affine forms ---- */

static bool aff_add(aff *r, const aff *x, int64_t scale)
{
    for (int i = 0; i < NV; i++) {
        int64_t t;
        if (__builtin_mul_overflow(x->c[i], scale, &t) ||
            __builtin_add_overflow(r->c[i], t, &r->c[i]))
            return false;
    }
    int64_t t;
    return !__builtin_mul_overflow(x->k, scale, &t) && !__builtin_add_overflow(r->k, t, &r->k);
}

static bool aff_is_const(const aff *x)
{
    for (int i = 0; i < NV; i++)
        if (x->c[i])
            return false;
    return true;
}

static const split *split_of(const ctx *s, int v)
{
    for (int i = 0; i < s->n_splits; i++)
        if (s->splits[i].var == v)
            return &s->splits[i];
    return NULL;
}

/* Index v in terms of the digits it was split into. */
static void expand(const ctx *s, int v, int64_t scale, aff *out, int depth)
{
    const split *sp = depth < 2 * MAX_SPLITS ? split_of(s, v) : NULL;
    if (!sp) {
        out->c[v] += scale;
        return;
    }
    expand(s, sp->r, scale, out, depth + 1);
    expand(s, sp->q, scale * sp->m, out, depth + 1);
}

static void init_ranges(ctx *s, const int64_t grid[3], const int64_t block[3])
{
    for (int v = 0; v < NV; v++) {
        s->lo0[v] = 0;
        s->hi0[v] = 1;
    }
    for (int d = 0; d < 3; d++) {
        s->hi0[d] = block[d];
        s->hi0[3 + d] = grid[d];
    }
    for (int i = 0; i < s->a->n_loops; i++)
        s->hi0[6 + i] = INF;
    for (int i = 0; i < s->n_splits; i++) {
        const split *sp = &s->splits[i];
        int64_t range = s->hi0[sp->var];
        s->split_range[i] = range;
        s->hi0[sp->r] = sp->m;
        s->hi0[sp->q] = range == INF ? INF : (range + sp->m - 1) / sp->m;
        s->hi0[sp->var] = 1;
    }
}

/* The least value of x over the unconditioned ranges, when it has one. */
static bool aff_min(const ctx *s, const aff *x, int64_t *out)
{
    int64_t m = x->k;
    for (int v = 0; v < NV; v++) {
        if (!x->c[v])
            continue;
        if (x->c[v] < 0 && s->hi0[v] == INF)
            return false;
        int64_t at = x->c[v] > 0 ? s->lo0[v] : s->hi0[v] - 1, t;
        if (__builtin_mul_overflow(x->c[v], at, &t) || __builtin_add_overflow(m, t, &m))
            return false;
    }
    *out = m;
    return true;
}

/* The greatest value of x over the unconditioned ranges, when it has one. */
static bool aff_max(const ctx *s, const aff *x, int64_t *out)
{
    aff neg;
    memset(&neg, 0, sizeof neg);
    if (!aff_add(&neg, x, -1) || !aff_min(s, &neg, out) || *out == INT64_MIN)
        return false;
    *out = -*out;
    return true;
}

static bool aff_of(ctx *s, const expr *e, aff *out, int depth);

/* x / m (want_div) or x % m for m > 0, where x >= 0 everywhere (so C's
 * truncation is the floor). x = c * v + m * rest + k with k % m == 0 and
 * m % c == 0 splits v at m / c; with no such v the remainder is k's. */
static bool divmod(ctx *s, const aff *x, int64_t m, bool want_div, aff *out)
{
    int64_t least;
    if (!aff_min(s, x, &least) || least < 0)
        return fail(s, "a division or remainder of a value that may be negative");
    /* x = m * rest + part + k: where k % m == 0 and 0 <= part < m, the
     * quotient is rest + k / m and the remainder part. */
    aff part;
    memset(&part, 0, sizeof part);
    int var = -1, n_part = 0;
    for (int v = 0; v < NV; v++)
        if (x->c[v] % m != 0) {
            part.c[v] = x->c[v];
            var = v;
            n_part++;
        }
    memset(out, 0, sizeof *out);
    int64_t lo, hi;
    if (n_part == 0 ||
        (x->k % m == 0 && aff_min(s, &part, &lo) && lo >= 0 && aff_max(s, &part, &hi) && hi < m)) {
        if (!want_div) {
            *out = part;
            out->k = x->k % m;
            return true;
        }
        for (int v = 0; v < NV; v++)
            out->c[v] = part.c[v] ? 0 : x->c[v] / m;
        out->k = x->k / m;
        return true;
    }
    if (n_part > 1) {
        /* Digits of one number, as a flattened thread index is (16 * ty + tx
         * cut at 64): where the other indices of the part stay below the
         * largest coefficient, cutting that index alone leaves a part that
         * fits under m. */
        for (int v = 0; v < NV; v++)
            if (part.c[v] > part.c[var])
                var = v;
        aff rest = part;
        rest.c[var] = 0;
        if (!aff_min(s, &rest, &lo) || lo < 0 || !aff_max(s, &rest, &hi) || hi >= part.c[var])
            return fail(s, "a division or remainder that mixes two indices");
    }
    int64_t c = x->c[var];
    if (c < 0 || m % c != 0 || x->k % m != 0)
        return fail(s, "a division or remainder that does not cut an index into digits");
    int64_t digit = m / c;
    if (s->n_splits == MAX_SPLITS || s->no_split)
        return fail(s, "more divisions and remainders than gpulint follows");
    int used = 6 + ACCESS_MAX_LOOPS + 2 * s->n_splits;
    s->splits[s->n_splits++] = (split){.var = var, .r = used, .q = used + 1, .m = digit};
    s->restart = true;
    return false;
}

static bool aff_of_binary(ctx *s, const expr *e, aff *out, int depth)
{
    aff x, y;
    if (!aff_of(s, e->a, &x, depth + 1) || !aff_of(s, e->b, &y, depth + 1))
        return false;
    switch (e->op) {
    case OP_ADD:
    case OP_SUB:
        *out = x;
        return aff_add(out, &y, e->op == OP_ADD ? 1 : -1);
    case OP_MUL:
        if (aff_is_const(&x))
            return aff_add(out, &y, x.k);
        if (aff_is_const(&y))
            return aff_add(out, &x, y.k);
        break;
    case OP_SHL:
        if (aff_is_const(&y) && y.k >= 0 && y.k <= 62)
            return aff_add(out, &x, (int64_t)1 << y.k);
        break;
    case OP_DIV:
    case OP_MOD:
        if (aff_is_const(&y) && y.k > 0)
            return divmod(s, &x, y.k, e->op == OP_DIV, out);
        break;
    case OP_SHR:
        if (aff_is_const(&y) && y.k >= 0 && y.k <= 62)
            return divmod(s, &x, (int64_t)1 << y.k, true, out);
        break;
    case OP_AND: /* x & (2^n - 1) is x % 2^n */
        if (aff_is_const(&y) && y.k >= 0 && y.k < INT64_MAX && ((y.k + 1) & y.k) == 0)
            return divmod(s, &x, y.k + 1, false, out);
        if (aff_is_const(&y) && y.k > 0 && (y.k & (y.k - 1)) == 0) {
            /* x & 2^n, one bit (`tid & 2`): 2^n * (x / 2^n % 2). */
            aff q, bit;
            if (!divmod(s, &x, y.k, true, &q) || !divmod(s, &q, 2, false, &bit))
                return false;
            memset(out, 0, sizeof *out);
            return aff_add(out, &bit, y.k);
        }
        break;
    default:
        break;
    }
    return fail(s, "the index is not a sum of multiples of the thread, block and loop indices");
}

static bool aff_of(ctx *s, const expr *e, aff *out, int depth)
{
    memset(out, 0, sizeof *out);
    if (!e || depth > 200)
        return fail(s, "an expression is missing or too deep");
    switch (e->kind) {
    case EX_CONST:
        out->k = e->value;
        return true;
    case EX_SYM:
        if (e->builtin >= SYM_TID_X && e->builtin <= SYM_TID_Z) {
            expand(s, (int)(e->builtin - SYM_TID_X), 1, out, 0);
            return true;
        }
        if (e->builtin >= SYM_BID_X && e->builtin <= SYM_BID_Z) {
            expand(s, 3 + (int)(e->builtin - SYM_BID_X), 1, out, 0);
            return true;
        }
        if (e->builtin == SYM_NAMED && e->name) {
            /* The innermost loop of that name whose counter is set. */
            for (int i = s->n_ready - 1; i >= 0; i--)
                if (s->a->loops[i].var && strcmp(s->a->loops[i].var, e->name) == 0) {
                    *out = s->loopv[i];
                    return true;
                }
        }
        return fail(s, "an index reads a value that is not known here");
    case EX_UNARY:
        if (e->op == OP_NEG && aff_of(s, e->a, out, depth + 1)) {
            aff z;
            memset(&z, 0, sizeof z);
            bool ok = aff_add(&z, out, -1);
            *out = z;
            return ok;
        }
        break;
    case EX_BINARY:
        return aff_of_binary(s, e, out, depth);
    default:
        break;
    }
    return fail(s, "the index is not a sum of multiples of the thread, block and loop indices");
}

/* ---- conditions: constraints >= 0, in disjuncts ---- */

static bool add_con(box *b, const aff *x)
{
    if (aff_is_const(x)) {
        if (x->k < 0)
            b->empty = true;
        return true;
    }
    if (b->n_cons >= MAX_CONS)
        return false;
    b->cons[b->n_cons++] = *x;
    return true;
}

/* l - r + bias as a form. */
static bool difference(ctx *s, const expr *l, const expr *r, int64_t bias, aff *out)
{
    aff x, y;
    if (!aff_of(s, l, &x, 0) || !aff_of(s, r, &y, 0))
        return false;
    memset(out, 0, sizeof *out);
    return aff_add(out, &x, 1) && aff_add(out, &y, -1) &&
           !__builtin_add_overflow(out->k, bias, &out->k);
}

/* l op r as one or two forms >= 0 (both must hold); false for != . */
static bool comparison(ctx *s, expr_op op, const expr *l, const expr *r, aff f[2], int *n)
{
    *n = 1;
    switch (op) {
    case OP_LT:
        return difference(s, r, l, -1, &f[0]);
    case OP_LE:
        return difference(s, r, l, 0, &f[0]);
    case OP_GT:
        return difference(s, l, r, -1, &f[0]);
    case OP_GE:
        return difference(s, l, r, 0, &f[0]);
    case OP_EQ:
        *n = 2;
        return difference(s, r, l, 0, &f[0]) && difference(s, l, r, 0, &f[1]);
    default:
        return fail(s, "a condition is not a comparison");
    }
}

static expr_op negated(expr_op op)
{
    switch (op) {
    case OP_LT:
        return OP_GE;
    case OP_LE:
        return OP_GT;
    case OP_GT:
        return OP_LE;
    case OP_GE:
        return OP_LT;
    case OP_EQ:
        return OP_NE;
    default:
        return OP_EQ; /* of OP_NE */
    }
}

static bool add_all(ctx *s, boxes *bs, const aff *f, int n)
{
    for (int i = 0; i < bs->n; i++)
        for (int j = 0; j < n; j++)
            if (!add_con(&bs->b[i], &f[j]))
                return fail(s, "more conditions than gpulint follows");
    return true;
}

static bool dnf(ctx *s, boxes *bs, const expr *e, bool pos, int depth);

/* Either of a and b (as pos says): the boxes where a holds, then those
 * where b does. Overlaps are harmless: images are unioned. Every boxes
 * array holds AFFBOX_MAX_BOXES. */
static bool either(ctx *s, boxes *bs, const expr *a, const expr *b, bool pos, int depth)
{
    boxes second = {xcalloc(AFFBOX_MAX_BOXES, sizeof(box)), bs->n};
    memcpy(second.b, bs->b, (size_t)bs->n * sizeof *bs->b);
    bool ok = dnf(s, bs, a, pos, depth + 1) && dnf(s, &second, b, pos, depth + 1);
    if (ok && bs->n + second.n > AFFBOX_MAX_BOXES)
        ok = fail(s, "a condition with more alternatives than gpulint follows");
    if (ok) {
        memcpy(bs->b + bs->n, second.b, (size_t)second.n * sizeof *bs->b);
        bs->n += second.n;
    }
    free(second.b);
    return ok;
}

/* A name in e that is neither a loop's counter nor bound: a size the
 * launch leaves without a value. */
static bool unbound_name(const ctx *s, const expr *e)
{
    if (!e)
        return false;
    if (e->kind == EX_SYM && e->builtin == SYM_NAMED && e->name) {
        for (int i = 0; i < s->a->n_loops; i++)
            if (s->a->loops[i].var && !strcmp(s->a->loops[i].var, e->name))
                return false;
        return true;
    }
    return unbound_name(s, e->a) || unbound_name(s, e->b) || unbound_name(s, e->c);
}

/* c ? x : y that is min(x, y) or max(x, y) written as a choice (a MIN
 * macro's `(X) < (Y) ? (X) : (Y)`): OP_MIN or OP_MAX; else OP_NEG. */
static expr_op choice_minmax(const expr *k)
{
    const expr *c = k->a;
    if (!c || c->kind != EX_BINARY || c->op < OP_LT || c->op > OP_GE)
        return OP_NEG;
    bool less = c->op == OP_LT || c->op == OP_LE;
    if (expr_equal(c->a, k->b) && expr_equal(c->b, k->c))
        return less ? OP_MIN : OP_MAX;
    if (expr_equal(c->a, k->c) && expr_equal(c->b, k->b))
        return less ? OP_MAX : OP_MIN;
    return OP_NEG;
}

static bool dnf(ctx *s, boxes *bs, const expr *e, bool pos, int depth)
{
    if (!e || depth > 64)
        return fail(s, "a condition is missing or too deep");
    if (e->kind == EX_CONST) {
        if ((e->value != 0) != pos)
            for (int i = 0; i < bs->n; i++)
                bs->b[i].empty = true;
        return true;
    }
    if (e->kind == EX_UNARY && e->op == OP_NOT)
        return dnf(s, bs, e->a, !pos, depth + 1);
    if (e->kind == EX_SYM || (e->kind == EX_BINARY && e->op >= OP_ADD && e->op <= OP_XOR &&
                              e->op != OP_OR && e->op != OP_XOR)) {
        /* An integer tested for itself (`if (threadIdx.x & 1)`): != 0. */
        expr zero = {.kind = EX_CONST, .value = 0};
        expr nonzero = {.kind = EX_BINARY, .op = OP_NE, .a = (expr *)e, .b = &zero};
        return dnf(s, bs, &nonzero, pos, depth + 1);
    }
    if (e->kind != EX_BINARY)
        return fail(s, "a condition around the access is not a comparison");
    if ((e->op == OP_LAND && pos) || (e->op == OP_LOR && !pos))
        return dnf(s, bs, e->a, pos, depth + 1) && dnf(s, bs, e->b, pos, depth + 1);
    if ((e->op == OP_LOR && pos) || (e->op == OP_LAND && !pos))
        return either(s, bs, e->a, e->b, pos, depth);
    if (e->op < OP_LT || e->op > OP_NE)
        return fail(s, "a condition around the access is not a comparison");
    if (e->a->kind == EX_COND || e->b->kind == EX_COND) {
        /* (c ? x : y) op r, a local set in one arm of an if and tested
         * after it (`int j = -1; if (p) j = i + h; if (j != -1)`): c and
         * x op r, or not c and y op r. */
        const expr *k = e->a->kind == EX_COND ? e->a : e->b;
        expr_op mm = e->op != OP_EQ && e->op != OP_NE ? choice_minmax(k) : OP_NEG;
        if (mm != OP_NEG) {
            /* An order comparison with a min or max keeps one box for a
             * loop's bound (`m < MIN(num, start + CHUNK)`), below. */
            expr m = {.kind = EX_BINARY, .op = mm, .a = k->b, .b = k->c};
            expr t = *e;
            if (k == e->a)
                t.a = &m;
            else
                t.b = &m;
            return dnf(s, bs, &t, pos, depth + 1);
        }
        expr tx = *e, ty = *e;
        if (k == e->a) {
            tx.a = k->b;
            ty.a = k->c;
        } else {
            tx.b = k->b;
            ty.b = k->c;
        }
        expr not_c = {.kind = EX_UNARY, .op = OP_NOT, .a = k->a};
        expr then = {.kind = EX_BINARY, .op = OP_LAND, .a = k->a, .b = &tx};
        expr other = {.kind = EX_BINARY, .op = OP_LAND, .a = &not_c, .b = &ty};
        expr d = {.kind = EX_BINARY, .op = OP_LOR, .a = &then, .b = &other};
        return dnf(s, bs, &d, pos, depth + 1);
    }
    expr_op op = pos ? e->op : negated(e->op);
    /* An order comparison with a value read from memory (`step <
     * lengths[b] - 1`) decides nothing gpulint can know: the cover takes
     * it as passing, every address it may guard. So does an equality with
     * an integer (`if (mask[i] == 0)`, a mask's test). Not an equality
     * with anything else: a value read equal to a float is the exception
     * a benchmark's anti-DCE store counts on (`if (v == -1.2345f) out[i] =
     * v;`; the literal is no integer to gpulint). */
    if (expr_first_unknown(e->a) || expr_first_unknown(e->b)) {
        bool integer_test = e->a->kind == EX_CONST || e->b->kind == EX_CONST;
        if (s->cover && s->in_guard && (op != OP_EQ || integer_test))
            return true;
        return fail(s, "a condition around it compares a value read from memory");
    }
    /* A check against a size with no value (`if (s1 == 0)`, s1 a method's
     * result nothing binds): the cover takes it as passing, as the counts
     * do ("checks against sizes with no value counted as passing"). */
    if (s->in_guard && (unbound_name(s, e->a) || unbound_name(s, e->b)))
        return s->cover || fail(s, "a condition around it reads a size with no value");
    if (op != OP_EQ && op != OP_NE) {
        /* A bound through min or max (`t < min(n - i, TILE)`, a tile's
         * count of valid items): l < min(b, c) is l < b and l < c;
         * l < max(b, c) is either; the reverse for >, and for min or max
         * on the left. */
        bool less = op == OP_LT || op == OP_LE;
        const expr *m = NULL;
        bool right = false;
        if (e->b->kind == EX_BINARY && (e->b->op == OP_MIN || e->b->op == OP_MAX)) {
            m = e->b;
            right = true;
        } else if (e->a->kind == EX_BINARY && (e->a->op == OP_MIN || e->a->op == OP_MAX)) {
            m = e->a;
        }
        if (m) {
            expr x = *e, y = *e;
            x.op = y.op = op;
            if (right) {
                x.b = m->a;
                y.b = m->b;
            } else {
                x.a = m->a;
                y.a = m->b;
            }
            /* Both must hold where the bound is the smaller one on the
             * far side of the comparison, or the larger on the near. */
            bool both = (m->op == OP_MIN) == (less == right);
            if (both)
                return dnf(s, bs, &x, true, depth + 1) && dnf(s, bs, &y, true, depth + 1);
            return either(s, bs, &x, &y, true, depth);
        }
    }
    if (op == OP_NE) {
        /* l != r: l < r or l > r. */
        expr lt = *e, gt = *e;
        lt.op = OP_LT;
        gt.op = OP_GT;
        return either(s, bs, &lt, &gt, true, depth);
    }
    aff f[2];
    int n;
    return comparison(s, op, e->a, e->b, f, &n) && add_all(s, bs, f, n);
}

/* ---- loops ---- */

/* Whether slot v is index j or one of its digits. */
static bool from_index(const ctx *s, int v, int j)
{
    for (int depth = 0; depth < 2 * MAX_SPLITS && v != j; depth++) {
        int parent = -1;
        for (int i = 0; i < s->n_splits; i++)
            if (s->splits[i].r == v || s->splits[i].q == v)
                parent = s->splits[i].var;
        if (parent < 0)
            return false;
        v = parent;
    }
    return v == j;
}

/* Counter = init + step * j, its condition true on a prefix of j. */
static bool add_loop(ctx *s, box *b, int i)
{
    const loop_ctx *l = &s->a->loops[i];
    if (!l->var || !l->init || !l->cond)
        return fail(s, "a loop around it is not a counted loop");
    if (l->leaves_early)
        return fail(s, "a loop around it can break or return early");
    int j = 6 + i;
    aff unit, next, init;
    memset(&unit, 0, sizeof unit);
    expand(s, j, 1, &unit, 0);
    s->loopv[i] = unit; /* the counter itself, to read the step */
    s->n_ready = i + 1;
    /* Probe the step without asking for splits or keeping a reason. */
    s->no_split = true;
    const char *why = s->why;
    bool additive = l->next && aff_of(s, l->next, &next, 0) && aff_add(&next, &unit, -1);
    int64_t step = additive ? next.k : 0;
    next.k = 0;
    additive = additive && aff_is_const(&next) && step != 0;
    s->no_split = false;
    s->why = why;
    s->n_ready = i;
    if (!aff_of(s, l->init, &init, 0))
        return false;
    s->loopv[i] = init;
    if (!additive) {
        /* stride *= 2, s >>= 1: the first iteration only, where it runs. */
        s->partial = true;
        s->partial_why = FIRST_ITERATION_ONLY;
        s->hi0[j] = b->hi[j] = 1;
        s->n_ready = i + 1;
        boxes one = {b, 1};
        if (!dnf(s, &one, l->cond, true, 0))
            return false;
        return one.n == 1 || fail(s, "a loop's condition has alternatives (||)");
    }
    if (!aff_add(&s->loopv[i], &unit, step))
        return fail(s, "a loop's counter overflows 64 bits");
    s->n_ready = i + 1;
    int first = b->n_cons;
    boxes one = {b, 1}; /* b is the first of AFFBOX_MAX_BOXES */
    if (!dnf(s, &one, l->cond, true, 0))
        return false;
    if (one.n != 1)
        return fail(s, "a loop's condition has alternatives (||)");
    if (b->n_cons == first && !b->empty)
        return fail(s, "a loop's condition does not bound its counter");
    /* Each conjunct must stop holding as j grows (or not depend on j). */
    for (int c = first; c < b->n_cons; c++)
        for (int v = 0; v < NV; v++)
            if (b->cons[c].c[v] > 0 && from_index(s, v, j))
                return fail(s, "a loop's condition does not end the loop as its counter steps");
    return true;
}

/* ---- boxes ---- */

/* hi's coefficient is range(lo) times lo's in every form: the two are
 * digits of one mixed-radix index. */
static bool mergeable(const box *b, int lo, int hi, int64_t range)
{
    bool used = false;
    for (int f = -1; f < b->n_cons; f++) {
        const aff *x = f < 0 ? &b->off : &b->cons[f];
        int64_t want;
        if (__builtin_mul_overflow(x->c[lo], range, &want) || x->c[hi] != want)
            return false;
        used |= x->c[lo] != 0;
    }
    return used;
}

static void merge_all(box *b)
{
    bool again = true;
    while (again) {
        again = false;
        for (int lo = 0; lo < NV && !again; lo++) {
            if (b->lo[lo] != 0 || b->hi[lo] == INF || b->hi[lo] <= 1)
                continue;
            int64_t range = b->hi[lo];
            for (int hi = 0; hi < NV; hi++) {
                if (hi == lo || b->hi[hi] <= b->lo[hi] || !mergeable(b, lo, hi, range))
                    continue;
                int64_t nlo, nhi = INF;
                if (__builtin_mul_overflow(b->lo[hi], range, &nlo) ||
                    (b->hi[hi] != INF && __builtin_mul_overflow(b->hi[hi], range, &nhi)))
                    continue;
                b->lo[lo] = nlo;
                b->hi[lo] = nhi;
                b->lo[hi] = 0;
                b->hi[hi] = 1;
                b->off.c[hi] = 0;
                for (int c = 0; c < b->n_cons; c++)
                    b->cons[c].c[hi] = 0;
                again = true;
                break;
            }
        }
    }
}

static int64_t abs64(int64_t a) /* a > INT64_MIN */
{
    return a < 0 ? -a : a;
}

static int64_t floor_div(int64_t a, int64_t b) /* b > 0 */
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* The form's least and greatest values on the box; false when unbounded
 * or too large. */
static bool extremes(const box *b, const aff *x, int64_t *least, int64_t *most)
{
    *least = *most = x->k;
    for (int v = 0; v < NV; v++) {
        if (!x->c[v])
            continue;
        if (b->hi[v] == INF)
            return false;
        int64_t p, q;
        if (__builtin_mul_overflow(x->c[v], b->lo[v], &p) ||
            __builtin_mul_overflow(x->c[v], b->hi[v] - 1, &q))
            return false;
        if (__builtin_add_overflow(*least, p < q ? p : q, least) ||
            __builtin_add_overflow(*most, p < q ? q : p, most))
            return false;
    }
    return true;
}

/* A constraint on one index narrows it. */
static bool clip_one(box *b, const aff *x, int var)
{
    int64_t k = x->k, a = x->c[var];
    for (int v = 0; v < NV; v++) {
        int64_t t;
        /* Other indices have one value here. */
        if (v != var && x->c[v] &&
            (__builtin_mul_overflow(x->c[v], b->lo[v], &t) || __builtin_add_overflow(k, t, &k)))
            return false;
    }
    if (a > 0) {
        if (k == INT64_MIN)
            return false;
        int64_t m = -floor_div(k, a); /* a * v + k >= 0: v >= ceil(-k / a) */
        if (m > b->lo[var])
            b->lo[var] = m;
    } else {
        if (a == INT64_MIN)
            return false;
        int64_t m = floor_div(k, -a); /* v <= k / -a */
        if (m < INT64_MAX - 1 && m + 1 < b->hi[var])
            b->hi[var] = m + 1;
    }
    if (b->hi[var] <= b->lo[var])
        b->empty = true;
    return true;
}

/* Each index's bound under x >= 0 with the others anywhere in the box:
 * c * v + rest >= 0 needs c * v + max(rest) >= 0. */
static bool relax(box *b, const aff *x)
{
    for (int var = 0; var < NV && !b->empty; var++) {
        if (!x->c[var])
            continue;
        aff rest = *x, one = {0};
        rest.c[var] = 0;
        int64_t least, most;
        if (!extremes(b, &rest, &least, &most))
            continue;
        one.c[var] = x->c[var];
        one.k = most;
        if (!clip_one(b, &one, var))
            return false;
    }
    return true;
}

static int free_indices(const box *b, const aff *x, int *var)
{
    int n = 0;
    for (int v = 0; v < NV; v++)
        if (x->c[v] && b->hi[v] - b->lo[v] != 1) {
            *var = v;
            n++;
        }
    return n;
}

/* Single-index constraints narrow their index (until nothing changes);
 * then every other one must hold on the whole box, or fail on all of it,
 * or be cut into boxes (*cut: its index; -1 when none). */
static bool clip_all(ctx *s, box *b, int *cut)
{
    *cut = -1;
    for (int pass = 0; pass <= b->n_cons && !b->empty; pass++) {
        bool changed = false;
        for (int c = 0; c < b->n_cons && !b->empty; c++) {
            int var = -1;
            if (free_indices(b, &b->cons[c], &var) != 1)
                continue;
            int64_t lo = b->lo[var], hi = b->hi[var];
            if (!clip_one(b, &b->cons[c], var))
                return fail(s, "a condition's bound overflows 64 bits");
            changed |= lo != b->lo[var] || hi != b->hi[var];
        }
        if (!changed)
            break;
    }
    for (int c = 0; c < b->n_cons && !b->empty; c++) {
        int var = -1;
        if (free_indices(b, &b->cons[c], &var) == 1)
            continue;
        int64_t least, most;
        bool bounded = extremes(b, &b->cons[c], &least, &most);
        if (bounded && most < 0) {
            b->empty = true;
        } else if (!bounded || least < 0) {
            *cut = c;
            return true;
        }
    }
    return true;
}

/* A constraint sum a_v * x_v <= k (or >= k), all a_v of one sign, by its
 * largest term A * x_T: the rest L lies in [Lmin, Lmax]. Rows of x_T where
 * the constraint holds for every L are one box without it; rows where it
 * holds for none are dropped; where Lmax - Lmin < A at most one row is in
 * between, and it keeps the constraint on the other indices (cut again if
 * need be). blockIdx.x * 512 + threadIdx.x + 2^20 * j < 2^24 (a grid-
 * stride loop over two elements per thread) is j < 16; a tile smaller than
 * the block cuts its row digit once. Returns the boxes written to out (at
 * most 2), -1 when the constraint is not of this form. */
static int cut_top(const box *b, int ci, box *out)
{
    const aff *x = &b->cons[ci];
    int top = -1, sign = 0;
    for (int v = 0; v < NV; v++) {
        if (!x->c[v] || b->hi[v] - b->lo[v] == 1)
            continue;
        int sv = x->c[v] > 0 ? 1 : -1;
        if ((sign && sv != sign) || x->c[v] == INT64_MIN)
            return -1;
        sign = sv;
        if (top < 0 || abs64(x->c[v]) > abs64(x->c[top]))
            top = v;
    }
    if (top < 0)
        return -1;
    /* The form is A * x_T + L + k >= 0 with A = c_T; L's extremes: */
    aff rest = *x;
    rest.c[top] = 0;
    int64_t lmin, lmax, a = x->c[top];
    if (!extremes(b, &rest, &lmin, &lmax) || lmax - lmin >= abs64(a))
        return -1;
    /* Holds for all of L: a * x_T >= -lmin (a > 0) or x_T <= lmin / -a;
     * for none: a * x_T < -lmax, or x_T > lmax / -a. */
    int64_t all_lo = INT64_MIN, all_hi = INT64_MAX, part;
    if (a > 0) {
        if (lmin == INT64_MIN)
            return -1;
        all_lo = -floor_div(lmin, a); /* ceil(-lmin / a) */
        part = all_lo - 1;            /* the one row where some L holds */
        int64_t t;
        if (__builtin_mul_overflow(a, part, &t) || __builtin_add_overflow(t, lmax, &t) || t < 0)
            part = INT64_MIN;
    } else {
        all_hi = floor_div(lmin, -a);
        if (all_hi == INT64_MAX)
            return -1;
        part = all_hi + 1;
        int64_t t;
        if (__builtin_mul_overflow(a, part, &t) || __builtin_add_overflow(t, lmax, &t) || t < 0)
            part = INT64_MIN;
    }
    int made = 0;
    box *o = &out[made];
    *o = *b;
    o->cons[ci] = o->cons[--o->n_cons];
    if (all_lo > o->lo[top])
        o->lo[top] = all_lo;
    if (all_hi != INT64_MAX && all_hi + 1 < o->hi[top])
        o->hi[top] = all_hi + 1;
    made += o->lo[top] < o->hi[top];
    if (part != INT64_MIN && part >= b->lo[top] && part < b->hi[top]) {
        o = &out[made];
        *o = *b;
        o->lo[top] = part;
        o->hi[top] = part + 1;
        made++;
    }
    return made;
}

/* A constraint sum a_v * x_v >= -k that cut_top cannot cut (k <= j over a
 * square: a triangle) by bands of the index y whose term spans least: in
 * each band, y's term is taken at the band's end where it is least (a
 * subset: the rows that hold for every y of the band) or, for the cover,
 * where it is greatest (a superset), which leaves a constraint on one
 * index fewer. A band is off by its width times a_y, so the narrowest
 * term keeps both close (a halo's tap j beside a bounds check on
 * blockIdx.x * B + threadIdx.x: j's bands leave a check cut_top cuts in
 * two). Returns the boxes written to out (room / 2 at most, each band
 * leaving room to be cut once), -1 when fewer than two fit. */
static int band_cut(const box *b, int ci, bool outer, int room, box *out)
{
    const aff *x = &b->cons[ci];
    int y = -1;
    int64_t span_y = 0;
    for (int v = 0; v < NV; v++) {
        int64_t span;
        if (!x->c[v] || x->c[v] == INT64_MIN || b->hi[v] == INF || b->hi[v] - b->lo[v] < 2 ||
            __builtin_mul_overflow(abs64(x->c[v]), b->hi[v] - b->lo[v] - 1, &span))
            continue;
        if (y < 0 || span < span_y) {
            y = v;
            span_y = span;
        }
    }
    int64_t range = y < 0 ? 0 : b->hi[y] - b->lo[y];
    int bands = (int)(range < MAX_BANDS ? range : MAX_BANDS);
    if (bands > room / 2)
        bands = room / 2;
    if (bands < 2)
        return -1;
    /* floor(range * t / bands), without the product: */
    int64_t q = range / bands, r = range % bands;
    int made = 0;
    for (int t = 0; t < bands; t++) {
        int64_t y0 = b->lo[y] + q * t + r * t / bands,
                y1 = b->lo[y] + q * (t + 1) + r * (t + 1) / bands;
        int64_t least = x->c[y] > 0 ? y0 : y1 - 1, most = x->c[y] > 0 ? y1 - 1 : y0, term;
        box *o = &out[made];
        *o = *b;
        o->lo[y] = y0;
        o->hi[y] = y1;
        aff *c = &o->cons[ci];
        if (__builtin_mul_overflow(x->c[y], outer ? most : least, &term) ||
            __builtin_add_overflow(c->k, term, &c->k))
            return -1;
        c->c[y] = 0;
        made++;
    }
    return made;
}

static bool image_of(const box *b, int width, affbox_image *im)
{
    memset(im, 0, sizeof *im);
    int64_t base = b->off.k, span = 0;
    for (int v = 0; v < NV; v++) {
        int64_t c = b->off.c[v], n = b->hi[v] - b->lo[v];
        if (!c || n <= 0)
            continue;
        if (b->hi[v] == INF)
            return false;
        int64_t at = c > 0 ? b->lo[v] : b->hi[v] - 1, t, ac = c > 0 ? c : -c;
        if (__builtin_mul_overflow(c, at, &t) || __builtin_add_overflow(base, t, &base))
            return false;
        if (n > 1) {
            if (__builtin_mul_overflow(ac, n - 1, &t) || __builtin_add_overflow(span, t, &span))
                return false;
            im->coef[im->n] = ac;
            im->count[im->n++] = n;
        }
    }
    im->base = base;
    im->width = width;
    return !__builtin_add_overflow(span, (int64_t)width, &im->span);
}

/* One attempt with the splits known so far; s->restart when it asks for
 * another. */
static bool attempt(ctx *s, const int64_t grid[3], const int64_t block[3], boxes *bs)
{
    s->restart = false;
    s->partial = false;
    s->partial_why = NULL;
    s->why = NULL;
    s->n_ready = 0;
    init_ranges(s, grid, block);
    box *b = &bs->b[0];
    memset(b, 0, sizeof *b);
    memcpy(b->lo, s->lo0, sizeof b->lo);
    memcpy(b->hi, s->hi0, sizeof b->hi);
    bs->n = 1;
    /* A digit that does not divide its index's range (ij / 7, ij % 7 of
     * 64 threads) leaves its top digit's last row short: 7 * q + r < 64. */
    for (int i = 0; i < s->n_splits; i++) {
        int64_t range = s->split_range[i];
        if (range == INF || range % s->splits[i].m == 0)
            continue;
        if (b->n_cons == MAX_CONS)
            return fail(s, "more conditions than gpulint follows");
        aff *c = &b->cons[b->n_cons++];
        memset(c, 0, sizeof *c);
        expand(s, s->splits[i].var, -1, c, 0);
        c->k = range - 1;
    }
    for (int i = 0; i < s->a->n_loops; i++)
        if (!add_loop(s, b, i))
            return false;
    s->in_guard = true;
    bool guarded = !s->a->guard || dnf(s, bs, s->a->guard, true, 0);
    s->in_guard = false;
    if (!guarded)
        return false;
    aff off;
    if (!aff_of(s, s->a->byte_offset, &off, 0))
        return false;
    for (int i = 0; i < bs->n; i++)
        bs->b[i].off = off;
    return true;
}

static bool images_of(const mem_access *a, const int64_t grid[3], const int64_t block[3],
                      bool cover, affbox_image out[AFFBOX_MAX_BOXES], int *n, bool *partial,
                      const char **why)
{
    *n = 0;
    *partial = false;
    *why = NULL;
    if (a->width <= 0) {
        *why = "its width is not known";
        return false;
    }
    ctx s;
    memset(&s, 0, sizeof s);
    s.a = a;
    s.cover = cover;
    boxes bs = {xcalloc(AFFBOX_MAX_BOXES, sizeof(box)), 0};
    bool ok = false;
    for (int tries = 0; tries <= MAX_SPLITS; tries++) {
        ok = attempt(&s, grid, block, &bs);
        if (!s.restart)
            break;
    }
    /* bs.b holds AFFBOX_MAX_BOXES; cut constraints add boxes at its end. */
    for (int i = 0; ok && i < bs.n; i++) {
        box *b = &bs.b[i];
        if (b->empty)
            continue;
        merge_all(b);
        int cut;
        if (!clip_all(&s, b, &cut)) {
            ok = false;
            break;
        }
        if (cut >= 0) {
            int made = bs.n + 2 <= AFFBOX_MAX_BOXES ? cut_top(b, cut, bs.b + bs.n) : -1;
            if (made < 0) {
                /* Each index's own bound under the condition drops no
                 * point of it (tid < bid with bid < 2 is tid 0, bid 1);
                 * what is left is cut in bands. */
                int64_t lo[NV], hi[NV];
                memcpy(lo, b->lo, sizeof lo);
                memcpy(hi, b->hi, sizeof hi);
                if (!relax(b, &b->cons[cut])) {
                    ok = fail(&s, "a condition's bound overflows 64 bits");
                    break;
                }
                if (b->empty || memcmp(lo, b->lo, sizeof lo) || memcmp(hi, b->hi, sizeof hi)) {
                    i--;
                    continue;
                }
                made = band_cut(b, cut, s.cover, AFFBOX_MAX_BOXES - bs.n, bs.b + bs.n);
                if (made > 0 && !s.cover && !s.partial) {
                    s.partial = true;
                    s.partial_why = AFFBOX_BANDED;
                }
            }
            if (made < 0 && s.cover) {
                /* The box that the condition's bound on each index alone
                 * leaves holds every point of it (j2 > j1 over a square
                 * holds the triangle). */
                if (!relax(b, &b->cons[cut])) {
                    ok = fail(&s, "a condition's bound overflows 64 bits");
                    break;
                }
                b->cons[cut] = b->cons[--b->n_cons];
                i--;
                continue;
            }
            if (made < 0)
                ok = fail(&s, bs.n == AFFBOX_MAX_BOXES
                                  ? "a condition with more alternatives than gpulint follows"
                                  : "a condition around it bounds two indices at once");
            bs.n += made > 0 ? made : 0;
            continue;
        }
        if (b->empty)
            continue;
        for (int v = 0; v < NV; v++)
            if (b->off.c[v] && b->hi[v] == INF) {
                ok = fail(&s, "a loop around it has no bound gpulint can read");
                break;
            }
        if (ok && *n == AFFBOX_MAX_BOXES)
            ok = fail(&s, "a condition with more alternatives than gpulint follows");
        if (ok && !image_of(b, a->width, &out[*n]))
            ok = fail(&s, "its addresses overflow 64 bits");
        if (ok)
            (*n)++;
    }
    free(bs.b);
    *partial = ok && s.partial;
    if (*partial)
        *why = s.partial_why ? s.partial_why : FIRST_ITERATION_ONLY;
    if (!ok) {
        *n = 0;
        *why = s.why ? s.why : "it is not in a form gpulint follows";
    }
    return ok;
}

/* ---- loops whose step multiplies or shifts ---- */

/* A loop that can be followed by its counter alone (all four parts, no
 * early exit), with env the names to evaluate it in. */
static bool loop_env(const loop_ctx *l, const expr_env *names, expr_env *env)
{
    if (!l->var || !l->init || !l->cond || !l->next || l->leaves_early)
        return false;
    if (names)
        *env = *names;
    else
        expr_env_init(env);
    return true;
}

int affbox_loop_values(const loop_ctx *l, const expr_env *names, int64_t *values, int max)
{
    expr_env env;
    if (!loop_env(l, names, &env))
        return 0;
    int64_t v;
    const char *why;
    if (expr_eval(l->init, &env, &v, &why) != EXPR_OK)
        return 0;
    for (int n = 0; n <= max; n++) {
        int64_t go, next;
        if (!expr_env_set(&env, l->var, v) || expr_eval(l->cond, &env, &go, &why) != EXPR_OK)
            return 0;
        if (!go)
            return n;
        if (n == max || expr_eval(l->next, &env, &next, &why) != EXPR_OK || next == v)
            return 0;
        if (values)
            values[n] = v;
        v = next;
    }
    return 0;
}

/* The bound of a loop condition "var OP bound" (bound free of var), with
 * *op as if var were on the left; NULL for any other condition. */
static const expr *counter_bound(const loop_ctx *l, expr_op *op)
{
    const expr *c = l->cond;
    if (c->kind != EX_BINARY || c->op < OP_LT || c->op > OP_GE)
        return NULL;
    bool left = c->a->kind == EX_SYM && c->a->name && strcmp(c->a->name, l->var) == 0;
    bool right = c->b->kind == EX_SYM && c->b->name && strcmp(c->b->name, l->var) == 0;
    if (left == right || expr_uses_name(left ? c->b : c->a, l->var))
        return NULL;
    /* n > i is i < n: the counter on the left. */
    static const expr_op flipped[] = {
        [OP_LT] = OP_GT, [OP_LE] = OP_GE, [OP_GT] = OP_LT, [OP_GE] = OP_LE};
    *op = left ? c->op : flipped[c->op];
    return left ? c->b : c->a;
}

int64_t affbox_loop_trips(const loop_ctx *l, const expr_env *names, int64_t max)
{
    expr_env env;
    if (!loop_env(l, names, &env))
        return 0;
    expr_op op;
    const expr *bound_e = counter_bound(l, &op);
    int64_t v0, v1, v2, bound;
    const char *why;
    /* A step is additive when next(i) - i is the same at i = v0 and v1
     * and next names no other counter (an outer one would differ). */
    if (bound_e && expr_eval(bound_e, &env, &bound, &why) == EXPR_OK &&
        expr_eval(l->init, &env, &v0, &why) == EXPR_OK && expr_env_set(&env, l->var, v0) &&
        expr_eval(l->next, &env, &v1, &why) == EXPR_OK && expr_env_set(&env, l->var, v1) &&
        expr_eval(l->next, &env, &v2, &why) == EXPR_OK && v1 - v0 == v2 - v1 && v1 != v0 &&
        (l->next->kind == EX_BINARY && (l->next->op == OP_ADD || l->next->op == OP_SUB))) {
        int64_t d = v1 - v0, trips = -1;
        /* i < n upwards: ceil((n - v0) / d); i <= n: floor((n - v0) / d) + 1. */
        if (d > 0 && (op == OP_LT || op == OP_LE)) {
            int64_t span = bound - v0 + (op == OP_LE);
            trips = span <= 0 ? 0 : (span + d - 1) / d;
        } else if (d < 0 && (op == OP_GT || op == OP_GE)) {
            int64_t span = v0 - bound + (op == OP_GE);
            trips = span <= 0 ? 0 : (span - d - 1) / -d;
        }
        if (trips >= 0)
            return trips <= max ? trips : 0;
    }
    return affbox_loop_values(l, names, NULL, max > INT32_MAX - 1 ? INT32_MAX - 1 : (int)max);
}

/* The site in the iteration where loop i's counter is value: the loop
 * left out, its counter a constant in everything inside it. */
static void fix_counter(const mem_access *a, int i, int64_t value, mem_access *out)
{
    expr_env env;
    expr_env_init(&env);
    expr_env_set(&env, a->loops[i].var, value);
    access_bind(a, &env, out);
    access_drop_loop(out, i);
}

/* The first loop that is not additive, whose values can be listed. */
static int listable_loop(const mem_access *a, int64_t *values, int max, int *n_values)
{
    for (int i = 0; i < a->n_loops; i++) {
        const loop_ctx *l = &a->loops[i];
        if (!l->var || !l->next)
            continue;
        /* Additive steps are followed in full already: a step that is the
         * same at two values is taken as one. */
        expr_env env;
        expr_env_init(&env);
        int64_t n1, n2;
        const char *why;
        bool eval1 =
            expr_env_set(&env, l->var, 1) && expr_eval(l->next, &env, &n1, &why) == EXPR_OK;
        bool eval2 =
            expr_env_set(&env, l->var, 7) && expr_eval(l->next, &env, &n2, &why) == EXPR_OK;
        if (eval1 && eval2 && n1 - 1 == n2 - 7)
            continue;
        *n_values = affbox_loop_values(l, NULL, values, max);
        return *n_values > 0 ? i : -1;
    }
    return -1;
}

bool affbox_cover(const mem_access *a, const int64_t grid[3], const int64_t block[3],
                  affbox_image out[AFFBOX_MAX_BOXES], int *n, bool *partial, const char **why)
{
    return images_of(a, grid, block, true, out, n, partial, why);
}

/* The first c ? x : y an offset adds or scales (not one inside another's
 * condition), NULL when none. */
static const expr *cond_in(const expr *e)
{
    if (!e)
        return NULL;
    if (e->kind == EX_COND)
        return e;
    if (e->kind != EX_UNARY && e->kind != EX_BINARY)
        return NULL;
    const expr *k = cond_in(e->a);
    return k ? k : e->kind == EX_BINARY ? cond_in(e->b) : NULL;
}

/* How many such choices an offset makes: each doubles the sites taken. */
#define MAX_ARM_CONDS 4
static int conds_in(const expr *e)
{
    if (!e || (e->kind != EX_COND && e->kind != EX_UNARY && e->kind != EX_BINARY))
        return 0;
    if (e->kind == EX_COND)
        return 1 + conds_in(e->b) + conds_in(e->c);
    return conds_in(e->a) + (e->kind == EX_BINARY ? conds_in(e->b) : 0);
}

/* e with the node k (c ? x : y) replaced by x, or by y. */
static expr *take_arm(const expr *e, const expr *k, bool then)
{
    if (e == k)
        return expr_clone(then ? k->b : k->c);
    if (e->kind == EX_UNARY)
        return expr_unary(e->op, take_arm(e->a, k, then));
    if (e->kind == EX_BINARY)
        return expr_binary(e->op, take_arm(e->a, k, then), take_arm(e->b, k, then));
    return expr_clone(e);
}

/* An offset that is x where c holds and y where not (`a[j]` after `j =
 * -1; if (p) j = i + h;`): the images of each arm under its condition. */
static bool arm_images(const mem_access *a, const expr *k, const int64_t grid[3],
                       const int64_t block[3], affbox_image out[AFFBOX_MAX_BOXES], int *n,
                       bool *partial, const char **why)
{
    affbox_image *all = xcalloc(AFFBOX_MAX_BOXES, sizeof *all);
    int n_all = 0;
    bool ok = true, part = false;
    const char *part_why = NULL;
    for (int arm = 1; arm >= 0 && ok; arm--) {
        mem_access b = *a;
        b.byte_offset = take_arm(a->byte_offset, k, arm);
        expr *when = arm ? expr_clone(k->a) : expr_unary(OP_NOT, expr_clone(k->a));
        b.guard = a->guard ? expr_binary(OP_LAND, expr_clone(a->guard), when) : when;
        affbox_image ims[AFFBOX_MAX_BOXES];
        int m = 0;
        bool p = false;
        ok = affbox_images(&b, grid, block, ims, &m, &p, why) && n_all + m <= AFFBOX_MAX_BOXES;
        if (!ok && n_all + m > AFFBOX_MAX_BOXES)
            *why = "a condition with more alternatives than gpulint follows";
        for (int j = 0; ok && j < m; j++)
            all[n_all++] = ims[j];
        if (ok && p && !part_why)
            part_why = *why;
        part = part || p;
        expr_free(b.byte_offset);
        expr_free(b.guard);
    }
    if (ok) {
        memcpy(out, all, (size_t)n_all * sizeof *all);
        *n = n_all;
        *partial = part;
        *why = part_why;
    }
    free(all);
    return ok;
}

static bool holds_minmax(const expr *e)
{
    if (!e || (e->kind != EX_COND && e->kind != EX_UNARY && e->kind != EX_BINARY))
        return false;
    if (e->kind == EX_BINARY && (e->op == OP_MIN || e->op == OP_MAX))
        return true;
    return holds_minmax(e->a) || holds_minmax(e->b) || holds_minmax(e->c);
}

/* min(a, b) as the choice a <= b ? a : b, max(a, b) as a >= b ? a : b. */
static expr *minmax_as_choice(const expr *e)
{
    if (e->kind == EX_UNARY)
        return expr_unary(e->op, minmax_as_choice(e->a));
    if (e->kind == EX_COND)
        return expr_cond(expr_clone(e->a), minmax_as_choice(e->b), minmax_as_choice(e->c));
    if (e->kind != EX_BINARY)
        return expr_clone(e);
    expr *x = minmax_as_choice(e->a), *y = minmax_as_choice(e->b);
    if (e->op != OP_MIN && e->op != OP_MAX)
        return expr_binary(e->op, x, y);
    expr *when = expr_binary(e->op == OP_MIN ? OP_LE : OP_GE, expr_clone(x), expr_clone(y));
    return expr_cond(when, x, y);
}

bool affbox_images(const mem_access *a, const int64_t grid[3], const int64_t block[3],
                   affbox_image out[AFFBOX_MAX_BOXES], int *n, bool *partial, const char **why)
{
    /* A clamped index (`x[min(n - 1, i + 4)]`, a stencil's edge row
     * `max(r - 1, 0) * cols`) is two sites, each under its side of the
     * comparison: exact, as any ?: in an address is. */
    if (holds_minmax(a->byte_offset)) {
        mem_access b = *a;
        b.byte_offset = minmax_as_choice(a->byte_offset);
        bool ok = affbox_images(&b, grid, block, out, n, partial, why);
        expr_free(b.byte_offset);
        return ok;
    }
    const expr *chosen = cond_in(a->byte_offset);
    if (chosen && conds_in(a->byte_offset) > MAX_ARM_CONDS) {
        *n = 0;
        *partial = false;
        *why = "its address chooses between values more times than gpulint follows";
        return false;
    }
    if (chosen) {
        *n = 0;
        *partial = false;
        *why = NULL;
        if (!arm_images(a, chosen, grid, block, out, n, partial, why)) {
            *n = 0;
            return false;
        }
        return true;
    }
    if (!images_of(a, grid, block, false, out, n, partial, why))
        return false;
    if (!*partial)
        return true;
    /* Followed through the first iteration of a loop whose step is not
     * additive: where that loop's values can be listed, each iteration
     * is a site of its own, and the images are their union. */
    int64_t values[AFFBOX_MAX_BOXES];
    int n_values = 0;
    int li = listable_loop(a, values, AFFBOX_MAX_BOXES, &n_values);
    if (li < 0)
        return true;
    affbox_image *all = xcalloc(AFFBOX_MAX_BOXES, sizeof *all);
    int n_all = 0;
    bool still_partial = false, ok = true;
    const char *still_why = NULL;
    for (int k = 0; k < n_values && ok; k++) {
        mem_access b;
        fix_counter(a, li, values[k], &b);
        affbox_image ims[AFFBOX_MAX_BOXES];
        int m = 0;
        bool part = false;
        const char *w = NULL;
        ok = affbox_images(&b, grid, block, ims, &m, &part, &w) && n_all + m <= AFFBOX_MAX_BOXES;
        access_bound_free(&b);
        for (int j = 0; ok && j < m; j++)
            all[n_all++] = ims[j];
        if (ok && part && !still_why)
            still_why = w;
        still_partial = still_partial || part;
    }
    if (ok) {
        memcpy(out, all, (size_t)n_all * sizeof *all);
        *n = n_all;
        *partial = still_partial;
        *why = still_why;
    }
    free(all);
    return true;
}
