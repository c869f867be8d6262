/* opt: shared command-line parsing. */
#include "cli/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/exitcode.h"
#include "util/sbuf.h"
#include "util/units.h"

static const opt_spec *find_long(const opt_spec *s, const char *name, size_t len)
{
    for (; s->type != OPT_END; s++)
        if (s->long_name && strlen(s->long_name) == len && strncmp(s->long_name, name, len) == 0)
            return s;
    return NULL;
}

static const opt_spec *find_short(const opt_spec *s, char c)
{
    for (; s->type != OPT_END; s++)
        if (s->short_name && s->short_name == c)
            return s;
    return NULL;
}

static bool store(const opt_spec *s, const char *val, opt_result *res)
{
    bool ok = true;
    const char *what = "";
    switch (s->type) {
    case OPT_FLAG:
        *(bool *)s->dest = true;
        break;
    case OPT_STRING:
        if (!*val) {
            ok = false;
            what = "a non-empty value";
        } else {
            *(const char **)s->dest = val;
        }
        break;
    case OPT_TEXT:
        *(const char **)s->dest = val;
        break;
    case OPT_LIST: {
        opt_list *l = s->dest;
        /* Comma-separated values are split in place; argv is ours to edit. */
        char *p = (char *)val;
        while (ok) {
            char *comma = strchr(p, ',');
            if (comma)
                *comma = '\0';
            if (!*p || l->n >= OPT_LIST_MAX) {
                ok = false;
                what = *p ? "fewer values" : "non-empty comma-separated values";
                break;
            }
            l->v[l->n++] = p;
            if (!comma)
                break;
            p = comma + 1;
        }
        break;
    }
    case OPT_INT:
        ok = units_parse_int(val, s->dest);
        what = "a non-negative integer";
        break;
    case OPT_BYTES:
        ok = units_parse_bytes(val, s->dest);
        what = "a size in bytes such as 4096 or 48K";
        break;
    case OPT_SI:
        ok = units_parse_si(val, s->dest);
        what = "a non-negative number, optionally with K/M/G/T/P";
        break;
    case OPT_PERCENT:
        ok = units_parse_percent(val, s->dest);
        what = "a percentage between 0 and 100";
        break;
    case OPT_END:
        break;
    }
    if (!ok)
        snprintf(res->error, sizeof res->error, "invalid value '%s' for --%s: expected %s", val,
                 s->long_name, what);
    else if (s->seen)
        *s->seen = true;
    return ok;
}

bool opt_parse(const opt_spec *specs, int argc, char **argv, opt_result *res)
{
    memset(res, 0, sizeof *res);
    res->positional = xcalloc((size_t)argc + 1, sizeof(char *));
    res->passthrough = xcalloc((size_t)argc + 1, sizeof(char *));
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++)
                res->passthrough[res->n_passthrough++] = argv[i];
            break;
        }
        const opt_spec *s = NULL;
        const char *inline_val = NULL;
        if (a[0] == '-' && a[1] == '-') {
            const char *name = a + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            s = find_long(specs, name, len);
            if (!s) {
                snprintf(res->error, sizeof res->error, "unknown option '--%.*s'", (int)len, name);
                return false;
            }
            inline_val = eq ? eq + 1 : NULL;
        } else if (a[0] == '-' && a[1] && a[1] != '-' && !(a[1] >= '0' && a[1] <= '9')) {
            s = find_short(specs, a[1]);
            if (!s) {
                snprintf(res->error, sizeof res->error, "unknown option '-%c'", a[1]);
                return false;
            }
            inline_val = a[2] ? a + 2 : NULL;
        } else {
            res->positional[res->n_positional++] = a;
            continue;
        }
        if (s->type == OPT_FLAG) {
            if (inline_val) {
                snprintf(res->error, sizeof res->error, "option '--%s' takes no value",
                         s->long_name);
                return false;
            }
            store(s, "", res);
            continue;
        }
        if (!inline_val) {
            if (i + 1 >= argc) {
                snprintf(res->error, sizeof res->error, "option '--%s' needs a value (%s)",
                         s->long_name, s->arg ? s->arg : "VALUE");
                return false;
            }
            inline_val = argv[++i];
        }
        if (!store(s, inline_val, res))
            return false;
    }
    return true;
}

void opt_free(opt_result *res)
{
    free(res->positional);
    free(res->passthrough);
    res->positional = res->passthrough = NULL;
}

void opt_usage(const char *usage_line, const opt_spec *specs)
{
    printf("usage: %s\n\noptions:\n", usage_line);
    for (const opt_spec *s = specs; s->type != OPT_END; s++) {
        char left[64];
        if (s->short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", s->short_name, s->long_name,
                     s->arg ? " " : "", s->arg ? s->arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", s->long_name, s->arg ? " " : "",
                     s->arg ? s->arg : "");
        printf("  %-30s %s\n", left, s->help ? s->help : "");
    }
}

int opt_parse_command(const char *name, const opt_spec *specs, int argc, char **argv,
                      const char *usage_line, const bool *help, const char *const *format)
{
    opt_result res;
    if (!opt_parse(specs, argc, argv, &res)) {
        opt_free(&res);
        return diag_error(EXIT_USAGE, "%s", res.error);
    }
    int n_pos = res.n_positional + res.n_passthrough;
    char first[128];
    snprintf(first, sizeof first, "%s", res.n_positional ? res.positional[0] : "--");
    opt_free(&res);
    if (*help) {
        opt_usage(usage_line, specs);
        return EXIT_OK;
    }
    if (n_pos)
        return diag_error(EXIT_USAGE, "%s takes no file arguments (got '%s')", name, first);
    if (format && strcmp(*format, "text") != 0 && strcmp(*format, "json") != 0)
        return diag_error(EXIT_USAGE, "unknown format '%s' (use text or json)", *format);
    return -1;
}
