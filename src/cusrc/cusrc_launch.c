/* cusrc_launch: the launches and opt-ins of the main file's functions,
 * found by walking each host function's calls: `<<<...>>>` and the
 * launch APIs, the kernel a callee names (through function pointers set
 * once), the configuration and arguments, the conditions under which the
 * launch runs, and host wrappers followed down to the launch (templated
 * dispatchers expanded at their call with the caller's values). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_explicit.h"
#include "cusrc/cusrc_int.h"
#include "cusrc/cusrc_scan.h"
#include "util/sbuf.h"

/* The kernel a callee expression names (x_named_function: the
 * declaration, or a parameter the caller bound to a kernel, `template
 * <typename K> void run(K k) { k<<<...>>>(); }` as tiny-cuda-nn's
 * linear_kernel launches), else a function pointer set once. */
static bool callee_function(fn_ctx *f, cnode *n, CXCursor *fn, int depth)
{
    if (x_named_function(f, n, fn))
        return true;
    n = cn_strip_casts(n);
    if (!f || depth >= 4 || !n || n->kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor r = clang_getCursorReferenced(n->cur);
    if (r.kind != CXCursor_VarDecl)
        return false;
    /* A function pointer set once: `kfn p = kernel; p<<<...>>>()`. */
    var_info *v = fn_var(f, r);
    if (v && !v->is_param && v->n_assigns == 0 && !v->addr_taken && v->init)
        return callee_function(f, v->init, fn, depth + 1);
    return false;
}

static char *fn_usr(CXCursor fn)
{
    CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
    return cx_str(clang_getCursorUSR(clang_Cursor_isNull(tmpl) ? fn : tmpl));
}

static bool exits_always(const cnode *s)
{
    return s->kind == CXCursor_BreakStmt || s->kind == CXCursor_ReturnStmt ||
           s->kind == CXCursor_ContinueStmt || s->kind == CXCursor_GotoStmt;
}

/* `cond == label || ...` over every case label of a switch body; NULL
 * when a label is not an integer expression. */
static expr *all_labels(fn_ctx *f, const cnode *body, cnode *cond)
{
    expr *any = NULL;
    for (int k = 0; k < body->n_kids; k++)
        for (const cnode *c = body->kids[k];
             c->kind == CXCursor_CaseStmt || c->kind == CXCursor_DefaultStmt;
             c = c->kids[c->n_kids - 1]) {
            if (c->n_kids < 1 || (c->kind == CXCursor_CaseStmt && c->n_kids < 2)) {
                expr_free(any);
                return NULL;
            }
            if (c->kind == CXCursor_DefaultStmt)
                continue;
            expr *eq = expr_binary(OP_EQ, x_expr(f, cond), x_expr(f, c->kids[0]));
            any = any ? expr_binary(OP_LOR, any, eq) : eq;
        }
    return any;
}

/* The case labels that lead to the statement at index `at` of a switch
 * body (its own, and those of earlier statements that fall through to
 * it), as `cond == label || ...`, `default:` as no label matching; NULL
 * when a label is not an integer. */
static expr *case_condition(fn_ctx *f, const cnode *body, int at, cnode *cond)
{
    expr *any = NULL;
    for (int k = at; k >= 0; k--) {
        const cnode *c = body->kids[k];
        if (k < at && exits_always(c))
            break;
        expr *labels = NULL;
        while (c->kind == CXCursor_CaseStmt || c->kind == CXCursor_DefaultStmt) {
            expr *eq = NULL;
            if (c->kind == CXCursor_DefaultStmt && c->n_kids >= 1) {
                expr *others = all_labels(f, body, cond);
                eq = others ? expr_unary(OP_NOT, others) : NULL;
            } else if (c->kind == CXCursor_CaseStmt && c->n_kids >= 2) {
                eq = expr_binary(OP_EQ, x_expr(f, cond), x_expr(f, c->kids[0]));
            }
            if (!eq) {
                expr_free(labels);
                expr_free(any);
                return NULL;
            }
            labels = labels ? expr_binary(OP_LOR, labels, eq) : eq;
            c = c->kids[c->n_kids - 1];
        }
        if (k < at && exits_always(c)) {
            expr_free(labels);
            break;
        }
        if (labels)
            any = any ? expr_binary(OP_LOR, any, labels) : labels;
    }
    return any;
}

/* What must hold for the call to run, from the if, ?: and switch around it
 * in its function (`switch (threads) { case 256: k<256><<<...>>>(); ...}`):
 * launches that --define values show never run are dropped
 * (cusrc_drop_unreached). NULL when nothing is known. */
static expr *launch_reach(fn_ctx *f, cnode *call)
{
    expr *reach = NULL;
    for (cnode *from = call, *p = call->parent; p && from != f->root; from = p, p = p->parent) {
        expr *c = NULL;
        if ((p->kind == CXCursor_IfStmt || p->kind == CXCursor_ConditionalOperator) &&
            (p->n_kids == 2 || p->n_kids == 3) && cn_is_expr(p->kids[0])) {
            /* condition, then, else (an if with an init statement or a
             * condition variable has more or other kids: not used). */
            if (from == p->kids[1])
                c = x_expr(f, p->kids[0]);
            else if (p->n_kids == 3 && from == p->kids[2])
                c = expr_unary(OP_NOT, x_expr(f, p->kids[0]));
        } else if (p->kind == CXCursor_CompoundStmt && p->parent &&
                   p->parent->kind == CXCursor_SwitchStmt) {
            cnode *sw = p->parent, *cond = NULL;
            for (int i = 0; i < sw->n_kids && !cond; i++)
                if (cn_is_expr(sw->kids[i]))
                    cond = sw->kids[i];
            for (int i = 0; cond && i < p->n_kids; i++)
                if (p->kids[i] == from)
                    c = case_condition(f, p, i, cond);
        }
        if (c)
            reach = reach ? expr_binary(OP_LAND, c, reach) : c;
    }
    return reach;
}

static cusrc_launch *new_launch(scan_state *ss, cusrc_launch_kind kind, cnode *call, fn_ctx *f)
{
    cusrc_tu *t = ss->t;
    cusrc_unit *u = t->u;
    GROW(u->launches, u->n_launches, t->cap_launches);
    t->launch_usr = xrealloc(t->launch_usr, t->cap_launches * sizeof *t->launch_usr);
    t->launch_usr[u->n_launches] = NULL;
    cusrc_launch *l = &u->launches[u->n_launches++];
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->kernel = -1;
    l->variant = -1;
    l->function = xstrdup(f->name);
    l->text = cn_text_trunc(t, call->cur, 200);
    cn_loc(t, call->cur, &l->loc);
    l->reach = launch_reach(f, call);
    l->call_paths = 1;
    l->paths = xcalloc(1, sizeof *l->paths);
    cusrc_path *path = &l->paths[0];
    /* Called from another unit: that unit's path first. */
    const cusrc_xcall *x = ss->from;
    int pre = x ? x->n_path : 0;
    path->n = pre + ss->depth + 1;
    path->fn = xcalloc((size_t)path->n, sizeof *path->fn);
    path->runs = xcalloc((size_t)path->n, sizeof *path->runs);
    path->why = xcalloc((size_t)path->n, sizeof *path->why);
    sbuf via;
    sbuf_init(&via);
    for (int i = 0; i < pre; i++) {
        sbuf_addf(&via, "%s%s", i ? " > " : "", x->fn[i]);
        path->fn[i] = xstrdup(x->fn[i]);
        path->runs[i] = x->runs[i] >= 0 ? expr_const(x->runs[i]) : expr_unknown(x->why[i]);
        if (x->runs[i] < 0)
            path->why[i] = xstrdup(x->why[i] ? x->why[i] : "a count gpulint cannot compute");
    }
    for (int i = 0; i <= ss->depth; i++) {
        const char *name = ss->names[i] ? ss->names[i] : "?";
        sbuf_addf(&via, "%s%s", i || pre ? " > " : "", name);
        path->fn[pre + i] = xstrdup(name);
        int at = pre + i;
        if (i < ss->depth) {
            path->runs[at] = host_loops_runs(&ss->loops[i], l->reach);
            path->why[at] = xstrdup_null(ss->loops[i].why);
        } else {
            host_loops here;
            host_loops_of(f, call, &here);
            path->runs[at] = host_loops_runs(&here, l->reach);
            path->why[at] = here.why;
            here.why = NULL;
            host_loops_free(&here);
        }
        if (path->runs[at]->kind == EX_CONST) {
            free(path->why[at]);
            path->why[at] = NULL;
        }
    }
    l->via = sbuf_take(&via);
    /* The conditions of the calls that led here, outermost first. */
    for (int i = ss->depth - 1; i >= 0; i--)
        if (ss->reach[i])
            l->reach = l->reach ? expr_binary(OP_LAND, expr_clone(ss->reach[i]), l->reach)
                                : expr_clone(ss->reach[i]);
    return l;
}

#define MAX_POINTEES 64

/* The kernels a function pointer may hold where it is launched: every value
 * a local pointer is given (`kernel = &transposeNaive;` in each case of a
 * switch, as cuda-samples' transpose does), or every element of a local
 * table (`kernels[i]<<<...>>>` with `kfn kernels[] = {a, b}`). Returns how
 * many, 0 when any value is not a function named in the source. */
static int pointees(fn_ctx *f, cnode *callee, CXCursor *out, char **ptr_name)
{
    cnode *n = cn_strip_casts(callee);
    cnode *vals[MAX_POINTEES];
    int nv = 0;
    var_info *v = NULL;
    if (n && n->kind == CXCursor_DeclRefExpr) {
        v = fn_var(f, clang_getCursorReferenced(n->cur));
        if (!v || v->is_param || v->addr_taken || v->n_assigns + (v->init ? 1 : 0) < 2)
            return 0;
        if (v->init)
            vals[nv++] = v->init;
        for (int i = 0; i < v->n_assigns && nv < MAX_POINTEES; i++) {
            cnode *a = v->assigns[i];
            if (a->kind != CXCursor_BinaryOperator || a->n_kids != 2 ||
                clang_getCursorBinaryOperatorKind(a->cur) != CXBinaryOperator_Assign)
                return 0;
            vals[nv++] = a->kids[1];
        }
        if (nv < v->n_assigns + (v->init ? 1 : 0))
            return 0;
    } else if (n && n->kind == CXCursor_ArraySubscriptExpr && n->n_kids == 2) {
        cnode *b = cn_strip_casts(n->kids[0]);
        v = b && b->kind == CXCursor_DeclRefExpr ? fn_var(f, clang_getCursorReferenced(b->cur))
                                                 : NULL;
        if (!v || v->n_assigns || v->addr_taken || !v->init ||
            v->init->kind != CXCursor_InitListExpr)
            return 0;
        for (int i = 0; i < v->init->n_kids && nv < MAX_POINTEES; i++)
            vals[nv++] = v->init->kids[i];
    } else {
        return 0;
    }
    int n_out = 0;
    for (int i = 0; i < nv; i++) {
        cnode *val = cn_strip_casts(vals[i]);
        int64_t zero;
        if (val &&
            (val->kind == CXCursor_CXXNullPtrLiteralExpr || val->kind == CXCursor_GNUNullExpr ||
             (val->kind == CXCursor_IntegerLiteral && x_const(f, val, &zero) && !zero)))
            continue; /* `= nullptr` until a case sets it: never launched */
        if (!callee_function(f, vals[i], &out[n_out], 0))
            return 0;
        /* A kernel given twice (a first value a case sets again) is one. */
        bool again = false;
        for (int j = 0; j < n_out && !again; j++)
            again = clang_equalCursors(out[j], out[n_out]);
        n_out += !again;
    }
    if (n_out)
        *ptr_name = xstrdup(v->name);
    return n_out;
}

/* What a launch knows of the kernel fn it runs. */
static void launch_kernel_fn(cusrc_tu *t, cusrc_launch *l, CXCursor fn)
{
    char *name = cn_spelling(fn);
    free(l->kernel_name);
    l->kernel_name = name;
    char *usr = fn_usr(fn);
    l->kernel = kern_by_usr(t, usr);
    t->launch_usr[l - t->u->launches] = usr;
    char *m = kern_mangling(fn);
    l->mangled = m[0] ? m : (free(m), NULL);
    kern_fill_targs(t, fn, l->kernel, &l->targs, &l->n_targs);
    kern_note_instantiation(t, fn);
}

static void launch_callee(cusrc_tu *t, fn_ctx *f, cusrc_launch *l, cnode *callee)
{
    CXCursor fn;
    cnode *s = cn_strip_casts(callee);
    char *text = s ? cn_text(t, s->cur) : xstrdup("?");
    char *lt = strchr(text, '<');
    if (lt) {
        char *gt = strrchr(text, '>');
        if (gt && gt > lt)
            l->targs_text = xstrndup(lt + 1, (size_t)(gt - lt - 1));
        *lt = '\0';
    }
    size_t tl = strlen(text);
    while (tl && text[tl - 1] == ' ')
        text[--tl] = '\0';
    l->kernel_name = text;
    if (!callee_function(f, callee, &fn, 0)) {
        if (!l->why_not)
            l->why_not = xstrdup("the launched kernel is not a function named in the source "
                                 "(a pointer or a dependent template)");
        return;
    }
    launch_kernel_fn(t, l, fn);
}

static void value_absent(cusrc_value *v, int64_t dflt)
{
    memset(v, 0, sizeof *v);
    v->known = true;
    v->value = dflt;
    v->e = expr_const(dflt);
}

/* Grid, block, dynamic shared memory and stream from the call's arguments
 * at the given positions (1 = the first argument); a missing smem is 0. */
static void launch_args(cusrc_tu *t, fn_ctx *f, cusrc_launch *l, cnode *call, int grid, int block,
                        int smem, int stream)
{
    int na = cn_n_expr_kids(call) - 1;
    if (na >= grid)
        x_value_dim3(f, cn_expr_kid(call, grid), "grid size", &l->grid);
    if (na >= block)
        x_value_dim3(f, cn_expr_kid(call, block), "block size", &l->block);
    if (na >= smem)
        x_value(f, cn_expr_kid(call, smem), "dynamic shared memory size", &l->smem);
    else
        value_absent(&l->smem, 0);
    if (na >= stream)
        l->stream = cn_text(t, cn_expr_kid(call, stream)->cur);
}

/* Records a field of kernel parameter pname the launch binds: `p.x` of a
 * struct passed by value, `p->x` of one copied into the buffer p points
 * to; the first binding of a name stands. */
static void add_arg_field(cusrc_launch *l, const char *pname, const char *sep, const char *field,
                          int64_t value)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s%s%s", pname, sep, field);
    for (int j = 0; j < l->n_arg_fields; j++)
        if (!strcmp(l->arg_fields[j].name, sbuf_str(&b))) {
            sbuf_free(&b);
            return;
        }
    l->arg_fields = xrealloc(l->arg_fields, (l->n_arg_fields + 1) * sizeof *l->arg_fields);
    struct cusrc_arg_field *af = &l->arg_fields[l->n_arg_fields++];
    af->name = sbuf_take(&b);
    af->value = value;
}

