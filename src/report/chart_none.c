/* chart_none: stands in for chart.c when gpulint is built without cairo,
 * so callers link the same and print the reason instead of a chart. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "report/chart.h"

#define NO_CAIRO "charts are not available: gpulint was built without cairo"

bool chart_available(void)
{
    return false;
}

bool chart_backend_version(char *buf, size_t n)
{
    (void)buf;
    (void)n;
    return false;
}

bool chart_format_from_path(const char *path, chart_format *out)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/'))
        return false;
    if (strcasecmp(dot, ".svg") == 0)
        *out = CHART_SVG;
    else if (strcasecmp(dot, ".png") == 0)
        *out = CHART_PNG;
    else
        return false;
    return true;
}

bool chart_roofline_write(const chart_roofline *c, const char *path, char *err, size_t n)
{
    (void)c;
    (void)path;
    snprintf(err, n, NO_CAIRO);
    return false;
}

bool chart_occupancy(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l,
                     const char *title, const char *path, char *err, size_t n)
{
    (void)arch;
    (void)k;
    (void)l;
    (void)title;
    (void)path;
    snprintf(err, n, NO_CAIRO);
    return false;
}
