/* common: error reporting and terminal handling shared by the commands. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"

int cli_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpulint: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpulint: warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cli_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpulint: note: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

bool cli_use_color(FILE *f)
{
    const char *no = getenv("NO_COLOR");
    if (no && *no)
        return false;
    return isatty(fileno(f));
}

void cli_put_json(json_t *doc)
{
    char *s = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
    if (s)
        puts(s);
    free(s);
    json_decref(doc);
}
