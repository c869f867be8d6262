/* cusrc_lref: where a name, a pointer or an lvalue of a kernel body points:
 * the __shared__ arrays it declares, its variables and parameters, and the
 * memory a pointer expression names (space, array, byte offset), or why it
 * cannot be followed. Below the walkers: it walks nothing itself. */
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

/* ---- arrays ---- */

static long find_array(walker *w, CXCursor decl)
{
    unsigned h = clang_hashCursor(decl);
    for (size_t i = 0; i < w->n_arrs; i++)
        if (w->arrs[i].hash == h && clang_equalCursors(w->arrs[i].decl, decl))
            return (long)w->arrs[i].idx;
    return -1;
}

long wk_register_array(walker *w, CXCursor decl, cnode *declnode)
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
    for (CXType e = t; cn_is_array_type(e); e = clang_getArrayElementType(e)) {
        if (e.kind == CXType_DependentSizedArray)
            dependent = true;
        levels++;
    }
    int n = 0;
    CXType e = t;
    sbuf why;
    sbuf_init(&why);
    while (cn_is_array_type(e)) {
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

bool wk_is_builtin_var_name(const char *s)
{
    return strcmp(s, "threadIdx") == 0 || strcmp(s, "blockIdx") == 0 ||
           strcmp(s, "blockDim") == 0 || strcmp(s, "gridDim") == 0 || strcmp(s, "warpSize") == 0;
}

/* A variable in memory we report on: __shared__ (any type) or a __device__
 * array (global memory). */
/* r names global memory at the start of the pointer field `owner.field` of
 * a struct or closure the kernel takes by value. */
static void global_field(lref *r, const char *owner, const char *field)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s.%s", owner, field);
    r->space = SP_GLOBAL;
    r->array = -1;
    r->base = sbuf_take(&b);
    r->off = expr_const(0);
}

static void resolve_var(walker *w, CXCursor decl, cnode *declnode, lref *r)
{
    char *name = cn_spelling(decl);
    if (cn_has_attr(decl, CXCursor_CUDASharedAttr)) {
        r->space = SP_SHARED;
        r->array = wk_register_array(w, decl, declnode);
        r->base = name;
        r->off = expr_const(0);
        return;
    }
    CXType t = clang_getCursorType(decl);
    if (!wk_is_builtin_var_name(name) && cn_has_attr(decl, CXCursor_CUDADeviceAttr) &&
        cn_is_array_type(t) && !cn_has_attr(decl, CXCursor_CUDAConstantAttr)) {
        r->space = SP_GLOBAL;
        r->array = -1;
        r->base = name;
        r->off = expr_const(0);
        return;
    }
    /* A lambda's capture: the walk of its body at a call on the closure
     * object (this_path, a kernel parameter) meets the captured variable
     * of the function that made it; what it names is that object's field. */
    CXCursor owner = clang_getCursorSemanticParent(decl);
    bool local_elsewhere =
        decl.kind == CXCursor_VarDecl &&
        (owner.kind == CXCursor_FunctionDecl || owner.kind == CXCursor_CXXMethod ||
         owner.kind == CXCursor_FunctionTemplate);
    if (local_elsewhere && clang_getCanonicalType(t).kind == CXType_Pointer && w->calls &&
        w->calls->this_path) {
        global_field(r, w->calls->this_path, name);
        free(name);
        return;
    }
    if (clang_getCanonicalType(t).kind == CXType_Pointer)
        lref_why(r, "pointer '%s' is not a variable of the kernel or a helper it calls", name);
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

/* The one `return` of a function whose body is declarations and that
 * return; a null cursor otherwise. */
static CXCursor only_return(CXCursor def)
{
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(def, first_body_visit, &body);
    ret_scan s = {0, 0, clang_getNullCursor()};
    if (!clang_Cursor_isNull(body))
        clang_visitChildren(body, ret_visit, &s);
    return s.returns == 1 && !s.others ? s.ret : clang_getNullCursor();
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
    CXCursor ret = only_return(def);
    if (clang_Cursor_isNull(ret))
        return ret;
    CXCursor var = clang_getNullCursor();
    clang_visitChildren(ret, first_ref_visit, &var);
    if (clang_Cursor_isNull(var) || var.kind != CXCursor_VarDecl ||
        !cn_has_attr(var, CXCursor_CUDASharedAttr))
        return clang_getNullCursor();
    return var;
}

typedef struct kids_scan {
    CXCursor kid[4];
    int n;
} kids_scan;

static enum CXChildVisitResult kids_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    kids_scan *k = data;
    if (k->n < 4)
        k->kid[k->n] = c;
    k->n++;
    return CXChildVisit_Continue;
}

