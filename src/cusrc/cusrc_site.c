/* cusrc_site: what a walk records as it goes: the guards around the
 * statement being walked, the per-loop operation counts (and the arms of a
 * branch only some threads take), and the sites themselves: each shared or
 * global access and each branch, with the loops and the guard around it.
 * Also the note that a variant's counts miss code (wk_incomplete). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_walk.h"

/* ---- guards ---- */

void wk_push_guard(walker *w, expr *g)
{
    if (w->n_guards == w->cap_guards) {
        w->cap_guards = w->cap_guards ? w->cap_guards * 2 : 8;
        w->guards = xrealloc(w->guards, (size_t)w->cap_guards * sizeof *w->guards);
    }
    w->guards[w->n_guards++] = g;
}

void wk_pop_guard(walker *w)
{
    expr_free(w->guards[--w->n_guards]);
}

static expr *current_guard(walker *w)
{
    expr *g = NULL;
    for (int i = 0; i < w->n_guards; i++)
        g = x_conj(g, expr_clone(w->guards[i]));
    if (!g)
        return NULL;
    expr *s = expr_simplify(g);
    expr_free(g);
    if (s->kind == EX_CONST && s->value != 0) {
        expr_free(s);
        return NULL;
    }
    return s;
}

/* ---- counts ---- */

loop_frame *wk_count_frame(walker *w)
{
    return w->f->n_loops ? w->f->loops[w->f->n_loops - 1] : &w->root;
}

void wk_add_count(walker *w, int cat, int64_t n)
{
    if (w->no_flops && cat <= CNT_TENSOR)
        return; /* a common subexpression: computed once */
    if (w->hoist && cat <= CNT_TENSOR)
        w->hoist->once[cat] += n;
    else if (w->load_hoist && (cat == CNT_GLD || cat == CNT_GST || cat == CNT_GACC))
        w->load_hoist->once[cat] += n * w->load_copies;
    else
        wk_count_frame(w)->direct[cat] += n;
    w->work_events += n != 0;
}

expr *wk_frame_total(loop_frame *fr, int cat)
{
    expr *e = expr_const(fr->direct[cat]);
    if (fr->nested[cat]) {
        e = expr_binary(OP_ADD, e, fr->nested[cat]);
        fr->nested[cat] = NULL;
    }
    return e;
}

/* ---- arms: counts that only some threads make ---- */

void wk_arm_begin(walker *w, arm_saved *saved)
{
    loop_frame *fr = wk_count_frame(w);
    for (int cat = 0; cat < CNT_N; cat++) {
        saved->direct[cat] = fr->direct[cat];
        saved->nested[cat] = fr->nested[cat];
        fr->direct[cat] = 0;
        fr->nested[cat] = NULL;
    }
}

static bool has_unknown(const expr *e)
{
    return e && (e->kind == EX_UNKNOWN || has_unknown(e->a) || has_unknown(e->b) ||
                 has_unknown(e->c) || has_unknown(e->d));
}

/* The weight of an arm taken where cond holds: a new "taken_A<n>" symbol.
 * Where cond is not expressible its arm_conds entry is NULL: the arm may
 * run for every thread or for none (its work is in an upper count, not in
 * a lower one). */
static expr *arm_weight(walker *w, const expr *cond)
{
    bool unknown = !cond || has_unknown(cond);
    cusrc_counts *c = &w->u->variants[w->variant].counts;
    c->n_unweighted_arms += unknown;
    char name[32];
    snprintf(name, sizeof name, "taken_A%d", c->n_arms);
    c->arm_names = xrealloc(c->arm_names, (size_t)(c->n_arms + 1) * sizeof *c->arm_names);
    c->arm_conds = xrealloc(c->arm_conds, (size_t)(c->n_arms + 1) * sizeof *c->arm_conds);
    c->arm_names[c->n_arms] = xstrdup(name);
    c->arm_conds[c->n_arms] = unknown ? NULL : expr_clone(cond);
    c->n_arms++;
    return expr_named(name);
}

