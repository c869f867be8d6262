/* cusrc_eval: turns C++ expressions into expr trees. Constant parts are
 * folded with libclang's own evaluator (so macros, constexpr, enumerators,
 * template arguments and sizeof come out exactly as the compiler sees
 * them); the rest becomes builtins (threadIdx.x ...), named symbols for
 * values that are the same across a warp or unknown at compile time, or
 * EX_UNKNOWN with a reason. Locals that are set once are replaced by their
 * initialiser, so `int idx = blockIdx.x * blockDim.x + tid;` reads as the
 * formula and not as a name. On the host side the same machinery evaluates
 * launch configurations and explains the values that are not constant. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

static expr *unknownf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static expr *unknownf(const char *fmt, ...)
{
    sbuf b;
    sbuf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sbuf_vaddf(&b, fmt, ap);
    va_end(ap);
    expr *e = expr_unknown(sbuf_str(&b));
    sbuf_free(&b);
    return e;
}

expr *x_conj(expr *a, expr *b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return expr_binary(OP_LAND, a, b);
}

static bool tree_has_unknown(const expr *e)
{
    if (!e)
        return false;
    if (e->kind == EX_UNKNOWN)
        return true;
    return tree_has_unknown(e->a) || tree_has_unknown(e->b) || tree_has_unknown(e->c) ||
           tree_has_unknown(e->d);
}

static loop_frame *active_loop(fn_ctx *f, const var_info *v)
{
    for (int i = f->n_loops - 1; i >= 0; i--)
        if (f->loops[i]->var == v)
            return f->loops[i];
    return NULL;
}

static loop_frame *loop_by_name(fn_ctx *f, const char *name)
{
    for (int i = f->n_loops - 1; i >= 0; i--)
        if (f->loops[i]->ctx.var && strcmp(f->loops[i]->ctx.var, name) == 0)
            return f->loops[i];
    return NULL;
}

/* A loop counter is per lane where its start or step is; its own name in
 * its step (`j + 1`) is the counter again, not a new question. */
static bool per_lane(fn_ctx *f, const expr *e, int depth, const char *counter)
{
    if (!e || depth > 16)
        return depth > 16;
    switch (e->kind) {
    case EX_CONST:
        return false;
    case EX_UNKNOWN:
        return true;
    case EX_SYM:
        if (e->builtin == SYM_TID_X || e->builtin == SYM_TID_Y || e->builtin == SYM_TID_Z)
            return true;
        if (e->builtin == SYM_NAMED && e->name) {
            if (counter && !strcmp(counter, e->name))
                return false;
            loop_frame *l = loop_by_name(f, e->name);
            if (l)
                return per_lane(f, l->ctx.init, depth + 1, e->name) ||
                       per_lane(f, l->ctx.next, depth + 1, e->name);
        }
        return false;
    default:
        return per_lane(f, e->a, depth, counter) || per_lane(f, e->b, depth, counter) ||
               per_lane(f, e->c, depth, counter) || per_lane(f, e->d, depth, counter);
    }
}

bool x_is_per_lane(fn_ctx *f, const expr *e)
{
    return per_lane(f, e, 0, NULL);
}

static expr *x_rec(fn_ctx *f, cnode *n);

expr *x_file_global(cusrc_tu *t, CXCursor var, int *line, bool *in_main)
{
    char *usr = cx_str(clang_getCursorUSR(var));
    for (size_t i = 0; i < t->n_globals; i++)
        if (!strcmp(t->globals[i].usr, usr)) {
            free(usr);
            *line = t->globals[i].line;
            *in_main = t->globals[i].in_main;
            return t->globals[i].value ? expr_clone(t->globals[i].value) : NULL;
        }
    /* Entered before it is evaluated: a global whose value reads itself
     * (through others) finds it, without a value, and stops. */
    GROW(t->globals, t->n_globals, t->cap_globals);
    size_t at = t->n_globals++;
    memset(&t->globals[at], 0, sizeof t->globals[at]);
    t->globals[at].usr = usr;
    cnode *value;
    bool from_main;
    cnode *tree = global_site(t, var, &value, &from_main);
    expr *found = NULL;
    int set_at = 0;
    if (tree) {
        fn_ctx g;
        fn_init(&g, t, tree, false);
        expr *e = x_expr(&g, value);
        found = expr_simplify(e);
        expr_free(e);
        if (found->kind != EX_CONST) {
            expr_free(found);
            found = NULL;
        } else {
            src_loc l = {0};
            cn_loc(t, value->cur, &l);
            set_at = l.line;
            free(l.file);
        }
        fn_free(&g);
        cn_free(tree);
    }
    struct global_memo *m = &t->globals[at]; /* the evaluation may have grown them */
    m->value = found;
    m->line = *line = set_at;
    m->in_main = *in_main = from_main;
    return found ? expr_clone(found) : NULL;
}
static expr *dim3_rec(fn_ctx *f, cnode *n, int comp);

#define X_BUDGET 50000

/* Entry points start a fresh budget; nested translations share it. */
static void start_budget(fn_ctx *f)
{
    if (f->depth == 0)
        f->budget = X_BUDGET;
}

/* An expression that ran out of budget is dropped whole: a partial tree
 * would only look meaningful. */
static expr *end_budget(fn_ctx *f, expr *e)
{
    if (f->depth == 0 && f->budget < 0) {
        expr_free(e);
        return expr_unknown("expression too large to follow");
    }
    return e;
}

/* Forgets origins noted while trying a substitution that was given up. */
static void origin_reset(fn_ctx *f, size_t mark)
{
    sbuf_truncate(&f->origin, mark);
}

static expr *bound_param(fn_ctx *f, CXCursor parm)
{
    for (bind_frame *fr = f->bindings; fr; fr = fr->up)
        for (int i = 0; i < fr->n; i++)
            if (clang_equalCursors(fr->b[i].parm, parm)) {
                expr *e = expr_clone(fr->b[i].value);
                if (fr->b[i].origin && !f->origin.len && e->kind != EX_CONST)
                    sbuf_add(&f->origin, fr->b[i].origin);
                for (int k = 0; f->record && k < fr->b[i].folded.n; k++)
                    folded_add(f->record, &fr->b[i].folded.v[k]);
                return e;
            }
    return NULL;
}

int x_bind_args(fn_ctx *f, cnode *call, CXCursor def, param_binding *out, int max)
{
    cnode *args[64];
    int np = cn_call_args(call, def, args, max < 64 ? max : 64);
    if (np < 0)
        return -1;
    return x_bind_arg_nodes(f, call, def, args, np, out);
}

int x_bind_arg_nodes(fn_ctx *f, cnode *call, CXCursor def, cnode **args, int np, param_binding *out)
{
    for (int i = 0; i < np; i++) {
        out[i].parm = clang_Cursor_getArgument(def, (unsigned)i);
        out[i].fn = clang_getNullCursor();
        if (args[i])
            x_named_function(f, args[i], &out[i].fn);
        start_budget(f);
        sbuf saved = f->origin;
        sbuf_init(&f->origin);
        memset(&out[i].folded, 0, sizeof out[i].folded);
        folded_list *record = f->record;
        f->record = f->device ? NULL : &out[i].folded;
        out[i].value =
            args[i] ? end_budget(f, x_rec(f, args[i])) : expr_unknown("default argument");
        x_bind_fields(f, call, args[i], &out[i]);
        out[i].has_fvalue = args[i] && x_float_param(f, out[i].parm, args[i], &out[i].fvalue);
        out[i].argv = args[i] && !f->device && x_names_main_argv(f, args[i]);
        memset(&out[i].obj, 0, sizeof out[i].obj);
        if (args[i] && !f->device)
            x_object(f, args[i], &out[i].obj);
        f->record = record;
        out[i].origin = f->origin.len ? sbuf_take(&f->origin) : NULL;
        sbuf_free(&f->origin);
        f->origin = saved;
    }
    return np;
}

