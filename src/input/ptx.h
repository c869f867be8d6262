/* ptx: read the PTX that gpulint's own nvcc run keeps (--keep): per
 * function its instructions, their source lines (.loc, when the build
 * passes -lineinfo or -G)
 * and the branches' targets. Pure: text in, records out. */
#ifndef GPULINT_PTX_H
#define GPULINT_PTX_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/timing/imix.h"

/* setmaxnreg.{inc,dec}.sync.aligned.u32 N: a warpgroup's register count
 * changed at run time (sm_90a), as written in the PTX. */
#define PTX_MAX_MAXNREG 8
typedef struct ptx_maxnreg {
    bool raise;     /* .inc; else .dec */
    int regs;       /* -1 when the operand is not an immediate */
    int file, line; /* source position, 0 = unknown */
} ptx_maxnreg;

typedef struct ptx_function {
    char *name; /* mangled */
    bool is_entry;
    imix_insn *insns;
    size_t n_insns;
    int line;                             /* where it begins in the PTX */
    ptx_maxnreg maxnreg[PTX_MAX_MAXNREG]; /* the first PTX_MAX_MAXNREG */
    int n_maxnreg;                        /* all of them */
} ptx_function;

typedef struct ptx_file {
    int index;
    char *path;
} ptx_file;

typedef struct ptx_module {
    char target[32]; /* "sm_90" from .target; "" when absent */
    ptx_file *files; /* .file directives */
    size_t n_files;
    ptx_function *functions;
    size_t n_functions;
    /* The first line that did not read as PTX (0 = none) and why; what
     * came before and after it is kept. */
    int problem_line;
    char problem[96];
} ptx_module;

/* Never fails on odd input: what does not parse is the problem. */
void ptx_parse(const char *text, size_t len, ptx_module *out);
void ptx_module_free(ptx_module *m);
const ptx_function *ptx_find(const ptx_module *m, const char *name);
const char *ptx_file_path(const ptx_module *m, int index); /* NULL = not declared */

#endif
