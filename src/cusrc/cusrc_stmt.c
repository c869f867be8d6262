/* cusrc_stmt: walks the statements of one kernel body (a kernel, one
 * instantiation of a templated kernel, or the template itself): blocks,
 * declarations, branches, early exits and loops with their trip counts;
 * body_analyse is the entry. Together the walkers record what the analyses
 * need: the __shared__ arrays, every shared and global load and store with
 * its byte offset as an expr tree, the conditions that guard it and the
 * loops around it, every branch, and per-thread operation counts. Sites it
 * cannot follow are still recorded, with why_not saying why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_walk.h"

/* ---- statements ---- */

typedef struct exit_info {
    expr *after;  /* execution continues past the statement only when this holds */
    bool returns; /* ...because of a return: holds for the rest of the kernel */
} exit_info;

static bool always_exits(cnode *s, bool *is_return)
{
    if (!s)
        return false;
    switch (s->kind) {
    case CXCursor_ReturnStmt:
        *is_return = true;
        return true;
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
        *is_return = false;
        return true;
    case CXCursor_CompoundStmt:
        return s->n_kids > 0 && always_exits(s->kids[s->n_kids - 1], is_return);
    default:
        return false;
    }
}

static exit_info walk_stmt(walker *w, cnode *s);
static void walk_loop(walker *w, cnode *s);

/* A statement whose early exits do not guard anything after it (a loop
 * body, a for-init, a case). */
static void walk_stmt_drop(walker *w, cnode *s)
{
    exit_info r = walk_stmt(w, s);
    expr_free(r.after);
}

static exit_info walk_compound(walker *w, cnode *s)
{
    int pushed = 0;
    expr *prop = NULL;
    /* What follows a statement that some threads leave by is counted for
     * the threads that stay: an arm weighted by the guard after it. */
    arm_saved *arms = NULL;
    for (int i = 0; i < s->n_kids; i++) {
        exit_info r = walk_stmt(w, s->kids[i]);
        if (r.after) {
            if (r.returns)
                prop = x_conj(prop, expr_clone(r.after));
            wk_push_guard(w, r.after);
            pushed++;
            arms = xrealloc(arms, (size_t)pushed * sizeof *arms);
            wk_arm_begin(w, &arms[pushed - 1]);
        }
    }
    while (pushed--) {
        wk_arm_end(w, &arms[pushed], w->guards[w->n_guards - 1]);
        wk_pop_guard(w);
    }
    free(arms);
    return (exit_info){prop, prop != NULL};
}

static void walk_decl(walker *w, cnode *s)
{
    for (int i = 0; i < s->n_kids; i++) {
        cnode *d = s->kids[i];
        if (d->kind != CXCursor_VarDecl) {
            continue;
        }
        if (cn_has_attr(d->cur, CXCursor_CUDASharedAttr)) {
            wk_register_array(w, d->cur, d);
            continue;
        }
        cnode *init = fn_var_init(d);
        if (init)
            wk_walk_expr(w, init);
    }
}

static exit_info walk_if(walker *w, cnode *s)
{
    int first = 0;
    if (s->n_kids >= 3 &&
        (s->kids[0]->kind == CXCursor_DeclStmt || s->kids[0]->kind == CXCursor_NullStmt)) {
        walk_stmt_drop(w, s->kids[0]);
        first = 1;
    }
    if (s->n_kids - first < 2)
        return (exit_info){NULL, false};
    cnode *cond = s->kids[first], *then = s->kids[first + 1];
    cnode *els = s->n_kids - first >= 3 ? s->kids[first + 2] : NULL;
    wk_walk_expr(w, cond);
    /* What the condition loaded is in a register in either arm (`if (b[k]
     * > 0) s += a[i] * b[k];` loads b[k] once). */
    avail_saved held;
    wk_avail_save(w, &held);
    expr *c = x_expr(w->f, cond);
    size_t branch = w->u->n_branches;
    wk_emit_branch(w, BRANCH_IF, cond, s, expr_clone(c));
    wk_branch_arm(w, branch, 0, then);
    if (els)
        wk_branch_arm(w, branch, 1, els);
    long work_before = w->work_events;
    arm_saved saved;
    wk_push_guard(w, expr_clone(c));
    wk_arm_begin(w, &saved);
    wk_avail_restore(w, &held);
    w->arm_keeps_avail = true;
    exit_info r1 = walk_stmt(w, then);
    wk_arm_end(w, &saved, w->guards[w->n_guards - 1]);
    wk_pop_guard(w);
    exit_info r2 = {NULL, false};
    if (els) {
        wk_push_guard(w, expr_unary(OP_NOT, expr_clone(c)));
        wk_arm_begin(w, &saved);
        wk_avail_restore(w, &held);
        w->arm_keeps_avail = true;
        r2 = walk_stmt(w, els);
        wk_arm_end(w, &saved, w->guards[w->n_guards - 1]);
        wk_pop_guard(w);
    }
    wk_avail_free(&held);
    expr *after = NULL;
    bool ret1 = false, ret2 = false;
    bool returns = r1.returns || r2.returns;
    bool exits1 = always_exits(then, &ret1), exits2 = els && always_exits(els, &ret2);
    if (exits1) {
        after = expr_unary(OP_NOT, expr_clone(c));
        returns |= ret1;
        expr_free(r1.after);
    } else if (r1.after) {
        after = expr_binary(OP_LOR, expr_unary(OP_NOT, expr_clone(c)), r1.after);
    }
    if (exits2) {
        after = x_conj(after, expr_clone(c));
        returns |= ret2;
        expr_free(r2.after);
    } else if (r2.after) {
        after = x_conj(after, expr_binary(OP_LOR, expr_clone(c), r2.after));
    }
    /* Neither arm counts anything nor leaves early: the branch cannot make
     * the per-thread counts an upper bound. */
    w->u->branches[branch].no_work = w->work_events == work_before && !exits1 && !exits2 &&
                                     !r1.after && !r2.after && !r1.returns && !r2.returns;
    expr_free(c);
    return (exit_info){after, returns && after};
}

