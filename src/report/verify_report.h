/* verify_report: what `gpulint verify` prints: a heading (device, build,
 * predictions, counters), the measured ceilings, one table per check with
 * predicted, measured, method, tolerance and verdict per row, the ladders,
 * and a one-line summary; or the same as one JSON object (the contract in
 * the README); and the device as a product model whose ceilings are the
 * measured ones. */
#ifndef GPULINT_VERIFY_REPORT_H
#define GPULINT_VERIFY_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "verify/verify.h"

void vrep_text(FILE *f, const verify_result *r, bool ladders_only);
json_t *vrep_json(const verify_result *r);
/* The inverse: a report recorded with --json read back, to render (text,
 * chart, model) on a machine other than the GPU's. False with err when the
 * object is not a verify report. */
bool vrep_from_json(const json_t *j, verify_result *r, char *err, size_t errlen);
/* The one-line summary (also printed last by vrep_text). */
void vrep_summary(FILE *f, const verify_result *r);
/* A product INI (models/gpu format) with a [measured] section. */
bool vrep_save_model(const verify_result *r, const char *models_dir, const char *path, char *err,
                     size_t errlen);
/* Spec and measured roofs with the roofline rows as points. */
bool vrep_plot(const verify_result *r, const char *path, char *err, size_t errlen);

#endif
