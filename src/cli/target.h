/* target: which GPU a command reasons about — --arch, --gpu, --machine, the
 * local GPU through cudart, or the documented default (H100 SXM). Shared by
 * every command that takes a target. */
#ifndef GPULINT_TARGET_H
#define GPULINT_TARGET_H

#include <stdbool.h>

#include "cli/opt.h"
#include "model/model_load.h"

#define TARGET_DEFAULT_GPU "h100-sxm"
#define TARGET_MAX 16

typedef struct target {
    gpu_arch arch;
    gpu_product product;
    bool has_product;
    char label[192];    /* "sm_90 (NVIDIA H100 SXM5 80GB)" */
    const char *origin; /* "--arch", "--gpu", "--machine", "local GPU", "default" */
} target;

typedef struct target_opts {
    opt_list archs;
    const char *gpu;
    const char *machine;
    const char *models_dir; /* --models DIR */
} target_opts;

/* Option table entries every targeted command includes. */
#define TARGET_OPTIONS(t)                                                                          \
    {"arch",                                                                                       \
     'a',                                                                                          \
     OPT_LIST,                                                                                     \
     &(t)->archs,                                                                                  \
     NULL,                                                                                         \
     "ARCH",                                                                                       \
     "target compute capability: sm_90, 90 or 9.0 (repeatable)"},                                  \
        {"gpu",                                                                                    \
         'g',                                                                                      \
         OPT_STRING,                                                                               \
         &(t)->gpu,                                                                                \
         NULL,                                                                                     \
         "ID",                                                                                     \
         "target a product model, e.g. h100-sxm ('gpulint models' lists them)"},                   \
        {"machine",                                                                                \
         0,                                                                                        \
         OPT_STRING,                                                                               \
         &(t)->machine,                                                                            \
         NULL,                                                                                     \
         "SPEC|FILE",                                                                              \
         "hypothetical SM: \"threads/sm=2048,regs/sm=65536,smem/sm=48K,granularity=none\" "        \
         "or an arch model file"},                                                                 \
    {                                                                                              \
        "models", 0, OPT_STRING, &(t)->models_dir, NULL, "DIR",                                    \
            "models directory (default: the bundled one; env GPULINT_MODELS)"                      \
    }

/* Loads the model database into db (caller frees with model_db_free) and
 * resolves the targets. Returns an exit code; prints its own error line. */
int target_resolve(const target_opts *o, model_db *db, target *out, int max, int *n);
/* --gpu names a product file (a path, or *.ini) rather than a bundled id:
 * `gpulint verify --save-model` writes such files, with measured ceilings. */
bool target_is_product_file(const char *gpu);
/* Loads it; its arch must be a bundled one. Returns an exit code. */
int target_product_file(const model_db *db, const char *path, gpu_product *out);
/* Loads the database only (for commands that list models). */
int target_load_db(const char *models_dir, model_db *db);

#endif
