/* findings: check-named diagnostics and their renderings. */
#include "report/findings.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "util/jsontext.h"

#define RED "\033[31m"
#define YELLOW "\033[33m"
#define CYAN "\033[36m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

void findings_init(finding_list *l)
{
    memset(l, 0, sizeof *l);
}

void findings_free(finding_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].check);
        free(l->items[i].file);
        free(l->items[i].message);
        json_decref(l->items[i].data);
    }
    free(l->items);
    findings_init(l);
}

void findings_add(finding_list *l, const char *check, finding_severity sev, const char *file,
                  int line, int column, json_t *data, const char *fmt, ...)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->items = xrealloc(l->items, l->cap * sizeof *l->items);
    }
    sbuf msg;
    sbuf_init(&msg);
    va_list ap;
    va_start(ap, fmt);
    sbuf_vaddf(&msg, fmt, ap);
    va_end(ap);
    l->items[l->n++] =
        (finding){xstrdup(check), sev, xstrdup_null(file), line, column, sbuf_take(&msg), data};
}

bool findings_check_enabled(const char *spec, const char *check)
{
    if (!spec || !*spec)
        return true;
    bool enabled = true;
    char *copy = xstrdup(spec);
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        bool negate = *tok == '-';
        const char *pat = negate ? tok + 1 : tok;
        if (*pat && fnmatch(pat, check, 0) == 0)
            enabled = !negate;
    }
    free(copy);
    return enabled;
}

void findings_ignore_add(finding_ignores *ig, const char *file, int line, const char *checks,
                         size_t n)
{
    if (ig->n == ig->cap) {
        ig->cap = ig->cap ? ig->cap * 2 : 8;
        ig->items = xrealloc(ig->items, ig->cap * sizeof *ig->items);
    }
    ig->items[ig->n++] = (finding_ignore){xstrdup(file), line, xstrndup(checks, n)};
}

void findings_scan_ignores(const char *file, const char *text, size_t len, finding_ignores *out)
{
    static const char marker[] = "gpulint: ignore";
    int line = 1;
    const char *end = text + len;
    for (const char *p = text; p < end; p++) {
        if (*p == '\n') {
            line++;
            continue;
        }
        if ((size_t)(end - p) < sizeof marker - 1 || memcmp(p, marker, sizeof marker - 1) != 0)
            continue;
        const char *q = p + sizeof marker - 1;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        const char *s = q;
        while (q < end && *q != '\n' && *q != '*' && *q != ' ' && *q != '\t')
            q++;
        findings_ignore_add(out, file, line, s, (size_t)(q - s));
        p = q - 1;
    }
}

void findings_ignores_free(finding_ignores *ig)
{
    for (size_t i = 0; i < ig->n; i++) {
        free(ig->items[i].file);
        free(ig->items[i].checks);
    }
    free(ig->items);
    memset(ig, 0, sizeof *ig);
}

static bool suppressed(const finding *f, const finding_ignores *ig)
{
    if (!ig || !f->file)
        return false;
    for (size_t i = 0; i < ig->n; i++) {
        const finding_ignore *g = &ig->items[i];
        /* The comment may sit on the line itself or on the line above. */
        if (strcmp(g->file, f->file) != 0 || (g->line != f->line && g->line + 1 != f->line))
            continue;
        if (!g->checks[0] || findings_check_enabled(g->checks, f->check))
            return true;
    }
    return false;
}

size_t findings_filter(finding_list *l, const char *checks_spec, const finding_ignores *ig)
{
    size_t kept = 0, dropped = 0;
    for (size_t i = 0; i < l->n; i++) {
        finding *f = &l->items[i];
        if (findings_check_enabled(checks_spec, f->check) && !suppressed(f, ig)) {
            l->items[kept++] = *f;
            continue;
        }
        free(f->check);
        free(f->file);
        free(f->message);
        json_decref(f->data);
        dropped++;
    }
    l->n = kept;
    return dropped;
}

static int cmp_finding(const void *a, const void *b)
{
    const finding *x = a, *y = b;
    int c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
    if (c)
        return c;
    if (x->line != y->line)
        return (x->line > y->line) - (x->line < y->line);
    if (x->column != y->column)
        return (x->column > y->column) - (x->column < y->column);
    return strcmp(x->check, y->check);
}

/* Stable, so that equal findings keep the order the analyses gave them
 * and the output never depends on the C library's qsort. */
void findings_sort(finding_list *l)
{
    if (l->n < 2)
        return;
    finding *tmp = xmalloc(l->n * sizeof *tmp);
    for (size_t width = 1; width < l->n; width *= 2) {
        for (size_t lo = 0; lo < l->n; lo += 2 * width) {
            size_t mid = lo + width < l->n ? lo + width : l->n;
            size_t hi = lo + 2 * width < l->n ? lo + 2 * width : l->n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] =
                    cmp_finding(&l->items[j], &l->items[i]) < 0 ? l->items[j++] : l->items[i++];
            while (i < mid)
                tmp[k++] = l->items[i++];
            while (j < hi)
                tmp[k++] = l->items[j++];
        }
        memcpy(l->items, tmp, l->n * sizeof *tmp);
    }
    free(tmp);
}

/* Is f already among the kept findings at its place (file, line, column,
 * check)? Two launches of one site (a sweep's first and last) can give
 * the same words for different accesses, interleaved after the sort. */
static bool already_kept(const finding_list *l, size_t kept, const finding *f)
{
    for (size_t k = kept; k-- > 0 && cmp_finding(&l->items[k], f) == 0;)
        if (!strcmp(l->items[k].message, f->message) && l->items[k].severity == f->severity)
            return true;
    return false;
}

