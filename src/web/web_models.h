/* web_models: the models/ directory compiled into the program, for builds
 * with no file system (the WebAssembly page). gen_models.c writes the tables
 * at build time from the same INI files; web_models_load fills them in
 * through model.c's filler, so each value is parsed and checked exactly as
 * the command line parses it. */
#ifndef GPULINT_WEB_MODELS_H
#define GPULINT_WEB_MODELS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

typedef struct web_model_entry {
    const char *section, *key, *value;
} web_model_entry;

typedef struct web_model_file {
    const char *path; /* "arch/sm_90.ini", for messages */
    bool product;     /* gpu/ rather than arch/ */
    const web_model_entry *entries;
    size_t n_entries;
} web_model_file;

/* Written by gen_models.c. */
extern const web_model_file web_model_files[];
extern const size_t web_n_model_files;

#define WEB_MAX_MODELS 128

typedef struct web_models {
    gpu_arch archs[WEB_MAX_MODELS];
    size_t n_archs;
    gpu_product products[WEB_MAX_MODELS];
    size_t n_products;
} web_models;

/* Fill m from the compiled tables; false with the file and reason in err. */
bool web_models_load(web_models *m, char *err, size_t n);
const gpu_arch *web_models_arch(const web_models *m, const char *name);
const gpu_product *web_models_product(const web_models *m, const char *id);

#endif
