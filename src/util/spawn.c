/* spawn: posix_spawn with both output streams captured (see spawn.h). */
#include "util/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/sbuf.h"

extern char **environ;

bool spawn_start(const char *const *argv, char *const *envp, spawn_job *job, char *err,
                 size_t errlen)
{
    int out[2], errp[2];
    job->pid = -1;
    job->out_fd = job->err_fd = -1;
    if (pipe2(out, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return false;
    }
    if (pipe2(errp, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        close(out[0]);
        close(out[1]);
        return false;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
    int rc = posix_spawn(&job->pid, argv[0], &fa, NULL, (char *const *)argv, envp ? envp : environ);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    close(errp[1]);
    if (rc != 0) {
        snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(rc));
        close(out[0]);
        close(errp[0]);
        job->pid = -1;
        return false;
    }
    job->out_fd = out[0];
    job->err_fd = errp[0];
    return true;
}

bool spawn_finish(spawn_job *job, spawn_result *res)
{
    memset(res, 0, sizeof *res);
    sbuf bufs[2];
    sbuf_init(&bufs[0]);
    sbuf_init(&bufs[1]);
    struct pollfd fds[2] = {{.fd = job->out_fd, .events = POLLIN},
                            {.fd = job->err_fd, .events = POLLIN}};
    int open_fds = 2;
    char chunk[16384];
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t r = read(fds[i].fd, chunk, sizeof chunk);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            } else {
                sbuf_addn(&bufs[i], chunk, (size_t)r);
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    int status = 0;
    bool waited = true;
    while (waitpid(job->pid, &status, 0) < 0)
        if (errno != EINTR) {
            waited = false;
            break;
        }
    if (WIFEXITED(status)) {
        res->status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        res->signaled = true;
        res->signal = WTERMSIG(status);
        res->status = 128 + res->signal;
    }
    res->out_len = bufs[0].len;
    res->err_len = bufs[1].len;
    if (!bufs[0].data)
        sbuf_add(&bufs[0], "");
    if (!bufs[1].data)
        sbuf_add(&bufs[1], "");
    res->out = sbuf_take(&bufs[0]);
    res->err = sbuf_take(&bufs[1]);
    return waited;
}

void spawn_result_free(spawn_result *res)
{
    free(res->out);
    free(res->err);
    memset(res, 0, sizeof *res);
}

bool spawn_run(const char *const *argv, char *const *envp, spawn_result *res, char *err,
               size_t errlen)
{
    spawn_job job;
    if (!spawn_start(argv, envp, &job, err, errlen))
        return false;
    if (!spawn_finish(&job, res)) {
        snprintf(err, errlen, "lost track of %s", argv[0]);
        return false;
    }
    return true;
}
