/* fuzz_verify: libFuzzer harness for what `gpulint verify` parses: the
 * sizes of verify.h, the kernel manifest verify.ini and Nsight Compute's
 * CSV. Whatever the bytes, each parser accepts or refuses with a message
 * and a line; what it accepts is consistent (every case names a kernel and
 * a group, every argument a buffer of its group). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verify/manifest.h"
#include "verify/ncu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    /* The first line is verify.h, the rest verify.ini. */
    char *nl = strchr(s, '\n');
    size_t head = nl ? (size_t)(nl - s) : size;
    vmanifest m = {0};
    vman_error e = {0};
    if (!vman_parse_sizes(s, head, &m, &e) && (!e.message[0] || e.line < 1))
        __builtin_trap();
    vmanifest m2 = {0};
    memcpy(m2.sizes, m.sizes, sizeof m.sizes);
    m2.n_sizes = m.n_sizes;
    const char *ini = nl ? nl + 1 : s + size;
    if (vman_parse(ini, strlen(ini), &m2, &e)) {
        for (int i = 0; i < m2.n_cases; i++) {
            const vcase *c = &m2.cases[i];
            if (!c->kernel[0] || c->group < 0 || c->group >= m2.n_groups)
                __builtin_trap();
            for (int a = 0; a < c->n_args; a++)
                if (c->args[a].buffer >= m2.groups[c->group].n_buffers)
                    __builtin_trap();
        }
    } else if (!e.message[0]) {
        __builtin_trap();
    }
    vman_free(&m2);
    vman_free(&m);
    ncu_result r;
    if (ncu_parse(s, &r) && r.n < 1)
        __builtin_trap();
    ncu_result_free(&r);
    free(s);
    return 0;
}
