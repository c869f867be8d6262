/* wraprec: records of `gpulint wrap`, written by the build, read by --from. */
#include "input/wraprec.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "util/fileio.h"
#include "util/jsontext.h"
#include "util/sbuf.h"

#define RECORD_FORMAT "gpulint-wrap-1"
#define RECORD_MAX (64u << 20)
#define TREE_DEPTH_MAX 64

/* ---- the command line ---- */

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* nvcc options whose value is the next word and may look like an input
 * (a file name); the rest of nvcc's valued options never end in .cu. */
static bool takes_file_value(const char *a)
{
    static const char *const opts[] = {
        "-o",
        "--output-file",
        "-MF",
        "--dependency-output",
        "-MT",
        "-MQ",
        "-include",
        "--pre-include",
        "-odir",
        "--output-directory",
        "-optf",
        "--options-file",
        "-Xcompiler",
        "--compiler-options",
        "-x",
        "--x",
        "-ccbin",
        "--compiler-bindir",
        "-I",
        "-isystem",
        "--include-path",
        "--system-include",
    };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (strcmp(a, opts[i]) == 0)
            return true;
    return false;
}

/* "-v" or "--verbose" in a comma-separated ptxas option list. */
static bool list_has_verbose(const char *list)
{
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        if ((n == 2 && strncmp(p, "-v", 2) == 0) || (n == 9 && strncmp(p, "--verbose", 9) == 0))
            return true;
        p += n;
        if (*p == ',')
            p++;
    }
    return false;
}

static bool is_nvcc(const char *word)
{
    const char *b = base_name(word);
    return strcmp(b, "nvcc") == 0 || strcmp(b, "nvcc.exe") == 0;
}

void wraprec_read_command(char *const *argv, int argc, wraprec_cmd *cmd)
{
    memset(cmd, 0, sizeof *cmd);
    cmd->nvcc = -1;
    /* Launchers come first (ccache nvcc ..., sccache nvcc ...); the first
     * option belongs to the compiler, so a later "nvcc" is an argument. */
    for (int i = 0; i < argc && argv[i][0] != '-'; i++)
        if (is_nvcc(argv[i])) {
            cmd->nvcc = i;
            break;
        }
    if (cmd->nvcc < 0)
        return;
    cmd->sources = xcalloc((size_t)argc + 1, sizeof *cmd->sources);
    for (int i = cmd->nvcc + 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-Xptxas") == 0 || strcmp(a, "--ptxas-options") == 0) {
            if (next && list_has_verbose(next))
                cmd->verbose = true;
            i++;
        } else if (strncmp(a, "-Xptxas=", 8) == 0) {
            cmd->verbose |= list_has_verbose(a + 8);
        } else if (strncmp(a, "--ptxas-options=", 16) == 0) {
            cmd->verbose |= list_has_verbose(a + 16);
        } else if (strcmp(a, "--resource-usage") == 0 || strcmp(a, "-res-usage") == 0) {
            cmd->verbose = true;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output-file") == 0) {
            if (next)
                cmd->output = next;
            i++;
        } else if (strncmp(a, "-o=", 3) == 0) {
            cmd->output = a + 3;
        } else if (strncmp(a, "--output-file=", 14) == 0) {
            cmd->output = a + 14;
        } else if (strcmp(a, "-c") == 0 || strcmp(a, "--compile") == 0 || strcmp(a, "-dc") == 0 ||
                   strcmp(a, "--device-c") == 0 || strcmp(a, "-cubin") == 0 ||
                   strcmp(a, "--cubin") == 0 || strcmp(a, "-fatbin") == 0 ||
                   strcmp(a, "--fatbin") == 0) {
            cmd->compile_only = true;
        } else if (takes_file_value(a)) {
            i++;
        } else if (a[0] != '-' && (ends_with(a, ".cu") || ends_with(a, ".ptx"))) {
            cmd->sources[cmd->n_sources++] = a;
        }
    }
}

