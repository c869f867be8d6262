/* xcalls: the project's host units read for their calls into the CUDA
 * units (see xcalls.h). */
#include "run/xcalls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/pool.h"
#include "run/project.h"
#include "run/siblings.h"
#include "util/fileio.h"
#include "util/diag.h"
#include "util/sbuf.h"

static char *dup_or_null(const json_t *j);

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

json_t *xcalls_to_json(const cusrc_xcalls *x)
{
    json_t *calls = json_array();
    for (size_t c = 0; c < x->n; c++) {
        const cusrc_xcall *v = &x->v[c];
        json_t *args = json_array(), *fields = json_array(), *folded = json_array(),
               *path = json_array();
        for (int i = 0; i < v->n_args; i++) {
            json_array_append_new(args, v->args[i].known ? json_integer(v->args[i].value)
                                                         : str_or_null(v->args[i].why));
            json_t *fo = json_object();
            for (int k = 0; k < v->args[i].n_fields; k++)
                json_object_set_new(fo, v->args[i].fields[k].name,
                                    json_integer(v->args[i].fields[k].value));
            json_array_append_new(fields, fo);
        }
        for (int i = 0; i < v->n_folded; i++) {
            const cusrc_size_from *f = &v->folded[i];
            json_array_append_new(folded,
                                  json_pack("{s:s, s:I, s:s, s:o, s:i}", "name", f->name, "value",
                                            (json_int_t)f->value, "function", f->function, "file",
                                            str_or_null(f->loc.file), "line", f->loc.line));
        }
        for (int i = 0; i < v->n_path; i++)
            json_array_append_new(
                path, json_pack("{s:s, s:o, s:o}", "fn", v->fn[i], "runs",
                                v->runs[i] >= 0 ? json_integer(v->runs[i]) : json_null(), "why",
                                str_or_null(v->why[i])));
        json_t *call =
            json_pack("{s:s, s:s, s:o, s:i, s:o, s:o, s:o, s:o}", "usr", v->usr, "callee",
                      v->callee, "file", str_or_null(v->loc.file), "line", v->loc.line, "args",
                      args, "fields", fields, "folded", folded, "path", path);
        if (v->has_self) {
            json_t *self = json_object();
            for (int i = 0; i < v->n_self; i++)
                json_object_set_new(self, v->self[i].name, json_integer(v->self[i].value));
            json_object_set_new(call, "self", self);
        }
        if (v->launch) {
            /* A launch of another unit's kernel: its values as written too. */
            json_t *texts = json_array(), *exprs = json_array();
            for (int i = 0; i < v->n_args; i++) {
                json_array_append_new(texts, str_or_null(v->args[i].text));
                json_array_append_new(exprs, str_or_null(v->args[i].expr));
            }
            json_object_set_new(call, "launch", json_integer(v->kind));
            json_object_set_new(call, "text", str_or_null(v->text));
            json_object_set_new(call, "texts", texts);
            json_object_set_new(call, "exprs", exprs);
        }
        json_array_append_new(calls, call);
    }
    /* File-scope integers ride along, one entry each, told apart by key. */
    for (size_t i = 0; i < x->n_g; i++) {
        const cusrc_xglobal *g = &x->g[i];
        json_array_append_new(
            calls, json_pack("{s:s, s:s, s:o, s:o, s:i}", "global", g->usr, "name", g->name,
                             "value", g->known ? json_integer(g->value) : json_null(), "file",
                             str_or_null(g->loc.file), "line", g->loc.line));
    }
    return calls;
}

static void global_from_json(const json_t *j, cusrc_xcalls *out)
{
    const char *usr = json_string_value(json_object_get(j, "global"));
    const char *name = json_string_value(json_object_get(j, "name"));
    const json_t *value = json_object_get(j, "value");
    if (!usr || !name)
        return;
    if (out->n_g == out->cap_g) {
        out->cap_g = out->cap_g ? out->cap_g * 2 : 8;
        out->g = xrealloc(out->g, out->cap_g * sizeof *out->g);
    }
    cusrc_xglobal *g = &out->g[out->n_g++];
    memset(g, 0, sizeof *g);
    g->usr = xstrdup(usr);
    g->name = xstrdup(name);
    g->known = json_is_integer(value);
    g->value = json_integer_value(value);
    g->loc.file = dup_or_null(json_object_get(j, "file"));
    g->loc.line = (int)json_integer_value(json_object_get(j, "line"));
}

