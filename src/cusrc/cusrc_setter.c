/* cusrc_setter: the fields a call leaves in a local struct it is handed by
 * reference. Programs fill their parameter structs in a helper
 * (`set_params(params, batch, dim, x, scale)`, whose body says
 * `p.batch = batch;`) and launch with `dim3 grid(params.batch)`: the field
 * holds what the helper assigns it at its top level, the call's arguments
 * bound, where that call runs every time the use does and nothing after
 * it may change the field. */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

#define SETTER_MAX_PARAMS 16
#define SETTER_MAX_DEPTH 4 /* calls a struct is handed on through, by reference */

static bool names_decl(const cnode *n, CXCursor decl)
{
    n = cn_strip_casts((cnode *)n);
    return n && n->kind == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(n->cur), decl);
}

/* `p.field = rhs` or `p->field = rhs` with p the parameter: the rhs. */
static cnode *field_assign(cnode *s, CXCursor parm, const char *field)
{
    cnode *e = cn_strip(s);
    if (!e || e->kind != CXCursor_BinaryOperator || e->n_kids != 2 ||
        clang_getCursorBinaryOperatorKind(e->cur) != CXBinaryOperator_Assign)
        return NULL;
    cnode *lhs = cn_strip(e->kids[0]);
    if (!lhs || lhs->kind != CXCursor_MemberRefExpr || lhs->n_kids < 1 ||
        !names_decl(lhs->kids[0], parm))
        return NULL;
    char *name = cn_spelling(lhs->cur);
    bool same = !strcmp(name, field);
    free(name);
    return same ? e->kids[1] : NULL;
}

static const cnode *up(const cnode *n, const cnode **at)
{
    *at = n;
    const cnode *p = n->parent;
    while (p && (p->kind == CXCursor_UnexposedExpr || p->kind == CXCursor_ParenExpr)) {
        *at = p;
        p = p->parent;
    }
    return p;
}

/* at, a kid of call, is handed to a parameter that only reads it (by
 * value or by const reference). */
/* The argument cursor c spans what at spans (libclang's cursor for an
 * argument need not equal the one the tree was built from). */
static bool names_arg(const cnode *at, CXCursor c)
{
    return clang_equalRanges(clang_getCursorExtent(at->cur), clang_getCursorExtent(c));
}

static bool leaves_field(const cnode *n, CXCursor parm, const char *field, int depth);

/* at, a kid of call, is handed to a parameter that only reads it (by
 * value or by const reference), or to a reference the callee leaves the
 * field alone through. */
static bool passed_for_reading(const cnode *call, const cnode *at, const char *field, int depth)
{
    CXCursor fn = clang_getCursorReferenced(call->cur);
    int np = clang_Cursor_isNull(fn) ? -1 : clang_Cursor_getNumArguments(fn);
    int na = clang_Cursor_getNumArguments(call->cur);
    if (np < 0 || na < 0)
        return false;
    /* The object of an overloaded member operator comes first. */
    int skip = na > np ? na - np : 0;
    for (int i = skip; i < na; i++) {
        if (!names_arg(at, clang_Cursor_getArgument(call->cur, (unsigned)i)))
            continue;
        CXCursor parm = clang_Cursor_getArgument(fn, (unsigned)(i - skip));
        CXType t = clang_getCanonicalType(clang_getCursorType(parm));
        if (!((t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) &&
              !clang_isConstQualifiedType(clang_getPointeeType(t))))
            return true;
        if (!field || depth >= SETTER_MAX_DEPTH)
            return false;
        /* Handed on by reference (a dispatcher to the launching function):
         * its callee's body must leave the field too. */
        CXCursor def = clang_getCursorDefinition(fn);
        if (clang_Cursor_isNull(def))
            return false;
        cnode *tree = cn_build(def);
        bool leaves = false;
        for (int k = 0; k < tree->n_kids; k++)
            if (tree->kids[k]->kind == CXCursor_CompoundStmt)
                leaves =
                    leaves_field(tree->kids[k], clang_Cursor_getArgument(def, (unsigned)(i - skip)),
                                 field, depth + 1);
        cn_free(tree);
        return leaves;
    }
    return false;
}

