/* cusrc_cg: the values of cooperative groups' calls as expr trees: a
 * group's rank of a thread and its size, for a thread block, a grid and
 * tiled partitions of a block (the CUDA C++ Programming Guide, "Cooperative
 * Groups"). */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

static expr *sym(expr_builtin b)
{
    return expr_builtin_sym(b);
}

/* threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y:
 * the rank cooperative groups give a thread in its block (the CUDA C++
 * Programming Guide, "Thread Block Group": thread_rank()). */
static expr *block_rank_of_thread(void)
{
    expr *yz =
        expr_binary(OP_ADD, sym(SYM_TID_Y), expr_binary(OP_MUL, sym(SYM_TID_Z), sym(SYM_BDIM_Y)));
    return expr_binary(OP_ADD, sym(SYM_TID_X), expr_binary(OP_MUL, yz, sym(SYM_BDIM_X)));
}

static expr *block_threads(void)
{
    return expr_binary(OP_MUL, expr_binary(OP_MUL, sym(SYM_BDIM_X), sym(SYM_BDIM_Y)),
                       sym(SYM_BDIM_Z));
}

static expr *grid_rank_of_block(void)
{
    expr *yz =
        expr_binary(OP_ADD, sym(SYM_BID_Y), expr_binary(OP_MUL, sym(SYM_BID_Z), sym(SYM_GDIM_Y)));
    return expr_binary(OP_ADD, sym(SYM_BID_X), expr_binary(OP_MUL, yz, sym(SYM_GDIM_X)));
}

/* The group type of a cooperative_groups object: 'b' thread_block, 'g'
 * grid_group, 't' thread_block_tile<N> (*tile = N), 0 anything else (a
 * thread_group of run-time size, coalesced_group: not known statically). */
char x_cg_kind(CXType t, int64_t *tile)
{
    char *s = cn_type_spelling(clang_getCanonicalType(t));
    char kind = 0;
    if (strstr(s, "cooperative_groups::")) {
        const char *tb = strstr(s, "thread_block_tile<");
        if (tb) {
            long long n = strtoll(tb + strlen("thread_block_tile<"), NULL, 10);
            if (n > 0 && n <= 1024) {
                *tile = n;
                kind = 't';
            }
        } else if (strstr(s, "::thread_block") && !strstr(s, "thread_block_tile")) {
            kind = 'b';
        } else if (strstr(s, "::grid_group")) {
            kind = 'g';
        }
    }
    free(s);
    return kind;
}

/* block.thread_rank(), warp.meta_group_rank(), grid.size(): the values the
 * CUDA C++ Programming Guide gives them ("Cooperative Groups"), in terms of
 * the built-in indices; NULL when n is not such a call. */
expr *x_cg_value(cnode *n, const char *method)
{
    cnode *callee = n->n_kids ? cn_strip(n->kids[0]) : NULL;
    if (!callee || callee->kind != CXCursor_MemberRefExpr || callee->n_kids < 1)
        return NULL;
    int64_t tile = 0;
    char kind = x_cg_kind(clang_getCursorType(cn_strip(callee->kids[0])->cur), &tile);
    if (!kind)
        return NULL;
    bool rank = !strcmp(method, "thread_rank"),
         size = !strcmp(method, "size") || !strcmp(method, "num_threads");
    switch (kind) {
    case 'b':
        if (rank)
            return block_rank_of_thread();
        if (size)
            return block_threads();
        return NULL;
    case 't':
        if (rank)
            return expr_binary(OP_MOD, block_rank_of_thread(), expr_const(tile));
        if (size)
            return expr_const(tile);
        if (!strcmp(method, "meta_group_rank"))
            return expr_binary(OP_DIV, block_rank_of_thread(), expr_const(tile));
        if (!strcmp(method, "meta_group_size"))
            return expr_binary(OP_DIV, expr_binary(OP_ADD, block_threads(), expr_const(tile - 1)),
                               expr_const(tile));
        return NULL;
    case 'g':
        if (rank)
            return expr_binary(OP_ADD, expr_binary(OP_MUL, grid_rank_of_block(), block_threads()),
                               block_rank_of_thread());
        if (!strcmp(method, "block_rank"))
            return grid_rank_of_block();
        if (size)
            return expr_binary(OP_MUL,
                               expr_binary(OP_MUL,
                                           expr_binary(OP_MUL, sym(SYM_GDIM_X), sym(SYM_GDIM_Y)),
                                           sym(SYM_GDIM_Z)),
                               block_threads());
        return NULL;
    default:
        return NULL;
    }
}
