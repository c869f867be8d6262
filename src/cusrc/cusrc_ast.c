/* cusrc_ast: a walkable copy of one function's cursors (libclang only
 * offers callbacks and no parent links), cursor helpers (text, locations,
 * types) and the table of what each local variable does: its initialiser,
 * its assignments, whether its address escapes (an address lent only for
 * reading does not). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

/* ---- tree ---- */

typedef struct build_ctx {
    cnode *parent;
    int depth;
    int cap;
} build_ctx;

static cnode *new_node(CXCursor c, cnode *parent)
{
    cnode *n = xcalloc(1, sizeof *n);
    n->cur = c;
    n->kind = clang_getCursorKind(c);
    n->parent = parent;
    return n;
}

static enum CXChildVisitResult build_visit(CXCursor c, CXCursor parent, CXClientData data);

static void build_kids(cnode *n, int depth)
{
    if (depth >= CN_MAX_DEPTH)
        return;
    build_ctx b = {n, depth, 0};
    clang_visitChildren(n->cur, build_visit, &b);
}

static enum CXChildVisitResult build_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    build_ctx *b = data;
    cnode *p = b->parent;
    if (p->n_kids == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 4;
        p->kids = xrealloc(p->kids, (size_t)b->cap * sizeof *p->kids);
    }
    cnode *n = new_node(c, p);
    n->idx = p->n_kids;
    p->kids[p->n_kids++] = n;
    build_kids(n, b->depth + 1);
    return CXChildVisit_Continue;
}

cnode *cn_build(CXCursor c)
{
    cnode *root = new_node(c, NULL);
    build_kids(root, 0);
    return root;
}

void cn_free(cnode *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->n_kids; i++)
        cn_free(n->kids[i]);
    free(n->kids);
    free(n);
}

bool cn_inside(const cnode *n, const cnode *anc)
{
    for (; n; n = n->parent)
        if (n == anc)
            return true;
    return false;
}

bool cn_is_expr(const cnode *n)
{
    return n && clang_isExpression(n->kind);
}

int cn_n_expr_kids(const cnode *n)
{
    int k = 0;
    for (int i = 0; i < n->n_kids; i++)
        if (cn_is_expr(n->kids[i]))
            k++;
    return k;
}

cnode *cn_expr_kid(const cnode *n, int i)
{
    for (int j = 0; j < n->n_kids; j++)
        if (cn_is_expr(n->kids[j]) && i-- == 0)
            return n->kids[j];
    return NULL;
}

/* libclang shows implicit casts, temporaries, pseudo-objects and constant
 * wrappers as UnexposedExpr with one kid; none of them changes an integer
 * value the way the analyses see it. */
cnode *cn_strip(cnode *n)
{
    while (n) {
        if (n->kind == CXCursor_ParenExpr && n->n_kids == 1)
            n = n->kids[0];
        else if (n->kind == CXCursor_UnexposedExpr && n->n_kids == 1 && cn_is_expr(n->kids[0]))
            n = n->kids[0];
        else
            break;
    }
    return n;
}

cnode *cn_strip_casts(cnode *n)
{
    for (;;) {
        n = cn_strip(n);
        if (!n)
            return n;
        switch (n->kind) {
        case CXCursor_CStyleCastExpr:
        case CXCursor_CXXStaticCastExpr:
        case CXCursor_CXXReinterpretCastExpr:
        case CXCursor_CXXConstCastExpr:
        case CXCursor_CXXFunctionalCastExpr: {
            cnode *k = cn_expr_kid(n, cn_n_expr_kids(n) - 1);
            if (!k)
                return n;
            n = k;
            break;
        }
        default:
            return n;
        }
    }
}

cnode *cn_arg_call(const cnode *n, CXCursor *callee, int *slot)
{
    const cnode *arg = n;
    cnode *p = n->parent;
    while (p &&
           (p->kind == CXCursor_ParenExpr || p->kind == CXCursor_UnexposedExpr ||
            p->kind == CXCursor_CStyleCastExpr) &&
           p->n_kids == 1) {
        arg = p;
        p = p->parent;
    }
    if (!p || p->kind != CXCursor_CallExpr)
        return NULL;
    CXCursor fn = clang_getCursorReferenced(p->cur);
    int na = clang_Cursor_getNumArguments(p->cur);
    int np = clang_Cursor_getNumArguments(fn);
    for (int k = 0; k < na && k < np; k++)
        if (clang_equalCursors(clang_Cursor_getArgument(p->cur, (unsigned)k), arg->cur)) {
            *callee = fn;
            *slot = k;
            return p;
        }
    /* libclang's argument cursors do not always compare equal to the
     * visited ones (a call that initialises a variable, `long t =
     * run(&n, ...)`): the argument's place among the call's expressions,
     * after the callee, then. */
    if (fn.kind == CXCursor_FunctionDecl && cn_n_expr_kids(p) == na + 1)
        for (int k = 0; k < na && k < np; k++)
            if (cn_expr_kid(p, k + 1) == arg) {
                *callee = fn;
                *slot = k;
                return p;
            }
    return NULL;
}

