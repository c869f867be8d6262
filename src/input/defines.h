/* defines: --define NAME=VALUE and the --defines FILE of such lines (see
 * defines.c for the format). */
#ifndef GPULINT_DEFINES_H
#define GPULINT_DEFINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/expr.h"

#define DEFINES_MAX EXPR_MAX_BINDINGS

typedef struct defines {
    int n;
    char *names[DEFINES_MAX];
    long long values[DEFINES_MAX];
    int lines[DEFINES_MAX]; /* the line of the file; 0: from --define */
    char *file;             /* the --defines file, NULL when none */
} defines;

/* Each returns EXIT_OK, or EXIT_USAGE with one line in err (the file and
 * line where one is read). */
int defines_add_arg(defines *d, const char *arg, char *err, size_t size); /* replaces */
int defines_read_file(defines *d, const char *path, char *err, size_t size);
/* The text of a file named path (a name twice in it is an error). */
int defines_parse_text(defines *d, const char *path, const char *text, size_t len, char *err,
                       size_t size);
void defines_free(defines *d);

#endif
