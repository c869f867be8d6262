/* entry_report: where one call of a host function's GPU time goes
 * (--entry NAME; see entry_report.c). */
#ifndef GPULINT_ENTRY_REPORT_H
#define GPULINT_ENTRY_REPORT_H

#include <jansson.h>

#include "util/sbuf.h"

/* From the report's launches (object: kernel -> [launch], each with
 * "paths" and "time"): {"entry", "arch", "launches": [{file, line,
 * kernel, arguments, launches (null: unknown, with launches_unknown),
 * each_s (null, with time_unknown), total_s, share}], sorted by total,
 * "total_s" (of the known totals), "complete"}. "launches" is empty when
 * no launch is reached from entry. */
json_t *entry_json(const json_t *launches, const char *entry);
void entry_text(sbuf *out, const json_t *entry);

#endif
