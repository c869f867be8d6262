/* cusrc_reach: which definition of a local variable (its initialiser or an
 * assignment) reaches a use of it, read from the cursor tree's shape and
 * source offsets, as libclang offers no data flow: the last one before the
 * use that runs every time the use does, where exactly one can be shown. */
#include <stdlib.h>

#include "cusrc/cusrc_int.h"

static unsigned extent_offset(CXCursor c, bool end)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile file;
    unsigned l, col, off = 0;
    clang_getExpansionLocation(end ? clang_getRangeEnd(r) : clang_getRangeStart(r), &file, &l, &col,
                               &off);
    return off;
}

static bool is_loop_stmt(const cnode *n)
{
    return n->kind == CXCursor_ForStmt || n->kind == CXCursor_WhileStmt ||
           n->kind == CXCursor_DoStmt || n->kind == CXCursor_CXXForRangeStmt;
}

/* Does some loop below `scope` hold both a and b (so that one can run after
 * the other through the loop's back edge)? */
static bool share_loop(const cnode *a, const cnode *b, const cnode *scope)
{
    /* b may be a loop itself (the value a local has as it enters one):
     * what its body assigns runs after b starts, not before. */
    for (const cnode *p = a->parent; p && p != scope; p = p->parent)
        if (is_loop_stmt(p) && p != b && cn_inside(b, p))
            return true;
    return false;
}

/* Is a, run after use, overwritten by best before control comes back to
 * use: a loop holds use and best but not a, so every way from a to use
 * enters that loop and passes best first (`for (...) { n = blk; k<<<n>>>; }`
 * inside a repeat loop whose next inner loop assigns n again). best
 * dominates use already. */
static bool loop_kills(const cnode *a, const cnode *best, const cnode *use, const cnode *scope)
{
    for (const cnode *p = use->parent; p && p != scope; p = p->parent)
        if (is_loop_stmt(p) && cn_inside(best, p) && !cn_inside(a, p))
            return true;
    return false;
}

/* Does a child of p run whenever p does: p a block, a declaration or an
 * expression other than the short-circuit operators and ?: (not an if,
 * a loop or any other statement). */
static bool passes_on(const cnode *p)
{
    switch (p->kind) {
    case CXCursor_CompoundStmt:
    case CXCursor_DeclStmt:
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
        return true;
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(p->cur);
        return k != CXBinaryOperator_LAnd && k != CXBinaryOperator_LOr;
    }
    default:
        return !clang_isStatement(p->kind) && p->kind != CXCursor_ConditionalOperator;
    }
}

/* Does d run, with nothing conditional in between, every time control
 * reaches use: is there a block that holds use and reaches d through
 * blocks and plain expressions only? That block (every way into use
 * enters it at its top, and so passes d), or NULL. */
static const cnode *dominating_block(const cnode *d, const cnode *use, const cnode *scope,
                                     x_arm_fn arm, void *ctx)
{
    const cnode *child = d;
    for (const cnode *p = d->parent; p; child = p, p = p->parent) {
        if (p->kind == CXCursor_CompoundStmt && cn_inside(use, p))
            return p;
        if (p == scope)
            return NULL;
        if (p->kind == CXCursor_IfStmt) {
            /* The condition runs whenever the if does. */
            const cnode *cond = NULL;
            if (x_if_arm(p, child, &cond) < 0 && cond == child)
                continue;
            if (arm && arm(ctx, p, child) == 1)
                continue;
            return NULL;
        }
        if (!passes_on(p))
            return NULL;
    }
    return NULL;
}

static bool dominates(const cnode *d, const cnode *use, const cnode *scope, x_arm_fn arm, void *ctx)
{
    return dominating_block(d, use, scope, arm, ctx) != NULL;
}

/* Is a, run after use in a loop that holds both, overwritten by best
 * before control comes back to use: the way back goes through the
 * innermost such loop's head, and into the block where best dominates
 * use at its top, when that block lies inside the loop (`for (...) { if
 * (s >= 1024) { lws = 256; k<<<g, lws>>>(); } else { lws = 512; ... } }`). */
