/* cusrc_kernels: the kernels of a translation unit as declared: their
 * names (qualified and mangled), __launch_bounds__ (through the file's own
 * macros and constants, which libclang does not expose), the template
 * arguments a launch instantiates them with, and the variants gpulint
 * analyses (one per instantiation, or the template itself). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"
#include "cusrc/cusrc_scan.h"

/* ---- kernels ---- */

static char *qualified_name(CXCursor c)
{
    char *name = cn_spelling(c);
    CXCursor p = clang_getCursorSemanticParent(c);
    for (int depth = 0; depth < 32 && !clang_Cursor_isNull(p) &&
                        p.kind != CXCursor_TranslationUnit && !clang_isInvalid(p.kind);
         depth++) {
        if (p.kind == CXCursor_Namespace || p.kind == CXCursor_StructDecl ||
            p.kind == CXCursor_ClassDecl || p.kind == CXCursor_ClassTemplate) {
            char *pn = cn_spelling(p);
            sbuf b;
            sbuf_init(&b);
            sbuf_addf(&b, "%s::%s", pn[0] ? pn : "(anonymous namespace)", name);
            free(pn);
            free(name);
            name = sbuf_take(&b);
        }
        p = clang_getCursorSemanticParent(p);
    }
    return name;
}

static void tab_add(const_tab *t, const char *name, const char *body, int64_t v)
{
    GROW(t->names, t->n, t->cap);
    t->bodies = xrealloc(t->bodies, t->cap * sizeof *t->bodies);
    t->values = xrealloc(t->values, t->cap * sizeof *t->values);
    t->names[t->n] = xstrdup(name);
    t->bodies[t->n] = xstrdup_null(body);
    t->values[t->n] = v;
    t->n++;
}

void kern_tab_free(const_tab *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->names[i]);
        free(t->bodies[i]);
    }
    free(t->names);
    free(t->bodies);
    free(t->values);
}

/* A tiny evaluator for token text: integers, names from the table,
 * + - * / % << >> and parentheses. */
typedef struct tokev {
    const char *p;
    const const_tab *tab;
    int depth;
    bool ok;
} tokev;

static int64_t tv_expr(tokev *e);

static void tv_space(tokev *e)
{
    while (*e->p == ' ' || *e->p == '\t')
        e->p++;
}

static int64_t tv_name(tokev *e, const char *name)
{
    for (size_t i = 0; i < e->tab->n; i++) {
        if (strcmp(e->tab->names[i], name) != 0)
            continue;
        if (!e->tab->bodies[i])
            return e->tab->values[i];
        if (e->depth > 16)
            break;
        tokev sub = {e->tab->bodies[i], e->tab, e->depth + 1, true};
        int64_t v = tv_expr(&sub);
        tv_space(&sub);
        if (sub.ok && !*sub.p)
            return v;
        break;
    }
    e->ok = false;
    return 0;
}

static int64_t tv_atom(tokev *e)
{
    tv_space(e);
    if (*e->p == '(') {
        e->p++;
        int64_t v = tv_expr(e);
        tv_space(e);
        if (*e->p == ')')
            e->p++;
        else
            e->ok = false;
        return v;
    }
    if (*e->p == '-') {
        e->p++;
        return -tv_atom(e);
    }
    if (isdigit((unsigned char)*e->p)) {
        char *end;
        long long v = strtoll(e->p, &end, 0);
        while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
            end++;
        e->p = end;
        return v;
    }
    if (isalpha((unsigned char)*e->p) || *e->p == '_') {
        char name[128];
        size_t n = 0;
        while ((isalnum((unsigned char)*e->p) || *e->p == '_') && n + 1 < sizeof name)
            name[n++] = *e->p++;
        name[n] = '\0';
        return tv_name(e, name);
    }
    e->ok = false;
    return 0;
}

static int64_t tv_term(tokev *e)
{
    int64_t v = tv_atom(e);
    for (;;) {
        tv_space(e);
        char c = *e->p;
        if (c != '*' && c != '/' && c != '%')
            return v;
        e->p++;
        int64_t r = tv_atom(e);
        if (c == '*')
            v *= r;
        else if (r == 0)
            e->ok = false;
        else
            v = c == '/' ? v / r : v % r;
    }
}

