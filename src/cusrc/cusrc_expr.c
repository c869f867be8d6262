/* cusrc_expr: walks one expression of a kernel body: each load and store it
 * makes (with what nvcc drops: a repeated common subexpression, an element
 * still in a register, a dead store, work hoisted out of a loop), each
 * operation it counts, the conditional arms it guards, the calls it walks
 * (cusrc_call). */
#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/exprpoly.h"
#include "cusrc/cusrc_walk.h"

/* ---- expressions ---- */

/* A field of this read below n (by member, or *this copied whole). */
static bool reads_this(const cnode *n, int depth)
{
    if (depth > 64)
        return true;
    if (n->kind == CXCursor_MemberRefExpr &&
        clang_getCursorReferenced(n->cur).kind == CXCursor_FieldDecl) {
        const cnode *b = n->n_kids ? cn_strip(n->kids[0]) : NULL;
        if (!n->n_kids || (b && b->kind == CXCursor_CXXThisExpr))
            return true;
    }
    for (int i = 0; i < n->n_kids; i++)
        if (reads_this(n->kids[i], depth + 1))
            return true;
    return false;
}

/* A method that hands back a reference to the object and reads none of
 * its fields (CUB's TempStorage::Alias(), `return *this;`): calling it
 * reads nothing. */
static bool alias_method(CXCursor m)
{
    CXCursor def = clang_getCursorDefinition(m);
    if (clang_Cursor_isNull(def) ||
        clang_getCanonicalType(clang_getCursorResultType(def)).kind != CXType_LValueReference)
        return false;
    cnode *tree = cn_build(def);
    bool reads = false;
    for (int i = 0; i < tree->n_kids && !reads; i++)
        if (tree->kids[i]->kind == CXCursor_CompoundStmt)
            reads = reads_this(tree->kids[i], 0);
    cn_free(tree);
    return !reads;
}

/* How the value of an lvalue node is used: 0 not an access (address taken,
 * decays, base of a member), 1 load, 2 store, 3 load and store. */
static int access_use(walker *w, cnode *n)
{
    cnode *child = n, *p = n->parent;
    while (p && p->kind == CXCursor_ParenExpr) {
        child = p;
        p = p->parent;
    }
    if (!p)
        return 1;
    switch (p->kind) {
    case CXCursor_MemberRefExpr: {
        if (p->n_kids && p->kids[0] == child) {
            /* x.method(), (float)bf[i] through operator float: the call
             * reads the object (a method gpulint walks reads its fields
             * itself, but libclang shows no `this` to bind). */
            CXCursor m = clang_getCursorReferenced(p->cur);
            if (m.kind == CXCursor_CXXMethod && alias_method(m))
                return 0;
            if (m.kind == CXCursor_CXXMethod || m.kind == CXCursor_ConversionFunction)
                return 1;
            CXType bt = clang_getCanonicalType(clang_getCursorType(n->cur));
            if (bt.kind != CXType_Pointer)
                return 0; /* a[i].y: the member is the access */
        }
        return 1;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(p->cur);
        if (k == CXUnaryOperator_AddrOf)
            return 0;
        if (k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec ||
            k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PreDec)
            return 3;
        return 1;
    }
    case CXCursor_BinaryOperator:
        if (p->n_kids == 2 && p->kids[0] == child &&
            clang_getCursorBinaryOperatorKind(p->cur) == CXBinaryOperator_Assign)
            return 2;
        return 1;
    case CXCursor_CompoundAssignOperator:
        return p->n_kids == 2 && p->kids[0] == child ? 3 : 1;
    case CXCursor_CallExpr: {
        if (p->kids[0] == child && call_vector_op_assign(w, p, NULL))
            return 3; /* loaded and stored whole here */
        if (call_arg_by_reference(w, p, child))
            return 0; /* the helper's body reads or writes it */
        char *name = cn_spelling(p->cur);
        int r = 1;
        CXType nt = clang_getCanonicalType(clang_getCursorType(n->cur));
        if (nt.kind == CXType_Record && strncmp(name, "operator", 8) != 0) {
            /* An object passed to a function or constructor is passed by
             * reference unless it is being copied (same type). */
            CXType pt = clang_getCanonicalType(clang_getCursorType(p->cur));
            if (!clang_equalTypes(clang_getUnqualifiedType(nt), clang_getUnqualifiedType(pt))) {
                free(name);
                return 0;
            }
        }
        if (p->n_kids >= 1 && p->kids[0] == child) {
            if (strcmp(name, "operator=") == 0)
                r = 2;
            else if (strncmp(name, "operator", 8) == 0 && strchr(name + 8, '=') &&
                     strcmp(name, "operator==") != 0 && strcmp(name, "operator!=") != 0 &&
                     strcmp(name, "operator<=") != 0 && strcmp(name, "operator>=") != 0)
                r = 3;
        }
        free(name);
        return r;
    }
    default:
        return 1;
    }
}

/* ---- common subexpressions ---- */

/* An expression with no side effect: operators other than assignments and
 * increments, names, literals, subscripts, members, casts, math calls. */
static bool pure_tree(const cnode *n, int depth)
{
    if (!n || depth > 32)
        return false;
    switch (n->kind) {
    case CXCursor_BinaryOperator:
        if (clang_getCursorBinaryOperatorKind(n->cur) >= CXBinaryOperator_Assign)
            return false;
        break;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(n->cur);
        if (k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec ||
            k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PreDec)
            return false;
        break;
    }
    case CXCursor_CallExpr:
        if (!wk_pure_call((cnode *)n))
            return false;
        break;
    case CXCursor_DeclRefExpr:
    case CXCursor_MemberRefExpr:
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_ParenExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_UnexposedExpr:
        break;
    default:
        return false;
    }
    for (int i = 0; i < n->n_kids; i++)
        if (!pure_tree(n->kids[i], depth + 1))
            return false;
    return true;
}

