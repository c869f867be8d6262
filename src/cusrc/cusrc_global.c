/* cusrc_global: the value of a file-scope variable that host code reads
 * where the main file sets it in one place everything after it sees: its
 * initializer when no code of the file writes it, or main's one assignment
 * among the statements at the top of main that come before main calls any
 * function of the file (HeCBench's blockScan: `int grid_size = 1;` at file
 * scope, `grid_size = atoi(argv[1]);` first thing in main). Anything else
 * (a write in another function, in a branch or loop of main, after a call,
 * through a pointer) leaves the variable a run-time value. A struct (a
 * dim3) is also written by an assignment to one of its members or by its
 * operator=, anywhere in the file (global_object_written). */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

typedef struct writes {
    CXCursor var;
    bool elsewhere; /* written outside main's top level (or through &) */
} writes;

/* A write of var under parent: var as the left side of an assignment, or
 * the operand of ++, -- or &. */
static bool writes_var(CXCursor ref, CXCursor parent, CXCursor var)
{
    if (!clang_equalCursors(clang_getCursorReferenced(ref), var))
        return false;
    enum CXCursorKind k = clang_getCursorKind(parent);
    if (k == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(parent);
        return op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ||
               op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreDec ||
               op == CXUnaryOperator_AddrOf;
    }
    if (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator)
        return false;
    if (k == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(parent) != CXBinaryOperator_Assign)
        return false;
    /* The left side starts where the assignment does. */
    CXSourceLocation a = clang_getRangeStart(clang_getCursorExtent(ref));
    CXSourceLocation b = clang_getRangeStart(clang_getCursorExtent(parent));
    unsigned oa, ob;
    clang_getSpellingLocation(a, NULL, NULL, NULL, &oa);
    clang_getSpellingLocation(b, NULL, NULL, NULL, &ob);
    return oa == ob;
}

static enum CXChildVisitResult find_writes(CXCursor c, CXCursor parent, CXClientData data)
{
    writes *w = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && writes_var(c, parent, w->var))
        w->elsewhere = true;
    return w->elsewhere ? CXChildVisit_Break : CXChildVisit_Recurse;
}

typedef struct fn_scan {
    cusrc_tu *t;
    CXCursor var, main;
    writes w;
} fn_scan;

static enum CXChildVisitResult each_function(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    fn_scan *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_ClassDecl ||
        k == CXCursor_StructDecl)
        return cn_in_main(s->t, c) ? CXChildVisit_Recurse : CXChildVisit_Continue;
    if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
         k == CXCursor_Constructor) &&
        clang_isCursorDefinition(c) && cn_in_main(s->t, c)) {
        char *name = cn_spelling(c);
        bool is_main = k == CXCursor_FunctionDecl && !strcmp(name, "main");
        free(name);
        if (is_main)
            s->main = c;
        else
            clang_visitChildren(c, find_writes, &s->w);
    }
    return s->w.elsewhere ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether a statement of main calls a function the file defines (or
 * launches a kernel): what runs from there on may read the variable. */
static bool calls_user_code(cusrc_tu *t, const cnode *n)
{
    if (n->kind == CXCursor_CallExpr) {
        CXCursor fn = clang_getCursorReferenced(n->cur);
        CXCursor def = clang_Cursor_isNull(fn) ? fn : clang_getCursorDefinition(fn);
        if (!clang_Cursor_isNull(def) && (cn_in_main(t, def) || cn_in_user_header(t, def)))
            return true;
        char *name = cn_spelling(n->cur);
        bool launch =
            !strncmp(name, "__cudaPushCallConfiguration", 27) || !strncmp(name, "cudaLaunch", 10);
        free(name);
        if (launch)
            return true;
    }
    for (int i = 0; i < n->n_kids; i++)
        if (calls_user_code(t, n->kids[i]))
            return true;
    return false;
}

