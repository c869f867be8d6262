/* entry_report: where the GPU time of one call of a host function goes
 * (--entry NAME): the launches it makes, how many of each per call (the
 * loops around the calls that lead there), each launch's predicted time,
 * their total and share, sorted: the static counterpart of nsys stats's
 * kernel summary, before anything runs. */
#include "report/entry_report.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/roofline.h"
#include "report/launch_args.h"
#include "util/jsontext.h"
#include "util/sbuf.h"

/* How many times one call of entry makes this launch: over the call
 * paths through entry, the product of the runs from entry down. False
 * when no path passes through entry; *why names a count that is not a
 * number. */
static bool count_from(const json_t *launch, const char *entry, json_int_t *count, const char **why)
{
    bool reached = false;
    *count = 0;
    *why = NULL;
    size_t p;
    json_t *path;
    json_array_foreach(json_object_get(launch, "paths"), p, path)
    {
        const json_t *via = json_object_get(path, "via");
        const json_t *runs = json_object_get(path, "runs");
        size_t k = 0;
        while (k < json_array_size(via) &&
               strcmp(json_string_value(json_array_get(via, k)), entry) != 0)
            k++;
        if (k == json_array_size(via))
            continue;
        reached = true;
        json_int_t product = 1;
        for (size_t i = k; i < json_array_size(runs); i++) {
            const json_t *r = json_array_get(runs, i);
            if (json_is_integer(r))
                product *= json_integer_value(r);
            else if (!*why)
                *why = json_string_value(r);
        }
        *count += product;
    }
    return reached;
}

static bool has_number(const json_t *arg, size_t index, const void *ctx)
{
    (void)index, (void)ctx;
    return json_is_integer(json_object_get(arg, "value"));
}

/* The launch's arguments that are numbers: what tells a site's rows apart. */
static const char *differs(const json_t *launch, char *buf, size_t size)
{
    size_t used = launch_args_join(json_object_get(launch, "args"), has_number, NULL, buf, size);
    const json_t *between = json_object_get(launch, "between");
    if (between && used < size)
        snprintf(buf + used, size - used, "%s%s=%lld..%lld", used ? ", " : "",
                 json_string_value(json_object_get(between, "var")),
                 (long long)json_integer_value(json_object_get(between, "from")),
                 (long long)json_integer_value(json_object_get(between, "to")));
    return buf;
}

static int by_total(const void *x, const void *y)
{
    const json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
    const json_t *ta = json_object_get(a, "total_s"), *tb = json_object_get(b, "total_s");
    if (json_is_number(ta) != json_is_number(tb))
        return json_is_number(ta) ? -1 : 1;
    double da = json_number_value(ta), db = json_number_value(tb);
    return (da < db) - (da > db);
}

json_t *entry_json(const json_t *launches, const char *entry)
{
    json_t *rows = json_array();
    const char *arch = NULL, *key;
    json_t *list;
    json_object_foreach((json_t *)launches, key, list)
    {
        size_t i;
        json_t *l;
        json_array_foreach(list, i, l)
        {
            const char *a = json_string_value(json_object_get(l, "arch"));
            /* One target's launches: the first's. */
            if (!arch)
                arch = a;
            if (!a || strcmp(a, arch))
                continue;
            json_int_t count;
            const char *count_why;
            if (!count_from(l, entry, &count, &count_why))
                continue;
            char d[160];
            json_t *row =
                json_pack("{s:O, s:O, s:O, s:s}", "file", json_object_get(l, "file"), "line",
                          json_object_get(l, "line"), "kernel", json_object_get(l, "kernel"),
                          "arguments", differs(l, d, sizeof d));
            json_object_set_new(row, "launches", count_why ? json_null() : json_integer(count));
            if (count_why)
                json_object_set_new(row, "launches_unknown", json_text(count_why));
            const json_t *t = json_object_get(l, "time");
            const json_t *each = json_object_get(t, "predicted_s");
            json_object_set(row, "each_s", json_is_number(each) ? (json_t *)each : json_null());
            const char *reason = json_string_value(json_object_get(t, "reason"));
            if (!t)
                reason = "no GPU model to predict times with (--gpu)";
            if (!json_is_number(each))
                json_object_set_new(row, "time_unknown",
                                    json_text(reason ? reason : "no predicted time"));
            if (json_is_number(each) && !count_why)
                json_object_set_new(row, "total_s",
                                    json_real(json_number_value(each) * (double)count));
            json_array_append_new(rows, row);
        }
    }
    size_t n = json_array_size(rows);
    json_t **sorted = xcalloc(n ? n : 1, sizeof *sorted);
    double total = 0;
    bool complete = true;
    for (size_t i = 0; i < n; i++) {
        sorted[i] = json_array_get(rows, i);
        const json_t *t = json_object_get(sorted[i], "total_s");
        if (json_is_number(t))
            total += json_number_value(t);
        else
            complete = false;
    }
    qsort(sorted, n, sizeof *sorted, by_total);
    json_t *out_rows = json_array();
    for (size_t i = 0; i < n; i++) {
        const json_t *t = json_object_get(sorted[i], "total_s");
        json_object_set_new(sorted[i], "share",
                            json_is_number(t) && total > 0 ? json_real(json_number_value(t) / total)
                                                           : json_null());
        /* Of the known part only: the whole, with the launches whose total
         * is not known, is larger, so each share is at most this. */
        if (!complete && json_is_number(t) && total > 0)
            json_object_set_new(sorted[i], "share_upper_bound", json_true());
        json_array_append(out_rows, sorted[i]);
    }
    free(sorted);
    json_decref(rows);
    return json_pack("{s:s, s:s?, s:o, s:f, s:b}", "entry", entry, "arch", arch, "launches",
                     out_rows, "total_s", total, "complete", complete);
}