static bool same_literal(CXCursor a, CXCursor b)
{
    CXEvalResult ra = clang_Cursor_Evaluate(a), rb = clang_Cursor_Evaluate(b);
    bool same = false;
    if (ra && rb && clang_EvalResult_getKind(ra) == clang_EvalResult_getKind(rb)) {
        if (clang_EvalResult_getKind(ra) == CXEval_Float)
            same = clang_EvalResult_getAsDouble(ra) == clang_EvalResult_getAsDouble(rb);
        else if (clang_EvalResult_getKind(ra) == CXEval_Int)
            same = clang_EvalResult_getAsLongLong(ra) == clang_EvalResult_getAsLongLong(rb);
    }
    if (ra)
        clang_EvalResult_dispose(ra);
    if (rb)
        clang_EvalResult_dispose(rb);
    return same;
}

/* The same computation: the same operators on the same names and values. */
static bool same_tree(const cnode *a, const cnode *b, int depth)
{
    if (a->kind != b->kind || a->n_kids != b->n_kids || depth > 32)
        return false;
    if (!clang_equalTypes(clang_getCanonicalType(clang_getCursorType(a->cur)),
                          clang_getCanonicalType(clang_getCursorType(b->cur))))
        return false;
    switch (a->kind) {
    case CXCursor_BinaryOperator:
        if (clang_getCursorBinaryOperatorKind(a->cur) != clang_getCursorBinaryOperatorKind(b->cur))
            return false;
        break;
    case CXCursor_UnaryOperator:
        if (clang_getCursorUnaryOperatorKind(a->cur) != clang_getCursorUnaryOperatorKind(b->cur))
            return false;
        break;
    case CXCursor_DeclRefExpr:
    case CXCursor_MemberRefExpr:
    case CXCursor_CallExpr:
        if (!clang_equalCursors(clang_getCursorReferenced(a->cur),
                                clang_getCursorReferenced(b->cur)))
            return false;
        break;
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
        return same_literal(a->cur, b->cur);
    default:
        break;
    }
    for (int i = 0; i < a->n_kids; i++)
        if (!same_tree(a->kids[i], b->kids[i], depth + 1))
            return false;
    return true;
}

/* A floating-point operation or math call with no side effect: what the
 * compiler may compute once (a repeat in the statement) or before a loop
 * (it does not change there). */
static bool pure_float_op(cnode *n)
{
    bool op = n->kind == CXCursor_BinaryOperator &&
              clang_getCursorBinaryOperatorKind(n->cur) < CXBinaryOperator_Assign;
    bool call = n->kind == CXCursor_CallExpr && wk_pure_call(n);
    return (op || call) && cn_float_kind(clang_getCursorType(n->cur)) && pure_tree(n, 0);
}

/* A pure floating-point operation of the statement: true when an equal
 * one was met before it (the compiler computes it once), else it is
 * recorded. */
static bool cse_repeat(walker *w, cnode *n)
{
    for (int i = 0; i < w->n_cse; i++)
        if (same_tree(w->cse[i], n, 0))
            return true;
    if (w->n_cse == w->cap_cse) {
        w->cap_cse = w->cap_cse ? 2 * w->cap_cse : 16;
        w->cse = xrealloc(w->cse, (size_t)w->cap_cse * sizeof *w->cse);
    }
    w->cse[w->n_cse++] = n;
    return false;
}

/* Writes end what the statement computed so far: a value after them may
 * differ. */
static bool has_effect(cnode *n)
{
    switch (n->kind) {
    case CXCursor_BinaryOperator:
        return clang_getCursorBinaryOperatorKind(n->cur) >= CXBinaryOperator_Assign;
    case CXCursor_CompoundAssignOperator:
        return true;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(n->cur);
        return k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec ||
               k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PreDec;
    }
    case CXCursor_CallExpr:
        return !wk_pure_call(n);
    default:
        return false;
    }
}

static void last_store_clear(walker *w)
{
    free(w->last_store_text);
    w->last_store_text = NULL;
    w->last_store = -1;
    w->last_store_base = clang_getNullCursor();
}

static void vec_clear(walker *w)
{
    for (int i = 0; i < w->n_vec; i++)
        free(w->vec[i].elem);
    w->n_vec = 0;
}

static void vst_clear(walker *w)
{
    for (int i = 0; i < w->n_vst; i++)
        free(w->vst[i].elem);
    w->n_vst = 0;
}

/* A value a cache-hint load other than __ldcv read (`__ldg(X + i)`):
 * ptxas keeps it past stores, as the non-coherent load promises the
 * memory does not change while the kernel runs (HeCBench channelSum's
 * three __ldg, one LDG; tests/data/cusrc/ldg_repeat.cu's stored_between,
 * one LDG for two __ldg with a store between, on an H200). */
static bool read_only_value(const char *text)
{
    return strncmp(text, "__ld", 4) == 0 && strncmp(text, "__ldcv", 6) != 0;
}

/* Forgets the elements in registers (after a write through memory, all
 * but what read_only_value keeps: keep_read_only); keep_stores keeps the
 * vector stores (after a plain store, which emit_store set against them). */
static void avail_clear(walker *w, bool keep_stores, bool keep_read_only)
{
    int kept = 0;
    for (int i = 0; i < w->n_avail; i++) {
        if (keep_read_only && read_only_value(w->avail[i])) {
            w->avail_meta[kept] = w->avail_meta[i];
            w->avail[kept++] = w->avail[i];
        } else {
            free(w->avail[i]);
        }
    }
    w->n_avail = kept;
    vec_clear(w);
    if (!keep_stores)
        vst_clear(w);
    last_store_clear(w);
}

void wk_avail_clear(walker *w)
{
    avail_clear(w, false, false);
}

static void avail_add(walker *w, char *text, cnode *n);

void wk_avail_save(const walker *w, avail_saved *out)
{
    out->n = w->n_avail;
    out->texts = xcalloc((size_t)(w->n_avail + 1), sizeof *out->texts);
    out->meta = xcalloc((size_t)(w->n_avail + 1), sizeof *out->meta);
    for (int i = 0; i < w->n_avail; i++) {
        out->texts[i] = xstrdup(w->avail[i]);
        out->meta[i] = w->avail_meta[i];
    }
}

