/* common: what every command prints the same way. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

void cli_put_json(json_t *doc)
{
    char *s = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
    if (s)
        puts(s);
    free(s);
    json_decref(doc);
}
