/* cusrc_object: host objects built by constructors. `Mandel m(1080, 1920);`
 * then `m.Evaluate()`, whose launch reads `p.rows()`: the integer fields an
 * object holds after its constructor ran (member initializers, in-class
 * initializers, the body's straight-line assignments, its bases and member
 * objects in turn), carried into the methods called on it and read back
 * directly or through methods that return one expression.
 *
 * A field that some method other than a constructor writes, hands out by
 * a reference that is not const, or that a method could reach through
 * `this` handed elsewhere, is never taken: by the time a launch reads it,
 * it may hold anything. Nor is an object whose variable is written
 * member-wise, assigned twice, or handed by reference to a function that
 * may change it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

#define OBJ_MAX_DEPTH 8
#define OBJ_MAX_FIELDS 256

void obj_free(obj_fields *o)
{
    for (int i = 0; i < o->n; i++)
        free(o->v[i].path);
    free(o->v);
    memset(o, 0, sizeof *o);
}

static char *joined(const char *prefix, const char *path)
{
    char *s = xmalloc(strlen(prefix) + strlen(path) + 2);
    sprintf(s, "%s%s%s", prefix, prefix[0] ? "." : "", path);
    return s;
}

static void obj_set(obj_fields *o, const char *prefix, const char *path, int64_t value)
{
    char *p = joined(prefix, path);
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->v[i].path, p)) {
            o->v[i].value = value;
            free(p);
            return;
        }
    if (o->n >= OBJ_MAX_FIELDS) {
        free(p);
        return;
    }
    GROW(o->v, o->n, o->cap);
    o->v[o->n].path = p;
    o->v[o->n++].value = value;
}

/* Forgets a field and, for a member object, every field below it. */
static void obj_drop(obj_fields *o, const char *path)
{
    size_t len = strlen(path);
    int k = 0;
    for (int i = 0; i < o->n; i++) {
        const char *p = o->v[i].path;
        if (!strncmp(p, path, len) && (p[len] == '\0' || p[len] == '.'))
            free(o->v[i].path);
        else
            o->v[k++] = o->v[i];
    }
    o->n = k;
}

static bool obj_get(const obj_fields *o, const char *path, int64_t *value)
{
    for (int i = 0; o && i < o->n; i++)
        if (!strcmp(o->v[i].path, path)) {
            *value = o->v[i].value;
            return true;
        }
    return false;
}

/* The fields below prefix (a member object), relative to it; all of them
 * for an empty prefix. */
static void obj_sub(obj_fields *to, const obj_fields *from, const char *prefix)
{
    size_t len = strlen(prefix);
    for (int i = 0; from && i < from->n; i++) {
        const char *p = from->v[i].path;
        if (!len)
            obj_set(to, "", p, from->v[i].value);
        else if (!strncmp(p, prefix, len) && p[len] == '.')
            obj_set(to, "", p + len + 1, from->v[i].value);
    }
}

static void obj_merge(obj_fields *to, const obj_fields *from, const char *prefix)
{
    for (int i = 0; i < from->n; i++)
        obj_set(to, prefix, from->v[i].path, from->v[i].value);
}

/* ---- the fields a class's methods may write ---- */

static CXCursor record_decl(CXType t)
{
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference ||
        t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    if (t.kind != CXType_Record)
        return clang_getNullCursor();
    CXCursor d = clang_getTypeDeclaration(t);
    CXCursor def = clang_getCursorDefinition(d);
    return clang_Cursor_isNull(def) ? d : def;
}

static bool is_wrapper(const cnode *n)
{
    return n->kind == CXCursor_UnexposedExpr || n->kind == CXCursor_ParenExpr;
}

/* Is n (an address) an argument to a parameter that points to const
 * (`cudaMemcpy(d, &p, sizeof p, ...)` copies p, it does not change it)? */
static bool read_only_arg(const cnode *n)
{
    CXCursor fn;
    int k;
    return cn_arg_call(n, &fn, &k) && cn_param_reads_only(fn, k);
}

typedef struct writes {
    char **fields;
    int n, cap;
    bool escapes;
    bool ref_return; /* the method being read returns a reference or pointer that is not const */
    /* Methods that only return a field by such a reference, with it. */
    struct getter {
        CXCursor m;
        char *field;
        char *usr; /* m's: a call in another unit names m by it */
    } * getters;
    int n_getters, cap_getters;
    /* Methods that only set fields (cusrc_setcall): their fields are
     * written where a call of them is not followed. */
    x_setter *setters;
    int n_setters, cap_setters;
} writes;

static void mark(writes *w, char *field)
{
    if (!field)
        return;
    for (int i = 0; i < w->n; i++)
        if (!strcmp(w->fields[i], field)) {
            free(field);
            return;
        }
    GROW(w->fields, w->n, w->cap);
    w->fields[w->n++] = field;
}

