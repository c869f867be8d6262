/* blockperm: block orders that are permutations of the grid (blockperm.h). */
#include "analysis/symbolic/blockperm.h"

#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h" /* xcalloc */

#define MAX_PARTS 3

typedef struct parts {
    const expr *part[MAX_PARTS];
    char *text[MAX_PARTS];
    int n;
    bool used[3]; /* block indices read outside the parts */
    bool failed;
} parts;

static bool is_block(const expr *e)
{
    return e->kind == EX_SYM && e->builtin >= SYM_BID_X && e->builtin <= SYM_BID_Z;
}

/* Constants and block indices only, one of them at least. */
static bool block_only(const expr *e, bool *any)
{
    if (!e)
        return true;
    switch (e->kind) {
    case EX_CONST:
        return true;
    case EX_SYM:
        return is_block(e) && (*any = true);
    case EX_UNARY:
        return block_only(e->a, any);
    case EX_BINARY:
        return block_only(e->a, any) && block_only(e->b, any);
    case EX_COND:
        return block_only(e->a, any) && block_only(e->b, any) && block_only(e->c, any);
    default:
        return false;
    }
}

/* Is e's own operation one affbox follows (a sum, a multiple, a constant
 * shift): its operands may still reorder blocks. */
static bool affine_node(const expr *e)
{
    switch (e->kind) {
    case EX_CONST:
    case EX_SYM:
        return true;
    case EX_UNARY:
        return e->op == OP_NEG;
    case EX_BINARY:
        return e->op == OP_ADD || e->op == OP_SUB ||
               (e->op == OP_MUL && (e->a->kind == EX_CONST || e->b->kind == EX_CONST)) ||
               (e->op == OP_SHL && e->b->kind == EX_CONST);
    default:
        return false;
    }
}

/* A piece that reorders blocks: block indices and constants only, under
 * an operation affbox does not follow. */
static bool is_part(const expr *e)
{
    bool any = false;
    return !affine_node(e) && block_only(e, &any) && any;
}

static int find_part(const parts *p, const char *text)
{
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->text[i], text))
            return i;
    return -1;
}

/* The largest pieces of e that reorder blocks (read block indices and
 * constants only, and are not affine), and the block indices read
 * elsewhere. */
static void collect(const expr *e, parts *p)
{
    if (!e || p->failed)
        return;
    if (is_part(e)) {
        char *t = expr_to_string(e);
        if (find_part(p, t) >= 0) {
            free(t);
        } else if (p->n == MAX_PARTS) {
            free(t);
            p->failed = true;
        } else {
            p->part[p->n] = e;
            p->text[p->n++] = t;
        }
        return;
    }
    if (is_block(e)) {
        p->used[e->builtin - SYM_BID_X] = true;
        return;
    }
    collect(e->a, p);
    collect(e->b, p);
    collect(e->c, p);
    collect(e->d, p);
}

/* e with each part replaced by the block index it stands for. */
static expr *substitute(const expr *e, const parts *p, const int dim[MAX_PARTS])
{
    if (!e)
        return NULL;
    if (is_part(e)) {
        char *t = expr_to_string(e);
        int i = find_part(p, t);
        free(t);
        if (i >= 0)
            return expr_builtin_sym((expr_builtin)(SYM_BID_X + dim[i]));
    }
    expr *c = expr_clone(e);
    if (e->kind == EX_UNARY || e->kind == EX_BINARY || e->kind == EX_COND || e->kind == EX_SUM) {
        expr_free(c->a);
        expr_free(c->b);
        expr_free(c->c);
        expr_free(c->d);
        c->a = substitute(e->a, p, dim);
        c->b = substitute(e->b, p, dim);
        c->c = substitute(e->c, p, dim);
        c->d = substitute(e->d, p, dim);
    }
    return c;
}

/* Does every block land on its own block when part i is taken as block
 * index dim[i] and the other indices stay: a permutation of the grid. */
static bool permutes(const parts *p, const int dim[MAX_PARTS], const int64_t grid[3])
{
    int64_t total = grid[0] * grid[1] * grid[2];
    unsigned char *seen = xcalloc((size_t)(total / 8 + 1), 1);
    expr_env env;
    expr_env_init(&env);
    bool ok = true;
    for (int64_t z = 0; z < grid[2] && ok; z++)
        for (int64_t y = 0; y < grid[1] && ok; y++)
            for (int64_t x = 0; x < grid[0] && ok; x++) {
                int64_t at[3] = {x, y, z};
                for (int d = 0; d < 3; d++)
                    expr_env_set_builtin(&env, (expr_builtin)(SYM_BID_X + d), at[d]);
                int64_t to[3] = {x, y, z};
                for (int i = 0; i < p->n && ok; i++) {
                    int64_t v;
                    ok = expr_eval(p->part[i], &env, &v, NULL) == EXPR_OK && v >= 0 &&
                         v < grid[dim[i]];
                    to[dim[i]] = v;
                }
                if (!ok)
                    break;
                int64_t k = (to[2] * grid[1] + to[1]) * grid[0] + to[0];
                if (seen[k / 8] & (1u << (k % 8)))
                    ok = false;
                seen[k / 8] |= (unsigned char)(1u << (k % 8));
            }
    free(seen);
    return ok;
}

static void rewrite(expr **e, const parts *p, const int dim[MAX_PARTS])
{
    if (!*e)
        return;
    expr *n = substitute(*e, p, dim);
    expr_free(*e);
    *e = n;
}

/* Choice number code (base 3, one digit a part) as block indices for the
 * parts: false unless they are distinct and no other code reads them. */
static bool choice(const parts *p, int code, int dim[MAX_PARTS])
{
    for (int i = 0; i < p->n; i++, code /= 3) {
        dim[i] = code % 3;
        if (p->used[dim[i]])
            return false;
        for (int j = 0; j < i; j++)
            if (dim[j] == dim[i])
                return false;
    }
    return true;
}

bool blockperm_rewrite(mem_access *a, const int64_t grid[3])
{
    if (grid[0] < 1 || grid[1] < 1 || grid[2] < 1 ||
        grid[0] * grid[1] * grid[2] > BLOCKPERM_MAX_BLOCKS)
        return false;
    parts p;
    memset(&p, 0, sizeof p);
    collect(a->byte_offset, &p);
    collect(a->guard, &p);
    for (int i = 0; i < a->n_loops; i++) {
        collect(a->loops[i].init, &p);
        collect(a->loops[i].cond, &p);
        collect(a->loops[i].next, &p);
    }
    bool done = false;
    int dim[MAX_PARTS] = {0, 0, 0};
    for (int code = 0; !p.failed && p.n > 0 && !done && code < 27; code++)
        done = choice(&p, code, dim) && permutes(&p, dim, grid);
    if (done) {
        rewrite(&a->byte_offset, &p, dim);
        rewrite(&a->guard, &p, dim);
        for (int i = 0; i < a->n_loops; i++) {
            rewrite(&a->loops[i].init, &p, dim);
            rewrite(&a->loops[i].cond, &p, dim);
            rewrite(&a->loops[i].next, &p, dim);
        }
    }
    for (int i = 0; i < p.n; i++)
        free(p.text[i]);
    return done;
}
