/* compdb: compile_commands.json into CUDA units with their nvcc arguments. */
#include "input/compdb.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util/fileio.h"
#include "util/sbuf.h"

#define COMPDB_MAX (256u << 20)

/* ---- argv helpers ---- */

typedef struct argv_b {
    char **v;
    int n, cap;
} argv_b;

static void push(argv_b *a, char *owned)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->v = xrealloc(a->v, (size_t)a->cap * sizeof *a->v);
    }
    a->v[a->n++] = owned;
    a->v[a->n] = NULL;
}

static void push_dup(argv_b *a, const char *s)
{
    push(a, xstrdup(s));
}

void compdb_argv_free(char **argv)
{
    for (char **p = argv; p && *p; p++)
        free(*p);
    free(argv);
}

bool compdb_split(const char *s, char ***argv, int *argc)
{
    argv_b a = {0};
    push(&a, NULL); /* keeps v non-NULL; removed below */
    a.n = 0;
    sbuf w;
    sbuf_init(&w);
    bool in_word = false;
    for (const char *p = s;; p++) {
        char c = *p;
        if (c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (in_word)
                push(&a, sbuf_take(&w));
            in_word = false;
            if (c == '\0')
                break;
            continue;
        }
        in_word = true;
        if (c == '\\') {
            if (p[1] == '\0')
                break; /* a lone trailing backslash: dropped, as sh would */
            sbuf_addc(&w, *++p);
        } else if (c == '\'') {
            const char *end = strchr(p + 1, '\'');
            if (!end)
                goto unterminated;
            sbuf_addn(&w, p + 1, (size_t)(end - p - 1));
            p = end;
        } else if (c == '"') {
            for (p++;; p++) {
                if (*p == '\0')
                    goto unterminated;
                if (*p == '"')
                    break;
                if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
                    p++;
                sbuf_addc(&w, *p);
            }
        } else {
            sbuf_addc(&w, c);
        }
    }
    sbuf_free(&w);
    *argv = a.v;
    *argc = a.n;
    return true;
unterminated:
    sbuf_free(&w);
    compdb_argv_free(a.v);
    *argv = NULL;
    *argc = 0;
    return false;
}

/* ---- paths ---- */

/* dir/path without "." and ".." segments (lexically: the file may not exist
 * on this machine yet, and symlinks are the build's business). */
static char *join(const char *dir, const char *path)
{
    sbuf b;
    sbuf_init(&b);
    if (path[0] == '/' || !dir || !*dir)
        sbuf_add(&b, path);
    else
        sbuf_addf(&b, "%s/%s", dir, path);
    char *full = sbuf_take(&b);
    char *out = xmalloc(strlen(full) + 2);
    size_t n = 0;
    bool abs = full[0] == '/';
    for (char *save = NULL, *seg = strtok_r(full, "/", &save); seg;
         seg = strtok_r(NULL, "/", &save)) {
        if (strcmp(seg, ".") == 0)
            continue;
        if (strcmp(seg, "..") == 0) {
            char *slash = n ? memrchr(out, '/', n) : NULL;
            if (slash && strcmp(slash + 1, "..") != 0) {
                n = (size_t)(slash - out);
                continue;
            }
            if (abs && n == 0)
                continue; /* "/.." is "/" */
        }
        if (n || abs)
            out[n++] = '/';
        size_t k = strlen(seg);
        memcpy(out + n, seg, k);
        n += k;
        out[n] = '\0';
    }
    if (n == 0)
        out[n++] = abs ? '/' : '.';
    out[n] = '\0';
    free(full);
    return out;
}

/* ---- which arguments travel ---- */

typedef enum kind {
    K_PATH,  /* -I DIR: made absolute */
    K_VALUE, /* -D X, -arch sm_80: as given */
    K_FLAG,  /* no value */
    K_DROP1, /* drop it and its value (-o FILE) */
} kind;