static bool assigning(const cnode *n)
{
    if ((n->kind == CXCursor_BinaryOperator || n->kind == CXCursor_CompoundAssignOperator) &&
        n->n_kids == 2) {
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(n->cur);
        return op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign;
    }
    if (n->kind == CXCursor_UnaryOperator && n->n_kids == 1) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(n->cur);
        return op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
               op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec ||
               op == CXUnaryOperator_AddrOf;
    }
    if (n->kind == CXCursor_CallExpr && n->n_kids >= 1) {
        char *name = cn_spelling(n->cur);
        bool op = !strncmp(name, "operator", 8) &&
                  (strchr(name + 8, '=') || strstr(name, "++") || strstr(name, "--")) &&
                  strcmp(name, "operator==") && strcmp(name, "operator!=") &&
                  strcmp(name, "operator<=") && strcmp(name, "operator>=");
        free(name);
        return op;
    }
    return false;
}

/* Every field of this that code below n writes, takes the address of,
 * passes by reference, or returns by reference; `this` handed on whole
 * makes every field one. */
static void scan_writes(cnode *n, writes *w)
{
    if (assigning(n))
        mark(w, cn_this_field(n->kids[0]));
    if (n->kind == CXCursor_MemberRefExpr && n->parent && n->parent->kind == CXCursor_CallExpr &&
        n->idx > 0 && clang_getCursorReferenced(n->parent->cur).kind != CXCursor_Constructor)
        mark(w, cn_this_field(n)); /* an argument bound to a reference */
    if (n->kind == CXCursor_ReturnStmt && w->ref_return && n->n_kids == 1) {
        cnode *r = cn_strip(n->kids[0]);
        if (r && r->kind == CXCursor_UnaryOperator && r->n_kids == 1)
            r = r->kids[0];
        mark(w, cn_this_field(r));
    }
    if (n->kind == CXCursor_CXXThisExpr) {
        const cnode *p = n->parent;
        while (p && is_wrapper(p))
            p = p->parent;
        if ((!p || p->kind != CXCursor_MemberRefExpr) && !read_only_arg(n))
            w->escapes = true;
    }
    for (int i = 0; i < n->n_kids; i++)
        scan_writes(n->kids[i], w);
}

static bool hands_out(CXType t)
{
    t = clang_getCanonicalType(t);
    if (t.kind != CXType_LValueReference && t.kind != CXType_RValueReference &&
        t.kind != CXType_Pointer)
        return false;
    return !clang_isConstQualifiedType(clang_getPointeeType(t));
}

static void class_scan(cusrc_tu *t, CXCursor cls, writes *w, int depth);

static void method_scan(cusrc_tu *t, cnode *decl, writes *w)
{
    CXCursor m = decl->cur;
    if (decl->kind == CXCursor_CXXMethod &&
        (clang_CXXMethod_isStatic(m) || clang_CXXMethod_isConst(m)))
        return; /* no this, or one it cannot write */
    CXCursor def = cn_definition(t, m);
    if (clang_Cursor_isNull(def)) {
        /* Defined in no unit gpulint reads: what it writes is not seen,
         * which matters where something calls it (class_writes looks). */
        GROW(w->setters, w->n_setters, w->cap_setters);
        w->setters[w->n_setters++] =
            (x_setter){m, cx_str(clang_getCursorUSR(m)), NULL, 0, false, true};
        return;
    }
    char **set = NULL;
    int n_set = decl->kind == CXCursor_CXXMethod ? x_setter_fields(t, m, &set) : -1;
    if (n_set >= 0) {
        GROW(w->setters, w->n_setters, w->cap_setters);
        w->setters[w->n_setters++] =
            (x_setter){m, cx_str(clang_getCursorUSR(m)), set, n_set, false, false};
        return;
    }
    w->ref_return = hands_out(clang_getCursorResultType(def));
    char *field = w->ref_return ? x_getter_field(m) : NULL;
    if (field) {
        /* Written where a caller writes through what it returns: looked
         * for at the calls (getter_calls_write). */
        GROW(w->getters, w->n_getters, w->cap_getters);
        w->getters[w->n_getters++] = (struct getter){m, field, cx_str(clang_getCursorUSR(m))};
        w->ref_return = false;
        return;
    }
    if (clang_equalCursors(def, m)) {
        scan_writes(decl, w);
    } else {
        cnode *tree = cn_build(def);
        scan_writes(tree, w);
        cn_free(tree);
    }
    w->ref_return = false;
}

static void class_scan(cusrc_tu *t, CXCursor cls, writes *w, int depth)
{
    if (clang_Cursor_isNull(cls) || depth > OBJ_MAX_DEPTH)
        return;
    cnode *tree = cn_build(cls);
    for (int i = 0; i < tree->n_kids && !w->escapes; i++) {
        cnode *k = tree->kids[i];
        if (k->kind == CXCursor_CXXMethod || k->kind == CXCursor_FunctionTemplate ||
            k->kind == CXCursor_ConversionFunction)
            method_scan(t, k, w);
        else if (k->kind == CXCursor_CXXBaseSpecifier)
            class_scan(t, record_decl(clang_getCursorType(k->cur)), w, depth + 1);
    }
    cn_free(tree);
}

static void getter_calls(cnode *n, writes *w)
{
    if (n->kind == CXCursor_CallExpr) {
        CXCursor m = clang_getCursorReferenced(n->cur);
        char *usr = NULL;
        for (int i = 0; i < w->n_getters; i++) {
            /* Cursors of two units never compare equal: the USR does. */
            bool same = clang_equalCursors(m, w->getters[i].m);
            if (!same && m.kind == CXCursor_CXXMethod) {
                if (!usr)
                    usr = cx_str(clang_getCursorUSR(m));
                same = !strcmp(usr, w->getters[i].usr);
            }
            if (same && x_method_call_changes(n, m))
                mark(w, xstrdup(w->getters[i].field));
        }
        free(usr);
    }
    for (int i = 0; i < n->n_kids; i++)
        getter_calls(n->kids[i], w);
}

