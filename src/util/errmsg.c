/* errmsg: see errmsg.h. */
#include "util/errmsg.h"

#include <stdarg.h>
#include <stdio.h>

bool errmsg_set(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return false;
}
