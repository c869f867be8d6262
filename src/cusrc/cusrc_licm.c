/* cusrc_licm: what an access is (its width, whether an expression names
 * memory) and which loops a load, a store or an expression leaves, as
 * nvcc's LLVM moves them (loop-invariant code motion, scalar promotion of
 * __restrict__ elements, loads of loops it unrolls in full); nvcc 13's PTX
 * of tests/data/cusrc/restrict_*.cu and unrolled_hoist.cu is the truth.
 * cusrc_expr calls it, never the other way (tests/file_cycles.py). */
#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/exprpoly.h"
#include "cusrc/cusrc_walk.h"

/* ---- what an access is ---- */

int64_t wk_access_width(const cnode *s)
{
    long long w = clang_Type_getSizeOf(clang_getCursorType(s->cur));
    return w > 0 ? w : 0;
}

bool wk_is_memory_lvalue(walker *w, cnode *n)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(n->cur));
    if (cn_is_array_type(t) || t.kind == CXType_FunctionProto)
        return false;
    switch (n->kind) {
    case CXCursor_ArraySubscriptExpr:
        return true;
    case CXCursor_UnaryOperator:
        return clang_getCursorUnaryOperatorKind(n->cur) == CXUnaryOperator_Deref;
    case CXCursor_MemberRefExpr: {
        if (n->n_kids < 1)
            return false; /* implicit this-> */
        /* x.f naming a method (the callee of x.f()) reads no memory. */
        CXCursor member = clang_getCursorReferenced(n->cur);
        if (member.kind == CXCursor_CXXMethod || member.kind == CXCursor_ConversionFunction ||
            member.kind == CXCursor_FunctionTemplate)
            return false;
        cnode *b = cn_strip(n->kids[0]);
        if (b->kind == CXCursor_DeclRefExpr) {
            char *s = cn_spelling(b->cur);
            bool builtin = wk_is_builtin_var_name(s);
            free(s);
            if (builtin)
                return false;
        }
        return true;
    }
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(n->cur);
        if (d.kind == CXCursor_ParmDecl && w->calls &&
            clang_getCanonicalType(clang_getCursorType(d)).kind == CXType_LValueReference) {
            lref r = {SP_NONE, -1, NULL, NULL, NULL};
            bool bound = call_bound_ptr(w, d, &r) && r.space != SP_NONE;
            wk_lref_free(&r);
            return bound;
        }
        if (d.kind != CXCursor_VarDecl)
            return false;
        var_info *v = fn_var(w->f, d);
        if (v)
            return v->is_shared;
        return cn_has_attr(d, CXCursor_CUDASharedAttr);
    }
    default:
        return false;
    }
}

/* ---- loop-invariant work ---- */

/* Whether e's value is the same in every iteration of loop: it reads no
 * memory, and no name it reads is declared or assigned inside the loop. */
static bool invariant_in(walker *w, const cnode *e, cnode *loop, int depth)
{
    if (depth > 32)
        return false;
    switch (e->kind) {
    case CXCursor_ArraySubscriptExpr:
        return false;
    case CXCursor_UnaryOperator:
        if (clang_getCursorUnaryOperatorKind(e->cur) == CXUnaryOperator_Deref)
            return false;
        break;
    case CXCursor_MemberRefExpr: {
        /* s.x of a local or parameter struct, threadIdx.x; not p->x. */
        const cnode *b = e->n_kids ? cn_strip((cnode *)e->kids[0]) : NULL;
        if (!b || b->kind != CXCursor_DeclRefExpr ||
            clang_getCanonicalType(clang_getCursorType(b->cur)).kind == CXType_Pointer)
            return false;
        break;
    }
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(e->cur);
        if (d.kind == CXCursor_EnumConstantDecl || d.kind == CXCursor_NonTypeTemplateParameter ||
            d.kind == CXCursor_FunctionDecl)
            return true; /* a constant, or the math function a pure call names */
        if (d.kind != CXCursor_VarDecl && d.kind != CXCursor_ParmDecl)
            return false;
        var_info *v = fn_var(w->f, d);
        if (!v) /* a namespace-scope const or a builtin (threadIdx); a
                   __device__ variable is memory */
            return clang_isConstQualifiedType(clang_getCursorType(d));
        for (int i = 0; i < w->n_unrolled_vars; i++)
            if (w->unrolled_vars[i] == v)
                return true;
        if (v->addr_taken || v->is_shared || (v->decl_node && cn_inside(v->decl_node, loop)))
            return false;
        for (int i = 0; i < v->n_assigns; i++)
            if (cn_inside(v->assigns[i], loop))
                return false;
        return true;
    }
    default:
        break;
    }
    for (int i = 0; i < e->n_kids; i++)
        if (!invariant_in(w, e->kids[i], loop, depth + 1))
            return false;
    return true;
}

