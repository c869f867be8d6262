/* exercise: the catalogue's INI files into records. */
#include "input/exercise.h"

#include <dirent.h>
#include <ini.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_load.h"
#include "util/sbuf.h"

const char *exercise_default_dir(const char *models_dir)
{
    static char buf[4096];
    const char *env = getenv("GPULINT_EXERCISES");
    if (env && *env)
        return env;
    snprintf(buf, sizeof buf, "%s/../exercises", models_dir ? models_dir : model_default_dir());
    return buf;
}

static char **field(exercise *e, const char *name)
{
    static const char *const names[] = {"id",      "title",    "source",  "question",
                                        "command", "book",     "differs", "simplifies",
                                        "covers",  "evidence", "notes",   "erratum"};
    char **slots[] = {&e->id,      &e->title,    &e->source,  &e->question,
                      &e->command, &e->book,     &e->differs, &e->simplifies,
                      &e->covers,  &e->evidence, &e->notes,   &e->erratum};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return slots[i];
    return NULL;
}

typedef struct parse_ctx {
    exercise *e;
    char bad[160];
} parse_ctx;

/* inih joins continuation lines with '\n', so long text stays readable. */
static int on_value(void *user, const char *section, const char *name, const char *value)
{
    parse_ctx *c = user;
    if (strcmp(section, "exercise") != 0) {
        snprintf(c->bad, sizeof c->bad, "unknown section [%s]", section);
        return 0;
    }
    char **slot = field(c->e, name);
    if (!slot) {
        snprintf(c->bad, sizeof c->bad, "unknown key '%s'", name);
        return 0;
    }
    if (*slot) {
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "%s\n%s", *slot, value);
        free(*slot);
        *slot = sbuf_take(&b);
    } else
        *slot = xstrdup(value);
    return 1;
}

static void free_one(exercise *e)
{
    free(e->id);
    free(e->title);
    free(e->source);
    free(e->question);
    free(e->command);
    free(e->book);
    free(e->differs);
    free(e->simplifies);
    free(e->covers);
    free(e->evidence);
    free(e->notes);
    free(e->erratum);
    free(e->path);
    memset(e, 0, sizeof *e);
}

/* "13.10" after "13.2": compare dot-separated numbers as numbers. */
static int cmp_id(const void *a, const void *b)
{
    const char *x = ((const exercise *)a)->id, *y = ((const exercise *)b)->id;
    while (*x && *y) {
        if (*x >= '0' && *x <= '9' && *y >= '0' && *y <= '9') {
            char *ex, *ey;
            long nx = strtol(x, &ex, 10), ny = strtol(y, &ey, 10);
            if (nx != ny)
                return nx < ny ? -1 : 1;
            x = ex;
            y = ey;
        } else {
            if (*x != *y)
                return (unsigned char)*x - (unsigned char)*y;
            x++;
            y++;
        }
    }
    return (unsigned char)*x - (unsigned char)*y;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool exercise_load(const char *dir, exercise_set *set, char *err, size_t errlen)
{
    memset(set, 0, sizeof *set);
    char *real = realpath(dir, NULL);
    set->dir = real ? real : xstrdup(dir);
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: no exercise catalogue there (set GPULINT_EXERCISES)", dir);
        return false;
    }
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".ini") == 0) {
            names = xrealloc(names, (n + 1) * sizeof *names);
            names[n++] = xstrdup(e->d_name);
        }
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_name);
    bool ok = true;
    set->items = xcalloc(n + 1, sizeof *set->items);
    for (size_t i = 0; i < n; i++) {
        exercise e = {0};
        sbuf p;
        sbuf_init(&p);
        sbuf_addf(&p, "%s/%s", dir, names[i]);
        e.path = sbuf_take(&p);
        parse_ctx c = {.e = &e};
        int line = ok ? ini_parse(e.path, on_value, &c) : 0;
        if (ok && line != 0)
            snprintf(err, errlen, "%s:%d: %s", e.path, line > 0 ? line : 0,
                     c.bad[0]   ? c.bad
                     : line < 0 ? "cannot be read"
                                : "malformed line");
        else if (ok && (!e.id || !e.title || !e.source || !e.question || !e.command || !e.book))
            snprintf(err, errlen, "%s: needs id, title, source, question, command and book",
                     e.path);
        if (ok &&
            (line != 0 || !e.id || !e.title || !e.source || !e.question || !e.command || !e.book))
            ok = false;
        if (ok)
            set->items[set->n++] = e;
        else
            free_one(&e);
        free(names[i]);
    }
    free(names);
    if (ok && set->n == 0) {
        snprintf(err, errlen, "%s: no exercises (*.ini)", dir);
        ok = false;
    }
    if (ok)
        qsort(set->items, set->n, sizeof *set->items, cmp_id);
    for (size_t i = 0; ok && i + 1 < set->n; i++)
        if (strcmp(set->items[i].id, set->items[i + 1].id) == 0) {
            snprintf(err, errlen, "%s: id %s is also %s's", set->items[i + 1].path,
                     set->items[i].id, set->items[i].path);
            ok = false;
        }
    if (!ok)
        exercise_set_free(set);
    return ok;
}

const exercise *exercise_find(const exercise_set *set, const char *id)
{
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->items[i].id, id) == 0)
            return &set->items[i];
    return NULL;
}

void exercise_set_free(exercise_set *set)
{
    for (size_t i = 0; i < set->n; i++)
        free_one(&set->items[i]);
    free(set->items);
    free(set->dir);
    memset(set, 0, sizeof *set);
}
