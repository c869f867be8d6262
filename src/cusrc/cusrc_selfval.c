/* cusrc_selfval: the fields of a device object whose method a kernel
 * calls, as expressions of the thread. CUB-style collectives are built in
 * place and used at once (`BlockLoad(temp).Load(p, items)`); their
 * constructor sets `linear_tid(RowMajorTid(...))` in its member
 * initialisers and every method indexes by it. The initialisers are
 * evaluated with the constructor's arguments bound, in the caller, through
 * cusrc_eval's entry points (which call this file, not the reverse).
 *
 * Only member initialisers count, only for integer fields the
 * constructor's body does not write, and only for an object built by the
 * call's own expression (then the method and the methods of this it calls
 * must not write the field either) or held by a local that is initialised
 * once, never assigned and never lent out (then no method of its class
 * may, cusrc_object's scan): anything else may have changed the field by
 * the time the method reads it. */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

#define SELF_MAX_ARGS 16

void x_self_free(self_vals *s)
{
    for (int i = 0; i < s->n; i++) {
        free(s->name[i]);
        expr_free(s->value[i]);
    }
    s->n = 0;
}

/* The constructor call that built the object of a method call, NULL where
 * there is none to trust; *temporary: built by the call's own expression,
 * so that only the constructor and the method itself run on it. */
static cnode *built_by(fn_ctx *f, cnode *obj, bool *temporary)
{
    *temporary = true;
    obj = cn_strip(obj);
    /* `T(a, b)` in an instantiated template: a functional cast around the
     * constructor call. */
    while (obj && obj->kind == CXCursor_CXXFunctionalCastExpr && cn_n_expr_kids(obj) == 1)
        obj = cn_strip(cn_expr_kid(obj, 0));
    if (!obj)
        return NULL;
    if (obj->kind == CXCursor_CallExpr &&
        clang_getCursorReferenced(obj->cur).kind == CXCursor_Constructor)
        return obj;
    if (obj->kind != CXCursor_DeclRefExpr)
        return NULL;
    *temporary = false;
    var_info *v = fn_var(f, clang_getCursorReferenced(obj->cur));
    if (!v || v->is_param || v->addr_taken || v->n_assigns || v->n_member_assigns || !v->init ||
        x_fields_escape(f, v))
        return NULL;
    cnode *init = cn_strip(v->init);
    return init && init->kind == CXCursor_CallExpr &&
                   clang_getCursorReferenced(init->cur).kind == CXCursor_Constructor
               ? init
               : NULL;
}

/* Whether a field may no longer hold its member initialiser's value when
 * the method reads it: the constructor's body writes it, or, for an object
 * the call's own expression built, the method (with the methods of this it
 * calls) does, or, for one a local holds, any method of its class may. */
static bool may_change(fn_ctx *f, CXCursor ctor, CXCursor method, bool temporary, const char *field)
{
    if (x_method_writes_field(ctor, field, 0))
        return true;
    if (!temporary)
        return x_class_field_written(f->t, clang_getCursorSemanticParent(ctor), field);
    return x_method_writes_field(clang_getCursorDefinition(method), field, 0);
}

static void constructor_inits(fn_ctx *f, cnode *call, CXCursor method, bool temporary,
                              self_vals *out)
{
    CXCursor ctor = clang_getCursorReferenced(call->cur);
    CXCursor def = clang_getCursorDefinition(ctor);
    if (clang_Cursor_isNull(def))
        return;
    int np = clang_Cursor_getNumArguments(def);
    if (np < 0 || np > SELF_MAX_ARGS)
        return;
    cnode *tree = cn_build(def);
    cnode *args[SELF_MAX_ARGS];
    for (int i = 0; i < np; i++)
        args[i] = i < cn_n_expr_kids(call) ? cn_expr_kid(call, i) : NULL;
    param_binding pb[SELF_MAX_ARGS];
    int n = f->t->obj_eval->bind(f, call, def, args, np, pb);
    if (n < 0) {
        cn_free(tree);
        return;
    }
    fn_ctx cf;
    fn_init(&cf, f->t, tree, true);
    cf.generic = f->generic;
    bind_frame fr = {pb, n, NULL, false, NULL};
    cf.bindings = &fr;
    for (int i = 0; i + 1 < tree->n_kids && out->n < SELF_MAX_FIELDS; i++) {
        cnode *k = tree->kids[i], *init = tree->kids[i + 1];
        if (k->kind != CXCursor_MemberRef || !cn_is_expr(init))
            continue;
        i++;
        CXCursor field = clang_getCursorReferenced(k->cur);
        char *name = cn_spelling(k->cur);
        if (!cn_type_is_integral(clang_getCursorType(field)) ||
            may_change(f, def, method, temporary, name)) {
            free(name);
            continue;
        }
        out->name[out->n] = name;
        out->value[out->n++] = f->t->obj_eval->value_of(&cf, init);
    }
    f->t->obj_eval->unbind(pb, n);
    fn_free(&cf);
    cn_free(tree);
}

bool x_self_vals(fn_ctx *f, cnode *call, CXCursor method, self_vals *out)
{
    out->n = 0;
    if (!f->device || method.kind != CXCursor_CXXMethod || clang_CXXMethod_isStatic(method) ||
        !call->n_kids)
        return false;
    cnode *callee = cn_strip(call->kids[0]);
    if (!callee || callee->kind != CXCursor_MemberRefExpr || !callee->n_kids)
        return false;
    bool temporary;
    cnode *ctor = built_by(f, callee->kids[0], &temporary);
    if (!ctor)
        return false;
    constructor_inits(f, ctor, method, temporary, out);
    return true;
}

bool x_self_inherits(cnode *call)
{
    cnode *callee = call->n_kids ? cn_strip(call->kids[0]) : NULL;
    if (!callee || callee->kind != CXCursor_MemberRefExpr)
        return false;
    cnode *obj = callee->n_kids ? cn_strip(callee->kids[0]) : NULL;
    return !obj || obj->kind == CXCursor_CXXThisExpr;
}

expr *x_self_field(const fn_ctx *f, cnode *member)
{
    cnode *base = member->n_kids ? cn_strip(member->kids[0]) : NULL;
    if (!f->self || (member->n_kids && (!base || base->kind != CXCursor_CXXThisExpr)))
        return NULL;
    char *name = cn_spelling(member->cur);
    expr *e = NULL;
    for (int i = 0; i < f->self->n && !e; i++)
        if (!strcmp(f->self->name[i], name))
            e = expr_clone(f->self->value[i]);
    free(name);
    return e;
}