/* The uses of a device buffer in the launching function: the one copy
 * that fills it, and whether anything else may write it. */
typedef struct buffer_uses {
    CXCursor buf;
    cnode *copy;
    bool other;
} buffer_uses;

static bool callee_is(CXCursor fn, const char *a, const char *b)
{
    char *name = cn_spelling(fn);
    bool is = !strcmp(name, a) || (b && !strcmp(name, b));
    free(name);
    return is;
}

static void find_buffer_uses(cnode *n, buffer_uses *u)
{
    if (n->kind == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(n->cur), u->buf)) {
        cnode *p = n->parent;
        bool addr = p && p->kind == CXCursor_UnaryOperator &&
                    clang_getCursorUnaryOperatorKind(p->cur) == CXUnaryOperator_AddrOf;
        CXCursor fn;
        int slot;
        cnode *call = cn_arg_call(addr ? p : n, &fn, &slot);
        if (!call)
            u->other = true; /* assigned, moved, compared: not followed */
        else if (addr)
            u->other |= !callee_is(fn, "cudaMalloc", "cudaMallocManaged");
        else if (slot == 0 && callee_is(fn, "cudaMemcpy", "cudaMemcpyAsync")) {
            u->other |= u->copy != NULL;
            u->copy = call;
        } else
            u->other |= !cn_param_reads_only(fn, slot) && !callee_is(fn, "cudaFree", NULL);
        return;
    }
    for (int i = 0; i < n->n_kids; i++)
        find_buffer_uses(n->kids[i], u);
}

