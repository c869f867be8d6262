/* cusrc_setcall: setter methods and where they are called. A class often
 * holds its sizes in fields that methods set: `sim.SetNumberOfParticles(n)`
 * in main, whose body is `set_npart(N);`, whose body is `npart_ = N;`.
 * A setter is a method whose body does nothing but assign fields of this
 * (and call other setters on this); cusrc_object runs it on a known
 * object like a constructor. Its fields stay an object's own only where
 * every call of it is on a local variable (run where that variable's
 * value is taken) or on this in a constructor or another setter: a call
 * on anything else (a parameter, a member object, this in another method)
 * may change the field where no one looks, and the field is then no
 * object's known value. */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

#define SETTER_MAX_DEPTH 4 /* setters calling setters */

/* The method a call on this (implicit or `this->`) names; null otherwise. */
CXCursor x_call_on_this(const cnode *call)
{
    cnode *callee =
        call->kind == CXCursor_CallExpr && call->n_kids ? cn_strip(call->kids[0]) : NULL;
    CXCursor m = clang_getCursorReferenced(call->cur);
    if (!callee || callee->kind != CXCursor_MemberRefExpr || m.kind != CXCursor_CXXMethod)
        return clang_getNullCursor();
    cnode *base = callee->n_kids ? cn_strip(callee->kids[0]) : NULL;
    if (callee->n_kids && (!base || base->kind != CXCursor_CXXThisExpr))
        return clang_getNullCursor();
    return m;
}

static cnode *body_of(cnode *tree)
{
    for (int i = tree->n_kids - 1; i >= 0; i--)
        if (tree->kids[i]->kind == CXCursor_CompoundStmt)
            return tree->kids[i];
    return NULL;
}

static bool setter_rec(cusrc_tu *t, CXCursor m, char ***fields, int *n, int *cap, int depth);

/* One statement of a setter: `field = value;` (a value that changes
 * nothing) or a setter called on this. */
static bool setter_stmt(cusrc_tu *t, cnode *s, char ***fields, int *n, int *cap, int depth)
{
    if (s->kind == CXCursor_NullStmt)
        return true;
    cnode *e = cn_strip(s);
    if (e && e->kind == CXCursor_CallExpr) {
        CXCursor m = x_call_on_this(e);
        return !clang_Cursor_isNull(m) && setter_rec(t, m, fields, n, cap, depth + 1);
    }
    if (!e || e->kind != CXCursor_BinaryOperator || e->n_kids != 2 ||
        clang_getCursorBinaryOperatorKind(e->cur) != CXBinaryOperator_Assign ||
        cn_changes(e->kids[1]))
        return false;
    char *field = cn_this_field(e->kids[0]);
    if (!field)
        return false;
    if (fields) {
        GROW(*fields, *n, *cap);
        (*fields)[(*n)++] = field;
    } else {
        free(field);
    }
    return true;
}

static bool setter_rec(cusrc_tu *t, CXCursor m, char ***fields, int *n, int *cap, int depth)
{
    if (depth > SETTER_MAX_DEPTH || m.kind != CXCursor_CXXMethod || clang_CXXMethod_isStatic(m) ||
        clang_CXXMethod_isConst(m) || clang_CXXMethod_isVirtual(m))
        return false;
    CXCursor def = cn_definition(t, m);
    if (clang_Cursor_isNull(def))
        return false;
    cnode *tree = cn_build(def);
    cnode *body = body_of(tree);
    bool ok = body && body->n_kids > 0;
    for (int i = 0; ok && body && i < body->n_kids; i++)
        ok = setter_stmt(t, body->kids[i], fields, n, cap, depth);
    cn_free(tree);
    return ok;
}

bool x_is_setter(cusrc_tu *t, CXCursor m)
{
    return setter_rec(t, m, NULL, NULL, NULL, 0);
}

int x_setter_fields(cusrc_tu *t, CXCursor m, char ***fields)
{
    int n = 0, cap = 0;
    *fields = NULL;
    if (!setter_rec(t, m, fields, &n, &cap, 0)) {
        for (int i = 0; i < n; i++)
            free((*fields)[i]);
        free(*fields);
        *fields = NULL;
        return -1;
    }
    return n;
}

/* ---- where the setters are called ---- */

typedef struct call_scan {
    cusrc_tu *t;
    x_setter *setters;
    int n;
    CXCursor fn; /* the definition being walked */
} call_scan;

static bool is_local_var(CXCursor v)
{
    if (v.kind != CXCursor_VarDecl || clang_Cursor_getStorageClass(v) == CX_SC_Static ||
        clang_Cursor_getStorageClass(v) == CX_SC_Extern)
        return false;
    enum CXCursorKind p = clang_getCursorKind(clang_getCursorSemanticParent(v));
    return p == CXCursor_FunctionDecl || p == CXCursor_CXXMethod || p == CXCursor_Constructor ||
           p == CXCursor_FunctionTemplate || p == CXCursor_Destructor;
}

/* Is this call of a setter one cusrc_object runs where it happens? */
static bool followed_call(call_scan *s, const cnode *call)
{
    cnode *callee = cn_strip(call->kids[0]);
    cnode *base = callee && callee->n_kids ? cn_strip_casts(callee->kids[0]) : NULL;
    if (!callee || !callee->n_kids || (base && base->kind == CXCursor_CXXThisExpr))
        return s->fn.kind == CXCursor_Constructor || x_is_setter(s->t, s->fn);
    return base && base->kind == CXCursor_DeclRefExpr &&
           is_local_var(clang_getCursorReferenced(base->cur));
}

static bool same_method(CXCursor a, x_setter *s)
{
    if (clang_equalCursors(a, s->m))
        return true;
    if (a.kind != CXCursor_CXXMethod)
        return false;
    /* Cursors of two units never compare equal: the USR does. */
    char *usr = cx_str(clang_getCursorUSR(a));
    bool same = !strcmp(usr, s->usr);
    free(usr);
    return same;
}

static void calls(call_scan *s, const cnode *n)
{
    if (n->kind == CXCursor_CallExpr && n->n_kids) {
        CXCursor m = clang_getCursorReferenced(n->cur);
        for (int i = 0; m.kind == CXCursor_CXXMethod && i < s->n; i++)
            if (!s->setters[i].elsewhere && same_method(m, &s->setters[i]) &&
                (s->setters[i].any || !followed_call(s, n)))
                s->setters[i].elsewhere = true;
    }
    for (int i = 0; i < n->n_kids; i++)
        calls(s, n->kids[i]);
}

static void body(void *ctx, CXCursor def, cnode *tree)
{
    call_scan *s = ctx;
    s->fn = def;
    calls(s, tree);
}

void x_setter_calls(cusrc_tu *t, x_setter *setters, int n)
{
    if (n == 0)
        return;
    call_scan s = {t, setters, n, clang_getNullCursor()};
    x_each_definition(t, body, &s);
}
