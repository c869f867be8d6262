/* exprpoly: two index expressions compared as polynomials of their atoms
 * (see exprpoly.h). */
#include "analysis/symbolic/exprpoly.h"

#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

/* An index of real code expands into a few dozen terms; one that does not
 * is not worth comparing. */
#define POLY_MAX_TERMS 64
#define POLY_MAX_ATOMS 8
#define POLY_MAX_DEPTH 64

typedef struct term {
    int64_t coef;
    int n;
    char *atoms[POLY_MAX_ATOMS]; /* sorted, owned */
} term;

typedef struct poly {
    int n;
    term t[POLY_MAX_TERMS];
} poly;

static void term_free(term *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->atoms[i]);
    t->n = 0;
}

static void poly_free(poly *p)
{
    for (int i = 0; i < p->n; i++)
        term_free(&p->t[i]);
    p->n = 0;
}

static bool same_atoms(const term *a, const term *b)
{
    if (a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->atoms[i], b->atoms[i]) != 0)
            return false;
    return true;
}

/* Adds coef x atoms to p, merging with an equal term; takes the atoms. */
static bool poly_add_term(poly *p, term *t)
{
    for (int i = 0; i < p->n; i++)
        if (same_atoms(&p->t[i], t)) {
            bool ok = !__builtin_add_overflow(p->t[i].coef, t->coef, &p->t[i].coef);
            term_free(t);
            return ok;
        }
    if (p->n == POLY_MAX_TERMS) {
        term_free(t);
        return false;
    }
    p->t[p->n++] = *t;
    t->n = 0;
    return true;
}

static bool term_copy(const term *from, int64_t scale, term *to)
{
    to->n = 0;
    if (__builtin_mul_overflow(from->coef, scale, &to->coef))
        return false;
    for (int i = 0; i < from->n; i++)
        to->atoms[to->n++] = xstrdup(from->atoms[i]);
    return true;
}

static int cmp_atoms(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether e holds a subtree whose text does not fix its value: an unknown
 * (its text is a reason) or a loop sum. */
static bool opaque(const expr *e)
{
    if (!e)
        return false;
    if (e->kind == EX_UNKNOWN || e->kind == EX_SUM)
        return true;
    return opaque(e->a) || opaque(e->b) || opaque(e->c);
}

static bool expand(const expr *e, poly *out, int depth);

static bool expand_product(const expr *x, const expr *y, poly *out, int depth)
{
    poly a = {0}, b = {0};
    bool ok = expand(x, &a, depth + 1) && expand(y, &b, depth + 1);
    for (int i = 0; ok && i < a.n; i++)
        for (int j = 0; ok && j < b.n; j++) {
            term t = {0};
            if (a.t[i].n + b.t[j].n > POLY_MAX_ATOMS ||
                __builtin_mul_overflow(a.t[i].coef, b.t[j].coef, &t.coef)) {
                ok = false;
                break;
            }
            for (int k = 0; k < a.t[i].n; k++)
                t.atoms[t.n++] = xstrdup(a.t[i].atoms[k]);
            for (int k = 0; k < b.t[j].n; k++)
                t.atoms[t.n++] = xstrdup(b.t[j].atoms[k]);
            qsort(t.atoms, (size_t)t.n, sizeof *t.atoms, cmp_atoms);
            ok = poly_add_term(out, &t);
        }
    poly_free(&a);
    poly_free(&b);
    return ok;
}

/* out += scale * e */
static bool expand_scaled(const expr *e, int64_t scale, poly *out, int depth)
{
    poly a = {0};
    bool ok = expand(e, &a, depth + 1);
    for (int i = 0; ok && i < a.n; i++) {
        term t;
        ok = term_copy(&a.t[i], scale, &t) && poly_add_term(out, &t);
        if (!ok)
            term_free(&t);
    }
    poly_free(&a);
    return ok;
}

static bool expand(const expr *e, poly *out, int depth)
{
    if (!e || depth > POLY_MAX_DEPTH)
        return false;
    term t = {0};
    switch (e->kind) {
    case EX_CONST:
        t.coef = e->value;
        return poly_add_term(out, &t);
    case EX_UNKNOWN:
    case EX_SUM:
        return false;
    case EX_UNARY:
        if (e->op == OP_NEG)
            return expand_scaled(e->a, -1, out, depth);
        break;
    case EX_BINARY:
        if (e->op == OP_ADD)
            return expand_scaled(e->a, 1, out, depth) && expand_scaled(e->b, 1, out, depth);
        if (e->op == OP_SUB)
            return expand_scaled(e->a, 1, out, depth) && expand_scaled(e->b, -1, out, depth);
        if (e->op == OP_MUL)
            return expand_product(e->a, e->b, out, depth);
        if (e->op == OP_SHL && e->b && e->b->kind == EX_CONST && e->b->value >= 0 &&
            e->b->value < 62)
            return expand_scaled(e->a, (int64_t)1 << e->b->value, out, depth);
        break;
    default:
        break;
    }
    /* A name, a builtin, or a subtree this form does not open (a division,
     * a condition): one atom, equal where its text is. */
    if (opaque(e))
        return false;
    t.coef = 1;
    t.n = 1;
    t.atoms[0] = expr_to_string(e);
    return poly_add_term(out, &t);
}

bool exprpoly_const_difference(const expr *a, const expr *b, int64_t *d)
{
    poly p = {0};
    bool ok = expand_scaled(a, 1, &p, 0) && expand_scaled(b, -1, &p, 0);
    int64_t c = 0;
    for (int i = 0; ok && i < p.n; i++) {
        if (p.t[i].coef == 0)
            continue;
        if (p.t[i].n)
            ok = false;
        else
            c = p.t[i].coef;
    }
    poly_free(&p);
    if (ok)
        *d = c;
    return ok;
}

/* Bottom-up, so that an inner sum that cancels (8 * q + 8 - 8 * q inside a
 * min) becomes a constant the outer nodes can fold. */
static expr *fold_sums(const expr *e)
{
    if (!e)
        return NULL;
    if (e->kind == EX_BINARY && (e->op == OP_ADD || e->op == OP_SUB)) {
        expr zero = {.kind = EX_CONST, .value = 0};
        int64_t v;
        if (exprpoly_const_difference(e, &zero, &v))
            return expr_const(v);
    }
    if (e->kind == EX_CONST || e->kind == EX_SYM || e->kind == EX_UNKNOWN)
        return expr_clone(e);
    expr *a = fold_sums(e->a), *b = fold_sums(e->b), *c = fold_sums(e->c), *d = fold_sums(e->d);
    expr *n;
    switch (e->kind) {
    case EX_UNARY:
        n = expr_unary(e->op, a);
        break;
    case EX_BINARY:
        n = expr_binary(e->op, a, b);
        break;
    case EX_COND:
        n = expr_cond(a, b, c);
        break;
    default: /* EX_SUM */
        n = expr_loop_sum(e->name, a, b, c, d);
        break;
    }
    expr *s = expr_simplify(n);
    expr_free(n);
    return s;
}

expr *exprpoly_fold(const expr *e)
{
    return fold_sums(e);
}