void wk_avail_restore(walker *w, const avail_saved *saved)
{
    avail_clear(w, false, false);
    for (int i = 0; i < saved->n; i++)
        avail_add(w, xstrdup(saved->texts[i]), (cnode *)saved->meta[i].node);
}

void wk_avail_free(avail_saved *saved)
{
    for (int i = 0; i < saved->n; i++)
        free(saved->texts[i]);
    free(saved->texts);
    free(saved->meta);
}

static bool in_texts(char *const *texts, int n, const char *text)
{
    for (int i = 0; i < n; i++)
        if (strcmp(texts[i], text) == 0)
            return true;
    return false;
}

/* The subscript a chain of `.field` members ends in (`a[i].pos.x`), or
 * NULL where the chain goes through a pointer (`a[i].p->x`) or reaches no
 * subscript. */
static cnode *member_subscript(cnode *s)
{
    for (int depth = 0; s && s->kind == CXCursor_MemberRefExpr && depth < 8; depth++) {
        if (s->n_kids != 1)
            return NULL;
        cnode *k = cn_strip(s->kids[0]);
        if (!k || clang_getCanonicalType(clang_getCursorType(k->cur)).kind != CXType_Record)
            return NULL;
        s = k;
    }
    return s && s->kind == CXCursor_ArraySubscriptExpr ? s : NULL;
}

/* The __restrict__ pointer an element is reached through, or a null
 * cursor. */
static CXCursor restrict_base(cnode *n)
{
    cnode *s = n ? member_subscript(cn_strip(n)) : NULL;
    return s && wk_restrict_element(s) ? clang_getCursorReferenced(cn_strip_casts(s->kids[0])->cur)
                                       : clang_getNullCursor();
}

/* Whether expression n reads variable d, however its text spells it (a
 * macro's body included: `a[IDX]` with IDX spelling out j). */
static bool reads_var(const cnode *n, CXCursor d, int depth)
{
    if (depth > 64)
        return true;
    if (n->kind == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(n->cur), d))
        return true;
    for (int i = 0; i < n->n_kids; i++)
        if (reads_var(n->kids[i], d, depth + 1))
            return true;
    return false;
}

/* Holds the element n, spelled text (taken), in a register. */
static void avail_add(walker *w, char *text, cnode *n)
{
    if (w->n_avail == w->cap_avail) {
        w->cap_avail = w->cap_avail ? 2 * w->cap_avail : 8;
        w->avail = xrealloc(w->avail, (size_t)w->cap_avail * sizeof *w->avail);
        w->avail_meta = xrealloc(w->avail_meta, (size_t)w->cap_avail * sizeof *w->avail_meta);
    }
    w->avail_meta[w->n_avail] = (avail_meta){restrict_base(n), n};
    w->avail[w->n_avail++] = text;
}

/* After a store through __restrict__ pointer `base`: the elements read
 * through other __restrict__ pointers are other objects, and LLVM keeps
 * them in registers (noalias); every other element may have changed. */
static void avail_keep_other_restrict(walker *w, CXCursor base)
{
    int kv = 0;
    for (int i = 0; i < w->n_vec; i++) {
        CXCursor b = restrict_base((cnode *)w->vec[i].node);
        if (!clang_Cursor_isNull(b) && !clang_equalCursors(b, base))
            w->vec[kv++] = w->vec[i];
        else
            free(w->vec[i].elem);
    }
    w->n_vec = kv;
    int kept = 0;
    for (int i = 0; i < w->n_avail; i++) {
        CXCursor b = w->avail_meta[i].base;
        if ((!clang_Cursor_isNull(b) && !clang_equalCursors(b, base)) ||
            read_only_value(w->avail[i])) {
            w->avail_meta[kept] = w->avail_meta[i];
            w->avail[kept++] = w->avail[i];
        } else {
            free(w->avail[i]);
        }
    }
    w->n_avail = kept;
}

static bool avail_has(const walker *w, const char *text)
{
    return in_texts(w->avail, w->n_avail, text);
}

/* A non-volatile element of global memory, addressed by a subscript, or a
 * field of one reached by `.` (`a[i].x`). */
static bool plain_global_element(walker *w, cnode *n)
{
    cnode *s = cn_strip(n);
    if (!member_subscript(s) || clang_isVolatileQualifiedType(clang_getCursorType(s->cur)))
        return false;
    lref r = {SP_NONE, -1, NULL, NULL, NULL};
    wk_resolve_lvalue(w, s, &r, 0);
    bool global = r.space == SP_GLOBAL;
    wk_lref_free(&r);
    return global;
}

static void store_ran(walker *w);

/* An access through the parameter the caller loads and stores whole. */
static bool through_whole_param(walker *w, cnode *n)
{
    if (!w->calls || clang_Cursor_isNull(w->calls->whole_param))
        return false;
    cnode *s = cn_strip(n);
    for (int depth = 0; s && s->kind == CXCursor_MemberRefExpr && s->n_kids == 1 && depth < 8;
         depth++)
        s = cn_strip(s->kids[0]);
    return s && s->kind == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(s->cur), w->calls->whole_param);
}

/* The local variable an assignment writes (`acc`, `tmp.x`),
 * where it is one held in registers: a local or parameter of the function
 * being walked, not a reference, not __shared__, its address never taken.
 * A null cursor otherwise. */
static CXCursor local_written(walker *w, cnode *target)
{
    cnode *s = cn_strip(target);
    for (int depth = 0; s && s->kind == CXCursor_MemberRefExpr && depth < 8; depth++) {
        if (s->n_kids != 1)
            return clang_getNullCursor();
        s = cn_strip(s->kids[0]);
        if (!s || clang_getCanonicalType(clang_getCursorType(s->cur)).kind != CXType_Record)
            return clang_getNullCursor();
    }
    /* An element of the thread's own array (`hourgam[0][i1]`, the array
     * itself local): a local too. */
    cnode *base = wk_subscript_base(s);
    bool subscripted = base != s;
    s = base;
    if (!s || s->kind != CXCursor_DeclRefExpr || wk_is_memory_lvalue(w, s))
        return clang_getNullCursor();
    CXCursor d = clang_getCursorReferenced(s->cur);
    CXType t = clang_getCanonicalType(clang_getCursorType(d));
    if (subscripted && (!cn_is_array_type(t) || clang_Cursor_getStorageClass(d) == CX_SC_Static))
        return clang_getNullCursor();
    /* One whose address was taken may be read through a pointer an
     * element's text does not name (`a[*pj]`). */
    var_info *v = fn_var(w->f, d);
    if (!v || v->addr_taken || v->is_shared || t.kind == CXType_LValueReference ||
        t.kind == CXType_RValueReference)
        return clang_getNullCursor();
    return d;
}

