/* cusrc_fields: the integer fields of a host struct as launches see them:
 * which assignment of a local struct's field holds at a use, the fields a
 * call binds for a struct it passes (by value, by reference, by its address
 * to a pointer to const), and those fields read back in the callee. */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

/* The binding that gives struct parameter parm's field a constant (in
 * *value); NULL where the call bound none. */
static const param_binding *field_binding(const fn_ctx *f, CXCursor parm, const char *field,
                                          int64_t *value)
{
    for (const bind_frame *fr = f->bindings; fr; fr = fr->up)
        for (int i = 0; i < fr->n; i++) {
            const param_binding *b = &fr->b[i];
            if (!clang_equalCursors(b->parm, parm))
                continue;
            for (int k = 0; k < b->n_fields; k++)
                if (!strcmp(b->fields[k].name, field)) {
                    *value = b->fields[k].value;
                    return b;
                }
            return NULL;
        }
    return NULL;
}

/* A field of a struct parameter the call bound to a constant. */
static expr *bound_field(fn_ctx *f, CXCursor parm, const char *field)
{
    int64_t value;
    const param_binding *b = field_binding(f, parm, field, &value);
    if (!b)
        return NULL;
    /* The caller's constants, of the fields only this one ("p.width"). */
    for (int j = 0; f->record && j < b->folded.n; j++) {
        const char *dot = strrchr(b->folded.v[j].name, '.');
        if (!dot || !strcmp(dot + 1, field))
            folded_add(f->record, &b->folded.v[j]);
    }
    return expr_const(value);
}

/* The struct variable an argument names (through the copy a by-value
 * parameter makes, or the address a pointer parameter takes), or NULL. */
static cnode *struct_arg(cnode *arg)
{
    arg = cn_strip_casts(arg);
    if (arg && arg->kind == CXCursor_CallExpr && cn_n_expr_kids(arg) == 1 &&
        clang_getCursorReferenced(arg->cur).kind == CXCursor_Constructor)
        arg = cn_strip_casts(cn_expr_kid(arg, 0));
    if (arg && arg->kind == CXCursor_UnaryOperator && arg->n_kids == 1 &&
        clang_getCursorUnaryOperatorKind(arg->cur) == CXUnaryOperator_AddrOf)
        arg = cn_strip_casts(arg->kids[0]);
    return arg && arg->kind == CXCursor_DeclRefExpr ? arg : NULL;
}

typedef struct field_visit {
    fn_ctx *f;
    cnode *call, *arg;
    param_binding *b;
} field_visit;

/* The assignment of a local struct's field that holds at use: the last
 * that runs before it every time, with none that may run later, and v
 * handed to no call in between that could change it (`box.nx = n;
 * shrink(box);` leaves box.nx unknown) nor written through another name
 * (`widen(&box)` into a `Box *`). An assignment in an arm the arguments
 * leave out (`if (p.w == 0) p.w = 7;` with --run-args giving w), or one
 * that only runs after use, does not count against it. */
cnode *x_member_set_before(fn_ctx *f, var_info *v, const char *field, cnode *use)
{
    return x_fields_escape(f, v) ? NULL : x_member_set_at(f, v, field, use);
}

/* A loop around v's declaration starts each trip with a new v: an
 * assignment after use cannot reach it through that loop. */
static const cnode *member_scope(const fn_ctx *f, const var_info *v, const cnode *use)
{
    if (v->decl_node && v->decl_node->kind == CXCursor_VarDecl && v->decl_node->parent &&
        v->decl_node->parent->parent && cn_inside(use, v->decl_node->parent->parent))
        return v->decl_node->parent->parent;
    return f->root;
}

bool x_member_unset_at(fn_ctx *f, var_info *v, const char *field, cnode *use)
{
    if (x_fields_escape(f, v))
        return false;
    const cnode *scope = member_scope(f, v, use);
    for (int i = 0; i < v->n_member_assigns; i++) {
        cnode *m = v->member_assigns[i];
        char *name = cn_spelling(cn_strip(m->kids[0])->cur);
        bool same = !strcmp(name, field);
        free(name);
        if (same && x_may_reach(m, use, scope, f->t->obj_eval->arm, f))
            return false;
    }
    return !x_field_changer(f->root, v, 0, cn_spelled_at(use->cur));
}