/* The field, reached at m, is only read there. */
static bool field_read(const cnode *m, int depth)
{
    const cnode *at, *p = up(m, &at);
    if (!p)
        return true;
    switch (p->kind) {
    case CXCursor_BinaryOperator:
        return !(p->n_kids > 0 && p->kids[0] == at &&
                 clang_getCursorBinaryOperatorKind(p->cur) == CXBinaryOperator_Assign);
    case CXCursor_CompoundAssignOperator:
        return !(p->n_kids > 0 && p->kids[0] == at);
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(p->cur);
        return k != CXUnaryOperator_PostInc && k != CXUnaryOperator_PostDec &&
               k != CXUnaryOperator_PreInc && k != CXUnaryOperator_PreDec &&
               k != CXUnaryOperator_AddrOf;
    }
    case CXCursor_CallExpr:
        return passed_for_reading(p, at, NULL, depth);
    case CXCursor_VarDecl:
        return clang_getCanonicalType(clang_getCursorType(p->cur)).kind != CXType_LValueReference;
    default:
        return true;
    }
}

/* Every mention of parm below n leaves `field` as it is: another field's
 * use, a read of this one, parm handed to a call that only reads it. */
static bool leaves_field(const cnode *n, CXCursor parm, const char *field, int depth)
{
    if (n->kind == CXCursor_DeclRefExpr && names_decl(n, parm)) {
        const cnode *at, *m = up(n, &at);
        if (m && m->kind == CXCursor_CallExpr)
            return passed_for_reading(m, at, field, depth);
        if (!m || m->kind != CXCursor_MemberRefExpr)
            return false;
        char *name = cn_spelling(m->cur);
        bool other = strcmp(name, field) != 0;
        free(name);
        return other || field_read(m, depth);
    }
    for (int i = 0; i < n->n_kids; i++)
        if (!leaves_field(n->kids[i], parm, field, depth))
            return false;
    return true;
}

/* The last statement of body that assigns the field at its top level,
 * with nothing after it that could change the field; NULL where none. */
static cnode *last_top_assign(cnode *body, CXCursor parm, const char *field)
{
    for (int i = body->n_kids - 1; i >= 0; i--) {
        cnode *rhs = field_assign(body->kids[i], parm, field);
        if (rhs)
            return rhs;
        if (!leaves_field(body->kids[i], parm, field, 0))
            return NULL;
    }
    return NULL;
}

/* The slot of call that hands v by a reference that is not const. */
static int ref_slot(cnode *call, CXCursor def, const var_info *v)
{
    cnode *args[SETTER_MAX_PARAMS];
    int n = cn_call_args(call, def, args, SETTER_MAX_PARAMS);
    for (int i = 0; i < n; i++) {
        CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(def, i)));
        if ((t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) &&
            !clang_isConstQualifiedType(clang_getPointeeType(t)) && args[i] &&
            names_decl(args[i], v->decl))
            return i;
    }
    return -1;
}

/* The calls before use that may change v's fields, in order (at most
 * max); -1 where there are more. */
static int changers(fn_ctx *f, var_info *v, cnode *use, cnode **out, int max)
{
    unsigned to = cn_spelled_at(use->cur);
    int n = 0;
    for (const cnode *c = x_field_changer(f->root, v, 0, to); c;
         c = x_field_changer(f->root, v, cn_spelled_at(c->cur), to)) {
        if (n == max)
            return -1;
        out[n++] = (cnode *)c;
    }
    return n;
}

/* What one changing call leaves in the field: *value set where its
 * callee assigns it at the top level; true with *value NULL where the
 * callee leaves the field alone (an earlier call's value holds); false
 * where it may change it in a way gpulint does not follow. */
