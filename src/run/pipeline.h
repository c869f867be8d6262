/* pipeline: the work behind `gpulint FILE.cu` and `gpulint check`: every
 * file is compiled (or its ptxas log read), parsed and analysed in a worker
 * process of its own (run/pool, run/unit), several at once, and the results
 * are folded into one report in file order: kernels with their occupancy per
 * (arch, kernel), the source analyses' outputs and findings. Shared so both
 * commands see the same data. */
#ifndef GPULINT_PIPELINE_H
#define GPULINT_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/kernel_eval.h"
#include "cli/target.h"
#include "cusrc/cusrc.h"
#include "input/ptxas.h"
#include "report/findings.h"
#include "report/kernel_report.h"
#include "report/kernel_roofline.h"
#include "report/source_report.h"

struct report;

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
    int carveout_percent;         /* -1 = default */
    bool quiet_nvcc;              /* do not echo nvcc's warnings */
    bool no_source;               /* skip the libclang front end */
    bool allow_no_kernels;        /* files without kernels are fine (check on host-only files) */
    const char *compdb;           /* -p DIR: compile_commands.json */
    const char *from_dir;         /* --from DIR: the records of a build under `gpulint wrap` */
    const kroof_defines *defines; /* --define NAME=VALUE for the source analyses */
    int jobs;                     /* -j: files at once (default: one per core) */
    bool seen_jobs;
    int timeout_s; /* --timeout: seconds per file, 0 = none */
    bool seen_timeout;
    const char *shard; /* --shard K/N */
    bool no_cache;     /* --no-cache: neither read nor write run/unitcache */
    /* Per file, the nvcc arguments of its compile_commands.json entry
     * (pipeline_run fills them from -p; NULL = none). */
    char ***file_args;
    int *n_file_args;
} pipeline_opts;

/* --timeout's default: generous for a heavy template file, still an end. */
#define PIPELINE_TIMEOUT_DEFAULT 600

#define PIPELINE_RUN_OPTIONS(p)                                                                    \
    {"jobs",                                                                                       \
     'j',                                                                                          \
     OPT_INT,                                                                                      \
     &(p)->jobs,                                                                                   \
     &(p)->seen_jobs,                                                                              \
     "N",                                                                                          \
     "files analysed at once (default: one per core)"},                                            \
        {"timeout",                                                                                \
         0,                                                                                        \
         OPT_INT,                                                                                  \
         &(p)->timeout_s,                                                                          \
         &(p)->seen_timeout,                                                                       \
         "SEC",                                                                                    \
         "give up on a file after SEC seconds (default 600; 0 = never)"},                          \
        {"shard",                                                                                  \
         0,                                                                                        \
         OPT_STRING,                                                                               \
         &(p)->shard,                                                                              \
         NULL,                                                                                     \
         "K/N",                                                                                    \
         "only the files of shard K of N (1 <= K <= N; the same split on every machine)"},         \
    {                                                                                              \
        "no-cache", 0, OPT_FLAG, &(p)->no_cache, NULL, NULL,                                       \
            "neither use nor keep cached results of unchanged files ($GPULINT_CACHE_DIR)"          \
    }

typedef struct report_kernel {
    ptxas_kernel ptx; /* copied; name owned */
    char *demangled;
    const char *file;     /* source file (NULL for a log without source) */
    char *def_file;       /* the header that defines it, NULL = file */
    int line, column;     /* 0 when unknown */
    const gpu_arch *arch; /* NULL when the log's arch has no model */
    kernel_eval eval;
    int64_t declared_smem; /* the source's static __shared__ bytes; -1 unknown */
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
    pipeline_opts *run_opts;
    /* Every source file read, with the XXH3-128 of its text: a report says
     * which sources it describes (verify --predictions checks them). */
    struct report_file {
        char *file;
        char hash[33];
    } * files;
    size_t n_files;
} report;

/* Returns an exit code; on failure the error line was printed. When some
 * files of several fail, the others' results are still in r and the code
 * is that of the first file that failed. */
int pipeline_run(const pipeline_opts *o, report *r);
void report_free(report *r);
/* The JSON contract's envelope: tool, version, targets and kernels (the
 * objects kernel_report_json makes, in report order). */
json_t *report_json(const report *r);
kernel_row report_row(const report_kernel *k);

#endif
