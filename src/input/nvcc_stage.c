/* nvcc_stage: a private directory that stands between the user's names and
 * nvcc's shell (see nvcc_stage.h for the layout and why). */
#include "input/nvcc_stage.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fsutil.h"
#include "util/sbuf.h"

extern char **environ;

static bool inert_byte(unsigned char c)
{
    if (c >= 0x80)
        return true; /* sh gives no meaning to non-ASCII bytes */
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    /* Not ' ' (word splitting where nvcc leaves a value unquoted), not '~'
     * (tilde expansion), not '#' (a comment at the start of a word). */
    return c != '\0' && strchr("_-./=,:+@%", c) != NULL;
}

bool nvstage_inert(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!inert_byte(*p))
            return false;
    return true;
}

/* ---------------------------------------------------------------- lists */

typedef struct strvec {
    char **v;
    int n, cap;
} strvec;

static void vec_push(strvec *v, char *s) /* takes s */
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 16;
        v->v = xrealloc(v->v, (size_t)v->cap * sizeof *v->v);
    }
    v->v[v->n++] = s;
}

static void vec_free(strvec *v)
{
    for (int i = 0; i < v->n; i++)
        free(v->v[i]);
    free(v->v);
    memset(v, 0, sizeof *v);
}

static void add_map(nvstage *st, const char *staged, const char *user)
{
    st->maps = xrealloc(st->maps, (st->n_maps + 1) * sizeof *st->maps);
    st->maps[st->n_maps].staged = xstrdup(staged);
    st->maps[st->n_maps].user = xstrdup(user);
    st->n_maps++;
}

/* ---------------------------------------------------------------- paths */

/* The path made absolute against the working directory, textually (no
 * symlink or ".." resolution: the kernel resolves those as it did for the
 * user's own compile). */
static char *absolute(const char *path)
{
    if (path[0] == '/')
        return xstrdup(path);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s/%s", cwd, path);
    return sbuf_take(&b);
}

/* The directory part of a path as written: "src/k.cu" -> "src", "k.cu" ->
 * ".", "/k.cu" -> "/". */
static char *dir_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

static const char *base_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The text that prefixed a file in this directory in the user's compile:
 * "src/" for "src/k.cu", "" for "k.cu". */
static char *user_prefix(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? xstrndup(path, (size_t)(slash - path) + 1) : xstrdup("");
}

static bool make_link(const char *target, const char *link, char *err, size_t errlen)
{
    if (symlink(target, link) == 0)
        return true;
    snprintf(err, errlen, "cannot create %s: %s", link, strerror(errno));
    return false;
}

/* dir/pN -> the absolute form of a user path (or of its directory). */
static char *link_path(nvstage *st, int *counter, const char *user_path, bool directory_of,
                       char *err, size_t errlen)
{
    char *target_src = directory_of ? dir_part(user_path) : xstrdup(user_path);
    char *target = absolute(target_src);
    free(target_src);
    if (!target) {
        snprintf(err, errlen, "cannot resolve '%s': %s", user_path, strerror(errno));
        return NULL;
    }
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s/p%d", st->dir, (*counter)++);
    char *link = sbuf_take(&b);
    bool ok = make_link(target, link, err, errlen);
    free(target);
    if (!ok) {
        free(link);
        return NULL;
    }
    return link;
}

/* ---------------------------------------------------------------- errors */

/* The argument as it can be shown on one line. */
static void show_arg(sbuf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\n')
            sbuf_add(b, "\\n");
        else if (*p == '\t')
            sbuf_add(b, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            sbuf_addf(b, "\\x%02x", *p);
        else
            sbuf_addc(b, (char)*p);
    }
}

static void refuse(char *err, size_t errlen, const char *what, const char *arg, const char *why)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s '", what);
    show_arg(&b, arg);
    sbuf_add(&b, "' ");
    if (why) {
        sbuf_add(&b, why);
    } else {
        char bad = '?';
        for (const unsigned char *p = (const unsigned char *)arg; *p; p++)
            if (!inert_byte(*p)) {
                bad = (char)*p;
                break;
            }
        if (bad == ' ')
            sbuf_add(&b, "holds a space");
        else if (bad == '\n')
            sbuf_add(&b, "holds a newline");
        else if ((unsigned char)bad < 0x20 || bad == 0x7f)
            sbuf_add(&b, "holds a control character");
        else
            sbuf_addf(&b, "holds '%c'", bad);
        sbuf_add(&b, ", which nvcc's shell would interpret; gpulint does not pass it to nvcc");
    }
    snprintf(err, errlen, "%s", sbuf_str(&b));
    sbuf_free(&b);
}