static exit_info walk_stmt_kind(walker *w, cnode *s);

/* Control flow ends what loads and stores left in registers (avail). */
static exit_info walk_stmt(walker *w, cnode *s)
{
    bool control =
        s && !cn_is_expr(s) && s->kind != CXCursor_CompoundStmt && s->kind != CXCursor_DeclStmt;
    /* Only statements in sequence in one block follow each other: an arm or
     * a loop body starts afresh. */
    bool loop = s && (s->kind == CXCursor_ForStmt || s->kind == CXCursor_WhileStmt ||
                      s->kind == CXCursor_DoStmt);
    if (loop) {
        for (int i = 0; i < w->n_entry_avail; i++)
            free(w->entry_avail[i]);
        free(w->entry_avail);
        w->entry_avail = w->avail;
        w->n_entry_avail = w->n_avail;
        w->avail = NULL;
        free(w->avail_meta);
        w->avail_meta = NULL;
        w->n_avail = w->cap_avail = 0;
    }
    bool keep = w->arm_keeps_avail;
    w->arm_keeps_avail = false;
    if (!keep && (control || !s || !s->parent || s->parent->kind != CXCursor_CompoundStmt))
        wk_avail_clear(w);
    exit_info r = walk_stmt_kind(w, s);
    if (control)
        wk_avail_clear(w);
    return r;
}

/* Inline PTX that moves memory or multiplies matrices does work the
 * counts cannot see (its operands are registers the asm names): the
 * kernel's counts then say they miss code. Register moves, clock and
 * %smid reads, barriers and setmaxnreg count nothing and say nothing. */
static void inline_ptx(walker *w, cnode *s)
{
    static const char *const work[] = {"ld.",  "st.",  "cp.async", "cp.reduce", "atom.",
                                       "red.", "mma.", "wgmma",    "tcgen05",   "multimem",
                                       "tex.", "suld", "sust.",    "prefetch"};
    char *text = cn_text(w->t, s->cur);
    const char *hit = NULL;
    for (size_t i = 0; text && !hit && i < sizeof work / sizeof work[0]; i++) {
        const char *at = strstr(text, work[i]);
        /* a mnemonic: at the start of a quoted instruction or after a space, ';' or '{' */
        while (at && at > text && !strchr("\" \t;{", at[-1]))
            at = strstr(at + 1, work[i]);
        hit = at;
    }
    if (hit) {
        src_loc l = {0};
        cn_loc(w->t, s->cur, &l);
        size_t n = strcspn(hit, " \t;\"\\");
        wk_incomplete(w, "line %d: inline PTX '%.*s' does work the counts do not see", l.line,
                      (int)(n > 48 ? 48 : n), hit);
        free(l.file);
    }
    free(text);
}
static exit_info walk_stmt_kind(walker *w, cnode *s)
{
    exit_info none = {NULL, false};
    if (!s)
        return none;
    w->stmt_seq++;
    w->n_cse = 0; /* common subexpressions: within one statement */
    if (cn_is_expr(s)) {
        wk_walk_expr(w, s);
        return none;
    }
    switch (s->kind) {
    case CXCursor_CompoundStmt:
        return walk_compound(w, s);
    case CXCursor_DeclStmt:
        walk_decl(w, s);
        return none;
    case CXCursor_IfStmt:
        return walk_if(w, s);
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_CXXForRangeStmt:
        walk_loop(w, s);
        return none;
    case CXCursor_SwitchStmt: {
        cnode *cond = NULL, *body = NULL;
        for (int i = 0; i < s->n_kids; i++) {
            if (cn_is_expr(s->kids[i]) && !cond)
                cond = s->kids[i];
            else if (s->kids[i]->kind == CXCursor_CompoundStmt)
                body = s->kids[i];
        }
        if (cond) {
            wk_walk_expr(w, cond);
            wk_emit_branch(w, BRANCH_SWITCH, cond, s, x_expr(w->f, cond));
            wk_branch_arm(w, w->u->n_branches - 1, 0, s);
        }
        w->in_switch++;
        if (body)
            walk_stmt_drop(w, body);
        w->in_switch--;
        return none;
    }
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
    case CXCursor_LabelStmt:
        if (s->n_kids)
            walk_stmt_drop(w, s->kids[s->n_kids - 1]);
        return none;
    case CXCursor_ReturnStmt:
        for (int i = 0; i < s->n_kids; i++)
            wk_walk_expr(w, s->kids[i]);
        return none;
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
    case CXCursor_NullStmt:
    case CXCursor_GotoStmt:
        return none;
    case CXCursor_GCCAsmStmt:
    case CXCursor_MSAsmStmt:
        inline_ptx(w, s);
        return none;
    default:
        for (int i = 0; i < s->n_kids; i++) {
            if (cn_is_expr(s->kids[i]))
                wk_walk_expr(w, s->kids[i]);
            else if (clang_isStatement(s->kids[i]->kind))
                walk_stmt_drop(w, s->kids[i]);
        }
        return none;
    }
}