cnode *x_member_set_at(fn_ctx *f, var_info *v, const char *field, cnode *use)
{
    /* The field as a variable of its own whose definitions are its
     * assignments (the declaration's constructor is not one): the one that
     * reaches use as a local's does, arms and loops included. */
    cnode *same[64];
    int n = 0;
    for (int i = 0; i < v->n_member_assigns; i++) {
        cnode *m = v->member_assigns[i];
        char *name = cn_spelling(cn_strip(m->kids[0])->cur);
        bool hit = !strcmp(name, field);
        free(name);
        if (!hit)
            continue;
        if (n == 64)
            return NULL;
        same[n++] = m;
    }
    var_info member = {.decl = v->decl,
                       .name = v->name,
                       .decl_node = v->decl_node,
                       .assigns = same,
                       .n_assigns = n,
                       .is_param = v->is_param};
    cnode *a = n ? x_reaching_def(&member, use, f->t->obj_eval->arm, f) : NULL;
    if (!a || x_field_changer(f->root, v, cn_spelled_at(a->cur), cn_spelled_at(use->cur)))
        return NULL;
    return a;
}

/* A field of struct parameter v at use: the caller's constant, where this
 * function neither assigns the field nor hands v to a call that could
 * change it before use. */
expr *x_param_field(fn_ctx *f, var_info *v, const char *field, const cnode *use)
{
    int count;
    int64_t value;
    /* The lookup first: the walk for changes is the costly part. */
    if (!field_binding(f, v->decl, field, &value))
        return NULL;
    fn_member_assign(v, field, &count);
    if (count || (x_field_changer(f->root, v, 0, cn_spelled_at(use->cur)) &&
                  !x_changers_leave_field(f, v, field, (cnode *)use)))
        return NULL;
    return bound_field(f, v->decl, field);
}

typedef struct field_find {
    const char *name;
    CXCursor found;
    bool user_ctor;
} field_find;

static enum CXChildVisitResult find_member(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    field_find *ff = data;
    if (c.kind == CXCursor_Constructor && !clang_CXXMethod_isDefaulted(c))
        ff->user_ctor = true;
    if (c.kind == CXCursor_FieldDecl) {
        char *name = cn_spelling(c);
        if (!strcmp(name, ff->name))
            ff->found = c;
        free(name);
    }
    return CXChildVisit_Continue;
}

expr *x_default_field(fn_ctx *f, var_info *v, const char *field, cnode *use)
{
    /* No assignment of the field may reach use and every call handed v
     * leaves it alone; a pointer or reference kept to v may write it. */
    if (f->device || v->is_param || v->n_assigns || x_fields_escape(f, v) ||
        !x_changers_leave_field(f, v, field, use))
        return NULL;
    if (v->init && !(v->init->kind == CXCursor_CallExpr && cn_n_expr_kids(v->init) == 0 &&
                     clang_getCursorReferenced(v->init->cur).kind == CXCursor_Constructor))
        return NULL;
    CXType t = clang_getCanonicalType(clang_getCursorType(v->decl));
    CXCursor record = clang_getTypeDeclaration(t);
    if (t.kind != CXType_Record || clang_Cursor_isNull(record) ||
        !x_member_unset_at(f, v, field, use))
        return NULL;
    field_find ff = {field, clang_getNullCursor(), false};
    clang_visitChildren(record, find_member, &ff);
    if (ff.user_ctor || clang_Cursor_isNull(ff.found))
        return NULL;
    cnode *decl = cn_build(ff.found), *init = cn_field_init(decl);
    int64_t value;
    bool known = init && x_const(f, init, &value);
    if (known && f->record) {
        /* Listed where the struct's declaration sets it. */
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "%s.%s", v->name, field);
        cusrc_size_from from = {(char *)sbuf_str(&b), value, f->name, {0}, false};
        cn_loc(f->t, ff.found, &from.loc);
        folded_add(f->record, &from);
        free(from.loc.file);
        sbuf_free(&b);
    }
    cn_free(decl);
    return known ? expr_const(value) : NULL;
}

/* A field of the struct an argument names, where the caller sets it once,
 * before the call, to a constant: `BoxCU domain; domain.nx = N;` then
 * `init(domain)` (a field a parameter of the caller was bound to passes
 * on too). */