/* Whether bytes [a, a + alen) and [b, b + blen) of two elements of one
 * size never overlap: each element is aligned to its size (CUDA faults on
 * a misaligned access), so any two of them, through any pointers, lie a
 * multiple of the size apart, and different bytes within one size stay
 * apart (LLVM's load-store vectorizer merges `out[i].x = in[i].x; out[i].y
 * = in[i].y;` on plain double2 pointers: nvcc 13's PTX). */
static bool modulo_apart(int64_t a, int64_t alen, int64_t b, int64_t blen)
{
    return a >= 0 && b >= 0 && alen > 0 && blen > 0 && (a + alen <= b || b + blen <= a);
}

/* The bytes [lo, lo + len) of an element of at most 16 bytes as a mask. */
static uint32_t byte_mask(int64_t lo, int64_t len)
{
    if (lo < 0 || len <= 0 || lo + len > 16)
        return 0xffff;
    return (uint32_t)(((1u << len) - 1u) << lo);
}

static cnode *vector_field(cnode *n, int64_t *field, int64_t *size);

/* After a write to local variable d: memory is as it was; only the
 * elements whose address reads d may now be others. */
static void avail_drop_reading(walker *w, CXCursor d)
{
    int kept = 0;
    for (int i = 0; i < w->n_avail; i++) {
        if (reads_var(w->avail_meta[i].node, d, 0)) {
            free(w->avail[i]);
            continue;
        }
        w->avail_meta[kept] = w->avail_meta[i];
        w->avail[kept++] = w->avail[i];
    }
    w->n_avail = kept;
    int kv = 0;
    for (int i = 0; i < w->n_vec; i++) {
        if (reads_var(w->vec[i].node, d, 0)) {
            free(w->vec[i].elem);
            continue;
        }
        w->vec[kv++] = w->vec[i];
    }
    w->n_vec = kv;
}

/* Before a store to target, a field of a vector-like element: the wide
 * loads of elements of its size move out of w->vec into *out, with the
 * bytes it may write marked (none where both go through different
 * __restrict__ pointers); their other fields may still join them. */
static int vec_set_apart(walker *w, cnode *target, vec_load **out)
{
    int64_t field = 0, size = 0;
    if (!vector_field(target, &field, &size))
        return 0;
    uint32_t bytes = byte_mask(field, wk_access_width(cn_strip(target)));
    CXCursor base = restrict_base(target);
    int n = 0, kept = 0;
    for (int i = 0; i < w->n_vec; i++) {
        vec_load v = w->vec[i];
        if (v.size != size) {
            w->vec[kept++] = v;
            continue;
        }
        CXCursor b = restrict_base((cnode *)v.node);
        if (clang_Cursor_isNull(base) || clang_Cursor_isNull(b) || clang_equalCursors(b, base))
            v.clobbered |= bytes;
        *out = xrealloc(*out, (size_t)(n + 1) * sizeof **out);
        (*out)[n++] = v;
    }
    w->n_vec = kept;
    return n;
}

/* After a write: an element stored stays in its register; everything
 * else may have changed. */
static void avail_after_write(walker *w, cnode *n)
{
    for (int i = 0; i < w->n_vst; i++)
        w->vst[i].fresh = false;
    long keep = w->last_store;
    char *keep_text = w->last_store_text;
    CXCursor keep_base = w->last_store_base;
    w->last_store_text = NULL;
    bool op_assign = n->kind == CXCursor_CallExpr && call_vector_op_assign(w, n, NULL);
    bool assigns =
        op_assign || (n->n_kids == 2 &&
                      (n->kind == CXCursor_CompoundAssignOperator ||
                       (n->kind == CXCursor_BinaryOperator &&
                        clang_getCursorBinaryOperatorKind(n->cur) == CXBinaryOperator_Assign)));
    vec_load *apart = NULL;
    int n_apart = 0;
    if (assigns && !op_assign && !w->n_calls)
        n_apart = vec_set_apart(w, n->kids[0], &apart);
    CXCursor written = assigns && !w->n_calls ? restrict_base(n->kids[0]) : clang_getNullCursor();
    CXCursor local = assigns && !w->n_calls ? local_written(w, n->kids[0])
                     : !w->n_calls          ? call_local_op_assign(w, n)
                                            : clang_getNullCursor();
    if (!clang_Cursor_isNull(written)) {
        avail_keep_other_restrict(w, written);
        last_store_clear(w);
    } else if (!clang_Cursor_isNull(local)) {
        avail_drop_reading(w, local);
        last_store_clear(w);
    } else if (n->kind == CXCursor_CallExpr && !op_assign &&
               call_pure(w, n, clang_getNullCursor())) {
        /* writes no memory: what is in registers stays */
    } else {
        avail_clear(w, assigns && plain_global_element(w, n->kids[0]), true);
    }
    for (int i = 0; i < n_apart; i++) {
        if (w->n_vec == w->cap_vec) {
            w->cap_vec = w->cap_vec ? 2 * w->cap_vec : 8;
            w->vec = xrealloc(w->vec, (size_t)w->cap_vec * sizeof *w->vec);
        }
        w->vec[w->n_vec++] = apart[i];
    }
    free(apart);
    /* An assignment reads no memory but what its walk emitted (which ended
     * the last store where it read any): the store may still be
     * overwritten. A call may read anything. */
    if (n->kind == CXCursor_CallExpr) {
        free(keep_text);
    } else {
        w->last_store = keep;
        w->last_store_text = keep_text;
        w->last_store_base = keep_base;
    }
    if (w->pending_text && n->kind != CXCursor_CallExpr)
        store_ran(w);
    if (w->n_calls || w->cse_off || !assigns)
        return;
    cnode *t = cn_strip(n->kids[0]);
    if (plain_global_element(w, t))
        avail_add(w, cn_text_trunc(w->t, t->cur, 200), t);
}