static char *dup_or_null(const json_t *j)
{
    const char *s = json_string_value(j);
    return xstrdup_null(s);
}

/* The object a method was called on: its integer fields. */
static void self_from_json(const json_t *self, cusrc_xcall *v)
{
    if (!json_is_object(self))
        return;
    v->has_self = true;
    v->self = xcalloc(json_object_size(self) + 1, sizeof *v->self);
    const char *key;
    const json_t *val;
    json_object_foreach((json_t *)self, key, val)
    {
        if (json_is_integer(val))
            v->self[v->n_self++] = (struct cusrc_xfield){xstrdup(key), json_integer_value(val)};
    }
}

void xcalls_from_json(const json_t *j, cusrc_xcalls *out)
{
    size_t c;
    const json_t *call;
    json_array_foreach((json_t *)j, c, call)
    {
        if (json_object_get(call, "global")) {
            global_from_json(call, out);
            continue;
        }
        const char *usr = json_string_value(json_object_get(call, "usr"));
        const json_t *args = json_object_get(call, "args"),
                     *folded = json_object_get(call, "folded"),
                     *path = json_object_get(call, "path");
        if (!usr || !json_is_array(args) || !json_is_array(folded) || !json_is_array(path) ||
            json_array_size(path) == 0)
            continue;
        if (out->n == out->cap) {
            out->cap = out->cap ? out->cap * 2 : 16;
            out->v = xrealloc(out->v, out->cap * sizeof *out->v);
        }
        cusrc_xcall *v = &out->v[out->n++];
        memset(v, 0, sizeof *v);
        v->usr = xstrdup(usr);
        v->callee = dup_or_null(json_object_get(call, "callee"));
        v->loc.file = dup_or_null(json_object_get(call, "file"));
        v->loc.line = (int)json_integer_value(json_object_get(call, "line"));
        const json_t *launch = json_object_get(call, "launch");
        v->launch = json_is_integer(launch);
        v->kind = (int)json_integer_value(launch);
        v->text = dup_or_null(json_object_get(call, "text"));
        v->n_args = (int)json_array_size(args);
        v->args = xcalloc((size_t)v->n_args + 1, sizeof *v->args);
        for (int i = 0; i < v->n_args; i++) {
            const json_t *a = json_array_get(args, (size_t)i);
            v->args[i].known = json_is_integer(a);
            v->args[i].value = json_integer_value(a);
            v->args[i].why = dup_or_null(a);
            v->args[i].text =
                dup_or_null(json_array_get(json_object_get(call, "texts"), (size_t)i));
            v->args[i].expr =
                dup_or_null(json_array_get(json_object_get(call, "exprs"), (size_t)i));
            /* Each integer field of a struct argument the caller set. */
            const json_t *fo = json_array_get(json_object_get(call, "fields"), (size_t)i);
            size_t nf = json_is_object(fo) ? json_object_size(fo) : 0;
            if (!nf)
                continue;
            v->args[i].fields = xcalloc(nf, sizeof *v->args[i].fields);
            const char *key;
            const json_t *val;
            json_object_foreach((json_t *)fo, key, val)
            {
                if (json_is_integer(val))
                    v->args[i].fields[v->args[i].n_fields++] =
                        (struct cusrc_xfield){xstrdup(key), json_integer_value(val)};
            }
        }
        v->n_folded = (int)json_array_size(folded);
        v->folded = xcalloc((size_t)v->n_folded + 1, sizeof *v->folded);
        for (int i = 0; i < v->n_folded; i++) {
            const json_t *f = json_array_get(folded, (size_t)i);
            cusrc_size_from *d = &v->folded[i];
            const char *name = json_string_value(json_object_get(f, "name"));
            const char *fn = json_string_value(json_object_get(f, "function"));
            d->name = xstrdup(name ? name : "?");
            d->function = xstrdup(fn ? fn : "?");
            d->value = json_integer_value(json_object_get(f, "value"));
            d->loc.file = dup_or_null(json_object_get(f, "file"));
            d->loc.line = (int)json_integer_value(json_object_get(f, "line"));
        }
        self_from_json(json_object_get(call, "self"), v);
        v->n_path = (int)json_array_size(path);
        v->fn = xcalloc((size_t)v->n_path, sizeof *v->fn);
        v->runs = xcalloc((size_t)v->n_path, sizeof *v->runs);
        v->why = xcalloc((size_t)v->n_path, sizeof *v->why);
        for (int i = 0; i < v->n_path; i++) {
            const json_t *p = json_array_get(path, (size_t)i);
            const char *fn = json_string_value(json_object_get(p, "fn"));
            const json_t *runs = json_object_get(p, "runs");
            v->fn[i] = xstrdup(fn ? fn : "?");
            v->runs[i] = json_is_integer(runs) ? json_integer_value(runs) : -1;
            v->why[i] = dup_or_null(json_object_get(p, "why"));
        }
    }
}

