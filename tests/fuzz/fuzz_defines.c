/* fuzz_defines: libFuzzer harness for --defines files, which a user (or a
 * repository's checked-in sizes file) writes. Every input must be read or
 * refused with one line naming the file and line; what is read must hold
 * printable names without '=', each once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/defines.h"
#include "util/exitcode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    defines d = {0};
    char err[1400] = "";
    int rc = defines_parse_text(&d, "f.sizes", text, size, err, sizeof err);
    if (rc != EXIT_OK && (strncmp(err, "f.sizes:", 8) != 0 || strchr(err, '\n')))
        abort();
    if (rc == EXIT_OK && err[0])
        abort();
    for (int i = 0; i < d.n; i++) {
        if (!d.names[i][0] || strchr(d.names[i], '=') || strchr(d.names[i], '#'))
            abort();
        for (int j = 0; j < i; j++)
            if (!strcmp(d.names[i], d.names[j]))
                abort();
    }
    defines_free(&d);
    free(text);
    return 0;
}