bool cn_param_reads_only(CXCursor callee, int slot)
{
    CXType t = clang_getCanonicalType(
        clang_getCursorType(clang_Cursor_getArgument(callee, (unsigned)slot)));
    return t.kind == CXType_Pointer && clang_isConstQualifiedType(clang_getPointeeType(t));
}

/* ---- strings and locations ---- */

char *cx_str(CXString s)
{
    const char *c = clang_getCString(s);
    char *r = xstrdup(c ? c : "");
    clang_disposeString(s);
    return r;
}

char *cn_spelling(CXCursor c)
{
    return cx_str(clang_getCursorSpelling(c));
}

char *cn_type_spelling(CXType t)
{
    return cx_str(clang_getTypeSpelling(t));
}

char *cn_ref_name(CXCursor c)
{
    CXCursor r = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(r))
        return xstrdup("");
    return cn_spelling(r);
}

bool cn_is_barrier_call(const cnode *n)
{
    if (!n || n->kind != CXCursor_CallExpr)
        return false;
    char *name = cn_ref_name(n->cur);
    bool bar = name && strncmp(name, "__syncthreads", 13) == 0;
    free(name);
    return bar;
}

int cn_chevron_config(const cnode *n)
{
    if (!n || n->kind != CXCursor_CallExpr)
        return 0;
    for (int i = 1; i < n->n_kids && i < 3; i++) {
        if (n->kids[i]->kind != CXCursor_CallExpr)
            continue;
        char *name = cn_spelling(n->kids[i]->cur);
        bool cfg =
            !strcmp(name, "__cudaPushCallConfiguration") || !strcmp(name, "cudaConfigureCall");
        free(name);
        if (cfg)
            return i;
    }
    return 0;
}

cnode *cn_field_init(const cnode *decl)
{
    /* A bit-field's first expression is its width. */
    int skip = clang_Cursor_isBitField(decl->cur) ? 1 : 0;
    for (int i = 0; i < decl->n_kids; i++)
        if (cn_is_expr(decl->kids[i]) && skip-- == 0)
            return decl->kids[i];
    return NULL;
}

bool cn_is_comparison(const cnode *n)
{
    if (!n || n->kind != CXCursor_BinaryOperator || n->n_kids != 2)
        return false;
    enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(n->cur);
    return k >= CXBinaryOperator_LT && k <= CXBinaryOperator_NE;
}

static bool expansion(CXCursor c, CXFile *file, unsigned *line, unsigned *col, unsigned *off)
{
    CXSourceLocation l = clang_getCursorLocation(c);
    if (clang_equalLocations(l, clang_getNullLocation()))
        return false;
    clang_getExpansionLocation(l, file, line, col, off);
    return *file != NULL;
}

bool cn_in_main(cusrc_tu *t, CXCursor c)
{
    CXFile f = NULL;
    unsigned line, col, off;
    if (!expansion(c, &f, &line, &col, &off))
        return false;
    return clang_File_isEqual(f, t->main_file);
}

bool cn_in_user_header(cusrc_tu *t, CXCursor c)
{
    CXFile f = NULL;
    unsigned line, col, off;
    if (!expansion(c, &f, &line, &col, &off) || clang_File_isEqual(f, t->main_file))
        return false;
    return !clang_Location_isInSystemHeader(clang_getCursorLocation(c));
}

unsigned cn_spelled_at(CXCursor c)
{
    CXFile f = NULL;
    unsigned line = 0, col = 0, off = 0;
    clang_getSpellingLocation(clang_getCursorLocation(c), &f, &line, &col, &off);
    return f ? off : 0;
}

void cn_loc(cusrc_tu *t, CXCursor c, src_loc *out)
{
    CXFile f = NULL;
    unsigned line = 0, col = 0, off = 0;
    free(out->file);
    out->file = NULL;
    out->line = out->column = 0;
    if (!expansion(c, &f, &line, &col, &off)) {
        out->file = xstrdup(t->path);
        return;
    }
    if (clang_File_isEqual(f, t->main_file)) {
        out->file = xstrdup(t->path);
    } else {
        /* "./ops.cuh" (found beside a main file named without a directory)
         * reads as the user wrote it. */
        char *name = cx_str(clang_getFileName(f));
        const char *p = name;
        while (p[0] == '.' && p[1] == '/' && p[2])
            p += 2;
        out->file = xstrdup(p);
        free(name);
    }
    out->line = (int)line;
    out->column = (int)col;
}

bool cn_line_span(CXCursor c, int *first, int *last)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1 = NULL, f2 = NULL;
    unsigned l1 = 0, l2 = 0, col, off;
    clang_getExpansionLocation(clang_getRangeStart(r), &f1, &l1, &col, &off);
    clang_getExpansionLocation(clang_getRangeEnd(r), &f2, &l2, &col, &off);
    if (!f1 || !f2 || !clang_File_isEqual(f1, f2) || l2 < l1)
        return false;
    *first = (int)l1;
    *last = (int)l2;
    return true;
}