static void getter_body(void *ctx, CXCursor def, cnode *tree)
{
    (void)def;
    getter_calls(tree, ctx);
}

/* A getter's field is written where some call of it in the file or its
 * headers writes through the reference it returns (`numElem() = n;`, a
 * non-const reference bound to it, its address taken). Code of another
 * unit reaches the object only through calls gpulint already takes as
 * changing it. */
static void getter_calls_write(cusrc_tu *t, writes *w)
{
    if (!w->n_getters || w->escapes)
        return;
    x_each_definition(t, getter_body, w);
}

/* What the methods of cls (with its bases') may write, once per class. */
static const struct class_memo *class_writes(cusrc_tu *t, CXCursor cls)
{
    char *usr = cx_str(clang_getCursorUSR(cls));
    for (size_t i = 0; i < t->n_classes; i++)
        if (!strcmp(t->classes[i].usr, usr)) {
            free(usr);
            return &t->classes[i];
        }
    writes w = {0};
    class_scan(t, cls, &w, 0);
    getter_calls_write(t, &w);
    if (!w.escapes)
        x_setter_calls(t, w.setters, w.n_setters);
    char **set = NULL;
    int n_set = 0, cap_set = 0;
    for (int i = 0; i < w.n_setters; i++) {
        /* A method no unit read defines, called: it may write anything. */
        w.escapes |= w.setters[i].any && w.setters[i].elsewhere;
        for (int k = 0; k < w.setters[i].n; k++) {
            if (w.setters[i].elsewhere) {
                mark(&w, w.setters[i].fields[k]);
            } else {
                GROW(set, n_set, cap_set);
                set[n_set++] = w.setters[i].fields[k];
            }
        }
        free(w.setters[i].fields);
        free(w.setters[i].usr);
    }
    free(w.setters);
    for (int i = 0; i < w.n_getters; i++) {
        free(w.getters[i].field);
        free(w.getters[i].usr);
    }
    free(w.getters);
    GROW(t->classes, t->n_classes, t->cap_classes);
    struct class_memo *m = &t->classes[t->n_classes++];
    m->usr = usr;
    m->fields = w.fields;
    m->n = w.n;
    m->escapes = w.escapes;
    m->set_fields = set;
    m->n_set = n_set;
    m->cap_set = cap_set;
    return m;
}

static bool writable(const struct class_memo *m, const char *field)
{
    if (!m || m->escapes)
        return true;
    for (int i = 0; i < m->n; i++)
        if (!strcmp(m->fields[i], field))
            return true;
    return false;
}

static bool calls_on_this_write(cnode *n, const char *field, int depth);

bool x_method_writes_field(CXCursor def, const char *field, int depth)
{
    if (clang_Cursor_isNull(def) || depth > OBJ_MAX_DEPTH)
        return true;
    cnode *tree = cn_build(def);
    writes w = {0};
    w.ref_return = hands_out(clang_getCursorResultType(def));
    scan_writes(tree, &w);
    bool hit = w.escapes;
    for (int i = 0; i < w.n; i++) {
        hit = hit || !strcmp(w.fields[i], field);
        free(w.fields[i]);
    }
    free(w.fields);
    hit = hit || calls_on_this_write(tree, field, depth);
    cn_free(tree);
    return hit;
}

/* A method of this called below n that may write field. */
static bool calls_on_this_write(cnode *n, const char *field, int depth)
{
    if (n->kind == CXCursor_CallExpr && n->n_kids >= 1) {
        cnode *callee = cn_strip(n->kids[0]);
        CXCursor m = clang_getCursorReferenced(n->cur);
        cnode *base = callee && callee->kind == CXCursor_MemberRefExpr && callee->n_kids
                          ? cn_strip(callee->kids[0])
                          : NULL;
        if (callee && callee->kind == CXCursor_MemberRefExpr &&
            (!callee->n_kids || (base && base->kind == CXCursor_CXXThisExpr)) &&
            m.kind == CXCursor_CXXMethod && !clang_CXXMethod_isStatic(m) &&
            !clang_CXXMethod_isConst(m) &&
            x_method_writes_field(clang_getCursorDefinition(m), field, depth + 1))
            return true;
    }
    for (int i = 0; i < n->n_kids; i++)
        if (calls_on_this_write(n->kids[i], field, depth))
            return true;
    return false;
}

bool x_class_field_written(cusrc_tu *t, CXCursor cls, const char *field)
{
    /* An instantiated class lists only the members its users needed;
     * its template's pattern has them all. */
    CXCursor pattern = clang_getSpecializedCursorTemplate(cls);
    const struct class_memo *m = class_writes(t, clang_Cursor_isNull(pattern) ? cls : pattern);
    /* The caller runs no setter: a field one sets is written for it. */
    for (int i = 0; m && i < m->n_set; i++)
        if (!strcmp(m->set_fields[i], field))
            return true;
    return writable(m, field);
}

