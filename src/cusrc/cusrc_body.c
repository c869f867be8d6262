/* cusrc_body: walks one kernel body (a kernel, one instantiation of a
 * templated kernel, or the template itself) and records what the analyses
 * need: the __shared__ arrays, every shared and global load and store with
 * its byte offset as an expr tree, the conditions that guard it and the
 * loops around it, every branch, and per-thread operation counts. Sites it
 * cannot follow are still recorded, with why_not saying why. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_walk.h"

void wk_lref_free(lref *r)
{
    free(r->base);
    expr_free(r->off);
    free(r->why);
    memset(r, 0, sizeof *r);
}

static void lref_why(lref *r, const char *fmt, const char *arg)
{
    if (r->why)
        return;
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, fmt, arg);
    r->why = sbuf_take(&b);
}

/* ---- guards ---- */

static void push_guard(walker *w, expr *g)
{
    if (w->n_guards == w->cap_guards) {
        w->cap_guards = w->cap_guards ? w->cap_guards * 2 : 8;
        w->guards = xrealloc(w->guards, (size_t)w->cap_guards * sizeof *w->guards);
    }
    w->guards[w->n_guards++] = g;
}

static void pop_guard(walker *w)
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

static loop_frame *count_frame(walker *w)
{
    return w->f->n_loops ? w->f->loops[w->f->n_loops - 1] : &w->root;
}

static void add_count(walker *w, int cat, int64_t n)
{
    if (w->no_flops && cat <= CNT_TENSOR)
        return; /* a common subexpression: computed once */
    if (w->hoist && cat <= CNT_TENSOR)
        w->hoist->once[cat] += n;
    else if (w->load_hoist && (cat == CNT_GLD || cat == CNT_GACC))
        w->load_hoist->once[cat] += n;
    else
        count_frame(w)->direct[cat] += n;
    w->work_events += n != 0;
}

static expr *frame_total(loop_frame *fr, int cat)
{
    expr *e = expr_const(fr->direct[cat]);
    if (fr->nested[cat]) {
        e = expr_binary(OP_ADD, e, fr->nested[cat]);
        fr->nested[cat] = NULL;
    }
    return e;
}

/* ---- arms: counts that only some threads make ---- */

/* A frame's counts set aside while an arm's are gathered. */
typedef struct arm_saved {
    int64_t direct[CNT_N];
    expr *nested[CNT_N];
} arm_saved;

static void arm_begin(walker *w, arm_saved *saved)
{
    loop_frame *fr = count_frame(w);
    for (int cat = 0; cat < CNT_N; cat++) {
        saved->direct[cat] = fr->direct[cat];
        saved->nested[cat] = fr->nested[cat];
        fr->direct[cat] = 0;
        fr->nested[cat] = NULL;
    }
}

static bool has_unknown(const expr *e)
{
    return e &&
           (e->kind == EX_UNKNOWN || has_unknown(e->a) || has_unknown(e->b) || has_unknown(e->c));
}

/* The weight of an arm taken where cond holds: a new "taken_A<n>" symbol,
 * or NULL (count it for every thread) when cond is not expressible. */
static expr *arm_weight(walker *w, const expr *cond)
{
    if (!cond || has_unknown(cond))
        return NULL;
    cusrc_counts *c = &w->u->variants[w->variant].counts;
    char name[32];
    snprintf(name, sizeof name, "taken_A%d", c->n_arms);
    c->arm_names = xrealloc(c->arm_names, (size_t)(c->n_arms + 1) * sizeof *c->arm_names);
    c->arm_conds = xrealloc(c->arm_conds, (size_t)(c->n_arms + 1) * sizeof *c->arm_conds);
    c->arm_names[c->n_arms] = xstrdup(name);
    c->arm_conds[c->n_arms] = expr_clone(cond);
    c->n_arms++;
    return expr_named(name);
}

/* The arm's counts, weighted by cond, join the frame's set-aside ones. */
static void arm_end(walker *w, arm_saved *saved, const expr *cond)
{
    loop_frame *fr = count_frame(w);
    expr *weight = NULL;
    bool weighed = false;
    for (int cat = 0; cat < CNT_N; cat++) {
        expr *t = frame_total(fr, cat), *arm = expr_simplify(t);
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
            w->u->variants[w->variant].counts.n_unweighted_arms += weight == NULL;
        }
        if (weight)
            arm = expr_binary(OP_MUL, expr_clone(weight), arm);
        fr->nested[cat] = fr->nested[cat] ? expr_binary(OP_ADD, fr->nested[cat], arm) : arm;
    }
    expr_free(weight);
}

/* ---- arrays ---- */

static long find_array(walker *w, CXCursor decl)
{
    unsigned h = clang_hashCursor(decl);
    for (size_t i = 0; i < w->n_arrs; i++)
        if (w->arrs[i].hash == h && clang_equalCursors(w->arrs[i].decl, decl))
            return (long)w->arrs[i].idx;
    return -1;
}

static bool is_array_type(CXType t)
{
    return t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
           t.kind == CXType_DependentSizedArray || t.kind == CXType_VariableArray;
}

static long register_array(walker *w, CXCursor decl, cnode *declnode)
{
    long have = find_array(w, decl);
    if (have >= 0)
        return have;
    size_t idx = tu_add_array(w->t);
    smem_array *a = &w->u->arrays[idx];
    cusrc_array_info *ai = &w->u->array_info[idx];
    ai->variant = w->variant;
    a->name = cn_spelling(decl);
    cn_loc(w->t, decl, &a->loc);
    CXType t = clang_getCursorType(decl);
    /* Size expressions as written, outermost first (libclang lists them
     * innermost first); only needed when a level is dependent. */
    cnode *sizes[ACCESS_MAX_DIMS + 4];
    int n_sizes = 0;
    if (declnode)
        for (int i = declnode->n_kids - 1; i >= 0 && n_sizes < ACCESS_MAX_DIMS + 4; i--)
            if (cn_is_expr(declnode->kids[i]))
                sizes[n_sizes++] = declnode->kids[i];
    int levels = 0;
    bool dependent = false;
    for (CXType e = t; is_array_type(e); e = clang_getArrayElementType(e)) {
        if (e.kind == CXType_DependentSizedArray)
            dependent = true;
        levels++;
    }
    int n = 0;
    CXType e = t;
    sbuf why;
    sbuf_init(&why);
    while (is_array_type(e)) {
        if (e.kind == CXType_IncompleteArray) {
            a->dynamic = true;
        } else if (n < ACCESS_MAX_DIMS) {
            expr *d = NULL;
            if (e.kind == CXType_ConstantArray && !dependent)
                d = expr_const(clang_getArraySize(e));
            else if (levels == n_sizes)
                d = x_expr(w->f, sizes[n]);
            else
                d = expr_unknown("extent not understood");
            expr *s = expr_simplify(d);
            expr_free(d);
            ai->dims[n] = s;
            a->dims[n] = s->kind == EX_CONST ? s->value : -1;
            if (s->kind != EX_CONST && !why.len) {
                char *txt = expr_to_string(s);
                sbuf_addf(&why, "extent %s is not a constant here", txt);
                free(txt);
            }
            n++;
        } else if (!why.len) {
            sbuf_addf(&why, "more than %d dimensions", ACCESS_MAX_DIMS);
        }
        e = clang_getArrayElementType(e);
    }
    a->n_dims = a->dynamic ? 0 : n;
    if (a->dynamic) {
        for (int i = 0; i < n; i++) {
            expr_free(ai->dims[i]);
            ai->dims[i] = NULL;
            a->dims[i] = 0;
        }
    }
    int64_t es = cn_type_size(e);
    a->elem_size = es > 0 && es < (1 << 30) ? (int)es : 0;
    ai->type = cn_type_spelling(e);
    if (es <= 0 && !why.len)
        sbuf_addf(&why, "the size of '%s' is not known here", ai->type);
    ai->why = why.len ? sbuf_take(&why) : NULL;
    sbuf_free(&why);
    if (w->n_arrs == w->cap_arrs) {
        w->cap_arrs = w->cap_arrs ? w->cap_arrs * 2 : 8;
        w->arrs = xrealloc(w->arrs, w->cap_arrs * sizeof *w->arrs);
    }
    w->arrs[w->n_arrs++] = (arr_ref){decl, clang_hashCursor(decl), idx};
    return (long)idx;
}

/* ---- where memory expressions point ---- */

static bool is_builtin_var_name(const char *s)
{
    return strcmp(s, "threadIdx") == 0 || strcmp(s, "blockIdx") == 0 ||
           strcmp(s, "blockDim") == 0 || strcmp(s, "gridDim") == 0 || strcmp(s, "warpSize") == 0;
}

/* A variable in memory we report on: __shared__ (any type) or a __device__
 * array (global memory). */