/* A field of an element of a vector-like record: a record no larger than
 * 16 bytes aligned to its size (float2, double2, float4, an __align__(16)
 * struct of four ints), whose fields LLVM's load-store vectorizer loads
 * with one wide load (ld.global.v2.f64). */
static cnode *vector_field(cnode *n, int64_t *field, int64_t *size)
{
    cnode *s = cn_strip(n);
    if (!s || s->kind != CXCursor_MemberRefExpr || s->n_kids != 1)
        return NULL;
    cnode *e = cn_strip(s->kids[0]);
    if (!e || e->kind != CXCursor_ArraySubscriptExpr)
        return NULL;
    CXType rt = clang_getCanonicalType(clang_getCursorType(e->cur));
    long long sz = clang_Type_getSizeOf(rt), al = clang_Type_getAlignOf(rt);
    long long fw = clang_Type_getSizeOf(clang_getCursorType(s->cur));
    char *fname = cn_spelling(clang_getCursorReferenced(s->cur));
    long long bits = fname ? clang_Type_getOffsetOf(rt, fname) : -1;
    free(fname);
    if (rt.kind != CXType_Record || sz <= 0 || sz > 16 || al != sz || fw <= 0 || fw >= sz ||
        bits < 0 || bits % 8)
        return NULL;
    *field = bits / 8;
    *size = sz;
    return e;
}

/* A load of a field of a vector-like element another field of which was
 * loaded in this block: the two are one wide load. The first site widens
 * to the whole element (once); true when n needs no load of its own. */
static bool joins_vector_load(walker *w, cnode *n)
{
    int64_t field = 0, size = 0;
    cnode *e = w->cse_off ? NULL : vector_field(n, &field, &size);
    if (!e)
        return false;
    char *et = cn_text_trunc(w->t, e->cur, 200);
    for (int i = 0; i < w->n_vec; i++) {
        vec_load *v = &w->vec[i];
        if (strcmp(v->elem, et) != 0 || v->site < 0 || (size_t)v->site >= w->u->n_accesses)
            continue;
        free(et);
        if (v->clobbered & byte_mask(field, wk_access_width(cn_strip(n))))
            return false; /* a store between may have written these bytes */
        mem_access *a = &w->u->accesses[v->site];
        if (a->width < v->size) {
            expr *start = expr_binary(OP_SUB, a->byte_offset, expr_const(v->field));
            a->byte_offset = expr_simplify(start);
            expr_free(start);
            wk_add_count(w, CNT_GLD, v->size - a->width);
            a->width = (int)v->size;
        }
        return true;
    }
    free(et);
    return false;
}

/* After the load of n was emitted as site `site`: the element's first. */
static void vec_record(walker *w, cnode *n, size_t site)
{
    int64_t field = 0, size = 0;
    cnode *e = w->cse_off ? NULL : vector_field(n, &field, &size);
    if (!e || site + 1 != w->u->n_accesses || w->u->accesses[site].is_store ||
        w->u->accesses[site].space != SPACE_GLOBAL)
        return;
    if (w->n_vec == w->cap_vec) {
        w->cap_vec = w->cap_vec ? 2 * w->cap_vec : 8;
        w->vec = xrealloc(w->vec, (size_t)w->cap_vec * sizeof *w->vec);
    }
    w->vec[w->n_vec++] =
        (vec_load){cn_text_trunc(w->t, e->cur, 200), e, (long)site, field, size, 0};
}

/* Whether a memory access through n may touch the bytes [lo, hi) of the
 * element v stored: not when both go through different __restrict__
 * pointers (noalias), or n reads other bytes of the same element. */
static bool may_touch(walker *w, cnode *n, const vec_store *v)
{
    CXCursor b = restrict_base(n);
    if (!clang_Cursor_isNull(v->base) && !clang_Cursor_isNull(b) && !clang_equalCursors(v->base, b))
        return false;
    int64_t field = 0, size = 0;
    cnode *e = vector_field(n, &field, &size);
    if (!e)
        return true;
    int64_t fw = wk_access_width(cn_strip(n));
    if (size == v->size && modulo_apart(field, fw, v->lo, v->hi - v->lo))
        return false;
    char *et = cn_text_trunc(w->t, e->cur, 200);
    bool same = strcmp(et, v->elem) == 0;
    free(et);
    return !same || !(field + fw <= v->lo || field >= v->hi);
}

/* Whether an access through n may reach global memory: not a local in
 * registers, not shared memory (another address space). */
static bool beside_global(walker *w, cnode *n)
{
    if (!clang_Cursor_isNull(local_written(w, n)))
        return false;
    lref r = {SP_NONE, -1, NULL, NULL, NULL};
    wk_resolve_lvalue(w, cn_strip(n), &r, 0);
    space_kind space = r.space;
    wk_lref_free(&r);
    return space != SP_SHARED;
}

/* Whether the value an assignment stores reads or writes memory that may
 * touch v, or calls what may: the store of that value then comes after
 * it, and v's store cannot be moved down to it. */
static bool value_touches(walker *w, cnode *s, const vec_store *v, int depth)
{
    if (!s || depth > 64)
        return s != NULL;
    if (s->kind == CXCursor_CallExpr && !wk_pure_call(s) && !call_pure(w, s, clang_getNullCursor()))
        return true;
    if (cn_is_expr(s) && wk_is_memory_lvalue(w, s) && access_use(w, s) && beside_global(w, s) &&
        may_touch(w, s, v))
        return true;
    for (int i = 0; i < s->n_kids; i++)
        if (value_touches(w, s->kids[i], v, depth + 1))
            return true;
    return false;
}