static enum CXVisitorResult bind_field(CXCursor field, CXClientData data)
{
    field_visit *fv = data;
    param_binding *b = fv->b;
    if (b->n_fields == BIND_MAX_FIELDS)
        return CXVisit_Break;
    if (!cn_type_is_integral(clang_getCursorType(field)))
        return CXVisit_Continue;
    char *name = cn_spelling(field);
    CXCursor r = clang_getCursorReferenced(fv->arg->cur);
    var_info *v = fn_var(fv->f, r);
    cnode *a =
        v && !v->is_param && !v->n_assigns ? x_member_set_before(fv->f, v, name, fv->call) : NULL;
    expr *e = v && v->is_param ? x_param_field(fv->f, v, name, fv->call)
              : a              ? fv->f->t->obj_eval->value_of(fv->f, cn_assign_rhs(a))
              : v              ? x_setter_field(fv->f, v, name, fv->call)
                               : NULL;
    if (!e && v && !a)
        e = x_default_field(fv->f, v, name, fv->call);
    expr *c = e ? expr_simplify(e) : NULL;
    if (c && c->kind == EX_CONST && a && fv->f->record) {
        /* Listed among the sizes as the caller set it (`p.width = 512
         * (main, prog.cu:14)`). */
        char *var = cn_spelling(r);
        sbuf path;
        sbuf_init(&path);
        sbuf_addf(&path, "%s.%s", var, name);
        cusrc_size_from from = {(char *)sbuf_str(&path), c->value, fv->f->name, {0}, false};
        cn_loc(fv->f->t, a->cur, &from.loc);
        folded_add(fv->f->record, &from);
        free(from.loc.file);
        sbuf_free(&path);
        free(var);
    }
    if (c && c->kind == EX_CONST) {
        b->fields[b->n_fields].name = name;
        b->fields[b->n_fields++].value = c->value;
        name = NULL;
    }
    expr_free(e);
    expr_free(c);
    free(name);
    return CXVisit_Continue;
}

/* An integer local handed by its address (`run(d, &n)`, C's and Fortran's
 * way of passing sizes): the value it holds at the call, bound as the
 * field "*" for x_pointee to read back. */
/* Whether each address of v taken below n is lent for reading (to a
 * pointer to const, or to a function here that only reads through it) or
 * handed to callee, a function of another unit (same USR). */
static bool lent_only_to(const cnode *n, const var_info *v, const char *usr)
{
    if (n->kind == CXCursor_UnaryOperator && n->n_kids == 1 &&
        clang_getCursorUnaryOperatorKind(n->cur) == CXUnaryOperator_AddrOf) {
        cnode *r = cn_strip_casts(n->kids[0]);
        if (r && r->kind == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(r->cur), v->decl)) {
            CXCursor fn;
            int slot;
            if (cn_lent_for_reading(n, true))
                return true;
            if (!cn_arg_call(n, &fn, &slot) || !clang_Cursor_isNull(clang_getCursorDefinition(fn)))
                return false;
            char *u = cx_str(clang_getCursorUSR(fn));
            bool same = !strcmp(u, usr);
            free(u);
            return same;
        }
    }
    for (int i = 0; i < n->n_kids; i++)
        if (!lent_only_to(n->kids[i], v, usr))
            return false;
    return true;
}

/* A local whose address main hands only to a function of another unit
 * (`ccsd_trpdrv(..., &nvir, ...)` in a loop): its value at the call is
 * what the callee reads through the pointer, as long as the callee only
 * reads through it, which only the callee's unit can tell (x_pointee
 * asks it there). */
static bool lent_across_units(fn_ctx *f, cnode *call, const var_info *v)
{
    CXCursor fn = clang_getCursorReferenced(call->cur);
    if (fn.kind != CXCursor_FunctionDecl || !clang_Cursor_isNull(clang_getCursorDefinition(fn)) ||
        clang_getCursorLinkage(fn) != CXLinkage_External)
        return false;
    char *usr = cx_str(clang_getCursorUSR(fn));
    bool ok = lent_only_to(f->root, v, usr);
    free(usr);
    return ok;
}

static void bind_pointee(fn_ctx *f, cnode *call, cnode *arg, param_binding *b)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(b->parm));
    if (f->device || t.kind != CXType_Pointer || !cn_type_is_integral(clang_getPointeeType(t)) ||
        b->n_fields == BIND_MAX_FIELDS)
        return;
    cnode *a = cn_strip_casts(arg);
    if (!a || a->kind != CXCursor_UnaryOperator || a->n_kids != 1 ||
        clang_getCursorUnaryOperatorKind(a->cur) != CXUnaryOperator_AddrOf)
        return;
    cnode *r = cn_strip_casts(a->kids[0]);
    var_info *v =
        r && r->kind == CXCursor_DeclRefExpr ? fn_var(f, clang_getCursorReferenced(r->cur)) : NULL;
    /* Not taken: every address of it is lent only for reading
     * (cusrc_ast), so its definitions are its own. */
    if (!v || v->is_param)
        return;
    bool lent = v->addr_taken && lent_across_units(f, call, v);
    if (v->addr_taken && !lent)
        return;
    /* Lent across units only: its definitions here are its own, for the
     * callee's unit to judge whether the callee writes through it. */
    v->addr_taken = false;
    expr *e = f->t->obj_eval->value_at(f, v, call);
    v->addr_taken = lent;
    expr *c = e ? expr_simplify(e) : NULL;
    if (c && c->kind == EX_CONST) {
        b->fields[b->n_fields].name = xstrdup("*");
        b->fields[b->n_fields++].value = c->value;
    }
    expr_free(e);
    expr_free(c);
}