/* ---------------------------------------------------------------- options */

typedef enum opt_kind { K_DEFINE, K_UNDEF, K_PATH, K_FILE, K_REFUSE } opt_kind;

static const struct {
    const char *name;
    opt_kind kind;
    bool attached; /* "-Ivalue" as well as "-I value" and "-I=value" */
} options[] = {
    {"-D", K_DEFINE, true},      {"--define-macro", K_DEFINE, false},
    {"-U", K_UNDEF, true},       {"--undefine-macro", K_UNDEF, false},
    {"-I", K_PATH, true},        {"--include-path", K_PATH, false},
    {"-isystem", K_PATH, false}, {"--system-include", K_PATH, false},
    {"-L", K_PATH, true},        {"--library-path", K_PATH, false},
    {"-include", K_FILE, false}, {"--pre-include", K_FILE, false},
    {"-optf", K_REFUSE, false},  {"--options-file", K_REFUSE, false},
};

/* Which option an argument is, and where its value starts (NULL: the
 * value is the next argument). Returns -1 for anything else. */
static int match_option(const char *arg, const char **value)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        size_t len = strlen(options[i].name);
        if (strncmp(arg, options[i].name, len) != 0)
            continue;
        const char *rest = arg + len;
        if (*rest == '\0') {
            *value = NULL;
            return (int)i;
        }
        /* nvcc drops the '=' of "-I=dir" as of "--include-path=dir". */
        if (*rest == '=') {
            *value = rest + 1;
            return (int)i;
        }
        if (options[i].attached) {
            *value = rest;
            return (int)i;
        }
    }
    return -1;
}

/* nvcc's other options that take their value as the next argument (from
 * `nvcc --help`, CUDA 13.0, plus -Xcudafe): that argument is a value, never
 * an option of its own, whatever it looks like. */
static const char *const valued[] = {
    "--output-file",
    "-o",
    "--library",
    "-l",
    "--output-directory",
    "-odir",
    "--compiler-bindir",
    "-ccbin",
    "--archiver-binary",
    "-arbin",
    "--cudart",
    "-cudart",
    "--cudadevrt",
    "-cudadevrt",
    "--libdevice-directory",
    "-ldir",
    "--target-directory",
    "-target-dir",
    "--optimization-info",
    "-opt-info",
    "--optimize",
    "-O",
    "--dopt",
    "-dopt",
    "--ftemplate-backtrace-limit",
    "-ftemplate-backtrace-limit",
    "--ftemplate-depth",
    "-ftemplate-depth",
    "--x",
    "-x",
    "--std",
    "-std",
    "--machine",
    "-m",
    "--compiler-options",
    "-Xcompiler",
    "--linker-options",
    "-Xlinker",
    "--archive-options",
    "-Xarchive",
    "--ptxas-options",
    "-Xptxas",
    "--nvlink-options",
    "-Xnvlink",
    "--cudafe-options",
    "-Xcudafe",
    "--static-global-template-stub",
    "-static-global-template-stub",
    "--device-entity-has-hidden-visibility",
    "-device-entity-has-hidden-visibility",
    "--threads",
    "-t",
    "--split-compile",
    "-split-compile",
    "--split-compile-extended",
    "-split-compile-extended",
    "--fdevice-time-trace",
    "-fdevice-time-trace",
    "--keep-dir",
    "-keep-dir",
    "--time",
    "-time",
    "--run-args",
    "-run-args",
    "--input-drive-prefix",
    "-idp",
    "--dependency-drive-prefix",
    "-ddp",
    "--drive-prefix",
    "-dp",
    "--dependency-target-name",
    "-MT",
    "--dependency-output",
    "-MF",
    "--gpu-architecture",
    "-arch",
    "--gpu-code",
    "-code",
    "--generate-code",
    "-gencode",
    "--relocatable-device-code",
    "-rdc",
    "--entries",
    "-e",
    "--maxrregcount",
    "-maxrregcount",
    "--ftz",
    "-ftz",
    "--prec-div",
    "-prec-div",
    "--prec-sqrt",
    "-prec-sqrt",
    "--fmad",
    "-fmad",
    "--default-stream",
    "-default-stream",
    "--diag-error",
    "-diag-error",
    "--diag-suppress",
    "-diag-suppress",
    "--diag-warn",
    "-diag-warn",
    "--host-linker-script",
    "-hls",
    "--brief-diagnostics",
    "-brief-diag",
    "--jump-table-density",
    "-jtd",
    "--device-stack-protector",
    "-device-stack-protector",
    "--compress-mode",
    "-compress-mode",
    "--frandom-seed",
    "-frandom-seed",
    "--sanitize",
    "-sanitize",
};

