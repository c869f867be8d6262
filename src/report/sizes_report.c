/* sizes_report: what a program's launches are sized by, said once per
 * name rather than once per launch: the constants the source sets (and
 * where), and the names without a value, each with the launches it
 * leaves without counts or a time, where it comes from and the --define
 * that binds it; also the --defines template `gpulint sizes` prints. */
#include "report/sizes_report.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsontext.h"

/* The entry of `list` whose key `key` is `name`, or NULL. */
static json_t *find_by(json_t *list, const char *key, const char *name)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e)
    {
        if (!strcmp(json_string_value(json_object_get(e, key)), name))
            return e;
    }
    return NULL;
}

static void add_found(json_t *found, const json_t *launch)
{
    size_t i;
    json_t *sf;
    json_array_foreach(json_object_get(launch, "sizes_from"), i, sf)
    {
        size_t j;
        json_t *have;
        bool seen = false;
        json_array_foreach(found, j, have)
        {
            seen = seen || json_equal(have, sf);
        }
        if (!seen)
            json_array_append(found, sf);
    }
}

/* Adds the site to the name's launches: [file, line, kernel, count]. */
static void add_blocked(json_t *entry, const json_t *roof)
{
    json_t *sites = json_object_get(entry, "launches");
    const char *file = json_string_value(json_object_get(roof, "file"));
    json_int_t line = json_integer_value(json_object_get(roof, "line"));
    const char *kernel = json_string_value(json_object_get(roof, "kernel"));
    size_t i;
    json_t *s;
    json_array_foreach(sites, i, s)
    {
        if (!strcmp(json_string_value(json_object_get(s, "file")), file) &&
            json_integer_value(json_object_get(s, "line")) == line &&
            !strcmp(json_string_value(json_object_get(s, "kernel")), kernel)) {
            json_object_set_new(
                s, "launches",
                json_integer(json_integer_value(json_object_get(s, "launches")) + 1));
            return;
        }
    }
    json_array_append_new(sites, json_pack("{s:s, s:I, s:s, s:i}", "file", file, "line", line,
                                           "kernel", kernel, "launches", 1));
}

json_t *sizes_json(const json_t *launches, const json_t *roofline)
{
    json_t *found = json_array(), *unknown = json_array();
    const char *key;
    json_t *list;
    json_object_foreach((json_t *)launches, key, list)
    {
        size_t i;
        json_t *l;
        json_array_foreach(list, i, l) add_found(found, l);
    }
    size_t i;
    json_t *roof;
    json_array_foreach(roofline, i, roof)
    {
        json_t *names = json_object_get(roof, "names");
        json_t *origins = json_object_get(names, "origins");
        size_t j;
        json_t *n;
        json_array_foreach(json_object_get(names, "unknown"), j, n)
        {
            const char *name = json_string_value(n);
            json_t *e = find_by(unknown, "name", name);
            if (!e) {
                e = json_pack("{s:s, s:[], s:s++}", "name", name, "launches", "define",
                              "--define '", name, "=VALUE'");
                json_array_append_new(unknown, e);
            }
            const json_t *why = json_object_get(origins, name);
            if (why && !json_object_get(e, "origin"))
                json_object_set(e, "origin", (json_t *)why);
            add_blocked(e, roof);
        }
    }
    return json_pack("{s:o, s:o}", "found", found, "unknown", unknown);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int launches_of(const json_t *entry)
{
    int n = 0;
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(entry, "launches"), i, s)
    {
        n += (int)json_integer_value(json_object_get(s, "launches"));
    }
    return n;
}

static void sites_text(sbuf *out, const json_t *entry)
{
    int n = launches_of(entry);
    sbuf_addf(out, "%d launch%s: ", n, n == 1 ? "" : "es");
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(entry, "launches"), i, s)
    {
        json_int_t k = json_integer_value(json_object_get(s, "launches"));
        sbuf_addf(out, "%s%s:%lld %s", i ? ", " : "",
                  base_name(json_string_value(json_object_get(s, "file"))),
                  (long long)json_integer_value(json_object_get(s, "line")),
                  json_string_value(json_object_get(s, "kernel")));
        if (k > 1)
            sbuf_addf(out, " (%lld)", (long long)k);
    }
}

/* At most this many of the constants in text; JSON has them all. */
#define FOUND_SHOWN 12

static bool same_text(const json_t *a, const json_t *b, const char *key)
{
    const char *x = json_string_value(json_object_get(a, key));
    const char *y = json_string_value(json_object_get(b, key));
    return x && y && !strcmp(x, y);
}