bool x_named_function(const fn_ctx *f, cnode *n, CXCursor *fn)
{
    n = cn_strip_casts(n);
    while (n && n->kind == CXCursor_UnaryOperator &&
           clang_getCursorUnaryOperatorKind(n->cur) == CXUnaryOperator_AddrOf && n->n_kids == 1)
        n = cn_strip_casts(n->kids[0]);
    if (!n || n->kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor r = clang_getCursorReferenced(n->cur);
    if (r.kind == CXCursor_FunctionDecl) {
        *fn = r;
        return true;
    }
    if (r.kind != CXCursor_ParmDecl)
        return false;
    for (const bind_frame *fr = f ? f->bindings : NULL; fr; fr = fr->up)
        for (int i = 0; i < fr->n; i++)
            if (clang_equalCursors(fr->b[i].parm, r)) {
                if (fr->b[i].fn.kind != CXCursor_FunctionDecl)
                    return false;
                *fn = fr->b[i].fn;
                return true;
            }
    return false;
}

void x_unbind(param_binding *b, int n)
{
    for (int i = 0; i < n; i++) {
        expr_free(b[i].value);
        free(b[i].origin);
        folded_free(&b[i].folded);
        for (int k = 0; k < b[i].n_fields; k++)
            free(b[i].fields[k].name);
        obj_free(&b[i].obj);
    }
}

/* The value a variable is set to by one of its assignments (for compound
 * assignments, in terms of the variable itself). */
expr *x_assign_value(fn_ctx *f, var_info *v, cnode *a)
{
    start_budget(f);
    if (a->kind == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(a->cur);
        bool inc = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc;
        return expr_binary(inc ? OP_ADD : OP_SUB, expr_named(v->name), expr_const(1));
    }
    if (a->kind == CXCursor_CallExpr)
        return unknownf("'%s' is assigned through an operator", v->name);
    if (a->n_kids != 2)
        return unknownf("odd assignment to '%s'", v->name);
    enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(a->cur);
    expr *rhs = x_rec(f, a->kids[1]);
    if (k == CXBinaryOperator_Assign)
        return rhs;
    bool ok;
    expr_op op = cn_binop(k, &ok);
    if (!ok) {
        expr_free(rhs);
        return unknownf("odd assignment to '%s'", v->name);
    }
    return expr_binary(op, expr_named(v->name), rhs);
}

/* On the host, an arm of an if whose condition is a constant (argc, a
 * --run-args value, a literal): -1 when it is left out, 1 when taken. */
static int host_arm(void *ctx, const cnode *ifstmt, const cnode *arm)
{
    /* A condition that reads the variable again asks again: once is enough. */
    static _Thread_local int depth;
    fn_ctx *f = ctx;
    const cnode *cond;
    int in_else = x_if_arm(ifstmt, arm, &cond);
    if (f->device || depth > 0 || in_else < 0)
        return 0;
    size_t mark = f->origin.len;
    depth++;
    expr *raw = x_rec(f, (cnode *)cond);
    depth--;
    expr *e = expr_simplify(raw);
    expr_free(raw);
    origin_reset(f, mark);
    int taken = 0;
    if (e && e->kind == EX_CONST)
        taken = (e->value != 0) == !in_else ? 1 : -1;
    expr_free(e);
    return taken;
}

/* The value definition d of v gives. */
static expr *def_value(fn_ctx *f, var_info *v, cnode *d)
{
    if (d == v->decl_node)
        return x_rec(f, v->init);
    if (d->kind == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(d->cur);
        expr *before = x_value_at(f, v, d);
        if (!before)
            return NULL;
        bool inc = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc;
        return expr_binary(inc ? OP_ADD : OP_SUB, before, expr_const(1));
    }
    if ((d->kind != CXCursor_BinaryOperator && d->kind != CXCursor_CompoundAssignOperator) ||
        d->n_kids != 2)
        return NULL;
    enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(d->cur);
    if (k == CXBinaryOperator_Assign)
        return x_rec(f, d->kids[1]);
    bool ok;
    expr_op op = cn_binop(k, &ok);
    if (!ok)
        return NULL;
    expr *before = x_value_at(f, v, d);
    if (!before)
        return NULL;
    return expr_binary(op, before, x_rec(f, d->kids[1]));
}

static expr *param_entry(fn_ctx *f, CXCursor parm, var_info *v, const char *name, cnode *use);
static expr *arm_choice(fn_ctx *f, var_info *v, cnode *ifs, cnode *top);

/* v's value after an arm of a choosing if; top: the outermost such if,
 * whose value before stands for an arm that assigns nothing (NULL where
 * it may not). */
static expr *arm_value(fn_ctx *f, var_info *v, cnode *arm, cnode *top)
{
    cnode *d;
    switch (x_arm_def(v, arm, &d)) {
    case 0:
        return top ? x_value_at(f, v, top) : NULL;
    case 1:
        return def_value(f, v, d);
    case 2:
        return arm_choice(f, v, d, top);
    default:
        return NULL;
    }
}

static expr *arm_choice(fn_ctx *f, var_info *v, cnode *ifs, cnode *top)
{
    const cnode *cond;
    int ci = ifs->n_kids >= 3 ? ifs->n_kids - 3 : 0;
    if (x_if_arm(ifs, ifs->kids[ci + 1], &cond) < 0)
        return NULL;
    cnode *other = ci + 2 < ifs->n_kids ? ifs->kids[ci + 2] : NULL;
    expr *then = arm_value(f, v, ifs->kids[ci + 1], top);
    expr *otherwise = !then   ? NULL
                      : other ? arm_value(f, v, other, top)
                      : top   ? x_value_at(f, v, top)
                              : NULL;
    if (!otherwise) {
        expr_free(then);
        return NULL;
    }
    return expr_cond(x_rec(f, (cnode *)cond), then, otherwise);
}

expr *x_value_at(fn_ctx *f, var_info *v, cnode *use)
{
    cnode *d = x_reaching_def(v, use, host_arm, f);
    if (d)
        return def_value(f, v, d);
    if (v->is_param && !f->device && x_entry_reaches(v, use, host_arm, f))
        return param_entry(f, v->decl, v, v->name, use);
    /* An if whose arms choose the value (host code that clamps a size,
     * `if (n < threads) threads = n;`; a kernel's `if (w == h) bx = ...;
     * else bx = ...;`): the condition's choice, kept symbolic until the
     * condition has values. */
    bool before_reaches;
    cnode *ifs = x_choosing_if(v, use, host_arm, f, &before_reaches);
    if (ifs)
        return arm_choice(f, v, ifs, before_reaches ? ifs : NULL);
    cnode *loop = f->device ? NULL : x_defining_loop(v, use, host_arm, f);
    static const x_loop_eval ev = {x_value_at, x_expr, x_assign_value};
    size_t mark = f->origin.len;
    expr *e = loop ? x_run_host_loop(f, v, loop, &ev) : NULL;
    /* main's own option loop (`while ((c = getopt(...)) != -1)`, a loop
     * over argv), run on --run-args: the value it leaves, or the one it
     * had before. */
    int64_t parsed;
    bool written;
    sbuf why;
    sbuf_init(&why);
    int ran = !e && loop ? x_run_main_options(f, loop, v->decl, &parsed, &written, &why) : -1;
    if (ran >= 0) {
        cnode *before = ran && !written ? x_reaching_def(v, loop, host_arm, f) : NULL;
        e = !ran ? NULL : written ? expr_const(parsed) : before ? def_value(f, v, before) : NULL;
        origin_reset(f, mark);
        if (!ran && !f->origin.len) {
            src_loc at = {0};
            cn_loc(f->t, loop->cur, &at);
            sbuf_addf(&f->origin,
                      "depends on '%s', set by main's option loop (line %d), run on "
                      "--run-args until %s",
                      v->name, at.line, sbuf_str(&why));
            free(at.file);
        }
    }
    sbuf_free(&why);
    return e;
}

/* A host local's value e: where part of it is unknown, the local stays a
 * name (with why in f->origin), unless the unknown part lies in an arm its
 * constant condition leaves out (`argc > 4 ? atoi(argv[4]) : 256`). */
/* set: where v got the value (an assignment, the parser's call), listed
 * among the sizes; NULL for its declaration. */
static expr *host_value(fn_ctx *f, var_info *v, expr *e, size_t mark, const cnode *set)
{
    if (!f->device)
        folded_note(f, v, e, set);
    if (f->device || !tree_has_unknown(e))
        return e;
    expr *s = expr_simplify(e);
    expr_free(e);
    if (!tree_has_unknown(s)) {
        origin_reset(f, mark);
        return s;
    }
    expr_free(s);
    origin_reset(f, mark);
    x_note_origin(f, v, v->name);
    return expr_named(v->name);
}

/* An assignment in an arm of an if whose condition differs between
 * threads runs in some lanes only: the local it sets differs between
 * them afterwards, whatever value it assigns (a binary search's `high =
 * mid` where the lane's own key decided). A value read from memory counts
 * as differing; the local's own name in the condition as not (the
 * optimistic answer the uniformity check then confirms or refutes). */
static bool under_lane_if(fn_ctx *f, const var_info *v, const cnode *a)
{
    for (const cnode *p = a->parent; p && p != f->root; p = p->parent) {
        /* An if around the local's declaration too: every lane that uses
         * it went the same way (`if (i < n) { int k = ..; k = j++; }`). */
        if (p->kind != CXCursor_IfStmt || p->n_kids < 2 || cn_inside(a, p->kids[0]) ||
            (v->decl_node && cn_inside(v->decl_node, p)))
            continue;
        expr *c = x_rec(f, p->kids[0]);
        bool lane = x_is_per_lane(f, c);
        expr_free(c);
        if (lane)
            return true;
    }
    return false;
}

static expr *local_var(fn_ctx *f, var_info *v, cnode *use)
{
    if (active_loop(f, v))
        return expr_named(v->name);
    if (v->visiting)
        return expr_named(v->name);
    if (v->loop && f->device)
        return v->exit_value && x_after_loop(v, use)
                   ? expr_clone(v->exit_value)
                   : unknownf("'%s' is used after its loop", v->name);
    if (v->is_shared) {
        expr *b = x_shared_broadcast(f, v, use);
        return b ? b : unknownf("value read from shared memory ('%s')", v->name);
    }
    /* A static local the function writes keeps what an earlier call left:
     * its definitions in this call are not all there is. */
    if (v->n_assigns && clang_Cursor_getStorageClass(v->decl) == CX_SC_Static) {
        if (f->device)
            return unknownf("'%s' is a static local its function writes", v->name);
        if (!f->origin.len)
            sbuf_addf(&f->origin,
                      "depends on '%s', a static local its function writes (an earlier call's "
                      "value carries over)",
                      v->name);
        return expr_named(v->name);
    }
    /* An address no call that reaches use was handed leaves the local's
     * definitions its own there. */
    if (!f->device && v->addr_taken && x_address_unused_at(f, v, use)) {
        v->addr_taken = false;
        expr *e = local_var(f, v, use);
        v->addr_taken = true;
        return e;
    }
    /* Handed before use to a reference a callee may write through: the
     * value the callee leaves, where it reads the options, else a name
     * (in a kernel, a value not known: `twice(stride)` doubles it). */
    cnode *ref = v->is_param ? NULL : x_ref_call_reaching(f, v, use, f->device ? NULL : host_arm);
    if (ref && f->device) {
        char *callee = cn_ref_name(ref->cur);
        expr *e =
            unknownf("'%s' is handed to '%s' by a reference it may write through", v->name, callee);
        free(callee);
        return e;
    }
    if (ref) {
        expr *parsed = x_parsed_value(f, v, use);
        if (parsed)
            return host_value(f, v, parsed, f->origin.len, v->parsed_by);
        x_note_origin(f, v, v->name);
        return expr_named(v->name);
    }
    if (v->n_assigns > 0) {
        size_t mark = f->origin.len;
        expr *e = x_value_at(f, v, use);
        if (e) {
            /* Where no one assignment reaches use, the loop that set v
             * last (run for its value) is where it came from. */
            const cnode *set = x_reaching_def(v, use, host_arm, f);
            return host_value(f, v, e, mark, set ? set : x_defining_loop(v, use, host_arm, f));
        }
    }
    if (!v->addr_taken && v->n_assigns == 0 && v->init) {
        size_t mark = f->origin.len;
        v->visiting++;
        expr *e = x_rec(f, v->init);
        v->visiting--;
        return host_value(f, v, e, mark, NULL);
    }
    if (!v->addr_taken && v->n_assigns == 1 && !v->init &&
        v->assigns[0]->kind == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(v->assigns[0]->cur) == CXBinaryOperator_Assign) {
        size_t mark = f->origin.len;
        v->visiting++;
        expr *e = x_rec(f, v->assigns[0]->kids[1]);
        v->visiting--;
        return host_value(f, v, e, mark, v->assigns[0]);
    }
    if (!f->device) {
        expr *parsed = x_parsed_value(f, v, use);
        if (parsed)
            return host_value(f, v, parsed, f->origin.len, v->parsed_by);
        expr *attr = v->addr_taken && !v->n_assigns ? x_device_attribute(f, v) : NULL;
        if (attr)
            return attr;
        x_note_origin(f, v, v->name);
        return expr_named(v->name);
    }
    if (v->addr_taken)
        return unknownf("the address of '%s' is taken", v->name);
    if (!v->init && v->n_assigns == 0)
        return unknownf("'%s' is not initialised", v->name);
    /* Reassigned in the kernel: usable as a name only when every value it
     * takes is the same in all lanes, so that it shifts lanes alike. */
    if (v->uniform == 0) {
        v->visiting++;
        bool lane = false;
        if (v->init) {
            expr *e = x_rec(f, v->init);
            lane = x_is_per_lane(f, e);
            expr_free(e);
        }
        for (int i = 0; !lane && i < v->n_assigns; i++) {
            expr *e = x_assign_value(f, v, v->assigns[i]);
            lane = x_is_per_lane(f, e) || under_lane_if(f, v, v->assigns[i]);
            expr_free(e);
        }
        v->visiting--;
        v->uniform = lane ? 2 : 1;
    }
    if (v->uniform == 1)
        return expr_named(v->name);
    static const x_induct_eval ev = {x_expr, x_is_per_lane};
    expr *moved = x_advanced_local(f, v, use, &ev);
    return moved ? moved : unknownf("'%s' is reassigned and differs between threads", v->name);
}

/* Why a struct field the host reads has no value, as specific as the
 * rules allow: a call that may change it, a pointer through which it may
 * be written, a second assignment, an assignment that does not always run
 * before the use. */
static void field_origin(fn_ctx *f, cnode *n, const char *path)
{
    cnode *base = n->n_kids ? cn_strip(n->kids[0]) : NULL;
    var_info *v = base && base->kind == CXCursor_DeclRefExpr
                      ? fn_var(f, clang_getCursorReferenced(base->cur))
                      : NULL;
    char *field = cn_spelling(n->cur);
    int count = 0;
    cnode *a = v ? fn_member_assign(v, field, &count) : NULL;
    unsigned from = a ? cn_spelled_at(a->cur) : 0, to = cn_spelled_at(n->cur);
    const cnode *c = v && (a || v->is_param) ? x_field_changer(f->root, v, from, to) : NULL;
    bool parsed =
        !c && v && !v->is_param && !v->n_assigns && x_parsed_why(f, v, field, path, &f->origin);
    free(field);
    if (parsed)
        return;
    sbuf_addf(&f->origin, "depends on '%s', ", path);
    if (c) {
        char *callee = cn_ref_name(c->cur);
        sbuf_addf(&f->origin, "handed at line %d to '%s', which may change it",
                  x_node_line(f, (cnode *)c), callee);
        free(callee);
    } else if (v && v->n_assigns) {
        sbuf_addf(&f->origin, "a field of a struct assigned as a whole at line %d",
                  x_node_line(f, v->assigns[0]));
    } else if (v && !v->is_param && x_fields_escape(f, v)) {
        sbuf_addf(&f->origin, "a field of a struct that may be written through a pointer or "
                              "reference to it");
    } else if (count > 1) {
        sbuf_addf(&f->origin, "a field assigned %d times", count);
    } else if (a && from < to) {
        sbuf_addf(&f->origin,
                  "a field set at line %d, which does not run every time before this use",
                  x_node_line(f, a));
    } else {
        sbuf_add(&f->origin, "a field gpulint finds no constant value for");
    }
}

/* The same for every thread. */
char *x_member_path(const fn_ctx *f, cnode *n, int depth)
{
    n = cn_strip(n);
    if (!n || depth > 8)
        return NULL;
    if (n->kind == CXCursor_MemberRefExpr && f->this_path &&
        (!n->n_kids || cn_strip(n->kids[0])->kind == CXCursor_CXXThisExpr)) {
        char *field = cn_spelling(n->cur);
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "%s.%s", f->this_path, field);
        free(field);
        return sbuf_take(&b);
    }
    if (n->kind == CXCursor_DeclRefExpr) {
        CXCursor r = clang_getCursorReferenced(n->cur);
        if (r.kind != CXCursor_ParmDecl)
            return NULL;
        return cn_spelling(r);
    }
    if (n->kind == CXCursor_MemberRefExpr && n->n_kids >= 1) {
        CXType bt = clang_getCanonicalType(clang_getCursorType(cn_strip(n->kids[0])->cur));
        if (bt.kind == CXType_Pointer) /* p->x reads memory */
            return f->device ? x_param_pointee_path(f, n) : NULL;
        char *base = x_member_path(f, n->kids[0], depth + 1);
        if (!base)
            return NULL;
        char *field = cn_spelling(n->cur);
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "%s.%s", base, field);
        free(base);
        free(field);
        return sbuf_take(&b);
    }
    return NULL;
}