static bool block_kills(const cnode *a, const cnode *use, const cnode *block, const cnode *scope)
{
    for (const cnode *p = use->parent; block && p && p != scope; p = p->parent)
        if (is_loop_stmt(p) && cn_inside(a, p))
            return cn_inside(block, p);
    return false;
}

/* Does a sit in an arm that never runs? */
static bool never_runs(const cnode *a, const cnode *scope, x_arm_fn arm, void *ctx)
{
    const cnode *child = a;
    for (const cnode *p = a->parent; arm && p && p != scope; child = p, p = p->parent)
        if (p->kind == CXCursor_IfStmt && arm(ctx, p, child) == -1)
            return true;
    return false;
}

bool x_may_reach(const cnode *a, const cnode *use, const cnode *scope, x_arm_fn arm, void *ctx)
{
    if (never_runs(a, scope, arm, ctx))
        return false;
    return extent_offset(a->cur, true) <= extent_offset(use->cur, false) ||
           share_loop(a, use, scope);
}

/* Are a and b in different arms of one if (or ?:) that no loop below
 * scope repeats: then neither runs after the other. */
static bool exclusive_arms(const cnode *a, const cnode *b, const cnode *scope)
{
    const cnode *lca = a->parent;
    while (lca && !cn_inside(b, lca))
        lca = lca->parent;
    if (!lca || (lca->kind != CXCursor_IfStmt && lca->kind != CXCursor_ConditionalOperator))
        return false;
    /* The condition is an arm of neither. */
    if (lca->n_kids < 2 || cn_inside(a, lca->kids[0]) || cn_inside(b, lca->kids[0]))
        return false;
    for (const cnode *p = lca->parent; p && p != scope; p = p->parent)
        if (is_loop_stmt(p))
            return false;
    return true;
}

/* The block v is declared in, where use lies in it and v's address is not
 * taken (else no definition can be followed); NULL otherwise. */
static const cnode *use_scope(const var_info *v, const cnode *use)
{
    if (!use || !v->decl_node || !v->decl_node->parent || v->addr_taken)
        return NULL;
    /* A parameter's block is its function's. */
    const cnode *scope = v->decl_node->kind == CXCursor_ParmDecl ? v->decl_node->parent
                                                                 : v->decl_node->parent->parent;
    return scope && cn_inside(use, scope) ? scope : NULL;
}

/* The last of v's assignments that ends before use and may run (where
 * must_dominate, the last that runs every time before use). */
static cnode *last_assign_before(const var_info *v, const cnode *use, const cnode *scope,
                                 bool must_dominate, x_arm_fn arm, void *ctx)
{
    unsigned at = extent_offset(use->cur, false);
    cnode *last = NULL;
    unsigned last_end = 0;
    for (int i = 0; i < v->n_assigns; i++) {
        cnode *a = v->assigns[i];
        unsigned end = extent_offset(a->cur, true);
        if (end > at || (last && end <= last_end) || never_runs(a, scope, arm, ctx) ||
            (must_dominate && !dominates(a, use, scope, arm, ctx)))
            continue;
        last = a;
        last_end = end;
    }
    return last;
}

/* The definition of v that reaches use, where exactly one does and runs
 * every time before it (`x = ...; __syncthreads(); x = ...;` as in the
 * transpose samples, `n <<= 1` in an if before a loop that reads n as in
 * cuda-samples' reduce6): the variable's initialiser (its VarDecl node) or
 * one of its assignments. NULL when no single definition can be shown to
 * reach use: a definition in a loop that also holds use, or one that only
 * sometimes runs before it. Where arm says an if's condition is constant
 * (`if (argc == 3) n = atoi(argv[1]);` with the program's arguments known),
 * an assignment in the arm left out is no definition, and one in the arm
 * taken runs as if unconditional. */
