/* common: what every command prints the same way. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

/* Six significant digits keep ratios and times readable, but would print a
 * count held as a double (1,048,576 tensor FLOPs) as 1048580: from a
 * million up, a real is written as the integer nearest it instead. */
static json_t *exact_counts(json_t *v)
{
    if (json_is_real(v)) {
        double x = json_real_value(v);
        if (fabs(x) >= 1e6 && fabs(x) < 9e15)
            return json_integer((json_int_t)llround(x));
        return json_incref(v);
    }
    if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) json_array_set_new(v, i, exact_counts(e));
    } else if (json_is_object(v)) {
        const char *k;
        json_t *e;
        void *tmp;
        json_object_foreach_safe(v, tmp, k, e) json_object_set_new(v, k, exact_counts(e));
    }
    return json_incref(v);
}

void cli_json_exact_counts(json_t *doc)
{
    json_decref(exact_counts(doc));
}

void cli_put_json(json_t *doc)
{
    cli_json_exact_counts(doc);
    char *s = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
    if (s)
        puts(s);
    free(s);
    json_decref(doc);
}