static void resolve_var(walker *w, CXCursor decl, cnode *declnode, lref *r)
{
    char *name = cn_spelling(decl);
    if (cn_has_attr(decl, CXCursor_CUDASharedAttr)) {
        r->space = SP_SHARED;
        r->array = register_array(w, decl, declnode);
        r->base = name;
        r->off = expr_const(0);
        return;
    }
    CXType t = clang_getCursorType(decl);
    if (!is_builtin_var_name(name) && cn_has_attr(decl, CXCursor_CUDADeviceAttr) &&
        is_array_type(t) && !cn_has_attr(decl, CXCursor_CUDAConstantAttr)) {
        r->space = SP_GLOBAL;
        r->array = -1;
        r->base = name;
        r->off = expr_const(0);
        return;
    }
    free(name);
}

static cnode *decl_node_of(walker *w, CXCursor decl)
{
    var_info *v = fn_var(w->f, decl);
    return v ? v->decl_node : NULL;
}

/* Bytes one step of a subscript moves, from the declared extents when the
 * type is dependent (template code). */
static expr *subscript_stride(walker *w, cnode *sub)
{
    int64_t s = cn_type_size(clang_getCursorType(sub->cur));
    if (s > 0)
        return expr_const(s);
    int level = 0;
    cnode *b = sub;
    while (b && b->kind == CXCursor_ArraySubscriptExpr && b->n_kids == 2) {
        b = cn_strip(b->kids[0]);
        level++;
    }
    if (!b || b->kind != CXCursor_DeclRefExpr)
        return NULL;
    long ai = find_array(w, clang_getCursorReferenced(b->cur));
    if (ai < 0)
        return NULL;
    smem_array *a = &w->u->arrays[ai];
    cusrc_array_info *inf = &w->u->array_info[ai];
    if (a->elem_size <= 0)
        return NULL;
    expr *e = expr_const(a->elem_size);
    for (int i = level; i < a->n_dims; i++)
        e = expr_binary(OP_MUL, e, inf->dims[i] ? expr_clone(inf->dims[i]) : expr_const(0));
    return e;
}

static enum CXChildVisitResult first_body_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (c.kind == CXCursor_CompoundStmt) {
        *(CXCursor *)data = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

typedef struct ret_scan {
    int returns, others;
    CXCursor ret;
} ret_scan;

static enum CXChildVisitResult ret_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    ret_scan *s = data;
    if (c.kind == CXCursor_ReturnStmt) {
        s->returns++;
        s->ret = c;
    } else if (c.kind != CXCursor_DeclStmt) {
        s->others++;
    }
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult first_ref_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    CXCursor *out = data;
    if (c.kind == CXCursor_DeclRefExpr) {
        *out = clang_getCursorReferenced(c);
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The __shared__ variable a project function returns when its body is
 * declarations and one `return (T *)var;`: the accessor cuda-samples and
 * much older code use to give a templated kernel its extern shared array
 * (`T *sdata = SharedMemory<T>();`). A null cursor otherwise. */
static CXCursor returned_shared_var(walker *w, cnode *call)
{
    CXCursor fn = clang_getCursorReferenced(call->cur);
    CXCursor def = clang_Cursor_isNull(fn) ? fn : clang_getCursorDefinition(fn);
    if (clang_Cursor_isNull(def) || (!cn_in_main(w->t, def) && !cn_in_user_header(w->t, def)))
        return clang_getNullCursor();
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(def, first_body_visit, &body);
    ret_scan s = {0, 0, clang_getNullCursor()};
    if (!clang_Cursor_isNull(body))
        clang_visitChildren(body, ret_visit, &s);
    if (s.returns != 1 || s.others)
        return clang_getNullCursor();
    CXCursor var = clang_getNullCursor();
    clang_visitChildren(s.ret, first_ref_visit, &var);
    if (clang_Cursor_isNull(var) || var.kind != CXCursor_VarDecl ||
        !cn_has_attr(var, CXCursor_CUDASharedAttr))
        return clang_getNullCursor();
    return var;
}

/* p.data where p is a struct the kernel takes by value (or this->data in a
 * method called on one): a global pointer, named by the field's path. */
static bool member_of_param(walker *w, cnode *n, lref *r)
{
    cnode *b = n->n_kids ? cn_strip(n->kids[0]) : NULL;
    const char *owner = NULL;
    var_info *v = NULL;
    if ((!b || b->kind == CXCursor_CXXThisExpr) && w->calls && w->calls->this_path) {
        owner = w->calls->this_path;
    } else if (b && b->kind == CXCursor_DeclRefExpr) {
        v = fn_var(w->f, clang_getCursorReferenced(b->cur));
        if (v && v->is_param &&
            clang_getCanonicalType(clang_getCursorType(v->decl)).kind != CXType_Pointer)
            owner = v->name;
    }
    if (!owner)
        return false;
    char *field = cn_spelling(n->cur);
    sbuf s;
    sbuf_init(&s);
    sbuf_addf(&s, "%s.%s", owner, field);
    free(field);
    r->space = SP_GLOBAL;
    r->array = -1;
    r->base = sbuf_take(&s);
    r->off = expr_const(0);
    return true;
}

void wk_resolve_pointer(walker *w, cnode *n, lref *r, int depth)
{
    if (depth > 16) {
        lref_why(r, "%s", "pointer chain too long");
        return;
    }
    n = cn_strip_casts(n);
    if (!n)
        return;
    switch (n->kind) {
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(n->cur);
        var_info *v = fn_var(w->f, d);
        CXType t = clang_getCanonicalType(clang_getCursorType(d));
        if (v && v->is_param && w->calls && call_bound_ptr(w, d, r)) {
            if (v->n_assigns && r->space != SP_NONE) {
                expr_free(r->off);
                r->off = expr_unknown("pointer parameter is modified in the helper");
                lref_why(r, "pointer parameter '%s' is modified in the helper", v->name);
            }
            return;
        }
        if (v && v->is_param && w->calls) {
            if (t.kind == CXType_Pointer)
                lref_why(r,
                         "pointer parameter '%s' of a helper is not bound to memory gpulint "
                         "can place",
                         v->name);
            return;
        }
        if (v && v->is_param) {
            if (t.kind != CXType_Pointer)
                return;
            r->space = SP_GLOBAL;
            r->array = -1;
            r->base = xstrdup(v->name);
            r->off = expr_const(0);
            if (v->n_assigns)
                lref_why(r, "pointer parameter '%s' is modified in the kernel", v->name);
            return;
        }
        if (v && !v->is_shared && !is_array_type(t)) {
            /* A local pointer: follow it when it is set once. */
            if (v->n_assigns == 0 && !v->addr_taken && v->init) {
                if (v->visiting)
                    return;
                v->visiting++;
                wk_resolve_pointer(w, v->init, r, depth + 1);
                v->visiting--;
                return;
            }
            if (v->n_assigns == 1 && !v->init && !v->addr_taken &&
                v->assigns[0]->kind == CXCursor_BinaryOperator &&
                clang_getCursorBinaryOperatorKind(v->assigns[0]->cur) == CXBinaryOperator_Assign) {
                v->visiting++;
                wk_resolve_pointer(w, v->assigns[0]->kids[1], r, depth + 1);
                v->visiting--;
                return;
            }
            /* Which memory it is may still be clear from its first value. */
            if (v->init && !v->visiting) {
                v->visiting++;
                wk_resolve_pointer(w, v->init, r, depth + 1);
                v->visiting--;
            }
            if (r->space != SP_NONE) {
                expr_free(r->off);
                r->off = expr_unknown("pointer is reassigned");
            }
            lref_why(r, "pointer '%s' is reassigned", v->name);
            return;
        }
        resolve_var(w, d, v ? v->decl_node : decl_node_of(w, d), r);
        return;
    }
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(n->cur);
        if ((k != CXBinaryOperator_Add && k != CXBinaryOperator_Sub) || n->n_kids != 2)
            return;
        cnode *p = n->kids[0], *i = n->kids[1];
        CXType pt = clang_getCanonicalType(clang_getCursorType(cn_strip(p)->cur));
        if (pt.kind != CXType_Pointer && !is_array_type(pt)) {
            cnode *tmp = p;
            p = i;
            i = tmp;
            pt = clang_getCanonicalType(clang_getCursorType(cn_strip(p)->cur));
        }
        wk_resolve_pointer(w, p, r, depth + 1);
        if (r->space == SP_NONE)
            return;
        CXType pointee =
            pt.kind == CXType_Pointer ? clang_getPointeeType(pt) : clang_getArrayElementType(pt);
        int64_t es = cn_type_size(pointee);
        expr *idx = x_expr(w->f, i);
        expr *step = es > 0 ? expr_binary(OP_MUL, idx, expr_const(es))
                            : (expr_free(idx), expr_unknown("element size not known"));
        r->off = expr_binary(k == CXBinaryOperator_Add ? OP_ADD : OP_SUB, r->off, step);
        return;
    }
    case CXCursor_UnaryOperator:
        if (clang_getCursorUnaryOperatorKind(n->cur) == CXUnaryOperator_AddrOf && n->n_kids == 1)
            wk_resolve_lvalue(w, n->kids[0], r, depth + 1);
        return;
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_MemberRefExpr: {
        CXType t = clang_getCanonicalType(clang_getCursorType(n->cur));
        if (is_array_type(t)) {
            wk_resolve_lvalue(w, n, r, depth + 1); /* decays to a pointer to its start */
            return;
        }
        if (n->kind == CXCursor_MemberRefExpr && t.kind == CXType_Pointer &&
            member_of_param(w, n, r))
            return;
        lref_why(r, "%s", "pointer loaded from memory");
        return;
    }
    case CXCursor_ConditionalOperator:
        lref_why(r, "%s", "pointer chosen at run time");
        return;
    case CXCursor_CallExpr: {
        CXCursor shared = returned_shared_var(w, n);
        if (!clang_Cursor_isNull(shared)) {
            resolve_var(w, shared, NULL, r);
            return;
        }
        char *name = cn_ref_name(n->cur);
        lref_why(r, "pointer returned by '%s'", name);
        free(name);
        return;
    }
    default:
        return;
    }
}