/* ---- loops ---- */

static unsigned start_offset(CXCursor c)
{
    CXFile f;
    unsigned l, col, off = 0;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, &l, &col, &off);
    return off;
}

/* libclang drops the missing parts of `for (init; cond; inc)`, so each kid
 * is placed by where it starts relative to the header's semicolons. */
static void for_parts(walker *w, cnode *s, cnode **init, cnode **cond, cnode **inc, cnode **body)
{
    *init = *cond = *inc = *body = NULL;
    if (s->n_kids == 0)
        return;
    *body = s->kids[s->n_kids - 1];
    int nh = s->n_kids - 1;
    if (nh == 3) {
        *init = s->kids[0];
        *cond = s->kids[1];
        *inc = s->kids[2];
        return;
    }
    if (nh == 0)
        return;
    CXToken *toks = NULL;
    unsigned nt = 0;
    clang_tokenize(w->t->tu, clang_getCursorExtent(s->cur), &toks, &nt);
    unsigned semi[2] = {0, 0};
    int ns = 0, depth = 0;
    for (unsigned i = 0; toks && i < nt && ns < 2; i++) {
        CXString sp = clang_getTokenSpelling(w->t->tu, toks[i]);
        const char *t = clang_getCString(sp);
        if (!strcmp(t, "(") || !strcmp(t, "[") || !strcmp(t, "{"))
            depth++;
        else if (!strcmp(t, ")") || !strcmp(t, "]") || !strcmp(t, "}"))
            depth--;
        else if (!strcmp(t, ";") && depth == 1) {
            CXFile f;
            unsigned l, c, off;
            clang_getExpansionLocation(clang_getTokenLocation(w->t->tu, toks[i]), &f, &l, &c, &off);
            semi[ns++] = off;
        }
        clang_disposeString(sp);
    }
    if (toks)
        clang_disposeTokens(w->t->tu, toks, nt);
    for (int i = 0; i < nh; i++) {
        cnode *k = s->kids[i];
        if (ns == 2) {
            unsigned o = start_offset(k->cur);
            if (o < semi[0])
                *init = k;
            else if (o < semi[1])
                *cond = k;
            else
                *inc = k;
        } else if (k->kind == CXCursor_DeclStmt && !*init) {
            *init = k;
        } else if (!*cond &&
                   clang_getCanonicalType(clang_getCursorType(k->cur)).kind == CXType_Bool) {
            *cond = k;
        } else {
            *inc = k;
        }
    }
}

/* The locals an increment expression steps, in order: `i++`, `i += s`,
 * `i = i + s`, each side of a comma, and a step inside an assignment's
 * value (`k = j++`, pnpoly's edge loop, steps k and j). */
static int update_targets(walker *w, cnode *inc, var_info **out, cnode **at, int n, int max)
{
    inc = cn_strip(inc);
    if (!inc || n >= max)
        return n;
    if (inc->kind == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(inc->cur) == CXBinaryOperator_Comma && inc->n_kids == 2) {
        n = update_targets(w, inc->kids[0], out, at, n, max);
        return update_targets(w, inc->kids[1], out, at, n, max);
    }
    cnode *t = NULL;
    if ((inc->kind == CXCursor_BinaryOperator || inc->kind == CXCursor_CompoundAssignOperator) &&
        inc->n_kids == 2)
        t = inc->kids[0];
    else if (inc->kind == CXCursor_UnaryOperator && inc->n_kids == 1)
        t = inc->kids[0];
    t = cn_strip(t);
    if (!t || t->kind != CXCursor_DeclRefExpr)
        return n;
    var_info *v = fn_var(w->f, clang_getCursorReferenced(t->cur));
    if (v && !v->is_shared) {
        out[n] = v;
        at[n++] = inc;
    }
    if (inc->kind == CXCursor_BinaryOperator && inc->n_kids == 2 &&
        clang_getCursorBinaryOperatorKind(inc->cur) == CXBinaryOperator_Assign)
        n = update_targets(w, inc->kids[1], out, at, n, max);
    return n;
}

static bool mentions(const cnode *n, const var_info *v)
{
    if (!n)
        return false;
    if (n->kind == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(n->cur), v->decl))
        return true;
    for (int i = 0; i < n->n_kids; i++)
        if (mentions(n->kids[i], v))
            return true;
    return false;
}

/* The loop's counter among what the increment steps: the first the
 * condition tests, else the first stepped; *step the update of it. */
static var_info *update_target(walker *w, cnode *inc, const cnode *cond, cnode **step)
{
    var_info *v[8];
    cnode *at[8];
    int n = update_targets(w, inc, v, at, 0, 8);
    if (!n)
        return NULL;
    int pick = 0;
    for (int i = 0; i < n && cond; i++)
        if (mentions(cond, v[i])) {
            pick = i;
            break;
        }
    if (step)
        *step = at[pick];
    return v[pick];
}

/* `while (i < n) { ...; i += s; }`: a local in the condition that the body
 * steps exactly once. */
static var_info *while_counter(walker *w, cnode *cond, cnode *loop, cnode **step)
{
    if (!cond)
        return NULL;
    if (cond->kind == CXCursor_DeclRefExpr) {
        var_info *v = fn_var(w->f, clang_getCursorReferenced(cond->cur));
        if (v && !v->is_param && !v->is_shared) {
            int in = 0;
            cnode *last = NULL;
            for (int i = 0; i < v->n_assigns; i++)
                if (cn_inside(v->assigns[i], loop)) {
                    in++;
                    last = v->assigns[i];
                }
            if (in == 1) {
                *step = last;
                return v;
            }
        }
    }
    for (int i = 0; i < cond->n_kids; i++) {
        var_info *v = while_counter(w, cond->kids[i], loop, step);
        if (v)
            return v;
    }
    return NULL;
}

