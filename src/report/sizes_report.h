/* sizes_report: the constants and the names without a value that size a
 * program's launches, once per name (see sizes_report.c). */
#ifndef GPULINT_SIZES_REPORT_H
#define GPULINT_SIZES_REPORT_H

#include <jansson.h>

#include "util/sbuf.h"

/* From the report's launches (object: kernel -> [launch]) and roofline
 * entries: {"found": [{name, value, function, file, line}], "unknown":
 * [{name, origin?, define, launches: [{file, line, kernel, launches}]}]}. */
json_t *sizes_json(const json_t *launches, const json_t *roofline);
void sizes_text(sbuf *out, const json_t *sizes);
/* The file `--defines` reads, one `NAME=` line for each name to fill in. */
void sizes_template(sbuf *out, const json_t *sizes, const char *const *files, int n_files);

#endif
