/* pipeline: the work behind `gpulint FILE.cu` and `gpulint check`: compile
 * (or read a ptxas log), parse, tie kernels to source lines, and evaluate
 * occupancy per (arch, kernel). Shared so both commands see the same data. */
#ifndef GPULINT_PIPELINE_H
#define GPULINT_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/kernel_eval.h"
#include "cli/target.h"
#include "input/cusrc.h"
#include "input/ptxas.h"
#include "report/findings.h"
#include "report/kernel_report.h"

struct report;
struct source_unit;

typedef struct pipeline_opts {
    target_opts target;
    const char *nvcc;
    const char *ptxas_log; /* FILE or "-" */
    char **files;
    int n_files;
    char **extra; /* after "--" */
    int n_extra;
    bool has_block;
    int block[3];
    int64_t dynamic_smem;
    int carveout_percent;  /* -1 = default */
    bool quiet_nvcc;       /* do not echo nvcc's warnings */
    bool no_source;        /* skip the libclang front end */
    bool allow_no_kernels; /* files without kernels are fine (check on host-only files) */
    const char *compdb;    /* -p DIR: compile_commands.json */
    /* Called once a file's source is parsed, while nvcc still compiles it,
     * so that work needing only the source overlaps the compile. */
    void (*on_source)(struct report *r, struct source_unit *su, void *ctx);
    void *on_source_ctx;
} pipeline_opts;

typedef struct source_unit {
    const char *file;
    bool parsed;
    bool early; /* on_source did its part */
    cusrc_unit unit;
    char *error; /* why the front end could not read the file */
} source_unit;

typedef struct report_kernel {
    ptxas_kernel ptx; /* copied; name owned */
    char *demangled;
    const char *file;     /* source file (NULL for a log without source) */
    int line, column;     /* 0 when unknown */
    const gpu_arch *arch; /* NULL when the log's arch has no model */
    kernel_eval eval;
} report_kernel;

typedef struct report {
    model_db db;
    target targets[TARGET_MAX];
    int n_targets;
    report_kernel *kernels;
    size_t n_kernels;
    finding_ignores ignores; /* `gpulint: ignore` comments of the sources */
    source_unit *sources;    /* one per source file, when the front end ran */
    size_t n_sources;
    /* Every source file read, with the XXH3-128 of its text: a report says
     * which sources it describes (verify --predictions checks them). */
    struct report_file {
        char *file;
        char hash[33];
    } * files;
    size_t n_files;
} report;

/* Returns an exit code; on failure the error line was printed. */
int pipeline_run(const pipeline_opts *o, report *r);
void report_free(report *r);
/* The JSON contract's envelope: tool, version, targets and kernels (the
 * objects kernel_report_json makes, in report order). */
json_t *report_json(const report *r);
kernel_row report_row(const report_kernel *k);

#endif