static bool only_var(const expr *e, const char *var)
{
    if (!e)
        return true;
    if (e->kind == EX_UNKNOWN)
        return false;
    if (e->kind == EX_SYM)
        return e->builtin == SYM_NAMED && e->name && strcmp(e->name, var) == 0;
    return only_var(e->a, var) && only_var(e->b, var) && only_var(e->c, var) && only_var(e->d, var);
}

/* Step of next = var + S or S + var (S free of var); *neg for var - S. */
static expr *linear_step(const expr *next, const char *var, bool *neg)
{
    if (!next || next->kind != EX_BINARY)
        return NULL;
    bool a_var = next->a && next->a->kind == EX_SYM && next->a->builtin == SYM_NAMED &&
                 next->a->name && strcmp(next->a->name, var) == 0;
    bool b_var = next->b && next->b->kind == EX_SYM && next->b->builtin == SYM_NAMED &&
                 next->b->name && strcmp(next->b->name, var) == 0;
    *neg = false;
    if (next->op == OP_ADD && a_var && !expr_uses_name(next->b, var))
        return expr_clone(next->b);
    if (next->op == OP_ADD && b_var && !expr_uses_name(next->a, var))
        return expr_clone(next->a);
    if (next->op == OP_SUB && a_var && !expr_uses_name(next->b, var)) {
        *neg = true;
        return expr_clone(next->b);
    }
    return NULL;
}

static expr *unknown_trips(walker *w, cnode *s)
{
    src_loc l = {0};
    cn_loc(w->t, s->cur, &l);
    char name[48];
    snprintf(name, sizeof name, "trips_L%d", l.line);
    free(l.file);
    w->u->variants[w->variant].counts.n_unknown_trips++;
    return expr_named(name);
}

/* The bound B of a condition that says var < B: `var < X`, `var <= X`
 * (X + 1), either side, and conjunctions of them (`i < WIDTH && i < end`
 * stops at the smaller bound); NULL for anything else. */
static expr *upper_bound(const expr *cd, const char *var)
{
    if (!cd || cd->kind != EX_BINARY || !cd->a || !cd->b)
        return NULL;
    if (cd->op == OP_LAND) {
        expr *a = upper_bound(cd->a, var), *b = a ? upper_bound(cd->b, var) : NULL;
        if (!b) {
            expr_free(a);
            return NULL;
        }
        return expr_binary(OP_MIN, a, b);
    }
    const expr *lhs = cd->a, *rhs = cd->b;
    expr_op op = cd->op;
    bool rv = rhs->kind == EX_SYM && rhs->name && strcmp(rhs->name, var) == 0;
    if (rv) {
        lhs = cd->b;
        rhs = cd->a;
        op = op == OP_GT ? OP_LT : op == OP_GE ? OP_LE : OP_EQ;
    }
    bool lv = lhs->kind == EX_SYM && lhs->name && strcmp(lhs->name, var) == 0;
    if (!lv || expr_uses_name(rhs, var) || (op != OP_LT && op != OP_LE))
        return NULL;
    return op == OP_LT ? expr_clone(rhs) : expr_binary(OP_ADD, expr_clone(rhs), expr_const(1));
}

/* Whether every name e reads but var keeps its value while loop runs: no
 * assignment to it lies inside the loop (a parameter, a local set
 * before). Builtins (the thread's index) are fixed for a thread. */
static bool loop_invariant(walker *w, const expr *e, const char *var, const cnode *loop)
{
    if (!e)
        return true;
    if (e->kind == EX_UNKNOWN || e->kind == EX_SUM)
        return false;
    if (e->kind == EX_SYM && e->builtin == SYM_NAMED) {
        if (!e->name)
            return false;
        if (!strcmp(e->name, var))
            return true;
        for (size_t i = 0; i < w->f->n_vars; i++) {
            const var_info *v = &w->f->vars[i];
            if (strcmp(v->name, e->name))
                continue;
            if (v->addr_taken || v->is_shared)
                return false;
            for (int k = 0; k < v->n_assigns; k++)
                if (cn_inside(v->assigns[k], loop))
                    return false;
            return true;
        }
        return false; /* a name of no local: a loop counter outside, a field */
    }
    return loop_invariant(w, e->a, var, loop) && loop_invariant(w, e->b, var, loop) &&
           loop_invariant(w, e->c, var, loop);
}

/* Whether the loop can be run where its values are known: its condition
 * and step read nothing the body changes but the counter. */
static bool runnable(walker *w, const loop_frame *fr)
{
    const loop_ctx *c = &fr->ctx;
    return c->var && c->init && c->cond && c->next &&
           loop_invariant(w, c->cond, c->var, fr->stmt) &&
           loop_invariant(w, c->next, c->var, fr->stmt) && !expr_uses_name(c->init, c->var) &&
           !expr_first_unknown(c->init) && expr_uses_name(c->next, c->var);
}

/* A counted loop without a closed form (`while (n >> bits) bits++;`, a
 * doubling to a bound): the loop itself as a sum of 1 per pass, run where
 * its values are known (at most EXPR_SUM_MAX_STEPS passes). */
static expr *run_trips(walker *w, loop_frame *fr)
{
    const loop_ctx *c = &fr->ctx;
    if (!runnable(w, fr))
        return NULL;
    return expr_loop_sum(c->var, expr_clone(c->init), expr_clone(c->cond), expr_clone(c->next),
                         expr_const(1));
}

