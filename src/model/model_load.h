/* model_load: find the models directory, load every architecture and
 * product file in it, and look models up by the names users type. */
#ifndef GPULINT_MODEL_LOAD_H
#define GPULINT_MODEL_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

typedef struct model_db {
    char *dir;
    gpu_arch *archs;
    size_t n_archs;
    gpu_product *products;
    size_t n_products;
} model_db;

typedef struct model_load_error {
    char path[8192]; /* file at fault ("" when the directory itself is) */
    model_error err;
} model_load_error;

/* $GPULINT_MODELS, then <exe>/../share/gpulint/models, then the source
 * tree's models/ (for a build directory), then the install prefix. */
const char *model_default_dir(void);

/* Load every .ini file under <dir>/arch and <dir>/gpu. Products must name
 * a known arch. */
bool model_db_load(const char *dir, model_db *db, model_load_error *err);
void model_db_free(model_db *db);

/* "sm_90", "90", "9.0", "sm_90a", "compute_90", "sm_100f" -> the cc's model. */
const gpu_arch *model_find_arch(const model_db *db, const char *name);
/* Product by id ("h100-sxm"), case-insensitive. */
const gpu_product *model_find_product(const model_db *db, const char *id);
/* The bundled product a live device is (same arch and SM count, the name
 * preferred): its per-SM throughput and datasheet figures, which
 * cudaDeviceProp does not give. NULL when none matches. */
const gpu_product *model_find_twin(const model_db *db, const char *name, const char *arch,
                                   int sm_count);
/* The twin with the device's own SM count, clocks, bus and L2: the
 * ceilings of this card at the clocks it reports. */
gpu_product model_twin_at_device(const gpu_product *twin, const gpu_product *device);
/* Arch model for a cc (major, minor). */
const gpu_arch *model_find_cc(const model_db *db, int major, int minor);
/* Load one product file (--gpu FILE, e.g. from `gpulint verify --save-model`). */
bool model_load_product_file(const char *path, gpu_product *out, model_load_error *err);
/* Load one arch file (--machine FILE). */
bool model_load_arch_file(const char *path, gpu_arch *out, model_load_error *err);
/* Normalise a user's arch spelling to "sm_XY" (suffix a/f dropped) into buf. */
bool model_normalise_arch(const char *name, char *buf, size_t n);

#endif