/* Small helpers written as `return <expr>;` (ceil_div, DIVUP as a
 * function...) are expanded with their arguments bound. A device index
 * reaches one through a few method calls and arms (a vectorized load's
 * `&ptr[idx]`, idx from `idx % ceildiv(n, 2)`); the expression budget,
 * not this depth, keeps a helper that calls itself in check. */
#define INLINE_MAX_DEPTH 24

/* node's value (with choices: the value of node, a body of ifs and
 * returns) with def's parameters bound to call's arguments. */
static expr *bound_value(fn_ctx *f, cnode *call, CXCursor def, cnode *node, bool choices)
{
    param_binding pb[8];
    int n = x_bind_args(f, call, def, pb, 8);
    if (n < 0)
        return NULL;
    bind_frame fr = {pb, n, f->bindings, false, NULL};
    f->bindings = &fr;
    f->depth++;
    expr *result = choices ? x_choice_value(f, node, x_rec) : x_rec(f, node);
    f->depth--;
    f->bindings = fr.up;
    x_unbind(pb, n);
    return result;
}

static expr *inline_call(fn_ctx *f, cnode *call, CXCursor fn)
{
    CXCursor def = clang_getCursorDefinition(fn);
    if (clang_Cursor_isNull(def))
        return NULL;
    int np = clang_Cursor_getNumArguments(def);
    int nargs = cn_n_expr_kids(call) - 1;
    if (np < 0 || np != nargs || np > 8)
        return NULL;
    cnode *tree = cn_build(def);
    cnode *body = NULL;
    for (int i = 0; i < tree->n_kids; i++)
        if (tree->kids[i]->kind == CXCursor_CompoundStmt)
            body = tree->kids[i];
    expr *result = NULL;
    bool one_line = body && body->n_kids == 1 && body->kids[0]->kind == CXCursor_ReturnStmt &&
                    body->kids[0]->n_kids == 1;
    if (one_line && f->depth <= INLINE_MAX_DEPTH)
        result = bound_value(f, call, def, body->kids[0]->kids[0], false);
    /* A device helper of ifs and returns alone (a clamp) is read where it
     * is called, as a one-line one is: per thread, as choices. */
    else if (!one_line && f->device && body && f->depth <= INLINE_MAX_DEPTH)
        result = bound_value(f, call, def, body, true);
    if (!result && !one_line)
        result = x_helper_value(f, call, def, tree, body);
    cn_free(tree);
    return result;
}