static const struct flag {
    const char *name;
    kind kind;
    const char *as; /* what gpulint passes (NULL = name) */
} flags[] = {
    /* Paths and macros: how the source preprocesses. */
    {"-I", K_PATH, "-I"},
    {"--include-path", K_PATH, "-I"},
    {"-isystem", K_PATH, "-isystem"},
    {"--system-include", K_PATH, "-isystem"},
    {"-iquote", K_PATH, "-I"},
    {"-include", K_PATH, "-include"},
    {"--pre-include", K_PATH, "-include"},
    {"-D", K_VALUE, "-D"},
    {"--define-macro", K_VALUE, "-D"},
    {"-U", K_VALUE, "-U"},
    {"--undefine-macro", K_VALUE, "-U"},
    {"-std", K_VALUE, "-std"},
    {"--std", K_VALUE, "-std"},
    /* Targets: which SASS ptxas writes. */
    {"-arch", K_VALUE, "-arch"},
    {"--gpu-architecture", K_VALUE, "-arch"},
    {"-code", K_VALUE, "-code"},
    {"--gpu-code", K_VALUE, "-code"},
    {"-gencode", K_VALUE, "-gencode"},
    {"--generate-code", K_VALUE, "-gencode"},
    /* Device code generation: registers, spills and what the code is. */
    {"-maxrregcount", K_VALUE, "-maxrregcount"},
    {"--maxrregcount", K_VALUE, "-maxrregcount"},
    {"-Xptxas", K_VALUE, "-Xptxas"},
    {"--ptxas-options", K_VALUE, "-Xptxas"},
    {"-rdc", K_VALUE, "-rdc"},
    {"--relocatable-device-code", K_VALUE, "-rdc"},
    {"-ftz", K_VALUE, "-ftz"},
    {"--ftz", K_VALUE, "-ftz"},
    {"-prec-div", K_VALUE, "-prec-div"},
    {"--prec-div", K_VALUE, "-prec-div"},
    {"-prec-sqrt", K_VALUE, "-prec-sqrt"},
    {"--prec-sqrt", K_VALUE, "-prec-sqrt"},
    {"-fmad", K_VALUE, "-fmad"},
    {"--fmad", K_VALUE, "-fmad"},
    {"-default-stream", K_VALUE, "-default-stream"},
    {"--default-stream", K_VALUE, "-default-stream"},
    {"-diag-suppress", K_VALUE, "-diag-suppress"},
    {"--diag-suppress", K_VALUE, "-diag-suppress"},
    {"-dc", K_FLAG, "-rdc=true"},
    {"--device-c", K_FLAG, "-rdc=true"},
    {"-fgpu-rdc", K_FLAG, "-rdc=true"},
    {"--expt-relaxed-constexpr", K_FLAG, NULL},
    {"-expt-relaxed-constexpr", K_FLAG, "--expt-relaxed-constexpr"},
    {"--expt-extended-lambda", K_FLAG, "--extended-lambda"},
    {"-expt-extended-lambda", K_FLAG, "--extended-lambda"},
    {"--extended-lambda", K_FLAG, NULL},
    {"-extended-lambda", K_FLAG, "--extended-lambda"},
    {"--use_fast_math", K_FLAG, NULL},
    {"-use_fast_math", K_FLAG, "--use_fast_math"},
    {"-lineinfo", K_FLAG, NULL},
    {"--generate-line-info", K_FLAG, "-lineinfo"},
    {"-G", K_FLAG, NULL},
    {"--device-debug", K_FLAG, "-G"},
    {"-w", K_FLAG, NULL},
    {"--disable-warnings", K_FLAG, "-w"},
    {"-restrict", K_FLAG, NULL},
    {"--restrict", K_FLAG, "-restrict"},
    {"--extra-device-vectorization", K_FLAG, NULL},
    {"-extra-device-vectorization", K_FLAG, "--extra-device-vectorization"},
    /* What a build writes, and which host compiler: never gpulint's. */
    {"-o", K_DROP1, NULL},
    {"--output-file", K_DROP1, NULL},
    {"-MF", K_DROP1, NULL},
    {"-MT", K_DROP1, NULL},
    {"-MQ", K_DROP1, NULL},
    {"-ccbin", K_DROP1, NULL},
    {"--compiler-bindir", K_DROP1, NULL},
    {"-odir", K_DROP1, NULL},
    {"--output-directory", K_DROP1, NULL},
    {"--dependency-output", K_DROP1, NULL},
    {"-Xlinker", K_DROP1, NULL},
    {"--linker-options", K_DROP1, NULL},
    {"-Xcudafe", K_DROP1, NULL},
    {"-Xfatbin", K_DROP1, NULL},
    {"-Xnvlink", K_DROP1, NULL},
    {"-t", K_DROP1, NULL},
    {"--threads", K_DROP1, NULL},
};