/* The outermost loop a pure floating-point expression can be computed
 * before (within the kernel's own body, with no condition between): it
 * changes in none of the loops from there in. NULL: it changes in the
 * innermost loop. */
loop_frame *wk_hoist_target(walker *w, cnode *n)
{
    fn_ctx *f = w->f;
    if (w->hoist || w->n_calls || !f->n_loops)
        return NULL;
    int level = f->n_loops, guards = w->n_guards;
    while (level > 0) {
        loop_frame *fr = f->loops[level - 1];
        if (guards != fr->guards_at_entry)
            break; /* a condition inside this loop decides whether n runs */
        if (!cn_inside(n, fr->stmt) || !invariant_in(w, n, fr->stmt, 0))
            break;
        level--;
    }
    return level == f->n_loops ? NULL : f->loops[level];
}

/* The memory lvalue s writes (an assignment's or increment's target);
 * *impure when s is a call that may write memory. */
static cnode *store_target(walker *w, cnode *s, bool *impure)
{
    cnode *target = wk_assign_target(s);
    if (s->kind == CXCursor_CallExpr) {
        if (call_vector_op_assign(w, s, NULL))
            target = s->kids[0];
        else
            *impure = !call_pure(w, s, clang_getNullCursor());
    }
    cnode *t = target ? cn_strip(target) : NULL;
    return t && wk_is_memory_lvalue(w, t) ? t : NULL;
}

/* Whether s calls nothing but math functions and every store in it goes
 * to a local or to a target `ok` accepts (the walks below differ only in
 * which stores they allow). */
typedef bool (*store_ok)(walker *w, cnode *target, const void *ctx);

static bool every_store(walker *w, cnode *s, store_ok ok, const void *ctx, int depth)
{
    if (depth > 64)
        return false;
    bool impure = false;
    cnode *t = store_target(w, s, &impure);
    if (impure || (t && !ok(w, t, ctx)))
        return false;
    for (int i = 0; i < s->n_kids; i++)
        if (!every_store(w, s->kids[i], ok, ctx, depth + 1))
            return false;
    return true;
}

static bool names_text(walker *w, cnode *t, const void *text)
{
    char *tt = cn_text_trunc(w->t, t->cur, 200);
    bool same = strcmp(tt, text) == 0;
    free(tt);
    return same;
}

/* Whether nothing in s writes memory but stores to the element `text`
 * names (and locals): no other store, no call that is not a math function. */
static bool writes_only(walker *w, cnode *s, const char *text)
{
    return every_store(w, s, names_text, text, 0);
}

/* The element an access names, to tell it apart from others. */
typedef struct element {
    const char *text;
    lref at;       /* its byte offset from its base */
    int64_t width; /* bytes */
    cnode *index;  /* its subscript */
} element;

/* An index without the constants added to it last and its constant
 * factors (`2 * (j * 64 + t) + 1`: j * 64 + t, scale 2). */
static cnode *index_core(walker *w, cnode *e, int64_t *scale)
{
    e = cn_strip(e);
    int64_t c;
    for (int depth = 0; depth < 16 && e->kind == CXCursor_BinaryOperator && e->n_kids == 2;
         depth++) {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(e->cur);
        cnode *l = cn_strip(e->kids[0]), *r = cn_strip(e->kids[1]);
        bool add = k == CXBinaryOperator_Add, mul = k == CXBinaryOperator_Mul;
        if ((add || k == CXBinaryOperator_Sub) && x_const(w->f, r, &c))
            e = l;
        else if (add && x_const(w->f, l, &c))
            e = r;
        else if (mul && x_const(w->f, l, &c))
            *scale *= c, e = r;
        else if (mul && x_const(w->f, r, &c))
            *scale *= c, e = l;
        else
            break;
    }
    return e;
}

/* Whether LLVM's alias analysis sees two indices a constant apart: one is
 * the other with constants added last or a constant factor (`t + j * 64`
 * and `t + j * 64 + 32`, `2 * (E)` and `2 * (E + 16)`), not where the
 * constant is added before another term (`j * 64 + t` and
 * `j * 64 + 32 + t`: the two sums become two induction variables, and
 * nvcc 13 keeps both elements' loads and stores in the loop; HeCBench
 * hexciton's sigma_real and sigma_imag, VEC_LENGTH_AUTO apart before
 * `+ sigma_id`). tests/data/cusrc/restrict_order.cu has each shape. */
static bool same_core(walker *w, cnode *a, cnode *b)
{
    int64_t sa = 1, sb = 1, d = 0;
    cnode *ca = index_core(w, a, &sa), *cb = index_core(w, b, &sb);
    if (sa != sb)
        return false;
    /* Compared as values: a macro's pieces have no text of their own. */
    expr *ea = x_expr(w->f, ca), *eb = x_expr(w->f, cb);
    bool same = ea && eb && exprpoly_const_difference(ea, eb, &d) && d == 0;
    expr_free(ea);
    expr_free(eb);
    return same;
}