expr *x_pointee(fn_ctx *f, var_info *v)
{
    int64_t value;
    if (f->device || !v->is_param || !field_binding(f, v->decl, "*", &value) ||
        !x_pointee_only_read(f->root, v->decl))
        return NULL;
    return bound_field(f, v->decl, "*");
}

void x_bind_fields(fn_ctx *f, cnode *call, cnode *arg, param_binding *b)
{
    b->n_fields = 0;
    bind_pointee(f, call, arg, b);
    if (b->n_fields)
        return;
    CXType t = clang_getCanonicalType(clang_getCursorType(b->parm));
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    else if (t.kind == CXType_Pointer && clang_isConstQualifiedType(clang_getPointeeType(t)))
        t = clang_getCanonicalType(clang_getPointeeType(t));
    field_visit fv = {f, call, struct_arg(arg), b};
    if (t.kind == CXType_Record && fv.arg && !f->device)
        clang_Type_visitFields(t, bind_field, &fv);
}

bool x_const_struct_pointer(CXCursor parm)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(parm));
    return parm.kind == CXCursor_ParmDecl && t.kind == CXType_Pointer &&
           clang_isConstQualifiedType(clang_getPointeeType(t)) &&
           clang_getCanonicalType(clang_getPointeeType(t)).kind == CXType_Record;
}

/* The kernel's parameter a helper's parameter holds, through the calls
 * being expanded (`sampleImageTest(src, y, x, temp, prop)`): the name of
 * one of f's kernel's parameters that points to a const struct, or NULL. */
static const char *kernel_pointer(const fn_ctx *f, CXCursor parm)
{
    if (!f->root || !cn_has_attr(f->root->cur, CXCursor_CUDAGlobalAttr))
        return NULL;
    if (clang_equalCursors(clang_getCursorSemanticParent(parm), f->root->cur))
        return NULL; /* the kernel's own: named by the caller */
    for (const bind_frame *fr = f->bindings; fr; fr = fr->up)
        for (int i = 0; i < fr->n; i++) {
            const expr *v = fr->b[i].value;
            if (!clang_equalCursors(fr->b[i].parm, parm))
                continue;
            if (!v || v->kind != EX_SYM || v->builtin != SYM_NAMED || !v->name)
                return NULL;
            int np = clang_Cursor_getNumArguments(f->root->cur);
            for (int a = 0; a < np; a++) {
                CXCursor kp = clang_Cursor_getArgument(f->root->cur, (unsigned)a);
                char *name = cn_spelling(kp);
                bool same = !strcmp(name, v->name) && x_const_struct_pointer(kp);
                free(name);
                if (same)
                    return v->name;
            }
            return NULL;
        }
    return NULL;
}

/* `prop->width` where prop is a parameter of the kernel that points to a
 * const struct, or a helper's parameter handed it: the same in every
 * thread, and a name a launch binds (bind_copied_object in cusrc_launch)
 * or --define does. */
char *x_param_pointee_path(const fn_ctx *f, cnode *member)
{
    cnode *base = member->n_kids >= 1 ? cn_strip(member->kids[0]) : NULL;
    if (!base || base->kind != CXCursor_DeclRefExpr)
        return NULL;
    CXCursor parm = clang_getCursorReferenced(base->cur);
    if (!x_const_struct_pointer(parm))
        return NULL;
    const char *held = kernel_pointer(f, parm);
    if (!held && !cn_has_attr(clang_getCursorSemanticParent(parm), CXCursor_CUDAGlobalAttr))
        return NULL;
    char *name = held ? xstrdup(held) : cn_spelling(parm), *field = cn_spelling(member->cur);
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s->%s", name, field);
    free(name);
    free(field);
    return sbuf_take(&b);
}
