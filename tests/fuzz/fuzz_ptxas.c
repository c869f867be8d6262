/* fuzz_ptxas: libFuzzer harness for the ptxas log parser. Logs come from
 * build systems, CI and pasted issues, so any bytes must parse in linear
 * time without crashing or leaking; sanitizers judge the rest. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "input/ptxas.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptxas_log log;
    if (!ptxas_parse((const char *)data, size, &log))
        return 0;
    /* Touch every result so bad pointers and unterminated strings show. */
    for (size_t i = 0; i < log.n_kernels; i++) {
        const ptxas_kernel *k = &log.kernels[i];
        if (strlen(k->name) + strlen(k->arch) == SIZE_MAX)
            __builtin_trap();
        if (ptxas_find(&log, k->name, k->arch) != k)
            __builtin_trap(); /* (arch, name) keys are unique */
    }
    for (size_t i = 0; i < log.n_warnings; i++)
        if (strlen(log.warnings[i].text) == SIZE_MAX)
            __builtin_trap();
    ptxas_log_free(&log);
    return 0;
}
