/* cusrc_call: calls from a kernel to the project's __device__ functions,
 * walked at the call site. Real kernels keep their loops in helpers
 * (loadTile, computeTile, load128); the compiler inlines them, so the work
 * and the memory traffic are the kernel's, with the caller's values: the
 * helper's body is walked with its value parameters bound to the caller's
 * argument expressions, its pointer and reference parameters bound to the
 * memory the arguments name, inside the caller's loops and guards.
 * Functions of system headers (the toolkit, libraries) are not walked:
 * the known ones count as intrinsics, the others make the counts
 * incomplete. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_walk.h"

static bool name_taken(const fn_ctx *f, const char *name)
{
    for (size_t i = 0; i < f->n_vars; i++)
        if (strcmp(f->vars[i].name, name) == 0)
            return true;
    for (int i = 0; i < f->n_loops; i++)
        if (f->loops[i]->ctx.var && strcmp(f->loops[i]->ctx.var, name) == 0)
            return true;
    return false;
}

/* The helper's locals become symbols in the caller's loops and sites: one
 * named like a variable of a function up the chain is given the helper's
 * name as a prefix, so two `i`s stay two loops. */
static void rename_locals(walker *w, fn_ctx *cf, const char *short_name)
{
    for (size_t i = 0; i < cf->n_vars; i++) {
        var_info *v = &cf->vars[i];
        bool taken = name_taken(&w->kf, v->name);
        for (call_frame *fr = w->calls; fr && !taken; fr = fr->up)
            taken = name_taken(fr->ctx, v->name);
        if (!taken)
            continue;
        char *q = xmalloc(strlen(short_name) + strlen(v->name) + 3);
        sprintf(q, "%s::%s", short_name, v->name);
        free(v->name);
        v->name = q;
    }
}

static long count_nodes(const cnode *n)
{
    long c = 1;
    for (int i = 0; i < n->n_kids; i++)
        c += count_nodes(n->kids[i]);
    return c;
}

/* Why a call is not walked: the kernel's counts keep the first reason
 * and count the rest (wk_incomplete). */
static void skip_call(walker *w, cnode *call, const char *what, CXCursor def)
{
    src_loc l = {0};
    cn_loc(w->t, call->cur, &l);
    char *name = call_qualified_name(def);
    wk_incomplete(w, "line %d: %s '%s'", l.line, what, name);
    free(name);
    free(l.file);
}

/* CUB's block- and warp-wide collectives exchange the threads' items
 * through registers and the TempStorage the caller gives them in shared
 * memory, never global memory (CUB's documentation of each class); on
 * integer items they do no floating-point work. Such a call (or the
 * constructor that binds the TempStorage) adds nothing to the global or
 * FLOP counts; its shared-memory traffic has no site, which the counts
 * say. On floating-point items the operator's FLOPs are not counted: the
 * call stays one the counts miss. */
static bool cub_collective(walker *w, cnode *call, CXCursor def)
{
    static const char *const classes[] = {
        "BlockReduce",        "BlockScan",      "BlockAdjacentDifference",
        "BlockDiscontinuity", "BlockExchange",  "BlockShuffle",
        "BlockRadixSort",     "BlockMergeSort", "WarpReduce",
        "WarpScan",           "WarpExchange",   "WarpMergeSort",
    };
    CXCursor cls = clang_getCursorSemanticParent(def);
    if (cls.kind != CXCursor_ClassDecl && cls.kind != CXCursor_StructDecl &&
        cls.kind != CXCursor_ClassTemplate)
        return false;
    char *name = cn_spelling(cls);
    bool known = false;
    for (size_t i = 0; i < sizeof classes / sizeof classes[0] && !known; i++)
        known = !strcmp(name, classes[i]);
    free(name);
    if (!known)
        return false;
    CXType item =
        clang_getCanonicalType(clang_Type_getTemplateArgumentAsType(clang_getCursorType(cls), 0));
    switch (item.kind) {
    case CXType_Bool:
    case CXType_Char_U:
    case CXType_UChar:
    case CXType_UShort:
    case CXType_UInt:
    case CXType_ULong:
    case CXType_ULongLong:
    case CXType_Char_S:
    case CXType_SChar:
    case CXType_Short:
    case CXType_Int:
    case CXType_Long:
    case CXType_LongLong:
        break;
    default:
        return false;
    }
    /* The arguments are walked by the caller, as for any call not followed. */
    cusrc_counts *c = &w->u->variants[w->variant].counts;
    if (!c->shared_missing && def.kind != CXCursor_Constructor) {
        src_loc l = {0};
        cn_loc(w->t, call->cur, &l);
        char *q = call_qualified_name(def);
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "line %d: the shared-memory traffic of '%s' is not counted", l.line, q);
        c->shared_missing = sbuf_take(&b);
        free(q);
        free(l.file);
    }
    return true;
}