/* The cursor's extent as a range of the file it was expanded in: an extent
 * that starts inside a macro (`__global__ void k(...)`) tokenizes to
 * nothing otherwise. */
static CXSourceRange file_range(cusrc_tu *t, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1 = NULL, f2 = NULL;
    unsigned l, col, o1 = 0, o2 = 0;
    clang_getExpansionLocation(clang_getRangeStart(r), &f1, &l, &col, &o1);
    clang_getExpansionLocation(clang_getRangeEnd(r), &f2, &l, &col, &o2);
    if (!f1 || !f2 || !clang_File_isEqual(f1, f2) || o2 < o1)
        return r;
    return clang_getRange(clang_getLocationForOffset(t->tu, f1, o1),
                          clang_getLocationForOffset(t->tu, f2, o2));
}

static int tokens_of(cusrc_tu *t, CXSourceRange range, char ***out)
{
    CXToken *toks = NULL;
    unsigned n = 0;
    *out = NULL;
    clang_tokenize(t->tu, range, &toks, &n);
    if (!toks)
        return 0;
    char **r = xcalloc(n ? n : 1, sizeof *r);
    for (unsigned i = 0; i < n; i++)
        r[i] = cx_str(clang_getTokenSpelling(t->tu, toks[i]));
    clang_disposeTokens(t->tu, toks, n);
    *out = r;
    return (int)n;
}

int cn_tokens(cusrc_tu *t, CXCursor c, char ***out)
{
    int n = tokens_of(t, clang_getCursorExtent(c), out);
    if (n > 0)
        return n;
    free(*out);
    return tokens_of(t, file_range(t, c), out);
}

void cn_free_tokens(char **toks, int n)
{
    for (int i = 0; i < n; i++)
        free(toks[i]);
    free(toks);
}

const char *cn_file_contents(cusrc_tu *t, CXFile f, size_t *size)
{
    for (int i = 0; i < t->n_file_text; i++)
        if (clang_File_isEqual(t->file_text[i].file, f)) {
            *size = t->file_text[i].size;
            return t->file_text[i].buf;
        }
    const char *buf = clang_getFileContents(t->tu, f, size);
    int slot = t->n_file_text < 16 ? t->n_file_text++ : t->next_file_text++ % 16;
    t->file_text[slot] = (struct tu_file_text){f, buf, *size};
    return buf;
}

/* The text the user wrote: a slice of the file when the extent lies in one
 * file, else the tokens joined (macro arguments, generated code). */
char *cn_text(cusrc_tu *t, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1 = NULL, f2 = NULL;
    unsigned l, col, o1 = 0, o2 = 0;
    clang_getExpansionLocation(clang_getRangeStart(r), &f1, &l, &col, &o1);
    clang_getExpansionLocation(clang_getRangeEnd(r), &f2, &l, &col, &o2);
    if (f1 && f2 && clang_File_isEqual(f1, f2) && o2 > o1) {
        size_t size = 0;
        /* A definition another unit gave (cusrc_sibling) is that unit's text. */
        CXTranslationUnit own = clang_Cursor_getTranslationUnit(c);
        const char *buf = own == t->tu || !own ? cn_file_contents(t, f1, &size)
                                               : clang_getFileContents(own, f1, &size);
        if (buf && o2 <= size) {
            /* Collapse runs of whitespace so multi-line expressions read on one line. */
            sbuf b;
            sbuf_init(&b);
            bool space = false;
            for (unsigned i = o1; i < o2; i++) {
                char ch = buf[i];
                if (ch == '\n' || ch == '\t' || ch == '\r' || ch == ' ') {
                    space = true;
                    continue;
                }
                if (space && b.len)
                    sbuf_addc(&b, ' ');
                space = false;
                sbuf_addc(&b, ch);
            }
            if (b.len)
                return sbuf_take(&b);
            sbuf_free(&b);
        }
    }
    char **toks;
    int n = cn_tokens(t, c, &toks);
    sbuf b;
    sbuf_init(&b);
    for (int i = 0; i < n; i++) {
        if (i)
            sbuf_addc(&b, ' ');
        sbuf_add(&b, toks[i]);
    }
    cn_free_tokens(toks, n);
    if (!b.len)
        sbuf_add(&b, "");
    return sbuf_take(&b);
}

char *cn_text_trunc(cusrc_tu *t, CXCursor c, size_t max)
{
    char *s = cn_text(t, c);
    if (strlen(s) > max) {
        s[max - 3] = '.';
        s[max - 2] = '.';
        s[max - 1] = '.';
        s[max] = '\0';
    }
    return s;
}

typedef struct attr_find {
    enum CXCursorKind kind;
    bool found;
} attr_find;

