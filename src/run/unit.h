/* unit: one translation unit's whole analysis, run inside a pool worker:
 * nvcc compiles the staged file while libclang reads the source and the
 * source-only analyses run; then the kernels are evaluated, tied to their
 * lines, and the launch checks run. The outcome travels to the parent as a
 * JSON record (unit_merge folds it into the run's report), so a crash in
 * libclang costs one worker, not the report. Internal to run/. */
#ifndef GPULINT_UNIT_H
#define GPULINT_UNIT_H

#include <stdbool.h>
#include <stddef.h>

#include "input/srcscan.h"
#include "run/pipeline.h"

/* What pool_phase() reports while a unit runs. */
enum {
    UNIT_PHASE_READ = 'r',     /* reading and staging the source */
    UNIT_PHASE_LIBCLANG = 's', /* libclang parsing */
    UNIT_PHASE_ANALYSE = 'a',  /* gpulint's source analyses */
    UNIT_PHASE_NVCC = 'w',     /* waiting for nvcc */
    UNIT_PHASE_KERNELS = 'k',  /* evaluating the compiled kernels */
};

typedef struct unit_env {
    const pipeline_opts *o;
    const report *r; /* targets and models (the worker's copy) */
    const char *nvcc;
    const char *const *archs;
    int n_archs;
    const char *log; /* --ptxas-log: its text; NULL = compile */
    size_t log_len;
    const char *sass; /* --sass: the listing's text; NULL = run cuobjdump if there is one */
    size_t sass_len;
    const char *cache_dir;   /* run/unitcache's directory, NULL = no cache */
    const char *compile_dir; /* where compiles are kept (run/compiled), NULL = not */
    const char *run_key;     /* what every file's result depends on (hex) */
    const char *compile_key; /* what every file's compile depends on (hex) */
} unit_env;

/* In the worker: analyses file (NULL: a log alone), writes the record to
 * fd and returns the unit's exit status (errors were printed).
 * file_args: its compile_commands.json arguments (before the user's "--"
 * arguments). skip_source: why libclang is not run this time, NULL = run it. */
int unit_run(const unit_env *env, const char *file, char *const *file_args, int n_file_args,
             const char *skip_source, int fd);

/* In the parent: folds a record into r (kernels, lines, findings, source
 * outputs, ignores, file hashes). False when the record is malformed. */
bool unit_merge(report *r, const pipeline_opts *o, const char *file, const char *record,
                size_t len);

/* Kernels of a ptxas log into r, tied to their lines through scan (NULL =
 * no lines); warn = print the log's warnings. */
void unit_take_log(report *r, const pipeline_opts *o, const char *log, size_t len, const char *file,
                   const srcscan_result *scan, bool warn);

#endif