void wk_resolve_lvalue(walker *w, cnode *n, lref *r, int depth)
{
    if (depth > 16)
        return;
    n = cn_strip(n);
    if (!n)
        return;
    switch (n->kind) {
    case CXCursor_ArraySubscriptExpr: {
        if (n->n_kids != 2)
            return;
        cnode *base = n->kids[0], *idx = n->kids[1];
        CXType bt = clang_getCanonicalType(clang_getCursorType(cn_strip(base)->cur));
        if (bt.kind != CXType_Pointer && !is_array_type(bt)) {
            cnode *tmp = base; /* i[a] */
            base = idx;
            idx = tmp;
        }
        wk_resolve_pointer(w, base, r, depth + 1);
        if (r->space == SP_NONE)
            return;
        expr *stride = subscript_stride(w, n);
        expr *i = x_expr(w->f, idx);
        if (!stride) {
            expr_free(i);
            r->off = expr_binary(OP_ADD, r->off, expr_unknown("element size not known"));
            lref_why(r, "%s", "the element size depends on a template parameter");
            return;
        }
        r->off = expr_binary(OP_ADD, r->off, expr_binary(OP_MUL, i, stride));
        return;
    }
    case CXCursor_UnaryOperator:
        if (clang_getCursorUnaryOperatorKind(n->cur) == CXUnaryOperator_Deref && n->n_kids == 1)
            wk_resolve_pointer(w, n->kids[0], r, depth + 1);
        return;
    case CXCursor_MemberRefExpr: {
        if (n->n_kids < 1)
            return;
        cnode *base = n->kids[0];
        CXType bt = clang_getCanonicalType(clang_getCursorType(cn_strip(base)->cur));
        if (bt.kind == CXType_Pointer)
            wk_resolve_pointer(w, base, r, depth + 1);
        else
            wk_resolve_lvalue(w, base, r, depth + 1);
        if (r->space == SP_NONE)
            return;
        CXCursor field = clang_getCursorReferenced(n->cur);
        long long bits = clang_Cursor_getOffsetOfField(field);
        if (bits < 0 || bits % 8) {
            r->off = expr_binary(OP_ADD, r->off, expr_unknown("field offset not known"));
            lref_why(r, "%s", "the field offset is not known here");
            return;
        }
        r->off = expr_binary(OP_ADD, r->off, expr_const(bits / 8));
        return;
    }
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(n->cur);
        if (d.kind == CXCursor_ParmDecl && w->calls) {
            call_bound_ptr(w, d, r); /* a reference parameter */
            return;
        }
        if (d.kind != CXCursor_VarDecl)
            return;
        resolve_var(w, d, decl_node_of(w, d), r);
        return;
    }
    default:
        return;
    }
}

/* ---- sites ---- */

static void copy_loops(walker *w, loop_ctx *dst, int *n_dst, char **why)
{
    int n = w->load_hoist ? w->load_loops : w->f->n_loops;
    if (n > ACCESS_MAX_LOOPS) {
        n = ACCESS_MAX_LOOPS;
        if (why && !*why)
            *why = xstrdup("nested in more than 8 loops");
    }
    for (int i = 0; i < n; i++) {
        const loop_ctx *s = &w->f->loops[i]->ctx;
        dst[i].var = s->var ? xstrdup(s->var) : NULL;
        dst[i].init = s->init ? expr_clone(s->init) : NULL;
        dst[i].cond = s->cond ? expr_clone(s->cond) : NULL;
        dst[i].next = s->next ? expr_clone(s->next) : NULL;
        dst[i].leaves_early = s->leaves_early;
        dst[i].barrier = s->barrier;
        dst[i].loc.file = s->loc.file ? xstrdup(s->loc.file) : NULL;
        dst[i].loc.line = s->loc.line;
        dst[i].loc.column = s->loc.column;
        dst[i].spelled_at = s->spelled_at;
    }
    *n_dst = n;
}

static const expr *first_unknown_node(const expr *e)
{
    if (!e)
        return NULL;
    if (e->kind == EX_UNKNOWN)
        return e;
    const expr *r = first_unknown_node(e->a);
    if (!r)
        r = first_unknown_node(e->b);
    if (!r)
        r = first_unknown_node(e->c);
    return r;
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

/* Records the access at r (taken), `width` bytes per thread; n gives its
 * text and line. */
static void emit_access_at(walker *w, cnode *n, lref *r, int64_t width, bool is_store)
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
    const expr *u = first_unknown_node(a->byte_offset);
    if (!why && u) {
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "index not understood: %s", u->name ? u->name : "unknown");
        why = sbuf_take(&b);
    }
    a->why_not = why;
    a->text = cn_text_trunc(w->t, n->cur, 200);
    a->via = call_chain(w);
    cn_loc(w->t, n->cur, &a->loc);
    if (a->space == SPACE_GLOBAL) {
        add_count(w, is_store ? CNT_GST : CNT_GLD, a->width);
        add_count(w, CNT_GACC, 1);
    }
    wk_lref_free(r);
}

static void emit_access(walker *w, cnode *n, bool is_store)
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
    emit_access_at(w, n, &r, width, is_store);
}

/* An access through a pointer value (`__ldcs(p + i)`, `atomicAdd(p + i, v)`):
 * `width` bytes at where ptr points. */
static void emit_access_ptr(walker *w, cnode *ptr, int64_t width, bool is_store)
{
    lref r = {SP_NONE, -1, NULL, NULL, NULL};
    wk_resolve_pointer(w, ptr, &r, 0);
    if (width <= 0) {
        CXType pt = clang_getCanonicalType(clang_getCursorType(cn_strip_casts(ptr)->cur));
        if (pt.kind == CXType_Pointer)
            width = cn_type_size(clang_getPointeeType(pt));
    }
    emit_access_at(w, ptr, &r, width, is_store);
}

/* Takes ownership of ce. */
static void emit_branch(walker *w, branch_kind kind, cnode *cond, cnode *at, expr *ce)
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
    const expr *u = first_unknown_node(b->cond);
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

/* ---- operation counts ---- */

static bool in_list(const char *s, const char *const *l)
{
    for (; *l; l++)
        if (strcmp(s, *l) == 0)
            return true;
    return false;
}

static const char *const transcendental[] = {
    "exp",         "expf",       "exp2",       "exp2f",      "exp10",      "exp10f",
    "expm1",       "expm1f",     "log",        "logf",       "log2",       "log2f",
    "log10",       "log10f",     "log1p",      "log1pf",     "sin",        "sinf",
    "cos",         "cosf",       "tan",        "tanf",       "sincos",     "sincosf",
    "sinpi",       "sinpif",     "cospi",      "cospif",     "asin",       "asinf",
    "acos",        "acosf",      "atan",       "atanf",      "atan2",      "atan2f",
    "sinh",        "sinhf",      "cosh",       "coshf",      "tanh",       "tanhf",
    "asinh",       "asinhf",     "acosh",      "acoshf",     "atanh",      "atanhf",
    "pow",         "powf",       "sqrt",       "sqrtf",      "rsqrt",      "rsqrtf",
    "cbrt",        "cbrtf",      "rcbrt",      "rcbrtf",     "erf",        "erff",
    "erfc",        "erfcf",      "erfinv",     "erfinvf",    "lgamma",     "lgammaf",
    "tgamma",      "tgammaf",    "hypot",      "hypotf",     "__expf",     "__exp10f",
    "__logf",      "__log2f",    "__log10f",   "__sinf",     "__cosf",     "__tanf",
    "__sincosf",   "__powf",     "__fsqrt_rn", "__fsqrt_rz", "__fsqrt_ru", "__fsqrt_rd",
    "__frsqrt_rn", "__dsqrt_rn", "__dsqrt_rz", "__dsqrt_ru", "__dsqrt_rd", "hexp",
    "hexp2",       "hexp10",     "hlog",       "hlog2",      "hlog10",     "hsin",
    "hcos",        "hsqrt",      "hrsqrt",     "hrcp",       "h2exp",      "h2exp2",
    "h2log",       "h2log2",     "h2sin",      "h2cos",      "h2sqrt",     "h2rsqrt",
    "h2rcp",       "htanh",      "h2tanh",     NULL};