static expr *x_call(fn_ctx *f, cnode *n)
{
    CXCursor fn = clang_getCursorReferenced(n->cur);
    char *name = cn_spelling(fn);
    int nargs = cn_n_expr_kids(n) - 1;
    static const char *const mins[] = {"min", "umin", "llmin", "ullmin", NULL};
    static const char *const maxs[] = {"max", "umax", "llmax", "ullmax", NULL};
    static const char *const muls[] = {"__mul24", "__umul24", NULL};
    static const char *const pows[] = {"pow",       "powf",     "__powf", "__nv_fast_powf",
                                       "__nv_powf", "__nv_pow", NULL};
    expr *e = NULL;
    double v;
    bool up;
    int64_t arg;
    if (x_argv_int(f, n, name, &arg, &e)) {
        e = expr_const(arg);
    } else if (e) {
        /* argv[K] past the arguments given: e says so */
    } else if (nargs == 2 &&
               (cn_name_in(name, mins) || cn_name_in(name, maxs) || cn_name_in(name, muls))) {
        expr *a = x_rec(f, cn_expr_kid(n, 1));
        expr *b = x_rec(f, cn_expr_kid(n, 2));
        expr_op op = cn_name_in(name, mins) ? OP_MIN : cn_name_in(name, maxs) ? OP_MAX : OP_MUL;
        e = expr_binary(op, a, b);
    } else if (nargs == 1 && (strcmp(name, "abs") == 0 || strcmp(name, "labs") == 0 ||
                              strcmp(name, "llabs") == 0)) {
        expr *a = x_rec(f, cn_expr_kid(n, 1));
        e = expr_binary(OP_MAX, a, expr_unary(OP_NEG, expr_clone(a)));
    } else if (nargs == 1 && x_rounding_call(name, &up)) {
        e = x_float_value(f, n, 0, &v) && fabs(v) < 9.0e15
                ? expr_const((int64_t)v)
                : x_rounded_quotient(f, cn_expr_kid(n, 1), up);
    } else if (nargs == 1 && cn_float_kind(clang_getCursorType(n->cur)) >= 2 &&
               x_float_value(f, n, 0, &v) && v == floor(v) && fabs(v) < 9.0e15) {
        e = expr_const((int64_t)v); /* __log2f(16): an exact integer */
    } else if (nargs == 2 && cn_name_in(name, pows) && x_float_value(f, cn_expr_kid(n, 1), 0, &v) &&
               v == 2.0 && cn_strip_casts(cn_expr_kid(n, 2)) &&
               cn_type_is_integral(clang_getCursorType(cn_strip_casts(cn_expr_kid(n, 2))->cur))) {
        /* __powf(2, i) with an integer i is exactly 2^i (MUFU.EX2 of an
         * integer): 1 << i. */
        e = expr_binary(OP_SHL, expr_const(1), x_rec(f, cn_strip_casts(cn_expr_kid(n, 2))));
    } else if (fn.kind == CXCursor_Constructor && nargs == 1) {
        /* int(x), unsigned(x) spelled as a constructor call. */
        e = x_rec(f, cn_expr_kid(n, 1));
    } else if (fn.kind == CXCursor_FunctionDecl || fn.kind == CXCursor_FunctionTemplate) {
        e = inline_call(f, n, fn);
    } else if (fn.kind == CXCursor_CXXMethod && f->device) {
        e = x_cg_value(n, name);
    } else if (fn.kind == CXCursor_CXXMethod) {
        e = x_method_value(f, n, fn);
    }
    if (!e)
        e = unknownf("result of a call to '%s'", name[0] ? name : "a function");
    free(name);
    return e;
}