cnode *x_reaching_def(var_info *v, cnode *use, x_arm_fn arm, void *ctx)
{
    const cnode *scope = use_scope(v, use);
    if (!scope)
        return NULL;
    unsigned at = extent_offset(use->cur, false);
    /* An initialiser ends before any assignment begins. */
    cnode *best = last_assign_before(v, use, scope, true, arm, ctx);
    if (!best && v->init && extent_offset(v->decl_node->cur, true) <= at)
        best = v->decl_node;
    if (!best)
        return NULL;
    unsigned best_start = extent_offset(best->cur, false);
    const cnode *block = dominating_block(best, use, scope, arm, ctx);
    for (int i = 0; i < v->n_assigns; i++) {
        cnode *a = v->assigns[i];
        if (a == best || never_runs(a, scope, arm, ctx))
            continue;
        unsigned end = extent_offset(a->cur, true);
        if (end > at) {
            if (share_loop(a, use, scope) && !loop_kills(a, best, use, scope) &&
                !block_kills(a, use, block, scope))
                return NULL; /* runs again before use, through the back edge */
        } else if (end > best_start && !exclusive_arms(a, use, scope)) {
            return NULL; /* may run between best and use */
        }
    }
    return best;
}

/* Does a parameter's value on entry (its argument) reach use: none of
 * its assignments can run before it (`n = (n + b - 1) / b * b;` above a
 * launch sized by n changes what the launch sees; one below it, outside
 * any loop that holds the use, does not). */
bool x_entry_reaches(var_info *v, cnode *use, x_arm_fn arm, void *ctx)
{
    const cnode *scope = use_scope(v, use);
    if (!scope || v->init)
        return false;
    unsigned at = extent_offset(use->cur, false);
    for (int i = 0; i < v->n_assigns; i++) {
        cnode *a = v->assigns[i];
        if (never_runs(a, scope, arm, ctx))
            continue;
        if (extent_offset(a->cur, true) <= at || share_loop(a, use, scope))
            return false;
    }
    return true;
}

/* The loop that last sets v before use (`while (n % b != 0) n++;` above
 * the launch sized by n): it runs every time use does, holds every
 * assignment of v between its start and use, and does not hold use, nor
 * does any loop that assigns v again after use; NULL otherwise. */
cnode *x_defining_loop(var_info *v, cnode *use, x_arm_fn arm, void *ctx)
{
    const cnode *scope = use_scope(v, use);
    if (!scope)
        return NULL;
    unsigned at = extent_offset(use->cur, false);
    for (int i = 0; i < v->n_assigns; i++)
        if (extent_offset(v->assigns[i]->cur, true) > at &&
            !never_runs(v->assigns[i], scope, arm, ctx) && share_loop(v->assigns[i], use, scope))
            return NULL;
    cnode *last = last_assign_before(v, use, scope, false, arm, ctx);
    cnode *loop = NULL;
    for (cnode *p = last ? last->parent : NULL; p && p != scope; p = p->parent)
        if (is_loop_stmt(p))
            loop = p;
    if (!loop || cn_inside(use, loop) || !dominates(loop, use, scope, arm, ctx))
        return NULL;
    unsigned start = extent_offset(loop->cur, false);
    for (int i = 0; i < v->n_assigns; i++) {
        cnode *a = v->assigns[i];
        unsigned end = extent_offset(a->cur, true);
        if (end <= at && end > start && !cn_inside(a, loop) && !never_runs(a, scope, arm, ctx))
            return NULL;
    }
    return loop;
}

/* Does a run every time the statement arm does: nothing between them but
 * blocks, declarations and expressions that always run? */
static bool runs_with(const cnode *a, const cnode *arm)
{
    for (const cnode *p = a; p != arm; p = p->parent)
        if (!p->parent || !passes_on(p->parent))
            return false;
    return true;
}