static bool takes_value(const char *arg)
{
    for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++)
        if (strcmp(arg, valued[i]) == 0)
            return true;
    return false;
}

typedef struct stage_work {
    nvstage *st;
    const char *what;
    strvec out;   /* the user's arguments, made safe */
    sbuf defs;    /* defs.h */
    strvec moved; /* macro names whose definitions live in defs.h */
    int links;
    bool io_error; /* a link could not be made (not a refusal) */
    char *err;
    size_t errlen;
} stage_work;

static bool is_moved(const stage_work *w, const char *name, size_t len)
{
    for (int i = 0; i < w->moved.n; i++)
        if (strlen(w->moved.v[i]) == len && strncmp(w->moved.v[i], name, len) == 0)
            return true;
    return false;
}

static size_t ident_len(const char *s)
{
    size_t n = 0;
    if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
        return 0;
    while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
           (s[n] >= '0' && s[n] <= '9') || s[n] == '_')
        n++;
    return n;
}

/* nvcc splits -D, -U, -I, ... values at every comma. */
static strvec split_commas(const char *value)
{
    strvec items = {0};
    const char *p = value;
    for (;;) {
        const char *comma = strchr(p, ',');
        if (!comma) {
            vec_push(&items, xstrdup(p));
            break;
        }
        vec_push(&items, xstrndup(p, (size_t)(comma - p)));
        p = comma + 1;
    }
    return items;
}

/* A -D item written as the directive gcc makes of it: "N" -> "N 1",
 * "N=V" -> "N V", "F(a)=V" -> "F(a) V"; V ends at a newline, as gcc's -D
 * truncates it. */
static bool define_line(stage_work *w, const char *item, const char *arg)
{
    size_t n = ident_len(item);
    if (n == 0) {
        refuse(w->err, w->errlen, w->what, arg, "does not define a macro name");
        return false;
    }
    const char *eq = strchr(item, '=');
    const char *head_end = eq ? eq : item + strlen(item);
    if (item[n] != '\0' && item[n] != '=' && item[n] != '(') {
        refuse(w->err, w->errlen, w->what, arg, "does not define a macro name");
        return false;
    }
    sbuf_add(&w->defs, "#define ");
    sbuf_addn(&w->defs, item, (size_t)(head_end - item));
    if (eq) {
        const char *v = eq + 1;
        size_t vlen = strcspn(v, "\n");
        sbuf_addc(&w->defs, ' ');
        sbuf_addn(&w->defs, v, vlen);
    } else {
        sbuf_add(&w->defs, " 1");
    }
    sbuf_addc(&w->defs, '\n');
    if (!is_moved(w, item, n))
        vec_push(&w->moved, xstrndup(item, n));
    return true;
}