void wraprec_cmd_free(wraprec_cmd *cmd)
{
    free(cmd->sources);
    memset(cmd, 0, sizeof *cmd);
    cmd->nvcc = -1;
}

bool wraprec_is_log_line(const char *line, size_t len)
{
    static const char info[] = "ptxas info", frame[] = " bytes stack frame";
    if (len >= sizeof info - 1 && memcmp(line, info, sizeof info - 1) == 0)
        return true;
    /* "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
     * (the line under "Function properties for ..."). */
    size_t i = 0;
    while (i < len && line[i] == ' ')
        i++;
    if (i == 0 || i == len || line[i] < '0' || line[i] > '9')
        return false;
    while (i < len && line[i] >= '0' && line[i] <= '9')
        i++;
    return len - i >= sizeof frame - 1 && memcmp(line + i, frame, sizeof frame - 1) == 0;
}

/* ---- one record ---- */

char *wraprec_path_for(const wraprec *w, const char *dir)
{
    const char *anchor = w->output ? w->output : w->n_sources ? w->sources[0] : NULL;
    if (!anchor)
        return NULL;
    sbuf b;
    sbuf_init(&b);
    if (!dir)
        sbuf_addf(&b, "%s%s", anchor, WRAPREC_SUFFIX);
    else
        /* Objects of the same name in different build folders (a.cu.o in
         * two targets) get different records. */
        sbuf_addf(&b, "%s/%s-%016llx%s", dir, base_name(anchor),
                  (unsigned long long)XXH3_64bits(anchor, strlen(anchor)), WRAPREC_SUFFIX);
    return sbuf_take(&b);
}

