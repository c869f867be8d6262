/* cusrc: the libclang driver of the source front end. Builds the compiler
 * arguments (device-side CUDA, the toolkit's headers, a compilation
 * database's include paths and defines), parses once, then finds the
 * kernels, the launches and opt-ins in every function of the main file,
 * decides which instantiations of templated kernels to analyse, hands each
 * body to cusrc_body.c, and reads the gpulint: comments. */
#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "cusrc/cusrc_explicit.h"
#include "cusrc/cusrc_int.h"
#include "util/fileio.h"

struct cusrc_ctx {
    CXIndex index;
};

bool cusrc_available(void)
{
    return true;
}

cusrc_ctx *cusrc_ctx_new(void)
{
    cusrc_ctx *c = xcalloc(1, sizeof *c);
    c->index = clang_createIndex(0, 0);
    return c;
}

void cusrc_ctx_free(cusrc_ctx *ctx)
{
    if (!ctx)
        return;
    clang_disposeIndex(ctx->index);
    free(ctx);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- arguments ---- */

typedef struct argv_t {
    char **v;
    int n, cap;
} argv_t;

static void arg_add(argv_t *a, const char *s)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 32;
        a->v = xrealloc(a->v, (size_t)a->cap * sizeof *a->v);
    }
    a->v[a->n++] = xstrdup(s);
}

static void arg_addf(argv_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void arg_addf(argv_t *a, const char *fmt, ...)
{
    sbuf b;
    sbuf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sbuf_vaddf(&b, fmt, ap);
    va_end(ap);
    arg_add(a, sbuf_str(&b));
    sbuf_free(&b);
}

static void args_free(argv_t *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* sm_90, sm_90a, compute_80, 90 -> what clang accepts. clang-22 knows no
 * family ("f") targets; the plain number parses the same source. */
static char *normalize_arch(const char *a)
{
    if (!a || !*a)
        return NULL;
    const char *digits = a;
    if (!strncmp(a, "sm_", 3))
        digits = a + 3;
    else if (!strncmp(a, "compute_", 8))
        digits = a + 8;
    if (!isdigit((unsigned char)digits[0]))
        return NULL;
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "sm_");
    size_t i = 0;
    while (isdigit((unsigned char)digits[i]))
        sbuf_addc(&b, digits[i++]);
    if (digits[i] == 'a')
        sbuf_addc(&b, 'a');
    return sbuf_take(&b);
}

/* libclang finds its resource directory from the clang binary's path, and
 * inside a library it has none ("InstalledDir" is empty): the builtin
 * headers are still found (Debian adds a fallback), but not the CUDA
 * wrappers in <resource>/include/cuda_wrappers, which give device code its
 * placement new, <cmath> overloads and <complex>. Without them CUB and
 * Thrust do not parse. The directory is <dir of libclang>/clang/<major>
 * (or the full version), as the clang driver beside it uses. */
bool cusrc_backend_version(char *buf, size_t n)
{
    CXString v = clang_getClangVersion();
    const char *text = clang_getCString(v), *num = text ? strstr(text, "version ") : NULL;
    if (num)
        snprintf(buf, n, "%.*s", (int)strspn(num + 8, "0123456789."), num + 8);
    else
        snprintf(buf, n, "%s", text ? text : "unknown");
    clang_disposeString(v);
    return true;
}

static char *resource_dir(void)
{
    Dl_info info;
    if (!dladdr((void *)clang_createIndex, &info) || !info.dli_fname)
        return NULL;
    const char *slash = strrchr(info.dli_fname, '/');
    if (!slash)
        return NULL;
    CXString v = clang_getClangVersion();
    const char *text = clang_getCString(v), *num = text ? strstr(text, "version ") : NULL;
    char full[32] = "", major[16] = "";
    if (num) {
        num += 8;
        size_t n = strspn(num, "0123456789.");
        snprintf(full, sizeof full, "%.*s", (int)(n < sizeof full ? n : sizeof full - 1), num);
        snprintf(major, sizeof major, "%.*s", (int)strspn(full, "0123456789"), full);
    }
    clang_disposeString(v);
    const char *tries[2] = {major, full};
    for (int i = 0; i < 2; i++) {
        if (!tries[i][0])
            continue;
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "%.*s/clang/%s", (int)(slash - info.dli_fname), info.dli_fname, tries[i]);
        size_t base = b.len;
        sbuf_add(&b, "/include/cuda_wrappers");
        if (is_dir(sbuf_str(&b))) {
            b.data[base] = '\0';
            b.len = base;
            return sbuf_take(&b);
        }
        sbuf_free(&b);
    }
    return NULL;
}

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

/* Names of the main file's #defines and namespace-scope constants, for the
 * arguments of __launch_bounds__ (which libclang does not expose). */
typedef struct const_tab {
    char **names;
    char **bodies; /* macro bodies; NULL for evaluated constants */
    int64_t *values;
    size_t n, cap;
} const_tab;

