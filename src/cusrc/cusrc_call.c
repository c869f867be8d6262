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
    if (def.kind != CXCursor_Constructor)
        cub_note_shared(w, call, def);
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

/* A store target a pure helper may write: its own local (not static,
 * not __shared__, not a reference) or by-value parameter, a field of one,
 * or the reference parameter ref. */
static bool writes_own(cnode *t, CXCursor def, CXCursor ref)
{
    t = cn_strip(t);
    for (int depth = 0; t && t->kind == CXCursor_MemberRefExpr && depth < 8; depth++) {
        if (t->n_kids != 1)
            return false;
        cnode *b = cn_strip(t->kids[0]);
        if (!b || clang_getCanonicalType(clang_getCursorType(b->cur)).kind == CXType_Pointer)
            return false; /* p->f: memory */
        t = b;
    }
    if (!t || t->kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor d = clang_getCursorReferenced(t->cur);
    if (!clang_Cursor_isNull(ref) && clang_equalCursors(d, ref))
        return true;
    if (call_is_reference(clang_getCursorType(d)))
        return false;
    if (d.kind == CXCursor_ParmDecl)
        return true;
    return d.kind == CXCursor_VarDecl &&
           clang_equalCursors(clang_getCursorSemanticParent(d), def) &&
           clang_Cursor_getStorageClass(d) != CX_SC_Static &&
           !cn_has_attr(d, CXCursor_CUDASharedAttr);
}

/* A variable of file scope named as itself (`calls`, `&calls`): an
 * object no __restrict__ pointer's element can be (C11 6.7.3.1: an object
 * reached through a restrict pointer is reached through it alone). */
static bool named_global(cnode *t)
{
    t = cn_strip_casts(cn_strip(t));
    if (t && t->kind == CXCursor_UnaryOperator && t->n_kids == 1 &&
        clang_getCursorUnaryOperatorKind(t->cur) == CXUnaryOperator_AddrOf)
        t = cn_strip_casts(cn_strip(t->kids[0]));
    if (!t || t->kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor d = clang_getCursorReferenced(t->cur);
    return d.kind == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(d) == 1 &&
           clang_getCursorSemanticParent(d).kind != CXCursor_FunctionDecl &&
           !call_is_reference(clang_getCursorType(d)) &&
           clang_getCanonicalType(clang_getCursorType(d)).kind != CXType_Pointer;
}

/* An atomic on a named variable of file scope (`atomicAdd(&calls, 1)`). */
static bool atomic_on_named(cnode *call)
{
    char *name = cn_spelling(call->cur);
    bool atomic = name && !strncmp(name, "atomic", 6);
    free(name);
    return atomic && call->n_kids >= 2 && named_global(call->kids[1]);
}

static bool pure_call_at(walker *w, cnode *call, CXCursor ref, bool named, int calls);

/* calls: how many helpers deep the body is; named: writes to variables of
 * file scope allowed. */
static bool pure_body(walker *w, cnode *n, CXCursor def, CXCursor ref, bool named, int calls,
                      int depth)
{
    if (depth > 64)
        return false;
    if (n->kind == CXCursor_AsmStmt ||
        (n->kind == CXCursor_CallExpr && !(named && atomic_on_named(n)) &&
         !pure_call_at(w, n, clang_getNullCursor(), named, calls + 1)))
        return false;
    cnode *target = wk_assign_target(n);
    if (target && !writes_own(target, def, ref) && !(named && named_global(target)))
        return false;
    for (int i = 0; i < n->n_kids; i++)
        if (!pure_body(w, n->kids[i], def, ref, named, calls, depth + 1))
            return false;
    return true;
}

static bool pure_call_at(walker *w, cnode *call, CXCursor ref, bool named, int calls)
{
    /* A load through a cache-hint intrinsic writes no memory. */
    if (wk_pure_call(call) || wk_load_intrinsic(call))
        return true;
    CXCursor def = clang_getNullCursor();
    callee_kind kind = call_classify(w->t, call, &def);
    CXCursor fn = clang_getCursorReferenced(call->cur);
    if (kind == CALLEE_NONE) {
        /* CUDA's make_float4 and friends, and constructors, build a value */
        char *name = cn_spelling(fn);
        bool maker = name && !strncmp(name, "make_", 5) && !cn_in_main(w->t, fn);
        free(name);
        return maker || fn.kind == CXCursor_Constructor;
    }
    if (kind != CALLEE_WALK || calls > 4)
        return false;
    /* ref is the callee's first parameter where given (call_vector_op_assign) */
    bool by_ref = !clang_Cursor_isNull(ref);
    for (int i = 0; i < w->n_pure_seen; i++)
        if (w->pure_seen[i].by_ref == by_ref && w->pure_seen[i].named == named &&
            clang_equalCursors(w->pure_seen[i].def, def))
            return w->pure_seen[i].pure;
    cnode *root = cn_build(def);
    bool pure = root && pure_body(w, root, def, ref, named, calls, 0);
    cn_free(root);
    if (w->n_pure_seen < (int)(sizeof w->pure_seen / sizeof w->pure_seen[0]))
        w->pure_seen[w->n_pure_seen++] = (struct helper_purity){def, by_ref, named, pure};
    return pure;
}

bool call_pure(walker *w, cnode *call, CXCursor ref)
{
    return pure_call_at(w, call, ref, false, 0);
}

/* `a op= b` through a helper's compound assignment operator of two
 * parameters, the first a reference (*a). */
static bool compound_op(walker *w, cnode *call, CXCursor *a)
{
    if (!call || call->kind != CXCursor_CallExpr || call->n_kids < 2)
        return false;
    char *name = cn_spelling(call->cur);
    bool compound = name && (!strcmp(name, "operator+=") || !strcmp(name, "operator-=") ||
                             !strcmp(name, "operator*=") || !strcmp(name, "operator/="));
    free(name);
    CXCursor def = clang_getNullCursor();
    if (!compound || call_classify(w->t, call, &def) != CALLEE_WALK ||
        clang_Cursor_getNumArguments(def) != 2)
        return false;
    *a = clang_Cursor_getArgument(def, 0);
    return clang_getCursorType(*a).kind == CXType_LValueReference;
}

CXCursor call_local_op_assign(walker *w, cnode *call)
{
    CXCursor a;
    if (!compound_op(w, call, &a) || !call_pure(w, call, a))
        return clang_getNullCursor();
    cnode *e = cn_strip(call->kids[0]);
    CXCursor d = e && e->kind == CXCursor_DeclRefExpr ? clang_getCursorReferenced(e->cur)
                                                      : clang_getNullCursor();
    var_info *v =
        d.kind == CXCursor_VarDecl || d.kind == CXCursor_ParmDecl ? fn_var(w->f, d) : NULL;
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(d)).kind;
    /* One whose address was taken may be read through a pointer an
     * element's text does not name. */
    if (!v || v->is_shared || v->addr_taken || k == CXType_LValueReference ||
        k == CXType_RValueReference)
        return clang_getNullCursor();
    return d;
}

bool call_vector_op_assign(walker *w, cnode *call, CXCursor *param0)
{
    CXCursor a;
    if (!compound_op(w, call, &a))
        return false;
    CXType at = clang_getCursorType(a);
    CXType rt = clang_getCanonicalType(clang_getPointeeType(at));
    long long sz = clang_Type_getSizeOf(rt), al = clang_Type_getAlignOf(rt);
    if (rt.kind != CXType_Record || clang_isConstQualifiedType(rt) || sz <= 0 || sz > 16 ||
        al != sz)
        return false;
    cnode *e = cn_strip(call->kids[0]);
    if (!e || e->kind != CXCursor_ArraySubscriptExpr ||
        !clang_equalTypes(clang_getCanonicalType(clang_getCursorType(e->cur)), rt) ||
        clang_isVolatileQualifiedType(clang_getCursorType(e->cur)))
        return false;
    /* An element of a __restrict__ pointer is no variable the operator
     * names: nvcc keeps it in a register across an atomic on a counter. */
    if (!call_pure(w, call, a) && !(wk_restrict_element(e) && pure_call_at(w, call, a, true, 0)))
        return false;
    lref r = {SP_NONE, -1, NULL, NULL, NULL};
    wk_resolve_lvalue(w, e, &r, 0);
    bool global = r.space == SP_GLOBAL;
    wk_lref_free(&r);
    if (!global)
        return false;
    if (param0)
        *param0 = a;
    return true;
}

/* The elements in registers, set aside while a helper that writes no
 * memory is walked: its body starts with none, what it leaves is dropped
 * and the caller's come back (nothing it does changes them). */
typedef struct avail_set {
    char **avail;
    struct avail_meta *meta;
    int n, cap;
    struct vec_load *vec;
    int n_vec, cap_vec;
} avail_set;

static void avail_set_aside(walker *w, avail_set *saved)
{
    *saved = (avail_set){w->avail, w->avail_meta, w->n_avail, w->cap_avail,
                         w->vec,   w->n_vec,      w->cap_vec};
    w->avail = NULL;
    w->avail_meta = NULL;
    w->n_avail = w->cap_avail = 0;
    w->vec = NULL;
    w->n_vec = w->cap_vec = 0;
}

static void avail_restore(walker *w, avail_set *saved)
{
    for (int i = 0; i < w->n_avail; i++)
        free(w->avail[i]);
    free(w->avail);
    free(w->avail_meta);
    for (int i = 0; i < w->n_vec; i++)
        free(w->vec[i].elem);
    free(w->vec);
    w->avail = saved->avail;
    w->avail_meta = saved->meta;
    w->n_avail = saved->n;
    w->cap_avail = saved->cap;
    w->vec = saved->vec;
    w->n_vec = saved->n_vec;
    w->cap_vec = saved->cap_vec;
}

bool call_walk(walker *w, cnode *call)
{
    CXCursor def = clang_getNullCursor();
    callee_kind kind = call_classify(w->t, call, &def);
    if (kind == CALLEE_NONE)
        return false;
    if (kind == CALLEE_LIBRARY) {
        if (!cub_collective(w, call, def) && !cub_block_io(w, call, def))
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
    fr.this_local = wk_method_on_local_object(w, call, def);
    fr.whole_param = clang_getNullCursor();
    call_vector_op_assign(w, call, &fr.whole_param);
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
    self_vals self = {0};
    if (x_self_vals(w->f, call, def, &self))
        cf.self = &self;
    else if (x_self_inherits(call))
        cf.self = w->f->self;
    fn_ctx *caller = w->f;
    cf.loops = caller->loops;
    cf.n_loops = caller->n_loops;
    cf.cap_loops = caller->cap_loops;
    fr.ctx = &cf;
    char *short_name = cn_spelling(def);
    rename_locals(w, &cf, short_name);
    free(short_name);

    avail_set kept = {0};
    bool pure =
        call_pure(w, call, fr.whole_param) || !clang_Cursor_isNull(call_local_op_assign(w, call));
    if (pure)
        avail_set_aside(w, &kept);
    w->f = &cf;
    w->calls = &fr;
    w->n_calls++;
    walk_ctor_inits(w, root);
    w->walk_body(w, root);
    w->n_calls--;
    if (pure)
        avail_restore(w, &kept);
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
    x_self_free(&self);
    return true;
}
