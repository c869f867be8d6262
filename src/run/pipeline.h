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

#include "cusrc/cusrc.h"
#include "report/kernel_roofline.h"
#include "run/report.h"
#include "target/target.h"

typedef struct pipeline_opts {
    target_request target;
    const char *nvcc;
    const char *ptxas_log; /* FILE or "-" */
    const char *sass;      /* --sass FILE: a SASS listing instead of cuobjdump's */
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
    /* --run-args: the program's own arguments, argv[1]... (run_args NULL: not
     * given; main's reads of argv stay run-time values). */
    char **run_args;
    int n_run_args;
    bool base_clock; /* --clock base: predicted times at the base clock */
    int jobs;        /* -j: files at once (default: one per core) */
    bool seen_jobs;
    int timeout_s; /* --timeout: seconds per file, 0 = none */
    bool seen_timeout;
    const char *shard; /* --shard K/N */
    bool no_cache;     /* --no-cache: neither read nor write run/unitcache */
    /* Per file, the nvcc arguments of its compile_commands.json entry
     * (pipeline_run fills them from -p; NULL = none). */
    char ***file_args;
    int *n_file_args;
    /* Calls the project's host units make into its CUDA units (run/xcalls;
     * NULL = none), and their text, which the cache key holds. */
    const struct cusrc_xcalls *calls;
    const char *calls_text;
    /* Every unit of the program, the shard's or not (compile_commands.json's
     * entries, or the files given): where a declared function may be
     * defined (cusrc_sibling). NULL: the files alone. */
    const struct compdb *db;
} pipeline_opts;

/* --timeout's default: generous for a heavy template file, still an end. */
#define PIPELINE_TIMEOUT_DEFAULT 600

/* Returns an exit code; on failure the error line was printed. When some
 * files of several fail, the others' results are still in r and the code
 * is that of the first file that failed. */
int pipeline_run(const pipeline_opts *o, report *r);
#endif