/* One option and its value; *consumed says how many arguments it took. */
static bool stage_option(stage_work *w, int idx, char *const *extra, int n_extra, int *consumed)
{
    const char *arg = extra[idx];
    const char *value;
    int which = match_option(arg, &value);
    *consumed = 1;
    if (which < 0) {
        if (takes_value(arg) && idx + 1 < n_extra)
            *consumed = 2;
        for (int i = 0; i < *consumed; i++) {
            if (!nvstage_inert(extra[idx + i])) {
                refuse(w->err, w->errlen, w->what, extra[idx + i], NULL);
                return false;
            }
            vec_push(&w->out, xstrdup(extra[idx + i]));
        }
        return true;
    }
    opt_kind kind = options[which].kind;
    const char *name = options[which].name;
    if (kind == K_REFUSE) {
        refuse(w->err, w->errlen, w->what, arg,
               "names a file of further arguments that gpulint cannot check; pass them "
               "directly");
        return false;
    }
    if (!value) {
        if (idx + 1 >= n_extra) { /* nvcc reports the missing value itself */
            vec_push(&w->out, xstrdup(arg));
            return true;
        }
        value = extra[idx + 1];
        *consumed = 2;
    }
    strvec items = split_commas(value);
    bool all_inert = true;
    for (int i = 0; i < items.n; i++)
        all_inert = all_inert && nvstage_inert(items.v[i]);
    bool ok = true;
    if (kind == K_DEFINE || kind == K_UNDEF) {
        bool any_moved = false;
        for (int i = 0; i < items.n; i++) {
            size_t n = ident_len(items.v[i]);
            any_moved = any_moved || (n && is_moved(w, items.v[i], n));
        }
        if (all_inert && !any_moved) {
            for (int i = 0; i < *consumed; i++)
                vec_push(&w->out, xstrdup(extra[idx + i]));
        } else if (kind == K_UNDEF) {
            /* An undefinition of a moved name must follow it in defs.h. */
            for (int i = 0; ok && i < items.n; i++) {
                size_t n = ident_len(items.v[i]);
                if (n == 0 || items.v[i][n] != '\0') {
                    refuse(w->err, w->errlen, w->what, arg, "does not name a macro");
                    ok = false;
                } else if (is_moved(w, items.v[i], n)) {
                    sbuf_addf(&w->defs, "#undef %s\n", items.v[i]);
                } else {
                    vec_push(&w->out, xstrdup("-U"));
                    vec_push(&w->out, xstrdup(items.v[i]));
                }
            }
        } else {
            for (int i = 0; ok && i < items.n; i++)
                ok = define_line(w, items.v[i], *consumed == 2 ? value : arg);
        }
    } else {
        /* Paths: the inert ones as written, the others through a link. */
        sbuf joined;
        sbuf_init(&joined);
        for (int i = 0; ok && i < items.n; i++) {
            const char *item = items.v[i];
            if (i)
                sbuf_addc(&joined, ',');
            if (nvstage_inert(item)) {
                sbuf_add(&joined, item);
                continue;
            }
            bool keep_base = kind == K_FILE && nvstage_inert(base_part(item)) && *base_part(item) &&
                             base_part(item) != item;
            char *link = link_path(w->st, &w->links, item, keep_base, w->err, w->errlen);
            if (!link) {
                w->io_error = true;
                ok = false;
                break;
            }
            if (keep_base) {
                sbuf_addf(&joined, "%s/%s", link, base_part(item));
                char *up = user_prefix(item);
                sbuf mp;
                sbuf_init(&mp);
                sbuf_addf(&mp, "%s/", link);
                add_map(w->st, sbuf_str(&mp), up);
                sbuf_free(&mp);
                free(up);
            } else {
                sbuf_add(&joined, link);
                if (kind == K_PATH) {
                    sbuf mp, mu;
                    sbuf_init(&mp);
                    sbuf_init(&mu);
                    sbuf_addf(&mp, "%s/", link);
                    size_t il = strlen(item);
                    sbuf_addf(&mu, "%s%s", item, il && item[il - 1] == '/' ? "" : "/");
                    add_map(w->st, sbuf_str(&mp), sbuf_str(&mu));
                    sbuf_free(&mp);
                    sbuf_free(&mu);
                } else {
                    add_map(w->st, link, item);
                }
            }
            free(link);
        }
        if (ok) {
            if (all_inert) {
                for (int i = 0; i < *consumed; i++)
                    vec_push(&w->out, xstrdup(extra[idx + i]));
            } else {
                vec_push(&w->out, xstrdup(name));
                vec_push(&w->out, sbuf_take(&joined));
            }
        }
        sbuf_free(&joined);
    }
    vec_free(&items);
    return ok;
}

