/* models_list: the bundled models as a table or JSON (used by `models` and by
 * `devices` when no GPU is present). */
#ifndef GPULINT_MODELS_LIST_H
#define GPULINT_MODELS_LIST_H

#include <jansson.h>
#include <stdio.h>

#include "model/model_load.h"

void models_list_text(FILE *f, const model_db *db);
json_t *models_list_json(const model_db *db);

#endif
