/* code_report: a kernel's compiled code as the report shows it. The PTX
 * of gpulint's own nvcc run and the SASS (cuobjdump, or a listing given
 * with --sass) are counted by analysis/timing/imix into a static instruction mix,
 * which is checked against the source's per-thread FLOPs: where the code
 * cannot hold what the source counts, a note says so. */
#ifndef GPULINT_CODE_REPORT_H
#define GPULINT_CODE_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "input/ptx.h"
#include "input/sass.h"
#include "util/sbuf.h"

typedef struct code_listing {
    ptx_module *ptx; /* one module per arch nvcc compiled for */
    size_t n_ptx;
    sass_listing sass;
    bool has_sass;
    char *sass_origin; /* "cuobjdump", or the --sass file */
    char *why_no_sass; /* when !has_sass: why (NULL = not asked for) */
} code_listing;

void code_listing_free(code_listing *c);

/* The kernel's code object, NULL when neither level has it. src_flops:
 * the source's per-thread FLOPs by precision (fp16, fp32, fp64; NAN =
 * unknown), NULL = no source. Disagreements become notes (strings). */
json_t *code_kernel_json(const code_listing *c, const char *mangled, const char *kernel,
                         const char *arch, const double *src_flops, json_t *notes);

/* The kernel's PTX function: in the module for its arch ("sm_90a" for
 * "sm_90") or one without a target, else in the last module that holds
 * it; NULL when not there. *module (when not NULL) gets its module. */
const ptx_function *kernel_ptx_function(const code_listing *c, const char *mangled,
                                        const char *arch, const ptx_module **module);

/* One line for the text report's "compiled code" section. */
void code_kernel_text(sbuf *out, const char *kernel, const char *arch, const json_t *code);

#endif