/* A kernel parameter that points to a const struct, handed a buffer the
 * host fills with one object (`cudaMemcpy(d_prop, &prop, sizeof prop,
 * cudaMemcpyHostToDevice)`, HeCBench's parameter blocks): the kernel's
 * `prop->width` is the object's field as the host set it before the copy.
 * Bound only where that copy runs every time before the launch and is
 * the one use of the buffer that may write it. */
static void bind_copied_object(fn_ctx *f, cusrc_launch *l, cnode *launch, cnode *arg, CXCursor parm)
{
    cnode *a = cn_strip_casts(arg);
    if (!x_const_struct_pointer(parm) || !a || a->kind != CXCursor_DeclRefExpr)
        return;
    var_info *v = fn_var(f, clang_getCursorReferenced(a->cur));
    if (!v || v->is_param || v->n_assigns)
        return;
    buffer_uses u = {.buf = v->decl};
    find_buffer_uses(f->root, &u);
    if (!u.copy || u.other || cn_n_expr_kids(u.copy) < 3 ||
        cn_spelled_at(u.copy->cur) >= cn_spelled_at(launch->cur) ||
        !x_dominates(u.copy, launch, NULL, NULL))
        return;
    param_binding pb = {.parm = parm};
    x_bind_fields(f, u.copy, cn_expr_kid(u.copy, 2), &pb);
    char *pname = cn_spelling(parm);
    for (int k = 0; k < pb.n_fields; k++)
        add_arg_field(l, pname, "->", pb.fields[k].name, pb.fields[k].value);
    free(pname);
    x_unbind(&pb, 1);
}