void findings_dedupe(finding_list *l)
{
    size_t kept = 0;
    for (size_t i = 0; i < l->n; i++) {
        finding *f = &l->items[i];
        if (already_kept(l, kept, f)) {
            free(f->check);
            free(f->file);
            free(f->message);
            json_decref(f->data);
            continue;
        }
        l->items[kept++] = *f;
    }
    l->n = kept;
}

const char *finding_severity_name(finding_severity s)
{
    switch (s) {
    case SEV_NOTE:
        return "note";
    case SEV_WARNING:
        return "warning";
    case SEV_ERROR:
        return "error";
    }
    return "note";
}

void findings_text(sbuf *out, const finding_list *l, bool color)
{
    for (size_t i = 0; i < l->n; i++) {
        const finding *f = &l->items[i];
        if (color)
            sbuf_add(out, BOLD);
        if (f->file && f->line && f->column)
            sbuf_addf(out, "%s:%d:%d: ", f->file, f->line, f->column);
        else if (f->file && f->line)
            sbuf_addf(out, "%s:%d: ", f->file, f->line);
        else if (f->file)
            sbuf_addf(out, "%s: ", f->file);
        if (color)
            sbuf_addf(out, RESET "%s%s:" RESET " ",
                      f->severity == SEV_ERROR     ? RED BOLD
                      : f->severity == SEV_WARNING ? YELLOW BOLD
                                                   : CYAN BOLD,
                      finding_severity_name(f->severity));
        else
            sbuf_addf(out, "%s: ", finding_severity_name(f->severity));
        sbuf_addf(out, "%s [%s]\n", f->message, f->check);
    }
}

json_t *findings_json(const finding_list *l)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < l->n; i++) {
        const finding *f = &l->items[i];
        json_t *o = json_object();
        json_object_set_new(o, "check", json_text(f->check));
        json_object_set_new(o, "severity", json_text(finding_severity_name(f->severity)));
        json_object_set_new(o, "file", f->file ? json_text(f->file) : json_null());
        json_object_set_new(o, "line", f->line ? json_integer(f->line) : json_null());
        json_object_set_new(o, "column", f->column ? json_integer(f->column) : json_null());
        json_object_set_new(o, "message", json_text(f->message));
        if (f->data)
            json_object_update(o, f->data);
        json_array_append_new(arr, o);
    }
    return arr;
}

json_t *findings_sarif(const finding_list *l, const char *tool_version, json_t *run_properties)
{
    json_t *rules = json_array();
    json_t *results = json_array();
    for (size_t i = 0; i < l->n; i++) {
        const finding *f = &l->items[i];
        bool seen = false;
        for (size_t r = 0; r < json_array_size(rules) && !seen; r++)
            seen = strcmp(json_string_value(json_object_get(json_array_get(rules, r), "id")),
                          f->check) == 0;
        if (!seen)
            json_array_append_new(rules, json_pack("{s:s}", "id", f->check));
        json_t *res =
            json_pack("{s:s, s:s, s:{s:o}}", "ruleId", f->check, "level",
                      finding_severity_name(f->severity), "message", "text", json_text(f->message));
        if (f->file) {
            json_t *region = json_object();
            if (f->line)
                json_object_set_new(region, "startLine", json_integer(f->line));
            if (f->line && f->column)
                json_object_set_new(region, "startColumn", json_integer(f->column));
            char *uri = json_uri_path(f->file);
            json_t *phys = json_pack("{s:{s:s}}", "artifactLocation", "uri", uri);
            free(uri);
            if (json_object_size(region))
                json_object_set_new(phys, "region", region);
            else
                json_decref(region);
            json_object_set_new(res, "locations", json_pack("[{s:o}]", "physicalLocation", phys));
        }
        if (f->data)
            json_object_set(res, "properties", f->data);
        json_array_append_new(results, res);
    }
    json_t *driver =
        json_pack("{s:s, s:s, s:o}", "name", "gpulint", "version", tool_version, "rules", rules);
    json_t *doc = json_pack("{s:s, s:s, s:[{s:{s:o}, s:o}]}", "$schema",
                            "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
                            "runs", "tool", "driver", driver, "results", results);
    if (run_properties)
        json_object_set_new(json_array_get(json_object_get(doc, "runs"), 0), "properties",
                            run_properties);
    return doc;
}

/* Every field exactly (json_bytes), the check data as it is: what a worker
 * hands the parent and the cache keeps. */
json_t *findings_wire(const finding_list *l)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < l->n; i++) {
        const finding *f = &l->items[i];
        json_array_append_new(arr, json_pack("[o, i, o, i, i, o, O?]", json_bytes(f->check),
                                             (int)f->severity, json_bytes(f->file), f->line,
                                             f->column, json_bytes(f->message), f->data));
    }
    return arr;
}

bool findings_from_wire(const json_t *arr, finding_list *l)
{
    if (!json_is_array(arr))
        return false;
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e)
    {
        json_t *check, *file, *message, *data = NULL;
        int sev, line, column;
        if (json_unpack(e, "[o, i, o, i, i, o, o]", &check, &sev, &file, &line, &column, &message,
                        &data) != 0 ||
            sev < SEV_NOTE || sev > SEV_ERROR)
            return false;
        char *c = json_bytes_value(check), *m = json_bytes_value(message);
        char *fl = json_is_null(file) ? NULL : json_bytes_value(file);
        bool ok = c && m && (json_is_null(file) || fl);
        if (ok)
            findings_add(l, c, (finding_severity)sev, fl, line, column,
                         json_is_null(data) ? NULL : json_incref(data), "%s", m);
        free(c);
        free(m);
        free(fl);
        if (!ok)
            return false;
    }
    return true;
}