void object_memo_free(cusrc_tu *t)
{
    for (size_t i = 0; i < t->n_classes; i++) {
        for (int k = 0; k < t->classes[i].n; k++)
            free(t->classes[i].fields[k]);
        free(t->classes[i].fields);
        for (int k = 0; k < t->classes[i].n_set; k++)
            free(t->classes[i].set_fields[k]);
        free(t->classes[i].set_fields);
        free(t->classes[i].usr);
    }
    free(t->classes);
    t->classes = NULL;
    t->n_classes = t->cap_classes = 0;
}

/* ---- construction ---- */

static bool obj_rec(fn_ctx *f, cnode *n, obj_fields *out, int depth);

static bool constant(fn_ctx *f, cnode *n, int64_t *value)
{
    return x_int_constant(f, n, value);
}

/* A field (or member object) the constructor sets: its value now. */
static void init_field(fn_ctx *cf, const struct class_memo *m, const char *path, CXType ft,
                       cnode *init, obj_fields *out, int depth)
{
    char *top = xstrdup(path);
    char *dot = strchr(top, '.');
    if (dot)
        *dot = '\0';
    bool ok = !writable(m, top);
    free(top);
    obj_drop(out, path);
    if (!ok || !init)
        return;
    int64_t value;
    if (cn_type_is_integral(ft)) {
        if (constant(cf, init, &value))
            obj_set(out, "", path, value);
    } else if (clang_getCanonicalType(ft).kind == CXType_Record) {
        obj_fields sub = {0};
        if (obj_rec(cf, init, &sub, depth + 1))
            obj_merge(out, &sub, path);
        obj_free(&sub);
    }
}

/* Fields with an initializer in the class (`int n = 1024;`), as every
 * constructor that does not name them sets them. */
static void in_class_inits(fn_ctx *cf, CXCursor cls, const struct class_memo *m, obj_fields *out,
                           int depth)
{
    cnode *tree = cn_build(cls);
    for (int i = 0; i < tree->n_kids; i++) {
        cnode *k = tree->kids[i];
        if (k->kind != CXCursor_FieldDecl)
            continue;
        cnode *init = cn_field_init(k);
        if (init) {
            char *name = cn_spelling(k->cur);
            init_field(cf, m, name, clang_getCursorType(k->cur), init, out, depth);
            free(name);
        }
    }
    cn_free(tree);
}

/* Main's argc and argv as a constructor's parameters (`Params p(argc,
 * argv)`), and whether another call may have run getopt before. */
typedef struct ctor_args {
    CXCursor argc, argv;
    const cnode *earlier;
} ctor_args;

typedef struct field_run {
    obj_fields *out;
    const struct class_memo *m;
} field_run;

static bool run_get(void *ctx, const char *field, int64_t *value)
{
    const field_run *fr = ctx;
    return obj_get(fr->out, field, value);
}

static void run_set(void *ctx, const char *field, int64_t value)
{
    field_run *fr = ctx;
    obj_drop(fr->out, field);
    if (!writable(fr->m, field))
        obj_set(fr->out, "", field, value);
}

static void construct(fn_ctx *f, cnode *call, CXCursor ctor, const struct class_memo *m,
                      obj_fields *out, int depth);

/* The constructor's body, statement by statement: `rows_ = r;` sets a
 * field, and so does a setter called on this (cusrc_setcall); a statement
 * handed main's argv (a getopt loop) is run on --run-args where it can be;
 * any other statement forgets what it writes. */
static void body_assigns(fn_ctx *cf, const struct class_memo *m, cnode *body, obj_fields *out,
                         const ctor_args *ca, int depth)
{
    for (int i = 0; i < body->n_kids; i++) {
        cnode *s = body->kids[i];
        if (s->kind == CXCursor_DeclStmt || s->kind == CXCursor_NullStmt)
            continue;
        cnode *call = cn_strip(s);
        CXCursor setter =
            call && call->kind == CXCursor_CallExpr ? x_call_on_this(call) : clang_getNullCursor();
        if (!clang_Cursor_isNull(setter) && x_is_setter(cf->t, setter)) {
            construct(cf, call, setter, m, out, depth + 1);
            continue;
        }
        cnode *root = NULL;
        char *path = s->kind == CXCursor_BinaryOperator && assigning(s) &&
                             clang_getCursorBinaryOperatorKind(s->cur) == CXBinaryOperator_Assign
                         ? cn_member_chain(s->kids[0], &root)
                         : NULL;
        if (path && (!root || root->kind == CXCursor_CXXThisExpr)) {
            init_field(cf, m, path, clang_getCursorType(cn_strip(s->kids[0])->cur), s->kids[1], out,
                       depth);
            free(path);
            continue;
        }
        free(path);
        field_run fr = {out, m};
        x_arg_fields fields = {run_get, run_set, &fr};
        if (ca && cf->t->run_args &&
            x_run_arg_stmt(cf, s, ca->argc, ca->argv, ca->earlier, &fields))
            continue;
        writes w = {0};
        scan_writes(s, &w);
        for (int k = 0; k < w.n; k++) {
            obj_drop(out, w.fields[k]);
            free(w.fields[k]);
        }
        free(w.fields);
        if (w.escapes)
            obj_free(out);
    }
}