/* The kernel's own arguments: the call's expression kids from `first` on
 * (the launch configuration and callee come before them). */
static void kernel_args(fn_ctx *f, cusrc_launch *l, cnode *call, int first)
{
    int n = cn_n_expr_kids(call) - first;
    if (n <= 0)
        return;
    l->args = xcalloc((size_t)n, sizeof *l->args);
    l->n_args = n;
    for (int i = 0; i < n; i++)
        x_value(f, cn_expr_kid(call, first + i), "kernel argument", &l->args[i]);
    /* A struct argument's fields the caller set: the kernel reads them as
     * members of its parameter. */
    CXCursor kernel = clang_getCursorReferenced(call->cur);
    if (f->device || clang_Cursor_getNumArguments(kernel) < n)
        return;
    for (int i = 0; i < n; i++) {
        param_binding pb = {.parm = clang_Cursor_getArgument(kernel, (unsigned)i)};
        x_bind_fields(f, call, cn_expr_kid(call, first + i), &pb);
        /* An object built by a constructor, passed by value: its fields,
         * at any depth (a pointer parameter's reads are of device memory). */
        obj_fields obj = {0};
        if (clang_getCanonicalType(clang_getCursorType(pb.parm)).kind == CXType_Record)
            x_object(f, cn_expr_kid(call, first + i), &obj);
        char *pname = pb.n_fields || obj.n ? cn_spelling(pb.parm) : NULL;
        for (int k = 0; k < pb.n_fields + obj.n; k++)
            add_arg_field(l, pname, ".",
                          k < pb.n_fields ? pb.fields[k].name : obj.v[k - pb.n_fields].path,
                          k < pb.n_fields ? pb.fields[k].value : obj.v[k - pb.n_fields].value);
        obj_free(&obj);
        free(pname);
        x_unbind(&pb, 1);
        bind_copied_object(f, l, call, cn_expr_kid(call, first + i), pb.parm);
    }
}

/* The attributes a kernel's launches depend on, by name and by value
 * (driver_types.h, CUDA 13.0). */