/* "-D X", "-DX" (one-letter flags), "--define-macro=X", "-arch=sm_80". */
static const struct flag *match(const char *arg, char *const *argv, int argc, int *i,
                                const char **value)
{
    *value = NULL;
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++) {
        const struct flag *f = &flags[k];
        size_t n = strlen(f->name);
        if (strncmp(arg, f->name, n) != 0)
            continue;
        if (arg[n] == '\0') {
            if (f->kind == K_FLAG)
                return f;
            if (*i + 1 >= argc)
                return NULL;
            *value = argv[++*i];
            return f;
        }
        if (f->kind == K_FLAG)
            continue;
        if (arg[n] == '=') {
            *value = arg + n + 1;
            return f;
        }
        if (n == 2 && f->name[0] == '-' && f->name[1] != '-') {
            *value = arg + n; /* -DX, -I/dir */
            return f;
        }
    }
    return NULL;
}

static void add_value(argv_b *out, const char *as, const char *value)
{
    /* A value that looks like an option ("-U-c") would be read by nvcc as
     * one: no macro, path or target starts with '-'; ptxas options do. */
    if ((value[0] == '-' && strcmp(as, "-Xptxas") != 0) || value[0] == '\0')
        return;
    if (strlen(as) == 2 || strcmp(as, "-isystem") == 0 || strcmp(as, "-include") == 0 ||
        strcmp(as, "-gencode") == 0 || strcmp(as, "-Xptxas") == 0) {
        push_dup(out, as);
        push_dup(out, value);
    } else {
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "%s=%s", as, value);
        push(out, sbuf_take(&b));
    }
}

/* CMake writes code=[compute_80,sm_80]: one -gencode per code, which also
 * keeps the brackets (a shell glob) away from nvcc's shell. */
static void add_gencode(argv_b *out, const char *value)
{
    const char *open = strstr(value, "code=[");
    const char *close = open ? strchr(open, ']') : NULL;
    if (!open || !close) {
        add_value(out, "-gencode", value);
        return;
    }
    char *codes = xstrndup(open + 6, (size_t)(close - open - 6));
    for (char *save = NULL, *c = strtok_r(codes, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
        sbuf b;
        sbuf_init(&b);
        sbuf_addn(&b, value, (size_t)(open - value));
        sbuf_addf(&b, "code=%s%s", c, close + 1);
        push_dup(out, "-gencode");
        push(out, sbuf_take(&b));
    }
    free(codes);
}

/* -Xcompiler values: the macros and include paths travel (nvcc's device
 * preprocessing sees them); host code generation flags do not matter. */
static void add_host_options(argv_b *out, const char *value, const char *dir)
{
    char *list = xstrdup(value);
    for (char *save = NULL, *o = strtok_r(list, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
        if ((o[1] == 'D' || o[1] == 'U') && o[0] == '-' && o[2]) {
            add_value(out, o[1] == 'D' ? "-D" : "-U", o + 2);
        } else if (o[0] == '-' && o[1] == 'I' && o[2]) {
            char *p = join(dir, o + 2);
            add_value(out, "-I", p);
            free(p);
        }
    }
    free(list);
}

static bool ends_with_cu(const char *file)
{
    size_t n = strlen(file);
    return n > 3 && strcasecmp(file + n - 3, ".cu") == 0;
}

static bool host_source(const char *file)
{
    static const char *const ext[] = {".cpp", ".cc", ".cxx", ".c++", ".C", ".c"};
    size_t n = strlen(file);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t m = strlen(ext[i]);
        if (n > m && strcmp(file + n - m, ext[i]) == 0)
            return true;
    }
    return false;
}

static void add_unit(compdb_unit **v, size_t *n, size_t *cap, char *path, char **args, int n_args,
                     size_t entry)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        *v = xrealloc(*v, *cap * sizeof **v);
    }
    (*v)[(*n)++] = (compdb_unit){path, args, n_args, (int)entry};
}