/* Binds the pointer and reference parameters of def to the memory their
 * arguments name, in the caller's context. */
static void bind_pointers(walker *w, cnode **args, int np, CXCursor def, call_frame *fr)
{
    for (int i = 0; i < np; i++) {
        if (!args[i])
            continue;
        CXCursor parm = clang_Cursor_getArgument(def, (unsigned)i);
        CXType pt = clang_getCanonicalType(clang_getCursorType(parm));
        lref r = {SP_NONE, -1, NULL, NULL, NULL};
        if (cn_decl_pointer(parm, NULL))
            wk_resolve_pointer(w, args[i], &r, 0);
        else if (call_is_reference(pt))
            wk_resolve_lvalue(w, args[i], &r, 0);
        else
            continue;
        /* Kept even when it names no memory gpulint reports on (a local
         * array in registers): the parameter then means that, not an
         * unknown pointer. */
        fr->ptrs = xrealloc(fr->ptrs, (size_t)(fr->n_ptrs + 1) * sizeof *fr->ptrs);
        fr->ptrs[fr->n_ptrs].parm = parm;
        fr->ptrs[fr->n_ptrs].at = r;
        fr->n_ptrs++;
    }
}

/* The kernel parameter a method is called on, or the one the calling
 * method was (a call through this); NULL when it is neither. */
static char *object_path(walker *w, cnode *call, CXCursor def)
{
    if (clang_getCursorKind(def) != CXCursor_CXXMethod || clang_CXXMethod_isStatic(def) ||
        !call->n_kids)
        return NULL;
    char *method = cn_spelling(def);
    bool invoke = !strcmp(method, "operator()");
    free(method);
    if (invoke && !w->calls) {
        /* `f(i)` on a functor or lambda the kernel takes by value: the
         * object is the call's first expression. */
        cnode *obj = cn_strip(cn_expr_kid(call, 0));
        var_info *v = obj && obj->kind == CXCursor_DeclRefExpr
                          ? fn_var(w->f, clang_getCursorReferenced(obj->cur))
                          : NULL;
        CXType t = v ? clang_getCanonicalType(clang_getCursorType(v->decl)) : (CXType){0};
        return v && v->is_param && t.kind == CXType_Record ? xstrdup(v->name) : NULL;
    }
    cnode *callee = cn_strip(call->kids[0]);
    if (!callee || callee->kind != CXCursor_MemberRefExpr)
        return NULL;
    cnode *obj = callee->n_kids ? cn_strip(callee->kids[0]) : NULL;
    if (!obj || obj->kind == CXCursor_CXXThisExpr)
        return w->calls && w->calls->this_path ? xstrdup(w->calls->this_path) : NULL;
    if (obj->kind != CXCursor_DeclRefExpr || w->calls)
        return NULL;
    var_info *v = fn_var(w->f, clang_getCursorReferenced(obj->cur));
    CXType t = v ? clang_getCanonicalType(clang_getCursorType(v->decl)) : (CXType){0};
    return v && v->is_param && t.kind == CXType_Record ? xstrdup(v->name) : NULL;
}