static enum CXChildVisitResult attr_visit(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    attr_find *a = d;
    if (clang_getCursorKind(c) == a->kind) {
        a->found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

bool cn_has_attr(CXCursor c, enum CXCursorKind attr)
{
    attr_find a = {attr, false};
    clang_visitChildren(c, attr_visit, &a);
    return a.found;
}

/* ---- types ---- */

bool cn_is_array_type(CXType t)
{
    return t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
           t.kind == CXType_DependentSizedArray || t.kind == CXType_VariableArray;
}

/* C adjusts a parameter declared as an array (`double a[]`, `double
 * phi[][400][400]`) to a pointer to its element, but libclang reports the
 * type as written, on the declaration and on every name of it: such a
 * parameter is a pointer all the same. */
bool cn_decl_pointer(CXCursor decl, CXType *pointee)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    if (t.kind != CXType_Pointer && !(cn_is_array_type(t) && decl.kind == CXCursor_ParmDecl))
        return false;
    if (pointee)
        *pointee =
            t.kind == CXType_Pointer ? clang_getPointeeType(t) : clang_getArrayElementType(t);
    return true;
}

int64_t cn_type_size(CXType t)
{
    /* clang_Type_getSizeOf reaches ASTContext::getTypeInfo, which has no
     * answer for placeholder types (a bound member function "x.f" without
     * its call, an overload set, a dependent expression: spelled "<bound
     * member function type>" and so on) and crashes libclang-22 (SIGBUS in
     * llm.c's dev/cuda kernels). Only sized kinds are asked. */
    CXType c = clang_getCanonicalType(t);
    switch (c.kind) {
    case CXType_Invalid:
    case CXType_Unexposed:
    case CXType_Void:
    case CXType_Dependent:
    case CXType_Overload:
    case CXType_FunctionNoProto:
    case CXType_FunctionProto:
    case CXType_IncompleteArray:
    case CXType_VariableArray:
    case CXType_DependentSizedArray:
        return -1;
    default:
        break;
    }
    long long s = clang_Type_getSizeOf(t);
    return s < 0 ? -1 : (int64_t)s;
}

bool cn_type_is_integral(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    switch (c.kind) {
    case CXType_Bool:
    case CXType_Char_U:
    case CXType_UChar:
    case CXType_Char16:
    case CXType_Char32:
    case CXType_UShort:
    case CXType_UInt:
    case CXType_ULong:
    case CXType_ULongLong:
    case CXType_UInt128:
    case CXType_Char_S:
    case CXType_SChar:
    case CXType_WChar:
    case CXType_Short:
    case CXType_Int:
    case CXType_Long:
    case CXType_LongLong:
    case CXType_Int128:
    case CXType_Enum:
        return true;
    default:
        return false;
    }
}

int cn_float_kind(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    switch (c.kind) {
    case CXType_Half:
    case CXType_Float16:
    case CXType_BFloat16:
        return 1;
    case CXType_Float:
        return 2;
    case CXType_Double:
    case CXType_LongDouble:
        return 3;
    case CXType_Record: {
        char *s = cn_type_spelling(c);
        int k = (strstr(s, "__half") || strstr(s, "__nv_bfloat16")) ? 1 : 0;
        free(s);
        return k;
    }
    default:
        return 0;
    }
}

bool cn_is_dim3(CXType t)
{
    /* `const dim3 grid(...)`: the qualifier is no part of the name. */
    CXType c = clang_getUnqualifiedType(clang_getCanonicalType(t));
    if (c.kind != CXType_Record)
        return false;
    char *s = cn_type_spelling(c);
    bool r = strcmp(s, "dim3") == 0 || strcmp(s, "uint3") == 0;
    free(s);
    return r;
}

/* ---- variables ---- */

cnode *fn_var_init(cnode *vardecl)
{
    if (!vardecl || vardecl->n_kids == 0)
        return NULL;
    /* An array declaration lists its size expressions as kids too; the
     * initialiser, when there is one, is the last kid and the only one
     * that is not a size (sizes come first). For arrays only an init list
     * counts. */
    cnode *last = vardecl->kids[vardecl->n_kids - 1];
    if (!cn_is_expr(last))
        return NULL;
    CXType t = clang_getCursorType(vardecl->cur);
    switch (t.kind) {
    case CXType_ConstantArray:
    case CXType_IncompleteArray:
    case CXType_DependentSizedArray:
    case CXType_VariableArray:
        return last->kind == CXCursor_InitListExpr ? last : NULL;
    default:
        return last;
    }
}

static var_info *add_var(fn_ctx *f, CXCursor decl)
{
    if (f->n_vars == f->cap_vars) {
        f->cap_vars = f->cap_vars ? f->cap_vars * 2 : 16;
        f->vars = xrealloc(f->vars, f->cap_vars * sizeof *f->vars);
    }
    var_info *v = &f->vars[f->n_vars++];
    memset(v, 0, sizeof *v);
    v->decl = decl;
    v->hash = clang_hashCursor(decl);
    v->name = cn_spelling(decl);
    return v;
}

/* The one assignment `v.field = ...` of v (count: how many there are;
 * NULL unless exactly one). */
cnode *fn_member_assign(var_info *v, const char *field, int *count)
{
    cnode *found = NULL;
    *count = 0;
    for (int i = 0; i < v->n_member_assigns; i++) {
        cnode *a = v->member_assigns[i];
        cnode *lhs = cn_strip(a->kids[0]);
        char *fname = cn_spelling(lhs->cur);
        if (strcmp(fname, field) == 0) {
            (*count)++;
            found = a;
        }
        free(fname);
    }
    return *count == 1 ? found : NULL;
}

/* What an assignment assigns: its right side (the last argument of an
 * operator= call). */
cnode *cn_assign_rhs(cnode *a)
{
    if (a->kind == CXCursor_CallExpr)
        return cn_expr_kid(a, cn_n_expr_kids(a) - 1);
    return a->n_kids == 2 ? a->kids[1] : NULL;
}

var_info *fn_var(fn_ctx *f, CXCursor decl)
{
    unsigned h = clang_hashCursor(decl);
    for (size_t i = 0; i < f->n_vars; i++)
        if (f->vars[i].hash == h && clang_equalCursors(f->vars[i].decl, decl))
            return &f->vars[i];
    return NULL;
}

static void push_node(cnode ***arr, int *n, cnode *x)
{
    *arr = xrealloc(*arr, (size_t)(*n + 1) * sizeof **arr);
    (*arr)[(*n)++] = x;
}

/* The variable an lvalue expression names directly, or NULL. */
static bool const_scalar(CXCursor decl)
{
    CXType t = clang_getCursorType(decl);
    CXType c = clang_getCanonicalType(t);
    return clang_isConstQualifiedType(t) && c.kind != CXType_Record &&
           c.kind != CXType_Elaborated && c.kind != CXType_LValueReference &&
           c.kind != CXType_RValueReference && c.kind != CXType_ConstantArray;
}

static var_info *target_var(fn_ctx *f, cnode *lhs)
{
    lhs = cn_strip(lhs);
    if (!lhs || lhs->kind != CXCursor_DeclRefExpr)
        return NULL;
    return fn_var(f, clang_getCursorReferenced(lhs->cur));
}

/* `v.x = ...`: the variable whose member is assigned. */
static var_info *member_target(fn_ctx *f, cnode *lhs)
{
    lhs = cn_strip(lhs);
    if (!lhs || lhs->kind != CXCursor_MemberRefExpr || lhs->n_kids < 1)
        return NULL;
    return target_var(f, lhs->kids[0]);
}

static void collect_decls(fn_ctx *f, cnode *n)
{
    if (n->kind == CXCursor_ParmDecl) {
        var_info *v = add_var(f, n->cur);
        v->is_param = true;
        v->decl_node = n;
    } else if (n->kind == CXCursor_VarDecl) {
        var_info *v = add_var(f, n->cur);
        v->decl_node = n;
        v->init = fn_var_init(n);
        v->is_shared = cn_has_attr(n->cur, CXCursor_CUDASharedAttr);
    }
    for (int i = 0; i < n->n_kids; i++)
        collect_decls(f, n->kids[i]);
}

/* ---- addresses lent for reading ---- */

/* The expression around n, past parentheses and implicit conversions. */
static cnode *outer(cnode *n)
{
    cnode *p = n->parent;
    while (p && (p->kind == CXCursor_ParenExpr || p->kind == CXCursor_UnexposedExpr) &&
           p->n_kids == 1)
        p = p->parent;
    return p;
}

/* Is n (a `*p`) written: the left of an assignment, stepped, or its
 * address taken again? A call handed `*p` by reference could write it. */
static bool deref_written(cnode *deref)
{
    /* libclang shows the conversion of an lvalue to its value as an
     * unexposed expression: what stands under one is read. */
    if (deref->parent && deref->parent->kind == CXCursor_UnexposedExpr)
        return false;
    cnode *p = outer(deref);
    if (!p)
        return false;
    cnode *lhs = p->n_kids ? cn_strip(p->kids[0]) : NULL;
    switch (p->kind) {
    case CXCursor_BinaryOperator:
        return lhs == deref && clang_getCursorBinaryOperatorKind(p->cur) == CXBinaryOperator_Assign;
    case CXCursor_CompoundAssignOperator:
        return lhs == deref;
    case CXCursor_UnaryOperator:
        return clang_getCursorUnaryOperatorKind(p->cur) != CXUnaryOperator_Deref;
    case CXCursor_CallExpr:
        return true;
    default:
        return false;
    }
}

static bool pointee_only_read(cnode *n, CXCursor parm)
{
    if (n->kind == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(n->cur), parm)) {
        cnode *d = outer(n);
        return d && d->kind == CXCursor_UnaryOperator &&
               clang_getCursorUnaryOperatorKind(d->cur) == CXUnaryOperator_Deref &&
               !deref_written(d);
    }
    for (int i = 0; i < n->n_kids; i++)
        if (!pointee_only_read(n->kids[i], parm))
            return false;
    return true;
}