/* main's one top-level assignment to var before its first call of user
 * code: its right side (a node of *tree, which the caller frees); NULL
 * when there is none or main writes var otherwise. *assigned says whether
 * main writes it at all. */
static cnode *main_site(cusrc_tu *t, CXCursor main_fn, CXCursor var, bool *assigned, cnode **tree)
{
    *assigned = false;
    cnode *root = *tree = cn_build(main_fn);
    cnode *body = NULL;
    for (int i = 0; i < root->n_kids && !body; i++)
        if (root->kids[i]->kind == CXCursor_CompoundStmt)
            body = root->kids[i];
    cnode *rhs = NULL;
    bool ok = body != NULL, called = false;
    for (int i = 0; ok && i < body->n_kids; i++) {
        cnode *st = body->kids[i];
        writes w = {var, false};
        clang_visitChildren(st->cur, find_writes, &w);
        if (!w.elsewhere) {
            called = called || calls_user_code(t, st);
            continue;
        }
        *assigned = true;
        cnode *a = cn_strip(st);
        bool plain = a && a->kind == CXCursor_BinaryOperator && a->n_kids == 2 &&
                     clang_getCursorBinaryOperatorKind(a->cur) == CXBinaryOperator_Assign &&
                     cn_strip_casts(a->kids[0])->kind == CXCursor_DeclRefExpr &&
                     clang_equalCursors(clang_getCursorReferenced(a->kids[0]->cur), var);
        if (!plain || called || calls_user_code(t, a->kids[1]))
            ok = false;
        else
            rhs = a->kids[1];
    }
    return ok ? rhs : NULL;
}

cnode *global_site(cusrc_tu *t, CXCursor var, cnode **value, bool *in_main)
{
    *value = NULL;
    *in_main = false;
    if (clang_getCursorKind(var) != CXCursor_VarDecl || !cn_in_main(t, var))
        return NULL;
    CXCursor sem = clang_getCursorSemanticParent(var);
    enum CXCursorKind sk = clang_getCursorKind(sem);
    if (sk != CXCursor_TranslationUnit && sk != CXCursor_Namespace)
        return NULL;
    fn_scan s = {t, var, clang_getNullCursor(), {var, false}};
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), each_function, &s);
    if (s.w.elsewhere)
        return NULL;
    cnode *tree = NULL;
    if (!clang_Cursor_isNull(s.main)) {
        bool assigned = false;
        *value = main_site(t, s.main, var, &assigned, &tree);
        *in_main = *value != NULL;
        if (*value || assigned) {
            if (!*value) {
                cn_free(tree);
                tree = NULL;
            }
            return tree;
        }
        cn_free(tree);
    }
    /* Never written: its initializer. */
    tree = cn_build(var);
    *value = fn_var_init(tree);
    if (!*value) {
        cn_free(tree);
        return NULL;
    }
    return tree;
}

static enum CXChildVisitResult first_child(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    *(CXCursor *)data = c;
    return CXChildVisit_Break;
}

/* The variable an lvalue names, through members (`grid.x`), parens and
 * implicit casts: libclang's cursor of the outermost DeclRefExpr. */
static CXCursor lvalue_root(CXCursor c)
{
    for (int depth = 0; depth < 16; depth++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_DeclRefExpr)
            return clang_getCursorReferenced(c);
        if (k != CXCursor_MemberRefExpr && k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
            break;
        CXCursor first = clang_getNullCursor();
        clang_visitChildren(c, first_child, &first);
        if (clang_Cursor_isNull(first))
            break;
        c = first;
    }
    return clang_getNullCursor();
}