static const struct {
    const char *name;
    int value;
    optin_kind kind;
} func_attributes[] = {
    {"cudaFuncAttributeMaxDynamicSharedMemorySize", 8, OPTIN_SMEM},
    {"cudaFuncAttributeRequiredClusterWidth", 11, OPTIN_CLUSTER_X},
    {"cudaFuncAttributeRequiredClusterHeight", 12, OPTIN_CLUSTER_Y},
    {"cudaFuncAttributeRequiredClusterDepth", 13, OPTIN_CLUSTER_Z},
    {"cudaFuncAttributeNonPortableClusterSizeAllowed", 14, OPTIN_NONPORTABLE},
};

static void scan_optin(cusrc_tu *t, fn_ctx *f, cnode *call)
{
    if (cn_n_expr_kids(call) < 4)
        return;
    cnode *attr = cn_strip(cn_expr_kid(call, 2));
    char *an = attr ? cn_ref_name(attr->cur) : xstrdup("");
    int64_t av = -1;
    bool valued = x_const(f, attr, &av);
    int which = -1;
    for (int i = 0; which < 0 && i < (int)(sizeof func_attributes / sizeof func_attributes[0]); i++)
        if (!strcmp(an, func_attributes[i].name) || (valued && av == func_attributes[i].value))
            which = i;
    free(an);
    CXCursor fn;
    if (which < 0 || !callee_function(f, cn_expr_kid(call, 1), &fn, 0))
        return;
    kern_note_instantiation(t, fn);
    GROW(t->optins, t->n_optins, t->cap_optins);
    optin_rec *o = &t->optins[t->n_optins++];
    o->kind = func_attributes[which].kind;
    o->usr = fn_usr(fn);
    char *m = kern_mangling(fn);
    o->mangled = m[0] ? m : (free(m), NULL);
    x_value(f, cn_expr_kid(call, 3), o->kind == OPTIN_SMEM ? "the opt-in size" : "the cluster size",
            &o->bytes);
}

/* cudaLaunchKernelEx(&cfg, k, ...): the configuration from cfg's member
 * assignments or its designated initialiser. */
static cnode *config_field(fn_ctx *f, cnode *cfgarg, const char *field)
{
    cnode *p = cn_strip_casts(cfgarg);
    if (p && p->kind == CXCursor_UnaryOperator && p->n_kids == 1)
        p = cn_strip(p->kids[0]);
    if (!p || p->kind != CXCursor_DeclRefExpr)
        return NULL;
    var_info *v = fn_var(f, clang_getCursorReferenced(p->cur));
    if (!v)
        return NULL;
    cnode *found = NULL;
    for (int i = 0; i < v->n_member_assigns; i++) {
        cnode *a = v->member_assigns[i];
        cnode *lhs = cn_strip(a->kids[0]);
        char *fname = cn_spelling(lhs->cur);
        if (!strcmp(fname, field))
            found =
                a->kind == CXCursor_CallExpr ? cn_expr_kid(a, cn_n_expr_kids(a) - 1) : a->kids[1];
        free(fname);
    }
    if (found || !v->init || v->init->kind != CXCursor_InitListExpr)
        return found;
    for (int i = 0; i < v->init->n_kids; i++) {
        cnode *d = v->init->kids[i];
        if (d->n_kids >= 2 && d->kids[0]->kind == CXCursor_MemberRef) {
            char *fname = cn_spelling(d->kids[0]->cur);
            if (!strcmp(fname, field))
                found = d->kids[d->n_kids - 1];
            free(fname);
        }
    }
    return found;
}

void scan_function(scan_state *s, CXCursor fn, bind_frame *binds);
static void expand_call(scan_state *s, fn_ctx *f, cnode *call);
static void expand_ref(scan_state *s, CXCursor fn);

/* A pointer that may hold any of n kernels launches each of them a share
 * of the times the launch runs; which one when is not followed, so each
 * is counted an equal share (cuda-samples' transpose sets the pointer in
 * a switch over the loop's counter: one kernel a trip). */
static void share_launches(cusrc_launch *l, int n)
{
    cusrc_path *p = &l->paths[0];
    expr *e = expr_binary(OP_DIV, p->runs[p->n - 1], expr_const(n));
    p->runs[p->n - 1] = expr_simplify(e);
    expr_free(e);
}

