/* cusrc_elems: host arrays of sizes written element by element, as
 * programs ported from OpenCL keep their work sizes: `size_t local[2] =
 * {16, 16}; if (local[0] * local[1] > 256) { local[0] = 8; } dim3
 * block(local[0], local[1]);`. Each element with a constant index is a
 * variable of its own, its definitions the list's entry and the
 * assignments to that element, followed as a local's are (the one that
 * reaches the read, a choice between an if's arms). The array must be a
 * local of fixed length whose every use is an element read, an element
 * written at a constant index outside any loop, or sizeof: a pointer to it
 * handed on, or an element written at an index that varies, could change
 * any element; and a static one its function writes keeps what an earlier
 * call left. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

#define ELEMS_MAX_ASSIGNS 32

typedef struct elem_scan {
    fn_ctx *f;
    CXCursor decl;
    int64_t index; /* the element asked for */
    cnode *assigns[ELEMS_MAX_ASSIGNS];
    int n_assigns;
    bool bad;
} elem_scan;

static bool names_decl(const cnode *n, CXCursor decl)
{
    n = cn_strip_casts((cnode *)n);
    return n && n->kind == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(n->cur), decl);
}

static bool is_write(const cnode *parent, int kid)
{
    if (parent->kind == CXCursor_CompoundAssignOperator)
        return kid == 0;
    if (parent->kind == CXCursor_BinaryOperator)
        return kid == 0 &&
               clang_getCursorBinaryOperatorKind(parent->cur) == CXBinaryOperator_Assign;
    if (parent->kind == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(parent->cur);
        return u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PreInc ||
               u == CXUnaryOperator_PostDec || u == CXUnaryOperator_PreDec ||
               u == CXUnaryOperator_AddrOf;
    }
    return false;
}

/* The uses of the array under n: element reads pass, writes at a
 * constant index outside loops are kept (those to the element asked
 * for), anything else marks the scan bad. */
static void scan_uses(elem_scan *s, cnode *n)
{
    for (int i = 0; i < n->n_kids && !s->bad; i++) {
        cnode *k = n->kids[i];
        if (k->kind == CXCursor_ArraySubscriptExpr && k->n_kids == 2 &&
            names_decl(k->kids[0], s->decl)) {
            scan_uses(s, k->kids[1]);
            if (!is_write(n, i))
                continue;
            int64_t at;
            if (n->kind == CXCursor_UnaryOperator &&
                clang_getCursorUnaryOperatorKind(n->cur) == CXUnaryOperator_AddrOf)
                s->bad = true; /* &a[k]: written through, anywhere */
            else if (!x_const(s->f, k->kids[1], &at) || cn_in_loop(n, s->f->root))
                s->bad = true;
            else if (at == s->index && s->n_assigns < ELEMS_MAX_ASSIGNS)
                s->assigns[s->n_assigns++] = n;
            else if (at == s->index)
                s->bad = true;
            continue;
        }
        if (names_decl(k, s->decl) && n->kind != CXCursor_UnaryExpr) {
            s->bad = true; /* the array's name as a pointer: handed on */
            return;
        }
        scan_uses(s, k);
    }
}

expr *x_host_element(fn_ctx *f, cnode *subscript)
{
    if (f->device || subscript->n_kids != 2)
        return NULL;
    cnode *base = cn_strip_casts(subscript->kids[0]);
    if (!base || base->kind != CXCursor_DeclRefExpr)
        return NULL;
    CXCursor decl = clang_getCursorReferenced(base->cur);
    var_info *arr = fn_var(f, decl);
    int64_t index;
    CXType t = clang_getCursorType(decl);
    if (!arr || arr->is_param || arr->is_shared || arr->n_assigns || !arr->decl_node ||
        t.kind != CXType_ConstantArray || !cn_type_is_integral(clang_getArrayElementType(t)) ||
        !x_const(f, subscript->kids[1], &index) || index < 0 || index >= clang_getArraySize(t))
        return NULL;
    elem_scan s = {.f = f, .decl = decl, .index = index};
    scan_uses(&s, f->root);
    /* A static array keeps what an earlier call wrote. */
    if (s.bad || (s.n_assigns && clang_Cursor_getStorageClass(decl) == CX_SC_Static))
        return NULL;
    cnode *list = arr->init && arr->init->kind == CXCursor_InitListExpr ? arr->init : NULL;
    if (arr->init && !list)
        return NULL;
    char name[256];
    snprintf(name, sizeof name, "%s[%lld]", arr->name, (long long)index);
    var_info elem = {
        .decl = decl,
        .hash = arr->hash,
        .name = name,
        .decl_node = arr->decl_node,
        .init = list && index < list->n_kids ? list->kids[index] : NULL,
        .assigns = s.assigns,
        .n_assigns = s.n_assigns,
    };
    /* An entry the list leaves out is zero, as C++ value-initializes it. */
    if (list && index >= list->n_kids && !s.n_assigns)
        return expr_const(0);
    return f->t->obj_eval->value_at(f, &elem, subscript);
}
