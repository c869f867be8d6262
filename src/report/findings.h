/* findings: diagnostics with a check name and a source location, the one
 * currency every analysis reports in. Rendered as gcc-style lines, JSON
 * objects or SARIF 2.1.0; filtered by --checks and by
 * `// gpulint: ignore <check>` comments. Pure. */
#ifndef GPULINT_FINDINGS_H
#define GPULINT_FINDINGS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/sbuf.h"

typedef enum finding_severity { SEV_NOTE, SEV_WARNING, SEV_ERROR } finding_severity;

typedef struct finding {
    char *check; /* "gpulint-bank-conflict" */
    finding_severity severity;
    char *file;
    int line, column; /* 0 = unknown */
    char *message;
    json_t *data; /* check-specific numbers (owned), may be NULL */
} finding;

typedef struct finding_list {
    finding *items;
    size_t n, cap;
} finding_list;

void findings_init(finding_list *l);
void findings_free(finding_list *l);
/* Takes ownership of data. */
void findings_add(finding_list *l, const char *check, finding_severity sev, const char *file,
                  int line, int column, json_t *data, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));

/* --checks: comma-separated globs, "-" prefix disables, applied in order
 * (clang-tidy style): "-*,gpulint-bank-conflict" keeps only one check. */
bool findings_check_enabled(const char *spec, const char *check);
/* A `gpulint: ignore` comment on the finding's line (or the line above)
 * names this check, a glob matching it, or nothing (= all checks). */
typedef struct finding_ignore {
    char *file;
    int line;
    char *checks; /* "" = all */
} finding_ignore;
typedef struct finding_ignores {
    finding_ignore *items;
    size_t n, cap;
} finding_ignores;
void findings_ignore_add(finding_ignores *ig, const char *file, int line, const char *checks,
                         size_t n);
void findings_scan_ignores(const char *file, const char *text, size_t len, finding_ignores *out);
void findings_ignores_free(finding_ignores *ig);
/* Drops disabled and suppressed findings; returns how many were dropped. */
size_t findings_filter(finding_list *l, const char *checks_spec, const finding_ignores *ig);
/* Stable order: file, line, column. */
void findings_sort(finding_list *l);
/* After findings_sort: drops a finding that repeats the one before it word
 * for word (a header's kernel seen through two instantiations). */
void findings_dedupe(finding_list *l);

void findings_text(sbuf *out, const finding_list *l, bool color);
json_t *findings_json(const finding_list *l);
/* run_properties (taken, may be NULL): the run's property bag, where the
 * per-launch roofline entries travel beside the results. */
json_t *findings_sarif(const finding_list *l, const char *tool_version, json_t *run_properties);
const char *finding_severity_name(finding_severity s);

/* A lossless JSON form, for gpulint's own records (worker results, the
 * cache); findings_from_wire appends to l and returns false on anything
 * findings_wire cannot have written. */
json_t *findings_wire(const finding_list *l);
bool findings_from_wire(const json_t *arr, finding_list *l);

#endif