/* Runs constructor ctor of call (made in f) on the object's fields: out
 * gets what it sets. m: what the methods of the object's own class (the
 * most derived) may write. A setter (cusrc_setcall) runs the same way, on
 * the fields the object already has. */
static void construct(fn_ctx *f, cnode *call, CXCursor ctor, const struct class_memo *m,
                      obj_fields *out, int depth)
{
    /* Each constructor is evaluated in a context of its own, so the
     * depth of the expression being evaluated does not bound a chain of
     * constructors that build each other's members: this does. */
    if (f->t->constructing >= OBJ_MAX_DEPTH)
        return;
    CXCursor cls = clang_getCursorSemanticParent(ctor);
    CXCursor def = cn_definition(f->t, ctor);
    bool has_def = !clang_Cursor_isNull(def);
    cnode *tree = cn_build(has_def ? def : cls);
    fn_ctx cf;
    fn_init(&cf, f->t, tree, false);
    param_binding pb[16];
    cnode *args[16];
    int np = has_def ? clang_Cursor_getNumArguments(def) : 0;
    if (ctor.kind != CXCursor_Constructor) /* a setter: its callee comes first */
        np = has_def ? cn_call_args(call, def, args, 16) : 0;
    for (int i = 0; ctor.kind == CXCursor_Constructor && i < np && i < 16; i++)
        args[i] = i < cn_n_expr_kids(call) ? cn_expr_kid(call, i) : NULL;
    int n = np < 0 || np > 16 ? -1 : f->t->obj_eval->bind(f, call, def, args, np, pb);
    if (n < 0) {
        fn_free(&cf);
        cn_free(tree);
        return;
    }
    bind_frame fr = {pb, n, NULL, true, out};
    cf.bindings = &fr;
    ctor_args ca = {clang_getNullCursor(), clang_getNullCursor(), NULL};
    for (int i = 0; i < np && i < 16; i++) {
        if (args[i] && x_main_param(args[i], 0))
            ca.argc = clang_Cursor_getArgument(def, (unsigned)i);
        if (args[i] && x_main_param(args[i], 1))
            ca.argv = clang_Cursor_getArgument(def, (unsigned)i);
    }
    if (!clang_Cursor_isNull(ca.argv))
        ca.earlier = x_argv_before(f->root, call);
    f->t->constructing++;
    if (ctor.kind == CXCursor_Constructor)
        in_class_inits(&cf, cls, m, out, depth);
    for (int i = 0; has_def && i < tree->n_kids; i++) {
        cnode *k = tree->kids[i];
        cnode *next = i + 1 < tree->n_kids ? tree->kids[i + 1] : NULL;
        if (k->kind == CXCursor_MemberRef && next && cn_is_expr(next)) {
            char *name = cn_spelling(k->cur);
            init_field(&cf, m, name, clang_getCursorType(clang_getCursorReferenced(k->cur)), next,
                       out, depth);
            free(name);
            i++;
        } else if (k->kind == CXCursor_TypeRef && next && next->kind == CXCursor_CallExpr &&
                   clang_getCursorReferenced(next->cur).kind == CXCursor_Constructor) {
            /* A base class's constructor: the same object, its fields. */
            construct(&cf, next, clang_getCursorReferenced(next->cur), m, out, depth + 1);
            i++;
        } else if (k->kind == CXCursor_CompoundStmt) {
            body_assigns(&cf, m, k, out, clang_Cursor_isNull(ca.argv) ? NULL : &ca, depth);
        }
    }
    f->t->constructing--;
    f->t->obj_eval->unbind(pb, n);
    fn_free(&cf);
    cn_free(tree);
}

/* ---- objects named by expressions ---- */

static const obj_fields *self_of(const fn_ctx *f)
{
    for (const bind_frame *fr = f->bindings; fr; fr = fr->up)
        if (fr->has_self)
            return fr->self;
    return NULL;
}

static bool same_record(CXType a, CXType b)
{
    CXCursor x = record_decl(a), y = record_decl(b);
    return !clang_Cursor_isNull(x) && !clang_Cursor_isNull(y) && clang_equalCursors(x, y);
}

/* Does f write a field of v, or take v's address where a write could hide? */
static bool var_written(cnode *n, const var_info *v)
{
    if (assigning(n)) {
        cnode *root = NULL;
        char *path = cn_member_chain(n->kids[0], &root);
        bool hit = path && root && root->kind == CXCursor_DeclRefExpr &&
                   clang_equalCursors(clang_getCursorReferenced(root->cur), v->decl);
        free(path);
        if (hit)
            return true;
    }
    for (int i = 0; i < n->n_kids; i++)
        if (var_written(n->kids[i], v))
            return true;
    return false;
}

static bool names_var(const cnode *n, const var_info *v)
{
    return n->kind == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(n->cur), v->decl);
}

static bool pointer_like(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Pointer || t.kind == CXType_LValueReference ||
           t.kind == CXType_RValueReference;
}

/* Does v (a local object, or a pointer to one) reach another name through
 * which its fields could be written unseen: a pointer or reference
 * initialised or assigned from it (`Solver &r = s;`, `Solver *q = p;`),
 * a pointer to it handed to a parameter that points to non-const, or
 * returned? (`&v` is addr_taken's, cusrc_ast; a reference parameter,
 * x_arg_changer's.) */