static enum CXChildVisitResult find_object_writes(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    writes *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    bool assign = k == CXCursor_CompoundAssignOperator ||
                  (k == CXCursor_BinaryOperator &&
                   clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign);
    if (!assign && k == CXCursor_CallExpr) {
        char *name = cn_spelling(c);
        assign = !strncmp(name, "operator", 8) && strchr(name, '=') && strcmp(name, "operator==") &&
                 strcmp(name, "operator!=") && strcmp(name, "operator<=") &&
                 strcmp(name, "operator>=");
        free(name);
    }
    if (assign) {
        CXCursor first = clang_getNullCursor();
        clang_visitChildren(c, first_child, &first);
        CXCursor root = clang_Cursor_isNull(first) ? first : lvalue_root(first);
        if (!clang_Cursor_isNull(root) && clang_equalCursors(root, w->var))
            w->elsewhere = true;
    }
    return w->elsewhere ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* The main file's function bodies, each visited with body until *stop. */
typedef struct fn_walk {
    cusrc_tu *t;
    CXCursorVisitor body;
    void *data;
    const bool *stop;
} fn_walk;

static enum CXChildVisitResult each_body(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    fn_walk *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!cn_in_main(s->t, c))
        return CXChildVisit_Continue;
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_ClassDecl ||
        k == CXCursor_StructDecl)
        return CXChildVisit_Recurse;
    if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
         k == CXCursor_Constructor) &&
        clang_isCursorDefinition(c))
        clang_visitChildren(c, s->body, s->data);
    return *s->stop ? CXChildVisit_Break : CXChildVisit_Continue;
}

static void walk_bodies(cusrc_tu *t, CXCursorVisitor body, void *data, const bool *stop)
{
    fn_walk s = {t, body, data, stop};
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), each_body, &s);
}

bool global_object_written(cusrc_tu *t, CXCursor var)
{
    writes w = {var, false};
    walk_bodies(t, find_object_writes, &w, &w.elsewhere);
    return w.elsewhere;
}

/* ---- across units ---- */

static bool external_integer(CXCursor var)
{
    if (clang_getCursorKind(var) != CXCursor_VarDecl ||
        clang_getCursorLinkage(var) != CXLinkage_External ||
        !cn_type_is_integral(clang_getCursorType(var)))
        return false;
    enum CXCursorKind sk = clang_getCursorKind(clang_getCursorSemanticParent(var));
    return sk == CXCursor_TranslationUnit || sk == CXCursor_Namespace;
}

typedef struct any_write {
    CXCursor var; /* null: report every external variable written */
    void (*found)(void *ctx, CXCursor var);
    void *ctx;
    bool hit;
} any_write;

static enum CXChildVisitResult write_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    any_write *w = data;
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    CXCursor ref = clang_getCursorReferenced(c);
    if (!writes_var(c, parent, ref))
        return CXChildVisit_Continue;
    if (!clang_Cursor_isNull(w->var)) {
        w->hit = clang_equalCursors(ref, w->var);
        return w->hit ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (external_integer(ref) && clang_Cursor_isNull(clang_getCursorDefinition(ref)))
        w->found(w->ctx, ref);
    return CXChildVisit_Continue;
}

void global_extern_writes(cusrc_tu *t, void (*found)(void *ctx, CXCursor var), void *ctx)
{
    any_write w = {clang_getNullCursor(), found, ctx, false};
    walk_bodies(t, write_visit, &w, &w.hit);
}

bool global_from_units(cusrc_tu *t, CXCursor var, int64_t *value, src_loc *at)
{
    if (!t->calls || !t->calls->n_g || !external_integer(var) ||
        !clang_Cursor_isNull(clang_getCursorDefinition(var)))
        return false;
    char *usr = cx_str(clang_getCursorUSR(var));
    const cusrc_xglobal *known = NULL;
    bool written = false;
    for (size_t i = 0; i < t->calls->n_g; i++)
        if (!strcmp(t->calls->g[i].usr, usr)) {
            if (t->calls->g[i].known)
                known = &t->calls->g[i];
            else
                written = true;
        }
    free(usr);
    if (!known || written)
        return false;
    any_write w = {var, NULL, NULL, false};
    walk_bodies(t, write_visit, &w, &w.hit);
    if (w.hit)
        return false;
    *value = known->value;
    *at = known->loc;
    return true;
}