/* A parameter's value as the function is entered: its argument where the
 * call is followed, main's argc from --run-args, else its name. */
static expr *param_entry(fn_ctx *f, CXCursor parm, var_info *v, const char *name, cnode *use)
{
    expr *e = bound_param(f, parm);
    if (e)
        return e;
    if (f->t->run_args && !strcmp(name, "argc")) {
        char *owner = cn_spelling(clang_getCursorSemanticParent(parm));
        bool in_main = !strcmp(owner, "main");
        free(owner);
        if (in_main)
            return expr_const(f->t->n_run_args + 1);
    }
    if (v && v->n_assigns && f->device)
        return local_var(f, v, use);
    if (!f->device)
        x_note_origin(f, v, name);
    return expr_named(name);
}

/* A host parameter the function assigns (`n = (n + b - 1) / b * b;`
 * before sizing a launch with n): the definition that reaches the use,
 * the argument where none of the assignments can run before it; its name
 * where neither can be shown (an assignment in a loop or a branch). */
static expr *reassigned_param(fn_ctx *f, var_info *v, cnode *use)
{
    if (v->visiting)
        return expr_named(v->name);
    size_t mark = f->origin.len;
    expr *e = x_value_at(f, v, use);
    if (e)
        return host_value(f, v, e, mark, x_reaching_def(v, use, host_arm, f));
    if (!f->origin.len)
        sbuf_addf(&f->origin, "depends on '%s', a parameter of '%s' assigned in it (line %d)",
                  v->name, f->name, x_node_line(f, v->assigns[0]));
    return expr_named(v->name);
}

static expr *x_declref(fn_ctx *f, cnode *n)
{
    CXCursor r = clang_getCursorReferenced(n->cur);
    char *name = cn_spelling(r);
    expr *e = NULL;
    switch (r.kind) {
    case CXCursor_NonTypeTemplateParameter:
        e = expr_named(name);
        break;
    case CXCursor_ParmDecl: {
        var_info *v = fn_var(f, r);
        if (v && v->n_assigns && !f->device)
            e = reassigned_param(f, v, n);
        else
            e = param_entry(f, r, v, name, n);
        break;
    }
    case CXCursor_VarDecl: {
        if (strcmp(name, "warpSize") == 0 && f->device) {
            e = expr_builtin_sym(SYM_WARP_SIZE);
            break;
        }
        var_info *v = fn_var(f, r);
        int line;
        bool in_main;
        int64_t v64;
        src_loc set_at;
        if (v) {
            e = local_var(f, v, n);
        } else if (f->device) {
            e = unknownf("value of the global variable '%s'", name);
        } else if ((e = x_file_global(f->t, r, &line, &in_main)) != NULL) {
            if (f->record) {
                cusrc_size_from from = {
                    name, e->value, in_main ? "main" : "file scope", {NULL, line, 0}, false};
                folded_add(f->record, &from);
            }
        } else if (global_from_units(f->t, r, &v64, &set_at)) {
            e = expr_const(v64);
            if (f->record) {
                cusrc_size_from from = {name, v64, "file scope", set_at, false};
                folded_add(f->record, &from);
            }
        } else {
            if (clang_getCursorKind(clang_getCursorSemanticParent(r)) == CXCursor_TranslationUnit &&
                !f->origin.len)
                sbuf_addf(&f->origin,
                          "depends on '%s', a global variable set at run time (gpulint follows "
                          "a global's initializer, or one assignment at the top of main before "
                          "main calls anything)",
                          name);
            x_note_origin(f, NULL, name);
            e = expr_named(name);
        }
        break;
    }
    default:
        e = unknownf("'%s' is not a value gpulint can follow", name);
        break;
    }
    free(name);
    return e;
}