static bool escapes(const cnode *n, const var_info *v)
{
    if (names_var(n, v)) {
        const cnode *arg = n, *p = n->parent;
        while (p && (is_wrapper(p) || p->kind == CXCursor_CStyleCastExpr)) {
            arg = p;
            p = p->parent;
        }
        bool ptr = pointer_like(clang_getCursorType(v->decl));
        if (!p)
            return false;
        if (p->kind == CXCursor_VarDecl)
            return pointer_like(clang_getCursorType(p->cur));
        if (p->kind == CXCursor_ReturnStmt)
            return ptr;
        if (p->kind == CXCursor_BinaryOperator && p->n_kids == 2 && p->kids[1] == arg &&
            clang_getCursorBinaryOperatorKind(p->cur) == CXBinaryOperator_Assign)
            return ptr;
        if (p->kind == CXCursor_CallExpr &&
            clang_getCanonicalType(clang_getCursorType(v->decl)).kind == CXType_Pointer)
            return !read_only_arg(n);
        return false;
    }
    for (int i = 0; i < n->n_kids; i++)
        if (escapes(n->kids[i], v))
            return true;
    return false;
}

bool x_fields_alias(fn_ctx *f, var_info *v)
{
    return escapes(f->root, v);
}

bool x_fields_escape(fn_ctx *f, var_info *v)
{
    if (!v->escapes)
        v->escapes = v->addr_taken || escapes(f->root, v) ? 2 : 1;
    return v->escapes == 2;
}

/* ---- setters called on a local ---- */

typedef struct setter_run {
    fn_ctx *f;
    const var_info *v;
    const cnode *use;
    const struct class_memo *m;
    obj_fields *out;
    int depth;
} setter_run;

/* Is there a loop below root around both a and b? */
static bool share_loop(const cnode *a, const cnode *b, const cnode *root)
{
    for (const cnode *p = a->parent; p && p != root; p = p->parent)
        if ((p->kind == CXCursor_ForStmt || p->kind == CXCursor_WhileStmt ||
             p->kind == CXCursor_DoStmt || p->kind == CXCursor_CXXForRangeStmt) &&
            cn_inside(b, p))
            return true;
    return false;
}

/* A setter call on the local: before the use, run where it runs every
 * time the use does, skipped in an arm that never runs; after it, of no
 * matter unless a loop brings control back to the use. Anywhere else (an
 * arm not decided, a loop) its fields are no longer known. */
static void run_setter(setter_run *r, cnode *call, CXCursor setter)
{
    x_arm_fn arm = r->f->t->obj_eval->arm;
    bool before = cn_spelled_at(call->cur) < cn_spelled_at(r->use->cur);
    if (!before && !share_loop(call, r->use, r->f->root))
        return;
    bool looped = cn_in_loop(call, r->f->root);
    if (before && !looped && !x_may_reach(call, r->use, NULL, arm, r->f))
        return;
    if (before && !looped && x_dominates(call, r->use, arm, r->f)) {
        construct(r->f, call, setter, r->m, r->out, r->depth + 1);
        return;
    }
    char **fields;
    int n = x_setter_fields(r->f->t, setter, &fields);
    for (int i = 0; i < n; i++) {
        obj_drop(r->out, fields[i]);
        free(fields[i]);
    }
    free(fields);
}

static void setter_calls(setter_run *r, cnode *n)
{
    if (n->kind == CXCursor_CallExpr && n->n_kids) {
        cnode *callee = cn_strip(n->kids[0]);
        CXCursor m = clang_getCursorReferenced(n->cur);
        cnode *base = callee && callee->n_kids ? cn_strip_casts(callee->kids[0]) : NULL;
        if (callee && callee->kind == CXCursor_MemberRefExpr && base && names_var(base, r->v) &&
            m.kind == CXCursor_CXXMethod && x_is_setter(r->f->t, m))
            run_setter(r, n, m);
    }
    for (int i = 0; i < n->n_kids; i++)
        setter_calls(r, n->kids[i]);
}

/* The one value a local object (or pointer to one) has at use. */
static bool local_object(fn_ctx *f, var_info *v, cnode *use, obj_fields *out, int depth)
{
    /* The whole-function scans hold for every use: once per variable. */
    if (!v->aliased)
        v->aliased =
            x_fields_escape(f, v) || v->n_member_assigns || var_written(f->root, v) ? 2 : 1;
    if (v->visiting || v->aliased == 2 || x_arg_changer(f->root, v, 0, cn_spelled_at(use->cur)))
        return false;
    cnode *value = NULL;
    if (v->init && !v->n_assigns)
        value = v->init;
    else if (!v->init && v->n_assigns == 1 && v->assigns[0]->kind == CXCursor_BinaryOperator &&
             clang_getCursorBinaryOperatorKind(v->assigns[0]->cur) == CXBinaryOperator_Assign &&
             cn_spelled_at(v->assigns[0]->cur) < cn_spelled_at(use->cur))
        value = v->assigns[0]->kids[1];
    if (!value)
        return false;
    v->visiting++;
    bool ok = obj_rec(f, value, out, depth + 1);
    if (ok) {
        setter_run r = {
            f, v, use, class_writes(f->t, record_decl(clang_getCursorType(v->decl))), out, depth};
        setter_calls(&r, f->root);
    }
    v->visiting--;
    return ok;
}

