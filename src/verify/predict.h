/* predict: gpulint's own predictions for the reference kernels, made the
 * way a user gets them: `gpulint FILE.cu --gpu MODEL --format json`, one
 * child process per kernel file (in parallel, and isolated: a crash in
 * libclang loses that file's source predictions, not the run), compiled with
 * the same nvcc as the build that runs. Or read from a report made elsewhere
 * (--predictions: gpulint run over every kernel file with --format json, on
 * a machine with libclang); both give the same rows. Lookups return the
 * pieces a check compares. */
#ifndef GPULINT_PREDICT_H
#define GPULINT_PREDICT_H

#include <jansson.h>
#include <stdbool.h>

#include "verify/kbuild.h"

typedef struct vpred {
    json_t *report;     /* kernels, shared_accesses, global_accesses, branches, roofline */
    bool source;        /* the source analyses ran (libclang here, or the file) */
    char origin[512];   /* "this build", or the --predictions path */
    char why_none[256]; /* when !source: why */
    char gpu[64];       /* the product model the predictions were made for; "": an arch */
} vpred;

/* self: this gpulint's path; gpu: the product model to predict for (its
 * times), or NULL for the arch alone. The reports are cached next to each
 * fatbin. */
bool vpred_run(const char *self, const kbuild_unit *units, int n, const char *arch, const char *gpu,
               const char *gpu_file, int jobs, vpred *out, char *err, size_t errlen);
/* A report file; its target arch must be `arch`. */
bool vpred_load(const char *path, const char *arch, vpred *out, char *err, size_t errlen);
/* Only what ptxas says (occupancy needs nothing more). */
void vpred_none(vpred *out, const char *why);
void vpred_free(vpred *p);

/* The first launch of `kernel` with a constant grid and block (NULL if none). */
const json_t *vpred_launch(const vpred *p, const char *kernel);
/* The warp instructions the report counts for the kernel's launch
 * (its roofline entry's issue count), -1 where it gives none. */
double vpred_warp_insts(const vpred *p, const char *kernel);
/* The analysed shared- or global-memory load of `kernel` (the probes have one). */
const json_t *vpred_access(const vpred *p, const char *array_key, const char *kernel);
/* The branch or loop of `kernel` on `line` (0: the first), leaving out the
 * lane counter's own test. */
const json_t *vpred_branch(const vpred *p, const char *kernel, int line);
const json_t *vpred_roofline(const vpred *p, const char *kernel);
/* Every entry of `array_key` for `kernel`, in order (a new array). */
json_t *vpred_all(const vpred *p, const char *array_key, const char *kernel);

#endif