static bool within(const cnode *a, const cnode *n)
{
    return a == n || cn_inside(a, n);
}

int x_arm_def(const var_info *v, const cnode *arm, cnode **def)
{
    *def = NULL;
    while (arm && arm->kind == CXCursor_CompoundStmt && arm->n_kids == 1)
        arm = arm->kids[0];
    if (!arm)
        return 0;
    cnode *last = NULL;
    unsigned last_end = 0;
    int n = 0;
    for (int i = 0; i < v->n_assigns; i++) {
        cnode *a = v->assigns[i];
        if (!within(a, arm))
            continue;
        n++;
        unsigned end = extent_offset(a->cur, true);
        if (!last || end > last_end) {
            last = a;
            last_end = end;
        }
    }
    if (n == 0)
        return 0;
    if (arm->kind == CXCursor_IfStmt) {
        *def = (cnode *)arm;
        return 2;
    }
    /* The last assignment in the arm, where it always runs, decides (an
     * earlier one matters only to a compound one, which asks for the value
     * before it again). */
    if (!runs_with(last, arm))
        return -1;
    *def = last;
    return 1;
}

cnode *x_choosing_if(var_info *v, cnode *use, x_arm_fn arm, void *ctx, bool *before_reaches)
{
    const cnode *scope = use_scope(v, use);
    if (!scope)
        return NULL;
    cnode *last = last_assign_before(v, use, scope, false, arm, ctx);
    if (!last)
        return NULL;
    cnode *ifs = NULL;
    for (cnode *p = last->parent, *child = last; p && p != scope; child = p, p = p->parent) {
        if (is_loop_stmt(p))
            return NULL; /* an assignment in a loop, not an arm */
        const cnode *cond;
        if (p->kind == CXCursor_IfStmt && x_if_arm(p, child, &cond) >= 0 &&
            dominates(p, use, scope, arm, ctx)) {
            ifs = p;
            break;
        }
    }
    if (!ifs)
        return NULL;
    /* Every other assignment ends before the if or cannot run between it
     * and use (nor again before use through a loop's back edge). */
    unsigned at = extent_offset(use->cur, false), start = extent_offset(ifs->cur, false);
    bool all_inside = true;
    for (int i = 0; i < v->n_assigns; i++) {
        cnode *a = v->assigns[i];
        if (never_runs(a, scope, arm, ctx))
            continue;
        const cnode *cond;
        if (within(a, ifs)) {
            int ci = ifs->n_kids >= 3 ? ifs->n_kids - 3 : 0;
            if (x_if_arm(ifs, ifs->kids[ci + 1], &cond) >= 0 && within(a, cond))
                return NULL; /* the condition itself assigns it */
            continue;
        }
        all_inside = false;
        unsigned end = extent_offset(a->cur, true);
        if (end > start && end <= at)
            return NULL;
        if (end > at && share_loop(a, use, scope))
            return NULL;
    }
    /* In a loop, the value before the if may be last trip's. */
    *before_reaches = true;
    for (const cnode *q = ifs->parent; q && q != scope; q = q->parent)
        if (is_loop_stmt(q))
            *before_reaches = false;
    if (!*before_reaches && !all_inside)
        return NULL;
    return ifs;
}

bool x_dominates(const cnode *d, const cnode *use, x_arm_fn arm, void *ctx)
{
    return dominates(d, use, NULL, arm, ctx);
}

static bool names(const cnode *n, const var_info *v)
{
    n = cn_strip_casts((cnode *)n);
    return n && n->kind == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(n->cur), v->decl);
}

/* Does call let its callee change v's fields: v passed by a reference that
 * is not const to a callee that may write through it, or a method that is
 * not const called on v. */