static void tab_add(const_tab *t, const char *name, const char *body, int64_t v)
{
    GROW(t->names, t->n, t->cap);
    t->bodies = xrealloc(t->bodies, t->cap * sizeof *t->bodies);
    t->values = xrealloc(t->values, t->cap * sizeof *t->values);
    t->names[t->n] = xstrdup(name);
    t->bodies[t->n] = body ? xstrdup(body) : NULL;
    t->values[t->n] = v;
    t->n++;
}

static void tab_free(const_tab *t)
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

static void read_macros(const char *buf, size_t size, const_tab *tab)
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

static void parse_launch_bounds(cusrc_tu *t, CXCursor fn, const const_tab *tab,
                                cusrc_launch_bounds *lb)
{
    lb->max_threads = lb->min_blocks = lb->max_cluster = -1;
    char **toks;
    int n = cn_tokens(t, fn, &toks);
    for (int i = 0; i + 1 < n; i++) {
        if (strcmp(toks[i], "__launch_bounds__") != 0 || strcmp(toks[i + 1], "(") != 0)
            continue;
        lb->present = true;
        sbuf all, cur;
        sbuf_init(&all);
        sbuf_init(&cur);
        int depth = 0, arg = 0;
        int64_t *slots[3] = {&lb->max_threads, &lb->min_blocks, &lb->max_cluster};
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
        lb->text = sbuf_take(&all);
        sbuf_free(&cur);
        break;
    }
    cn_free_tokens(toks, n);
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
    lb->text = k->launch_bounds.text ? xstrdup(k->launch_bounds.text) : NULL;
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
    tab_free(&tab);
}

typedef struct fn_list {
    CXCursor *c;
    size_t n, cap;
} fn_list;

/* Host calls followed from a launch's caller down to the launch: libraries
 * dispatch through several layers of templates (OneFlow's softmax: seven,
 * from its entry point through pack-size and column-count dispatchers to
 * the function that launches). */
#define SCAN_MAX_DEPTH 10

typedef struct scan_state {
    cusrc_tu *t;
    fn_list fns;     /* function definitions in the main file */
    fn_list kernels; /* kernel definitions (templates: the template) */
    const_tab consts;
    char **called; /* keys of main-file functions some main-file code calls */
    size_t n_called, cap_called;
    char *stack[SCAN_MAX_DEPTH]; /* functions being expanded, against recursion */
    /* What must hold at each expanded call for it to run (launch_reach of
     * the call in its caller, NULL = nothing known): a launch reached
     * through them runs only where all of them hold. */
    expr *reach[SCAN_MAX_DEPTH];
    int depth;
    int budget;            /* expansions left: a file of many wrappers stays fast */
    bool in_explicit_refs; /* visiting gpulint's appended function (cusrc_explicit.c) */
} scan_state;

static bool is_function_kind(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate ||
           k == CXCursor_CXXMethod || k == CXCursor_Constructor || k == CXCursor_Destructor ||
           k == CXCursor_ConversionFunction;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    scan_state *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    /* The project's headers give kernels and constants; the host code that
     * is scanned for launches starts in the file itself. */
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
    if (!is_function_kind(k) || !clang_isCursorDefinition(c))
        return CXChildVisit_Continue;
    if (in_main) {
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
static char *kernel_mangling(CXCursor fn)
{
    char *m = cx_str(clang_Cursor_getMangling(fn));
    if (strncmp(m, "_ZL", 3) == 0)
        memmove(m + 2, m + 3, strlen(m + 3) + 1);
    return m;
}

static void add_kernel(cusrc_tu *t, CXCursor c, const const_tab *consts)
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
            CXType ct = clang_getCanonicalType(ty);
            p->pointee_size =
                ct.kind == CXType_Pointer ? cn_type_size(clang_getPointeeType(ct)) : -1;
        }
    }
    cn_free(tree);
    if (!k->templated)
        k->mangled = kernel_mangling(c);
    parse_launch_bounds(t, c, consts, &k->launch_bounds);
}

static long kernel_by_usr(cusrc_tu *t, const char *usr)
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
    t->pend[t->n_pend++] =
        (pending_variant){kernel, cur, mangled ? xstrdup(mangled) : NULL, generic};
}

/* The kernel a callee expression names: strip casts and &, follow a
 * function pointer set once, then the declaration. */