/* The arm's counts, weighted by cond, join the frame's set-aside ones. */
void wk_arm_end(walker *w, arm_saved *saved, const expr *cond)
{
    loop_frame *fr = wk_count_frame(w);
    expr *weight = NULL;
    bool weighed = false;
    for (int cat = 0; cat < CNT_N; cat++) {
        expr *t = wk_frame_total(fr, cat), *arm = expr_simplify(t);
        expr_free(t);
        fr->direct[cat] = saved->direct[cat];
        fr->nested[cat] = saved->nested[cat];
        if (arm->kind == EX_CONST && arm->value == 0) {
            expr_free(arm);
            continue;
        }
        if (!weighed) {
            weight = arm_weight(w, cond);
            weighed = true;
        }
        arm = expr_binary(OP_MUL, expr_clone(weight), arm);
        fr->nested[cat] = fr->nested[cat] ? expr_binary(OP_ADD, fr->nested[cat], arm) : arm;
    }
    expr_free(weight);
}

/* ---- sites ---- */

/* The loops a site runs in: all around it, or for a hoisted load the
 * outer ones it stays in and the unrolled ones it moved out with. */
static void copy_loops(walker *w, loop_ctx *dst, int *n_dst, char **why)
{
    int from[ACCESS_MAX_LOOPS], n = 0, all = w->f->n_loops;
    for (int i = 0; i < all; i++) {
        bool in = !w->load_hoist || i < w->load_loops || i >= w->load_unrolled;
        if (in && n == ACCESS_MAX_LOOPS) {
            if (why && !*why)
                *why = xstrdup("nested in more than 8 loops");
            break;
        }
        if (in)
            from[n++] = i;
    }
    for (int i = 0; i < n; i++) {
        const loop_ctx *s = &w->f->loops[from[i]]->ctx;
        dst[i].var = xstrdup_null(s->var);
        dst[i].init = s->init ? expr_clone(s->init) : NULL;
        dst[i].cond = s->cond ? expr_clone(s->cond) : NULL;
        dst[i].next = s->next ? expr_clone(s->next) : NULL;
        dst[i].leaves_early = s->leaves_early;
        dst[i].barrier = s->barrier;
        dst[i].loc.file = xstrdup_null(s->loc.file);
        dst[i].loc.line = s->loc.line;
        dst[i].loc.column = s->loc.column;
        dst[i].spelled_at = s->spelled_at;
    }
    *n_dst = n;
}

/* A memory access whose memory gpulint cannot place (a pointer loaded from
 * memory, chosen at run time, returned by a call): not a site, but the
 * counts miss it, and say so. */
static void unplaced_access(walker *w, cnode *n, const lref *r)
{
    src_loc l = {0};
    cn_loc(w->t, n->cur, &l);
    char *text = cn_text_trunc(w->t, n->cur, 60);
    wk_incomplete(w, "line %d: '%s' goes through a %s", l.line, text,
                  r->why ? r->why : "pointer gpulint cannot follow");
    free(text);
    free(l.file);
}

static bool uses_thread(const expr *e)
{
    return e && (expr_uses_builtin(e, SYM_TID_X) || expr_uses_builtin(e, SYM_TID_Y) ||
                 expr_uses_builtin(e, SYM_TID_Z));
}

/* Whether site a's address differs between the lanes of a warp: a thread
 * index in it, or a loop counter that starts or steps from one. */
static bool differs_by_lane(const mem_access *a)
{
    if (uses_thread(a->byte_offset))
        return true;
    for (int i = 0; i < a->n_loops; i++)
        if (a->loops[i].var && expr_uses_name(a->byte_offset, a->loops[i].var) &&
            (uses_thread(a->loops[i].init) || uses_thread(a->loops[i].next)))
            return true;
    return false;
}

