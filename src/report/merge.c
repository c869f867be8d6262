/* merge: shards' JSON reports and SARIF logs into one. */
#include "report/merge.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/entry_report.h"
#include "report/sizes_report.h"

/* The arrays of a report, in the order report_json and cmd_report write
 * them. */
static const char *const report_arrays[] = {"kernels",         "sources",  "shared_accesses",
                                            "global_accesses", "branches", "notes",
                                            "roofline",        "findings"};

merge_kind merge_kind_of(const json_t *doc)
{
    if (!json_is_object(doc))
        return MERGE_UNKNOWN;
    const char *tool = json_string_value(json_object_get(doc, "tool"));
    if (tool && strcmp(tool, "gpulint") == 0 && json_is_array(json_object_get(doc, "kernels")))
        return MERGE_REPORT;
    const json_t *runs = json_object_get(doc, "runs");
    const char *ver = json_string_value(json_object_get(doc, "version"));
    const json_t *run = json_array_get(runs, 0);
    const char *name = json_string_value(
        json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "name"));
    if (ver && strcmp(ver, "2.1.0") == 0 && json_array_size(runs) == 1 && name &&
        strcmp(name, "gpulint") == 0 && json_is_array(json_object_get(run, "results")))
        return MERGE_SARIF;
    return MERGE_UNKNOWN;
}

/* The identity of an element for de-duplication: the same kernel or
 * finding from two shards (a file given to both) appears once. */
static char *identity(const char *array, const json_t *item)
{
    if (strcmp(array, "kernels") == 0) {
        json_t *k = json_pack("[O, O, O]", json_object_get(item, "file") ?: json_null(),
                              json_object_get(item, "name") ?: json_null(),
                              json_object_get(item, "arch") ?: json_null());
        char *s = json_dumps(k, JSON_COMPACT);
        json_decref(k);
        return s;
    }
    return json_dumps(item, JSON_COMPACT | JSON_SORT_KEYS);
}

static bool seen_before(json_t *seen, const char *key)
{
    if (json_object_get(seen, key))
        return true;
    json_object_set_new(seen, key, json_true());
    return false;
}

/* Appends what earlier documents did not hold: a file given to two shards
 * is reported once. Two alike elements of one document both stay (two
 * launches of one site whose rows read the same). */
static void append_unique(json_t *into, const json_t *from, const char *array, json_t *seen)
{
    json_t *now = json_object();
    size_t i;
    json_t *item;
    json_array_foreach(from, i, item)
    {
        char *key = identity(array, item);
        if (!key || !json_object_get(seen, key)) {
            json_array_append(into, item);
            if (key)
                json_object_set_new(now, key, json_true());
        }
        free(key);
    }
    json_object_update(seen, now);
    json_decref(now);
}

/* What a report says of all its launches together (the sizes block,
 * --entry's table) is made again from the merged launches: a shard's own
 * holds only its files. */
static void summaries_again(json_t *out)
{
    json_t *launches = json_object();
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(out, "kernels"), i, k)
    {
        const char *name = json_string_value(json_object_get(k, "name"));
        json_t *ls = json_object_get(k, "launches");
        if (!name || !json_is_array(ls))
            continue;
        json_t *have = json_object_get(launches, name);
        if (have)
            json_array_extend(have, ls);
        else
            json_object_set_new(launches, name, json_copy(ls));
    }
    if (json_object_get(out, "sizes"))
        json_object_set_new(out, "sizes", sizes_json(launches, json_object_get(out, "roofline")));
    const char *entry = json_string_value(json_object_get(json_object_get(out, "entry"), "entry"));
    if (entry) {
        char *name = strdup(entry);
        json_object_set_new(out, "entry", entry_json(launches, name));
        free(name);
    }
    json_decref(launches);
}

