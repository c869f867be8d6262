/* project: the run's file list from the command line, -p and --shard. */
#include "run/project.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "util/diag.h"
#include "util/exitcode.h"
#include "util/sbuf.h"

static void add(project *p, int *cap, char *file, char **args, int n_args)
{
    if (p->n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        p->files = xrealloc(p->files, (size_t)*cap * sizeof *p->files);
        p->args = xrealloc(p->args, (size_t)*cap * sizeof *p->args);
        p->n_args = xrealloc(p->n_args, (size_t)*cap * sizeof *p->n_args);
    }
    p->files[p->n] = file;
    p->args[p->n] = args;
    p->n_args[p->n++] = n_args;
}

/* /work/repo/src/a.cu seen from /work/repo is src/a.cu: the names a user
 * typed, and the same on every CI machine that checks out the repo. */
char *project_shown_name(const char *abs)
{
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd)) {
        size_t n = strlen(cwd);
        if (strcmp(cwd, "/") != 0 && strncmp(abs, cwd, n) == 0 && abs[n] == '/')
            return xstrdup(abs + n + 1);
    }
    return xstrdup(abs);
}

bool project_parse_shard(const char *s, int *k, int *n)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s || *end != '/')
        return false;
    const char *rest = end + 1;
    long b = strtol(rest, &end, 10);
    if (end == rest || *end || a < 1 || b < 1 || a > b || b > 1000000)
        return false;
    *k = (int)a;
    *n = (int)b;
    return true;
}

/* The shard of a file depends on its name only, so each file lands in the
 * same shard on every machine and adding a file moves no other. */
static void keep_shard(project *p, int k, int n)
{
    int m = 0;
    for (int i = 0; i < p->n; i++) {
        XXH64_hash_t h = XXH3_64bits(p->files[i], strlen(p->files[i]));
        if ((int)(h % (XXH64_hash_t)n) == k - 1) {
            p->files[m] = p->files[i];
            p->args[m] = p->args[i];
            p->n_args[m++] = p->n_args[i];
        } else {
            free(p->files[i]);
            free(p->args[i]);
        }
    }
    p->n = m;
}

int project_files(const char *compdb_dir, char *const *files, int n_files, const char *shard,
                  project *p)
{
    memset(p, 0, sizeof *p);
    int k = 0, n = 0, cap = 0;
    if (shard && !project_parse_shard(shard, &k, &n))
        return diag_error(EXIT_USAGE, "invalid --shard '%s': expected K/N with 1 <= K <= N", shard);
    if (compdb_dir) {
        char err[1024];
        compdb_status st = compdb_load(compdb_dir, &p->db, err, sizeof err);
        if (st != COMPDB_OK)
            return diag_error(EXIT_INPUT, "%s", err);
    }
    if (compdb_dir && n_files == 0) {
        if (p->db.n_units == 0)
            return diag_error(EXIT_INPUT,
                              "%s: no CUDA translation units (%zu entries compile "
                              "other languages)",
                              p->db.path, p->db.n_not_cuda);
        for (size_t i = 0; i < p->db.n_units; i++) {
            const compdb_unit *u = &p->db.units[i];
            char **args = xcalloc((size_t)u->n_args + 1, sizeof *args);
            memcpy(args, u->args, (size_t)u->n_args * sizeof *args);
            add(p, &cap, project_shown_name(u->file), args, u->n_args);
        }
    } else {
        for (int i = 0; i < n_files; i++) {
            const compdb_unit *u = compdb_dir ? compdb_find(&p->db, files[i]) : NULL;
            if (compdb_dir && !u)
                diag_note("%s: not in %s; only the command line's nvcc arguments apply", files[i],
                          p->db.path);
            char **args = NULL;
            if (u) {
                args = xcalloc((size_t)u->n_args + 1, sizeof *args);
                memcpy(args, u->args, (size_t)u->n_args * sizeof *args);
            }
            add(p, &cap, xstrdup(files[i]), args, u ? u->n_args : 0);
        }
    }
    if (shard)
        keep_shard(p, k, n);
    return EXIT_OK;
}

void project_command_line_units(project *p, char *const *files, int n_files, char *const *extra,
                                int n_extra)
{
    if (p->db.path || n_files < 2)
        return;
    p->db.units = xcalloc((size_t)n_files, sizeof *p->db.units);
    for (int i = 0; i < n_files; i++) {
        compdb_unit *u = &p->db.units[p->db.n_units++];
        char *real = realpath(files[i], NULL);
        u->file = real ? real : xstrdup(files[i]);
        u->args = xcalloc((size_t)n_extra + 1, sizeof *u->args);
        for (int a = 0; a < n_extra; a++)
            u->args[a] = xstrdup(extra[a]);
        u->n_args = n_extra;
        u->entry = i;
    }
}

void project_free(project *p)
{
    for (int i = 0; i < p->n; i++) {
        free(p->files[i]);
        free(p->args[i]); /* the strings belong to db */
    }
    free(p->files);
    free(p->args);
    free(p->n_args);
    compdb_free(&p->db);
    cusrc_xcalls_free(&p->calls);
    free(p->calls_text);
    memset(p, 0, sizeof *p);
}