/* Whether access s through the same pointer as e never overlaps e: their
 * offsets from one base differ by a constant at least as wide as either
 * (`p[k + 1]` beside `p[k]`), for every value of every name, in a form
 * LLVM tells apart (same_core). */
static bool disjoint_from(walker *w, cnode *s, const element *e)
{
    if (!e->at.base || !e->at.off || !e->width || !e->index || s->n_kids != 2)
        return false;
    lref r = {SP_NONE, -1, NULL, NULL, NULL};
    wk_resolve_lvalue(w, s, &r, 0);
    int64_t d = 0, width = wk_access_width(s);
    bool apart = r.base && r.off && width && strcmp(r.base, e->at.base) == 0 &&
                 exprpoly_const_difference(r.off, e->at.off, &d) &&
                 (d >= e->width || -d >= width) && same_core(w, s->kids[1], e->index);
    wk_lref_free(&r);
    return apart;
}

/* Whether every subscript of base's pointer in s names the element e or
 * one that never overlaps it: LLVM keeps an element in a register across
 * a loop only where it can tell it apart from every other access through
 * the same pointer. An offset it cannot compare (`c[i]` beside
 * `c[n * n + i]`) keeps the loads and stores in the loop; one a constant
 * away (a complex number's real and imaginary parts, HeCBench hexciton's
 * `sigma_out[2 * (dim * i + j) + 1]` beside `[2 * (dim * i + j)]`) does
 * not (nvcc 13's PTX for each shape). */
static bool only_element(walker *w, cnode *s, CXCursor base, const element *e, int depth)
{
    if (depth > 64)
        return false;
    if (s->kind == CXCursor_ArraySubscriptExpr && s->n_kids == 2) {
        const cnode *b = cn_strip_casts((cnode *)s->kids[0]);
        if (b && b->kind == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(b->cur), base)) {
            char *st = cn_text_trunc(w->t, s->cur, 200);
            bool same = strcmp(st, e->text) == 0;
            free(st);
            if (!same && !disjoint_from(w, s, e))
                return false;
        }
    }
    for (int i = 0; i < s->n_kids; i++)
        if (!only_element(w, s->kids[i], base, e, depth + 1))
            return false;
    return true;
}

/* A store to an element of a __restrict__ pointer whose address does not
 * change in loop: where every store in the loop is one (and it calls
 * nothing but math functions: no barrier, no atomic), LLVM keeps each such
 * element in a register across the loop, loaded before it and stored after
 * it (scalar promotion; HeCBench adam's moment updates). */
static bool invariant_restrict(walker *w, cnode *t, const void *loop)
{
    return wk_restrict_element(t) && invariant_in(w, t->kids[0], (cnode *)loop, 0) &&
           invariant_in(w, t->kids[1], (cnode *)loop, 0);
}

/* A store through a __restrict__ pointer other than base: where every
 * store in a loop is one or goes to a local (and it calls nothing but math
 * functions), no store in it can change an element of base, so LLVM hoists
 * a load of one whose address the loop does not change out of it (LICM;
 * `a[i]` in `for (k ...) out[i * n + k] = a[i] * b[k];` with all three
 * __restrict__: one ld.global.nc before the loop, nvcc 13's PTX). */
static bool other_restrict(walker *w, cnode *t, const void *base)
{
    (void)w;
    if (wk_thread_array_element(t))
        return true;
    return wk_restrict_element(t) &&
           !clang_equalCursors(clang_getCursorReferenced(cn_strip_casts(t->kids[0])->cur),
                               *(const CXCursor *)base);
}

/* The most iterations of a loop with a constant trip count taken as
 * unrolled in full, its body small: nvcc 13's PTX of
 * tests/data/cusrc/unrolled_hoist.cu unrolls loops of 7 and 16 and keeps
 * one of 64 (unrolled by 8); one of 32 with sweep's body is unrolled too,
 * but its body's size decides, and 16 (loadlat's LOADLAT_UNROLLED) holds
 * for larger bodies as well. */
#define UNROLLED_IN_FULL 16

/* The subscripts in s: a measure of a loop body's size in loads and the
 * address arithmetic each one brings. */
static int subscripts_in(const cnode *s, int depth)
{
    if (depth > 64)
        return 1 << 20;
    int n = s->kind == CXCursor_ArraySubscriptExpr;
    for (int i = 0; i < s->n_kids; i++)
        n += subscripts_in(s->kids[i], depth + 1);
    return n;
}