/* ---------------------------------------------------------------- the stage */

static bool write_file(const char *path, const char *a, size_t alen, const char *b, size_t blen,
                       char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return false;
    }
    const char *parts[2] = {a, b};
    size_t lens[2] = {alen, blen};
    for (int k = 0; k < 2; k++) {
        size_t off = 0;
        while (off < lens[k]) {
            ssize_t w = write(fd, parts[k] + off, lens[k] - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
                close(fd);
                return false;
            }
            off += (size_t)w;
        }
    }
    if (close(fd) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

/* `#line 1 "path"` with the path as a C string literal (gcc interprets the
 * escapes of #line, so any name round-trips). */
static void line_directive(sbuf *b, const char *path)
{
    sbuf_add(b, "#line 1 \"");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p == '"' || *p == '\\')
            sbuf_addf(b, "\\%c", *p);
        else if (*p == '\n')
            sbuf_add(b, "\\n");
        else if (*p < 0x20 || *p == 0x7f)
            sbuf_addf(b, "\\%03o", *p);
        else
            sbuf_addc(b, (char)*p);
    }
    sbuf_add(b, "\"\n");
}

/* The copy keeps the extension that tells nvcc what the file is (.cu,
 * .cpp with -x cu, ...) when it is plain; anything else compiles as .cu. */