/* Whether every value e does not have was read from memory (a gather's
 * index): not a local the walk could not follow (`off` reassigned in a
 * loop, whose steps are code) nor a call's result (a clamp of the thread's
 * own row, `_clip(r, 0, rows - 1)`, which steps as its argument does). */
static bool only_data(const expr *e)
{
    if (!e)
        return true;
    if (e->kind == EX_UNKNOWN)
        return e->name && !strncmp(e->name, "value read from ", 16);
    return only_data(e->a) && only_data(e->b) && only_data(e->c) && only_data(e->d);
}

/* Marks each value of a gather's index (access.h, index_from_data): one
 * read from memory at an address every lane shares (an earlier site of the
 * kernel with the same text, `offset[batch]`) is the same in every lane;
 * any other, a value read per lane or computed, is taken to differ. */
static void mark_data_values(walker *w, expr *e, size_t self)
{
    if (!e)
        return;
    if (e->kind == EX_UNKNOWN) {
        if (e->value == ACCESS_DATA_PER_LANE || e->value == ACCESS_DATA_UNIFORM)
            return; /* marked where it was read (cusrc_eval) */
        e->value = ACCESS_DATA_PER_LANE;
        size_t n;
        const char *text = access_read_text(e, &n);
        if (!text)
            return;
        for (size_t j = self; j-- > 0;) {
            const mem_access *b = &w->u->accesses[j];
            if (!b->kernel || strcmp(b->kernel, w->kname) != 0)
                break;
            if (b->why_not || !b->text || strlen(b->text) != n || strncmp(b->text, text, n) != 0)
                continue;
            if (!differs_by_lane(b))
                e->value = ACCESS_DATA_UNIFORM;
            return;
        }
        return;
    }
    mark_data_values(w, e->a, self);
    mark_data_values(w, e->b, self);
    mark_data_values(w, e->c, self);
    mark_data_values(w, e->d, self);
}

/* Records the access at r (taken), `width` bytes per thread; n gives its
 * text and line. */
void wk_emit_access_at(walker *w, cnode *n, lref *r, int64_t width, bool is_store)
{
    if (r->space == SP_NONE) {
        if (r->why)
            unplaced_access(w, n, r);
        wk_lref_free(r);
        return;
    }
    size_t i = tu_add_access(w->t);
    mem_access *a = &w->u->accesses[i];
    a->space = r->space == SP_SHARED ? SPACE_SHARED : SPACE_GLOBAL;
    a->kernel = xstrdup(w->kname);
    a->base = r->base;
    r->base = NULL;
    a->array = r->space == SP_SHARED ? (int)r->array : -1;
    a->is_store = is_store;
    a->atomic = w->in_atomic && a->space == SPACE_GLOBAL;
    a->atomic_sums = a->atomic && w->atomic_sums;
    a->atomic_float = a->atomic && w->atomic_float;
    a->width = width > 0 && width < (1 << 20) ? (int)width : 0;
    a->byte_offset = r->off ? expr_simplify(r->off) : expr_unknown("offset not known");
    a->guard = current_guard(w);
    a->in_switch = w->in_switch > 0;
    a->stmt = w->stmt_seq;
    char *why = r->why;
    r->why = NULL;
    copy_loops(w, a->loops, &a->n_loops, &why);
    if (!why && a->width == 0)
        why = xstrdup("the size of the accessed type is not known here");
    const expr *u = expr_first_unknown(a->byte_offset);
    if (!why && u) {
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "index not understood: %s", u->name ? u->name : "unknown");
        why = sbuf_take(&b);
        a->index_from_data = a->space == SPACE_GLOBAL && only_data(a->byte_offset);
        if (a->index_from_data)
            mark_data_values(w, a->byte_offset, i);
    }
    a->why_not = why;
    a->text = cn_text_trunc(w->t, n->cur, 200);
    a->via = call_chain(w);
    cn_loc(w->t, n->cur, &a->loc);
    if (a->space == SPACE_GLOBAL) {
        wk_add_count(w, is_store ? CNT_GST : CNT_GLD, a->width);
        wk_add_count(w, CNT_GACC, 1);
    }
    wk_lref_free(r);
}