static expr *x_member(fn_ctx *f, cnode *n)
{
    expr_builtin b;
    if (cn_builtin_member(f->t, n, &b))
        return expr_builtin_sym(b);
    expr *own = f->device ? x_self_field(f, n) : NULL;
    if (own)
        return own;
    if (n->n_kids >= 1) {
        cnode *base = cn_strip(n->kids[0]);
        CXType bt = clang_getCursorType(base->cur);
        char *field = cn_spelling(n->cur);
        if (cn_is_dim3(bt) && field[0] >= 'x' && field[0] <= 'z' && !field[1]) {
            int comp = field[0] - 'x';
            free(field);
            return dim3_rec(f, base, comp);
        }
        if (base->kind == CXCursor_DeclRefExpr) {
            CXCursor r = clang_getCursorReferenced(base->cur);
            var_info *v = fn_var(f, r);
            expr *bf = v && v->is_param && !f->device ? x_param_field(f, v, field, n) : NULL;
            if (bf) {
                free(field);
                return bf;
            }
            expr *pf = v ? x_parsed_field(f, v, field, n) : NULL;
            if (pf) {
                free(field);
                return pf;
            }
            if (v && !f->device && v->n_member_assigns) {
                cnode *a = x_member_set_before(f, v, field, n);
                if (a && !v->n_assigns) {
                    free(field);
                    return x_rec(f, cn_assign_rhs(a));
                }
            }
            expr *sf = v ? x_setter_field(f, v, field, n) : NULL;
            if (!sf && v)
                sf = x_default_field(f, v, field, n);
            if (sf) {
                free(field);
                return sf;
            }
        }
        free(field);
    }
    expr *obj = x_object_field(f, n);
    if (obj)
        return obj;
    expr *prop = x_device_prop(f, n);
    if (prop)
        return prop;
    char *path = x_member_path(f, n, 0);
    if (!path && !f->device)
        path = cn_text(f->t, n->cur);
    if (path) {
        /* A field the host fills at run time (read from a file, a
         * constructor's argument): --define binds it by this name. */
        if (!f->device && !f->origin.len)
            field_origin(f, n, path);
        expr *e = expr_named(path);
        free(path);
        return e;
    }
    char *text = cn_text(f->t, n->cur);
    expr *e = unknownf("value read from memory ('%s')", text);
    free(text);
    return e;
}

/* An element a kernel reads (`target[i]`): no value, marked the same in
 * every lane where its index and base are (access.h: `offset[batch]`,
 * `C_dirs[i]`), for the estimates of a gather it indexes. A parameter or
 * an array of file scope is one base for all lanes; a local pointer is
 * where its value is (`nodelist + 8 * k` is not). */
static expr *element_read(fn_ctx *f, cnode *n)
{
    char *text = cn_text(f->t, n->cur);
    expr *e = unknownf("value read from memory ('%s')", text);
    free(text);
    if (!f->device || n->n_kids != 2)
        return e;
    cnode *b = cn_strip_casts(n->kids[0]);
    CXCursor d = b && b->kind == CXCursor_DeclRefExpr ? clang_getCursorReferenced(b->cur)
                                                      : clang_getNullCursor();
    bool fixed = d.kind == CXCursor_ParmDecl ||
                 (d.kind == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(d) == 1);
    expr *i = x_rec(f, n->kids[1]), *p = fixed || !b ? NULL : x_rec(f, b);
    bool lane = x_is_per_lane(f, i) || !b || (p && x_is_per_lane(f, p));
    expr_free(i);
    expr_free(p);
    e->value = lane ? ACCESS_DATA_PER_LANE : ACCESS_DATA_UNIFORM;
    return e;
}

/* warpSize is a constant 32 to the compiler; the analyses want to see it. */
static bool is_warp_size(cnode *n)
{
    CXCursor r = clang_getCursorReferenced(n->cur);
    if (r.kind != CXCursor_VarDecl)
        return false;
    char *name = cn_spelling(r);
    bool w = strcmp(name, "warpSize") == 0;
    free(name);
    return w;
}

/* Why `*p` has no value (the first reason wins, as in note_origin). */
static void note_pointee_origin(fn_ctx *f, const var_info *pv, const char *shown)
{
    if (f->origin.len)
        return;
    if (!pv->is_param)
        sbuf_addf(&f->origin, "depends on '%s', read through the pointer '%s'", shown, pv->name);
    else if (x_pointee_only_read(f->root, pv->decl))
        sbuf_addf(&f->origin,
                  "depends on '%s', read through the pointer '%s' its caller hands in, whose "
                  "address may also be written through elsewhere",
                  shown, pv->name);
    else
        sbuf_addf(&f->origin,
                  "depends on '%s', read through the pointer '%s', which '%s' also writes "
                  "through or hands on",
                  shown, pv->name, f->name);
}

static expr *x_unary(fn_ctx *f, cnode *n)
{
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(n->cur);
    cnode *ptr = op == CXUnaryOperator_Deref && n->n_kids == 1 ? cn_strip_casts(n->kids[0]) : NULL;
    var_info *pv = ptr && ptr->kind == CXCursor_DeclRefExpr
                       ? fn_var(f, clang_getCursorReferenced(ptr->cur))
                       : NULL;
    expr *pointee = pv ? x_pointee(f, pv) : NULL;
    if (pointee)
        return pointee;
    if (pv && !f->device && cn_type_is_integral(clang_getCursorType(n->cur))) {
        /* An integer the host reads through a pointer it cannot follow
         * (a caller's address also handed to a writer, a buffer filled at
         * run time): named `*p`, so the sizes block lists it and --define
         * binds it. */
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "*%s", pv->name);
        char *shown = sbuf_take(&b);
        note_pointee_origin(f, pv, shown);
        expr *e = expr_named(shown);
        free(shown);
        return e;
    }
    expr *a = n->n_kids == 1 ? x_rec(f, n->kids[0]) : expr_unknown("odd operator");
    switch (op) {
    case CXUnaryOperator_Minus:
        return expr_unary(OP_NEG, a);
    case CXUnaryOperator_Not:
        return expr_unary(OP_BNOT, a);
    case CXUnaryOperator_LNot:
        return expr_unary(OP_NOT, a);
    case CXUnaryOperator_Plus:
        return a;
    case CXUnaryOperator_PostInc:
    case CXUnaryOperator_PostDec:
        /* `k = j++` (pnpoly's edge loop): the value before the step. */
        return a;
    case CXUnaryOperator_PreInc:
        return expr_binary(OP_ADD, a, expr_const(1));
    case CXUnaryOperator_PreDec:
        return expr_binary(OP_SUB, a, expr_const(1));
    default:
        expr_free(a);
        return expr_unknown(op == CXUnaryOperator_Deref ? "value read through a pointer"
                                                        : "increment inside an expression");
    }
}

static expr *x_binary(fn_ctx *f, cnode *n, CXType type)
{
    enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(n->cur);
    if (n->n_kids != 2)
        return expr_unknown("odd operator");
    if (k == CXBinaryOperator_Comma)
        return x_rec(f, n->kids[1]);
    CXType ct = clang_getCanonicalType(type);
    if (ct.kind == CXType_Pointer)
        return expr_unknown("pointer arithmetic");
    bool ok;
    expr_op op = cn_binop(k, &ok);
    if (!ok || k >= CXBinaryOperator_Assign)
        return expr_unknown("assignment inside an expression");
    /* A comparison of host floating-point constants (`fabs(t - pass) <
     * 1e-7`), in C's arithmetic. */
    cnode *fa = cn_strip(n->kids[0]), *fb = cn_strip(n->kids[1]);
    double a, b;
    if (op >= OP_LT && op <= OP_NE && !f->device && fa && fb &&
        (cn_float_kind(clang_getCursorType(fa->cur)) ||
         cn_float_kind(clang_getCursorType(fb->cur))) &&
        x_float_value(f, fa, 0, &a) && x_float_value(f, fb, 0, &b))
        return expr_const(op == OP_LT   ? a < b
                          : op == OP_LE ? a <= b
                          : op == OP_GT ? a > b
                          : op == OP_GE ? a >= b
                          : op == OP_EQ ? a == b
                                        : a != b);
    /* Left to right, so that the first runtime value named is the first written. */
    expr *l = x_rec(f, n->kids[0]);
    expr *r = x_rec(f, n->kids[1]);
    return expr_binary(op, l, r);
}