static const char *safe_extension(const char *path)
{
    const char *dot = strrchr(base_part(path), '.');
    if (!dot || !dot[1] || strlen(dot + 1) > 8)
        return "cu";
    for (const char *p = dot + 1; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            return "cu";
    return dot + 1;
}

static char *stage_base(void)
{
    const char *t = getenv("TMPDIR");
    /* $TMPDIR itself reaches nvcc's commands; a name the shell would read
     * is not used. */
    if (t && t[0] == '/' && nvstage_inert(t) && strlen(t) < PATH_MAX - 64)
        return xstrdup(t);
    return xstrdup("/tmp");
}

char *nvstage_temp_dir(const char *prefix, char *err, size_t errlen)
{
    char *base = stage_base();
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s/%sXXXXXX", base, prefix);
    free(base);
    char *templ = sbuf_take(&b);
    if (!mkdtemp(templ)) {
        snprintf(err, errlen, "cannot create a temporary directory: %s", strerror(errno));
        free(templ);
        return NULL;
    }
    return templ;
}

nvstage_status nvstage_prepare(nvstage *st, const char *path, const char *text, size_t len,
                               char *const *extra, int n_extra, const char *what, char *err,
                               size_t errlen)
{
    memset(st, 0, sizeof *st);
    st->dir = nvstage_temp_dir("gpulint-", err, errlen);
    if (!st->dir)
        return NVSTAGE_IO;
    sbuf b;
    sbuf_init(&b);
    stage_work w = {.st = st, .what = what, .err = err, .errlen = errlen};
    sbuf_init(&w.defs);
    nvstage_status status = NVSTAGE_IO;

    sbuf_addf(&b, "%s/src", st->dir);
    char *srcdir = sbuf_take(&b);
    sbuf_addf(&b, "%s/tmp", st->dir);
    st->tmpdir = sbuf_take(&b);
    sbuf_addf(&b, "%s/out.fatbin", st->tmpdir);
    st->output = sbuf_take(&b);
    sbuf_addf(&b, "%s/deps.d", st->tmpdir);
    st->deps = sbuf_take(&b);
    sbuf_addf(&b, "%s/gpulint.%s", srcdir, safe_extension(path));
    st->source = sbuf_take(&b);
    sbuf_addf(&b, "%s/inc", st->dir);
    char *inc = sbuf_take(&b);
    char *src_dir_abs = NULL, *dir = dir_part(path), *prefix = user_prefix(path);

    if (mkdir(srcdir, 0700) != 0 || mkdir(st->tmpdir, 0700) != 0) {
        snprintf(err, errlen, "cannot create %s: %s", srcdir, strerror(errno));
        goto out;
    }
    src_dir_abs = absolute(dir);
    if (!src_dir_abs) {
        snprintf(err, errlen, "cannot find the working directory: %s", strerror(errno));
        goto out;
    }
    if (!make_link(src_dir_abs, inc, err, errlen))
        goto out;
    line_directive(&b, path);
    st->path_in_ptx = true;
    for (const unsigned char *p = (const unsigned char *)path; *p; p++)
        st->path_in_ptx &= *p != '"' && *p != '\\' && *p >= 0x20 && *p != 0x7f;
    if (!write_file(st->source, b.data, b.len, text, len, err, errlen))
        goto out;
    sbuf_free(&b);
    add_map(st, st->source, path);
    sbuf_addf(&b, "%s/", inc);
    add_map(st, sbuf_str(&b), prefix);
    sbuf_free(&b);

    status = NVSTAGE_REFUSED;
    for (int i = 0; i < n_extra;) {
        int consumed;
        if (!stage_option(&w, i, extra, n_extra, &consumed)) {
            if (w.io_error)
                status = NVSTAGE_IO;
            goto out;
        }
        i += consumed;
    }

    /* The stage's own arguments come first: our -iquote before any of the
     * user's, defs.h before the user's -include files (nvcc puts its own
     * cuda_runtime.h before all of them). */
    strvec args = {0};
    sbuf_addf(&b, "-iquote,%s", inc);
    vec_push(&args, xstrdup("-Xcompiler"));
    vec_push(&args, sbuf_take(&b));
    if (w.defs.len) {
        sbuf_addf(&b, "%s/defs.h", st->dir);
        char *defs = sbuf_take(&b);
        if (!write_file(defs, w.defs.data, w.defs.len, NULL, 0, err, errlen)) {
            free(defs);
            vec_free(&args);
            status = NVSTAGE_IO;
            goto out;
        }
        add_map(st, defs, "<command line>");
        vec_push(&args, xstrdup("-include"));
        vec_push(&args, defs);
    }
    for (int i = 0; i < w.out.n; i++) {
        vec_push(&args, w.out.v[i]);
        w.out.v[i] = NULL;
    }
    st->args = args.v;
    st->n_args = args.n;
    status = NVSTAGE_OK;
out:
    sbuf_free(&b);
    sbuf_free(&w.defs);
    vec_free(&w.out);
    vec_free(&w.moved);
    free(srcdir);
    free(inc);
    free(src_dir_abs);
    free(dir);
    free(prefix);
    if (status != NVSTAGE_OK)
        nvstage_free(st);
    return status;
}

char *nvstage_unmap(const nvstage *st, const char *text)
{
    sbuf b;
    sbuf_init(&b);
    for (const char *p = text; *p;) {
        /* Longest staged prefix first: maps are few, text is short. */
        const nvstage_map *best = NULL;
        size_t best_len = 0;
        for (size_t i = 0; i < st->n_maps; i++) {
            size_t l = strlen(st->maps[i].staged);
            if (l > best_len && strncmp(p, st->maps[i].staged, l) == 0) {
                best = &st->maps[i];
                best_len = l;
            }
        }
        if (best) {
            sbuf_add(&b, best->user);
            p += best_len;
        } else {
            sbuf_addc(&b, *p++);
        }
    }
    if (!b.data)
        sbuf_add(&b, "");
    return sbuf_take(&b);
}

char **nvstage_env(const nvstage *st)
{
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **env = xcalloc(n + 2, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "TMPDIR=", 7) != 0)
            env[k++] = xstrdup(environ[i]);
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "TMPDIR=%s", st->tmpdir);
    env[k++] = sbuf_take(&b);
    env[k] = NULL;
    return env;
}

void nvstage_env_free(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        free(env[i]);
    free(env);
}

void nvstage_free(nvstage *st)
{
    if (st->dir)
        fsutil_remove_tree(st->dir);
    free(st->dir);
    free(st->source);
    free(st->tmpdir);
    free(st->output);
    free(st->deps);
    for (int i = 0; i < st->n_args; i++)
        free(st->args[i]);
    free(st->args);
    for (size_t i = 0; i < st->n_maps; i++) {
        free(st->maps[i].staged);
        free(st->maps[i].user);
    }
    free(st->maps);
    memset(st, 0, sizeof *st);
}