typedef struct collect_ctx {
    const pipeline_opts *o;
    const compdb *db;
    const compdb_unit **units; /* this round's: the host units, then the CUDA units that define
                                  main; later, the CUDA units called into */
    size_t n_units;
    const cusrc_xcalls *incoming; /* the calls earlier rounds found, NULL in the first */
    cusrc_xcalls *out;
    sbuf text;
} collect_ctx;

static bool is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Whether the file's text defines main ("int main(" with any spacing): a
 * CUDA unit whose main calls into another unit is read first too. */
static bool defines_main(const char *file)
{
    char *text;
    size_t len;
    if (fileio_read(file, 64u << 20, &text, &len) != FILEIO_OK)
        return false;
    bool found = false;
    for (const char *p = text; !found && (p = strstr(p, "main")) != NULL; p += 4) {
        if (p > text && is_ident(p[-1]))
            continue;
        const char *q = p + 4;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != '(')
            continue;
        const char *b = p;
        while (b > text && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\n'))
            b--;
        found = b - text >= 3 && !strncmp(b - 3, "int", 3) && (b - 3 == text || !is_ident(b[-4]));
    }
    free(text);
    return found;
}

static int collect_one(void *ctx, size_t job, int attempt, int fd)
{
    (void)attempt;
    collect_ctx *c = ctx;
    const compdb_unit *u = c->units[job];
    const char **args = xcalloc((size_t)u->n_args + 1, sizeof *args);
    char arch[32];
    cusrc_xcalls calls = {0};
    cusrc_unit unit;
    /* The definitions it declares (a class's constructor, its setters)
     * may be another unit's. */
    int n_siblings;
    cusrc_sibling *siblings = siblings_of(c->o, c->db, u->file, &n_siblings);
    cusrc_options co = {.file = u->file,
                        .args = args,
                        .n_args = cusrc_clang_args(u->args, u->n_args, args),
                        .run_args = (const char *const *)c->o->run_args,
                        .n_run_args = c->o->n_run_args,
                        .arch = cusrc_arch_of(u->args, u->n_args, arch) ? arch : NULL,
                        .calls = c->incoming,
                        .siblings = siblings,
                        .n_siblings = n_siblings,
                        .collect_calls = &calls};
    char *error = NULL;
    pool_phase('s');
    bool parsed = cusrc_parse(NULL, &co, &unit, &error);
    free(args);
    siblings_free(siblings, n_siblings);
    if (!parsed) {
        fprintf(stderr, "%s\n", error ? error : "unknown error");
        free(error);
        return 1;
    }
    cusrc_unit_free(&unit);
    json_t *j = xcalls_to_json(&calls);
    cusrc_xcalls_free(&calls);
    char *s = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    bool written = fileio_write_all(fd, s, strlen(s));
    free(s);
    return written ? 0 : 1;
}

static pool_verdict collect_ended(void *ctx, size_t job, int attempt, const pool_outcome *po)
{
    (void)ctx, (void)job, (void)attempt;
    return po->end == POOL_EXITED && po->status == 0 ? POOL_OK : POOL_FAILED;
}

