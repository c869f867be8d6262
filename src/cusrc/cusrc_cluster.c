/* cusrc_cluster: the thread-block cluster a launch runs in, from the three
 * places CUDA takes it: the kernel's __cluster_dims__, the launch's
 * cudaLaunchAttributeClusterDimension (cudaLaunchKernelEx), and
 * cudaFuncSetAttribute(kernel, cudaFuncAttributeRequiredClusterWidth...).
 * Where both a kernel attribute and a launch give one, the kernel's is
 * what runs: the runtime refuses a launch that differs. */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"
#include "cusrc/cusrc_scan.h"

static void set_const(cusrc_value *v, int64_t value)
{
    free(v->text);
    free(v->why);
    expr_free(v->e);
    memset(v, 0, sizeof *v);
    v->present = v->known = true;
    v->value = value;
    v->e = expr_const(value);
}

static void copy_value(cusrc_value *to, const cusrc_value *from)
{
    free(to->text);
    free(to->why);
    expr_free(to->e);
    *to = *from;
    to->e = from->e ? expr_clone(from->e) : NULL;
    to->text = xstrdup_null(from->text);
    to->why = xstrdup_null(from->why);
}

static cusrc_value *component(cusrc_dim3 *d, int i)
{
    return i == 0 ? &d->x : i == 1 ? &d->y : &d->z;
}

static int member_index(const char *name)
{
    return !strcmp(name, "x") ? 0 : !strcmp(name, "y") ? 1 : !strcmp(name, "z") ? 2 : -1;
}

static bool is_member(cnode *n, const char *name)
{
    n = cn_strip(n);
    if (!n || n->kind != CXCursor_MemberRefExpr)
        return false;
    char *s = cn_spelling(n->cur);
    bool same = !strcmp(s, name);
    free(s);
    return same;
}

/* The variable an lvalue like attrs[0].val.clusterDim.x, &attrs[0] or
 * attrs starts from; a null cursor when it is not one. */
static CXCursor root_variable(cnode *n)
{
    for (int depth = 0; n && depth < CN_MAX_DEPTH; depth++) {
        n = cn_strip(n);
        if (!n)
            break;
        if (n->kind == CXCursor_DeclRefExpr)
            return clang_getCursorReferenced(n->cur);
        if ((n->kind != CXCursor_MemberRefExpr && n->kind != CXCursor_ArraySubscriptExpr &&
             n->kind != CXCursor_UnaryOperator) ||
            !n->n_kids)
            break;
        n = n->kids[0];
    }
    return clang_getNullCursor();
}

/* An assignment to ...clusterDim.x (or .y, .z), or to ...clusterDim
 * itself from a {x, y, z} list, of the attribute array the launch's
 * configuration names (attrs: another launch's attributes in the same
 * function are not this one's), or anywhere in the function when the
 * configuration's attrs are not visible. */
static void walk(fn_ctx *f, cnode *n, cusrc_dim3 *d, CXCursor attrs, int depth)
{
    if (depth > CN_MAX_DEPTH)
        return;
    bool assign = false;
    if (n->kind == CXCursor_BinaryOperator && n->n_kids == 2) {
        assign = clang_getCursorBinaryOperatorKind(n->cur) == CXBinaryOperator_Assign;
    } else if (n->kind == CXCursor_CallExpr && n->n_kids >= 2) {
        /* a struct assigned from a list: clusterDim = {x, y, z} */
        char *name = cn_spelling(n->cur);
        assign = !strcmp(name, "operator=");
        free(name);
    }
    if (assign && !clang_Cursor_isNull(attrs) &&
        !clang_equalCursors(root_variable(n->kids[0]), attrs))
        assign = false;
    if (assign) {
        cnode *lhs = cn_strip(n->kids[0]), *rhs = n->kids[n->n_kids - 1];
        if (lhs && lhs->kind == CXCursor_MemberRefExpr && lhs->n_kids >= 1 &&
            is_member(lhs->kids[0], "clusterDim")) {
            char *m = cn_spelling(lhs->cur);
            int i = member_index(m);
            free(m);
            if (i >= 0) {
                d->present = true;
                x_value(f, rhs, "cluster size", component(d, i));
            }
        } else if (is_member(lhs, "clusterDim")) {
            cnode *list = cn_strip(rhs);
            d->present = true;
            for (int i = 0; i < 3; i++) {
                if (list && list->kind == CXCursor_InitListExpr && i < list->n_kids)
                    x_value(f, list->kids[i], "cluster size", component(d, i));
                else
                    set_const(component(d, i), 1);
            }
        }
    }
    for (int i = 0; i < n->n_kids; i++)
        walk(f, n->kids[i], d, attrs, depth + 1);
}

void cluster_from_config(fn_ctx *f, cnode *attrs_field, cusrc_launch *l)
{
    cusrc_dim3 d;
    memset(&d, 0, sizeof d);
    walk(f, f->root, &d, attrs_field ? root_variable(attrs_field) : clang_getNullCursor(), 0);
    if (!d.present)
        return;
    for (int i = 0; i < 3; i++)
        if (!component(&d, i)->present)
            set_const(component(&d, i), 1); /* a cudaLaunchAttributeValue left at 0 is 1 */
    for (int i = 0; i < 3; i++)
        copy_value(component(&l->cluster, i), component(&d, i));
    l->cluster.present = true;
    l->cluster_from = "cudaLaunchAttributeClusterDimension";
    for (int i = 0; i < 3; i++) {
        free(component(&d, i)->text);
        free(component(&d, i)->why);
        expr_free(component(&d, i)->e);
    }
}

void cluster_bind(cusrc_tu *t, cusrc_launch *l, const char *usr)
{
    for (size_t o = 0; usr && o < t->n_optins; o++) {
        const optin_rec *r = &t->optins[o];
        if (r->kind == OPTIN_SMEM || strcmp(r->usr, usr) != 0 ||
            (r->mangled && l->mangled && strcmp(r->mangled, l->mangled) != 0))
            continue;
        if (r->kind == OPTIN_NONPORTABLE) {
            l->cluster_nonportable = !r->bytes.known || r->bytes.value != 0;
            continue;
        }
        if (!l->cluster.present || strcmp(l->cluster_from, "__cluster_dims__") != 0) {
            if (!l->cluster.present)
                for (int i = 0; i < 3; i++)
                    set_const(component(&l->cluster, i), 1);
            l->cluster.present = true;
            l->cluster_from = "cudaFuncAttributeRequiredClusterWidth";
            copy_value(component(&l->cluster, r->kind - OPTIN_CLUSTER_X), &r->bytes);
        }
    }
    if (l->kernel < 0)
        return;
    const cusrc_cluster_dims *cd = &t->u->kernels[l->kernel].cluster_dims;
    if (!cd->present)
        return;
    l->cluster.present = true;
    l->cluster_from = "__cluster_dims__";
    for (int i = 0; i < 3; i++) {
        cusrc_value *v = component(&l->cluster, i);
        if (cd->dims[i] >= 0) {
            set_const(v, cd->dims[i]);
        } else {
            set_const(v, 0);
            v->known = false;
            v->why = xstrdup("__cluster_dims__ is not a constant gpulint can evaluate");
        }
    }
}