static void scan_call_at(scan_state *ss, fn_ctx *f, cnode *n)
{
    cusrc_tu *t = ss->t;
    int i = cn_chevron_config(n);
    if (i) {
        cnode *k = n->kids[i];
        int config = 0; /* the configuration call's position among the expressions */
        for (int j = 0; j < i; j++)
            config += cn_is_expr(n->kids[j]);
        /* Through a pointer that may hold several kernels: one launch of
         * each, with this launch's configuration. */
        CXCursor held[MAX_POINTEES];
        char *ptr = NULL;
        int nh = pointees(f, n->kids[0], held, &ptr);
        for (int h = 0; h < (nh ? nh : 1); h++) {
            cusrc_launch *l = new_launch(ss, CUSRC_LAUNCH_CHEVRON, n, f);
            size_t li = (size_t)(l - t->u->launches);
            if (nh) {
                l->kernel_name = cn_spelling(held[h]);
                l->pointer = xstrdup(ptr);
                launch_kernel_fn(t, l, held[h]);
            } else {
                launch_callee(t, f, l, n->kids[0]);
            }
            launch_args(t, f, &t->u->launches[li], k, 1, 2, 3, 4);
            kernel_args(f, &t->u->launches[li], n, config + 1);
            if (nh > 1)
                share_launches(&t->u->launches[li], nh);
        }
        free(ptr);
        return;
    }
    CXCursor fn = clang_getCursorReferenced(n->cur);
    char *name = cn_spelling(fn);
    int na = cn_n_expr_kids(n) - 1;
    if (!strcmp(name, "cudaFuncSetAttribute")) {
        scan_optin(t, f, n);
    } else if ((!strncmp(name, "cudaLaunchKernel", 16) &&
                strncmp(name, "cudaLaunchKernelEx", 18)) ||
               !strncmp(name, "cudaLaunchCooperativeKernel", 27)) {
        bool coop = !strncmp(name, "cudaLaunchCooperativeKernel", 27);
        cusrc_launch *l = new_launch(ss, coop ? CUSRC_LAUNCH_COOPERATIVE : CUSRC_LAUNCH_API, n, f);
        size_t li = (size_t)(l - t->u->launches);
        if (na >= 1)
            launch_callee(t, f, l, cn_expr_kid(n, 1));
        /* (func, gridDim, blockDim, args, sharedMem, stream) */
        launch_args(t, f, &t->u->launches[li], n, 2, 3, 5, 6);
    } else if (!strncmp(name, "cudaLaunchKernelEx", 18) && na >= 2) {
        cusrc_launch *l = new_launch(ss, CUSRC_LAUNCH_API_EX, n, f);
        size_t li = (size_t)(l - t->u->launches);
        launch_callee(t, f, l, cn_expr_kid(n, 2));
        l = &t->u->launches[li];
        kernel_args(f, l, n, 3);
        cnode *cfg = cn_expr_kid(n, 1);
        cnode *g = config_field(f, cfg, "gridDim");
        cnode *b = config_field(f, cfg, "blockDim");
        cnode *s = config_field(f, cfg, "dynamicSmemBytes");
        if (g)
            x_value_dim3(f, g, "grid size", &l->grid);
        if (b)
            x_value_dim3(f, b, "block size", &l->block);
        if (s)
            x_value(f, s, "dynamic shared memory size", &l->smem);
        else
            value_absent(&l->smem, 0);
        if (!g || !b)
            l->why_not = xstrdup("the launch configuration is not visible (set its gridDim and "
                                 "blockDim in this function)");
        cluster_from_config(f, config_field(f, cfg, "attrs"), l);
    } else {
        expand_call(ss, f, n);
    }
    free(name);
}

/* The launches this call makes note the constants their values were
 * computed from (those a wrapper's launches inside it noted for
 * themselves). */
static void scan_call(scan_state *ss, fn_ctx *f, cnode *n)
{
    cusrc_unit *u = ss->t->u;
    size_t first = u->n_launches;
    folded_list rec = {0};
    folded_list *saved = f->record;
    f->record = &rec;
    scan_call_at(ss, f, n);
    f->record = saved;
    for (size_t i = first; i < u->n_launches; i++) {
        cusrc_launch *l = &u->launches[i];
        if (l->sizes_from || !rec.n || strcmp(l->function, f->name))
            continue;
        l->sizes_from = xcalloc((size_t)rec.n, sizeof *l->sizes_from);
        folded_list into = {l->sizes_from, 0, rec.n};
        for (int k = 0; k < rec.n; k++)
            folded_add(&into, &rec.v[k]);
        l->sizes_from = into.v;
        l->n_sizes_from = into.n;
    }
    folded_free(&rec);
    sweep_launches(ss, f, n, first);
}

static void scan_tree(scan_state *s, fn_ctx *f, cnode *n, int depth)
{
    if (depth > CN_MAX_DEPTH)
        return;
    if (n->kind == CXCursor_CallExpr)
        scan_call(s, f, n);
    else if (n->kind == CXCursor_DeclRefExpr) {
        CXCursor r = clang_getCursorReferenced(n->cur);
        if (r.kind == CXCursor_FunctionDecl)
            kern_note_instantiation(s->t, r);
        if (f->name && !strcmp(f->name, CUSRC_EXPLICIT_FN))
            expand_ref(s, r);
    }
    for (int i = 0; i < n->n_kids; i++)
        scan_tree(s, f, n->kids[i], depth + 1);
}

/* Identity of a function: the mangled name of an instantiation, else the USR. */
static char *fn_key(CXCursor fn)
{
    if (!clang_Cursor_isNull(clang_getSpecializedCursorTemplate(fn)))
        return cx_str(clang_Cursor_getMangling(fn));
    return cx_str(clang_getCursorUSR(fn));
}

bool scan_is_called(const scan_state *s, const char *key)
{
    for (size_t i = 0; i < s->n_called; i++)
        if (!strcmp(s->called[i], key))
            return true;
    return false;
}

static void add_called(scan_state *s, char *key)
{
    if (!key[0] || scan_is_called(s, key)) {
        free(key);
        return;
    }
    GROW(s->called, s->n_called, s->cap_called);
    s->called[s->n_called++] = key;
}

/* A function of the main file worth following into from a call: host code
 * that may launch kernels. */