/* Before an access through n: the vector stores it may reorder with stop
 * collecting fields (LLVM's load-store vectorizer moves a store only past
 * accesses it can tell apart from it). */
static void vst_drop_touched(walker *w, cnode *n)
{
    if (!w->n_vst || !beside_global(w, n))
        return;
    int kept = 0, tail_of = -1;
    for (int i = 0; i < w->n_vst; i++) {
        if (!w->vst[i].fresh && may_touch(w, n, &w->vst[i])) {
            free(w->vst[i].elem);
            continue;
        }
        if (i == w->vst_tail_of)
            tail_of = kept;
        w->vst[kept++] = w->vst[i];
    }
    w->n_vst = kept;
    w->vst_tail_of = tail_of;
}

static bool aligned_power(int64_t lo, int64_t len, int64_t size)
{
    return len > 0 && !(len & (len - 1)) && lo % len == 0 && len <= size;
}

/* A store to a field of a vector-like element next to fields stored since
 * control last branched: LLVM's load-store vectorizer writes them with one
 * st.global.v2/.v4 where the bytes together are a power of two aligned to
 * their size (`out[i].x = a; out[i].y = b;` on a float2 is one 8-byte
 * store, a float4's four fields one 16-byte store, three of them an 8-
 * and a 4-byte one; nvcc 13's PTX). The first site widens; true when n
 * needs no store of its own. */
static bool joins_vector_store(walker *w, cnode *n)
{
    w->vst_tail_of = -1;
    int64_t field = 0, size = 0;
    cnode *e = w->cse_off || w->n_calls ? NULL : vector_field(n, &field, &size);
    if (!e || !plain_global_element(w, n))
        return false;
    int64_t fw = wk_access_width(cn_strip(n));
    char *et = cn_text_trunc(w->t, e->cur, 200);
    int at = -1;
    for (int i = 0; i < w->n_vst && at < 0; i++)
        if (strcmp(w->vst[i].elem, et) == 0)
            at = i;
    free(et);
    vec_store *v = at >= 0 ? &w->vst[at] : NULL;
    if (!v || v->site < 0 || (size_t)v->site >= w->u->n_accesses || fw <= 0)
        return false;
    mem_access *a = &w->u->accesses[v->site];
    if (!a->is_store || a->space != SPACE_GLOBAL || a->width != v->hi - v->lo ||
        value_touches(w, w->assign_rhs, v, 0))
        return false;
    int64_t lo = v->lo, hi = v->hi;
    if (v->tail >= 0) {
        /* the tail's store goes where nothing was emitted after it */
        if (field != v->tail_hi || v->tail + 1 != (long)w->u->n_accesses ||
            !aligned_power(lo, field + fw - lo, size))
            return false;
        loop_frame *fr = wk_count_frame(w);
        mem_access *t = &w->u->accesses[v->tail];
        fr->direct[CNT_GST] -= t->width;
        fr->direct[CNT_GACC] -= 1;
        access_free(t);
        w->u->n_accesses--;
        v->tail = -1;
        hi = field + fw;
    } else if (field == hi || field + fw == lo) {
        int64_t nlo = field < lo ? field : lo, nhi = field + fw > hi ? field + fw : hi;
        if (!aligned_power(nlo, nhi - nlo, size)) {
            if (field == hi)
                w->vst_tail_of = at;
            return false;
        }
        lo = nlo;
        hi = nhi;
    } else {
        return false;
    }
    expr *start = expr_binary(OP_SUB, a->byte_offset, expr_const(v->lo - lo));
    a->byte_offset = expr_simplify(start);
    expr_free(start);
    wk_add_count(w, CNT_GST, (hi - lo) - a->width);
    a->width = (int)(hi - lo);
    v->lo = lo;
    v->hi = hi;
    last_store_clear(w); /* the widened store is no longer one field's */
    return true;
}

/* After the store of n was emitted as site `site`: a field its neighbours
 * may join. */
static void vst_record(walker *w, cnode *n, size_t site)
{
    int64_t field = 0, size = 0;
    cnode *e = w->cse_off || w->n_calls ? NULL : vector_field(n, &field, &size);
    if (!e || site + 1 != w->u->n_accesses || !w->u->accesses[site].is_store ||
        w->u->accesses[site].space != SPACE_GLOBAL)
        return;
    if (w->n_vst == w->cap_vst) {
        w->cap_vst = w->cap_vst ? 2 * w->cap_vst : 8;
        w->vst = xrealloc(w->vst, (size_t)w->cap_vst * sizeof *w->vst);
    }
    int64_t fw = wk_access_width(cn_strip(n));
    if (w->vst_tail_of >= 0 && w->vst_tail_of < w->n_vst) {
        w->vst[w->vst_tail_of].tail = (long)site;
        w->vst[w->vst_tail_of].tail_hi = field + fw;
        w->vst_tail_of = -1;
        return;
    }
    w->vst[w->n_vst++] = (vec_store){cn_text_trunc(w->t, e->cur, 200),
                                     restrict_base(n),
                                     (long)site,
                                     field,
                                     field + fw,
                                     size,
                                     -1,
                                     0,
                                     true};
}