/* e without the parentheses and casts around it (a cast's type is a kid
 * before its operand). */
static CXCursor strip_casts(CXCursor e)
{
    for (int depth = 0; depth < 16; depth++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
            k != CXCursor_CStyleCastExpr && k != CXCursor_CXXReinterpretCastExpr &&
            k != CXCursor_CXXStaticCastExpr && k != CXCursor_CXXConstCastExpr)
            return e;
        kids_scan s = {.n = 0};
        clang_visitChildren(e, kids_visit, &s);
        if (s.n < 1 || s.n > 4)
            return e;
        e = s.kid[s.n - 1];
    }
    return e;
}

/* Whether lvalue e lies in the object a method runs on: this, a member
 * of it, an element or member of one, through no pointer but this. */
static bool in_this_object(CXCursor e, int depth)
{
    e = strip_casts(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_CXXThisExpr)
        return true;
    if (depth > 8 || (k != CXCursor_MemberRefExpr && k != CXCursor_ArraySubscriptExpr))
        return false;
    kids_scan s = {.n = 0};
    clang_visitChildren(e, kids_visit, &s);
    if (k == CXCursor_MemberRefExpr && s.n == 0)
        return true; /* a member through the implicit this */
    if (s.n < 1 || s.n > 2)
        return false;
    CXCursor base = strip_casts(s.kid[0]);
    if (clang_getCursorKind(base) == CXCursor_CXXThisExpr)
        return true;
    CXType bt = clang_getCanonicalType(clang_getCursorType(base));
    if (bt.kind == CXType_Pointer)
        return false; /* p->f or p[i]: memory the object points to */
    return in_this_object(base, depth + 1);
}

/* Whether a method called on the object being walked returns a pointer
 * into that object: its body is declarations and one `return` of this,
 * the address of a member, or a member array
 * (`reinterpret_cast<io_t *>(val.data)`, the vectorised-access helper
 * RAFT and cuML use to move a register array as one 128-bit word). */
static bool returns_own_storage(CXCursor def)
{
    if (clang_getCursorKind(def) != CXCursor_CXXMethod || clang_CXXMethod_isStatic(def))
        return false;
    CXCursor ret = only_return(def);
    if (clang_Cursor_isNull(ret))
        return false;
    kids_scan r = {.n = 0};
    clang_visitChildren(ret, kids_visit, &r);
    if (r.n != 1)
        return false;
    CXCursor e = strip_casts(r.kid[0]);
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator) {
        kids_scan a = {.n = 0};
        clang_visitChildren(e, kids_visit, &a);
        return a.n == 1 && in_this_object(a.kid[0], 0);
    }
    if (clang_getCursorKind(e) == CXCursor_CXXThisExpr)
        return true;
    return cn_is_array_type(clang_getCanonicalType(clang_getCursorType(e))) && in_this_object(e, 0);
}

bool wk_method_on_local_object(walker *w, cnode *call, CXCursor def)
{
    if (clang_getCursorKind(def) != CXCursor_CXXMethod || clang_CXXMethod_isStatic(def) ||
        !call->n_kids)
        return false;
    cnode *callee = cn_strip(call->kids[0]);
    if (!callee || callee->kind != CXCursor_MemberRefExpr)
        return false;
    cnode *obj = callee->n_kids ? cn_strip(callee->kids[0]) : NULL;
    if (!obj || obj->kind == CXCursor_CXXThisExpr)
        return w->calls && w->calls->this_local;
    if (obj->kind != CXCursor_DeclRefExpr)
        return false;
    var_info *v = fn_var(w->f, clang_getCursorReferenced(obj->cur));
    return v && !v->is_shared &&
           clang_getCanonicalType(clang_getCursorType(v->decl)).kind == CXType_Record;
}

/* A call through this, or on a struct the walked code holds by value,
 * to a method that returns a pointer into its object: the pointer names
 * registers, not memory. */
static bool points_into_local_object(walker *w, cnode *call)
{
    CXCursor fn = clang_getCursorReferenced(call->cur);
    CXCursor def = clang_Cursor_isNull(fn) ? fn : clang_getCursorDefinition(fn);
    return !clang_Cursor_isNull(def) && (cn_in_main(w->t, def) || cn_in_user_header(w->t, def)) &&
           returns_own_storage(def) && wk_method_on_local_object(w, call, def);
}

/* The path of a struct the kernel holds by value: a parameter that is not
 * a pointer, or a struct member of one (`vars.u_star` in `vars.u_star.u0`:
 * each `.` reads the parameter, not memory). NULL for anything else. */