static int64_t tv_sum(tokev *e)
{
    int64_t v = tv_term(e);
    for (;;) {
        tv_space(e);
        char c = *e->p;
        if (c != '+' && c != '-')
            return v;
        e->p++;
        int64_t r = tv_term(e);
        v = c == '+' ? v + r : v - r;
    }
}

static int64_t tv_expr(tokev *e)
{
    int64_t v = tv_sum(e);
    for (;;) {
        tv_space(e);
        if ((e->p[0] == '<' && e->p[1] == '<') || (e->p[0] == '>' && e->p[1] == '>')) {
            bool left = e->p[0] == '<';
            e->p += 2;
            int64_t r = tv_sum(e);
            if (r < 0 || r > 62)
                e->ok = false;
            else
                v = left ? v << r : v >> r;
        } else {
            return v;
        }
    }
}

static bool tab_eval(const const_tab *t, const char *text, int64_t *out)
{
    tokev e = {text, t, 0, true};
    int64_t v = tv_expr(&e);
    tv_space(&e);
    if (!e.ok || *e.p)
        return false;
    *out = v;
    return true;
}

void kern_read_macros(const char *buf, size_t size, const_tab *tab)
{
    size_t i = 0;
    while (i < size) {
        size_t end = i;
        while (end < size && buf[end] != '\n')
            end++;
        const char *p = buf + i, *e = buf + end;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (p < e && *p == '#') {
            p++;
            while (p < e && (*p == ' ' || *p == '\t'))
                p++;
            if (e - p > 7 && !strncmp(p, "define", 6) && (p[6] == ' ' || p[6] == '\t')) {
                p += 7;
                while (p < e && (*p == ' ' || *p == '\t'))
                    p++;
                const char *ns = p;
                while (p < e && (isalnum((unsigned char)*p) || *p == '_'))
                    p++;
                if (p > ns && (p == e || *p != '(')) {
                    char *name = xstrndup(ns, (size_t)(p - ns));
                    const char *bend = e;
                    const char *cm = NULL;
                    for (const char *q = p; q + 1 < e; q++)
                        if (q[0] == '/' && (q[1] == '/' || q[1] == '*')) {
                            cm = q;
                            break;
                        }
                    if (cm)
                        bend = cm;
                    char *body = xstrndup(p, (size_t)(bend - p));
                    tab_add(tab, name, body, 0);
                    free(name);
                    free(body);
                }
            }
        }
        i = end + 1;
    }
}

/* The arguments of `macro(a, b, c)` among a function's tokens: up to 3
 * values (-1 where not constant) and the text; false when absent. */
static bool macro_args(cusrc_tu *t, CXCursor fn, const char *macro, const const_tab *tab,
                       int64_t *slots[3], char **text)
{
    char **toks;
    int n = cn_tokens(t, fn, &toks);
    bool found = false;
    for (int i = 0; i + 1 < n && !found; i++) {
        if (strcmp(toks[i], macro) != 0 || strcmp(toks[i + 1], "(") != 0)
            continue;
        found = true;
        sbuf all, cur;
        sbuf_init(&all);
        sbuf_init(&cur);
        int depth = 0, arg = 0;
        for (int j = i + 2; j < n; j++) {
            const char *s = toks[j];
            bool close = !strcmp(s, ")") && depth == 0;
            bool comma = !strcmp(s, ",") && depth == 0;
            if (close || comma) {
                int64_t v;
                if (arg < 3 && cur.len && tab_eval(tab, sbuf_str(&cur), &v))
                    *slots[arg] = v;
                cur.len = 0;
                if (cur.data)
                    cur.data[0] = '\0';
                arg++;
                if (close)
                    break;
                sbuf_add(&all, ", ");
                continue;
            }
            if (!strcmp(s, "(") || !strcmp(s, "["))
                depth++;
            if (!strcmp(s, ")") || !strcmp(s, "]"))
                depth--;
            if (cur.len)
                sbuf_addc(&cur, ' ');
            sbuf_add(&cur, s);
            if (all.len && all.data[all.len - 1] != ' ')
                sbuf_addc(&all, ' ');
            sbuf_add(&all, s);
        }
        *text = sbuf_take(&all);
        sbuf_free(&cur);
    }
    cn_free_tokens(toks, n);
    return found;
}