static cnode *single_return(cnode *tree)
{
    for (int i = 0; i < tree->n_kids; i++) {
        cnode *body = tree->kids[i];
        if (body->kind == CXCursor_CompoundStmt && body->n_kids == 1 &&
            body->kids[0]->kind == CXCursor_ReturnStmt && body->kids[0]->n_kids == 1)
            return body->kids[0]->kids[0];
    }
    return NULL;
}

static bool call_object_rec(fn_ctx *f, cnode *call, obj_fields *out, int depth)
{
    cnode *callee = call->n_kids ? cn_strip(call->kids[0]) : NULL;
    if (!callee || callee->kind != CXCursor_MemberRefExpr)
        return false;
    if (!callee->n_kids) {
        const obj_fields *self = self_of(f);
        obj_sub(out, self, "");
        return self != NULL;
    }
    return obj_rec(f, callee->kids[0], out, depth + 1);
}

bool x_call_object(fn_ctx *f, cnode *call, obj_fields *out)
{
    memset(out, 0, sizeof *out);
    return !f->device && call_object_rec(f, call, out, 0);
}

/* A method `{ return <expr>; }` evaluated on a known object: fn the
 * method, run gets the returned expression's value (an object's fields,
 * or a number). */
typedef bool (*return_fn)(fn_ctx *f, cnode *ret, void *ctx);

static bool on_object(fn_ctx *f, cnode *call, CXCursor fn, int depth, return_fn run, void *ctx)
{
    if (fn.kind != CXCursor_CXXMethod || clang_CXXMethod_isStatic(fn) ||
        clang_CXXMethod_isVirtual(fn) || f->depth > X_MAX_DEPTH / 4)
        return false;
    CXCursor def = cn_definition(f->t, fn);
    if (clang_Cursor_isNull(def))
        return false;
    obj_fields self = {0};
    if (!call_object_rec(f, call, &self, depth)) {
        obj_free(&self);
        return false;
    }
    cnode *tree = cn_build(def);
    cnode *ret = single_return(tree);
    bool ok = false;
    param_binding pb[8];
    cnode *args[8];
    int np = ret ? cn_call_args(call, def, args, 8) : -1;
    int n = np >= 0 ? f->t->obj_eval->bind(f, call, def, args, np, pb) : -1;
    if (n >= 0) {
        bind_frame fr = {pb, n, f->bindings, true, &self};
        f->bindings = &fr;
        f->depth++;
        ok = run(f, ret, ctx);
        f->depth--;
        f->bindings = fr.up;
        f->t->obj_eval->unbind(pb, n);
    }
    cn_free(tree);
    obj_free(&self);
    return ok;
}

typedef struct obj_ret {
    obj_fields *out;
    int depth;
} obj_ret;

static bool returned_object(fn_ctx *f, cnode *ret, void *ctx)
{
    obj_ret *r = ctx;
    return obj_rec(f, ret, r->out, r->depth + 1);
}

typedef struct field_list {
    CXCursor v[OBJ_MAX_FIELDS];
    int n;
} field_list;

static enum CXVisitorResult list_field(CXCursor c, CXClientData data)
{
    field_list *l = data;
    if (l->n >= OBJ_MAX_FIELDS)
        return CXVisit_Break;
    l->v[l->n++] = c;
    return CXVisit_Continue;
}

static enum CXChildVisitResult find_base(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CXXBaseSpecifier)
        *(bool *)data = true;
    return CXChildVisit_Continue;
}

/* A braced list that initializes a struct (`params p = {128, 3, 480};`,
 * an aggregate): its fields in declaration order take the list's values.
 * Fields it leaves out are not taken (their in-class initializers or zero
 * would need the class's rules), nor is a struct with bases, whose list
 * starts with them. */
static bool aggregate(fn_ctx *f, cnode *list, obj_fields *out, int depth)
{
    CXType t = clang_getCursorType(list->cur);
    CXCursor rec = record_decl(t);
    bool has_base = false;
    if (clang_Cursor_isNull(rec) || (!cn_in_main(f->t, rec) && !cn_in_user_header(f->t, rec)))
        return false;
    clang_visitChildren(rec, find_base, &has_base);
    field_list fields = {.n = 0};
    clang_Type_visitFields(clang_getCanonicalType(t), list_field, &fields);
    if (has_base || list->n_kids > fields.n)
        return false;
    /* A designated list (`{.b = 512}`) names its fields: libclang shows
     * each entry as an unexposed expression spelled from its designator,
     * which does not map by position. */
    for (int i = 0; i < list->n_kids; i++) {
        char *text = list->kids[i]->kind == CXCursor_UnexposedExpr
                         ? cn_text(f->t, list->kids[i]->cur)
                         : NULL;
        bool designated = text && (text[0] == '.' || text[0] == '[');
        free(text);
        if (designated)
            return false;
    }
    for (int i = 0; i < list->n_kids; i++) {
        CXType ft = clang_getCursorType(fields.v[i]);
        char *name = cn_spelling(fields.v[i]);
        int64_t value;
        if (cn_type_is_integral(ft) && constant(f, list->kids[i], &value)) {
            obj_set(out, "", name, value);
        } else if (clang_getCanonicalType(ft).kind == CXType_Record) {
            obj_fields sub = {0};
            if (obj_rec(f, list->kids[i], &sub, depth + 1))
                obj_merge(out, &sub, name);
            obj_free(&sub);
        }
        free(name);
    }
    return true;
}

