/* cusrc_table: sizes picked from a table in host code. `int sizes[] =
 * {256, 512, 1024}; ... sizes[k]`: an array set by its initializer and only
 * read stands for its elements; the element the index selects, or, where
 * the index is not a constant (a loop's counter, walked later by
 * cusrc_sweep), a choice over the index's values. */
#include <stdlib.h>

#include "cusrc/cusrc_int.h"

/* A range-for that reads its elements: by value or by const reference. */
static bool range_reads(const cnode *loop)
{
    if (loop->kind != CXCursor_CXXForRangeStmt || loop->n_kids < 2 ||
        loop->kids[0]->kind != CXCursor_VarDecl)
        return false;
    CXType t = clang_getCursorType(loop->kids[0]->cur);
    if (t.kind != CXType_LValueReference && t.kind != CXType_RValueReference)
        return true;
    return clang_isConstQualifiedType(clang_getPointeeType(t));
}

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
            /* The array's name used otherwise: sizeof and a range-for
             * that reads keep it read-only, anything else (a call, a
             * pointer) may write it. */
            if (n->kind != CXCursor_UnaryExpr && n->kind != CXCursor_ParenExpr &&
                !(i == 1 && range_reads(n)))
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

static const cnode *init_list_in(const cnode *n, int depth)
{
    if (!n || depth > 6)
        return NULL;
    if (n->kind == CXCursor_InitListExpr)
        return n;
    for (int i = 0; i < n->n_kids; i++) {
        const cnode *l = init_list_in(n->kids[i], depth + 1);
        if (l)
            return l;
    }
    return NULL;
}

static int list_values(fn_ctx *f, const cnode *list, int64_t vals[HOST_TABLE_MAX])
{
    if (!list || list->n_kids == 0 || list->n_kids > HOST_TABLE_MAX)
        return 0;
    for (int i = 0; i < list->n_kids; i++)
        if (!x_const(f, list->kids[i], &vals[i]))
            return 0;
    return list->n_kids;
}

int host_range_values(fn_ctx *f, cnode *loop, int64_t vals[HOST_TABLE_MAX])
{
    if (!range_reads(loop) || loop->n_kids < 3)
        return 0;
    CXType vt = clang_getCursorType(loop->kids[0]->cur);
    if (vt.kind == CXType_LValueReference || vt.kind == CXType_RValueReference)
        vt = clang_getPointeeType(vt);
    if (!cn_type_is_integral(vt))
        return 0;
    cnode *range = cn_strip_casts(loop->kids[1]);
    if (!range)
        return 0;
    if (range->kind != CXCursor_DeclRefExpr) /* `for (int b : {64, 128})` */
        return list_values(f, init_list_in(range, 0), vals);
    CXCursor decl = clang_getCursorReferenced(range->cur);
    var_info *v = fn_var(f, decl);
    if (!v || v->is_param || v->addr_taken || v->n_assigns || !v->init)
        return 0;
    CXType t = clang_getCursorType(decl);
    if (t.kind == CXType_ConstantArray && v->init->kind == CXCursor_InitListExpr &&
        only_read(f->root, decl))
        return list_values(f, v->init, vals);
    /* A const container set by a list (`const std::vector<int> v = {...}`,
     * std::array): nothing can change it. */
    if (clang_isConstQualifiedType(t))
        return list_values(f, init_list_in(v->init, 0), vals);
    return 0;
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