/* The value the counter leaves the loop with, the first that fails the
 * condition: init + step x trips for a constant step, else the steps'
 * sum as the loop runs. NULL where a break or return can end it first. */
static expr *exit_value(walker *w, const loop_frame *fr)
{
    const loop_ctx *c = &fr->ctx;
    if (!c->var || !c->init || !c->cond || !c->next || c->leaves_early ||
        expr_first_unknown(fr->trips))
        return NULL;
    bool neg;
    expr *step = linear_step(c->next, c->var, &neg);
    expr *e = NULL;
    if (step)
        e = expr_binary(neg ? OP_SUB : OP_ADD, expr_clone(c->init),
                        expr_binary(OP_MUL, step, expr_clone(fr->trips)));
    else if (runnable(w, fr))
        e = expr_binary(
            OP_ADD, expr_clone(c->init),
            expr_loop_sum(c->var, expr_clone(c->init), expr_clone(c->cond), expr_clone(c->next),
                          expr_binary(OP_SUB, expr_clone(c->next), expr_named(c->var))));
    if (!e)
        return NULL;
    expr *s = expr_simplify(e);
    expr_free(e);
    return s;
}

/* `while (k >>= 1)`, `while (n-- > 0)`: the condition steps the counter
 * before testing it, and the body sees the stepped value. The loop is then
 * `for (k = next(k0); test(k); k = next(k))`, where test reads what the
 * step leaves (a postfix step tests the value before it). Conditions of
 * another shape keep the loop as written: the same trips, the body's
 * counter one step behind. */
static void step_in_condition(walker *w, loop_frame *fr, cnode *step, cnode *cond)
{
    loop_ctx *c = &fr->ctx;
    cnode *top = cn_strip(cond);
    expr *seen = expr_named(c->var);
    if (step->kind == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(step->cur);
        if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec)
            seen =
                expr_binary(op == CXUnaryOperator_PostInc ? OP_SUB : OP_ADD, seen, expr_const(1));
    }
    expr *tested = NULL;
    bool ok = false;
    expr_op op = top && top->kind == CXCursor_BinaryOperator && top->n_kids == 2
                     ? cn_binop(clang_getCursorBinaryOperatorKind(top->cur), &ok)
                     : OP_NE;
    if (top == step)
        tested = expr_binary(OP_NE, seen, expr_const(0));
    else if (ok && op >= OP_LT && op <= OP_NE && cn_strip(top->kids[0]) == step)
        tested = expr_binary(op, seen, x_expr(w->f, top->kids[1]));
    else
        expr_free(seen);
    if (!tested || expr_uses_name(tested->b, c->var)) {
        expr_free(tested);
        return;
    }
    expr_free(c->cond);
    c->cond = expr_simplify(tested);
    expr_free(tested);
    if (c->init) {
        expr *i = expr_substitute_name(c->next, c->var, c->init);
        expr_free(c->init);
        c->init = expr_simplify(i);
        expr_free(i);
    }
}

static expr *trip_count(walker *w, loop_frame *fr)
{
    const loop_ctx *c = &fr->ctx;
    if (!c->var || !c->init || !c->cond || !c->next)
        return unknown_trips(w, fr->stmt);
    /* A conjunction of upper bounds is one bound, their minimum. */
    if (c->cond->kind == EX_BINARY && c->cond->op == OP_LAND) {
        expr *b = upper_bound(c->cond, c->var);
        if (b) {
            loop_ctx one = *c;
            one.cond = expr_binary(OP_LT, expr_named(c->var), b);
            loop_frame tmp = *fr;
            tmp.ctx = one;
            expr *t = trip_count(w, &tmp);
            expr_free(one.cond);
            return t;
        }
    }
    /* Everything constant: run it. */
    if (c->init->kind == EX_CONST && only_var(c->cond, c->var) && only_var(c->next, c->var)) {
        expr_env env;
        expr_env_init(&env);
        int64_t v = c->init->value, n = 0;
        for (; n <= (1 << 20); n++) {
            int64_t ok;
            expr_env_set(&env, c->var, v);
            if (expr_eval(c->cond, &env, &ok, NULL) != EXPR_OK)
                break;
            if (!ok)
                return expr_const(n);
            if (expr_eval(c->next, &env, &v, NULL) != EXPR_OK)
                break;
        }
    }
    /* var < B stepping by S: ceil((B - init) / S). */
    const expr *cd = c->cond;
    if (cd->kind == EX_BINARY && cd->a && cd->b) {
        expr_op op = cd->op;
        const expr *lhs = cd->a, *rhs = cd->b;
        bool lv = lhs->kind == EX_SYM && lhs->name && strcmp(lhs->name, c->var) == 0;
        bool rv = rhs->kind == EX_SYM && rhs->name && strcmp(rhs->name, c->var) == 0;
        if (rv && !lv) { /* B > var  ==  var < B */
            const expr *tmp = lhs;
            lhs = rhs;
            rhs = tmp;
            op = op == OP_LT   ? OP_GT
                 : op == OP_GT ? OP_LT
                 : op == OP_LE ? OP_GE
                 : op == OP_GE ? OP_LE
                               : op;
            lv = true;
        }
        bool neg;
        expr *step = lv && !expr_uses_name(rhs, c->var) ? linear_step(c->next, c->var, &neg) : NULL;
        if (step) {
            expr *span = NULL;
            if (!neg && (op == OP_LT || op == OP_NE))
                span = expr_binary(OP_SUB, expr_clone(rhs), expr_clone(c->init));
            else if (!neg && op == OP_LE)
                span =
                    expr_binary(OP_ADD, expr_binary(OP_SUB, expr_clone(rhs), expr_clone(c->init)),
                                expr_const(1));
            else if (neg && op == OP_GT)
                span = expr_binary(OP_SUB, expr_clone(c->init), expr_clone(rhs));
            else if (neg && op == OP_GE)
                span =
                    expr_binary(OP_ADD, expr_binary(OP_SUB, expr_clone(c->init), expr_clone(rhs)),
                                expr_const(1));
            bool unit = step->kind == EX_CONST && step->value == 1;
            if (span && (op != OP_NE || unit)) {
                expr *t;
                if (unit) {
                    expr_free(step);
                    t = span;
                } else {
                    expr *up = expr_binary(OP_SUB, expr_binary(OP_ADD, span, expr_clone(step)),
                                           expr_const(1));
                    t = expr_binary(OP_DIV, up, step);
                }
                expr *r = expr_binary(OP_MAX, expr_const(0), t);
                expr *s = expr_simplify(r);
                expr_free(r);
                return s;
            }
            expr_free(span);
            expr_free(step);
        }
    }
    expr *run = run_trips(w, fr);
    return run ? run : unknown_trips(w, fr->stmt);
}