static void parse_launch_bounds(cusrc_tu *t, CXCursor fn, const const_tab *tab,
                                cusrc_launch_bounds *lb)
{
    lb->max_threads = lb->min_blocks = lb->max_cluster = -1;
    int64_t *slots[3] = {&lb->max_threads, &lb->min_blocks, &lb->max_cluster};
    lb->present = macro_args(t, fn, "__launch_bounds__", tab, slots, &lb->text);
}

/* __cluster_dims__(x, y, z): dimensions not given are 1. */
static void parse_cluster_dims(cusrc_tu *t, CXCursor fn, const const_tab *tab,
                               cusrc_cluster_dims *cd)
{
    cd->dims[0] = cd->dims[1] = cd->dims[2] = -1;
    int64_t *slots[3] = {&cd->dims[0], &cd->dims[1], &cd->dims[2]};
    cd->present = macro_args(t, fn, "__cluster_dims__", tab, slots, &cd->text);
    if (!cd->present)
        return;
    int given = 1;
    for (const char *p = cd->text ? cd->text : ""; *p; p++)
        given += *p == ',';
    for (int d = given; d < 3; d++)
        cd->dims[d] = 1;
}

/* __launch_bounds__ of one instantiation: the kernel's text evaluated with
 * the template arguments added to the file's constants. */
static void variant_launch_bounds(const cusrc_kernel *k, const cusrc_variant *v,
                                  const const_tab *consts, cusrc_launch_bounds *lb)
{
    lb->max_threads = lb->min_blocks = lb->max_cluster = -1;
    lb->present = k->launch_bounds.present;
    if (!lb->present)
        return;
    lb->text = xstrdup_null(k->launch_bounds.text);
    const_tab tab;
    memset(&tab, 0, sizeof tab);
    for (size_t i = 0; consts && i < consts->n; i++)
        tab_add(&tab, consts->names[i], consts->bodies[i], consts->values[i]);
    for (int i = 0; i < v->n_targs; i++)
        if (v->targs[i].param && !v->targs[i].is_type)
            tab_add(&tab, v->targs[i].param, NULL, v->targs[i].value);
    int64_t *slots[3] = {&lb->max_threads, &lb->min_blocks, &lb->max_cluster};
    const char *p = lb->text ? lb->text : "";
    for (int arg = 0; arg < 3 && *p; arg++) {
        int depth = 0;
        const char *e = p;
        while (*e && !(*e == ',' && depth == 0)) {
            depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
            e++;
        }
        char *one = xstrndup(p, (size_t)(e - p));
        int64_t val;
        if (tab_eval(&tab, one, &val))
            *slots[arg] = val;
        free(one);
        p = *e ? e + 1 : e;
    }
    kern_tab_free(&tab);
}

static bool is_function_kind(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate ||
           k == CXCursor_CXXMethod || k == CXCursor_Constructor || k == CXCursor_Destructor ||
           k == CXCursor_ConversionFunction;
}

/* A kernel declared here and defined in another unit (`__global__ void
 * k(float *);` in the kernels' header): launched here, analysed there. */
static void note_foreign(scan_state *s, CXCursor c)
{
    char *usr = cx_str(clang_getCursorUSR(c));
    for (size_t i = 0; i < s->n_foreign; i++)
        if (!strcmp(s->foreign[i], usr)) {
            free(usr);
            return;
        }
    GROW(s->foreign, s->n_foreign, s->cap_foreign);
    s->foreign[s->n_foreign++] = usr;
}