/* Does function body root use pointer parameter parm only as `*parm`
 * read? Then what it reads is what the caller's local held at the call. */
bool x_pointee_only_read(cnode *root, CXCursor parm)
{
    return root && pointee_only_read(root, parm);
}

/* Is the address `&v` (addrof) lent only for reading: an argument of a
 * parameter that points to const, or (in host code) of a callee defined
 * here that only reads through it? Then v's definitions stay its own (`run(d, &n)`,
 * `cudaMemcpy(d, &h, ...)`); any other use of the address may write v. */
bool cn_lent_for_reading(const cnode *addrof, bool host)
{
    CXCursor fn;
    int k;
    if (!cn_arg_call(addrof, &fn, &k))
        return false;
    if (cn_param_reads_only(fn, k))
        return true;
    /* A kernel's locals size nothing on the host: its calls (`sincosf(x,
     * &s, &c)`) are not worth reading. */
    CXCursor def = host ? clang_getCursorDefinition(fn) : clang_getNullCursor();
    if (clang_Cursor_isNull(def) ||
        clang_Cursor_getNumArguments(def) != clang_Cursor_getNumArguments(fn))
        return false;
    cnode *body = cn_build(def);
    bool read = x_pointee_only_read(body, clang_Cursor_getArgument(def, (unsigned)k));
    cn_free(body);
    return read;
}