bool compdb_translate(char *const *argv, int argc, const char *directory, const char *file,
                      char ***out_v, int *n_out)
{
    argv_b out = {0};
    push(&out, NULL);
    out.n = 0;
    bool cuda = ends_with_cu(file);
    int n_arch = 0;
    char *file_abs = join(directory, file);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *abs = join(directory, a);
        bool is_file = strcmp(abs, file_abs) == 0 || strcmp(a, file) == 0;
        free(abs);
        if (is_file)
            continue;
        /* The language: nvcc's -x cu, clang's -x cuda. */
        if (!strcmp(a, "-x") || !strncmp(a, "-x", 2) || !strncmp(a, "--x=", 4)) {
            const char *lang = !strcmp(a, "-x") ? (i + 1 < argc ? argv[++i] : "")
                               : a[1] == 'x'    ? a + 2
                                                : a + 4;
            if (!strcmp(lang, "cu") || !strcmp(lang, "cuda")) {
                cuda = true;
                push_dup(&out, "-x");
                push_dup(&out, "cu");
            } else if (*lang) {
                cuda = false;
            }
            continue;
        }
        /* clang's CUDA targets. */
        if (!strncmp(a, "--cuda-gpu-arch=", 16) || !strncmp(a, "--offload-arch=", 15)) {
            const char *sm = strchr(a, '=') + 1;
            if (!strncmp(sm, "sm_", 3)) {
                sbuf b;
                sbuf_init(&b);
                sbuf_addf(&b, "arch=compute_%s,code=sm_%s", sm + 3, sm + 3);
                push_dup(&out, "-gencode");
                push(&out, sbuf_take(&b));
                n_arch++;
            }
            continue;
        }
        if (!strcmp(a, "-Xcompiler") || !strcmp(a, "--compiler-options") ||
            !strncmp(a, "-Xcompiler=", 11) || !strncmp(a, "--compiler-options=", 19)) {
            const char *v = strchr(a, '=');
            if (v)
                add_host_options(&out, v + 1, directory);
            else if (i + 1 < argc)
                add_host_options(&out, argv[++i], directory);
            continue;
        }
        const char *value;
        const struct flag *f = match(a, argv, argc, &i, &value);
        if (!f || f->kind == K_DROP1)
            continue;
        const char *as = f->as ? f->as : f->name;
        if (f->kind == K_FLAG) {
            push_dup(&out, as);
        } else if (f->kind == K_PATH) {
            char *p = join(directory, value);
            add_value(&out, as, p);
            free(p);
        } else if (!strcmp(as, "-gencode")) {
            add_gencode(&out, value);
        } else {
            add_value(&out, as, value);
        }
    }
    free(file_abs);
    (void)n_arch;
    *out_v = out.v;
    *n_out = out.n;
    return cuda;
}

/* ---- the file ---- */

