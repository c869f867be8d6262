/* cexpr: a small recursive-descent parser for the C integer expressions,
 * shared-array declarations and subscripts that users type on the command
 * line ("float tile[32][33]", "tile[threadIdx.x][threadIdx.y ^ 3]"), turning
 * them into expr trees for the calculators. Not a C front end: integers,
 * the CUDA builtins, arithmetic, bitwise, comparison and logical operators,
 * ?:, min/max, integer casts and parentheses. Pure: no I/O, no globals. */
#ifndef GPULINT_CEXPR_H
#define GPULINT_CEXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"
#include "analysis/symbolic/expr.h"

#define CEXPR_MAX_LEN 4096  /* longer input is refused, not truncated */
#define CEXPR_MAX_DEPTH 200 /* nesting; deeper input is refused (no stack overflow) */
#define CEXPR_NAME_MAX 64

typedef struct cexpr_error {
    int column; /* 1-based position of the problem in the input */
    char msg[200];
} cexpr_error;

/* Parses a whole string as one expression. Identifiers other than the CUDA
 * builtins (threadIdx.x ... gridDim.z, warpSize) become named symbols when
 * allow_names is set and are an error otherwise. NULL on error. */
expr *cexpr_parse(const char *s, bool allow_names, cexpr_error *err);

/* "float tile[32][33]", "__shared__ double2 buf[256];": element type, name
 * and constant extents (expressions allowed, e.g. [32 + 1]). */
typedef struct cexpr_decl {
    char type[32];
    int elem_size;
    char name[CEXPR_NAME_MAX];
    int n_dims;
    int64_t dims[ACCESS_MAX_DIMS];
} cexpr_decl;

bool cexpr_parse_decl(const char *s, cexpr_decl *out, cexpr_error *err);

/* Bytes of a CUDA/C element type name ("float" 4, "double2" 16), 0 if unknown. */
int cexpr_type_size(const char *type);

/* "tile[threadIdx.x][threadIdx.y]": the array name and one expression per
 * subscript (owned; cexpr_access_free). */
typedef struct cexpr_access {
    char name[CEXPR_NAME_MAX];
    int n_idx;
    expr *idx[ACCESS_MAX_DIMS];
} cexpr_access;

bool cexpr_parse_access(const char *s, bool allow_names, cexpr_access *out, cexpr_error *err);
void cexpr_access_free(cexpr_access *a);

/* Row-major byte offset of an element access into a declared array:
 * ((i0 * d1 + i1) * d2 + i2) * elem_size. NULL, with why, when the access
 * names another array or has the wrong number of subscripts. */
expr *cexpr_byte_offset(const cexpr_decl *d, const cexpr_access *a, char *why, size_t why_size);

#endif