static bool expandable(scan_state *s, CXCursor fn, CXCursor *def)
{
    enum CXCursorKind k = clang_getCursorKind(fn);
    if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod)
        return false;
    *def = clang_getCursorDefinition(fn);
    if (clang_Cursor_isNull(*def) || (!cn_in_main(s->t, *def) && !cn_in_user_header(s->t, *def)))
        return false;
    if (cn_has_attr(*def, CXCursor_CUDAGlobalAttr))
        return false;
    if (cn_has_attr(*def, CXCursor_CUDADeviceAttr) && !cn_has_attr(*def, CXCursor_CUDAHostAttr))
        return false;
    /* A lambda's body is scanned as part of the function that holds it. */
    if (k == CXCursor_CXXMethod) {
        CXCursor cls = clang_getCursorSemanticParent(*def);
        char *cn = cn_spelling(cls);
        bool lambda = !strncmp(cn, "(lambda", 7) || !cn[0];
        free(cn);
        if (lambda)
            return false;
    }
    return true;
}

enum CXChildVisitResult scan_called_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    scan_state *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr || (k == CXCursor_DeclRefExpr && s->in_explicit_refs)) {
        CXCursor fn = clang_getCursorReferenced(c), def;
        if (!clang_Cursor_isNull(fn) && expandable(s, fn, &def)) {
            add_called(s, fn_key(fn));
            CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
            if (!clang_Cursor_isNull(tmpl))
                add_called(s, cx_str(clang_getCursorUSR(tmpl)));
        }
    }
    return CXChildVisit_Recurse;
}

/* A call the following stops at, noted once by its text and line: the
 * launches below it (if any) are not found. */
static void unfollowed(scan_state *s, cnode *call, const char *why)
{
    if (s->n_unfollowed++ >= 3)
        return;
    char *text = cn_text_trunc(s->t, call->cur, 60);
    src_loc l = {0};
    cn_loc(s->t, call->cur, &l);
    sbuf_addf(&s->unfollowed, "%s'%s' (line %d, %s)", s->n_unfollowed > 1 ? ", " : "",
              text ? text : "?", l.line, why);
    free(text);
    free(l.file);
}

void scan_note_unfollowed(scan_state *s)
{
    if (!s->n_unfollowed)
        return;
    tu_note(s->t,
            "%d host call%s where following the calls to the launches stops or may go wrong, so "
            "launches below %s may be missing or not the ones that run: %s%s",
            s->n_unfollowed, s->n_unfollowed == 1 ? "" : "s", s->n_unfollowed == 1 ? "it" : "them",
            sbuf_str(&s->unfollowed), s->n_unfollowed > 3 ? ", ..." : "");
}

/* A call whose callee the following cannot name: through a pointer to a
 * function (a variable, parameter or field), or a virtual method, whose
 * override is chosen at run time. */
static void note_indirect(scan_state *s, cnode *call)
{
    CXCursor fn = clang_getCursorReferenced(call->cur);
    enum CXCursorKind k = clang_getCursorKind(fn);
    if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl || k == CXCursor_FieldDecl) {
        CXType t = clang_getCanonicalType(clang_getCursorType(fn));
        if (t.kind == CXType_Pointer)
            t = clang_getCanonicalType(clang_getPointeeType(t));
        if (t.kind == CXType_FunctionProto || t.kind == CXType_FunctionNoProto)
            unfollowed(s, call, "through a function pointer: not followed");
    } else if (k == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(fn)) {
        CXCursor def = clang_getCursorDefinition(fn);
        if (!clang_Cursor_isNull(def) && (cn_in_main(s->t, def) || cn_in_user_header(s->t, def)))
            unfollowed(s, call,
                       "a virtual method: followed into the one declared, which an override "
                       "may replace at run time");
    }
}

/* Launch wrappers (`void run(int n) { k<<<(n + 255) / 256, 256>>>(...); }`)
 * are followed from their call sites with the arguments bound, so that the
 * launch sees main's constants; each call site gives its own launch. */
static void expand_call(scan_state *s, fn_ctx *f, cnode *call)
{
    CXCursor fn = clang_getCursorReferenced(call->cur), def;
    note_indirect(s, call);
    if (s->t->collect_calls && !clang_Cursor_isNull(fn) &&
        clang_Cursor_isNull(clang_getCursorDefinition(fn))) {
        expr *reach = launch_reach(f, call);
        xcall_collect(s, f, call, reach);
        expr_free(reach);
        return;
    }
    if (clang_Cursor_isNull(fn) || s->depth >= SCAN_MAX_DEPTH || s->budget <= 0 ||
        !expandable(s, fn, &def))
        return;
    char *key = fn_key(fn);
    for (int i = 0; i < s->depth; i++)
        if (!strcmp(s->stack[i], key)) {
            free(key);
            unfollowed(s, call, "recursive: not followed again");
            return;
        }
    /* Fortran-style drivers take a parameter per array and size (HeCBench's
     * ddbp: 19): as many as a call across units binds. */
    param_binding *pb = xcalloc(XCALL_MAX_ARGS, sizeof *pb);
    int n = x_bind_args(f, call, def, pb, XCALL_MAX_ARGS);
    if (n < 0)
        unfollowed(s, call, "its parameters are more than gpulint binds, or not all named");
    obj_fields self = {0};
    bool method = clang_getCursorKind(fn) == CXCursor_CXXMethod && !clang_CXXMethod_isStatic(fn);
    bool known = method && x_call_object(f, call, &self);
    if (n >= 0) {
        /* A method walked on an object: what the object holds goes in. */
        bind_frame fr = {pb, n, NULL, method, known ? &self : NULL};
        s->reach[s->depth] = launch_reach(f, call);
        host_loops_of(f, call, &s->loops[s->depth]);
        s->stack[s->depth++] = key;
        scan_function(s, def, &fr);
        s->depth--;
        expr_free(s->reach[s->depth]);
        s->reach[s->depth] = NULL;
        host_loops_free(&s->loops[s->depth]);
        x_unbind(pb, n);
    }
    free(pb);
    obj_free(&self);
    free(key);
}

