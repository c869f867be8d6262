/* fuzz_nvstage: libFuzzer harness for the stage between user-chosen names
 * and nvcc's shell. The input is a file name and nvcc arguments separated
 * by NUL bytes. Whatever they hold, either the stage refuses them with one
 * line, or every name nvcc will see (directory, copy, output, arguments) is
 * made of shell-inert bytes; and removing the stage leaves nothing behind. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input/nvcc_stage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 24

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *parts[MAX_ARGS + 1];
    int n = 0;
    for (size_t i = 0, start = 0; i <= size && n <= MAX_ARGS; i++)
        if (i == size || buf[i] == '\0') {
            parts[n++] = buf + start;
            start = i + 1;
        }
    const char *path = n > 0 && parts[0][0] ? parts[0] : "k.cu";
    nvstage st;
    char err[512];
    nvstage_status s = nvstage_prepare(&st, path, "x\n", 2, parts + 1, n > 1 ? n - 1 : 0,
                                       "nvcc argument", err, sizeof err);
    if (s == NVSTAGE_OK) {
        if (!nvstage_inert(st.dir) || !nvstage_inert(st.source) || !nvstage_inert(st.output))
            __builtin_trap();
        for (int i = 0; i < st.n_args; i++)
            if (!nvstage_inert(st.args[i]))
                __builtin_trap();
        char *shown = nvstage_unmap(&st, st.source);
        if (strcmp(shown, path) != 0)
            __builtin_trap(); /* the copy is shown as the user's file */
        free(shown);
        char *dir = strdup(st.dir);
        nvstage_free(&st);
        struct stat sb;
        if (dir && stat(dir, &sb) == 0)
            __builtin_trap();
        free(dir);
    } else if (err[0] == '\0' || strchr(err, '\n')) {
        __builtin_trap(); /* one line that says why */
    }
    free(buf);
    return 0;
}
