/* kbuild: build the reference kernels for one GPU architecture with nvcc
 * (through the stage, as every nvcc run of gpulint), keeping each fatbin
 * and its ptxas -v log in the cache under a key of everything that decides
 * the result: gpulint's version, nvcc's `--version`, the architecture, the
 * kernel's text, verify.h and the extra nvcc arguments. */
#ifndef GPULINT_KBUILD_H
#define GPULINT_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

typedef struct kbuild_unit {
    const char *file;  /* in: "bank.cu" */
    const char *extra; /* in: extra nvcc arguments, space-separated */
    char *source;      /* kernels_dir/file */
    char *fatbin;      /* the built fatbin */
    char *log_path;    /* nvcc's output (with the ptxas lines) */
    char *log;         /* its text */
    bool from_cache;
    double seconds; /* nvcc's wall time (0 when from the cache) */
} kbuild_unit;

typedef struct kbuild {
    char *dir;              /* where the outputs are */
    bool temporary;         /* no cache: removed by kbuild_free */
    char nvcc_version[128]; /* the last line of nvcc --version */
} kbuild;

typedef enum kbuild_status {
    KBUILD_OK = 0,
    KBUILD_COMPILE, /* nvcc rejected a kernel file: err names it, *failed_log has nvcc's words */
    KBUILD_TOOL,    /* nvcc could not be run */
    KBUILD_IO,      /* files could not be read or written */
    KBUILD_REFUSED, /* an nvcc argument of verify.ini cannot be passed safely */
} kbuild_status;

/* Builds (or finds in the cache) every unit, up to `jobs` nvcc at once. */
kbuild_status kbuild_run(const char *nvcc, const char *kernels_dir, const char *arch, int jobs,
                         kbuild_unit *units, int n, kbuild *kb, char **failed_log, char *err,
                         size_t errlen);
void kbuild_unit_free(kbuild_unit *u);
void kbuild_free(kbuild *kb);

#endif