static compdb_status fail(char *err, size_t errlen, compdb_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static compdb_status fail(char *err, size_t errlen, compdb_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return st;
}

static char *db_path(const char *dir)
{
    size_t n = strlen(dir);
    sbuf b;
    sbuf_init(&b);
    if (n >= 5 && strcmp(dir + n - 5, ".json") == 0)
        sbuf_add(&b, dir);
    else
        sbuf_addf(&b, "%s%scompile_commands.json", dir, n && dir[n - 1] == '/' ? "" : "/");
    return sbuf_take(&b);
}

/* Linear, and fine: a project's units are loaded once per run. A hash
 * set would be the next step past ~10^4 units. */
static const compdb_unit *find_lexical(const compdb *db, const char *path)
{
    for (size_t i = 0; i < db->n_units; i++)
        if (strcmp(db->units[i].file, path) == 0)
            return &db->units[i];
    return NULL;
}

compdb_status compdb_load(const char *dir, compdb *db, char *err, size_t errlen)
{
    memset(db, 0, sizeof *db);
    db->path = db_path(dir);
    char *text;
    size_t len;
    fileio_status fs = fileio_read(db->path, COMPDB_MAX, &text, &len);
    if (fs != FILEIO_OK)
        return fail(err, errlen, COMPDB_MISSING, "%s: %s", db->path, fileio_status_text(fs));
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    free(text);
    if (!root)
        return fail(err, errlen, COMPDB_MALFORMED, "%s:%d: not JSON: %s", db->path, je.line,
                    je.text);
    compdb_status st = COMPDB_OK;
    if (!json_is_array(root)) {
        st =
            fail(err, errlen, COMPDB_MALFORMED,
                 "%s: expected an array of {directory, file, command|arguments} entries", db->path);
        goto out;
    }
    size_t cap = 0, cap_host = 0;
    for (size_t e = 0; e < json_array_size(root); e++) {
        json_t *o = json_array_get(root, e);
        const char *directory = json_string_value(json_object_get(o, "directory"));
        const char *file = json_string_value(json_object_get(o, "file"));
        json_t *args = json_object_get(o, "arguments");
        const char *command = json_string_value(json_object_get(o, "command"));
        if (!json_is_object(o) || !directory || !file || (!json_is_array(args) && !command)) {
            st = fail(err, errlen, COMPDB_MALFORMED,
                      "%s: entry %zu: needs \"directory\", \"file\" and \"command\" or "
                      "\"arguments\" (strings)",
                      db->path, e);
            goto out;
        }
        char **argv = NULL;
        int argc = 0;
        if (json_is_array(args)) {
            argv = xcalloc(json_array_size(args) + 1, sizeof *argv);
            for (size_t k = 0; k < json_array_size(args); k++) {
                const char *s = json_string_value(json_array_get(args, k));
                if (!s) {
                    compdb_argv_free(argv);
                    st = fail(err, errlen, COMPDB_MALFORMED,
                              "%s: entry %zu: \"arguments\" holds a non-string", db->path, e);
                    goto out;
                }
                argv[argc++] = xstrdup(s);
            }
        } else if (!compdb_split(command, &argv, &argc)) {
            st = fail(err, errlen, COMPDB_MALFORMED,
                      "%s: entry %zu: unterminated quote in \"command\"", db->path, e);
            goto out;
        }
        /* "directory" should be absolute; a relative one is taken from the
         * working directory, so that every path kept is absolute. */
        char cwd[PATH_MAX];
        char *dir_abs = join(directory[0] == '/' ? NULL : getcwd(cwd, sizeof cwd), directory);
        char **kept;
        int n_kept;
        bool cuda = argc > 0 && compdb_translate(argv, argc, dir_abs, file, &kept, &n_kept);
        compdb_argv_free(argv);
        if (!cuda) {
            db->n_not_cuda++;
            /* Host C and C++ units: their calls into the CUDA units carry
             * sizes (cusrc_xcall.c). */
            if (argc > 0 && host_source(file)) {
                char *path = join(dir_abs, file);
                add_unit(&db->host, &db->n_host, &cap_host, path, kept, n_kept, e);
            } else if (argc > 0) {
                compdb_argv_free(kept);
            }
            free(dir_abs);
            continue;
        }
        char *path = join(dir_abs, file);
        free(dir_abs);
        if (find_lexical(db, path)) {
            db->n_duplicates++;
            free(path);
            compdb_argv_free(kept);
            continue;
        }
        add_unit(&db->units, &db->n_units, &cap, path, kept, n_kept, e);
    }
out:
    json_decref(root);
    if (st != COMPDB_OK) {
        char *keep = db->path;
        db->path = NULL;
        compdb_free(db);
        db->path = keep;
    }
    return st;
}

const compdb_unit *compdb_find(const compdb *db, const char *path)
{
    char cwd[PATH_MAX];
    char *lex = join(path[0] == '/' ? NULL : getcwd(cwd, sizeof cwd), path);
    const compdb_unit *found = find_lexical(db, lex);
    char *real = found ? NULL : realpath(path, NULL);
    for (size_t i = 0; i < db->n_units && !found; i++) {
        if (real) {
            char *r = realpath(db->units[i].file, NULL);
            if (r && strcmp(r, real) == 0)
                found = &db->units[i];
            free(r);
        }
    }
    free(real);
    free(lex);
    return found;
}

void compdb_free(compdb *db)
{
    for (size_t i = 0; i < db->n_units; i++) {
        free(db->units[i].file);
        compdb_argv_free(db->units[i].args);
    }
    free(db->units);
    for (size_t i = 0; i < db->n_host; i++) {
        free(db->host[i].file);
        compdb_argv_free(db->host[i].args);
    }
    free(db->host);
    free(db->path);
    memset(db, 0, sizeof *db);
}