/* Whether s can end the loop it is the body of before the loop's condition
 * does; nested says s is inside an inner loop or switch, whose breaks are
 * their own. Lambdas' bodies run elsewhere. */
static bool leaves_early(const cnode *s, bool nested)
{
    switch (s->kind) {
    case CXCursor_ReturnStmt:
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        return true;
    case CXCursor_BreakStmt:
        return !nested;
    case CXCursor_LambdaExpr:
        return false;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_CXXForRangeStmt:
    case CXCursor_SwitchStmt:
        nested = true;
        break;
    default:
        break;
    }
    for (int i = 0; i < s->n_kids; i++)
        if (leaves_early(s->kids[i], nested))
            return true;
    return false;
}

/* Whether s calls a block-wide barrier (__syncthreads and its _count,
 * _and, _or forms) outside any lambda. A helper that calls one is not
 * seen: the loop is then taken as one whose warps run apart. */
static bool calls_barrier(const cnode *s)
{
    if (s->kind == CXCursor_LambdaExpr)
        return false;
    if (cn_is_barrier_call(s))
        return true;
    for (int i = 0; i < s->n_kids; i++)
        if (calls_barrier(s->kids[i]))
            return true;
    return false;
}

/* The work of all of a loop's iterations, body the work of one (owned).
 * Work that changes with the counter (an inner loop from the counter to
 * N: a triangle) is summed over the values the counter takes, as the loop
 * runs; trips x body would leave the counter free. */
static expr *loop_total(const loop_frame *fr, expr *body)
{
    const loop_ctx *c = &fr->ctx;
    if (!c->var || !expr_uses_name(body, c->var))
        return expr_binary(OP_MUL, expr_clone(fr->trips), body);
    if (c->init && c->cond && c->next)
        return expr_loop_sum(c->var, expr_clone(c->init), expr_clone(c->cond), expr_clone(c->next),
                             body);
    char why[96];
    snprintf(why, sizeof why, "work that changes with the counter '%s' of a loop not followed",
             c->var);
    expr_free(body);
    return expr_unknown(why);
}

/* A finished loop's work, into the frame around it: the body's times the
 * trip count, and the hoisted work once when the loop runs at all. */
static void loop_frame_close(walker *w, loop_frame *fr)
{
    loop_frame *parent = wk_count_frame(w);
    for (int cat = 0; cat < CNT_N; cat++) {
        if (!fr->once[cat])
            continue;
        /* Hoisted work runs once when the loop runs at least once. */
        expr *runs = expr_binary(OP_MIN, expr_const(1), expr_clone(fr->trips));
        expr *e = expr_binary(OP_MUL, expr_const(fr->once[cat]), runs);
        expr *se = expr_simplify(e);
        expr_free(e);
        parent->nested[cat] =
            parent->nested[cat] ? expr_binary(OP_ADD, parent->nested[cat], se) : se;
    }
    for (int cat = 0; cat < CNT_N; cat++) {
        expr *body_total = wk_frame_total(fr, cat);
        expr *bs = expr_simplify(body_total);
        expr_free(body_total);
        if (bs->kind == EX_CONST && bs->value == 0) {
            expr_free(bs);
            continue;
        }
        expr *t = loop_total(fr, bs);
        expr *st = expr_simplify(t);
        expr_free(t);
        if (st->kind == EX_CONST && st->value == 0) {
            expr_free(st);
            continue;
        }
        parent->nested[cat] =
            parent->nested[cat] ? expr_binary(OP_ADD, parent->nested[cat], st) : st;
        w->work_events++;
    }
}

/* The counter v's first value in loop s (init: the for's init, NULL
 * where it has none). */
