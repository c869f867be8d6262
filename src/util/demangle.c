/* demangle: libstdc++'s demangler, called from C. */
#include "util/demangle.h"

#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

/* Declared with C linkage in <cxxabi.h>. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *demangle(const char *mangled)
{
    if (strncmp(mangled, "_Z", 2) != 0)
        return xstrdup(mangled);
    int status = 0;
    char *d = __cxa_demangle(mangled, NULL, NULL, &status);
    if (status != 0 || !d) {
        free(d);
        return xstrdup(mangled);
    }
    /* Template kernels carry their return type in the mangling; every
     * __global__ function returns void, so it says nothing. */
    if (strncmp(d, "void ", 5) == 0)
        memmove(d, d + 5, strlen(d + 5) + 1);
    return d;
}
