/* fuzz_compdb: libFuzzer harness for compile_commands.json entries, which a
 * repository writes. The input is a "command" string, or (after a first
 * byte 'J') a whole database file: splitting must never overrun, a database
 * must load or fail with a message, and whatever is kept for nvcc must be
 * on the allowlist: no output, dependency or host-compiler flag survives,
 * and every include path is absolute. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/compdb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* abs_paths: include paths must be absolute (the entry's directory was). */
static void check_kept(char **out, int n, bool abs_paths)
{
    static const char *const never[] = {"-o", "-ccbin",     "--compiler-bindir", "-MF",  "-Xlinker",
                                        "-c", "-Xcompiler", "--options-file",    "-odir"};
    for (int i = 0; i < n; i++) {
        if (!out[i])
            abort();
        if (!strcmp(out[i], "-Xptxas") && i + 1 < n) {
            i++; /* ptxas's own options */
            continue;
        }
        for (size_t k = 0; k < sizeof never / sizeof never[0]; k++)
            if (strcmp(out[i], never[k]) == 0)
                abort();
        if ((!strcmp(out[i], "-I") || !strcmp(out[i], "-isystem") || !strcmp(out[i], "-include")) &&
            (i + 1 >= n || (abs_paths && out[i + 1][0] != '/')))
            abort();
    }
    if (out[n])
        abort();
}

static void one_command(const char *cmd)
{
    char **v, **out;
    int n, n_out;
    if (!compdb_split(cmd, &v, &n))
        return;
    if (n > 0) {
        compdb_translate(v, n, "/w/build", v[n - 1], &out, &n_out);
        check_kept(out, n_out, true);
        compdb_argv_free(out);
    }
    compdb_argv_free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    if (size > 0 && s[0] == 'J') {
        char path[] = "/tmp/fuzz-compdb-XXXXXX.json";
        int fd = mkstemps(path, 5);
        if (fd >= 0) {
            if (write(fd, s + 1, size - 1) == (ssize_t)(size - 1)) {
                compdb db;
                char err[256];
                if (compdb_load(path, &db, err, sizeof err) != COMPDB_OK && !err[0])
                    abort();
                for (size_t i = 0; i < db.n_units; i++)
                    check_kept(db.units[i].args, db.units[i].n_args, true);
                compdb_free(&db);
            }
            close(fd);
            unlink(path);
        }
    } else {
        one_command(s);
    }
    free(s);
    return 0;
}