/* Fully constant: let the compiler's own arithmetic (unsigned wrap,
 * conversions) have the last word. Takes e. */
static expr *fold_constant(fn_ctx *f, cnode *n, expr *e)
{
    if (e->kind == EX_CONST || tree_has_unknown(e) || n->kind == CXCursor_DeclRefExpr ||
        n->kind == CXCursor_MemberRefExpr)
        return e;
    expr *s = expr_simplify(e);
    if (s->kind != EX_CONST) {
        expr_free(s);
        return e;
    }
    expr_free(e);
    int64_t v;
    if (x_const(f, n, &v))
        s->value = v;
    return s;
}

/* An implicit conversion of a floating-point value to an integer (`const
 * int cells = range / step;`, the conversion clang leaves unexposed): C
 * truncates a constant toward zero. A math call goes on to its own rules
 * (`int len = pow(2, k);` is 1 << k); any other value is not an integer
 * expression of its operands, and stays unknown. */
static bool implicit_truncation(fn_ctx *f, cnode *outer, cnode *n, expr **e)
{
    CXType to = clang_getCanonicalType(clang_getCursorType(outer->cur));
    if (outer == n || to.kind == CXType_Bool || !cn_type_is_integral(to) ||
        !cn_float_kind(clang_getCursorType(n->cur)))
        return false;
    int64_t v;
    if (x_truncated_float(f, n, &v))
        *e = expr_const(v);
    else if (n->kind == CXCursor_CallExpr)
        return false;
    else
        *e = expr_unknown("floating-point value");
    return true;
}

static expr *x_rec(fn_ctx *f, cnode *n)
{
    cnode *outer = n;
    n = cn_strip(n);
    if (!n)
        return expr_unknown("missing expression");
    expr *converted;
    if (implicit_truncation(f, outer, n, &converted))
        return converted;
    if (f->depth > X_MAX_DEPTH)
        return expr_unknown("expression nested too deeply");
    if (--f->budget < 0)
        return expr_unknown("expression too large to follow");
    f->depth++;
    expr *e = NULL;
    int64_t v;
    CXType type = clang_getCursorType(n->cur);
    switch (n->kind) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr:
    case CXCursor_UnaryExpr: /* sizeof, alignof */
        if (x_const(f, n, &v))
            e = expr_const(v);
        else
            e = expr_unknown("sizeof of a type that is not known here");
        break;
    case CXCursor_DeclRefExpr:
        if (f->device && is_warp_size(n))
            e = expr_builtin_sym(SYM_WARP_SIZE);
        else if (x_const(f, n, &v))
            e = expr_const(v);
        else
            e = x_declref(f, n);
        break;
    case CXCursor_MemberRefExpr:
        e = x_member(f, n);
        break;
    case CXCursor_UnaryOperator:
        e = x_unary(f, n);
        break;
    case CXCursor_BinaryOperator:
        e = x_binary(f, n, type);
        break;
    case CXCursor_ConditionalOperator:
        if (n->n_kids == 3) {
            expr *c = x_rec(f, n->kids[0]);
            expr *t = x_rec(f, n->kids[1]);
            e = expr_cond(c, t, x_rec(f, n->kids[2]));
        } else
            e = expr_unknown("odd conditional");
        break;
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXConstCastExpr: {
        if (x_const(f, n, &v)) {
            e = expr_const(v);
            break;
        }
        cnode *k = cn_expr_kid(n, cn_n_expr_kids(n) - 1);
        if (!cn_float_kind(type) && x_truncated_float(f, k, &v)) {
            e = expr_const(v);
            break;
        }
        if (cn_float_kind(type)) {
            e = expr_unknown("floating-point value");
            break;
        }
        e = k ? x_rec(f, k) : expr_unknown("odd cast");
        break;
    }
    case CXCursor_CallExpr:
        if (x_const(f, n, &v))
            e = expr_const(v);
        else
            e = x_call(f, n);
        break;
    case CXCursor_ArraySubscriptExpr: {
        int64_t table[HOST_TABLE_MAX];
        int m = f->device ? 0 : host_table(f, n, table);
        e = m ? host_table_pick(table, m, x_rec(f, n->kids[1])) : x_host_element(f, n);
        if (!e)
            e = x_device_prop_element(f, n);
        if (!e)
            e = element_read(f, n);
        break;
    }
    case CXCursor_FloatingLiteral:
        e = expr_unknown("floating-point value");
        break;
    case CXCursor_StmtExpr: {
        /* GNU `({ T _x = (x); T _y = (y); _x < _y ? _x : _y; })`, PPCG's
         * min and max: the last statement's value, its locals read through
         * their initialisers as any local's are. */
        cnode *body = n->n_kids == 1 ? n->kids[0] : NULL;
        cnode *last = body && body->kind == CXCursor_CompoundStmt && body->n_kids
                          ? body->kids[body->n_kids - 1]
                          : NULL;
        bool only_decls = last && cn_is_expr(last);
        for (int i = 0; only_decls && i < body->n_kids - 1; i++)
            only_decls = body->kids[i]->kind == CXCursor_DeclStmt;
        e = only_decls ? x_rec(f, last)
                       : expr_unknown("a statement expression that does more "
                                      "than declare and compute");
        break;
    }
    default:
        if (x_const(f, n, &v)) {
            e = expr_const(v);
        } else {
            char *k = cx_str(clang_getCursorKindSpelling(n->kind));
            char *text = cn_text(f->t, n->cur);
            e = unknownf("'%s' (%s) is not understood", text, k);
            free(k);
            free(text);
        }
        break;
    }
    e = fold_constant(f, n, e);
    f->depth--;
    return e;
}

expr *x_expr(fn_ctx *f, cnode *n)
{
    start_budget(f);
    return end_budget(f, x_rec(f, n));
}

expr *x_value_entering(fn_ctx *f, var_info *v, cnode *loop)
{
    cnode **all = v->assigns;
    int n = v->n_assigns, kept = 0;
    cnode **outside = xcalloc(n ? (size_t)n : 1, sizeof *outside);
    for (int i = 0; i < n; i++)
        if (!cn_inside(all[i], loop))
            outside[kept++] = all[i];
    v->assigns = outside;
    v->n_assigns = kept;
    start_budget(f);
    expr *e = x_value_at(f, v, loop);
    e = e ? end_budget(f, e) : NULL;
    v->assigns = all;
    v->n_assigns = n;
    free(outside);
    return e;
}

const x_obj_eval x_obj_evaluator = {x_expr, x_bind_arg_nodes, x_unbind, host_arm, x_value_at};

/* ---- dim3 ---- */