static void emit_load(walker *w, cnode *n)
{
    if (through_whole_param(w, n))
        return;
    char *text = NULL;
    if (!w->n_calls && plain_global_element(w, n)) {
        text = cn_text_trunc(w->t, cn_strip(n)->cur, 200);
        if (avail_has(w, text) || joins_vector_load(w, n)) {
            if (!w->cse_off && !avail_has(w, text))
                avail_add(w, text, n);
            else
                free(text);
            return; /* the value is in a register */
        }
    }
    int unrolled;
    int level = wk_load_loops(w, n, &unrolled);
    /* Global memory only: shared elements are left to the bank analysis
     * as written. */
    if (!text)
        level = unrolled = w->f->n_loops;
    if (level < w->f->n_loops) {
        loop_frame *fr = w->f->loops[level];
        if (in_texts(fr->entry_avail, fr->n_entry_avail, text)) {
            free(text); /* in a register since before the loops */
            return;
        }
        w->load_hoist = fr;
        w->load_loops = level;
        w->load_unrolled = unrolled;
        w->load_copies = 1;
        for (int i = unrolled; i < w->f->n_loops; i++)
            w->load_copies *= w->f->loops[i]->trips->value;
        /* In a register from before the loop on: later loads of it in the
         * loop are no loads. */
        fr->entry_avail =
            xrealloc(fr->entry_avail, (size_t)(fr->n_entry_avail + 1) * sizeof *fr->entry_avail);
        fr->entry_avail[fr->n_entry_avail++] = xstrdup(text);
    }
    /* The load may read what it stored, but for one through another
     * __restrict__ pointer (hexciton's comm_aosoa_direct: four updates of
     * sigma_out[...] a k, reading sigma_in and hamiltonian between them,
     * store it once in nvcc 13's PTX). */
    CXCursor through = text ? restrict_base(n) : clang_getNullCursor();
    if (clang_Cursor_isNull(through) || clang_Cursor_isNull(w->last_store_base) ||
        clang_equalCursors(through, w->last_store_base))
        last_store_clear(w);
    vst_drop_touched(w, n);
    size_t site = w->u->n_accesses;
    wk_emit_access(w, n, false);
    if (text && level == w->f->n_loops)
        vec_record(w, n, site);
    w->load_hoist = NULL;
    /* A load in a conditional arm may not have run. */
    if (text && !w->cse_off)
        avail_add(w, text, n);
    else
        free(text);
}

/* A store LLVM sinks below the loops it promotes the element across: one
 * store after them, however many the body spells. */
static bool emit_sunk_store(walker *w, cnode *n)
{
    if (!plain_global_element(w, n))
        return false; /* volatile: every store stays */
    int unrolled;
    int level = wk_element_loops(w, n, true, &unrolled);
    if (level == w->f->n_loops)
        return false;
    loop_frame *fr = w->f->loops[level];
    char *text = cn_text_trunc(w->t, cn_strip(n)->cur, 200);
    if (in_texts(fr->sunk, fr->n_sunk, text)) {
        free(text);
        return true;
    }
    fr->sunk = xrealloc(fr->sunk, (size_t)(fr->n_sunk + 1) * sizeof *fr->sunk);
    fr->sunk[fr->n_sunk++] = text;
    w->load_hoist = fr;
    w->load_loops = level;
    w->load_unrolled = w->f->n_loops;
    w->load_copies = 1;
    wk_emit_access(w, n, true);
    w->load_hoist = NULL;
    return true;
}

static void emit_store(walker *w, cnode *n)
{
    free(w->pending_text);
    w->pending_text = NULL;
    w->pending_store = -1;
    if (through_whole_param(w, n))
        return;
    if (emit_sunk_store(w, n) || joins_vector_store(w, n))
        return;
    vst_drop_touched(w, n);
    size_t site = w->u->n_accesses;
    int pieces = wk_emit_access(w, n, true);
    if (pieces == 1)
        vst_record(w, n, site);
    if (pieces == 1 && !w->n_calls && !w->cse_off && plain_global_element(w, n)) {
        w->pending_store = (long)w->u->n_accesses - 1;
        w->pending_text = cn_text_trunc(w->t, cn_strip(n)->cur, 200);
        w->pending_base = restrict_base(n);
    }
}

/* After an assignment's store ran: a store before it to the same element,
 * with no memory read since, is dead: its site and counts go. */
static void store_ran(walker *w)
{
    cusrc_unit *u = w->u;
    long i = w->last_store;
    if (w->last_store_text && !strcmp(w->last_store_text, w->pending_text) && i >= 0 &&
        i < w->pending_store) {
        mem_access *dead = &u->accesses[i];
        loop_frame *fr = wk_count_frame(w);
        fr->direct[CNT_GST] -= dead->width;
        fr->direct[CNT_GACC] -= 1;
        access_free(dead);
        memmove(dead, dead + 1, (u->n_accesses - (size_t)i - 1) * sizeof *dead);
        u->n_accesses--;
        vec_clear(w); /* the sites after it moved */
        vst_clear(w);
        w->pending_store--;
    }
    last_store_clear(w);
    w->last_store = w->pending_store;
    w->last_store_text = w->pending_text;
    w->last_store_base = w->pending_base;
    w->pending_store = -1;
    w->pending_text = NULL;
}

/* The load, the store or both an intrinsic makes through ptr: `&s[i]` is
 * the element's access, `p + i` the pointer's. */
static void emit_halves(walker *w, cnode *ptr, bool atomic, bool store)
{
    cnode *target = cn_strip(ptr);
    if (target && target->kind == CXCursor_UnaryOperator &&
        clang_getCursorUnaryOperatorKind(target->cur) == CXUnaryOperator_AddrOf &&
        target->n_kids == 1 && wk_is_memory_lvalue(w, cn_strip(target->kids[0]))) {
        target = cn_strip(target->kids[0]);
        if (!store)
            wk_emit_access(w, target, false);
        if (atomic || store)
            wk_emit_access(w, target, true);
        return;
    }
    if (!store)
        wk_emit_access_ptr(w, ptr, 0, false);
    if (atomic || store)
        wk_emit_access_ptr(w, ptr, 0, true);
}

/* Loads and stores through a pointer argument: atomicAdd(&s[i], v) and
 * atomicAdd(p + i, v) (and __nv_atomic_fetch_add) load and store,
 * __ldg/__ldcs(p + i) load,
 * __stcs(p + i, v) stores (the cache-operator intrinsics of the CUDA C++
 * Programming Guide, "Load Functions Using Cache Hints"). */
