/* ptxas: parse the resource-usage lines that `nvcc -Xptxas -v` (ptxas,
 * nvlink, NVRTC) prints into one record per (arch, kernel). Pure: text in,
 * records out; no I/O, no globals. */
#ifndef GPULINT_PTXAS_H
#define GPULINT_PTXAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/occupancy/occ.h"

typedef struct ptxas_kernel {
    char *name;    /* mangled, exactly as printed (extern "C" names stay plain) */
    char arch[16]; /* "sm_90", "sm_90a", "sm_100f" ...; "" when the log never says (no
                      entry in the module, CUDA 2 logs, nvJitLink without ptxas lines) */
    bool is_entry; /* a __global__ kernel ("entry function"), not a device function */
    int registers;
    int64_t static_smem;      /* bytes of smem ("N bytes smem"; "A+B bytes smem" is summed) */
    int64_t stack;            /* "N bytes stack frame"; nvlink's "N stack" (callees included) */
    int64_t cumulative_stack; /* "N bytes cumulative stack size" (-rdc), -1 = not printed */
    int64_t spill_stores;
    int64_t spill_loads;
    int64_t lmem;                     /* "N bytes lmem" (old formats), -1 = not printed */
    int barriers;                     /* "N barriers"; 0 when not printed */
    int textures, surfaces, samplers; /* 0 when not printed */
    int64_t cmem[32];                 /* cmem[i] bytes, -1 = not printed; banks on the module's
                                         "N bytes gmem, M bytes cmem[3]" line count for each of
                                         its kernels unless the kernel prints that bank itself */
    int64_t gmem;     /* bytes of global memory of the module ("N bytes gmem"), 0 when
                         not printed; nvlink's figure for the linked program wins */
    bool from_nvlink; /* numbers came from (or were overridden by) nvlink */
    int line;         /* 1-based line in the log where the kernel was named */
} ptxas_kernel;

typedef struct ptxas_warning {
    int line;
    char *text;
} ptxas_warning;

typedef struct ptxas_log {
    ptxas_kernel *kernels;
    size_t n_kernels;
    ptxas_warning *warnings; /* unrecognised tokens / lines that looked like resource lines;
                                at most 1000, then one saying the rest were dropped */
    size_t n_warnings;
    size_t n_lines; /* lines read */
} ptxas_log;

/* Parse a whole log. Never fails on odd input: unknown tokens become
 * warnings. Returns false only when out of memory. */
bool ptxas_parse(const char *text, size_t len, ptxas_log *out);
void ptxas_log_free(ptxas_log *log);

/* First kernel with this name for this arch (arch NULL = any), or NULL. */
const ptxas_kernel *ptxas_find(const ptxas_log *log, const char *name, const char *arch);

/* What occupancy depends on, as ptxas reported it. */
occ_kernel ptxas_occ_kernel(const ptxas_kernel *k);

#endif
