/* compiled: one file's nvcc output, from its stage or from the cache. */
#include "run/compiled.h"

#include <dirent.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/unitcache.h"
#include "util/fileio.h"
#include "util/jsontext.h"
#include "util/sbuf.h"
#include "util/spawn.h"

/* The kept PTX files, in name order (readdir's order differs between a
 * run and the cache's copy of it; the analyses must not). */
static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_ptx(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n >= 5 && strcmp(e->d_name + n - 4, ".ptx") == 0;
}

static void read_ptx(compiled *c, const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, is_ptx, by_name);
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX], *text;
        size_t len;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (fileio_read(path, 1u << 30, &text, &len) == FILEIO_OK) {
            c->ptx = xrealloc(c->ptx, (c->n_ptx + 1) * sizeof *c->ptx);
            c->ptx[c->n_ptx++] = text;
        }
        free(names[i]);
    }
    if (n >= 0)
        free(names);
}

/* cuobjdump on the fatbin nvcc made (every full toolkit has it; NVIDIA's
 * pip wheels do not). */
static void read_sass(compiled *c, const nvstage *st, const char *tool)
{
    if (access(tool, X_OK) != 0) {
        c->why_no_sass = xstrdup("no cuobjdump beside nvcc");
        return;
    }
    const char *argv[] = {tool, "-sass", st->output, NULL};
    spawn_result res;
    char err[256];
    if (!spawn_run(argv, NULL, &res, err, sizeof err)) {
        c->why_no_sass = xstrdup(err);
        return;
    }
    if (res.status != 0) {
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "cuobjdump failed (exit status %d): %.*s", res.status,
                  (int)strcspn(res.err, "\n"), res.err);
        c->why_no_sass = sbuf_take(&b);
    } else {
        c->sass = xstrndup(res.out, res.out_len);
    }
    spawn_result_free(&res);
}

void compiled_from_stage(compiled *c, const nvstage *st, char *log, bool keep_ptx,
                         const char *cuobjdump)
{
    memset(c, 0, sizeof *c);
    c->log = log;
    c->stage_dir = xstrdup(st->dir);
    char *deps;
    size_t len;
    if (fileio_read(st->deps, 64u << 20, &deps, &len) == FILEIO_OK) {
        c->deps = nvstage_unmap(st, deps);
        free(deps);
    }
    if (keep_ptx)
        read_ptx(c, st->tmpdir);
    if (cuobjdump)
        read_sass(c, st, cuobjdump);
    /* The code names a header by its staged path (the stage's link to the
     * source's directory): name it as the user does, or no line of a
     * kernel written in a header meets the source's counts. */
    for (size_t i = 0; i < c->n_ptx; i++) {
        char *named = nvstage_unmap(st, c->ptx[i]);
        free(c->ptx[i]);
        c->ptx[i] = named;
    }
    if (c->sass) {
        char *named = nvstage_unmap(st, c->sass);
        free(c->sass);
        c->sass = named;
    }
}

bool compiled_lookup(const char *cache_dir, const char *key, compiled *c)
{
    memset(c, 0, sizeof *c);
    char *rec, *out;
    size_t rlen, olen;
    if (!unitcache_lookup(cache_dir, key, &rec, &rlen, &out, &olen))
        return false;
    json_t *j = json_loadb(rec, rlen, 0, NULL), *ptx = json_object_get(j, "ptx");
    free(rec);
    free(out);
    c->log = json_bytes_value(json_object_get(j, "log"));
    c->deps = json_bytes_value(json_object_get(j, "deps"));
    c->stage_dir = json_bytes_value(json_object_get(j, "stage_dir"));
    c->sass = json_bytes_value(json_object_get(j, "sass"));
    c->why_no_sass = json_bytes_value(json_object_get(j, "why_no_sass"));
    bool ok = c->log && c->deps && c->stage_dir && json_is_array(ptx);
    for (size_t i = 0; ok && i < json_array_size(ptx); i++) {
        char *text = json_bytes_value(json_array_get(ptx, i));
        ok = text != NULL;
        c->ptx = xrealloc(c->ptx, (c->n_ptx + 1) * sizeof *c->ptx);
        c->ptx[c->n_ptx++] = text;
    }
    json_decref(j);
    if (!ok)
        compiled_free(c); /* a foreign or damaged entry: compile again */
    return ok;
}

void compiled_store(const char *cache_dir, const char *key, const compiled *c)
{
    if (!c->deps)
        return;
    json_t *ptx = json_array();
    for (size_t i = 0; i < c->n_ptx; i++)
        json_array_append_new(ptx, json_bytes(c->ptx[i]));
    json_t *j = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "log", json_bytes(c->log), "deps",
                          json_bytes(c->deps), "stage_dir", json_bytes(c->stage_dir), "ptx", ptx,
                          "sass", json_bytes(c->sass), "why_no_sass", json_bytes(c->why_no_sass));
    char *rec = j ? json_dumps(j, JSON_COMPACT) : NULL;
    if (rec)
        unitcache_store(cache_dir, key, c->deps, c->stage_dir, rec, strlen(rec), "", 0);
    free(rec);
    json_decref(j);
}

void compiled_listing(const compiled *c, const char *sass_text, size_t sass_len,
                      const char *sass_origin, code_listing *code)
{
    memset(code, 0, sizeof *code);
    if (c->n_ptx)
        code->ptx = xcalloc(c->n_ptx, sizeof *code->ptx);
    for (size_t i = 0; i < c->n_ptx; i++)
        ptx_parse(c->ptx[i], strlen(c->ptx[i]), &code->ptx[code->n_ptx++]);
    if (sass_text || c->sass) {
        sass_parse(sass_text ? sass_text : c->sass, sass_text ? sass_len : strlen(c->sass),
                   &code->sass);
        code->has_sass = true;
        code->sass_origin = xstrdup(sass_text ? sass_origin : "cuobjdump");
    } else if (c->why_no_sass) {
        code->why_no_sass = xstrdup(c->why_no_sass);
    }
}

void compiled_free(compiled *c)
{
    free(c->log);
    free(c->deps);
    free(c->stage_dir);
    for (size_t i = 0; i < c->n_ptx; i++)
        free(c->ptx[i]);
    free(c->ptx);
    free(c->sass);
    free(c->why_no_sass);
    memset(c, 0, sizeof *c);
}
