/* access: copies of a site with names bound (see access.h). */
#include "analysis/symbolic/access.h"

#include <string.h>

static expr *bound(const expr *e, const expr_env *env)
{
    return e ? expr_bind(e, env) : NULL;
}

bool loop_same(const loop_ctx *a, const loop_ctx *b)
{
    return a->loc.line == b->loc.line && a->loc.column == b->loc.column &&
           a->spelled_at == b->spelled_at &&
           strcmp(a->loc.file ? a->loc.file : "", b->loc.file ? b->loc.file : "") == 0;
}

void access_bind(const mem_access *a, const expr_env *env, mem_access *out)
{
    *out = *a;
    out->byte_offset = bound(a->byte_offset, env);
    out->guard = bound(a->guard, env);
    for (int i = 0; i < a->n_loops; i++) {
        out->loops[i].init = bound(a->loops[i].init, env);
        out->loops[i].cond = bound(a->loops[i].cond, env);
        out->loops[i].next = bound(a->loops[i].next, env);
    }
}

void access_drop_loop(mem_access *a, int i)
{
    expr_free(a->loops[i].init);
    expr_free(a->loops[i].cond);
    expr_free(a->loops[i].next);
    memmove(&a->loops[i], &a->loops[i + 1], (size_t)(a->n_loops - i - 1) * sizeof a->loops[0]);
    a->n_loops--;
}

static void shift(expr **e, expr_builtin b, int64_t by)
{
    if (!*e || by == 0 || !expr_uses_builtin(*e, b))
        return;
    expr *moved = expr_shift_builtin(*e, b, by);
    expr_free(*e);
    *e = expr_simplify(moved);
    expr_free(moved);
}

static void shift_indices(mem_access *a, expr_builtin first, const int64_t by[3])
{
    for (int d = 0; d < 3; d++) {
        expr_builtin b = (expr_builtin)(first + d);
        shift(&a->byte_offset, b, by[d]);
        shift(&a->guard, b, by[d]);
        for (int i = 0; i < a->n_loops; i++) {
            shift(&a->loops[i].init, b, by[d]);
            shift(&a->loops[i].cond, b, by[d]);
            shift(&a->loops[i].next, b, by[d]);
        }
    }
}

void access_shift_threads(mem_access *a, const int64_t by[3])
{
    shift_indices(a, SYM_TID_X, by);
}

void access_shift_blocks(mem_access *a, const int64_t by[3])
{
    shift_indices(a, SYM_BID_X, by);
}

void access_bound_free(mem_access *a)
{
    expr_free(a->byte_offset);
    expr_free(a->guard);
    for (int i = 0; i < a->n_loops; i++) {
        expr_free(a->loops[i].init);
        expr_free(a->loops[i].cond);
        expr_free(a->loops[i].next);
    }
}

/* x + dx * (y + dy * z) of three builtins: a thread's rank in its block,
 * or a block's in the grid. */
static expr *rank3(expr_builtin x, expr_builtin dx)
{
    expr *yz = expr_binary(OP_ADD, expr_builtin_sym(x + 1),
                           expr_binary(OP_MUL, expr_builtin_sym(dx + 1), expr_builtin_sym(x + 2)));
    return expr_binary(OP_ADD, expr_builtin_sym(x), expr_binary(OP_MUL, expr_builtin_sym(dx), yz));
}

/* The block's rank, and for a value that differs by lane, the thread's in
 * the whole grid: what such a value is taken to be (access.h). */
static expr *data_stand_in(bool per_lane)
{
    expr *block = rank3(SYM_BID_X, SYM_GDIM_X);
    if (!per_lane)
        return block;
    expr *threads = expr_binary(
        OP_MUL, expr_builtin_sym(SYM_BDIM_X),
        expr_binary(OP_MUL, expr_builtin_sym(SYM_BDIM_Y), expr_builtin_sym(SYM_BDIM_Z)));
    return expr_binary(OP_ADD, expr_binary(OP_MUL, block, threads), rank3(SYM_TID_X, SYM_BDIM_X));
}

static expr *data_replaced(const expr *e)
{
    if (!e)
        return NULL;
    if (e->kind == EX_UNKNOWN)
        return data_stand_in(e->value != ACCESS_DATA_UNIFORM);
    expr shell = *e;
    shell.a = shell.b = shell.c = shell.d = NULL;
    expr *n = expr_clone(&shell);
    n->a = data_replaced(e->a);
    n->b = data_replaced(e->b);
    n->c = data_replaced(e->c);
    n->d = data_replaced(e->d);
    return n;
}

bool access_gather_estimate(const mem_access *a, mem_access *out)
{
    if (!a->index_from_data || !a->byte_offset)
        return false;
    expr_env none;
    expr_env_init(&none);
    access_bind(a, &none, out);
    expr *raw = data_replaced(out->byte_offset);
    expr_free(out->byte_offset);
    out->byte_offset = expr_simplify(raw);
    expr_free(raw);
    out->why_not = NULL;
    out->index_from_data = false;
    return true;
}

const char *access_read_text(const expr *e, size_t *len)
{
    static const char head[] = "value read from memory ('";
    size_t h = sizeof head - 1, n = e && e->kind == EX_UNKNOWN && e->name ? strlen(e->name) : 0;
    if (n < h + 2 || strncmp(e->name, head, h) != 0 || strcmp(e->name + n - 2, "')") != 0)
        return NULL;
    *len = n - h - 2;
    return e->name + h;
}