enum CXChildVisitResult kern_top_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    scan_state *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    /* The project's headers give kernels and constants; the host code that
     * is scanned for launches starts in the file itself, and takes in a
     * header's function only where the file calls it, or takes its
     * address (a table of launchers in an #included kernels.cu, called
     * through pointers: scanned as written, its parameters named so). */
    bool in_main = cn_in_main(s->t, c);
    if (!in_main && !cn_in_user_header(s->t, c))
        return CXChildVisit_Continue;
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl ||
        k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_ClassTemplate)
        return CXChildVisit_Recurse;
    if (k == CXCursor_VarDecl) {
        int64_t v;
        CXEvalResult r = clang_Cursor_Evaluate(c);
        if (r) {
            if (clang_EvalResult_getKind(r) == CXEval_Int) {
                v = clang_EvalResult_getAsLongLong(r);
                char *name = cn_spelling(c);
                tab_add(&s->consts, name, NULL, v);
                free(name);
            }
            clang_EvalResult_dispose(r);
        }
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_EnumDecl)
        return CXChildVisit_Recurse;
    if (k == CXCursor_EnumConstantDecl) {
        char *name = cn_spelling(c);
        tab_add(&s->consts, name, NULL, clang_getEnumConstantDeclValue(c));
        free(name);
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_FunctionDecl && !clang_isCursorDefinition(c) &&
        cn_has_attr(c, CXCursor_CUDAGlobalAttr) &&
        clang_Cursor_isNull(clang_getCursorDefinition(c)) &&
        clang_getCursorLinkage(c) == CXLinkage_External)
        note_foreign(s, c);
    if (!is_function_kind(k) || !clang_isCursorDefinition(c))
        return CXChildVisit_Continue;
    if (in_main || (k == CXCursor_FunctionDecl && !cn_has_attr(c, CXCursor_CUDAGlobalAttr) &&
                    x_fn_address_taken(s->t, c))) {
        GROW(s->fns.c, s->fns.n, s->fns.cap);
        s->fns.c[s->fns.n++] = c;
    }
    if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) &&
        cn_has_attr(c, CXCursor_CUDAGlobalAttr)) {
        GROW(s->kernels.c, s->kernels.n, s->kernels.cap);
        s->kernels.c[s->kernels.n++] = c;
    }
    return CXChildVisit_Continue;
}

/* A kernel's name as ptxas prints it. clang marks internal linkage
 * (`static __global__`) with _ZL; nvcc's PTX name of such a kernel has no
 * L (_Z9zero_fillPfi), so the two are made to agree. */
char *kern_mangling(CXCursor fn)
{
    char *m = cx_str(clang_Cursor_getMangling(fn));
    if (strncmp(m, "_ZL", 3) == 0)
        memmove(m + 2, m + 3, strlen(m + 3) + 1);
    return m;
}

void kern_add(cusrc_tu *t, CXCursor c, const const_tab *consts)
{
    cusrc_unit *u = t->u;
    GROW(u->kernels, u->n_kernels, t->cap_kernels);
    t->kernel_cur = xrealloc(t->kernel_cur, t->cap_kernels * sizeof *t->kernel_cur);
    cusrc_kernel *k = &u->kernels[u->n_kernels];
    memset(k, 0, sizeof *k);
    t->kernel_cur[u->n_kernels] = c;
    u->n_kernels++;
    k->name = cn_spelling(c);
    k->qualified = qualified_name(c);
    k->usr = cx_str(clang_getCursorUSR(c));
    k->templated = clang_getCursorKind(c) == CXCursor_FunctionTemplate;
    cn_loc(t, c, &k->loc);
    cnode *tree = cn_build(c);
    for (int i = 0; i < tree->n_kids; i++) {
        cnode *kid = tree->kids[i];
        if (kid->kind == CXCursor_TemplateTypeParameter ||
            kid->kind == CXCursor_NonTypeTemplateParameter ||
            kid->kind == CXCursor_TemplateTemplateParameter) {
            k->tparams = xrealloc(k->tparams, (size_t)(k->n_tparams + 1) * sizeof *k->tparams);
            k->tparam_is_type =
                xrealloc(k->tparam_is_type, (size_t)(k->n_tparams + 1) * sizeof *k->tparam_is_type);
            k->tparams[k->n_tparams] = cn_spelling(kid->cur);
            k->tparam_is_type[k->n_tparams] = kid->kind != CXCursor_NonTypeTemplateParameter;
            k->n_tparams++;
        } else if (kid->kind == CXCursor_ParmDecl) {
            k->params = xrealloc(k->params, (size_t)(k->n_params + 1) * sizeof *k->params);
            cusrc_param *p = &k->params[k->n_params++];
            CXType ty = clang_getCursorType(kid->cur);
            p->name = cn_spelling(kid->cur);
            p->type = cn_type_spelling(ty);
            CXType pointee;
            p->pointee_size = cn_decl_pointer(kid->cur, &pointee) ? cn_type_size(pointee) : -1;
        }
    }
    cn_free(tree);
    if (!k->templated)
        k->mangled = kern_mangling(c);
    parse_launch_bounds(t, c, consts, &k->launch_bounds);
    parse_cluster_dims(t, c, consts, &k->cluster_dims);
}