static const char *const fma_names[] = {
    "fma",        "fmaf",           "__fmaf_rn",      "__fmaf_rz",      "__fmaf_ru",
    "__fmaf_rd",  "__fmaf_ieee_rn", "__fmaf_ieee_rz", "__fmaf_ieee_ru", "__fmaf_ieee_rd",
    "__fma_rn",   "__fma_rz",       "__fma_ru",       "__fma_rd",       "__hfma",
    "__hfma_sat", "__hfma_relu",    "__hfma2",        "__hfma2_sat",    "__hfma2_relu",
    NULL};

static const char *const arith_names[] = {
    "__fadd_rn", "__fadd_rz", "__fadd_ru",  "__fadd_rd",   "__fsub_rn",   "__fsub_rz",
    "__fsub_ru", "__fsub_rd", "__fmul_rn",  "__fmul_rz",   "__fmul_ru",   "__fmul_rd",
    "__fdiv_rn", "__fdiv_rz", "__fdiv_ru",  "__fdiv_rd",   "__fdividef",  "__frcp_rn",
    "__dadd_rn", "__dadd_rz", "__dadd_ru",  "__dadd_rd",   "__dsub_rn",   "__dsub_rz",
    "__dsub_ru", "__dsub_rd", "__dmul_rn",  "__dmul_rz",   "__dmul_ru",   "__dmul_rd",
    "__ddiv_rn", "__ddiv_rz", "__ddiv_ru",  "__ddiv_rd",   "__hadd",      "__hsub",
    "__hmul",    "__hdiv",    "__hadd_sat", "__hsub_sat",  "__hmul_sat",  "__hadd2",
    "__hsub2",   "__hmul2",   "__h2div",    "__hadd2_sat", "__hsub2_sat", "__hmul2_sat",
    NULL};

static int float_cat(int kind)
{
    return kind == 1 ? CNT_FP16 : kind == 3 ? CNT_FP64 : CNT_FP32;
}

/* Lanes of a packed half type: __half2, __nv_bfloat162. */
static int packed_lanes(CXType t)
{
    char *s = cn_type_spelling(clang_getCanonicalType(t));
    int n = (strstr(s, "half2") || strstr(s, "bfloat162")) ? 2 : 1;
    free(s);
    return n;
}

/* M, N, K from "nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float>". */
static bool fragment_shape(CXType t, int64_t mnk[3])
{
    char *s = cn_type_spelling(clang_getCanonicalType(clang_getNonReferenceType(t)));
    char *p = strstr(s, "fragment<");
    bool ok = false;
    if (p) {
        p = strchr(p, ',');
        int i = 0;
        while (p && i < 3) {
            char *end;
            long long v = strtoll(p + 1, &end, 10);
            if (end == p + 1)
                break;
            mnk[i++] = v;
            p = strchr(end, ',');
        }
        ok = i == 3;
    }
    free(s);
    return ok;
}

/* The byte offset, from a 16 x 16 tile's first element, of the row lane
 * (threadIdx's rank in the block, mod 32) hands ldmatrix: ptxas loads a
 * 16 x 16 fragment of 16-bit elements from shared memory with one
 * LDSM.16.M88.4 (MT88 for B; kernels/gemm.cu's gemm_wmma,
 * tests/data/timeprobe/h200/gemm), four 8 x 8 matrices whose eight
 * 16-byte rows the four quarter-warps give: rows 0-7 and 8-15 of the first
 * eight columns, then of the next eight (the PTX ISA, "ldmatrix"). Each
 * matrix is one wavefront when its rows fall in distinct banks: the bank
 * model's quarter-warp groups of a 16-byte access. */
/* threadIdx's rank in the block, mod 32: the lane of a warp. */
static expr *lane_of_thread(void)
{
    expr *yz =
        expr_binary(OP_ADD, expr_builtin_sym(SYM_TID_Y),
                    expr_binary(OP_MUL, expr_builtin_sym(SYM_TID_Z), expr_builtin_sym(SYM_BDIM_Y)));
    expr *rank = expr_binary(OP_ADD, expr_builtin_sym(SYM_TID_X),
                             expr_binary(OP_MUL, yz, expr_builtin_sym(SYM_BDIM_X)));
    return expr_binary(OP_MOD, rank, expr_const(32));
}

static expr *ldmatrix_row_offset(expr *ldm)
{
    expr *lane = lane_of_thread();
    expr *row = expr_binary(
        OP_ADD, expr_binary(OP_MOD, expr_clone(lane), expr_const(8)),
        expr_binary(OP_MUL, expr_const(8),
                    expr_binary(OP_MOD, expr_binary(OP_DIV, expr_clone(lane), expr_const(8)),
                                expr_const(2))));
    expr *col = expr_binary(OP_MUL, expr_const(8), expr_binary(OP_DIV, lane, expr_const(16)));
    return expr_binary(OP_MUL, expr_const(2),
                       expr_binary(OP_ADD, expr_binary(OP_MUL, row, ldm), col));
}

/* The byte offset, from a 16 x 16 float tile's first element, of the two
 * floats a lane stores with one STG.E.64 at (half, col_half): ptxas stores
 * a 16 x 16 float accumulator row-major as four such stores a lane, rows
 * lane / 4 and lane / 4 + 8, columns 2 (lane % 4) and that + 8 (the
 * mma.sync m16n8k16 accumulator layout; gemm_wmma's SASS in
 * tests/data/timeprobe/h200/gemm: +0x20000, eight rows of 4096 floats,
 * and +0x20, eight columns). */
static expr *accumulator_offset(expr *ldm, int half, int col_half)
{
    expr *lane = lane_of_thread();
    expr *row = expr_binary(OP_ADD, expr_binary(OP_DIV, expr_clone(lane), expr_const(4)),
                            expr_const(8 * half));
    expr *col = expr_binary(
        OP_ADD, expr_binary(OP_MUL, expr_const(2), expr_binary(OP_MOD, lane, expr_const(4))),
        expr_const(8 * col_half));
    return expr_binary(OP_MUL, expr_const(4),
                       expr_binary(OP_ADD, expr_binary(OP_MUL, row, ldm), col));
}

/* wmma::load_matrix_sync / store_matrix_sync: the bytes of the fragment's
 * tile, per thread, when the pointer is global memory; a 16 x 16 x 16
 * fragment of 16-bit operands loaded from shared memory is the ldmatrix
 * ptxas makes of it, one 16-byte shared load a lane, and a 16 x 16 float
 * accumulator stored row-major to global memory the four 8-byte stores a
 * lane it makes of that. */