/* An explicitly instantiated host function, named by gpulint's appended
 * function: its instantiated body is scanned as if it were called, with
 * nothing bound (its callers are elsewhere). */
static void expand_ref(scan_state *s, CXCursor fn)
{
    CXCursor def;
    if (clang_Cursor_isNull(clang_getSpecializedCursorTemplate(fn)) || s->depth >= SCAN_MAX_DEPTH ||
        s->budget <= 0 || !expandable(s, fn, &def))
        return;
    char *key = fn_key(fn);
    memset(&s->loops[s->depth], 0, sizeof s->loops[s->depth]);
    s->stack[s->depth++] = key;
    scan_function(s, def, NULL);
    s->depth--;
    free(key);
}

void scan_function(scan_state *s, CXCursor fn, bind_frame *binds)
{
    if (s->budget-- <= 0)
        return;
    cnode *root = cn_build(fn);
    fn_ctx f;
    fn_init(&f, s->t, root, false);
    f.bindings = binds;
    s->names[s->depth] = f.name;
    scan_tree(s, &f, root, 0);
    fn_free(&f);
    cn_free(root);
}

static bool text_same(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static bool expr_same(const expr *a, const expr *b)
{
    if (!a || !b)
        return a == b;
    char *x = expr_to_string(a), *y = expr_to_string(b);
    bool same = !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

static bool value_same(const cusrc_value *a, const cusrc_value *b)
{
    if (a->present != b->present || a->known != b->known)
        return false;
    if (a->known)
        return a->value == b->value;
    return expr_same(a->e, b->e) && text_same(a->why, b->why);
}

static bool dim3_same(const cusrc_dim3 *a, const cusrc_dim3 *b)
{
    return a->present == b->present && value_same(&a->x, &b->x) && value_same(&a->y, &b->y) &&
           value_same(&a->z, &b->z);
}

/* Everything the analyses read, but the reach and the path. */
static bool launch_same(const cusrc_launch *a, const cusrc_launch *b)
{
    if (a->kind != b->kind || a->kernel != b->kernel || a->n_args != b->n_args ||
        a->loc.line != b->loc.line || a->loc.column != b->loc.column ||
        !text_same(a->loc.file, b->loc.file) || !text_same(a->kernel_name, b->kernel_name) ||
        !text_same(a->mangled, b->mangled) || !text_same(a->targs_text, b->targs_text) ||
        !text_same(a->stream, b->stream) || !text_same(a->pointer, b->pointer) ||
        !text_same(a->why_not, b->why_not) || !dim3_same(&a->grid, &b->grid) ||
        !dim3_same(&a->block, &b->block) || !value_same(&a->smem, &b->smem))
        return false;
    for (int i = 0; i < a->n_args; i++)
        if (!value_same(&a->args[i], &b->args[i]))
            return false;
    if (a->n_arg_fields != b->n_arg_fields)
        return false;
    for (int i = 0; i < a->n_arg_fields; i++)
        if (strcmp(a->arg_fields[i].name, b->arg_fields[i].name) ||
            a->arg_fields[i].value != b->arg_fields[i].value)
            return false;
    return true;
}

void scan_merge_launches(cusrc_tu *t)
{
    cusrc_unit *u = t->u;
    size_t kept = 0;
    for (size_t i = 0; i < u->n_launches; i++) {
        cusrc_launch *l = &u->launches[i];
        size_t into = 0;
        while (into < kept && !(text_same(t->launch_usr[into], t->launch_usr[i]) &&
                                launch_same(&u->launches[into], l)))
            into++;
        if (into == kept) {
            t->launch_usr[kept] = t->launch_usr[i];
            u->launches[kept++] = *l;
            continue;
        }
        /* It runs where any of its paths runs. */
        cusrc_launch *m = &u->launches[into];
        if (!m->reach || !l->reach) {
            expr_free(m->reach);
            m->reach = NULL;
        } else if (!expr_same(m->reach, l->reach)) {
            m->reach = expr_binary(OP_LOR, m->reach, l->reach);
            l->reach = NULL;
        }
        int both = m->call_paths + l->call_paths;
        m->paths = xrealloc(m->paths, (size_t)both * sizeof *m->paths);
        memcpy(m->paths + m->call_paths, l->paths, (size_t)l->call_paths * sizeof *l->paths);
        m->call_paths = both;
        free(l->paths);
        l->paths = NULL;
        l->call_paths = 0;
        free(t->launch_usr[i]);
        cusrc_launch_free(l);
    }
    u->n_launches = kept;
}
