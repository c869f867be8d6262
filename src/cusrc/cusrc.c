/* cusrc: the libclang driver of the source front end. Builds the compiler
 * arguments (device-side CUDA, the toolkit's headers, a compilation
 * database's include paths and defines), parses once, then finds the
 * kernels (cusrc_kernels.c), the launches and opt-ins in every function of
 * the main file (cusrc_launch.c), decides which instantiations of templated
 * kernels to analyse, hands each body to the walker (cusrc_stmt.c), and
 * reads the gpulint: comments. */
#include <ctype.h>
#include <dlfcn.h>
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
#include "cusrc/cusrc_scan.h"
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

/* The toolkit's CUDART_VERSION (13000 for 13.0), from its header; 0 when
 * not found. nvcc defines __CUDACC_VER_MAJOR__ and _MINOR__ from it, and
 * libraries test them (CUTLASS's examples refuse to build without). */
static long cudart_version(const char *home)
{
    sbuf path;
    sbuf_init(&path);
    sbuf_addf(&path, "%s/include/cuda_runtime_api.h", home);
    FILE *f = fopen(sbuf_str(&path), "r");
    sbuf_free(&path);
    long v = 0;
    char line[256];
    while (f && !v && fgets(line, sizeof line, f))
        if (sscanf(line, "#define CUDART_VERSION %ld", &v) != 1)
            v = 0;
    if (f)
        fclose(f);
    return v;
}

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
    /* nvcc takes C++17 code that still says `register` (with a warning);
     * clang makes it an error unless told otherwise. */
    arg_add(a, "-Wno-register");
    arg_add(a, "-w");
    arg_add(a, "-ferror-limit=0");
    arg_add(a, "-fno-spell-checking");
    arg_add(a, "-D__GPULINT__=1");
    long version = cudart_version(home);
    if (version > 0) {
        arg_addf(a, "-D__CUDACC_VER_MAJOR__=%ld", version / 1000);
        arg_addf(a, "-D__CUDACC_VER_MINOR__=%ld", version % 1000 / 10);
        arg_add(a, "-D__CUDACC_VER_BUILD__=0");
    }
    /* cooperative_groups offers cluster_group (sm_90) only to nvcc
     * (__NVCC__) or when told the intrinsics exist; clang has them. */
    arg_add(a, "-D_CG_CLUSTER_INTRINSICS_AVAILABLE");
    arg_add(a, "-include");
    arg_add(a, cusrc_decls_path);
    for (int i = 0; opts->args && i < opts->n_args; i++)
        arg_add(a, opts->args[i]);
    free(arch);
}

/* A function nothing in its file calls, followed from each call the
 * project's other units make to it; false when none does. */
static bool scan_from_other_units(scan_state *s, CXCursor def)
{
    const cusrc_xcalls *calls = s->t->calls;
    if (!calls || !calls->n)
        return false;
    char *usr = cx_str(clang_getCursorUSR(def));
    bool any = false;
    for (size_t c = 0; c < calls->n; c++) {
        const cusrc_xcall *x = &calls->v[c];
        if (x->launch || strcmp(x->usr, usr) != 0)
            continue;
        any = true;
        param_binding pb[XCALL_MAX_ARGS];
        int n = xcall_bind(x, def, pb, XCALL_MAX_ARGS);
        /* A method: the object the caller knows, or one not followed. */
        bool method =
            clang_getCursorKind(def) == CXCursor_CXXMethod && !clang_CXXMethod_isStatic(def);
        obj_fields self = {0};
        for (int i = 0; i < x->n_self; i++) {
            GROW(self.v, self.n, self.cap);
            self.v[self.n++] = (struct obj_field){xstrdup(x->self[i].name), x->self[i].value};
        }
        bind_frame fr = {pb, n, NULL, method, x->has_self ? &self : NULL};
        s->from = x;
        scan_function(s, def, &fr);
        s->from = NULL;
        x_unbind(pb, n);
        obj_free(&self);
    }
    free(usr);
    return any;
}

/* Kernels, launches and opt-ins in every function of the main file;
 * functions that main-file code calls are scanned from their calls. */