static bool call_leaves(fn_ctx *f, var_info *v, const char *field, cnode *call, expr **value)
{
    *value = NULL;
    CXCursor fn = clang_getCursorReferenced(call->cur);
    CXCursor def = clang_Cursor_isNull(fn) ? fn : clang_getCursorDefinition(fn);
    if (clang_Cursor_isNull(def) || (clang_getCursorKind(def) != CXCursor_FunctionDecl &&
                                     clang_getCursorKind(def) != CXCursor_FunctionTemplate))
        return false;
    int slot = ref_slot(call, def, v);
    if (slot < 0)
        return false;
    CXCursor parm = clang_Cursor_getArgument(def, (unsigned)slot);
    cnode *tree = cn_build(def), *body = NULL;
    for (int i = 0; i < tree->n_kids; i++)
        if (tree->kids[i]->kind == CXCursor_CompoundStmt)
            body = tree->kids[i];
    bool ok = false;
    cnode *rhs = body ? last_top_assign(body, parm, field) : NULL;
    if (rhs) {
        *value = x_callee_value(f, call, def, tree, rhs, false);
        ok = *value != NULL;
    } else {
        ok = body && leaves_field(body, parm, field, 0);
    }
    cn_free(tree);
    return ok;
}

#define SETTER_MAX_CALLS 32

expr *x_setter_field(fn_ctx *f, var_info *v, const char *field, cnode *use)
{
    /* A pointer or reference kept to v (`Params *alias = &params;`) may
     * write the field where no call shows it. */
    if (f->device || v->is_param || v->n_assigns || f->depth >= X_MAX_DEPTH ||
        x_fields_escape(f, v))
        return NULL;
    cnode *calls[SETTER_MAX_CALLS];
    int n = changers(f, v, use, calls, SETTER_MAX_CALLS);
    /* The last call that sets the field, each later one leaving it alone. */
    expr *value = NULL;
    cnode *setter = NULL;
    for (int i = n - 1; i >= 0 && !setter; i--) {
        if (!call_leaves(f, v, field, calls[i], &value))
            return NULL;
        if (value)
            setter = calls[i];
    }
    /* A later call that leaves the field need not run; the setter must. */
    if (setter && !x_dominates(setter, use, f->t->obj_eval->arm, f)) {
        expr_free(value);
        return NULL;
    }
    if (!setter)
        return NULL;
    /* An assignment of the field after the call holds instead, where it
     * may reach use (x_member_set_before's to judge). */
    unsigned at = cn_spelled_at(setter->cur);
    for (int i = 0; i < v->n_member_assigns; i++) {
        cnode *m = v->member_assigns[i];
        char *name = cn_spelling(cn_strip(m->kids[0])->cur);
        bool same = !strcmp(name, field);
        free(name);
        if (same && cn_spelled_at(m->cur) > at) {
            expr_free(value);
            return NULL;
        }
    }
    if (value->kind == EX_CONST && f->record) {
        /* Listed where the helper is called. */
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "%s.%s", v->name, field);
        cusrc_size_from from = {(char *)sbuf_str(&b), value->value, f->name, {0}, false};
        cn_loc(f->t, setter->cur, &from.loc);
        folded_add(f->record, &from);
        free(from.loc.file);
        sbuf_free(&b);
    }
    return value;
}

bool x_changers_leave_field(fn_ctx *f, var_info *v, const char *field, cnode *use)
{
    cnode *calls[SETTER_MAX_CALLS];
    int n = changers(f, v, use, calls, SETTER_MAX_CALLS);
    for (int i = 0; i < n; i++) {
        expr *value = NULL;
        bool leaves = call_leaves(f, v, field, calls[i], &value) && !value;
        expr_free(value);
        if (!leaves)
            return false;
    }
    return n >= 0;
}
