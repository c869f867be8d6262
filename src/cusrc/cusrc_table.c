/* cusrc_table: sizes picked from a table in host code. `int sizes[] =
 * {256, 512, 1024}; ... sizes[k]`: an array set by its initializer and only
 * read stands for its elements; the element the index selects, or, where
 * the index is not a constant (a loop's counter, walked later by
 * cusrc_sweep), a choice over the index's values. */
#include <stdlib.h>

#include "cusrc/cusrc_int.h"

/* Whether every use of the local array decl in n is a read of an element
 * (no element written, no pointer to it handed on). */
static bool only_read(const cnode *n, CXCursor decl)
{
    for (int i = 0; i < n->n_kids; i++) {
        const cnode *k = n->kids[i];
        cnode *base = k->kind == CXCursor_ArraySubscriptExpr && k->n_kids == 2
                          ? cn_strip_casts(k->kids[0])
                          : NULL;
        if (base && base->kind == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(base->cur), decl)) {
            /* arr[i] = ..., arr[i] += ..., ++arr[i], &arr[i] */
            const cnode *p = n;
            bool written = (p->kind == CXCursor_BinaryOperator ||
                            p->kind == CXCursor_CompoundAssignOperator) &&
                           i == 0 &&
                           (p->kind == CXCursor_CompoundAssignOperator ||
                            clang_getCursorBinaryOperatorKind(p->cur) == CXBinaryOperator_Assign);
            if (p->kind == CXCursor_UnaryOperator) {
                enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(p->cur);
                written = u != CXUnaryOperator_Minus && u != CXUnaryOperator_Plus &&
                          u != CXUnaryOperator_Not && u != CXUnaryOperator_LNot &&
                          u != CXUnaryOperator_Deref;
            }
            if (written || !only_read(k->kids[1], decl))
                return false;
            continue;
        }
        if (k->kind == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(k->cur), decl)) {
            /* The array's name used otherwise: sizeof keeps it read-only,
             * anything else (a call, a pointer) may write it. */
            if (n->kind != CXCursor_UnaryExpr && n->kind != CXCursor_ParenExpr)
                return false;
            continue;
        }
        if (!only_read(k, decl))
            return false;
    }
    return true;
}

int host_table(fn_ctx *f, cnode *n, int64_t vals[HOST_TABLE_MAX])
{
    if (n->n_kids != 2)
        return 0;
    cnode *base = cn_strip_casts(n->kids[0]);
    if (!base || base->kind != CXCursor_DeclRefExpr)
        return 0;
    CXCursor decl = clang_getCursorReferenced(base->cur);
    var_info *v = fn_var(f, decl);
    if (!v || v->is_param || v->addr_taken || v->n_assigns || !v->init ||
        v->init->kind != CXCursor_InitListExpr || v->init->n_kids == 0 ||
        v->init->n_kids > HOST_TABLE_MAX ||
        clang_getCursorType(decl).kind != CXType_ConstantArray || !only_read(f->root, decl))
        return 0;
    int m = v->init->n_kids;
    for (int i = 0; i < m; i++)
        if (!x_const(f, v->init->kids[i], &vals[i]))
            return 0;
    return m;
}

expr *host_table_pick(const int64_t *vals, int m, expr *idx)
{
    expr *s = expr_simplify(idx);
    expr_free(idx);
    if (s->kind == EX_CONST) {
        int64_t k = s->value;
        expr_free(s);
        return k >= 0 && k < m ? expr_const(vals[k]) : NULL;
    }
    expr *e = expr_const(vals[m - 1]);
    for (int i = m - 2; i >= 0; i--)
        e = expr_cond(expr_binary(OP_EQ, expr_clone(s), expr_const(i)), expr_const(vals[i]), e);
    expr_free(s);
    return e;
}