/* The same variable at the same place (a loop counter's values). */
static bool same_place(const json_t *a, const json_t *b)
{
    return same_text(a, b, "name") && same_text(a, b, "function") && same_text(a, b, "file") &&
           json_integer_value(json_object_get(a, "line")) ==
               json_integer_value(json_object_get(b, "line"));
}

void sizes_text(sbuf *out, const json_t *sizes)
{
    const json_t *found = json_object_get(sizes, "found");
    const json_t *unknown = json_object_get(sizes, "unknown");
    if (!json_array_size(found) && !json_array_size(unknown))
        return;
    sbuf_add(out, "\nsizes (what the launches' sizes and counts are computed from)\n");
    if (json_array_size(found)) {
        sbuf_add(out, "  followed to their values:");
        size_t n = json_array_size(found), shown = 0, done = 0;
        bool *used = xcalloc(n + 1, sizeof *used);
        for (size_t i = 0; i < n; shown++) {
            if (shown == FOUND_SHOWN) {
                sbuf_addf(out, ", and %zu more", n - done);
                break;
            }
            const json_t *sf = json_array_get(found, i);
            sbuf_addf(out, "%s %s = %lld", shown ? "," : "",
                      json_string_value(json_object_get(sf, "name")),
                      (long long)json_integer_value(json_object_get(sf, "value")));
            used[i] = true;
            done++;
            /* A loop's counter, one value per launch: "n = 1024, 4096 (...)",
             * its values together where launches of two loops interleave. */
            for (size_t j = i + 1; j < n; j++) {
                const json_t *sj = json_array_get(found, j);
                if (used[j] || !same_place(sf, sj))
                    continue;
                sbuf_addf(out, ", %lld",
                          (long long)json_integer_value(json_object_get(sj, "value")));
                used[j] = true;
                done++;
            }
            size_t next = i + 1;
            while (next < n && used[next])
                next++;
            const char *model = json_string_value(json_object_get(sf, "model"));
            if (model) { /* the device's fields, their model said once */
                const json_t *after = next < n ? json_array_get(found, next) : NULL;
                if (!after || !same_text(sf, after, "model"))
                    sbuf_addf(out, " (the model of %s)", model);
                i = next;
                continue;
            }
            sbuf_addf(out, " (%s, %s:%lld)", json_string_value(json_object_get(sf, "function")),
                      base_name(json_string_value(json_object_get(sf, "file"))),
                      (long long)json_integer_value(json_object_get(sf, "line")));
            i = next;
        }
        free(used);
        sbuf_addc(out, '\n');
    }
    if (!json_array_size(unknown))
        return;
    sbuf_add(out, "  without a value (bind each with --define NAME=VALUE, or all with --defines "
                  "FILE; `gpulint sizes` writes the FILE to fill in):\n");
    int width = 0;
    size_t i;
    json_t *e;
    json_array_foreach(unknown, i, e)
    {
        int w = (int)strlen(json_string_value(json_object_get(e, "name")));
        if (w > width)
            width = w;
    }
    json_array_foreach(unknown, i, e)
    {
        sbuf_addf(out, "    %-*s  ", width, json_string_value(json_object_get(e, "name")));
        sites_text(out, e);
        sbuf_addc(out, '\n');
        const char *why = json_string_value(json_object_get(e, "origin"));
        if (why)
            sbuf_addf(out, "    %-*s  %s\n", width, "", why);
    }
}

void sizes_template(sbuf *out, const json_t *sizes, const char *const *files, int n_files)
{
    sbuf_add(out, "# gpulint sizes: the names the launches of");
    for (int i = 0; i < n_files; i++)
        sbuf_addf(out, " %s", files[i]);
    sbuf_add(out, " read that have no value.\n"
                  "# Write each value after its '=' (an integer), then pass this file:\n"
                  "#   gpulint");
    for (int i = 0; i < n_files; i++)
        sbuf_addf(out, " %s", files[i]);
    sbuf_add(out, " --defines THIS_FILE\n"
                  "# One NAME=VALUE a line; '#' starts a comment; --define on the command line\n"
                  "# wins over a value here.\n");
    const json_t *unknown = json_object_get(sizes, "unknown");
    if (!json_array_size(unknown))
        sbuf_add(out, "# (none: every launch's sizes are known)\n");
    size_t i;
    json_t *e;
    json_array_foreach(unknown, i, e)
    {
        sbuf_add(out, "\n# ");
        sites_text(out, e);
        sbuf_addc(out, '\n');
        const char *why = json_string_value(json_object_get(e, "origin"));
        if (why)
            sbuf_addf(out, "# %s\n", why);
        sbuf_addf(out, "%s=\n", json_string_value(json_object_get(e, "name")));
    }
}