static void collect_uses(fn_ctx *f, cnode *n)
{
    switch (n->kind) {
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(n->cur);
        if (n->n_kids == 2 && op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign) {
            var_info *v = target_var(f, n->kids[0]);
            if (v)
                push_node(&v->assigns, &v->n_assigns, n);
            else if ((v = member_target(f, n->kids[0])))
                push_node(&v->member_assigns, &v->n_member_assigns, n);
        }
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(n->cur);
        if (n->n_kids == 1) {
            if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
                op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec) {
                var_info *v = target_var(f, n->kids[0]);
                if (v)
                    push_node(&v->assigns, &v->n_assigns, n);
            } else if (op == CXUnaryOperator_AddrOf) {
                var_info *v = target_var(f, n->kids[0]);
                /* `void *args[] = {&n, ...}` for cudaLaunchKernel only reads n. */
                cnode *p = n->parent;
                while (p && (p->kind == CXCursor_UnexposedExpr || p->kind == CXCursor_ParenExpr))
                    p = p->parent;
                /* A const scalar's address lends it for reading only:
                 * writing a const object through a pointer is undefined
                 * ([dcl.type.cv]), so `Acc a(d, &nrow)` keeps nrow. */
                if (v && !(p && p->kind == CXCursor_InitListExpr) && !v->addr_taken &&
                    !cn_lent_for_reading(n, !f->device) && !const_scalar(v->decl))
                    v->addr_taken = true;
            }
        }
        break;
    }
    case CXCursor_CallExpr: {
        /* Class types assign through operator=: cfg.blockDim = b, b = dim3(..). */
        char *name = cn_spelling(n->cur);
        if (strcmp(name, "operator=") == 0 && n->n_kids >= 2) {
            var_info *v = target_var(f, n->kids[0]);
            if (v)
                push_node(&v->assigns, &v->n_assigns, n);
            else if ((v = member_target(f, n->kids[0])))
                push_node(&v->member_assigns, &v->n_member_assigns, n);
        } else if (strncmp(name, "operator", 8) == 0 && n->n_kids >= 1 &&
                   (strstr(name, "=") || strstr(name, "++") || strstr(name, "--"))) {
            var_info *v = target_var(f, n->kids[0]);
            if (v && strcmp(name, "operator==") != 0 && strcmp(name, "operator!=") != 0 &&
                strcmp(name, "operator<=") != 0 && strcmp(name, "operator>=") != 0)
                push_node(&v->assigns, &v->n_assigns, n);
        }
        free(name);
        break;
    }
    default:
        break;
    }
    for (int i = 0; i < n->n_kids; i++)
        collect_uses(f, n->kids[i]);
}

void fn_init(fn_ctx *f, cusrc_tu *t, cnode *root, bool device)
{
    memset(f, 0, sizeof *f);
    f->t = t;
    f->root = root;
    f->device = device;
    f->name = cn_spelling(root->cur);
    sbuf_init(&f->origin);
    collect_decls(f, root);
    collect_uses(f, root);
}