static void count_wmma_io(walker *w, cnode *call, bool store)
{
    cnode *frag = cn_expr_kid(call, store ? 2 : 1);
    cnode *ptr = cn_expr_kid(call, store ? 1 : 2);
    if (!frag || !ptr)
        return;
    char *s = cn_type_spelling(clang_getCanonicalType(
        clang_getNonReferenceType(clang_getCursorType(cn_strip(frag)->cur))));
    int64_t mnk[3];
    bool ok = fragment_shape(clang_getCursorType(cn_strip(frag)->cur), mnk);
    int64_t rows = 0, cols = 0;
    if (ok && strstr(s, "matrix_a"))
        rows = mnk[0], cols = mnk[2];
    else if (ok && strstr(s, "matrix_b"))
        rows = mnk[2], cols = mnk[1];
    else if (ok && strstr(s, "accumulator"))
        rows = mnk[0], cols = mnk[1];
    bool operand = ok && !strstr(s, "accumulator");
    int64_t es = 0;
    const char *elem = s;
    /* The element type is the fifth argument: after the fourth comma. */
    for (int c = 0; c < 4 && elem; c++) {
        elem = strchr(elem, ',');
        if (elem)
            elem++;
    }
    if (elem) {
        if (strstr(elem, "half") == elem + 1 || strstr(elem, "__half") == elem + 1 ||
            strstr(elem, "bfloat16"))
            es = 2;
        else if (!strncmp(elem, " float", 6) || strstr(elem, "tf32") || !strncmp(elem, " int", 4))
            es = 4;
        else if (!strncmp(elem, " double", 7))
            es = 8;
        else if (strstr(elem, "char"))
            es = 1;
    }
    free(s);
    if (!rows || !es)
        return;
    lref r = {SP_NONE, -1, NULL, NULL, NULL};
    wk_resolve_pointer(w, ptr, &r, 0);
    cnode *ld = cn_expr_kid(call, 3);
    if (r.space == SP_SHARED && !store && operand && es == 2 && rows == 16 && cols == 16 && ld &&
        r.off) {
        r.off = expr_binary(OP_ADD, r.off, ldmatrix_row_offset(x_expr(w->f, ld)));
        emit_access_at(w, ptr, &r, 16, false);
        return;
    }
    cnode *layout = store ? cn_expr_kid(call, 4) : NULL;
    char *lt = layout ? cn_text_trunc(w->t, layout->cur, 80) : NULL;
    bool row_major = lt && strstr(lt, "mem_row_major");
    free(lt);
    if (r.space == SP_GLOBAL && store && !operand && es == 4 && rows == 16 && cols == 16 && ld &&
        r.off && row_major) {
        expr *ldm = x_expr(w->f, ld);
        for (int h = 0; h < 2; h++)
            for (int c = 0; c < 2; c++) {
                lref q = {r.space, r.array, r.base ? xstrdup(r.base) : NULL,
                          expr_binary(OP_ADD, expr_clone(r.off),
                                      accumulator_offset(expr_clone(ldm), h, c)),
                          r.why ? xstrdup(r.why) : NULL};
                emit_access_at(w, ptr, &q, 8, true);
            }
        expr_free(ldm);
        wk_lref_free(&r);
        return;
    }
    if (r.space == SP_GLOBAL) {
        add_count(w, store ? CNT_GST : CNT_GLD, rows * cols * es / 32);
        add_count(w, CNT_GACC, 1); /* one wmma load/store per thread */
        cusrc_counts *c = &w->u->variants[w->variant].counts;
        if (!c->unsited_global) {
            src_loc l = {0};
            cn_loc(w->t, call->cur, &l);
            sbuf b;
            sbuf_init(&b);
            sbuf_addf(&b, "line %d: wmma::%s moves global memory gpulint does not place", l.line,
                      store ? "store_matrix_sync" : "load_matrix_sync");
            c->unsited_global = sbuf_take(&b);
            free(l.file);
        }
    }
    wk_lref_free(&r);
}

/* cg::reduce(tile, v, cg::plus<float>()): a tree of log2(N) steps, one
 * addition per thread per step (a shuffle and an FADD each, as the
 * toolkit's cooperative_groups/details/reduce.h does it for floating point);
 * less/greater are comparisons, not floating-point work. */
static void count_cg_reduce(walker *w, cnode *n)
{
    cnode *tile = cn_expr_kid(n, 1), *op = cn_expr_kid(n, 3);
    if (!tile || !op)
        return;
    int64_t size = 0;
    if (x_cg_kind(clang_getCursorType(cn_strip(tile)->cur), &size) != 't')
        return;
    char *os = cn_type_spelling(clang_getCanonicalType(clang_getCursorType(cn_strip(op)->cur)));
    int steps = 0;
    while (size > 1 && (1LL << steps) < size)
        steps++;
    const char *plus = strstr(os, "cooperative_groups::") ? strstr(os, "plus<") : NULL;
    if (steps && plus) {
        if (!strncmp(plus, "plus<float>", 11))
            add_count(w, CNT_FP32, steps);
        else if (!strncmp(plus, "plus<double>", 12))
            add_count(w, CNT_FP64, steps);
        else if (strstr(plus, "half") || strstr(plus, "bfloat16"))
            add_count(w, CNT_FP16, steps);
    }
    free(os);
}

/* The first call whose FLOPs are not exact, in the kernel's counts
 * (cusrc_counts.flops_estimate). */
static void note_flops(walker *w, cnode *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note_flops(walker *w, cnode *at, const char *fmt, ...)
{
    cusrc_counts *k = &w->u->variants[w->variant].counts;
    if (k->flops_estimate || w->no_flops)
        return;
    src_loc l = {0};
    cn_loc(w->t, at->cur, &l);
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "line %d: ", l.line);
    va_list ap;
    va_start(ap, fmt);
    sbuf_vaddf(&b, fmt, ap);
    va_end(ap);
    k->flops_estimate = sbuf_take(&b);
    free(l.file);
}

/* A division or a math call counted as the instructions nvcc compiles it
 * into (analysis/timing/mathcost). False when gpulint has no measurement. */
static bool count_compiled(walker *w, cnode *at, const char *op, bool fp64)
{
    math_cost c;
    if (!mathcost_find(op, fp64, w->t->math, &c))
        return false;
    add_count(w, CNT_FP32, (int64_t)floor(c.fp32_lo));
    add_count(w, CNT_FP64, (int64_t)floor(c.fp64_lo));
    if (c.fp32_hi > c.fp32_lo || c.fp64_hi > c.fp64_lo) {
        bool p64 = c.fp64_hi > 0;
        double lo = p64 ? c.fp64_lo : c.fp32_lo, hi = p64 ? c.fp64_hi : c.fp32_hi;
        note_flops(w, at,
                   "%s runs %g to %g FP%d FLOPs depending on its argument (measured); "
                   "counted as %g",
                   op, lo, hi, p64 ? 64 : 32, floor(lo));
    }
    return true;
}

/* The name a call's table row has: exp() on a float is expf. */
static bool count_math_call(walker *w, cnode *n, const char *name, int fk)
{
    if (fk == 1)
        return false; /* half and bfloat16: not measured */
    if (fk == 2) {
        size_t len = strlen(name);
        char f[64];
        if (len + 2 <= sizeof f && (len == 0 || name[len - 1] != 'f')) {
            snprintf(f, sizeof f, "%sf", name);
            if (count_compiled(w, n, f, false))
                return true;
        }
    }
    return count_compiled(w, n, name, fk == 3);
}

static void count_call(walker *w, cnode *n)
{
    CXCursor fn = clang_getCursorReferenced(n->cur);
    if (clang_Cursor_isNull(fn))
        return;
    char *name = cn_spelling(fn);
    CXType rt = clang_getCursorType(n->cur);
    int fk = cn_float_kind(rt);
    if (strcmp(name, "reduce") == 0) {
        count_cg_reduce(w, n);
    } else if (strcmp(name, "load_matrix_sync") == 0 || strcmp(name, "store_matrix_sync") == 0) {
        count_wmma_io(w, n, name[0] == 's');
    } else if (strcmp(name, "mma_sync") == 0) {
        cnode *d = cn_expr_kid(n, 1);
        int64_t mnk[3];
        if (d && fragment_shape(clang_getCursorType(cn_strip(d)->cur), mnk))
            add_count(w, CNT_TENSOR, 2 * mnk[0] * mnk[1] * mnk[2] / 32);
    } else if (in_list(name, fma_names)) {
        cnode *a = cn_expr_kid(n, 1);
        int k = fk ? fk : (a ? cn_float_kind(clang_getCursorType(a->cur)) : 2);
        add_count(w, float_cat(k ? k : 2), 2 * packed_lanes(rt));
    } else if (in_list(name, arith_names)) {
        if (!count_math_call(w, n, name, fk))
            add_count(w, float_cat(fk ? fk : 2), packed_lanes(rt));
    } else if (in_list(name, transcendental)) {
        add_count(w, fk == 3 ? CNT_TR64 : CNT_TR32, packed_lanes(rt));
        if (!count_math_call(w, n, name, fk))
            note_flops(w, n,
                       "the instructions %s compiles into are not measured (analysis/mathcost): "
                       "its FADD/FMUL/FFMA are not in the FLOPs",
                       name);
    } else if (strncmp(name, "operator", 8) == 0 && fk == 1) {
        const char *op = name + 8;
        if (!strcmp(op, "+") || !strcmp(op, "-") || !strcmp(op, "*") || !strcmp(op, "/") ||
            !strcmp(op, "+=") || !strcmp(op, "-=") || !strcmp(op, "*=") || !strcmp(op, "/="))
            if (cn_n_expr_kids(n) >= 2)
                add_count(w, CNT_FP16, packed_lanes(rt));
    }
    free(name);
}

/* A floating-point expression the compiler folds to a constant:
 * `sqrtf(2.0f / M_PI)` in a GELU is one number in the PTX, not a division
 * and a square root per element. Literals, const variables initialised by
 * such expressions, arithmetic on them and math functions of them (nvcc
 * folds sqrtf, expf... of constants). */
