/* fuzz_explicit: libFuzzer harness for the scan of a source file's explicit
 * instantiations (cusrc_explicit). It reads every .cu gpulint is given, so
 * any bytes must scan in linear time, and what it appends must stay one
 * function. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_explicit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *refs = cusrc_explicit_refs((const char *)data, size);
    if (refs) {
        static const char head[] = "\nstatic void " CUSRC_EXPLICIT_FN "(void)\n{\n";
        size_t n = strlen(refs);
        if (strncmp(refs, head, sizeof head - 1) != 0 || strcmp(refs + n - 2, "}\n") != 0)
            __builtin_trap();
        free(refs);
    }
    return 0;
}
