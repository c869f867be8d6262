/* fuzz_sass: libFuzzer harness for the SASS listing reader (cuobjdump and
 * nvdisasm formats) and the instruction mix. A listing may come from
 * --sass, so any bytes must read in linear time without crashing. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "analysis/timing/imix.h"
#include "input/sass.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sass_listing l;
    sass_parse((const char *)data, size, &l);
    for (size_t i = 0; i < l.n_functions; i++) {
        const sass_function *f = &l.functions[i];
        if (sass_find(&l, f->name, f->arch) == NULL)
            __builtin_trap();
        for (size_t j = 0; j < f->n_insns; j++)
            if (f->insns[j].target > (int32_t)f->n_insns || strlen(f->insns[j].op) >= 64)
                __builtin_trap();
        imix mix;
        imix_count(IMIX_SASS, f->insns, f->n_insns, &mix);
        if (mix.n_insns != f->n_insns)
            __builtin_trap();
    }
    sass_listing_free(&l);
    return 0;
}