static void collect_deliver(void *ctx, size_t job, pool_outcome *po)
{
    collect_ctx *c = ctx;
    char *file = project_shown_name(c->units[job]->file);
    json_t *j = po->end == POOL_EXITED && po->status == 0
                    ? json_loadb(po->result, po->result_len, 0, NULL)
                    : NULL;
    if (!json_is_array(j)) {
        const char *why = po->end == POOL_TIMED_OUT ? "took too long"
                          : po->end == POOL_CRASHED ? "libclang crashed"
                                                    : NULL;
        char line[512] = "";
        if (!why && po->output_len) {
            snprintf(line, sizeof line, "%.*s", (int)po->output_len, po->output);
            line[strcspn(line, "\n")] = '\0';
        }
        diag_note("%s: not read for the sizes it passes to the CUDA units: %s", file,
                  why       ? why
                  : line[0] ? line
                            : "no result");
        json_decref(j);
        free(file);
        return;
    }
    free(file);
    if (json_array_size(j)) {
        char *s = json_dumps(j, JSON_COMPACT);
        sbuf_addf(&c->text, "%s\n", s);
        free(s);
    }
    size_t first = c->out->n;
    xcalls_from_json(j, c->out);
    json_decref(j);
    /* A launch is shown where the other unit's report lists it, by the
     * name the user gave its file. */
    for (size_t i = first; i < c->out->n; i++) {
        src_loc *at = &c->out->v[i].loc;
        if (c->out->v[i].launch && at->file) {
            char *shown = project_shown_name(at->file);
            free(at->file);
            at->file = shown;
        }
    }
}

/* Whether the file's text names a callee of calls[from..] followed by
 * '(': a unit that may define it, read in the next round. */
static bool names_callee(const char *file, const cusrc_xcalls *calls, size_t from)
{
    char *text;
    size_t len;
    if (fileio_read(file, 64u << 20, &text, &len) != FILEIO_OK)
        return false;
    bool found = false;
    for (size_t i = from; i < calls->n && !found; i++) {
        const char *name = calls->v[i].callee;
        size_t n = name ? strlen(name) : 0;
        for (const char *p = text; n && !found && (p = strstr(p, name)) != NULL; p += n) {
            const char *q = p + n;
            while (*q == ' ' || *q == '\t')
                q++;
            found = *q == '(' && (p == text || !is_ident(p[-1]));
        }
    }
    free(text);
    return found;
}

static void collect_round(collect_ctx *c)
{
    const pipeline_opts *o = c->o;
    pool_spec spec = {.n_jobs = c->n_units,
                      .parallel = o->jobs > 0 ? o->jobs : pool_cores(),
                      .timeout_s = o->seen_timeout ? o->timeout_s : PIPELINE_TIMEOUT_DEFAULT,
                      .ctx = c,
                      .work = collect_one,
                      .ended = collect_ended,
                      .deliver = collect_deliver};
    if (spec.parallel < 1)
        spec.parallel = 1;
    char err[512];
    if (c->n_units && !pool_run(&spec, err, sizeof err))
        diag_note("the units that call into others were not read for the sizes they pass: %s", err);
}

/* A chain of calls through CUDA units that do not define main (main.cu
 * calls run(n) in driver.cu, which calls launch(n) in kernels.cu) is
 * followed a unit per round: each round reads the units named as callees
 * by the last, with the calls found so far bound. */
#define XCALLS_ROUNDS 3

void xcalls_collect(const pipeline_opts *o, const compdb *db, cusrc_xcalls *out, char **text)
{
    memset(out, 0, sizeof *out);
    collect_ctx c = {.o = o, .db = db, .out = out};
    c.units = xcalloc(db->n_host + db->n_units + 1, sizeof *c.units);
    bool *read = xcalloc(db->n_units + 1, sizeof *read);
    for (size_t i = 0; i < db->n_host; i++)
        c.units[c.n_units++] = &db->host[i];
    for (size_t i = 0; i < db->n_units && db->n_units > 1; i++)
        if (defines_main(db->units[i].file)) {
            c.units[c.n_units++] = &db->units[i];
            read[i] = true;
        }
    sbuf_init(&c.text);
    collect_round(&c);
    size_t last = 0;
    for (int round = 1; round < XCALLS_ROUNDS && out->n > last && db->n_units > 1; round++) {
        size_t from = last;
        last = out->n;
        c.n_units = 0;
        for (size_t i = 0; i < db->n_units; i++)
            if (!read[i] && names_callee(db->units[i].file, out, from)) {
                c.units[c.n_units++] = &db->units[i];
                read[i] = true;
            }
        if (!c.n_units)
            break;
        c.incoming = out;
        collect_round(&c);
    }
    *text = sbuf_take(&c.text);
    free(read);
    free(c.units);
}
