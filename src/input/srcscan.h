/* srcscan: find __global__ function definitions in CUDA source text without
 * a compiler front end, so ptxas's kernels can be tied to a file:line even
 * when libclang is unavailable or cannot parse the file. Pure. */
#ifndef GPULINT_SRCSCAN_H
#define GPULINT_SRCSCAN_H

#include <stddef.h>

typedef struct srcscan_kernel {
    char *name; /* unqualified identifier, e.g. "transpose" */
    int line;   /* 1-based line of the name */
    int column; /* 1-based column of the name */
} srcscan_kernel;

typedef struct srcscan_result {
    srcscan_kernel *kernels;
    size_t n;
} srcscan_result;

void srcscan_kernels(const char *text, size_t len, srcscan_result *out);
void srcscan_free(srcscan_result *r);
/* Line of the kernel with this unqualified name, 0 if not found. */
const srcscan_kernel *srcscan_find(const srcscan_result *r, const char *name);
/* "void ns::transpose<32>(float*, float const*)" -> "transpose" into buf. */
void srcscan_simple_name(const char *demangled, char *buf, size_t n);

#endif