static bool obj_rec(fn_ctx *f, cnode *n, obj_fields *out, int depth)
{
    n = cn_strip(n);
    if (!n || depth > OBJ_MAX_DEPTH || f->device)
        return false;
    switch (n->kind) {
    case CXCursor_CXXThisExpr: {
        const obj_fields *self = self_of(f);
        obj_sub(out, self, "");
        return self != NULL;
    }
    case CXCursor_MemberRefExpr: {
        cnode *root = NULL;
        char *path = cn_member_chain(n, &root);
        if (!path)
            return false;
        obj_fields whole = {0};
        bool ok = root && root->kind == CXCursor_DeclRefExpr
                      ? obj_rec(f, root, &whole, depth + 1)
                      : (obj_sub(&whole, self_of(f), ""), self_of(f) != NULL);
        if (ok)
            obj_sub(out, &whole, path);
        obj_free(&whole);
        free(path);
        return ok;
    }
    case CXCursor_CallExpr: {
        CXCursor fn = clang_getCursorReferenced(n->cur);
        if (fn.kind == CXCursor_Constructor) {
            CXCursor cls = clang_getCursorSemanticParent(fn);
            /* A library's class (std::string, a timer) holds no size. */
            if (!cn_in_main(f->t, cls) && !cn_in_user_header(f->t, cls))
                return false;
            cnode *only = cn_n_expr_kids(n) == 1 ? cn_expr_kid(n, 0) : NULL;
            if (only &&
                same_record(clang_getCursorType(cn_strip(only)->cur), clang_getCursorType(cls)))
                return obj_rec(f, only, out, depth + 1); /* a copy */
            construct(f, n, fn, class_writes(f->t, cls), out, depth);
            return true;
        }
        obj_ret r = {out, depth};
        return on_object(f, n, fn, depth, returned_object, &r);
    }
    case CXCursor_InitListExpr:
        return aggregate(f, n, out, depth);
    case CXCursor_CXXNewExpr:
        for (int i = 0; i < n->n_kids; i++) {
            cnode *k = n->kids[i];
            if (k->kind == CXCursor_CallExpr &&
                clang_getCursorReferenced(k->cur).kind == CXCursor_Constructor)
                return obj_rec(f, k, out, depth + 1);
        }
        return false;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(n->cur);
        return n->n_kids == 1 && (op == CXUnaryOperator_Deref || op == CXUnaryOperator_AddrOf) &&
               obj_rec(f, n->kids[0], out, depth + 1);
    }
    case CXCursor_DeclRefExpr: {
        CXCursor r = clang_getCursorReferenced(n->cur);
        if (r.kind == CXCursor_ParmDecl) {
            for (const bind_frame *fr = f->bindings; fr; fr = fr->up)
                for (int i = 0; i < fr->n; i++)
                    if (clang_equalCursors(fr->b[i].parm, r)) {
                        obj_sub(out, &fr->b[i].obj, "");
                        return fr->b[i].obj.n > 0;
                    }
            return false;
        }
        var_info *v = fn_var(f, r);
        return v && !v->is_param && local_object(f, v, n, out, depth);
    }
    default:
        return false;
    }
}

bool x_object(fn_ctx *f, cnode *n, obj_fields *out)
{
    memset(out, 0, sizeof *out);
    if (f->device)
        return false;
    CXCursor rec = record_decl(clang_getCursorType(cn_strip(n) ? cn_strip(n)->cur : n->cur));
    if (clang_Cursor_isNull(rec))
        return false;
    bool ok = obj_rec(f, n, out, 0);
    if (!ok)
        obj_free(out);
    return ok;
}

expr *x_object_field(fn_ctx *f, cnode *member)
{
    if (f->device || !cn_type_is_integral(clang_getCursorType(member->cur)))
        return NULL;
    cnode *root = NULL;
    char *path = cn_member_chain(member, &root);
    if (!path)
        return NULL;
    int64_t value;
    bool found = false;
    if (!root || root->kind == CXCursor_CXXThisExpr) {
        found = obj_get(self_of(f), path, &value);
    } else {
        obj_fields o = {0};
        if (obj_rec(f, root, &o, 0))
            found = obj_get(&o, path, &value);
        obj_free(&o);
    }
    free(path);
    return found ? expr_const(value) : NULL;
}

typedef struct value_ret {
    expr *e;
} value_ret;

static bool returned_value(fn_ctx *f, cnode *ret, void *ctx)
{
    value_ret *r = ctx;
    r->e = f->t->obj_eval->value_of(f, ret);
    return true;
}

expr *x_method_value(fn_ctx *f, cnode *call, CXCursor method)
{
    CXType rt = clang_getCanonicalType(clang_getCursorResultType(method));
    if (rt.kind == CXType_LValueReference || rt.kind == CXType_RValueReference)
        rt = clang_getPointeeType(rt); /* `int &rows() { return rows_; }` read */
    if (f->device || !cn_type_is_integral(rt))
        return NULL;
    value_ret r = {NULL};
    on_object(f, call, method, 0, returned_value, &r);
    return r.e;
}
