/* target: which GPU a run reasons about — --arch, --gpu, --machine, the
 * local GPU through cudart, or the documented default (H100 SXM). Shared by
 * every command that takes a target and by the file pipeline; errors are
 * printed here (util/diag) with the exit code to return. */
#ifndef GPULINT_TARGET_H
#define GPULINT_TARGET_H

#include <stdbool.h>

#include "model/model_load.h"

#define TARGET_DEFAULT_GPU "h100-sxm"
#define TARGET_MAX 16

typedef struct target {
    gpu_arch arch;
    gpu_product product;
    bool has_product;
    char label[192];    /* "sm_90 (NVIDIA H100 SXM5 80GB)" */
    const char *origin; /* "--arch", "--gpu", "--machine", "local GPU", "default" */
    /* What nvcc compiles for when the user asked for an arch-specific or
     * family target ("sm_90a": wgmma, setmaxnreg); "" = arch.name. */
    char compile_arch[MODEL_NAME_MAX + 2];
} target;

/* What the user asked for; all NULL / 0 means the local GPU, else the
 * default. */
typedef struct target_request {
    const char *const *archs; /* --arch, each as given */
    int n_archs;
    const char *gpu;
    const char *machine;
    const char *models_dir; /* --models DIR */
} target_request;

/* Loads the model database into db (caller frees with model_db_free) and
 * resolves the targets. Returns an exit code; prints its own error line. */
int target_resolve(const target_request *o, model_db *db, target *out, int max, int *n);
/* --gpu names a product file (a path, or *.ini) rather than a bundled id:
 * `gpulint verify --save-model` writes such files, with measured ceilings. */
bool target_is_product_file(const char *gpu);
/* Loads it; its arch must be a bundled one. Returns an exit code. */
int target_product_file(const model_db *db, const char *path, gpu_product *out);
/* Loads the database only (for commands that list models). */
int target_load_db(const char *models_dir, model_db *db);

#endif