static expr *loop_start(walker *w, var_info *v, cnode *s, cnode *init)
{
    expr *init_e = NULL;
    cnode *iv = NULL;
    cnode *i0 = init ? cn_strip(init) : NULL;
    if (i0 && i0->kind == CXCursor_DeclStmt) {
        for (int i = 0; i < i0->n_kids; i++)
            if (i0->kids[i]->kind == CXCursor_VarDecl &&
                clang_equalCursors(i0->kids[i]->cur, v->decl))
                iv = fn_var_init(i0->kids[i]);
    } else if (i0 && i0->kind == CXCursor_BinaryOperator && i0->n_kids == 2 &&
               update_target(w, i0, NULL, NULL) == v) {
        iv = i0->kids[1];
    }
    bool outside_assigns = false;
    for (int i = 0; i < v->n_assigns; i++)
        if (!cn_inside(v->assigns[i], s))
            outside_assigns = true;
    if (!iv && !outside_assigns)
        iv = v->init;
    if (iv) {
        v->visiting++;
        init_e = x_expr(w->f, iv);
        v->visiting--;
        expr *simp = expr_simplify(init_e);
        expr_free(init_e);
        init_e = simp;
    } else if (!init && v->loop && v->exit_value && x_after_loop_into(v, s, s)) {
        /* `for (; col < D; col += b)` after the loop that stepped col
         * by 4b: it starts where that loop left the counter. */
        init_e = expr_clone(v->exit_value);
    } else if (!init && outside_assigns) {
        /* `for (; k < n; k += blockDim.x)` after an if that sets k in
         * each arm: the value that reaches the loop, where it is one. */
        init_e = x_value_entering(w->f, v, s);
        if (init_e && expr_first_unknown(init_e)) {
            expr_free(init_e);
            init_e = NULL;
        }
    }
    return init_e;
}

static void loop_frame_free(loop_frame *fr);
static void count_passes(loop_frame *fr, const expr *most);

static void walk_loop(walker *w, cnode *s)
{
    cnode *init = NULL, *cond = NULL, *inc = NULL, *body = NULL, *step = NULL;
    var_info *v = NULL;
    if (s->kind == CXCursor_ForStmt) {
        for_parts(w, s, &init, &cond, &inc, &body);
        v = inc ? update_target(w, inc, cond, &step) : NULL;
        if (!v && init) {
            cnode *i0 = init->kind == CXCursor_DeclStmt ? init : cn_strip(init);
            if (i0 && i0->kind == CXCursor_DeclStmt && i0->n_kids == 1 &&
                i0->kids[0]->kind == CXCursor_VarDecl)
                v = fn_var(w->f, i0->kids[0]->cur);
        }
    } else if (s->kind == CXCursor_WhileStmt) {
        for (int i = 0; i < s->n_kids; i++) {
            if (!cond && cn_is_expr(s->kids[i]))
                cond = s->kids[i];
            else
                body = s->kids[i];
        }
        v = while_counter(w, cond, s, &step);
    } else if (s->kind == CXCursor_DoStmt) {
        if (s->n_kids == 2) {
            body = s->kids[0];
            cond = s->kids[1];
        }
        int64_t once;
        if (cond && x_const(w->f, cond, &once) && once == 0) {
            /* do { ... } while (0): a macro's statement, run once, not a loop. */
            walk_stmt_drop(w, body);
            return;
        }
        v = while_counter(w, cond, s, &step);
    } else {
        body = s->n_kids ? s->kids[s->n_kids - 1] : NULL; /* range-for: not followed */
    }
    if (v && (v->is_param || v->addr_taken))
        v = NULL;

    /* The start value is computed outside the loop, where the counter is
     * still an ordinary variable. */
    if (init)
        walk_stmt_drop(w, init);
    expr *init_e = v ? loop_start(w, v, s, init) : NULL;

    loop_frame *fr = xcalloc(1, sizeof *fr);
    fr->stmt = s;
    fr->var = v;
    cn_loc(w->t, s->cur, &fr->ctx.loc);
    fr->ctx.spelled_at = cn_spelled_at(s->cur);
    if (v) {
        v->loop = s;
        fr->ctx.var = xstrdup(v->name);
        fr->ctx.init = init_e;
    }
    fn_ctx *f = w->f;
    if (f->n_loops == f->cap_loops) {
        f->cap_loops = f->cap_loops ? f->cap_loops * 2 : 8;
        f->loops = xrealloc(f->loops, (size_t)f->cap_loops * sizeof *f->loops);
    }
    f->loops[f->n_loops++] = fr;
    fr->guards_at_entry = w->n_guards;
    fr->entry_avail = w->entry_avail;
    fr->n_entry_avail = w->n_entry_avail;
    w->entry_avail = NULL;
    w->n_entry_avail = 0;
    if (cond) {
        expr *c = x_expr(f, cond);
        fr->ctx.cond = expr_simplify(c);
        expr_free(c);
    }
    /* A counter also stepped in the body cannot be followed. */
    int other_steps = 0;
    for (int i = 0; v && i < v->n_assigns; i++) {
        cnode *a = v->assigns[i];
        if (a != step && cn_inside(a, s) && !(init && cn_inside(a, init)))
            other_steps++;
    }
    if (v && step && !other_steps) {
        expr *nx = x_assign_value(f, v, step);
        fr->ctx.next = expr_simplify(nx);
        expr_free(nx);
        if (cond && cn_inside(step, cond) && fr->ctx.cond)
            step_in_condition(w, fr, step, cond);
    }
    fr->ctx.leaves_early = body && leaves_early(body, false);
    fr->ctx.barrier = body && calls_barrier(body);
    expr *most = fr->ctx.leaves_early ? NULL : x_bisection_trips(f, s, cond);
    if (most) {
        w->u->variants[w->variant].counts.n_trips_at_most++;
        count_passes(fr, most);
    }
    fr->trips = most ? most : trip_count(w, fr);
    if (v) {
        /* The pass counter is not the local's: no exit value follows. */
        expr_free(v->exit_value);
        v->exit_value = most ? NULL : exit_value(w, fr);
    }
    size_t site = w->u->n_branches;
    wk_emit_branch(w, BRANCH_LOOP, cond, s, cond ? expr_clone(fr->ctx.cond) : NULL);
    wk_branch_arm(w, site, 0, s);

    if (cond)
        wk_walk_expr(w, cond);
    walk_stmt_drop(w, body);
    if (inc)
        wk_walk_expr(w, inc);
    w->u->branches[site].iter_flops =
        fr->direct[CNT_FP16] + fr->direct[CNT_FP32] + fr->direct[CNT_FP64] + fr->direct[CNT_TENSOR];

    f->n_loops--;
    loop_frame_close(w, fr);
    loop_frame_free(fr);
}

