/* baseline_json: read the kernels of a recorded JSON report. */
#include "input/baseline_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fileio.h"
#include "util/sbuf.h"

#define BASELINE_MAX (256u << 20)

static bool get_int(const json_t *o, const char *key, int64_t max, int64_t *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v))
        return false;
    json_int_t i = json_integer_value(v);
    if (i < 0 || i > max)
        return false;
    *out = (int64_t)i;
    return true;
}

/* Occupancy values are fractions; a report written by hand may say 1 for
 * 1.0, so integers are accepted too. */
static bool get_fraction(const json_t *o, const char *key, double *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_number(v))
        return false;
    double d = json_number_value(v);
    if (!(d >= 0.0 && d <= 1.0))
        return false;
    *out = d;
    return true;
}

static void add_at(baseline_kernel *k, int block, double occ)
{
    for (int i = 0; i < k->n_at; i++)
        if (k->at[i].block == block)
            return; /* the block in use came first and wins */
    if (k->n_at < BASELINE_AT_MAX)
        k->at[k->n_at++] = (baseline_occ_at){block, occ};
}

/* Optional occupancy fields: a malformed one is an error (the file is not
 * what gpulint writes), an absent or null one is simply not compared. */
static bool read_occupancy(const json_t *o, baseline_kernel *k, const char **bad)
{
    const json_t *occ = json_object_get(o, "occupancy");
    if (occ && !json_is_null(occ)) {
        int64_t block;
        double v;
        if (!json_is_object(occ) || !get_int(occ, "threads_per_block", 1 << 30, &block) ||
            !get_fraction(occ, "occupancy", &v)) {
            *bad = "occupancy";
            return false;
        }
        add_at(k, (int)block, v);
    }
    const json_t *best = json_object_get(o, "best_block");
    if (best && !json_is_null(best)) {
        int64_t block;
        if (!json_is_object(best) || !get_int(best, "threads_per_block", 1 << 30, &block) ||
            !get_fraction(best, "occupancy", &k->best_occupancy)) {
            *bad = "best_block";
            return false;
        }
        k->has_best = true;
        k->best_block = (int)block;
    }
    const json_t *by = json_object_get(o, "occupancy_by_block");
    if (by && !json_is_null(by)) {
        if (!json_is_object(by)) {
            *bad = "occupancy_by_block";
            return false;
        }
        const char *key;
        const json_t *v;
        json_object_foreach((json_t *)by, key, v)
        {
            char *end;
            long block = strtol(key, &end, 10);
            if (*end || block <= 0 || block > (1 << 30) || !json_is_number(v) ||
                !(json_number_value(v) >= 0.0 && json_number_value(v) <= 1.0)) {
                *bad = "occupancy_by_block";
                return false;
            }
            add_at(k, (int)block, json_number_value(v));
        }
    }
    return true;
}

bool baseline_from_json(const json_t *root, baseline *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const json_t *kernels = json_is_object(root) ? json_object_get(root, "kernels") : NULL;
    if (!json_is_array(kernels)) {
        snprintf(err, errlen,
                 "not a gpulint report: no 'kernels' array "
                 "(write one with 'gpulint FILE.cu --format json')");
        return false;
    }
    size_t n = json_array_size(kernels);
    out->kernels = xcalloc(n ? n : 1, sizeof *out->kernels);
    for (size_t i = 0; i < n; i++) {
        const json_t *o = json_array_get(kernels, i);
        baseline_kernel *k = &out->kernels[out->n];
        const char *bad = NULL;
        int64_t regs = 0;
        if (!json_is_object(o)) {
            snprintf(err, errlen, "kernels[%zu]: not an object", i);
            baseline_free(out);
            return false;
        }
        const json_t *name = json_object_get(o, "name");
        const json_t *arch = json_object_get(o, "arch");
        if (!json_is_string(name) || !json_string_length(name))
            bad = "name";
        else if (!json_is_string(arch) || !json_string_length(arch))
            bad = "arch";
        else if (!get_int(o, "registers", 0x7fffffff, &regs))
            bad = "registers";
        else if (!get_int(o, "stack", INT64_MAX, &k->stack))
            bad = "stack";
        else if (!get_int(o, "spill_stores", INT64_MAX, &k->spill_stores))
            bad = "spill_stores";
        else if (!get_int(o, "spill_loads", INT64_MAX, &k->spill_loads))
            bad = "spill_loads";
        if (bad) {
            const char *what = strcmp(bad, "name") == 0 || strcmp(bad, "arch") == 0
                                   ? "a non-empty string"
                                   : "a non-negative integer";
            snprintf(err, errlen, "kernels[%zu]: '%s' is missing or not %s", i, bad, what);
            baseline_free(out);
            return false;
        }
        k->registers = (int)regs;
        if (!read_occupancy(o, k, &bad)) {
            snprintf(err, errlen, "kernels[%zu]: '%s' is malformed", i, bad);
            baseline_free(out);
            return false;
        }
        /* Only now owned, so baseline_free above never sees half a kernel. */
        k->name = xstrdup(json_string_value(name));
        k->arch = xstrdup(json_string_value(arch));
        out->n++;
    }
    return true;
}

bool baseline_load(const char *path, baseline *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *text;
    size_t len;
    fileio_status st = fileio_read(path, BASELINE_MAX, &text, &len);
    if (st != FILEIO_OK) {
        snprintf(err, errlen, "%s: %s", path, fileio_status_text(st));
        return false;
    }
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr);
    free(text);
    if (!root) {
        snprintf(err, errlen, "%s:%d:%d: invalid JSON: %s", path, jerr.line, jerr.column,
                 jerr.text);
        return false;
    }
    char why[400];
    bool ok = baseline_from_json(root, out, why, sizeof why);
    json_decref(root);
    if (!ok)
        snprintf(err, errlen, "%s: %s", path, why);
    return ok;
}