void entry_text(sbuf *out, const json_t *e)
{
    const json_t *rows = json_object_get(e, "launches");
    const char *entry = json_string_value(json_object_get(e, "entry"));
    bool complete = json_is_true(json_object_get(e, "complete"));
    sbuf_addf(out,
              "\nwhere the time of one call of %s goes (the launches it makes and how many, each "
              "one's predicted time; %s)\n",
              entry, json_string_value(json_object_get(e, "arch")));
    enum { C_AT, C_KERNEL, C_N, C_EACH, C_TOTAL, C_SHARE, C_ARGS, C_COLS };
    static const char *const head[C_COLS] = {"launch", "kernel", "launches", "each",
                                             "total",  "share",  "arguments"};
    size_t n = json_array_size(rows);
    char(*cells)[C_COLS][160] = xcalloc(n + 2, sizeof *cells);
    int width[C_COLS];
    for (int c = 0; c < C_COLS; c++) {
        snprintf(cells[0][c], 160, "%s", head[c]);
        width[c] = (int)strlen(head[c]);
    }
    json_int_t all = 0;
    bool all_known = true;
    for (size_t i = 0; i < n; i++) {
        const json_t *r = json_array_get(rows, i);
        char(*c)[160] = cells[i + 1];
        char b[48];
        snprintf(c[C_AT], 160, "%s:%lld", json_string_value(json_object_get(r, "file")),
                 (long long)json_integer_value(json_object_get(r, "line")));
        snprintf(c[C_KERNEL], 160, "%s", json_string_value(json_object_get(r, "kernel")));
        const json_t *k = json_object_get(r, "launches");
        if (json_is_integer(k)) {
            snprintf(c[C_N], 160, "%lld", (long long)json_integer_value(k));
            all += json_integer_value(k);
        } else {
            snprintf(c[C_N], 160, "?");
            all_known = false;
        }
        const json_t *each = json_object_get(r, "each_s");
        snprintf(c[C_EACH], 160, "%s",
                 json_is_number(each) ? roofline_fmt_time(json_number_value(each), b, sizeof b)
                                      : "?");
        const json_t *t = json_object_get(r, "total_s");
        snprintf(c[C_TOTAL], 160, "%s",
                 json_is_number(t) ? roofline_fmt_time(json_number_value(t), b, sizeof b) : "?");
        const json_t *s = json_object_get(r, "share");
        if (json_is_number(s))
            snprintf(c[C_SHARE], 160, "%s%.1f%%", complete ? "" : "at most ",
                     json_number_value(s) * 100.0);
        else
            snprintf(c[C_SHARE], 160, "?");
        snprintf(c[C_ARGS], 160, "%s", json_string_value(json_object_get(r, "arguments")));
    }
    char tb[48];
    snprintf(cells[n + 1][C_AT], 160, "total");
    snprintf(cells[n + 1][C_N], 160, "%s%lld", all_known ? "" : "at least ", (long long)all);
    snprintf(cells[n + 1][C_TOTAL], 160, "%s%s", complete ? "" : "at least ",
             roofline_fmt_time(json_real_value(json_object_get(e, "total_s")), tb, sizeof tb));
    for (size_t i = 0; i < n + 2; i++)
        for (int c = 0; c < C_COLS; c++)
            if ((int)strlen(cells[i][c]) > width[c])
                width[c] = (int)strlen(cells[i][c]);
    for (size_t i = 0; i < n + 2; i++) {
        sbuf_addf(out, "  %-*s  %-*s  %*s  %*s  %*s  %*s  %s", width[C_AT], cells[i][C_AT],
                  width[C_KERNEL], cells[i][C_KERNEL], width[C_N], cells[i][C_N], width[C_EACH],
                  cells[i][C_EACH], width[C_TOTAL], cells[i][C_TOTAL], width[C_SHARE],
                  cells[i][C_SHARE], cells[i][C_ARGS]);
        while (out->len && out->data[out->len - 1] == ' ')
            out->data[--out->len] = '\0';
        sbuf_addc(out, '\n');
    }
    free(cells);
    /* What leaves a count or a time unknown: once when every row has the
     * same reason, else row by row. */
    const char *same =
        n ? json_string_value(json_object_get(json_array_get(rows, 0), "time_unknown")) : NULL;
    for (size_t i = 0; i < n && same; i++) {
        const json_t *r = json_array_get(rows, i);
        const char *tw = json_string_value(json_object_get(r, "time_unknown"));
        if (!tw || strcmp(tw, same) || json_object_get(r, "launches_unknown"))
            same = NULL;
    }
    if (same) {
        sbuf_addf(out, "  no launch has a time: %s\n", same);
        n = 0;
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *r = json_array_get(rows, i);
        const char *cw = json_string_value(json_object_get(r, "launches_unknown"));
        const char *tw = json_string_value(json_object_get(r, "time_unknown"));
        if (cw || tw)
            sbuf_addf(out, "  %s:%lld %s: %s%s%s%s%s\n",
                      json_string_value(json_object_get(r, "file")),
                      (long long)json_integer_value(json_object_get(r, "line")),
                      json_string_value(json_object_get(r, "kernel")), cw ? "launches " : "",
                      cw ? cw : "", cw && tw ? "; " : "", tw ? "time: " : "", tw ? tw : "");
    }
}
