/* cusrc_bcast: a value one thread of each block computes and hands the
 * others through a __shared__ scalar: `if (threadIdx.x == 0) k = f(n);
 * __syncthreads();` then every thread reads k. After the barrier each
 * thread reads what that one thread stored: the stored expression, where
 * it is the same for the whole block. It is called from cusrc_eval, and
 * evaluates through t->obj_eval, as cusrc_object does. */
#include <stdlib.h>

#include "cusrc/cusrc_int.h"

/* The nearest if around a, where a lies in its only arm and under no
 * loop below it; NULL otherwise. */
static const cnode *guarding_if(const cnode *a)
{
    const cnode *child = a;
    for (const cnode *p = a->parent; p; child = p, p = p->parent) {
        if (p->kind == CXCursor_IfStmt)
            return p->n_kids == 2 && child == p->kids[1] ? p : NULL;
        if (p->kind == CXCursor_ForStmt || p->kind == CXCursor_WhileStmt ||
            p->kind == CXCursor_DoStmt || p->kind == CXCursor_CXXForRangeStmt)
            return NULL;
    }
    return NULL;
}

/* Whether the condition holds for thread 0 of every block, whatever else
 * it reads of the thread: true at threadIdx = 0, and no block index. */
static bool thread_zero_writes(const expr *cond)
{
    static const expr_builtin blocks[] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    for (size_t i = 0; i < 3; i++)
        if (expr_uses_builtin(cond, blocks[i]))
            return false;
    expr_env env;
    expr_env_init(&env);
    expr_env_set_builtin(&env, SYM_TID_X, 0);
    expr_env_set_builtin(&env, SYM_TID_Y, 0);
    expr_env_set_builtin(&env, SYM_TID_Z, 0);
    int64_t v;
    return expr_eval(cond, &env, &v, NULL) == EXPR_OK && v != 0;
}

expr *x_shared_broadcast(fn_ctx *f, var_info *v, cnode *use)
{
    if (!f->device || !v->is_shared || v->addr_taken || v->n_assigns != 1 ||
        cn_is_array_type(clang_getCanonicalType(clang_getCursorType(v->decl))))
        return NULL;
    cnode *a = v->assigns[0];
    if (a->kind != CXCursor_BinaryOperator || a->n_kids != 2 ||
        clang_getCursorBinaryOperatorKind(a->cur) != CXBinaryOperator_Assign)
        return NULL;
    const cnode *ifs = guarding_if(a);
    if (!ifs || !ifs->parent || ifs->parent->kind != CXCursor_CompoundStmt)
        return NULL;
    /* A barrier after the if, in its block, that runs every time use does. */
    const cnode *block = ifs->parent, *bar = NULL;
    for (int i = ifs->idx + 1; i < block->n_kids && !bar; i++)
        if (cn_is_barrier_call(cn_strip(block->kids[i])))
            bar = block->kids[i];
    if (!bar || cn_inside(use, ifs) || !x_dominates(bar, use, NULL, NULL))
        return NULL;
    expr *cond = f->t->obj_eval->value_of(f, ifs->kids[0]);
    bool one_writer = thread_zero_writes(cond);
    expr_free(cond);
    if (!one_writer)
        return NULL;
    v->visiting++;
    expr *e = f->t->obj_eval->value_of(f, a->kids[1]);
    v->visiting--;
    if (expr_first_unknown(e) || expr_uses_builtin(e, SYM_TID_X) ||
        expr_uses_builtin(e, SYM_TID_Y) || expr_uses_builtin(e, SYM_TID_Z) ||
        expr_uses_name(e, v->name)) {
        expr_free(e);
        return NULL;
    }
    return e;
}