static bool folds(walker *w, cnode *n, int depth)
{
    n = cn_strip_casts(n);
    if (!n || depth > 24)
        return false;
    switch (n->kind) {
    case CXCursor_FloatingLiteral:
    case CXCursor_IntegerLiteral:
        return true;
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(n->cur);
        if (d.kind == CXCursor_EnumConstantDecl || d.kind == CXCursor_NonTypeTemplateParameter)
            return true;
        if (d.kind != CXCursor_VarDecl || !clang_isConstQualifiedType(clang_getCursorType(d)))
            return false;
        var_info *v = fn_var(w->f, d);
        if (v && v->init)
            return !v->n_assigns && folds(w, v->init, depth + 1);
        /* A namespace-scope constant: clang's own evaluation decides. */
        CXEvalResult r = clang_Cursor_Evaluate(n->cur);
        bool c = r && (clang_EvalResult_getKind(r) == CXEval_Float ||
                       clang_EvalResult_getKind(r) == CXEval_Int);
        if (r)
            clang_EvalResult_dispose(r);
        return c;
    }
    case CXCursor_UnaryOperator:
        return n->n_kids == 1 &&
               clang_getCursorUnaryOperatorKind(n->cur) != CXUnaryOperator_Deref &&
               folds(w, n->kids[0], depth + 1);
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(n->cur);
        return n->n_kids == 2 && k < CXBinaryOperator_Assign && folds(w, n->kids[0], depth + 1) &&
               folds(w, n->kids[1], depth + 1);
    }
    case CXCursor_CallExpr: {
        char *name = cn_ref_name(n->cur);
        bool math = in_list(name, transcendental) || in_list(name, fma_names);
        free(name);
        if (!math)
            return false;
        for (int i = 1; i < cn_n_expr_kids(n); i++)
            if (!folds(w, cn_expr_kid(n, i), depth + 1))
                return false;
        return cn_n_expr_kids(n) > 1;
    }
    default:
        return false;
    }
}

/* A float or double division as nvcc compiles it: 1 / b is a reciprocal,
 * a power-of-two divisor a multiplication, another constant divisor still
 * the full division (IEEE rounding keeps it), else the division. */
static bool count_division(walker *w, cnode *n, enum CXBinaryOperatorKind k, int fk)
{
    cnode *num = n->n_kids == 2 ? n->kids[0] : NULL, *den = n->n_kids == 2 ? n->kids[1] : NULL;
    if (!num || !den)
        return false;
    bool fp64 = fk == 3;
    if (k == CXBinaryOperator_Div && folds(w, num, 0)) {
        CXEvalResult r = clang_Cursor_Evaluate(cn_strip_casts(num)->cur);
        bool one = r && clang_EvalResult_getKind(r) == CXEval_Float
                       ? clang_EvalResult_getAsDouble(r) == 1.0
                       : r && clang_EvalResult_getKind(r) == CXEval_Int &&
                             clang_EvalResult_getAsLongLong(r) == 1;
        if (r)
            clang_EvalResult_dispose(r);
        if (one)
            return count_compiled(w, n, "rcp", fp64);
    }
    if (!folds(w, den, 0))
        return count_compiled(w, n, "div", fp64);
    CXEvalResult r = clang_Cursor_Evaluate(cn_strip_casts(den)->cur);
    double v = 0;
    if (r && clang_EvalResult_getKind(r) == CXEval_Float)
        v = clang_EvalResult_getAsDouble(r);
    else if (r && clang_EvalResult_getKind(r) == CXEval_Int)
        v = (double)clang_EvalResult_getAsLongLong(r);
    if (r)
        clang_EvalResult_dispose(r);
    int e;
    if (v != 0 && fabs(frexp(v, &e)) == 0.5)
        return false; /* exact reciprocal: one multiplication */
    return count_compiled(w, n, "div_const", fp64);
}

static void count_ops(walker *w, cnode *n)
{
    switch (n->kind) {
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(n->cur);
        bool arith = k == CXBinaryOperator_Add || k == CXBinaryOperator_Sub ||
                     k == CXBinaryOperator_Mul || k == CXBinaryOperator_Div ||
                     k == CXBinaryOperator_AddAssign || k == CXBinaryOperator_SubAssign ||
                     k == CXBinaryOperator_MulAssign || k == CXBinaryOperator_DivAssign;
        int fk = cn_float_kind(clang_getCursorType(n->cur));
        if (n->kind == CXCursor_CompoundAssignOperator && n->n_kids == 2) {
            /* `f += d` with a double d adds in double, then converts. */
            int rk = cn_float_kind(clang_getCursorType(cn_strip(n->kids[1])->cur));
            if (rk > fk)
                fk = rk;
        }
        bool div = k == CXBinaryOperator_Div || k == CXBinaryOperator_DivAssign;
        if (arith && fk && !(div && fk != 1 && count_division(w, n, k, fk)))
            add_count(w, float_cat(fk), 1);
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(n->cur);
        if ((k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec ||
             k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PreDec)) {
            int fk = cn_float_kind(clang_getCursorType(n->cur));
            if (fk)
                add_count(w, float_cat(fk), 1);
        }
        break;
    }
    case CXCursor_CallExpr:
        count_call(w, n);
        break;
    default:
        break;
    }
}

/* ---- expressions ---- */

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

static bool is_memory_lvalue(walker *w, cnode *n)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(n->cur));
    if (is_array_type(t) || t.kind == CXType_FunctionProto)
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
            bool builtin = is_builtin_var_name(s);
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

/* ---- common subexpressions ---- */

static bool pure_call(cnode *n)
{
    char *name = cn_ref_name(n->cur);
    bool pure = name && (in_list(name, transcendental) || in_list(name, fma_names) ||
                         in_list(name, arith_names));
    free(name);
    return pure;
}

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
        if (!pure_call((cnode *)n))
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
    bool call = n->kind == CXCursor_CallExpr && pure_call(n);
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
        return !pure_call(n);
    default:
        return false;
    }
}

/* ---- loop-invariant work ---- */

static bool inside(cnode *n, cnode *anc);

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
        if (v->addr_taken || v->is_shared || (v->decl_node && inside(v->decl_node, loop)))
            return false;
        for (int i = 0; i < v->n_assigns; i++)
            if (inside(v->assigns[i], loop))
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
static loop_frame *hoist_target(walker *w, cnode *n)
{
    fn_ctx *f = w->f;
    if (w->hoist || w->n_calls || !f->n_loops)
        return NULL;
    int level = f->n_loops, guards = w->n_guards;
    while (level > 0) {
        loop_frame *fr = f->loops[level - 1];
        if (guards != fr->guards_at_entry)
            break; /* a condition inside this loop decides whether n runs */
        if (!inside(n, fr->stmt) || !invariant_in(w, n, fr->stmt, 0))
            break;
        level--;
    }
    return level == f->n_loops ? NULL : f->loops[level];
}

/* Whether nothing in s writes memory but stores to the element `text`
 * names (and locals): no other store, no call that is not a math function. */
static bool writes_only(walker *w, cnode *s, const char *text, int depth)
{
    if (depth > 64)
        return false;
    cnode *target = NULL;
    switch (s->kind) {
    case CXCursor_BinaryOperator:
        if (clang_getCursorBinaryOperatorKind(s->cur) >= CXBinaryOperator_Assign && s->n_kids == 2)
            target = s->kids[0];
        break;
    case CXCursor_CompoundAssignOperator:
        if (s->n_kids == 2)
            target = s->kids[0];
        break;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(s->cur);
        if ((k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec ||
             k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PreDec) &&
            s->n_kids == 1)
            target = s->kids[0];
        break;
    }
    case CXCursor_CallExpr:
        if (!pure_call(s))
            return false;
        break;
    default:
        break;
    }
    if (target) {
        cnode *t = cn_strip(target);
        if (is_memory_lvalue(w, t)) {
            char *tt = cn_text_trunc(w->t, t->cur, 200);
            bool same = strcmp(tt, text) == 0;
            free(tt);
            if (!same)
                return false;
        }
    }
    for (int i = 0; i < s->n_kids; i++)
        if (!writes_only(w, s->kids[i], text, depth + 1))
            return false;
    return true;
}

/* How many of the enclosing loops a global load `a[i]` runs in. nvcc loads
 * an element once before the loops in which its address does not change and
 * nothing is written but that element (`acc[i] += ...` in a loop: the value
 * stays in a register, the stores remain); under a condition inside a loop
 * it stays put. */
static int load_loops(walker *w, cnode *n)
{
    fn_ctx *f = w->f;
    cnode *s = cn_strip(n);
    if (w->n_calls || !f->n_loops || s->kind != CXCursor_ArraySubscriptExpr || s->n_kids != 2)
        return f->n_loops;
    char *text = cn_text_trunc(w->t, s->cur, 200);
    int level = f->n_loops;
    while (level > 0) {
        loop_frame *fr = f->loops[level - 1];
        if (w->n_guards != fr->guards_at_entry || !inside(n, fr->stmt) ||
            !invariant_in(w, s->kids[0], fr->stmt, 0) ||
            !invariant_in(w, s->kids[1], fr->stmt, 0) || !writes_only(w, fr->stmt, text, 0))
            break;
        level--;
    }
    free(text);
    return level;
}

