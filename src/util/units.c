/* units: human-typed sizes and rates. */
#include "util/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *skip_space(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

bool units_parse_bytes(const char *s, int64_t *out)
{
    if (!s)
        return false;
    s = skip_space(s);
    if (!isdigit((unsigned char)*s) && *s != '.')
        return false;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v) || v < 0)
        return false;
    const char *u = skip_space(end);
    double scale = 1;
    switch (toupper((unsigned char)*u)) {
    case 'K':
        scale = 1024.0;
        u++;
        break;
    case 'M':
        scale = 1024.0 * 1024;
        u++;
        break;
    case 'G':
        scale = 1024.0 * 1024 * 1024;
        u++;
        break;
    default:
        break;
    }
    if (scale > 1 && (*u == 'i' || *u == 'I'))
        u++;
    if (*u == 'B' || *u == 'b')
        u++;
    u = skip_space(u);
    if (*u)
        return false;
    double bytes = v * scale;
    if (bytes >= 9.2e18 || bytes != floor(bytes))
        return false;
    *out = (int64_t)bytes;
    return true;
}

bool units_parse_int(const char *s, int *out)
{
    if (!s)
        return false;
    s = skip_space(s);
    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (errno || *skip_space(end) || v < 0 || v > 0x7fffffff)
        return false;
    *out = (int)v;
    return true;
}

bool units_parse_si(const char *s, double *out)
{
    if (!s)
        return false;
    s = skip_space(s);
    if (!isdigit((unsigned char)*s) && *s != '.')
        return false;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v) || v < 0)
        return false;
    const char *u = skip_space(end);
    static const char prefixes[] = "KMGTP";
    const char *p = *u ? strchr(prefixes, toupper((unsigned char)*u)) : NULL;
    if (p) {
        v *= pow(1000.0, (double)(p - prefixes + 1));
        u++;
    }
    /* Allow a trailing unit word such as "FLOP/s", "B/s", "FLOPS". */
    u = skip_space(u);
    static const char *const words[] = {"",     "FLOP/s", "FLOPS", "FLOP/S", "B/s",  "B",
                                        "FLOP", "FLOP/B", "OPS",   "OP/s",   "OPS/s"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcasecmp(u, words[i]) == 0) {
            if (!isfinite(v))
                return false;
            *out = v;
            return true;
        }
    return false;
}

bool units_parse_percent(const char *s, double *out)
{
    if (!s)
        return false;
    s = skip_space(s);
    if (!isdigit((unsigned char)*s) && *s != '.')
        return false;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v))
        return false;
    end = (char *)skip_space(end);
    if (*end == '%')
        end++;
    if (*skip_space(end) || v < 0 || v > 100)
        return false;
    *out = v;
    return true;
}

bool units_parse_dim3(const char *s, int dims[3])
{
    dims[0] = dims[1] = dims[2] = 1;
    const char *p = s;
    for (int i = 0; i < 3; i++) {
        if (!isdigit((unsigned char)*p))
            return false;
        errno = 0;
        char *end;
        long v = strtol(p, &end, 10);
        if (errno || v < 1 || v > 0x7fffffffL)
            return false;
        dims[i] = (int)v;
        if (!*end)
            return true;
        if (*end != 'x' && *end != 'X' && *end != ',')
            return false;
        p = end + 1;
    }
    return false;
}

const char *units_fmt_bytes(int64_t bytes, char *buf, size_t n)
{
    if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, n, "%lld KiB", (long long)(bytes / 1024));
    else
        snprintf(buf, n, "%lld B", (long long)bytes);
    return buf;
}

const char *units_fmt_si(double v, const char *unit, char *buf, size_t n)
{
    static const char prefixes[] = " KMGTPE";
    int i = 0;
    double a = fabs(v);
    while (a >= 1000.0 && i < 6) {
        a /= 1000.0;
        v /= 1000.0;
        i++;
    }
    if (i == 0)
        snprintf(buf, n, "%.3g %s", v, unit);
    else
        snprintf(buf, n, "%.3g %c%s", v, prefixes[i], unit);
    return buf;
}