static void mem_intrinsic(walker *w, cnode *call)
{
    static const char *const stores[] = {"__stcg", "__stcs", "__stwb", "__stwt", NULL};
    char *name = cn_ref_name(call->cur);
    /* Copies the hardware makes on the threads' behalf (cp.async, the copy
     * engine's bulk copies: TMA) read global memory no access of the
     * source names: the counts miss those bytes and say so. */
    static const char *const async_copies[] = {"memcpy_async", "__pipeline_memcpy_async", NULL};
    if (name && (wk_in_list(name, async_copies) || strncmp(name, "cp_async_bulk", 13) == 0)) {
        src_loc l = {0};
        cn_loc(w->t, call->cur, &l);
        wk_incomplete(w,
                      "line %d: '%s' copies global memory asynchronously; its bytes are not "
                      "counted",
                      l.line, name);
        free(l.file);
    }
    if (!name)
        return;
    bool atomic = strncmp(name, "atomic", 6) == 0;
    bool load = wk_load_intrinsic(call), store = wk_in_list(name, stores);
    /* nvcc 12.8's scoped atomics: __nv_atomic_load(_n) loads,
     * __nv_atomic_store(_n) stores, the rest read and write. */
    if (strncmp(name, "__nv_atomic_", 12) == 0 && strcmp(name, "__nv_atomic_thread_fence")) {
        const char *op = name + 12;
        load = strncmp(op, "load", 4) == 0;
        store = strncmp(op, "store", 5) == 0;
        atomic = !load && !store;
    }
    cnode *ptr = (atomic || load || store) ? cn_expr_kid(call, 1) : NULL;
    bool sums = atomic && ptr && wk_atomic_sums_lanes(name, call);
    bool fp = atomic && ptr && wk_atomic_is_float(call);
    free(name);
    if (!ptr)
        return;
    /* A cache-hint load of what one before it loaded through the same
     * pointer is the value in a register: ptxas loads `__ldg(X + i) *
     * __ldg(X + i)` once, and `__ldcv(X + i) + __ldcv(X + i)` too (one
     * LDG.E.STRONG.SYS on an H200); a store between ends it for __ldcv
     * only (read_only_value). */
    char *again = NULL;
    if (load && !w->n_calls) {
        again = cn_text_trunc(w->t, call->cur, 200);
        if (again && avail_has(w, again)) {
            free(again);
            return;
        }
    }
    /* What the emitted accesses note of the atomic (wk_emit_access). */
    w->in_atomic = atomic;
    w->atomic_sums = sums;
    w->atomic_float = fp;
    emit_halves(w, ptr, atomic, store);
    w->in_atomic = w->atomic_sums = w->atomic_float = false;
    if (again && !w->cse_off)
        avail_add(w, again, ptr);
    else
        free(again);
}

void wk_walk_kids(walker *w, cnode *n)
{
    for (int i = 0; i < n->n_kids; i++)
        wk_walk_expr(w, n->kids[i]);
}

void wk_walk_expr(walker *w, cnode *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case CXCursor_LambdaExpr:
        return;
    case CXCursor_ConditionalOperator:
        if (n->n_kids == 3) {
            wk_walk_expr(w, n->kids[0]);
            expr *c = x_expr(w->f, n->kids[0]);
            wk_emit_branch(w, BRANCH_TERNARY, n->kids[0], n, expr_clone(c));
            w->cse_off++;
            arm_saved saved;
            wk_push_guard(w, c);
            wk_arm_begin(w, &saved);
            wk_walk_expr(w, n->kids[1]);
            wk_arm_end(w, &saved, w->guards[w->n_guards - 1]);
            wk_pop_guard(w);
            wk_push_guard(w, expr_unary(OP_NOT, x_expr(w->f, n->kids[0])));
            wk_arm_begin(w, &saved);
            wk_walk_expr(w, n->kids[2]);
            wk_arm_end(w, &saved, w->guards[w->n_guards - 1]);
            wk_pop_guard(w);
            w->cse_off--;
            return;
        }
        break;
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(n->cur);
        if ((k == CXBinaryOperator_LAnd || k == CXBinaryOperator_LOr) && n->n_kids == 2) {
            wk_walk_expr(w, n->kids[0]);
            expr *c = x_expr(w->f, n->kids[0]);
            wk_push_guard(w, k == CXBinaryOperator_LAnd ? c : expr_unary(OP_NOT, c));
            w->cse_off++;
            wk_walk_expr(w, n->kids[1]);
            w->cse_off--;
            wk_pop_guard(w);
            return;
        }
        break;
    }
    case CXCursor_CallExpr: {
        /* A constexpr function of constants (`constexpr int k =
         * cilog2(kNElts);`) is folded by the compiler: no work at run time,
         * whatever its body (recursion included). */
        int64_t folded;
        if (!cn_float_kind(clang_getCursorType(n->cur)) && x_const(w->f, n, &folded))
            return;
        if (!wk_pure_call(n))
            w->n_cse = 0;
        if (call_walk(w, n)) {
            w->n_cse = 0;
            return;
        }
        mem_intrinsic(w, n);
        break;
    }
    default:
        break;
    }
    if (cn_is_expr(n) && cn_float_kind(clang_getCursorType(n->cur)) &&
        n->kind != CXCursor_FloatingLiteral && wk_folds(w, n, 0))
        return; /* a constant: no work, no memory */
    if (cn_is_expr(n) && wk_is_memory_lvalue(w, n)) {
        int use = access_use(w, n);
        if (use & 1)
            emit_load(w, n);
        if (use & 2)
            emit_store(w, n);
    }
    bool effect = has_effect(n);
    if (effect)
        w->n_cse = 0;
    bool pure = !w->cse_off && pure_float_op(n); /* not in a conditional arm */
    bool repeat = pure && cse_repeat(w, n);
    loop_frame *hoist = pure && !repeat ? wk_hoist_target(w, n) : NULL;
    w->no_flops += repeat;
    if (hoist)
        w->hoist = hoist;
    wk_count_ops(w, n);
    cnode *rhs = w->assign_rhs;
    if (n->n_kids == 2 && (n->kind == CXCursor_CompoundAssignOperator ||
                           (n->kind == CXCursor_BinaryOperator &&
                            clang_getCursorBinaryOperatorKind(n->cur) == CXBinaryOperator_Assign)))
        w->assign_rhs = n->kids[1];
    wk_walk_kids(w, n);
    w->assign_rhs = rhs;
    if (hoist)
        w->hoist = NULL;
    w->no_flops -= repeat;
    if (effect) {
        w->n_cse = 0;
        avail_after_write(w, n);
    }
}
