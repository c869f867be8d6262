/* compdb: a project's compile_commands.json (CMake, Meson, Bear) read into
 * the CUDA translation units gpulint lints, each with the nvcc arguments of
 * its own build that change device code. Everything here is a repository's
 * text: commands are split as POSIX shell words without any expansion,
 * and the arguments kept are only those on an allowlist (include paths,
 * macros, standard, targets, relocatable code, device-code switches), with
 * relative paths made absolute against the entry's directory. What nvcc
 * finally sees still goes through nvcc_stage's checks. */
#ifndef GPULINT_COMPDB_H
#define GPULINT_COMPDB_H

#include <stdbool.h>
#include <stddef.h>

typedef struct compdb_unit {
    char *file;  /* absolute, normalised ("/src/a.cu") */
    char **args; /* nvcc arguments kept from the entry */
    int n_args;
    int entry; /* its index in the file, for messages */
} compdb_unit;

typedef struct compdb {
    char *path; /* DIR/compile_commands.json */
    compdb_unit *units;
    size_t n_units;
    size_t n_not_cuda; /* entries that compile something else */
    compdb_unit *host; /* of those, the C and C++ units (their calls carry sizes) */
    size_t n_host;
    size_t n_duplicates; /* later entries for a file already seen */
} compdb;

typedef enum compdb_status {
    COMPDB_OK = 0,
    COMPDB_MISSING,   /* no such file or unreadable */
    COMPDB_MALFORMED, /* not JSON, or an entry without what it needs */
} compdb_status;

/* Reads DIR/compile_commands.json (DIR may also name the file itself).
 * On failure err holds one line naming the file and, where one is at
 * fault, the entry. */
compdb_status compdb_load(const char *dir, compdb *db, char *err, size_t errlen);
void compdb_free(compdb *db);

/* Splits a command line as sh would split words, without expanding
 * anything: whitespace separates, '...' is literal, "..." keeps \" \\ \$
 * \` escapes, a backslash outside quotes escapes the next byte. False on an
 * unterminated quote. *argv is NULL-terminated; free with compdb_argv_free. */
bool compdb_split(const char *command, char ***argv, int *argc);
void compdb_argv_free(char **argv);

/* The unit for a path (compared after realpath), NULL when absent. */
const compdb_unit *compdb_find(const compdb *db, const char *path);

/* argv of one entry (argv[0] the compiler) with its directory and file:
 * the nvcc arguments gpulint keeps (caller frees with compdb_argv_free),
 * and whether the entry compiles CUDA at all. Exposed for the tests. */
bool compdb_translate(char *const *argv, int argc, const char *directory, const char *file,
                      char ***out, int *n_out);

#endif
