/* diag: gpulint's own messages on stderr (see diag.h). */
#include "util/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

static void put(const char *kind, const char *fmt, va_list ap)
{
    fprintf(stderr, "gpulint: %s: ", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int diag_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put("error", fmt, ap);
    va_end(ap);
    return code;
}

void diag_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put("warning", fmt, ap);
    va_end(ap);
}

void diag_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put("note", fmt, ap);
    va_end(ap);
}

bool diag_use_color(FILE *f)
{
    const char *no = getenv("NO_COLOR");
    if (no && *no)
        return false;
    return isatty(fileno(f));
}