static json_t *merge_reports(json_t *const *docs, size_t n, char *err, size_t errlen, size_t *bad)
{
    const json_t *first = docs[0];
    json_t *out = json_deep_copy(first);
    json_t *seen[sizeof report_arrays / sizeof report_arrays[0]];
    for (size_t a = 0; a < sizeof report_arrays / sizeof report_arrays[0]; a++) {
        seen[a] = json_object();
        json_t *arr = json_array();
        const json_t *src = json_object_get(first, report_arrays[a]);
        if (src)
            append_unique(arr, src, report_arrays[a], seen[a]);
        if (src || a < 2)
            json_object_set_new(out, report_arrays[a], arr);
        else
            json_decref(arr);
    }
    for (size_t d = 1; d < n && out; d++) {
        const json_t *doc = docs[d];
        if (!json_equal(json_object_get(doc, "version"), json_object_get(first, "version"))) {
            snprintf(err, errlen,
                     "made by gpulint %s, the first by %s; merge reports of one "
                     "version",
                     json_string_value(json_object_get(doc, "version")) ?: "?",
                     json_string_value(json_object_get(first, "version")) ?: "?");
            *bad = d;
            json_decref(out);
            out = NULL;
            break;
        }
        if (!json_equal(json_object_get(doc, "targets"), json_object_get(first, "targets"))) {
            snprintf(err, errlen,
                     "its targets differ from the first report's; shards must run "
                     "with the same --arch/--gpu/--machine");
            *bad = d;
            json_decref(out);
            out = NULL;
            break;
        }
        for (size_t a = 0; a < sizeof report_arrays / sizeof report_arrays[0]; a++) {
            const json_t *src = json_object_get(doc, report_arrays[a]);
            if (!src)
                continue;
            json_t *into = json_object_get(out, report_arrays[a]);
            if (!into) {
                into = json_array();
                json_object_set_new(out, report_arrays[a], into);
            }
            append_unique(into, src, report_arrays[a], seen[a]);
        }
    }
    for (size_t a = 0; a < sizeof report_arrays / sizeof report_arrays[0]; a++)
        json_decref(seen[a]);
    if (out)
        summaries_again(out);
    return out;
}

static json_t *merge_sarif(json_t *const *docs, size_t n, char *err, size_t errlen, size_t *bad)
{
    json_t *out = json_deep_copy(docs[0]);
    json_t *run = json_array_get(json_object_get(out, "runs"), 0);
    json_t *rules =
        json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "rules");
    json_t *results = json_array(), *seen = json_object(), *rule_seen = json_object();
    json_t *new_rules = json_array(), *roofline = json_array();
    for (size_t d = 0; d < n; d++) {
        const json_t *r = json_array_get(json_object_get(docs[d], "runs"), 0);
        const json_t *drv = json_object_get(json_object_get(r, "tool"), "driver");
        if (d > 0 &&
            !json_equal(json_object_get(drv, "version"),
                        json_object_get(json_object_get(json_object_get(run, "tool"), "driver"),
                                        "version"))) {
            snprintf(err, errlen, "made by another gpulint version than the first log");
            *bad = d;
            json_decref(out);
            out = NULL;
            break;
        }
        append_unique(results, json_object_get(r, "results"), "results", seen);
        const json_t *roof = json_object_get(json_object_get(r, "properties"), "roofline");
        size_t ri;
        json_t *entry;
        json_array_foreach(roof, ri, entry) json_array_append(roofline, entry);
        size_t i;
        json_t *rule;
        json_array_foreach(json_object_get(drv, "rules"), i, rule)
        {
            const char *id = json_string_value(json_object_get(rule, "id"));
            if (id && !seen_before(rule_seen, id))
                json_array_append(new_rules, rule);
        }
    }
    if (out) {
        if (rules)
            json_object_set(json_object_get(json_object_get(run, "tool"), "driver"), "rules",
                            new_rules);
        json_object_set(run, "results", results);
        /* Each log's launches, in order (roofline entries are per launch). */
        if (json_array_size(roofline))
            json_object_set_new(run, "properties", json_pack("{s:O}", "roofline", roofline));
    }
    json_decref(roofline);
    json_decref(results);
    json_decref(new_rules);
    json_decref(seen);
    json_decref(rule_seen);
    return out;
}

json_t *merge_documents(json_t *const *docs, size_t n, merge_kind kind, char *err, size_t errlen,
                        size_t *bad_index)
{
    *bad_index = 0;
    if (n == 0) {
        snprintf(err, errlen, "nothing to merge");
        return NULL;
    }
    return kind == MERGE_SARIF ? merge_sarif(docs, n, err, errlen, bad_index)
                               : merge_reports(docs, n, err, errlen, bad_index);
}
