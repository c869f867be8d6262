/* fuzz_ptx: libFuzzer harness for the PTX reader, the instruction mix and
 * the dependent-issue walk.
 * PTX comes from nvcc's --keep, but a damaged or foreign file must cost a
 * note, never a crash, a hang or a leak; sanitizers judge the rest. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "analysis/timing/depchain.h"
#include "analysis/timing/imix.h"
#include "input/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptx_module m;
    ptx_parse((const char *)data, size, &m);
    for (size_t i = 0; i < m.n_functions; i++) {
        const ptx_function *f = &m.functions[i];
        if (ptx_find(&m, f->name) == NULL)
            __builtin_trap();
        for (size_t j = 0; j < f->n_insns; j++)
            if (f->insns[j].target > (int32_t)f->n_insns || strlen(f->insns[j].op) >= 64)
                __builtin_trap(); /* a target past the body, an unterminated opcode */
        imix mix;
        imix_count(IMIX_PTX, f->insns, f->n_insns, &mix);
        if (mix.n_insns != f->n_insns)
            __builtin_trap();
        /* The dependent-issue walk over the operands the reader found:
         * the body as one block, then again as a loop's second pass. */
        depchain *d = depchain_new(f->n_insns);
        double once = depchain_block(d, f->insns, f->n_insns);
        double again = depchain_block(d, f->insns, f->n_insns);
        depchain_free(d);
        if (!(once >= 0) || !(again >= 0))
            __builtin_trap();
    }
    for (size_t i = 0; i < m.n_files; i++)
        if (strlen(m.files[i].path) == SIZE_MAX)
            __builtin_trap();
    ptx_module_free(&m);
    return 0;
}