bool wraprec_write(const char *path, const wraprec *w, char *err, size_t errlen)
{
    json_t *sources = json_array();
    for (int i = 0; i < w->n_sources; i++)
        json_array_append_new(sources, json_bytes(w->sources[i]));
    json_t *rec = json_pack("{s:s, s:o, s:o, s:o, s:o}", "format", RECORD_FORMAT, "directory",
                            json_bytes(w->directory), "sources", sources, "output",
                            json_bytes(w->output), "log", json_bytes(w->log ? w->log : ""));
    char *text = rec ? json_dumps(rec, JSON_INDENT(1)) : NULL;
    json_decref(rec);
    if (!text) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    sbuf tmp;
    sbuf_init(&tmp);
    sbuf_addf(&tmp, "%s.%d.tmp", path, (int)getpid());
    int fd = open(sbuf_str(&tmp), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    size_t len = strlen(text), done = 0;
    while (fd >= 0 && done < len) {
        ssize_t k = write(fd, text + done, len - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        done += (size_t)k;
    }
    bool ok = fd >= 0 && done == len && write(fd, "\n", 1) == 1;
    int saved = errno;
    if (fd >= 0 && close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok && rename(sbuf_str(&tmp), path) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        snprintf(err, errlen, "%s: %s", path, strerror(saved ? saved : EIO));
        unlink(sbuf_str(&tmp));
    }
    sbuf_free(&tmp);
    free(text);
    return ok;
}

void wraprec_free(wraprec *w)
{
    free(w->path);
    free(w->directory);
    for (int i = 0; i < w->n_sources; i++)
        free(w->sources[i]);
    free(w->sources);
    free(w->output);
    free(w->log);
    memset(w, 0, sizeof *w);
}

bool wraprec_parse(const char *text, size_t len, wraprec *w)
{
    memset(w, 0, sizeof *w);
    json_t *rec = json_loadb(text, len, 0, NULL);
    const char *format = json_string_value(json_object_get(rec, "format"));
    json_t *sources = json_object_get(rec, "sources");
    json_t *output = json_object_get(rec, "output");
    bool ok = format && strcmp(format, RECORD_FORMAT) == 0 && json_is_array(sources) &&
              json_array_size(sources) < 4096 && output &&
              (w->directory = json_bytes_value(json_object_get(rec, "directory"))) &&
              (w->log = json_bytes_value(json_object_get(rec, "log")));
    if (ok && !json_is_null(output))
        ok = (w->output = json_bytes_value(output)) != NULL;
    if (ok) {
        w->sources = xcalloc(json_array_size(sources) + 1, sizeof *w->sources);
        for (size_t i = 0; ok && i < json_array_size(sources); i++) {
            char *s = json_bytes_value(json_array_get(sources, i));
            ok = s != NULL;
            if (ok)
                w->sources[w->n_sources++] = s;
        }
    }
    json_decref(rec);
    if (!ok)
        wraprec_free(w);
    return ok;
}

/* ---- a build tree's records ---- */

static void add_bad(wraprec_set *set, const char *path)
{
    set->bad = xrealloc(set->bad, (set->n_bad + 1) * sizeof *set->bad);
    set->bad[set->n_bad++] = xstrdup(path);
}

static void load_one(wraprec_set *set, size_t *cap, const char *path)
{
    char *text;
    size_t len;
    wraprec w;
    if (fileio_read(path, RECORD_MAX, &text, &len) != FILEIO_OK) {
        add_bad(set, path);
        return;
    }
    bool ok = wraprec_parse(text, len, &w);
    free(text);
    if (!ok) {
        add_bad(set, path);
        return;
    }
    w.path = xstrdup(path);
    if (set->n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        set->recs = xrealloc(set->recs, *cap * sizeof *set->recs);
    }
    set->recs[set->n++] = w;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Entries in name order, so the walk (and a tie between records) does not
 * depend on the file system's order. */
static bool walk(wraprec_set *set, size_t *cap, const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    char **names = NULL;
    size_t n = 0, ncap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n == ncap) {
            ncap = ncap ? ncap * 2 : 32;
            names = xrealloc(names, ncap * sizeof *names);
        }
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_name);
    for (size_t i = 0; i < n; i++) {
        sbuf p;
        sbuf_init(&p);
        sbuf_addf(&p, "%s/%s", dir, names[i]);
        struct stat st;
        if (lstat(sbuf_str(&p), &st) == 0) {
            if (S_ISDIR(st.st_mode) && depth < TREE_DEPTH_MAX)
                walk(set, cap, sbuf_str(&p), depth + 1);
            else if (S_ISREG(st.st_mode) && ends_with(names[i], WRAPREC_SUFFIX))
                load_one(set, cap, sbuf_str(&p));
        }
        sbuf_free(&p);
        free(names[i]);
    }
    free(names);
    return true;
}

static const char *sort_key(const wraprec *w)
{
    return w->n_sources ? w->sources[0] : w->output ? w->output : "";
}

static int cmp_rec(const void *a, const void *b)
{
    const wraprec *x = a, *y = b;
    int c = strcmp(sort_key(x), sort_key(y));
    if (c == 0)
        c = strcmp(x->output ? x->output : "", y->output ? y->output : "");
    return c ? c : strcmp(x->path, y->path);
}

bool wraprec_load_tree(const char *dir, wraprec_set *set, char *err, size_t errlen)
{
    memset(set, 0, sizeof *set);
    size_t cap = 0;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || !walk(set, &cap, dir, 0)) {
        snprintf(err, errlen, "%s: %s", dir,
                 stat(dir, &st) != 0    ? strerror(errno)
                 : !S_ISDIR(st.st_mode) ? "not a directory"
                                        : "cannot be read");
        return false;
    }
    if (set->n)
        qsort(set->recs, set->n, sizeof *set->recs, cmp_rec);
    return true;
}

void wraprec_set_free(wraprec_set *set)
{
    for (size_t i = 0; i < set->n; i++)
        wraprec_free(&set->recs[i]);
    free(set->recs);
    for (size_t i = 0; i < set->n_bad; i++)
        free(set->bad[i]);
    free(set->bad);
    memset(set, 0, sizeof *set);
}