void fn_free(fn_ctx *f)
{
    for (size_t i = 0; i < f->n_vars; i++) {
        free(f->vars[i].name);
        free(f->vars[i].assigns);
        free(f->vars[i].member_assigns);
        expr_free(f->vars[i].exit_value);
    }
    free(f->vars);
    free(f->loops);
    free(f->name);
    sbuf_free(&f->origin);
    memset(f, 0, sizeof *f);
}

/* The expression operator of a C binary or compound-assignment operator;
 * *ok false for the others (comma, assignment, pointer-to-member). */
expr_op cn_binop(enum CXBinaryOperatorKind k, bool *ok)
{
    *ok = true;
    switch (k) {
    case CXBinaryOperator_Mul:
    case CXBinaryOperator_MulAssign:
        return OP_MUL;
    case CXBinaryOperator_Div:
    case CXBinaryOperator_DivAssign:
        return OP_DIV;
    case CXBinaryOperator_Rem:
    case CXBinaryOperator_RemAssign:
        return OP_MOD;
    case CXBinaryOperator_Add:
    case CXBinaryOperator_AddAssign:
        return OP_ADD;
    case CXBinaryOperator_Sub:
    case CXBinaryOperator_SubAssign:
        return OP_SUB;
    case CXBinaryOperator_Shl:
    case CXBinaryOperator_ShlAssign:
        return OP_SHL;
    case CXBinaryOperator_Shr:
    case CXBinaryOperator_ShrAssign:
        return OP_SHR;
    case CXBinaryOperator_LT:
        return OP_LT;
    case CXBinaryOperator_GT:
        return OP_GT;
    case CXBinaryOperator_LE:
        return OP_LE;
    case CXBinaryOperator_GE:
        return OP_GE;
    case CXBinaryOperator_EQ:
        return OP_EQ;
    case CXBinaryOperator_NE:
        return OP_NE;
    case CXBinaryOperator_And:
    case CXBinaryOperator_AndAssign:
        return OP_AND;
    case CXBinaryOperator_Xor:
    case CXBinaryOperator_XorAssign:
        return OP_XOR;
    case CXBinaryOperator_Or:
    case CXBinaryOperator_OrAssign:
        return OP_OR;
    case CXBinaryOperator_LAnd:
        return OP_LAND;
    case CXBinaryOperator_LOr:
        return OP_LOR;
    default:
        *ok = false;
        return OP_ADD;
    }
}

/* The node under call (at most two wrappers down) whose cursor is c. */
static cnode *kid_for(cnode *call, CXCursor c)
{
    for (int i = 0; i < call->n_kids; i++) {
        cnode *k = call->kids[i];
        for (int d = 0; k && d < 3; d++) {
            if (clang_equalCursors(k->cur, c))
                return call->kids[i];
            k = k->n_kids == 1 ? k->kids[0] : NULL;
        }
    }
    return NULL;
}

int cn_call_args(cnode *call, CXCursor def, cnode **out, int max)
{
    int np = clang_Cursor_getNumArguments(def);
    if (np < 0 || np > max)
        return -1;
    /* libclang lists a call's arguments, the object of an overloaded
     * member operator first; default arguments have no node. */
    int na = clang_Cursor_getNumArguments(call->cur);
    if (na >= 0) {
        int skip = na > np ? na - np : 0;
        bool ok = true;
        for (int i = 0; i < np; i++) {
            out[i] = NULL;
            if (i + skip < na) {
                out[i] = kid_for(call, clang_Cursor_getArgument(call->cur, (unsigned)(i + skip)));
                ok = ok && out[i];
            }
        }
        if (ok)
            return np;
    }
    /* Every expression kid but the callee (the first kid, or for an
     * overloaded operator() the operator's own reference). */
    cnode *args[32];
    na = 0;
    for (int i = 1; i < call->n_kids && na < 32; i++) {
        cnode *k = call->kids[i];
        if (!cn_is_expr(k))
            continue;
        cnode *sk = cn_strip(k);
        if (sk && sk->kind == CXCursor_DeclRefExpr) {
            CXCursor r = clang_getCursorReferenced(sk->cur);
            if (r.kind == CXCursor_CXXMethod || r.kind == CXCursor_FunctionDecl) {
                char *rn = cn_spelling(r);
                bool op = strncmp(rn, "operator", 8) == 0;
                free(rn);
                if (op)
                    continue;
            }
        }
        args[na++] = k;
    }
    int skip = na > np ? na - np : 0;
    for (int i = 0; i < np; i++)
        out[i] = i + skip < na ? args[i + skip] : NULL;
    return np;
}

static const struct {
    const char *name;
    expr_builtin x;
} builtin_bases[] = {
    {"threadIdx", SYM_TID_X},
    {"blockDim", SYM_BDIM_X},
    {"blockIdx", SYM_BID_X},
    {"gridDim", SYM_GDIM_X},
};

/* threadIdx.x and friends: a member of one of the builtin variables. The
 * component is not in the AST libclang shows (it is a property getter), so
 * it is read from the tokens. */