static void last_store_clear(walker *w)
{
    free(w->last_store_text);
    w->last_store_text = NULL;
    w->last_store = -1;
}

static void avail_clear(walker *w)
{
    for (int i = 0; i < w->n_avail; i++)
        free(w->avail[i]);
    w->n_avail = 0;
    last_store_clear(w);
}

static bool in_texts(char *const *texts, int n, const char *text)
{
    for (int i = 0; i < n; i++)
        if (strcmp(texts[i], text) == 0)
            return true;
    return false;
}

static void avail_add(walker *w, char *text)
{
    if (w->n_avail == w->cap_avail) {
        w->cap_avail = w->cap_avail ? 2 * w->cap_avail : 8;
        w->avail = xrealloc(w->avail, (size_t)w->cap_avail * sizeof *w->avail);
    }
    w->avail[w->n_avail++] = text;
}

static bool avail_has(const walker *w, const char *text)
{
    return in_texts(w->avail, w->n_avail, text);
}

/* A non-volatile element of global memory, addressed by a subscript. */
static bool plain_global_element(walker *w, cnode *n)
{
    cnode *s = cn_strip(n);
    if (s->kind != CXCursor_ArraySubscriptExpr ||
        clang_isVolatileQualifiedType(clang_getCursorType(s->cur)))
        return false;
    lref r = {SP_NONE, -1, NULL, NULL, NULL};
    wk_resolve_lvalue(w, s, &r, 0);
    bool global = r.space == SP_GLOBAL;
    wk_lref_free(&r);
    return global;
}

static void store_ran(walker *w);

/* After a write: an element stored stays in its register; everything
 * else may have changed. */
static void avail_after_write(walker *w, cnode *n)
{
    long keep = w->last_store;
    char *keep_text = w->last_store_text;
    w->last_store_text = NULL;
    avail_clear(w);
    /* An assignment reads no memory but what its walk emitted (which ended
     * the last store where it read any): the store may still be
     * overwritten. A call may read anything. */
    if (n->kind == CXCursor_CallExpr) {
        free(keep_text);
    } else {
        w->last_store = keep;
        w->last_store_text = keep_text;
    }
    if (w->pending_text && n->kind != CXCursor_CallExpr)
        store_ran(w);
    if (w->n_calls || w->cse_off || n->n_kids != 2 ||
        (n->kind != CXCursor_CompoundAssignOperator &&
         !(n->kind == CXCursor_BinaryOperator &&
           clang_getCursorBinaryOperatorKind(n->cur) == CXBinaryOperator_Assign)))
        return;
    cnode *t = cn_strip(n->kids[0]);
    if (plain_global_element(w, t))
        avail_add(w, cn_text_trunc(w->t, t->cur, 200));
}

static void emit_load(walker *w, cnode *n)
{
    char *text = NULL;
    if (!w->n_calls && plain_global_element(w, n)) {
        text = cn_text_trunc(w->t, cn_strip(n)->cur, 200);
        if (avail_has(w, text)) {
            free(text);
            return; /* the value is in a register */
        }
    }
    int level = load_loops(w, n);
    /* Global memory only: shared elements are left to the bank analysis
     * as written. */
    if (!text)
        level = w->f->n_loops;
    if (level < w->f->n_loops) {
        loop_frame *fr = w->f->loops[level];
        if (in_texts(fr->entry_avail, fr->n_entry_avail, text)) {
            free(text); /* in a register since before the loops */
            return;
        }
        w->load_hoist = fr;
        w->load_loops = level;
    }
    last_store_clear(w); /* the load may read what it stored */
    emit_access(w, n, false);
    w->load_hoist = NULL;
    /* A load in a conditional arm may not have run. */
    if (text && !w->cse_off)
        avail_add(w, text);
    else
        free(text);
}

static void emit_store(walker *w, cnode *n)
{
    free(w->pending_text);
    w->pending_text = NULL;
    w->pending_store = -1;
    emit_access(w, n, true);
    if (!w->n_calls && !w->cse_off && plain_global_element(w, n)) {
        w->pending_store = (long)w->u->n_accesses - 1;
        w->pending_text = cn_text_trunc(w->t, cn_strip(n)->cur, 200);
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
        loop_frame *fr = count_frame(w);
        fr->direct[CNT_GST] -= dead->width;
        fr->direct[CNT_GACC] -= 1;
        access_free(dead);
        memmove(dead, dead + 1, (u->n_accesses - (size_t)i - 1) * sizeof *dead);
        u->n_accesses--;
        w->pending_store--;
    }
    last_store_clear(w);
    w->last_store = w->pending_store;
    w->last_store_text = w->pending_text;
    w->pending_store = -1;
    w->pending_text = NULL;
}

static void walk_expr(walker *w, cnode *n);

/* Loads and stores through a pointer argument: atomicAdd(&s[i], v) and
 * atomicAdd(p + i, v) load and store, __ldg/__ldcs(p + i) load,
 * __stcs(p + i, v) stores (the cache-operator intrinsics of the CUDA C++
 * Programming Guide, "Load Functions Using Cache Hints"). */
static void mem_intrinsic(walker *w, cnode *call)
{
    static const char *const loads[] = {"__ldg",  "__ldcg", "__ldca", "__ldcs",
                                        "__ldlu", "__ldcv", NULL};
    static const char *const stores[] = {"__stcg", "__stcs", "__stwb", "__stwt", NULL};
    char *name = cn_ref_name(call->cur);
    bool atomic = strncmp(name, "atomic", 6) == 0;
    bool load = in_list(name, loads), store = in_list(name, stores);
    free(name);
    cnode *ptr = (atomic || load || store) ? cn_expr_kid(call, 1) : NULL;
    if (!ptr)
        return;
    cnode *target = cn_strip(ptr);
    if (target && target->kind == CXCursor_UnaryOperator &&
        clang_getCursorUnaryOperatorKind(target->cur) == CXUnaryOperator_AddrOf &&
        target->n_kids == 1 && is_memory_lvalue(w, cn_strip(target->kids[0]))) {
        target = cn_strip(target->kids[0]);
        if (!store)
            emit_access(w, target, false);
        if (atomic || store)
            emit_access(w, target, true);
        return;
    }
    if (!store)
        emit_access_ptr(w, ptr, 0, false);
    if (atomic || store)
        emit_access_ptr(w, ptr, 0, true);
}

void wk_walk_kids(walker *w, cnode *n)
{
    for (int i = 0; i < n->n_kids; i++)
        walk_expr(w, n->kids[i]);
}

void wk_walk_expr(walker *w, cnode *n)
{
    walk_expr(w, n);
}

static void walk_expr(walker *w, cnode *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case CXCursor_LambdaExpr:
        return;
    case CXCursor_ConditionalOperator:
        if (n->n_kids == 3) {
            walk_expr(w, n->kids[0]);
            expr *c = x_expr(w->f, n->kids[0]);
            emit_branch(w, BRANCH_TERNARY, n->kids[0], n, expr_clone(c));
            w->cse_off++;
            arm_saved saved;
            push_guard(w, c);
            arm_begin(w, &saved);
            walk_expr(w, n->kids[1]);
            arm_end(w, &saved, w->guards[w->n_guards - 1]);
            pop_guard(w);
            push_guard(w, expr_unary(OP_NOT, x_expr(w->f, n->kids[0])));
            arm_begin(w, &saved);
            walk_expr(w, n->kids[2]);
            arm_end(w, &saved, w->guards[w->n_guards - 1]);
            pop_guard(w);
            w->cse_off--;
            return;
        }
        break;
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(n->cur);
        if ((k == CXBinaryOperator_LAnd || k == CXBinaryOperator_LOr) && n->n_kids == 2) {
            walk_expr(w, n->kids[0]);
            expr *c = x_expr(w->f, n->kids[0]);
            push_guard(w, k == CXBinaryOperator_LAnd ? c : expr_unary(OP_NOT, c));
            w->cse_off++;
            walk_expr(w, n->kids[1]);
            w->cse_off--;
            pop_guard(w);
            return;
        }
        break;
    }
    case CXCursor_CallExpr:
        if (!pure_call(n))
            w->n_cse = 0;
        if (call_walk(w, n)) {
            w->n_cse = 0;
            return;
        }
        mem_intrinsic(w, n);
        break;
    default:
        break;
    }
    if (cn_is_expr(n) && cn_float_kind(clang_getCursorType(n->cur)) &&
        n->kind != CXCursor_FloatingLiteral && folds(w, n, 0))
        return; /* a constant: no work, no memory */
    if (cn_is_expr(n) && is_memory_lvalue(w, n)) {
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
    loop_frame *hoist = pure && !repeat ? hoist_target(w, n) : NULL;
    w->no_flops += repeat;
    if (hoist)
        w->hoist = hoist;
    count_ops(w, n);
    wk_walk_kids(w, n);
    if (hoist)
        w->hoist = NULL;
    w->no_flops -= repeat;
    if (effect) {
        w->n_cse = 0;
        avail_after_write(w, n);
    }
}

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
            push_guard(w, r.after);
            pushed++;
            arms = xrealloc(arms, (size_t)pushed * sizeof *arms);
            arm_begin(w, &arms[pushed - 1]);
        }
    }
    while (pushed--) {
        arm_end(w, &arms[pushed], w->guards[w->n_guards - 1]);
        pop_guard(w);
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
            register_array(w, d->cur, d);
            continue;
        }
        cnode *init = fn_var_init(d);
        if (init)
            walk_expr(w, init);
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
    walk_expr(w, cond);
    expr *c = x_expr(w->f, cond);
    size_t branch = w->u->n_branches;
    emit_branch(w, BRANCH_IF, cond, s, expr_clone(c));
    long work_before = w->work_events;
    arm_saved saved;
    push_guard(w, expr_clone(c));
    arm_begin(w, &saved);
    exit_info r1 = walk_stmt(w, then);
    arm_end(w, &saved, w->guards[w->n_guards - 1]);
    pop_guard(w);
    exit_info r2 = {NULL, false};
    if (els) {
        push_guard(w, expr_unary(OP_NOT, expr_clone(c)));
        arm_begin(w, &saved);
        r2 = walk_stmt(w, els);
        arm_end(w, &saved, w->guards[w->n_guards - 1]);
        pop_guard(w);
    }
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
        w->n_avail = w->cap_avail = 0;
    }
    if (control || !s || !s->parent || s->parent->kind != CXCursor_CompoundStmt)
        avail_clear(w);
    exit_info r = walk_stmt_kind(w, s);
    if (control)
        avail_clear(w);
    return r;
}

