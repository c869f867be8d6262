/* nvcc: find nvcc and run it on one staged source file (nvcc_stage.h) with
 * -Xptxas -v to collect the resource-usage log. Device code only (-fatbin):
 * the host compiler pass adds time and no information. nvcc is spawned
 * without a shell, but it runs its own sub-steps through one, which is why
 * it only ever sees the stage's names. */
#ifndef GPULINT_NVCC_H
#define GPULINT_NVCC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "input/nvcc_stage.h"

typedef struct nvcc_job {
    pid_t pid;
    int fd; /* merged stdout + stderr */
} nvcc_job;

/* explicit (--nvcc) or $CUDA_HOME/bin/nvcc, then PATH, then
 * /usr/local/cuda/bin/nvcc. Returns false with a message naming the places
 * looked at. */
bool nvcc_find(const char *explicit_path, char *out, size_t n, char *err, size_t errlen);

/* A tool of the same toolkit (cuobjdump, nvdisasm): the file of that name
 * in nvcc's directory, whether or not it exists. */
void nvcc_sibling(const char *nvcc, const char *tool, char *out, size_t n);

/* archs: "sm_90" style; ignored when the stage's arguments already choose
 * targets (-arch, -gencode, --gpu-architecture, --generate-code). */
bool nvcc_start(const char *nvcc, const nvstage *stage, const char *const *archs, int n_archs,
                nvcc_job *job, char *err, size_t errlen);
/* Waits; *log gets everything nvcc printed (caller frees). Returns false if
 * nvcc could not be waited for; *exit_status is nvcc's status (or 128+sig). */
bool nvcc_finish(nvcc_job *job, char **log, size_t *len, int *exit_status);

/* Whether gpulint keeps the PTX of the run in the stage's temporary
 * directory (--keep --keep-dir): not when the build's own arguments keep
 * intermediate files somewhere else. No -lineinfo is added: its `.file`
 * directives carry the include paths into the PTX, and ptxas cannot parse
 * a path with a double quote (tests/security_names.py). */
bool nvcc_keeps_ptx(char *const *extra, int n_extra);

/* Whether a failed compile's log says the file calls a __device__ function
 * defined in another file (its mangled name into callee), and the
 * arguments did not ask for separate compilation (-rdc=true, -dc), which
 * the program's own build must use. */
bool nvcc_needs_rdc(const char *log, char *const *extra, int n_extra, char *callee, size_t n);

/* True when the extra arguments already pick the GPU targets. */
bool nvcc_args_choose_arch(char *const *extra, int n_extra);

#endif