long kern_by_usr(cusrc_tu *t, const char *usr)
{
    for (size_t i = 0; i < t->u->n_kernels; i++)
        if (strcmp(t->u->kernels[i].usr, usr) == 0)
            return (long)i;
    return -1;
}

static void pend_variant(cusrc_tu *t, size_t kernel, CXCursor cur, const char *mangled,
                         bool generic)
{
    for (size_t i = 0; i < t->n_pend; i++)
        if (t->pend[i].kernel == kernel &&
            ((mangled && t->pend[i].mangled && strcmp(t->pend[i].mangled, mangled) == 0) ||
             (!mangled && !t->pend[i].mangled)))
            return;
    GROW(t->pend, t->n_pend, t->cap_pend);
    t->pend[t->n_pend++] = (pending_variant){kernel, cur, xstrdup_null(mangled), generic};
}

typedef struct tparam_scan {
    int want, seen;
    bool is_bool, is_unsigned;
} tparam_scan;

static enum CXChildVisitResult tparam_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    tparam_scan *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_TemplateTypeParameter && k != CXCursor_NonTypeTemplateParameter &&
        k != CXCursor_TemplateTemplateParameter)
        return CXChildVisit_Continue;
    if (s->seen++ == s->want) {
        enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(c)).kind;
        s->is_bool = k == CXCursor_NonTypeTemplateParameter && tk == CXType_Bool;
        s->is_unsigned = k == CXCursor_NonTypeTemplateParameter &&
                         (tk == CXType_UChar || tk == CXType_UShort || tk == CXType_UInt ||
                          tk == CXType_ULong || tk == CXType_ULongLong || tk == CXType_Char_U);
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* The type of template parameter i of fn's template: libclang hands an
 * integral argument over sign-extended from the parameter's width, so a
 * bool's true reads as -1 and a uint16_t's 0xFC00 as -1024; those are read
 * as unsigned. */
static tparam_scan targ_param(CXCursor fn, int i)
{
    tparam_scan s = {.want = i};
    CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
    if (!clang_Cursor_isNull(tmpl))
        clang_visitChildren(tmpl, tparam_visit, &s);
    return s;
}

