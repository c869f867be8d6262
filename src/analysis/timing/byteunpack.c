/* byteunpack: the bytes ptxas unpacks from a vector load (byteunpack.h). */
#include "analysis/timing/byteunpack.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static bool byte_vector_load(const char *op)
{
    return !strncmp(op, "ld.", 3) &&
           (strstr(op, ".v4.u8") || strstr(op, ".v4.s8") || strstr(op, ".v4.b8"));
}

/* Register h is read by an instruction that is not a store. */
static bool read_as_number(const imix_insn *in, size_t n, uint32_t h)
{
    for (size_t i = 0; i < n; i++) {
        if (!strncmp(in[i].op, "st.", 3))
            continue;
        for (int k = 0; k < IMIX_SRC && in[i].src[k]; k++)
            if (in[i].src[k] == h)
                return true;
    }
    return false;
}

void byteunpack_mark(imix_insn *in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        in[i].unpacked = 0;
        if (!byte_vector_load(in[i].op))
            continue;
        for (int k = 0; k < IMIX_DST && in[i].dst[k]; k++)
            in[i].unpacked += read_as_number(in, n, in[i].dst[k]);
    }
}