static exit_info walk_stmt_kind(walker *w, cnode *s)
{
    exit_info none = {NULL, false};
    if (!s)
        return none;
    w->stmt_seq++;
    w->n_cse = 0; /* common subexpressions: within one statement */
    if (cn_is_expr(s)) {
        walk_expr(w, s);
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
            walk_expr(w, cond);
            emit_branch(w, BRANCH_SWITCH, cond, s, x_expr(w->f, cond));
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
            walk_expr(w, s->kids[i]);
        return none;
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
    case CXCursor_NullStmt:
    case CXCursor_GotoStmt:
    case CXCursor_GCCAsmStmt:
    case CXCursor_MSAsmStmt:
        return none;
    default:
        for (int i = 0; i < s->n_kids; i++) {
            if (cn_is_expr(s->kids[i]))
                walk_expr(w, s->kids[i]);
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

static var_info *update_target(walker *w, cnode *inc)
{
    inc = cn_strip(inc);
    if (!inc)
        return NULL;
    if (inc->kind == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(inc->cur) == CXBinaryOperator_Comma && inc->n_kids == 2) {
        var_info *v = update_target(w, inc->kids[0]);
        return v ? v : update_target(w, inc->kids[1]);
    }
    cnode *t = NULL;
    if ((inc->kind == CXCursor_BinaryOperator || inc->kind == CXCursor_CompoundAssignOperator) &&
        inc->n_kids == 2)
        t = inc->kids[0];
    else if (inc->kind == CXCursor_UnaryOperator && inc->n_kids == 1)
        t = inc->kids[0];
    t = cn_strip(t);
    if (!t || t->kind != CXCursor_DeclRefExpr)
        return NULL;
    var_info *v = fn_var(w->f, clang_getCursorReferenced(t->cur));
    return v && !v->is_shared ? v : NULL;
}

static cnode *update_for(walker *w, cnode *inc, var_info *v)
{
    inc = cn_strip(inc);
    if (!inc)
        return NULL;
    if (inc->kind == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(inc->cur) == CXBinaryOperator_Comma && inc->n_kids == 2) {
        cnode *a = update_for(w, inc->kids[0], v);
        return a ? a : update_for(w, inc->kids[1], v);
    }
    return update_target(w, inc) == v ? inc : NULL;
}

static bool inside(cnode *n, cnode *anc)
{
    for (; n; n = n->parent)
        if (n == anc)
            return true;
    return false;
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
                if (inside(v->assigns[i], loop)) {
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
    return only_var(e->a, var) && only_var(e->b, var) && only_var(e->c, var);
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

static expr *trip_count(walker *w, loop_frame *fr)
{
    const loop_ctx *c = &fr->ctx;
    if (!c->var || !c->init || !c->cond || !c->next)
        return unknown_trips(w, fr->stmt);
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
    return unknown_trips(w, fr->stmt);
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
    if (s->kind == CXCursor_CallExpr) {
        char *name = cn_ref_name(s->cur);
        bool bar = name && strncmp(name, "__syncthreads", 13) == 0;
        free(name);
        if (bar)
            return true;
    }
    for (int i = 0; i < s->n_kids; i++)
        if (calls_barrier(s->kids[i]))
            return true;
    return false;
}

/* A finished loop's work, into the frame around it: the body's times the
 * trip count, and the hoisted work once when the loop runs at all. */
static void loop_frame_close(walker *w, loop_frame *fr)
{
    loop_frame *parent = count_frame(w);
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
        expr *body_total = frame_total(fr, cat);
        expr *bs = expr_simplify(body_total);
        expr_free(body_total);
        if (bs->kind == EX_CONST && bs->value == 0) {
            expr_free(bs);
            continue;
        }
        expr *t = expr_binary(OP_MUL, expr_clone(fr->trips), bs);
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

static void walk_loop(walker *w, cnode *s)
{
    cnode *init = NULL, *cond = NULL, *inc = NULL, *body = NULL, *step = NULL;
    var_info *v = NULL;
    if (s->kind == CXCursor_ForStmt) {
        for_parts(w, s, &init, &cond, &inc, &body);
        v = inc ? update_target(w, inc) : NULL;
        if (v)
            step = update_for(w, inc, v);
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
    expr *init_e = NULL;
    if (init)
        walk_stmt_drop(w, init);
    if (v) {
        cnode *iv = NULL;
        cnode *i0 = init ? cn_strip(init) : NULL;
        if (i0 && i0->kind == CXCursor_DeclStmt) {
            for (int i = 0; i < i0->n_kids; i++)
                if (i0->kids[i]->kind == CXCursor_VarDecl &&
                    clang_equalCursors(i0->kids[i]->cur, v->decl))
                    iv = fn_var_init(i0->kids[i]);
        } else if (i0 && i0->kind == CXCursor_BinaryOperator && i0->n_kids == 2 &&
                   update_target(w, i0) == v) {
            iv = i0->kids[1];
        }
        bool outside_assigns = false;
        for (int i = 0; i < v->n_assigns; i++)
            if (!inside(v->assigns[i], s))
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
        }
    }

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
        if (a != step && inside(a, s) && !(init && inside(a, init)))
            other_steps++;
    }
    if (v && step && !other_steps) {
        expr *nx = x_assign_value(f, v, step);
        fr->ctx.next = expr_simplify(nx);
        expr_free(nx);
    }
    fr->ctx.leaves_early = body && leaves_early(body, false);
    fr->ctx.barrier = body && calls_barrier(body);
    fr->trips = trip_count(w, fr);
    emit_branch(w, BRANCH_LOOP, cond, s, cond ? expr_clone(fr->ctx.cond) : NULL);

    if (cond)
        walk_expr(w, cond);
    walk_stmt_drop(w, body);
    if (inc)
        walk_expr(w, inc);

    f->n_loops--;
    loop_frame_close(w, fr);
    for (int i = 0; i < fr->n_entry_avail; i++)
        free(fr->entry_avail[i]);
    free(fr->entry_avail);
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

/* Helper statements one kernel may walk through calls: a template library
 * instantiated a thousand times must not stall the file. */
#define CALL_BUDGET 200000

void body_analyse(cusrc_tu *t, size_t variant, CXCursor fn)
{
    walker w;
    memset(&w, 0, sizeof w);
    w.t = t;
    w.u = t->u;
    w.variant = variant;
    w.call_budget = CALL_BUDGET;
    w.last_store = w.pending_store = -1;
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
        expr *e = frame_total(&w.root, cat);
        *slots[cat] = expr_simplify(e);
        expr_free(e);
    }
    while (w.n_guards)
        pop_guard(&w);
    free(w.guards);
    free(w.arrs);
    free(w.cse);
    free(w.pending_text);
    avail_clear(&w);
    free(w.avail);
    for (int i = 0; i < w.n_entry_avail; i++)
        free(w.entry_avail[i]);
    free(w.entry_avail);
    fn_free(&w.kf);
    cn_free(root);
}
