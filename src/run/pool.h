/* pool: runs a list of jobs in forked worker processes, N at a time. A
 * crash or a hang inside one job (libclang, nvcc) ends that worker, never
 * the run: the parent sees how it ended and may run the job again another
 * way. Results come back in job order, so what a run prints never depends
 * on scheduling. Ctrl-C or SIGTERM kills every worker with its children,
 * removes the run's temporary files and ends the process by that signal. */
#ifndef GPULINT_POOL_H
#define GPULINT_POOL_H

#include <stdbool.h>
#include <stddef.h>

typedef enum pool_end {
    POOL_EXITED,    /* the worker returned; status is its exit status */
    POOL_CRASHED,   /* killed by a signal of its own (signal) */
    POOL_TIMED_OUT, /* ran past timeout_s and was killed */
} pool_end;

typedef struct pool_outcome {
    pool_end end;
    int status;
    int signal;
    char phase; /* the last pool_phase() the worker reported, 0 = none */
    double seconds;
    char *result; /* what the worker wrote to its result fd (NUL-terminated) */
    size_t result_len;
    char *output; /* its stdout and stderr, captured */
    size_t output_len;
} pool_outcome;

typedef enum pool_verdict { POOL_OK, POOL_FAILED, POOL_RETRY } pool_verdict;

typedef struct pool_spec {
    size_t n_jobs;
    int parallel;     /* workers at once, >= 1 */
    double timeout_s; /* per attempt of a job; 0 = none */
    bool progress;    /* a progress line on stderr (a terminal only) */
    void *ctx;
    /* In the worker: do the job, write its result to result_fd; returns the
     * exit status. attempt counts from 0. */
    int (*work)(void *ctx, size_t job, int attempt, int result_fd);
    /* In the parent, as soon as an attempt ends (any order): POOL_RETRY runs
     * the job again (ctx says how; work sees attempt + 1). */
    pool_verdict (*ended)(void *ctx, size_t job, int attempt, const pool_outcome *o);
    /* In the parent, in job order, once per job with its last outcome. */
    void (*deliver)(void *ctx, size_t job, pool_outcome *o);
} pool_spec;

/* Returns false with a message when the pool cannot run at all (no
 * temporary directory, fork failed before any job ran). */
bool pool_run(const pool_spec *spec, char *err, size_t errlen);

/* In a worker: note what it is doing now ('c' compiling, 's' in libclang,
 * ...), so the parent can say where it crashed or hung. No-op elsewhere. */
void pool_phase(char phase);
/* True inside a pool worker. */
bool pool_in_worker(void);
/* CPUs this process may run on (its affinity mask, as taskset or a
 * container's cpuset sets it), at least 1. */
int pool_cores(void);

#endif