static bool call_changes(const cnode *call, const var_info *v, bool methods)
{
    CXCursor fn = clang_getCursorReferenced(call->cur);
    if (fn.kind == CXCursor_Constructor)
        return false; /* a copy made of v (a by-value argument) */
    if (methods && fn.kind == CXCursor_CXXMethod && x_method_call_changes(call, fn) &&
        call->n_kids > 0) {
        const cnode *callee = cn_strip((cnode *)call->kids[0]);
        if (callee && callee->kind == CXCursor_MemberRefExpr && callee->n_kids > 0 &&
            names(callee->kids[0], v))
            return true;
    }
    int na = clang_Cursor_getNumArguments(call->cur);
    for (int i = 0; i < na && i < clang_Cursor_getNumArguments(fn); i++) {
        CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(fn, i)));
        if (t.kind != CXType_LValueReference && t.kind != CXType_RValueReference)
            continue;
        if (clang_isConstQualifiedType(clang_getPointeeType(t)))
            continue;
        CXCursor arg = clang_Cursor_getArgument(call->cur, (unsigned)i);
        for (int k = 0; k < call->n_kids; k++)
            if (clang_equalCursors(call->kids[k]->cur, arg) && names(call->kids[k], v) &&
                x_ref_param_may_change(fn, i))
                return true;
    }
    return false;
}

static const cnode *changer(const cnode *n, const var_info *v, unsigned from, unsigned to,
                            bool methods)
{
    if (n->kind == CXCursor_CallExpr) {
        unsigned at = cn_spelled_at(n->cur);
        if (at > from && at < to && call_changes(n, v, methods))
            return n;
    }
    for (int i = 0; i < n->n_kids; i++) {
        const cnode *c = changer(n->kids[i], v, from, to, methods);
        if (c)
            return c;
    }
    return NULL;
}

const cnode *x_field_changer(const cnode *n, const var_info *v, unsigned from, unsigned to)
{
    return changer(n, v, from, to, true);
}

const cnode *x_arg_changer(const cnode *n, const var_info *v, unsigned from, unsigned to)
{
    return changer(n, v, from, to, false);
}

static void ref_calls(cnode *n, var_info *v)
{
    if (n->kind == CXCursor_CallExpr && call_changes(n, v, false)) {
        if (v->n_ref_calls < 4)
            v->ref_calls[v->n_ref_calls] = n;
        if (v->n_ref_calls < 5)
            v->n_ref_calls++;
    }
    for (int i = 0; i < n->n_kids; i++)
        ref_calls(n->kids[i], v);
}

cnode *x_ref_call_reaching(fn_ctx *f, var_info *v, cnode *use, x_arm_fn arm)
{
    if (!v->ref_scanned) {
        v->ref_scanned = true;
        ref_calls(f->root, v);
    }
    if (v->n_ref_calls > 4 || (!use && v->n_ref_calls))
        return v->ref_calls[0];
    for (int i = 0; use && i < v->n_ref_calls; i++)
        if (x_may_reach(v->ref_calls[i], use, f->root, arm, f))
            return v->ref_calls[i];
    return NULL;
}

bool x_after_loop(const var_info *v, const cnode *use)
{
    return x_after_loop_into(v, use, NULL);
}

bool x_after_loop_into(const var_info *v, const cnode *use, const cnode *next_loop)
{
    const cnode *loop = v->loop;
    if (!loop || !use || cn_inside(use, loop) ||
        extent_offset(use->cur, false) < extent_offset(loop->cur, true) ||
        !dominates(loop, use, NULL, NULL, NULL))
        return false;
    /* A loop around the counter's but not around its declaration starts
     * the counter again from where it stopped. */
    for (const cnode *p = loop->parent; p; p = p->parent)
        if (is_loop_stmt(p) && !(v->decl_node && cn_inside(v->decl_node, p)))
            return false;
    unsigned start = extent_offset(loop->cur, false);
    for (int i = 0; i < v->n_assigns; i++)
        if (!cn_inside(v->assigns[i], loop) &&
            !(next_loop && cn_inside(v->assigns[i], next_loop)) &&
            extent_offset(v->assigns[i]->cur, false) > start)
            return false;
    return true;
}
