/* fuzz_model: arbitrary bytes into the model parsers (arch files, product
 * files and the inline --machine form). They must never crash, hang or
 * accept a model that fails validation. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    model_error err;
    gpu_arch a;
    if (model_parse_arch(text, size, &a, &err) && !model_validate_arch(&a, &err))
        abort();
    gpu_product p;
    (void)model_parse_product(text, size, &p, &err);
    char *spec = malloc(size + 1);
    if (!spec)
        return 0;
    memcpy(spec, data, size);
    spec[size] = '\0';
    if (model_parse_machine_spec(spec, &a, &err) && !model_validate_arch(&a, &err))
        abort();
    free(spec);
    return 0;
}
