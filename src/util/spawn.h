/* spawn: run a program without a shell and capture what it prints, its
 * standard output and standard error apart, so that several can run at
 * once (start them all, then finish each). */
#ifndef GPULINT_SPAWN_H
#define GPULINT_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct spawn_job {
    pid_t pid;
    int out_fd, err_fd;
} spawn_job;

typedef struct spawn_result {
    char *out; /* standard output, NUL-terminated (caller frees) */
    size_t out_len;
    char *err; /* standard error */
    size_t err_len;
    int status; /* exit status, or 128 + signal */
    bool signaled;
    int signal;
} spawn_result;

/* argv[0] is the program's path; envp NULL = this process's environment;
 * stdin is /dev/null. */
bool spawn_start(const char *const *argv, char *const *envp, spawn_job *job, char *err,
                 size_t errlen);
/* Reads both streams to their end and waits. */
bool spawn_finish(spawn_job *job, spawn_result *res);
void spawn_result_free(spawn_result *res);

/* Both at once. */
bool spawn_run(const char *const *argv, char *const *envp, spawn_result *res, char *err,
               size_t errlen);

#endif