/* A binary search moves two bounds by the data, so its own condition
 * cannot be run lane by lane; a counter of its passes, run to the count
 * cusrc_bisect gives (the most), stands in for it: the divergence counts
 * that place the compiled loop's blocks then see the loop run. */
static void count_passes(loop_frame *fr, const expr *most)
{
    char name[32];
    snprintf(name, sizeof name, "pass_L%d", fr->ctx.loc.line);
    free(fr->ctx.var);
    expr_free(fr->ctx.init);
    expr_free(fr->ctx.cond);
    expr_free(fr->ctx.next);
    fr->ctx.var = xstrdup(name);
    fr->ctx.init = expr_const(0);
    fr->ctx.cond = expr_binary(OP_LT, expr_named(name), expr_clone(most));
    fr->ctx.next = expr_binary(OP_ADD, expr_named(name), expr_const(1));
}

static void loop_frame_free(loop_frame *fr)
{
    for (int i = 0; i < fr->n_entry_avail; i++)
        free(fr->entry_avail[i]);
    free(fr->entry_avail);
    for (int i = 0; i < fr->n_sunk; i++)
        free(fr->sunk[i]);
    free(fr->sunk);
    free(fr->ctx.var);
    expr_free(fr->ctx.init);
    expr_free(fr->ctx.cond);
    expr_free(fr->ctx.next);
    free(fr->ctx.loc.file);
    expr_free(fr->trips);
    for (int cat = 0; cat < CNT_N; cat++)
        expr_free(fr->nested[cat]);
    free(fr);
}

/* ---- entry ---- */

void wk_walk_body(walker *w, cnode *root)
{
    for (int i = 0; i < root->n_kids; i++)
        if (root->kids[i]->kind == CXCursor_CompoundStmt) {
            walk_stmt_drop(w, root->kids[i]);
            return;
        }
}

/* Helper statements one kernel may walk through calls: a template library
 * instantiated a thousand times must not stall the file. */
#define CALL_BUDGET 200000

void body_analyse(cusrc_tu *t, size_t variant, CXCursor fn)
{
    walker w;
    memset(&w, 0, sizeof w);
    w.walk_expr = wk_walk_expr;
    w.walk_body = wk_walk_body;
    w.t = t;
    w.u = t->u;
    w.variant = variant;
    w.call_budget = CALL_BUDGET;
    w.last_store = w.pending_store = -1;
    w.last_store_base = w.pending_base = clang_getNullCursor();
    w.vst_tail_of = -1;
    cusrc_variant *var = &t->u->variants[variant];
    w.kname = var->name;
    cnode *root = cn_build(fn);
    fn_init(&w.kf, t, root, true);
    w.f = &w.kf;
    w.f->generic = var->generic;
    var->first_array = t->u->n_arrays;
    var->first_access = t->u->n_accesses;
    var->first_branch = t->u->n_branches;

    wk_walk_body(&w, root);

    /* The kernel's pointer of a variant is re-read: arrays may have grown. */
    var = &t->u->variants[variant];
    var->n_arrays = t->u->n_arrays - var->first_array;
    var->n_accesses = t->u->n_accesses - var->first_access;
    var->n_branches = t->u->n_branches - var->first_branch;
    int64_t smem = 0;
    for (size_t i = var->first_array; i < t->u->n_arrays; i++) {
        smem_array *a = &t->u->arrays[i];
        if (a->dynamic)
            continue;
        int64_t bytes = a->elem_size;
        for (int d = 0; d < a->n_dims; d++)
            bytes = a->dims[d] < 0 || bytes < 0 ? -1 : bytes * a->dims[d];
        if (bytes <= 0 || smem < 0)
            smem = -1;
        else
            smem += bytes;
    }
    var->static_smem = smem;
    expr **slots[CNT_N] = {&var->counts.flops_fp16,          &var->counts.flops_fp32,
                           &var->counts.flops_fp64,          &var->counts.transcendental_fp32,
                           &var->counts.transcendental_fp64, &var->counts.tensor_flops,
                           &var->counts.gmem_load_bytes,     &var->counts.gmem_store_bytes,
                           &var->counts.gmem_accesses};
    for (int cat = 0; cat < CNT_N; cat++) {
        expr *e = wk_frame_total(&w.root, cat);
        *slots[cat] = expr_simplify(e);
        expr_free(e);
    }
    while (w.n_guards)
        wk_pop_guard(&w);
    free(w.guards);
    free(w.arrs);
    free(w.cse);
    free(w.pending_text);
    wk_avail_clear(&w);
    free(w.avail);
    free(w.avail_meta);
    free(w.vec);
    free(w.vst);
    for (int i = 0; i < w.n_entry_avail; i++)
        free(w.entry_avail[i]);
    free(w.entry_avail);
    fn_free(&w.kf);
    cn_free(root);
}
