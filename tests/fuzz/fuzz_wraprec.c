/* fuzz_wraprec: libFuzzer harness for what gpulint wrap reads from a build:
 * an nvcc command line (its words NUL-separated in the input), the lines
 * of nvcc's standard error, and a record file (after a first byte 'J').
 * Inputs and the output must be words of the command, nvcc's index must be
 * a word before the first option, a record must parse or be refused, and
 * a parsed record must write out and read back the same. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/wraprec.h"
#include "util/fileio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool is_word(char *const *argv, int argc, const char *p)
{
    for (int i = 0; i < argc; i++)
        if (p >= argv[i] && p <= argv[i] + strlen(argv[i]))
            return true;
    return false;
}

static void command(const char *text, size_t size)
{
    char *copy = malloc(size + 1);
    memcpy(copy, text, size);
    copy[size] = '\0';
    char *argv[256];
    int argc = 0;
    for (size_t i = 0; i <= size && argc < 256;) {
        argv[argc++] = copy + i;
        i += strlen(copy + i) + 1;
    }
    wraprec_cmd c;
    wraprec_read_command(argv, argc, &c);
    if (c.nvcc >= argc)
        abort();
    for (int i = 0; i < c.nvcc; i++)
        if (argv[i][0] == '-')
            abort();
    for (int i = 0; i < c.n_sources; i++)
        if (!is_word(argv, argc, c.sources[i]) || c.sources[i][0] == '-')
            abort();
    if (c.output && !is_word(argv, argc, c.output))
        abort();
    wraprec_cmd_free(&c);
    /* Every line of the same bytes as nvcc's stderr. */
    for (const char *p = text, *end = text + size; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
        (void)wraprec_is_log_line(p, n);
        p += n;
    }
    free(copy);
}

static void record(const char *text, size_t size)
{
    wraprec w;
    if (!wraprec_parse(text, size, &w))
        return;
    char path[64], err[256];
    snprintf(path, sizeof path, "/tmp/fuzz_wraprec.%d.gpulint.json", (int)getpid());
    if (!wraprec_write(path, &w, err, sizeof err))
        abort();
    char *back = NULL;
    size_t n = 0;
    fileio_read(path, 1u << 28, &back, &n);
    unlink(path);
    wraprec again;
    if (!back || !wraprec_parse(back, n, &again) || strcmp(again.log, w.log) != 0 ||
        strcmp(again.directory, w.directory) != 0 || again.n_sources != w.n_sources ||
        (!again.output) != (!w.output) || (w.output && strcmp(again.output, w.output) != 0))
        abort();
    for (int i = 0; i < w.n_sources; i++)
        if (strcmp(again.sources[i], w.sources[i]) != 0)
            abort();
    wraprec_free(&again);
    wraprec_free(&w);
    free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 0 && data[0] == 'J')
        record((const char *)data + 1, size - 1);
    else
        command((const char *)data, size);
    return 0;
}
