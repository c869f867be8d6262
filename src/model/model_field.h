/* model_field: one key of a model file or of --machine, and how its text
 * becomes a value. Shared by the INI reader (model_ini.c) and the inline
 * --machine form (model.c); internal to model/. */
#ifndef GPULINT_MODEL_FIELD_H
#define GPULINT_MODEL_FIELD_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

typedef enum model_field_type {
    F_INT,      /* int, >= 0 */
    F_BYTES,    /* int64_t, "48K" */
    F_SI,       /* double, "3.35T" */
    F_MHZ,      /* double, plain number */
    F_STRING,   /* char[MODEL_NAME_MAX] */
    F_DIM3,     /* int[3], "1024 1024 64" */
    F_CC,       /* "9.0" -> cc_major, cc_minor */
    F_CARVEOUT, /* "0 8 16 ... 228" KiB -> carveouts */
    F_GPCS,     /* "18 18 16 ... 2" SMs -> gpu_product n_gpcs, gpc_sms */
    F_MERGE,    /* "1 1.05 ..." -> gpu_product n_store_merge, l1_store_merge */
} model_field_type;

typedef struct model_field {
    const char *section;
    const char *key;
    model_field_type type;
    size_t offset;
    bool optional; /* may be left out (measured values: only verify writes them) */
} model_field;

/* Parse v into base + f->offset. On failure writes a message naming the key. */
bool model_field_parse(const model_field *f, const char *v, void *base, char *msg, size_t n);
/* Fill err with a whole-file message (fmt takes one long long) and return false. */
bool model_field_fail(model_error *err, const char *fmt, long long v);

#endif