static bool callee_function(fn_ctx *f, cnode *n, CXCursor *fn, int depth)
{
    n = cn_strip_casts(n);
    while (n && n->kind == CXCursor_UnaryOperator &&
           clang_getCursorUnaryOperatorKind(n->cur) == CXUnaryOperator_AddrOf && n->n_kids == 1)
        n = cn_strip_casts(n->kids[0]);
    if (!n || n->kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor r = clang_getCursorReferenced(n->cur);
    if (r.kind == CXCursor_VarDecl && f && depth < 4) {
        /* A function pointer set once: `kfn p = kernel; p<<<...>>>()`. */
        var_info *v = fn_var(f, r);
        if (v && !v->is_param && v->n_assigns == 0 && !v->addr_taken && v->init)
            return callee_function(f, v->init, fn, depth + 1);
        return false;
    }
    if (r.kind != CXCursor_FunctionDecl)
        return false;
    *fn = r;
    return true;
}

static char *fn_usr(CXCursor fn)
{
    CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
    return cx_str(clang_getCursorUSR(clang_Cursor_isNull(tmpl) ? fn : tmpl));
}

typedef struct tparam_scan {
    int want, seen;
    bool is_bool;
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
        s->is_bool = k == CXCursor_NonTypeTemplateParameter &&
                     clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Bool;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* Whether template parameter i of fn's template is a bool: libclang hands
 * its value over sign-extended from one bit, so true reads as -1. */
static bool targ_is_bool(CXCursor fn, int i)
{
    CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
    if (clang_Cursor_isNull(tmpl))
        return false;
    tparam_scan s = {.want = i};
    clang_visitChildren(tmpl, tparam_visit, &s);
    return s.is_bool;
}

static void fill_targs(cusrc_tu *t, CXCursor fn, long kernel, cusrc_targ **out, int *n_out)
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
            if (targ_is_bool(fn, i)) {
                g->value = clang_Cursor_getTemplateArgumentUnsignedValue(fn, (unsigned)i) != 0;
                g->text = xstrdup(g->value ? "true" : "false");
            } else {
                g->value = clang_Cursor_getTemplateArgumentValue(fn, (unsigned)i);
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
static void note_instantiation(cusrc_tu *t, CXCursor fn)
{
    CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
    if (clang_Cursor_isNull(tmpl))
        return;
    char *usr = cx_str(clang_getCursorUSR(tmpl));
    long k = kernel_by_usr(t, usr);
    free(usr);
    if (k < 0)
        return;
    char *m = kernel_mangling(fn);
    CXCursor def = clang_getCursorDefinition(fn);
    pend_variant(t, (size_t)k, clang_Cursor_isNull(def) ? fn : def, m[0] ? m : NULL, false);
    free(m);
}

static bool exits_always(const cnode *s)
{
    return s->kind == CXCursor_BreakStmt || s->kind == CXCursor_ReturnStmt ||
           s->kind == CXCursor_ContinueStmt || s->kind == CXCursor_GotoStmt;
}

/* The case labels that lead to the statement at index `at` of a switch
 * body (its own, and those of earlier statements that fall through to
 * it), as `cond == label || ...`; NULL when `default:` leads there or a
 * label is not an integer. */
static expr *case_condition(fn_ctx *f, const cnode *body, int at, cnode *cond)
{
    expr *any = NULL;
    for (int k = at; k >= 0; k--) {
        const cnode *c = body->kids[k];
        if (k < at && exits_always(c))
            break;
        expr *labels = NULL;
        while (c->kind == CXCursor_CaseStmt || c->kind == CXCursor_DefaultStmt) {
            if (c->kind == CXCursor_DefaultStmt || c->n_kids < 2) {
                expr_free(labels);
                expr_free(any);
                return NULL;
            }
            expr *eq = expr_binary(OP_EQ, x_expr(f, cond), x_expr(f, c->kids[0]));
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
        if (!callee_function(f, vals[i], &out[n_out++], 0))
            return 0;
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
    l->kernel = kernel_by_usr(t, usr);
    t->launch_usr[l - t->u->launches] = usr;
    char *m = kernel_mangling(fn);
    l->mangled = m[0] ? m : (free(m), NULL);
    fill_targs(t, fn, l->kernel, &l->targs, &l->n_targs);
    note_instantiation(t, fn);
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
}

static void scan_optin(cusrc_tu *t, fn_ctx *f, cnode *call)
{
    if (cn_n_expr_kids(call) < 4)
        return;
    cnode *attr = cn_strip(cn_expr_kid(call, 2));
    char *an = attr ? cn_ref_name(attr->cur) : xstrdup("");
    int64_t av = -1;
    bool is_max = strcmp(an, "cudaFuncAttributeMaxDynamicSharedMemorySize") == 0 ||
                  (x_const(f, attr, &av) && av == 8);
    free(an);
    CXCursor fn;
    if (!is_max || !callee_function(f, cn_expr_kid(call, 1), &fn, 0))
        return;
    note_instantiation(t, fn);
    GROW(t->optins, t->n_optins, t->cap_optins);
    optin_rec *o = &t->optins[t->n_optins++];
    o->usr = fn_usr(fn);
    char *m = kernel_mangling(fn);
    o->mangled = m[0] ? m : (free(m), NULL);
    x_value(f, cn_expr_kid(call, 3), "the opt-in size", &o->bytes);
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

static void scan_function(scan_state *s, CXCursor fn, bind_frame *binds);
static void expand_call(scan_state *s, fn_ctx *f, cnode *call);
static void expand_ref(scan_state *s, CXCursor fn);

static void scan_call(scan_state *ss, fn_ctx *f, cnode *n)
{
    cusrc_tu *t = ss->t;
    /* k<<<...>>>(...): libclang shows the callee, then the configuration call. */
    for (int i = 1; i < n->n_kids && i < 3; i++) {
        cnode *k = n->kids[i];
        if (k->kind != CXCursor_CallExpr)
            continue;
        char *kn = cn_spelling(k->cur);
        bool cfg = !strcmp(kn, "__cudaPushCallConfiguration") || !strcmp(kn, "cudaConfigureCall");
        free(kn);
        if (!cfg)
            continue;
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
    } else {
        expand_call(ss, f, n);
    }
    free(name);
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
            note_instantiation(s->t, r);
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

static bool is_called(const scan_state *s, const char *key)
{
    for (size_t i = 0; i < s->n_called; i++)
        if (!strcmp(s->called[i], key))
            return true;
    return false;
}

static void add_called(scan_state *s, char *key)
{
    if (!key[0] || is_called(s, key)) {
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

static enum CXChildVisitResult called_visit(CXCursor c, CXCursor parent, CXClientData data)
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

/* Launch wrappers (`void run(int n) { k<<<(n + 255) / 256, 256>>>(...); }`)
 * are followed from their call sites with the arguments bound, so that the
 * launch sees main's constants; each call site gives its own launch. */
static void expand_call(scan_state *s, fn_ctx *f, cnode *call)
{
    CXCursor fn = clang_getCursorReferenced(call->cur), def;
    if (clang_Cursor_isNull(fn) || s->depth >= SCAN_MAX_DEPTH || s->budget <= 0 ||
        !expandable(s, fn, &def))
        return;
    char *key = fn_key(fn);
    for (int i = 0; i < s->depth; i++)
        if (!strcmp(s->stack[i], key)) {
            free(key);
            return;
        }
    param_binding pb[16];
    int n = x_bind_args(f, call, def, pb, 16);
    if (n >= 0) {
        bind_frame fr = {pb, n, NULL};
        s->reach[s->depth] = launch_reach(f, call);
        s->stack[s->depth++] = key;
        scan_function(s, def, &fr);
        s->depth--;
        expr_free(s->reach[s->depth]);
        s->reach[s->depth] = NULL;
        x_unbind(pb, n);
    }
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
    s->stack[s->depth++] = key;
    scan_function(s, def, NULL);
    s->depth--;
    free(key);
}

static void scan_function(scan_state *s, CXCursor fn, bind_frame *binds)
{
    if (s->budget-- <= 0)
        return;
    cnode *root = cn_build(fn);
    fn_ctx f;
    fn_init(&f, s->t, root, false);
    f.bindings = binds;
    scan_tree(s, &f, root, 0);
    fn_free(&f);
    cn_free(root);
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

static void build_variants(cusrc_tu *t)
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
            v->mangled = p->mangled ? xstrdup(p->mangled) : NULL;
            if (!p->generic && u->kernels[k].templated)
                fill_targs(t, p->cur, (long)k, &v->targs, &v->n_targs);
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

/* ---- comments ---- */

static void add_ignore(cusrc_tu *t, int line, int target, const char *check, size_t len)
{
    cusrc_unit *u = t->u;
    GROW(u->ignores, u->n_ignores, t->cap_ignores);
    cusrc_ignore *g = &u->ignores[u->n_ignores++];
    g->file = xstrdup(t->path);
    g->line = line;
    g->target_line = target;
    g->check = len ? xstrndup(check, len) : xstrdup("all");
}

static const char *line_start(const char *buf, size_t size, int line, const char **end)
{
    int l = 1;
    size_t i = 0;
    while (i < size && l < line) {
        if (buf[i] == '\n')
            l++;
        i++;
    }
    if (l != line || i > size) {
        *end = NULL;
        return NULL;
    }
    size_t e = i;
    while (e < size && buf[e] != '\n')
        e++;
    *end = buf + e;
    return buf + i;
}

/* "gpulint:" in a // comment of [p, e), or NULL; *code says whether code
 * precedes the comment. */
static const char *gpulint_comment(const char *p, const char *e, bool *code)
{
    const char *c = NULL;
    for (const char *q = p; q + 1 < e; q++)
        if (q[0] == '/' && q[1] == '/') {
            c = q;
            break;
        }
    if (!c)
        return NULL;
    *code = false;
    for (const char *q = p; q < c; q++)
        if (!isspace((unsigned char)*q))
            *code = true;
    c += 2;
    while (c < e && isspace((unsigned char)*c))
        c++;
    if ((size_t)(e - c) < 8 || strncmp(c, "gpulint:", 8) != 0)
        return NULL;
    return c + 8;
}

static void read_comments(cusrc_tu *t, const char *buf, size_t size)
{
    int line = 1;
    size_t i = 0;
    while (i < size) {
        size_t end = i;
        while (end < size && buf[end] != '\n')
            end++;
        bool code;
        const char *g = gpulint_comment(buf + i, buf + end, &code);
        if (g) {
            const char *e = buf + end;
            while (g < e && isspace((unsigned char)*g))
                g++;
            if ((size_t)(e - g) >= 6 && !strncmp(g, "ignore", 6) &&
                (g + 6 == e || isspace((unsigned char)g[6]))) {
                int target = line;
                if (!code) {
                    /* The next line with code on it. */
                    int l2 = line + 1;
                    size_t j = end + 1;
                    target = 0;
                    while (j < size && !target) {
                        size_t e2 = j;
                        while (e2 < size && buf[e2] != '\n')
                            e2++;
                        const char *q = buf + j;
                        while (q < buf + e2 && isspace((unsigned char)*q))
                            q++;
                        if (q < buf + e2 && !(q + 1 < buf + e2 && q[0] == '/' && q[1] == '/'))
                            target = l2;
                        l2++;
                        j = e2 + 1;
                    }
                    if (!target)
                        target = line;
                }
                const char *c = g + 6;
                int added = 0;
                for (;;) {
                    while (c < e && (isspace((unsigned char)*c) || *c == ','))
                        c++;
                    const char *s = c;
                    while (c < e && !isspace((unsigned char)*c) && *c != ',')
                        c++;
                    if (c == s)
                        break;
                    add_ignore(t, line, target, s, (size_t)(c - s));
                    added++;
                }
                if (!added)
                    add_ignore(t, line, target, NULL, 0);
            }
        }
        line++;
        i = end + 1;
    }
}

static void kernel_annotation(cusrc_tu *t, size_t k, const char *buf, size_t size)
{
    CXSourceRange r = clang_getCursorExtent(t->kernel_cur[k]);
    CXFile f;
    unsigned line, col, off;
    clang_getExpansionLocation(clang_getRangeStart(r), &f, &line, &col, &off);
    sbuf b;
    sbuf_init(&b);
    for (int l = (int)line - 1; l >= 1; l--) {
        const char *e, *p = line_start(buf, size, l, &e);
        if (!p)
            break;
        const char *q = p;
        while (q < e && isspace((unsigned char)*q))
            q++;
        if (q + 1 >= e || q[0] != '/' || q[1] != '/')
            break;
        bool code;
        const char *g = gpulint_comment(p, e, &code);
        if (!g)
            continue;
        while (g < e && isspace((unsigned char)*g))
            g++;
        if (!strncmp(g, "ignore", 6))
            continue;
        char *text = xstrndup(g, (size_t)(e - g));
        size_t tl = strlen(text);
        while (tl && isspace((unsigned char)text[tl - 1]))
            text[--tl] = '\0';
        if (b.len) {
            char *old = sbuf_take(&b);
            sbuf_addf(&b, "%s %s", text, old);
            free(old);
        } else {
            sbuf_add(&b, text);
        }
        free(text);
    }
    if (b.len)
        t->u->kernels[k].annotation = sbuf_take(&b);
    sbuf_free(&b);
}

#define PARSE_OPTIONS                                                                              \
    (CXTranslationUnit_KeepGoing | CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles)

static bool has_fatal(CXTranslationUnit tu)
{
    unsigned n = clang_getNumDiagnostics(tu);
    bool fatal = false;
    for (unsigned i = 0; i < n && !fatal; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        fatal = clang_getDiagnosticSeverity(d) == CXDiagnostic_Fatal;
        clang_disposeDiagnostic(d);
    }
    return fatal;
}

/* The parse with the precompiled CUDA headers (cusrc_pch.c), or NULL to
 * parse without: no cache, or a fatal error, which may be clang refusing
 * the file (headers changed since it was built); the file is then dropped
 * and the plain parse decides. GPULINT_CACHE_DIR= (empty) turns this off. */
static CXTranslationUnit parse_with_pch(CXIndex index, const char *file, const argv_t *a,
                                        struct CXUnsavedFile *files, unsigned n_files)
{
    char *pch = cusrc_pch_get(index, (const char *const *)a->v, a->n);
    if (!pch)
        return NULL;
    argv_t with = {0};
    arg_add(&with, "-include-pch");
    arg_add(&with, pch);
    for (int i = 0; i < a->n; i++)
        arg_add(&with, a->v[i]);
    CXTranslationUnit tu = NULL;
    if (clang_parseTranslationUnit2(index, file, (const char *const *)with.v, with.n, files,
                                    n_files, PARSE_OPTIONS, &tu) != CXError_Success)
        tu = NULL;
    if (!tu || has_fatal(tu)) {
        if (tu)
            clang_disposeTranslationUnit(tu);
        tu = NULL;
        unlink(pch);
    }
    args_free(&with);
    free(pch);
    return tu;
}

/* ---- diagnostics ---- */

static void read_diagnostics(cusrc_tu *t)
{
    unsigned n = clang_getNumDiagnostics(t->tu);
    int errors = 0;
    char *first = NULL;
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(t->tu, i);
        enum CXDiagnosticSeverity s = clang_getDiagnosticSeverity(d);
        if (s >= CXDiagnostic_Error) {
            errors++;
            CXFile f = NULL;
            unsigned line = 0, col = 0, off = 0;
            clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, &off);
            if (t->appended_line && f && clang_File_isEqual(f, t->main_file) &&
                line >= t->appended_line) {
                /* gpulint's own reference to an instantiation it could not
                 * name: that instantiation is analysed generically. */
                errors--;
                clang_disposeDiagnostic(d);
                continue;
            }
            char *msg = cx_str(clang_getDiagnosticSpelling(d));
            char *fname = f ? (clang_File_isEqual(f, t->main_file) ? xstrdup(t->path)
                                                                   : cx_str(clang_getFileName(f)))
                            : xstrdup("<command line>");
            sbuf b;
            sbuf_init(&b);
            sbuf_addf(&b, "%s:%u:%u: %s", fname, line, col, msg);
            if (!first)
                first = xstrdup(sbuf_str(&b));
            /* The kernel whose definition holds the error. */
            if (f && clang_File_isEqual(f, t->main_file)) {
                for (size_t k = 0; k < t->u->n_kernels; k++) {
                    CXSourceRange r = clang_getCursorExtent(t->kernel_cur[k]);
                    CXFile kf;
                    unsigned l1, l2, c, o;
                    clang_getExpansionLocation(clang_getRangeStart(r), &kf, &l1, &c, &o);
                    clang_getExpansionLocation(clang_getRangeEnd(r), &kf, &l2, &c, &o);
                    if (line >= l1 && line <= l2 && !t->u->kernels[k].note)
                        t->u->kernels[k].note = xstrdup(sbuf_str(&b));
                }
            }
            sbuf_free(&b);
            free(msg);
            free(fname);
        }
        clang_disposeDiagnostic(d);
    }
    t->u->n_errors = errors;
    if (first) {
        if (errors > 1)
            tu_note(t, "could not analyse: %s (and %d more error%s)", first, errors - 1,
                    errors == 2 ? "" : "s");
        else
            tu_note(t, "could not analyse: %s", first);
    }
    free(first);
}

/* ---- entry ---- */

/* The main file with a function naming its explicit instantiations
 * appended (cusrc_explicit.c), as an unsaved file; NULL when it has none.
 * Lines from *first_line on are gpulint's. */
static char *main_with_explicit_refs(const char *path, struct CXUnsavedFile *f,
                                     unsigned *first_line)
{
    char *text = NULL;
    size_t len = 0;
    if (fileio_read(path, (size_t)256 << 20, &text, &len) != FILEIO_OK)
        return NULL;
    char *refs = cusrc_explicit_refs(text, len);
    if (!refs) {
        free(text);
        return NULL;
    }
    unsigned lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s\n%s", text, refs);
    free(text);
    free(refs);
    *first_line = lines + 1;
    char *all = sbuf_take(&b);
    *f = (struct CXUnsavedFile){path, all, (unsigned long)strlen(all)};
    return all;
}

static bool fail(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(char **err, const char *fmt, ...)
{
    if (err) {
        sbuf b;
        sbuf_init(&b);
        va_list ap;
        va_start(ap, fmt);
        sbuf_vaddf(&b, fmt, ap);
        va_end(ap);
        *err = sbuf_take(&b);
    }
    return false;
}

/* clang's parser recurses once per nested bracket and overflows the stack
 * of libclang's parsing thread somewhere past a thousand levels, taking the
 * process down with it; such a file (generated, or an attack) is refused.
 * Returns the deepest nesting of (, [ and { outside comments and literals
 * and the line where it is reached. */
static int max_nesting(const char *path, int *at_line)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int depth = 0, max = 0, line = 1, c, prev = 0;
    enum { CODE, LINE_COMMENT, BLOCK_COMMENT, STRING, CHAR } st = CODE;
    while ((c = fgetc(f)) != EOF) {
        if (c == '\n')
            line++;
        switch (st) {
        case CODE:
            if (prev == '/' && c == '/')
                st = LINE_COMMENT;
            else if (prev == '/' && c == '*')
                st = BLOCK_COMMENT;
            else if (c == '"')
                st = STRING;
            else if (c == '\'')
                st = CHAR;
            else if (c == '(' || c == '[' || c == '{') {
                if (++depth > max) {
                    max = depth;
                    *at_line = line;
                }
            } else if ((c == ')' || c == ']' || c == '}') && depth > 0)
                depth--;
            break;
        case LINE_COMMENT:
            if (c == '\n')
                st = CODE;
            break;
        case BLOCK_COMMENT:
            if (prev == '*' && c == '/') {
                st = CODE;
                c = 0;
            }
            break;
        case STRING:
        case CHAR:
            if (c == '\\' && (c = fgetc(f)) != EOF) {
                if (c == '\n')
                    line++;
                c = 0;
            } else if ((st == STRING && c == '"') || (st == CHAR && c == '\'') || c == '\n')
                st = CODE;
            break;
        }
        prev = c;
    }
    fclose(f);
    return max;
}

#define CUSRC_MAX_NESTING 512

/* The compiler arguments: device-side CUDA for the target arch, the
 * toolkit's headers, then the caller's (a compilation database's). */
static void clang_args(const cusrc_options *opts, const char *home, argv_t *a)
{
    char *arch = normalize_arch(opts->arch);
    if (!arch)
        arch = xstrdup("sm_90");

    arg_add(a, "-x");
    arg_add(a, "cuda");
    arg_add(a, "--cuda-device-only");
    char *resources = resource_dir();
    if (resources) {
        arg_add(a, "-resource-dir");
        arg_add(a, resources);
        free(resources);
    }
    arg_addf(a, "--cuda-path=%s", home);
    arg_add(a, "-nocudalib");
    arg_add(a, "--no-cuda-version-check");
    arg_addf(a, "--cuda-gpu-arch=%s", arch);
    /* clang-22 gives no SDK version to a CUDA newer than it knows and then
     * expects the pre-9.2 launch API (cudaConfigureCall), which CUDA 13 no
     * longer declares: every <<<>>> would fail. */
    arg_add(a, "-Xclang");
    arg_add(a, "-target-sdk-version=12.9");
    sbuf cccl;
    sbuf_init(&cccl);
    sbuf_addf(&cccl, "%s/include/cccl", home);
    if (is_dir(sbuf_str(&cccl))) { /* nvcc.profile adds it: <cub/cub.cuh>, <cuda/std/...> */
        arg_add(a, "-isystem");
        arg_add(a, sbuf_str(&cccl));
    }
    sbuf_free(&cccl);
    arg_add(a, "-Wno-unknown-cuda-version");
    arg_add(a, "-w");
    arg_add(a, "-ferror-limit=0");
    arg_add(a, "-fno-spell-checking");
    arg_add(a, "-D__GPULINT__=1");
    /* cooperative_groups offers cluster_group (sm_90) only to nvcc
     * (__NVCC__) or when told the intrinsics exist; clang has them. */
    arg_add(a, "-D_CG_CLUSTER_INTRINSICS_AVAILABLE");
    arg_add(a, "-include");
    arg_add(a, cusrc_decls_path);
    for (int i = 0; opts->args && i < opts->n_args; i++)
        arg_add(a, opts->args[i]);
    free(arch);
}

/* Kernels, launches and opt-ins in every function of the main file;
 * functions that main-file code calls are scanned from their calls. */
static void scan_unit(cusrc_tu *t, scan_state *s, const char *fbuf, size_t fsize)
{
    s->t = t;
    if (fbuf)
        read_macros(fbuf, fsize, &s->consts);
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), top_visit, s);
    for (size_t i = 0; i < s->kernels.n; i++)
        add_kernel(t, s->kernels.c[i], &s->consts);
    s->budget = 2000;
    for (size_t i = 0; i < s->fns.n; i++) {
        char *name = cn_spelling(s->fns.c[i]);
        s->in_explicit_refs = !strcmp(name, CUSRC_EXPLICIT_FN);
        free(name);
        clang_visitChildren(s->fns.c[i], called_visit, s);
    }
    s->in_explicit_refs = false;
    for (size_t i = 0; i < s->fns.n; i++) {
        /* Functions that main-file code calls are scanned from their calls. */
        char *key = cx_str(clang_getCursorUSR(s->fns.c[i]));
        bool called = is_called(s, key);
        free(key);
        if (!called)
            scan_function(s, s->fns.c[i], NULL);
    }
    t->consts = &s->consts;
    build_variants(t);
}

/* Launches to variants, and their opt-ins. */
static void bind_launches(cusrc_tu *t)
{
    cusrc_unit *out = t->u;
    for (size_t i = 0; i < out->n_launches; i++) {
        cusrc_launch *l = &out->launches[i];
        for (size_t v = 0; l->kernel >= 0 && v < out->n_variants; v++) {
            cusrc_variant *var = &out->variants[v];
            if (var->kernel != (size_t)l->kernel)
                continue;
            if (!out->kernels[l->kernel].templated ||
                (l->mangled && var->mangled && !strcmp(l->mangled, var->mangled)))
                l->variant = (long)v;
        }
        const char *usr = t->launch_usr[i];
        for (size_t o = 0; usr && o < t->n_optins; o++) {
            optin_rec *r = &t->optins[o];
            if (strcmp(r->usr, usr) != 0)
                continue;
            if (r->mangled && l->mangled && strcmp(r->mangled, l->mangled) != 0)
                continue;
            l->smem_optin = true;
            expr_free(l->optin_bytes.e);
            free(l->optin_bytes.text);
            free(l->optin_bytes.why);
            l->optin_bytes = r->bytes;
            l->optin_bytes.e = expr_clone(r->bytes.e);
            l->optin_bytes.text = r->bytes.text ? xstrdup(r->bytes.text) : NULL;
            l->optin_bytes.why = r->bytes.why ? xstrdup(r->bytes.why) : NULL;
        }
    }
}

/* What the scan kept while it ran. */
static void scratch_free(cusrc_tu *t, scan_state *s)
{
    cusrc_unit *out = t->u;
    for (size_t i = 0; i < t->n_pend; i++)
        free(t->pend[i].mangled);
    free(t->pend);
    for (size_t i = 0; i < t->n_optins; i++) {
        free(t->optins[i].usr);
        free(t->optins[i].mangled);
        expr_free(t->optins[i].bytes.e);
        free(t->optins[i].bytes.text);
        free(t->optins[i].bytes.why);
    }
    free(t->optins);
    for (size_t i = 0; i < out->n_launches; i++)
        free(t->launch_usr[i]);
    free(t->launch_usr);
    free(t->kernel_cur);
    free(s->fns.c);
    free(s->kernels.c);
    tab_free(&s->consts);
    for (size_t i = 0; i < s->n_called; i++)
        free(s->called[i]);
    free(s->called);
}

bool cusrc_parse(cusrc_ctx *ctx, const cusrc_options *opts, cusrc_unit *out, char **err)
{
    memset(out, 0, sizeof *out);
    if (err)
        *err = NULL;
    if (!opts || !opts->file)
        return fail(err, "no source file given");
    struct stat st;
    if (stat(opts->file, &st) != 0 || !S_ISREG(st.st_mode))
        return fail(err, "cannot read '%s'", opts->file);
    int deep_line = 0;
    int nesting = max_nesting(opts->file, &deep_line);
    if (nesting > CUSRC_MAX_NESTING)
        return fail(err,
                    "'%s' nests brackets %d deep (line %d); more than %d would crash libclang's "
                    "parser, so the file is not parsed",
                    opts->file, nesting, deep_line, CUSRC_MAX_NESTING);
    const char *home = opts->cuda_home ? opts->cuda_home : GPULINT_CUDA_HOME;

    argv_t a = {0};
    clang_args(opts, home, &a);

    cusrc_ctx *own = NULL;
    if (!ctx)
        ctx = own = cusrc_ctx_new();
    double t0 = now_s();
    struct CXUnsavedFile files[2] = {cusrc_decls_file()};
    unsigned appended_line = 0;
    char *with_refs = main_with_explicit_refs(opts->file, &files[1], &appended_line);
    unsigned n_files = with_refs ? 2 : 1;
    CXTranslationUnit tu = parse_with_pch(ctx->index, opts->file, &a, files, n_files);
    enum CXErrorCode ec = CXError_Success;
    if (!tu)
        ec = clang_parseTranslationUnit2(ctx->index, opts->file, (const char *const *)a.v, a.n,
                                         files, n_files, PARSE_OPTIONS, &tu);
    double t1 = now_s();
    if (ec != CXError_Success || !tu) {
        sbuf b;
        sbuf_init(&b);
        for (int i = 0; i < a.n; i++)
            sbuf_addf(&b, "%s%s", i ? " " : "", a.v[i]);
        fail(err, "libclang could not parse '%s' (error %d) with: %s", opts->file, (int)ec,
             sbuf_str(&b));
        sbuf_free(&b);
        args_free(&a);
        cusrc_ctx_free(own);
        free(with_refs);
        return false;
    }

    cusrc_tu t;
    memset(&t, 0, sizeof t);
    t.appended_line = appended_line;
    t.tu = tu;
    t.path = opts->file;
    t.math = opts->math;
    t.u = out;
    t.main_file = clang_getFile(tu, opts->file);
    out->file = xstrdup(opts->file);
    out->args = a.v;
    out->n_args = a.n;
    out->parse_seconds = t1 - t0;

    size_t fsize = 0;
    const char *fbuf = t.main_file ? clang_getFileContents(tu, t.main_file, &fsize) : NULL;

    scan_state s;
    memset(&s, 0, sizeof s);
    scan_unit(&t, &s, fbuf, fsize);

    bind_launches(&t);

    if (fbuf) {
        read_comments(&t, fbuf, fsize);
        for (size_t k = 0; k < out->n_kernels; k++)
            kernel_annotation(&t, k, fbuf, fsize);
    }
    read_diagnostics(&t);
    out->analyse_seconds = now_s() - t1;

    scratch_free(&t, &s);
    clang_disposeTranslationUnit(tu);
    cusrc_ctx_free(own);
    free(with_refs);
    return true;
}
