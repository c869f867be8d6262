/* cusrc_induct: where a local or pointer a kernel advances by `+= by`
 * stands at a use. A tiled GEMM's `A += BK` and an image kernel's
 * `in_idx += plane` move by the same amount each pass of a loop, so at a
 * use inside that loop the value is its start plus the passes made times
 * the step: an affine index the access analyses understand, where "is
 * reassigned" would leave the footprint unknown. The evaluator's entry
 * points come as pointers (cusrc_eval.c calls this file). */
#include <string.h>

#include "cusrc/cusrc_int.h"

static bool is_loop(const cnode *p)
{
    return p->kind == CXCursor_ForStmt || p->kind == CXCursor_WhileStmt ||
           p->kind == CXCursor_DoStmt || p->kind == CXCursor_CXXForRangeStmt;
}

static bool in_loop(const cnode *n, const cnode *root)
{
    for (const cnode *p = n->parent; p && p != root; p = p->parent)
        if (is_loop(p))
            return true;
    return false;
}

/* A loop between the loop that moves a local and the local's declaration
 * would run the inner loop's passes again without starting the local
 * over: the passes of the inner loop alone would not say where it is. */
static bool loop_between(const cnode *inner, const cnode *decl)
{
    for (const cnode *p = inner->parent; p && !cn_inside(decl, p); p = p->parent)
        if (is_loop(p))
            return true;
    return false;
}

expr *x_loop_move(fn_ctx *f, cnode *a, cnode *use, expr *by, const cnode *local_decl,
                  bool by_varies)
{
    cnode *up = a->parent;
    bool before = cn_spelled_at(a->cur) < cn_spelled_at(use->cur);
    /* A block that holds use, outside every loop, runs the move once
     * before use wherever use runs (logprob's `logits += step_offset +
     * batch_offset;` under the kernel's bounds check). */
    bool once_here = up && up->kind == CXCursor_CompoundStmt &&
                     (up->parent == f->root || (cn_inside(use, up) && !in_loop(a, f->root)));
    /* A local declared in the block that moves it starts over whenever
     * the block does: moved once before use, or not yet. */
    if (!once_here && local_decl && up && up == local_decl->parent &&
        up->kind == CXCursor_CompoundStmt && cn_inside(use, up))
        once_here = true;
    if (once_here) {
        if (!before) {
            expr_free(by);
            return expr_const(0); /* moved after use: not yet at use */
        }
        return by;
    }
    loop_frame *fr = NULL;
    for (int i = f->n_loops - 1; i >= 0 && !fr; i--)
        if (cn_inside(a, f->loops[i]->stmt))
            fr = f->loops[i];
    bool once = fr && (up == fr->stmt ||
                       (up && up->kind == CXCursor_CompoundStmt && up->parent == fr->stmt));
    if (!once || !fr->ctx.var || !fr->ctx.init || !fr->ctx.next ||
        (local_decl && (cn_inside(local_decl, fr->stmt) || !cn_inside(use, fr->stmt) ||
                        loop_between(fr->stmt, local_decl)))) {
        expr_free(by);
        return NULL;
    }
    /* The counter's step: next is counter + step (the same at two values). */
    expr_env env;
    expr_env_init(&env);
    int64_t at0, at1;
    expr_env_set(&env, fr->ctx.var, 0);
    bool linear = expr_eval(fr->ctx.next, &env, &at0, NULL) == EXPR_OK;
    expr_env_set(&env, fr->ctx.var, 1000);
    linear = linear && expr_eval(fr->ctx.next, &env, &at1, NULL) == EXPR_OK && at1 == 1000 + at0 &&
             at0 != 0;
    if (!linear || by_varies || expr_uses_name(by, fr->ctx.var)) {
        expr_free(by);
        return NULL;
    }
    expr *pass =
        expr_binary(OP_DIV, expr_binary(OP_SUB, expr_named(fr->ctx.var), expr_clone(fr->ctx.init)),
                    expr_const(at0));
    if (up != fr->stmt && before)
        pass = expr_binary(OP_ADD, pass, expr_const(1));
    return expr_binary(OP_MUL, pass, by);
}

/* One move of v: `v += by`, `v -= by`, `++v`, `v--`; NULL for any other
 * assignment, or a step that is not the same in every lane. */
static expr *step_of(fn_ctx *f, cnode *a, const x_induct_eval *ev)
{
    if (a->kind == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(a->cur);
        if (k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PreInc)
            return expr_const(1);
        if (k == CXUnaryOperator_PostDec || k == CXUnaryOperator_PreDec)
            return expr_const(-1);
        return NULL;
    }
    if (a->kind != CXCursor_CompoundAssignOperator || a->n_kids != 2)
        return NULL;
    enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(a->cur);
    if (k != CXBinaryOperator_AddAssign && k != CXBinaryOperator_SubAssign)
        return NULL;
    expr *by = ev->value_of(f, a->kids[1]);
    if (by->kind == EX_UNKNOWN || ev->per_lane(f, by)) {
        expr_free(by);
        return NULL;
    }
    return k == CXBinaryOperator_SubAssign ? expr_unary(OP_NEG, by) : by;
}

expr *x_advanced_local(fn_ctx *f, var_info *v, cnode *use, const x_induct_eval *ev)
{
    if (!f->device || v->is_param || v->addr_taken || !v->init || v->n_assigns == 0 ||
        v->visiting || !v->decl_node)
        return NULL;
    v->visiting++;
    expr *total = ev->value_of(f, v->init);
    for (int i = 0; total && i < v->n_assigns; i++) {
        expr *by = step_of(f, v->assigns[i], ev);
        expr *m = by ? x_loop_move(f, v->assigns[i], use, by, v->decl_node, false) : NULL;
        if (!m) {
            expr_free(total);
            total = NULL;
        } else {
            total = expr_binary(OP_ADD, total, m);
        }
    }
    v->visiting--;
    if (total && expr_first_unknown(total)) {
        expr_free(total);
        return NULL;
    }
    return total;
}