/* A struct copied through memory moves as nvcc copies it: in pieces of its
 * alignment, at most 16 bytes (the widest load or store). An __align__(16)
 * struct of four ints is one 16-byte access; a 32-byte struct of 4-byte
 * ints is eight 4-byte accesses, each a request of its own (HeCBench
 * aligned-types: the misaligned 32-byte copy runs 3x longer than the
 * aligned one). 0 where t is no such struct. */
static int64_t record_piece(CXType t, int64_t size)
{
    t = clang_getCanonicalType(t);
    if (t.kind != CXType_Record || size <= 0)
        return 0;
    long long align = clang_Type_getAlignOf(t);
    if (align <= 0)
        return 0;
    int64_t piece = align < 16 ? align : 16;
    return size % piece == 0 && size / piece <= 64 ? piece : 0;
}

int wk_emit_access(walker *w, cnode *n, bool is_store)
{
    lref r = {SP_NONE, -1, NULL, NULL, NULL};
    wk_resolve_lvalue(w, n, &r, 0);
    int64_t width = cn_type_size(clang_getCursorType(n->cur));
    if (width <= 0 && r.space == SP_SHARED && r.array >= 0) {
        /* Template code: the element of a fully subscripted array whose
         * element type is known, even though the expression is dependent. */
        int depth = 0;
        cnode *b = cn_strip(n);
        while (b && b->kind == CXCursor_ArraySubscriptExpr && b->n_kids == 2) {
            b = cn_strip(b->kids[0]);
            depth++;
        }
        const smem_array *arr = &w->u->arrays[r.array];
        if (b && b->kind == CXCursor_DeclRefExpr && depth == arr->n_dims)
            width = arr->elem_size;
    }
    int64_t piece = record_piece(clang_getCursorType(n->cur), width);
    if (piece <= 0 || piece == width) {
        wk_emit_access_at(w, n, &r, width, is_store);
        return 1;
    }
    for (int64_t k = 0; k < width / piece; k++) {
        lref at = {r.space, r.array, xstrdup_null(r.base),
                   r.off ? expr_binary(OP_ADD, expr_clone(r.off), expr_const(k * piece)) : NULL,
                   xstrdup_null(r.why)};
        size_t before = w->u->n_accesses;
        wk_emit_access_at(w, n, &at, piece, is_store);
        if (w->u->n_accesses > before)
            w->u->accesses[before].pieces = (int)(width / piece);
    }
    wk_lref_free(&r);
    return (int)(width / piece);
}

/* An access through a pointer value (`__ldcs(p + i)`, `atomicAdd(p + i, v)`):
 * `width` bytes at where ptr points. */
void wk_emit_access_ptr(walker *w, cnode *ptr, int64_t width, bool is_store)
{
    lref r = {SP_NONE, -1, NULL, NULL, NULL};
    wk_resolve_pointer(w, ptr, &r, 0);
    if (width <= 0) {
        CXType pt = clang_getCanonicalType(clang_getCursorType(cn_strip_casts(ptr)->cur));
        if (pt.kind == CXType_Pointer)
            width = cn_type_size(clang_getPointeeType(pt));
    }
    wk_emit_access_at(w, ptr, &r, width, is_store);
}