bool cn_builtin_member(cusrc_tu *t, cnode *n, expr_builtin *out)
{
    if (n->kind != CXCursor_MemberRefExpr || n->n_kids < 1)
        return false;
    cnode *base = cn_strip(n->kids[0]);
    if (!base || base->kind != CXCursor_DeclRefExpr)
        return false;
    char *bname = cn_spelling(base->cur);
    int which = -1;
    for (size_t i = 0; i < sizeof builtin_bases / sizeof builtin_bases[0]; i++)
        if (strcmp(bname, builtin_bases[i].name) == 0)
            which = (int)i;
    if (which < 0) {
        free(bname);
        return false;
    }
    /* Where the member is spelled (inside a macro's definition if it came
     * from one): `threadIdx . x` in the file's text. */
    int comp = -1;
    CXFile file = NULL;
    unsigned line, col, off = 0;
    clang_getSpellingLocation(clang_getCursorLocation(n->cur), &file, &line, &col, &off);
    size_t size = 0;
    const char *buf = file ? cn_file_contents(t, file, &size) : NULL;
    size_t bl = strlen(bname);
    if (buf && off + bl < size && !strncmp(buf + off, bname, bl)) {
        size_t i = off + bl;
        while (i < size && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
            i++;
        if (i < size && buf[i] == '.') {
            i++;
            while (i < size && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n'))
                i++;
            if (i < size && buf[i] >= 'x' && buf[i] <= 'z' &&
                (i + 1 >= size || !(isalnum((unsigned char)buf[i + 1]) || buf[i + 1] == '_')))
                comp = buf[i] - 'x';
        }
    }
    if (comp < 0) {
        char **toks;
        int nt = cn_tokens(t, n->cur, &toks);
        for (int i = 0; i + 2 < nt && comp < 0; i++) {
            if (strcmp(toks[i], bname) == 0 && strcmp(toks[i + 1], ".") == 0) {
                const char *c = toks[i + 2];
                if (c[0] >= 'x' && c[0] <= 'z' && c[1] == '\0')
                    comp = c[0] - 'x';
            }
        }
        cn_free_tokens(toks, nt);
    }
    free(bname);
    if (comp < 0)
        return false;
    *out = (expr_builtin)(builtin_bases[which].x + comp);
    return true;
}

bool cn_name_in(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return true;
    return false;
}

/* Does n assign, step or call anything? */
bool cn_changes(const cnode *n)
{
    if (n->kind == CXCursor_CallExpr || n->kind == CXCursor_CompoundAssignOperator)
        return true;
    if (n->kind == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(n->cur) == CXBinaryOperator_Assign)
        return true;
    if (n->kind == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(n->cur);
        if (k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PreInc ||
            k == CXUnaryOperator_PostDec || k == CXUnaryOperator_PreDec)
            return true;
    }
    for (int i = 0; i < n->n_kids; i++)
        if (cn_changes(n->kids[i]))
            return true;
    return false;
}

/* Is a loop below root around n? */
bool cn_in_loop(const cnode *n, const cnode *root)
{
    for (const cnode *p = n->parent; p && p != root; p = p->parent)
        if (p->kind == CXCursor_ForStmt || p->kind == CXCursor_WhileStmt ||
            p->kind == CXCursor_DoStmt || p->kind == CXCursor_CXXForRangeStmt)
            return true;
    return false;
}

#define CHAIN_MAX_DEPTH 8 /* member objects nested in member objects */

char *cn_member_chain(cnode *n, cnode **root)
{
    char *path = NULL;
    for (int depth = 0; depth < CHAIN_MAX_DEPTH; depth++) {
        n = cn_strip(n);
        if (!n || n->kind != CXCursor_MemberRefExpr ||
            clang_getCursorReferenced(n->cur).kind != CXCursor_FieldDecl)
            break;
        char *field = cn_spelling(n->cur);
        if (path) {
            char *p = xmalloc(strlen(field) + strlen(path) + 2);
            sprintf(p, "%s.%s", field, path);
            free(path);
            free(field);
            path = p;
        } else {
            path = field;
        }
        if (!n->n_kids) {
            *root = NULL;
            return path;
        }
        cnode *base = cn_strip(n->kids[0]);
        if (!base)
            break;
        if (base->kind == CXCursor_CXXThisExpr || base->kind == CXCursor_DeclRefExpr) {
            *root = base;
            return path;
        }
        if (base->kind != CXCursor_MemberRefExpr ||
            clang_getCanonicalType(clang_getCursorType(base->cur)).kind == CXType_Pointer)
            break;
        n = base;
    }
    free(path);
    return NULL;
}

char *cn_this_field(cnode *n)
{
    cnode *root = NULL;
    char *path = cn_member_chain(n, &root);
    if (!path || (root && root->kind != CXCursor_CXXThisExpr)) {
        free(path);
        return NULL;
    }
    char *dot = strchr(path, '.');
    if (dot)
        *dot = '\0';
    return path;
}