static char *param_struct_path(walker *w, cnode *b)
{
    b = b ? cn_strip(b) : NULL;
    if (!b || clang_getCanonicalType(clang_getCursorType(b->cur)).kind != CXType_Record)
        return NULL;
    return x_member_path(w->f, b, 0);
}

/* p.data where p is a struct the kernel takes by value, or a struct member
 * of one (p.grid.data), or this->data in a method called on one: a global
 * pointer, named by the field's path. */
static bool member_of_param(walker *w, cnode *n, lref *r)
{
    cnode *b = n->n_kids ? cn_strip(n->kids[0]) : NULL;
    char *owner = NULL;
    if ((!b || b->kind == CXCursor_CXXThisExpr) && w->calls && w->calls->this_path)
        owner = xstrdup(w->calls->this_path);
    else
        owner = param_struct_path(w, b);
    if (!owner)
        return false;
    char *field = cn_spelling(n->cur);
    global_field(r, owner, field);
    free(field);
    free(owner);
    return true;
}

/* How far one `p += by` moves a pointer at use, in elements of es bytes
 * (x_loop_move's rules); NULL where gpulint cannot say. */
static expr *pointer_move(walker *w, cnode *a, cnode *use)
{
    if (a->kind != CXCursor_CompoundAssignOperator || a->n_kids != 2 ||
        clang_getCursorBinaryOperatorKind(a->cur) != CXBinaryOperator_AddAssign)
        return NULL;
    expr *by = x_expr(w->f, a->kids[1]);
    expr *m = x_loop_move(w->f, a, use, by, NULL, x_is_per_lane(w->f, by));
    if (m && expr_first_unknown(m)) {
        expr_free(m);
        return NULL;
    }
    return m;
}

/* A pointer parameter the kernel moves only by pointer_move's rules: its
 * offset at use. False where one of its assignments is another kind. */
static bool moved_pointer(walker *w, var_info *v, cnode *use, CXType pointee, lref *r)
{
    int64_t es = cn_type_size(pointee);
    if (es <= 0)
        return false;
    expr *total = expr_const(0);
    for (int i = 0; i < v->n_assigns; i++) {
        expr *m = pointer_move(w, v->assigns[i], use);
        if (!m) {
            expr_free(total);
            return false;
        }
        total = expr_binary(OP_ADD, total, m);
    }
    expr_free(r->off);
    r->off = expr_binary(OP_MUL, total, expr_const(es));
    return true;
}

/* A local pointer: followed through its one definition, or the one
 * definition that reaches this use. */
static void resolve_local_pointer(walker *w, var_info *v, cnode *n, lref *r, int depth)
{
    /* Set once: that value. */
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
    /* Set more than once: the one definition that reaches this use
     * (bincount's `T *smem = nullptr;`, then `smem = (T *)buf;`
     * in the branch that uses it). */
    cnode *def = v->addr_taken || v->visiting ? NULL : x_reaching_def(v, n, NULL, NULL);
    cnode *value = NULL;
    if (def && def == v->decl_node)
        value = v->init;
    else if (def && def->kind == CXCursor_BinaryOperator && def->n_kids == 2 &&
             clang_getCursorBinaryOperatorKind(def->cur) == CXBinaryOperator_Assign)
        value = def->kids[1];
    if (value) {
        v->visiting++;
        wk_resolve_pointer(w, value, r, depth + 1);
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
        CXType pointee;
        bool is_pointer = cn_decl_pointer(d, &pointee);
        if (v && v->is_param && w->calls) {
            if (is_pointer)
                lref_why(r,
                         "pointer parameter '%s' of a helper is not bound to memory gpulint "
                         "can place",
                         v->name);
            return;
        }
        if (v && v->is_param) {
            if (!is_pointer)
                return;
            r->space = SP_GLOBAL;
            r->array = -1;
            r->base = xstrdup(v->name);
            r->off = expr_const(0);
            if (v->n_assigns && !moved_pointer(w, v, n, pointee, r))
                lref_why(r, "pointer parameter '%s' is modified in the kernel", v->name);
            return;
        }
        if (v && !v->is_shared && !cn_is_array_type(t)) {
            resolve_local_pointer(w, v, n, r, depth);
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
        if (pt.kind != CXType_Pointer && !cn_is_array_type(pt)) {
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
        if (cn_is_array_type(t)) {
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
        if (points_into_local_object(w, n))
            return;
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
        if (bt.kind != CXType_Pointer && !cn_is_array_type(bt)) {
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