/* Takes ownership of ce. */
void wk_emit_branch(walker *w, branch_kind kind, cnode *cond, cnode *at, expr *ce)
{
    size_t i = tu_add_branch(w->t);
    branch_site *b = &w->u->branches[i];
    b->kernel = xstrdup(w->kname);
    b->kind = kind;
    b->cond = ce ? expr_simplify(ce) : expr_unknown("no condition");
    expr_free(ce);
    b->guard = current_guard(w);
    char *why = NULL;
    copy_loops(w, b->loops, &b->n_loops, &why);
    const expr *u = expr_first_unknown(b->cond);
    if (!why && u) {
        sbuf s;
        sbuf_init(&s);
        sbuf_addf(&s, "condition not understood: %s", u->name ? u->name : "unknown");
        why = sbuf_take(&s);
    }
    b->why_not = why;
    b->text = cond ? cn_text_trunc(w->t, cond->cur, 200) : xstrdup("");
    b->via = call_chain(w);
    cn_loc(w->t, (cond ? cond : at)->cur, &b->loc);
}

/* The lines a branch's arm spans (a loop's or switch's: the statement's):
 * a block's first to last statement (its braces may share the branch's
 * line); none where an if's arm starts on the if's own line, whose
 * condition's code it could not be told from. */
void wk_branch_arm(walker *w, size_t branch, int arm, cnode *s)
{
    branch_site *b = &w->u->branches[branch];
    cnode *from = s, *to = s;
    if (s && s->kind == CXCursor_CompoundStmt) {
        from = s->n_kids ? s->kids[0] : NULL;
        to = s->n_kids ? s->kids[s->n_kids - 1] : NULL;
    }
    int first, last, a, z;
    if (!from || !cn_line_span(from->cur, &first, &a) || !cn_line_span(to->cur, &z, &last) ||
        last < first)
        return;
    if (b->kind == BRANCH_IF && first <= b->loc.line)
        return;
    b->arm_first[arm] = first;
    b->arm_last[arm] = last;
}

void wk_incomplete(walker *w, const char *fmt, ...)
{
    cusrc_counts *c = &w->u->variants[w->variant].counts;
    if (c->n_incomplete++)
        return;
    va_list ap;
    va_start(ap, fmt);
    sbuf b;
    sbuf_init(&b);
    sbuf_vaddf(&b, fmt, ap);
    va_end(ap);
    c->incomplete = sbuf_take(&b);
}

/* Whether nothing reads the call's value: a statement of its own, or one
 * cast to void. */
static bool result_unused(const cnode *call)
{
    const cnode *n = call, *p = call->parent;
    while (p && (p->kind == CXCursor_UnexposedExpr || p->kind == CXCursor_ParenExpr)) {
        n = p;
        p = p->parent;
    }
    if (!p)
        return false;
    if (p->kind == CXCursor_CStyleCastExpr)
        return clang_getCanonicalType(clang_getCursorType(p->cur)).kind == CXType_Void;
    /* A statement of its own: in a block, or an if's, a loop's arm. */
    bool body =
        (p->kind == CXCursor_IfStmt && n->idx > 0) ||
        ((p->kind == CXCursor_ForStmt || p->kind == CXCursor_WhileStmt) && n->idx == p->n_kids - 1);
    return p->kind == CXCursor_CompoundStmt || body;
}

/* atomicAdd / atomicSub of an integer (32 or 64 bits: atomprobe's one_u64) whose result nothing
 * reads: what ptxas sums over a warp's lanes when their address is the same
 * (analysis/timing/aggatom). */
bool wk_atomic_sums_lanes(const char *name, cnode *call)
{
    if (strcmp(name, "atomicAdd") && strcmp(name, "atomicSub"))
        return false;
    /* The overload's value is its element: int or unsigned int. */
    CXType e = clang_getCanonicalType(clang_getCursorType(call->cur));
    bool integer = e.kind == CXType_Int || e.kind == CXType_UInt || e.kind == CXType_Long ||
                   e.kind == CXType_ULong || e.kind == CXType_LongLong ||
                   e.kind == CXType_ULongLong;
    return integer && result_unused(call);
}

bool wk_atomic_is_float(cnode *call)
{
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(call->cur)).kind;
    return k == CXType_Float || k == CXType_Double;
}
