/* sass: read a SASS listing (`cuobjdump -sass`, `nvdisasm`) into one
 * instruction list per (arch, function), with branch targets. Pure: text
 * in, records out; running cuobjdump is the caller's business. */
#ifndef GPULINT_SASS_H
#define GPULINT_SASS_H

#include <stddef.h>

#include "analysis/timing/imix.h"

typedef struct sass_function {
    char *name;    /* mangled */
    char arch[16]; /* "sm_90"; "" when the listing never says */
    imix_insn *insns;
    size_t n_insns;
    int line; /* where it begins in the listing */
} sass_function;

typedef struct sass_listing {
    sass_function *functions;
    size_t n_functions;
    /* The source files `//## File` lines name (nvdisasm -g, -gi); an
     * instruction's file is an index into them plus one, 0 = none given. */
    char **files;
    size_t n_files;
    int problem_line; /* the first line that did not read as SASS, 0 = none */
    char problem[96];
} sass_listing;

/* Never fails on odd input: what does not parse is the problem. */
void sass_parse(const char *text, size_t len, sass_listing *out);
void sass_listing_free(sass_listing *l);
const char *sass_file_path(const sass_listing *l, int index); /* NULL = none */
/* arch NULL = any */
const sass_function *sass_find(const sass_listing *l, const char *name, const char *arch);

#endif