static bool local_store(walker *w, cnode *t, const void *ctx)
{
    (void)w;
    (void)ctx;
    return wk_thread_array_element(t);
}

/* Whether NVVM unrolls loop fr in full with the loops inside it it unrolls
 * already (copies: their trips multiplied), as its full-unroll cost limit
 * allows: trips and body both small. The copies stay within
 * UNROLLED_IN_FULL and their subscripts within UNROLLED_SUBSCRIPTS, and the
 * body stores to no memory but its own locals: hexciton's k loop of 7 with
 * 16 subscripts and no store is unrolled; its `_direct` twin, the same
 * loads with eight read-modify-writes of sigma_out, stays a loop (PTX:
 * comm_aosoa_constants and comm_aosoa_constants_direct); an outer loop of 7
 * around an unrolled one of 7 stays a loop (their j around k). */
#define UNROLLED_SUBSCRIPTS 128

static bool unrolled_in_full(walker *w, const loop_frame *fr, int64_t copies)
{
    if (!fr->var || !fr->trips || fr->trips->kind != EX_CONST || fr->trips->value < 1)
        return false;
    copies *= fr->trips->value;
    return copies <= UNROLLED_IN_FULL &&
           copies * subscripts_in(fr->stmt, 0) <= UNROLLED_SUBSCRIPTS &&
           every_store(w, fr->stmt, local_store, NULL, 0);
}

/* How many of the enclosing loops a global load `a[i]` runs in. nvcc loads
 * an element once before the loops in which its address does not change and
 * nothing is written but that element (`acc[i] += ...` in a loop: the value
 * stays in a register, the stores remain); under a condition inside a loop
 * it stays put. A load inside loops NVVM unrolls in full whose address
 * only their counters change is, after the unrolling, one load a copy in
 * the loop around them, and leaves that loop as any other (hexciton's
 * comm_aosoa_constants: hamiltonian[i * DIM + k] in its k loop of 7, once
 * an i and not once a j; unrolled_hoist.cu). */
/* The loops, counted from the outermost, an element's load or store stays
 * in; fewer than the enclosing ones where it moves out of the inner ones.
 * *unrolled: where the innermost loops it stays in, unrolled in full, begin
 * (n_loops: none). */
int wk_element_loops(walker *w, cnode *n, bool store, int *unrolled)
{
    fn_ctx *f = w->f;
    cnode *s = cn_strip(n);
    *unrolled = f->n_loops;
    if (w->n_calls || !f->n_loops || s->kind != CXCursor_ArraySubscriptExpr || s->n_kids != 2)
        return f->n_loops;
    char *text = cn_text_trunc(w->t, s->cur, 200);
    bool promotable = wk_restrict_element(s);
    element e = {text, {SP_NONE, -1, NULL, NULL, NULL}, wk_access_width(s), s->kids[1]};
    if (promotable)
        wk_resolve_lvalue(w, s, &e.at, 0);
    int level = f->n_loops;
    int64_t copies = 1;
    w->n_unrolled_vars = 0;
    while (level > 0) {
        loop_frame *fr = f->loops[level - 1];
        if (w->n_guards != fr->guards_at_entry || !cn_inside(n, fr->stmt))
            break;
        if (!invariant_in(w, s->kids[0], fr->stmt, 0) ||
            !invariant_in(w, s->kids[1], fr->stmt, 0)) {
            if (store || level != *unrolled || !unrolled_in_full(w, fr, copies) ||
                w->n_unrolled_vars == 4)
                break;
            copies *= fr->trips->value;
            w->unrolled_vars[w->n_unrolled_vars++] = fr->var;
            *unrolled = --level;
            continue;
        }
        CXCursor base = clang_getCursorReferenced(cn_strip_casts(s->kids[0])->cur);
        bool promoted = promotable && every_store(w, fr->stmt, invariant_restrict, fr->stmt, 0) &&
                        only_element(w, fr->stmt, base, &e, 0);
        bool hoisted = !store && promotable && every_store(w, fr->stmt, other_restrict, &base, 0);
        /* Through unrolled loops only a load of memory the loop does not
         * write moves: their copies of an element the loop stores stay in
         * it (hexciton's comm_aosoa_constants_perm: sigma_out's 14
         * elements of its unrolled j, loaded and stored each k). */
        if (w->n_unrolled_vars && !hoisted)
            break;
        if (!promoted && !hoisted && (store || !writes_only(w, fr->stmt, text)))
            break;
        level--;
    }
    w->n_unrolled_vars = 0;
    if (level == *unrolled) /* left no loop but the unrolled ones */
        level = *unrolled = f->n_loops;
    wk_lref_free(&e.at);
    free(text);
    return level;
}

int wk_load_loops(walker *w, cnode *n, int *unrolled)
{
    return wk_element_loops(w, n, false, unrolled);
}