/* A dim3 set more than once, read at use (`nthreads.x = 256; ...
 * k<<<...>>>; nthreads.x = 32;`, a configuration reused for several
 * launches): the component's assignment that reaches use, or the whole
 * assignment that does where no component is set; NULL where none can be
 * shown to. */
static expr *dim3_reaching(fn_ctx *f, var_info *v, int comp, int count, cnode *use)
{
    static const char *const fields[] = {"x", "y", "z"};
    if (!use || f->device || v->addr_taken || (count && v->n_assigns))
        return NULL;
    if (count) {
        cnode *a = x_member_set_before(f, v, fields[comp], use);
        if (a)
            return x_rec(f, cn_assign_rhs(a));
        /* Set only after use (`dim3 b(1, 1, 1); k<<<g, b>>>(); b.y = 4;`):
         * the initializer's component, or 1 where there is none. */
        if (!x_member_unset_at(f, v, fields[comp], use))
            return NULL;
        return v->init ? dim3_rec(f, v->init, comp) : expr_const(1);
    }
    cnode *d = x_reaching_def(v, use, host_arm, f);
    if (!d)
        return NULL;
    if (d == v->decl_node)
        return v->init ? dim3_rec(f, v->init, comp) : NULL;
    /* `blocks = dim3(n / 64);` is dim3's operator=, a call in the tree. */
    cnode *rhs =
        (d->kind == CXCursor_BinaryOperator && d->n_kids == 2) || d->kind == CXCursor_CallExpr
            ? cn_assign_rhs(d)
            : NULL;
    return rhs ? dim3_rec(f, rhs, comp) : NULL;
}

static expr *dim3_var(fn_ctx *f, var_info *v, int comp, cnode *use)
{
    static const char *const fields[] = {"x", "y", "z"};
    char shown[160];
    snprintf(shown, sizeof shown, "%s.%s", v->name, fields[comp]);
    if (v->is_param) {
        x_note_origin(f, v, shown);
        return expr_named(shown);
    }
    int count = 0;
    cnode *ma = fn_member_assign(v, fields[comp], &count);
    int whole = (v->init ? 1 : 0) + v->n_assigns;
    if (count || whole > 1) {
        expr *e = dim3_reaching(f, v, comp, count, use);
        if (e)
            return e;
    }
    if (v->addr_taken || count > 1 || (count == 1 && v->n_assigns) || whole > 1) {
        x_note_origin(f, v, shown);
        return expr_named(shown);
    }
    if (count == 1)
        return x_rec(f, cn_assign_rhs(ma));
    if (v->init)
        return dim3_rec(f, v->init, comp);
    if (v->n_assigns == 1)
        return dim3_rec(f, cn_assign_rhs(v->assigns[0]), comp);
    return expr_const(1);
}

/* A file-scope dim3 the host reads (`dim3 grid(N / 256, 1, 1);`): its
 * initializer, or main's one early assignment (global_site), where no
 * function writes it whole or a member of it; NULL otherwise. */
static expr *dim3_global(fn_ctx *f, CXCursor var, int comp)
{
    cnode *value;
    bool in_main;
    if (f->device || global_object_written(f->t, var)) {
        return NULL;
    }
    cnode *tree = global_site(f->t, var, &value, &in_main);
    if (!tree) {
        return NULL;
    }
    fn_ctx g;
    fn_init(&g, f->t, tree, false);
    expr *e = x_dim3(&g, value, comp);
    expr *c = expr_simplify(e);
    expr_free(e);
    fn_free(&g);
    cn_free(tree);
    if (c->kind != EX_CONST) {
        expr_free(c);
        return NULL;
    }
    return c;
}

static expr *dim3_rec(fn_ctx *f, cnode *n, int comp)
{
    n = cn_strip(n);
    if (!n)
        return expr_unknown("missing dim3");
    if (f->depth > X_MAX_DEPTH)
        return expr_unknown("expression nested too deeply");
    f->depth++;
    expr *e = NULL;
    switch (n->kind) {
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr: {
        cnode *k = cn_expr_kid(n, cn_n_expr_kids(n) - 1);
        e = k ? dim3_rec(f, k, comp) : expr_unknown("odd cast");
        break;
    }
    case CXCursor_CallExpr:
    case CXCursor_InitListExpr: {
        CXCursor fn = clang_getCursorReferenced(n->cur);
        int nargs = cn_n_expr_kids(n);
        if (n->kind == CXCursor_CallExpr && fn.kind != CXCursor_Constructor) {
            char *name = cn_spelling(fn);
            e = unknownf("dim3 returned by a call to '%s'", name);
            free(name);
            break;
        }
        if (nargs == 1 && cn_is_dim3(clang_getCursorType(cn_strip(cn_expr_kid(n, 0))->cur))) {
            e = dim3_rec(f, cn_expr_kid(n, 0), comp);
            break;
        }
        if (comp < nargs)
            e = x_rec(f, cn_expr_kid(n, comp));
        else
            e = expr_const(1);
        break;
    }
    case CXCursor_DeclRefExpr: {
        CXCursor r = clang_getCursorReferenced(n->cur);
        var_info *v = fn_var(f, r);
        if (v) {
            if (v->visiting) {
                e = expr_unknown("dim3 defined in terms of itself");
                break;
            }
            v->visiting++;
            e = dim3_var(f, v, comp, n);
            v->visiting--;
        } else if (!(e = dim3_global(f, r, comp))) {
            char *name = cn_spelling(r);
            e = unknownf("file-scope dim3 '%s' has no constant value (a function writes it, or "
                         "it is set at run time)",
                         name);
            free(name);
        }
        break;
    }
    case CXCursor_MemberRefExpr: {
        /* cfg.blockDim of a launch configuration struct. */
        cnode *base = n->n_kids ? cn_strip(n->kids[0]) : NULL;
        var_info *v = base && base->kind == CXCursor_DeclRefExpr
                          ? fn_var(f, clang_getCursorReferenced(base->cur))
                          : NULL;
        char *field = cn_spelling(n->cur);
        if (v && !v->visiting) {
            int count;
            cnode *a = fn_member_assign(v, field, &count);
            if (a) {
                v->visiting++;
                e = dim3_rec(f, cn_assign_rhs(a), comp);
                v->visiting--;
            } else {
                static const char *const fields[] = {"x", "y", "z"};
                char shown[200];
                snprintf(shown, sizeof shown, "%s.%s.%s", v->name, field, fields[comp]);
                x_note_origin(f, v, shown);
                e = expr_named(shown);
            }
        } else {
            e = unknownf("dim3 member '%s'", field);
        }
        free(field);
        break;
    }
    case CXCursor_ConditionalOperator:
        if (n->n_kids == 3) {
            expr *c = x_rec(f, n->kids[0]);
            expr *t = dim3_rec(f, n->kids[1], comp);
            e = expr_cond(c, t, dim3_rec(f, n->kids[2], comp));
            break;
        }
        e = expr_unknown("odd conditional");
        break;
    default:
        if (cn_type_is_integral(clang_getCursorType(n->cur)))
            e = comp == 0 ? x_rec(f, n) : expr_const(1);
        else
            e = unknownf("dim3 value that is not understood");
        break;
    }
    f->depth--;
    return e;
}

expr *x_dim3(fn_ctx *f, cnode *n, int comp)
{
    start_budget(f);
    return end_budget(f, dim3_rec(f, n, comp));
}
