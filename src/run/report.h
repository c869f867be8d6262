/* report: what a run over files found, in file order: every (arch, kernel)
 * with its evaluation, the source analyses' outputs and their findings,
 * and the files read; the JSON contract's envelope of it. Filled by
 * run/pipeline and run/unit, read by the commands. */
#ifndef GPULINT_RUN_REPORT_H
#define GPULINT_RUN_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis/occupancy/kernel_eval.h"
#include "input/ptxas.h"
#include "model/model_load.h"
#include "report/findings.h"
#include "report/kernel_report.h"
#include "report/source_report.h"
#include "target/target.h"

struct project;
struct pipeline_opts;

typedef struct report_kernel {
    ptxas_kernel ptx; /* copied; name owned */
    char *demangled;
    const char *file;     /* source file (NULL for a log without source) */
    char *def_file;       /* the header that defines it, NULL = file */
    int line, column;     /* 0 when unknown */
    const gpu_arch *arch; /* NULL when the log's arch has no model */
    kernel_eval eval;
    int64_t declared_smem; /* the source's static __shared__ bytes; -1 unknown */
    json_t *code;          /* report/code_report's object; NULL = no PTX or SASS read */
} report_kernel;

typedef struct report {
    model_db db;
    target targets[TARGET_MAX];
    int n_targets;
    report_kernel *kernels;
    size_t n_kernels;
    finding_ignores ignores; /* `gpulint: ignore` comments of the sources */
    source_outputs src;      /* the source analyses of every file */
    finding_list findings;   /* theirs (the kernels' own are added by the commands) */
    size_t n_failed;         /* files that gave no result (their errors were printed) */
    size_t n_units;          /* files the run covered (after -p and --shard) */
    /* The run's own file list and options (the kernels' file names point
     * into them). */
    struct project *project;
    struct pipeline_opts *run_opts;
    /* Every source file read, with the XXH3-128 of its text: a report says
     * which sources it describes (verify --predictions checks them). */
    struct report_file {
        char *file;
        char hash[33];
    } * files;
    size_t n_files;
} report;

void report_free(report *r);
/* The JSON contract's envelope: tool, version, targets and kernels (the
 * objects kernel_report_json makes, in report order). */
json_t *report_json(const report *r);
kernel_row report_row(const report_kernel *k);

#endif