/* A constructor's member initialisers are expressions before its body. */
static void walk_ctor_inits(walker *w, cnode *root)
{
    if (root->kind != CXCursor_Constructor)
        return;
    for (int i = 0; i < root->n_kids; i++)
        if (cn_is_expr(root->kids[i]))
            w->walk_expr(w, root->kids[i]);
}

bool call_walk(walker *w, cnode *call)
{
    CXCursor def = clang_getNullCursor();
    callee_kind kind = call_classify(w->t, call, &def);
    if (kind == CALLEE_NONE)
        return false;
    if (kind == CALLEE_LIBRARY) {
        if (!cub_collective(w, call, def))
            skip_call(w, call, "calls the library function", def);
        return false;
    }
    if (kind == CALLEE_OPAQUE) {
        skip_call(w, call, "calls a function whose body is not in this file:", def);
        return false;
    }
    for (call_frame *fr = w->calls; fr; fr = fr->up)
        if (clang_equalCursors(fr->def, def)) {
            skip_call(w, call, "makes a recursive call to", def);
            return false;
        }
    if (w->n_calls >= CALL_MAX_DEPTH) {
        skip_call(w, call, "calls more than 16 deep, to", def);
        return false;
    }
    cnode *root = cn_build(def);
    long size = count_nodes(root);
    if (size > w->call_budget) {
        cn_free(root);
        skip_call(w, call, "ran out of the budget for following calls at", def);
        return false;
    }
    w->call_budget -= size;

    /* The arguments are evaluated in the caller, before the call. */
    for (int i = 0; i < call->n_kids; i++)
        w->walk_expr(w, call->kids[i]);

    cnode *args[CALL_MAX_PARAMS];
    int np = cn_call_args(call, def, args, CALL_MAX_PARAMS);
    param_binding vals[CALL_MAX_PARAMS];
    int nv = np >= 0 ? x_bind_args(w->f, call, def, vals, CALL_MAX_PARAMS) : -1;
    call_frame fr = {0};
    fr.def = def;
    fr.name = call_qualified_name(def);
    src_loc l = {0};
    cn_loc(w->t, call->cur, &l);
    fr.call_line = l.line;
    fr.call_file = l.file;
    fr.up = w->calls;
    fr.ctx = NULL; /* set once the helper's context exists */
    fr.this_path = object_path(w, call, def);
    if (np > 0)
        bind_pointers(w, args, np, def, &fr);

    fn_ctx cf;
    fn_init(&cf, w->t, root, true);
    cf.generic = w->f->generic;
    bind_frame bf = {vals, nv > 0 ? nv : 0, NULL, false, NULL};
    for (int i = 0; i < bf.n; i++) {
        /* A parameter the helper reassigns is not its argument throughout. */
        var_info *v = fn_var(&cf, vals[i].parm);
        if (v && v->n_assigns)
            vals[i].parm = clang_getNullCursor();
    }
    cf.bindings = &bf;
    cf.this_path = fr.this_path;
    fn_ctx *caller = w->f;
    cf.loops = caller->loops;
    cf.n_loops = caller->n_loops;
    cf.cap_loops = caller->cap_loops;
    fr.ctx = &cf;
    char *short_name = cn_spelling(def);
    rename_locals(w, &cf, short_name);
    free(short_name);

    w->f = &cf;
    w->calls = &fr;
    w->n_calls++;
    walk_ctor_inits(w, root);
    w->walk_body(w, root);
    w->n_calls--;
    w->calls = fr.up;
    w->f = caller;
    caller->loops = cf.loops;
    caller->cap_loops = cf.cap_loops;
    cf.loops = NULL;
    fn_free(&cf);
    cn_free(root);
    if (nv > 0)
        x_unbind(vals, nv);
    for (int i = 0; i < fr.n_ptrs; i++)
        wk_lref_free(&fr.ptrs[i].at);
    free(fr.ptrs);
    free(fr.name);
    free(fr.call_file);
    free(fr.this_path);
    return true;
}