void kern_fill_targs(cusrc_tu *t, CXCursor fn, long kernel, cusrc_targ **out, int *n_out)
{
    int n = clang_Cursor_getNumTemplateArguments(fn);
    *out = NULL;
    *n_out = 0;
    if (n <= 0)
        return;
    cusrc_targ *a = xcalloc((size_t)n, sizeof *a);
    for (int i = 0; i < n; i++) {
        enum CXTemplateArgumentKind k = clang_Cursor_getTemplateArgumentKind(fn, (unsigned)i);
        cusrc_targ *g = &a[i];
        g->type_size = -1;
        if (kernel >= 0 && i < t->u->kernels[kernel].n_tparams)
            g->param = xstrdup(t->u->kernels[kernel].tparams[i]);
        if (k == CXTemplateArgumentKind_Type) {
            CXType ty = clang_Cursor_getTemplateArgumentType(fn, (unsigned)i);
            g->is_type = true;
            g->type_name = cn_type_spelling(ty);
            g->type_size = cn_type_size(ty);
            g->text = xstrdup(g->type_name);
        } else if (k == CXTemplateArgumentKind_Integral) {
            tparam_scan param = targ_param(fn, i);
            if (param.is_bool) {
                g->value = clang_Cursor_getTemplateArgumentUnsignedValue(fn, (unsigned)i) != 0;
                g->text = xstrdup(g->value ? "true" : "false");
            } else {
                g->value =
                    param.is_unsigned
                        ? (int64_t)clang_Cursor_getTemplateArgumentUnsignedValue(fn, (unsigned)i)
                        : clang_Cursor_getTemplateArgumentValue(fn, (unsigned)i);
                sbuf b;
                sbuf_init(&b);
                sbuf_addf(&b, "%lld", (long long)g->value);
                g->text = sbuf_take(&b);
            }
        } else {
            g->text = xstrdup("?");
        }
    }
    *out = a;
    *n_out = n;
}

/* A kernel instantiation named anywhere in a function (launch, pointer,
 * cudaFuncSetAttribute) gets analysed. */
void kern_note_instantiation(cusrc_tu *t, CXCursor fn)
{
    CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
    if (clang_Cursor_isNull(tmpl))
        return;
    char *usr = cx_str(clang_getCursorUSR(tmpl));
    long k = kern_by_usr(t, usr);
    free(usr);
    if (k < 0)
        return;
    char *m = kern_mangling(fn);
    CXCursor def = clang_getCursorDefinition(fn);
    pend_variant(t, (size_t)k, clang_Cursor_isNull(def) ? fn : def, m[0] ? m : NULL, false);
    free(m);
}

/* ---- variants ---- */

static char *variant_name(const cusrc_kernel *k, const cusrc_targ *a, int n)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, k->name);
    if (n > 0) {
        sbuf_addc(&b, '<');
        for (int i = 0; i < n; i++) {
            if (i)
                sbuf_add(&b, ", ");
            sbuf_add(&b, a[i].text ? a[i].text : "?");
        }
        sbuf_addc(&b, '>');
    }
    return sbuf_take(&b);
}

void kern_build_variants(cusrc_tu *t)
{
    cusrc_unit *u = t->u;
    for (size_t k = 0; k < u->n_kernels; k++) {
        cusrc_kernel *kr = &u->kernels[k];
        bool any = false;
        for (size_t i = 0; i < t->n_pend; i++)
            any |= t->pend[i].kernel == k;
        if (!any)
            pend_variant(t, k, t->kernel_cur[k], kr->templated ? NULL : kr->mangled, kr->templated);
    }
    size_t n = 0;
    u->variants = xcalloc(t->n_pend ? t->n_pend : 1, sizeof *u->variants);
    size_t *order = xcalloc(t->n_pend ? t->n_pend : 1, sizeof *order);
    for (size_t k = 0; k < u->n_kernels; k++) {
        u->kernels[k].first_variant = n;
        for (size_t i = 0; i < t->n_pend; i++) {
            pending_variant *p = &t->pend[i];
            if (p->kernel != k)
                continue;
            cusrc_variant *v = &u->variants[n];
            order[n++] = i;
            v->kernel = k;
            v->generic = p->generic;
            v->mangled = xstrdup_null(p->mangled);
            if (!p->generic && u->kernels[k].templated)
                kern_fill_targs(t, p->cur, (long)k, &v->targs, &v->n_targs);
            v->name = variant_name(&u->kernels[k], v->targs, v->n_targs);
            variant_launch_bounds(&u->kernels[k], v, t->consts, &v->launch_bounds);
        }
        u->kernels[k].n_variants = n - u->kernels[k].first_variant;
    }
    u->n_variants = n;
    for (size_t i = 0; i < n; i++)
        body_analyse(t, i, t->pend[order[i]].cur);
    free(order);
}
