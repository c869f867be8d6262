/* cusrc_refparam: whether a function can change what a non-const
 * reference parameter names. Programs hand their size structs to helpers
 * as `BoxCU &domain` that only read them; a caller's field survives such a
 * call where the helper's body neither assigns the parameter nor a field
 * of it, takes no address of it, and hands it on only to functions that do
 * the same. Anything gpulint cannot see (no body, too deep a chain, a
 * method called on it) counts as a change. */
#include <stdlib.h>

#include "cusrc/cusrc_int.h"

#define REFPARAM_MAX_DEPTH 4
#define REFPARAM_MAX_ARGS 32

static bool is_mutable_ref(CXType t)
{
    t = clang_getCanonicalType(t);
    return (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) &&
           !clang_isConstQualifiedType(clang_getPointeeType(t));
}

static bool fn_may_change(CXCursor fn, int i, int depth);
static bool use_changes(const cnode *r, int depth);

char *x_getter_field(CXCursor m)
{
    CXCursor def = clang_getCursorDefinition(m);
    if (clang_Cursor_isNull(def))
        return NULL;
    cnode *root = cn_build(def);
    const cnode *body = root->n_kids ? root->kids[root->n_kids - 1] : NULL;
    const cnode *ret =
        body && body->kind == CXCursor_CompoundStmt && body->n_kids == 1 ? body->kids[0] : NULL;
    const cnode *e = ret && ret->kind == CXCursor_ReturnStmt && ret->n_kids == 1
                         ? cn_strip_casts((cnode *)ret->kids[0])
                         : NULL;
    bool getter =
        e && e->kind == CXCursor_MemberRefExpr &&
        clang_getCursorKind(clang_getCursorReferenced(e->cur)) == CXCursor_FieldDecl &&
        (e->n_kids == 0 || cn_strip_casts((cnode *)e->kids[0])->kind == CXCursor_CXXThisExpr);
    char *field = getter ? cn_spelling(e->cur) : NULL;
    cn_free(root);
    return field;
}

/* Can call, a call of method m on an object, change that object: m is not
 * const and is no field getter whose result the caller only reads (a
 * getter changes nothing itself, and what it returns changes the field
 * only where the caller writes through it). */
static bool method_call_changes(const cnode *call, CXCursor m, int depth)
{
    if (clang_CXXMethod_isConst(m))
        return false;
    char *field = x_getter_field(m);
    bool getter = field != NULL;
    free(field);
    return !getter || use_changes(call, depth);
}

bool x_method_call_changes(const cnode *call, CXCursor m)
{
    return method_call_changes(call, m, 0);
}

/* The call passes at (one of its kids) to a parameter that can change it. */
static bool call_arg_changes(const cnode *call, const cnode *at, int depth)
{
    CXCursor fn = clang_getCursorReferenced(call->cur);
    if (clang_Cursor_isNull(fn) || clang_Cursor_getNumArguments(fn) < 0)
        return true; /* a call through a pointer, an unresolved template */
    cnode *args[REFPARAM_MAX_ARGS];
    int np = cn_call_args((cnode *)call, fn, args, REFPARAM_MAX_ARGS);
    for (int i = 0; i < np; i++) {
        if (args[i] != at)
            continue;
        CXType t = clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)i));
        return is_mutable_ref(t) && fn_may_change(fn, i, depth + 1);
    }
    /* The callee itself or the object of a member operator. */
    return !(fn.kind == CXCursor_CXXMethod && clang_CXXMethod_isConst(fn));
}

/* Can the use at r (a reference to the parameter, or a field of it
 * reached from one) change what it names? Walks up through the fields,
 * array members and wrappers that still name the same object. */
static bool use_changes(const cnode *r, int depth)
{
    const cnode *at = r;
    for (const cnode *p = r->parent; p; at = p, p = p->parent) {
        switch (p->kind) {
        case CXCursor_ParenExpr:
        case CXCursor_UnexposedExpr:
            continue;
        case CXCursor_MemberRefExpr: {
            CXCursor m = clang_getCursorReferenced(p->cur);
            if (m.kind == CXCursor_CXXMethod)
                return p->parent && p->parent->kind == CXCursor_CallExpr
                           ? method_call_changes(p->parent, m, depth)
                           : !clang_CXXMethod_isConst(m);
            CXType bt = clang_getCanonicalType(clang_getCursorType(at->cur));
            if (bt.kind == CXType_Pointer)
                return false; /* p->x: memory the pointer names */
            continue;
        }
        case CXCursor_ArraySubscriptExpr:
            if (p->n_kids < 1 || p->kids[0] != at ||
                !cn_is_array_type(clang_getCanonicalType(clang_getCursorType(at->cur))))
                return false; /* an index, or a pointer member's memory */
            continue;
        case CXCursor_BinaryOperator:
            return p->n_kids > 0 && p->kids[0] == at &&
                   clang_getCursorBinaryOperatorKind(p->cur) == CXBinaryOperator_Assign;
        case CXCursor_CompoundAssignOperator:
            return p->n_kids > 0 && p->kids[0] == at;
        case CXCursor_UnaryOperator: {
            enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(p->cur);
            return k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec ||
                   k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PreDec ||
                   k == CXUnaryOperator_AddrOf;
        }
        case CXCursor_CallExpr:
            return call_arg_changes(p, at, depth);
        case CXCursor_VarDecl:
            return is_mutable_ref(clang_getCursorType(p->cur)); /* an alias */
        case CXCursor_ReturnStmt:
            return true; /* a reference returned to the caller, perhaps */
        default:
            return false; /* read: arithmetic, a condition, an index */
        }
    }
    return false;
}

static bool refs_change(const cnode *n, CXCursor parm, int depth)
{
    if (n->kind == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(n->cur), parm) && use_changes(n, depth))
        return true;
    for (int i = 0; i < n->n_kids; i++)
        if (refs_change(n->kids[i], parm, depth))
            return true;
    return false;
}

/* Can fn change what its i-th parameter (a non-const reference) names? */
static bool fn_may_change(CXCursor fn, int i, int depth)
{
    CXCursor def = clang_getCursorDefinition(fn);
    if (depth > REFPARAM_MAX_DEPTH || clang_Cursor_isNull(def) ||
        clang_Cursor_getNumArguments(def) <= i)
        return true;
    CXCursor parm = clang_Cursor_getArgument(def, (unsigned)i);
    cnode *root = cn_build(def);
    bool changes = refs_change(root, parm, depth);
    cn_free(root);
    return changes;
}

bool x_ref_param_may_change(CXCursor fn, int i)
{
    return fn_may_change(fn, i, 0);
}