static void scan_unit(cusrc_tu *t, scan_state *s, const char *fbuf, size_t fsize)
{
    s->t = t;
    if (fbuf)
        kern_read_macros(fbuf, fsize, &s->consts);
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), kern_top_visit, s);
    for (size_t i = 0; i < s->kernels.n; i++)
        kern_add(t, s->kernels.c[i], &s->consts);
    s->budget = 2000;
    for (size_t i = 0; i < s->fns.n; i++) {
        char *name = cn_spelling(s->fns.c[i]);
        s->in_explicit_refs = !strcmp(name, CUSRC_EXPLICIT_FN);
        free(name);
        clang_visitChildren(s->fns.c[i], scan_called_visit, s);
    }
    s->in_explicit_refs = false;
    for (size_t i = 0; i < s->fns.n; i++) {
        /* Functions that main-file code calls are scanned from their calls. */
        char *key = cx_str(clang_getCursorUSR(s->fns.c[i]));
        bool called = scan_is_called(s, key);
        free(key);
        /* Else from the calls the project's other units make to it, if
         * any; else as written, its parameters unbound. */
        if (!called && !scan_from_other_units(s, s->fns.c[i]))
            scan_function(s, s->fns.c[i], NULL);
    }
    xlaunch_add(s);
    scan_merge_launches(t);
    xlaunch_collect(s);
    scan_note_unfollowed(s);
    t->consts = &s->consts;
    kern_build_variants(t);
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
            if (r->kind != OPTIN_SMEM || strcmp(r->usr, usr) != 0)
                continue;
            if (r->mangled && l->mangled && strcmp(r->mangled, l->mangled) != 0)
                continue;
            l->smem_optin = true;
            expr_free(l->optin_bytes.e);
            free(l->optin_bytes.text);
            free(l->optin_bytes.why);
            l->optin_bytes = r->bytes;
            l->optin_bytes.e = expr_clone(r->bytes.e);
            l->optin_bytes.text = xstrdup_null(r->bytes.text);
            l->optin_bytes.why = xstrdup_null(r->bytes.why);
        }
        cluster_bind(t, l, usr);
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
    kern_tab_free(&s->consts);
    for (size_t i = 0; i < s->n_called; i++)
        free(s->called[i]);
    free(s->called);
    for (size_t i = 0; i < s->n_foreign; i++)
        free(s->foreign[i]);
    free(s->foreign);
    sbuf_free(&s->unfollowed);
    for (size_t i = 0; i < t->n_globals; i++) {
        free(t->globals[i].usr);
        expr_free(t->globals[i].value);
    }
    free(t->globals);
    object_memo_free(t);
    origin_memo_free(t);
}

/* One file a parse included (clang_getInclusions): kept where it is a file
 * on disk (not the in-memory declarations cusrc_decls_file adds), once. */
static void include_seen(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    (void)stack;
    (void)depth;
    cusrc_unit *u = data;
    CXString real = clang_File_tryGetRealPathName(file);
    CXString name = clang_getFileName(file);
    const char *path = clang_getCString(real);
    if (!path || !*path)
        path = clang_getCString(name);
    struct stat st;
    bool keep = path && *path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
    for (size_t i = 0; keep && i < u->n_includes_read; i++)
        keep = strcmp(u->includes_read[i], path) != 0;
    if (keep) {
        u->includes_read = xrealloc(u->includes_read, (u->n_includes_read + 1) * sizeof(char *));
        u->includes_read[u->n_includes_read++] = xstrdup(path);
    }
    clang_disposeString(real);
    clang_disposeString(name);
}

/* Another unit of the program, parsed as cusrc_parse parses its file
 * (cusrc_sibling's parse_other). */
static CXTranslationUnit parse_other(cusrc_tu *t, const cusrc_sibling *s)
{
    int deep_line = 0; /* a nesting libclang would crash on, as cusrc_parse refuses */
    if (max_nesting(s->file, &deep_line) > CUSRC_MAX_NESTING)
        return NULL;
    cusrc_options o = *t->opts;
    o.file = s->file;
    o.args = s->args;
    o.n_args = s->n_args;
    const char *home = o.cuda_home ? o.cuda_home : GPULINT_CUDA_HOME;
    argv_t a = {0};
    clang_args(&o, home, &a);
    struct CXUnsavedFile files[1] = {cusrc_decls_file()};
    CXTranslationUnit tu = parse_with_pch(t->index, s->file, &a, files, 1);
    if (!tu && clang_parseTranslationUnit2(t->index, s->file, (const char *const *)a.v, a.n, files,
                                           1, PARSE_OPTIONS, &tu) != CXError_Success)
        tu = NULL;
    if (tu)
        clang_getInclusions(tu, include_seen, t->u);
    args_free(&a);
    return tu;
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
    t.run_args = opts->run_args;
    t.n_run_args = opts->n_run_args;
    t.calls = opts->calls;
    t.collect_calls = opts->collect_calls;
    t.u = out;
    t.obj_eval = &x_obj_evaluator;
    t.opts = opts;
    t.index = ctx->index;
    t.parse_other = parse_other;
    t.main_file = clang_getFile(tu, opts->file);
    out->file = xstrdup(opts->file);
    clang_getInclusions(tu, include_seen, out);
    out->args = a.v;
    out->n_args = a.n;
    out->parse_seconds = t1 - t0;

    size_t fsize = 0;
    const char *fbuf = t.main_file ? clang_getFileContents(tu, t.main_file, &fsize) : NULL;

    scan_state s;
    memset(&s, 0, sizeof s);
    scan_unit(&t, &s, fbuf, fsize);
    xglobal_collect(&t);

    bind_launches(&t);

    if (fbuf) {
        read_comments(&t, fbuf, fsize);
        for (size_t k = 0; k < out->n_kernels; k++)
            kernel_annotation(&t, k, fbuf, fsize);
    }
    read_diagnostics(&t);
    out->analyse_seconds = now_s() - t1;

    scratch_free(&t, &s);
    sibling_free(&t);
    clang_disposeTranslationUnit(tu);
    cusrc_ctx_free(own);
    free(with_refs);
    return true;
}
