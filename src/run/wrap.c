/* wrap: run the build's nvcc command, keep its ptxas -v report aside. */
#include "run/wrap.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/diag.h"
#include "util/exitcode.h"
#include "util/fileio.h"
#include "input/wraprec.h"
#include "util/sbuf.h"

#define STATUS_CANNOT_RUN 127 /* as sh reports a command it cannot run */

static char *absolute(const char *cwd, const char *path)
{
    sbuf b;
    sbuf_init(&b);
    if (path[0] == '/')
        sbuf_addf(&b, "%s", path);
    else {
        while (path[0] == '.' && path[1] == '/')
            path += 2;
        sbuf_addf(&b, "%s/%s", strcmp(cwd, "/") ? cwd : "", path);
    }
    return sbuf_take(&b);
}

/* nvcc's own name for an output not given with -o: the input's stem with
 * .o in the working directory for -c/-dc, a.out otherwise. */
static char *default_output(const char *cwd, const wraprec_cmd *cmd)
{
    sbuf b;
    sbuf_init(&b);
    if (cmd->compile_only && cmd->n_sources == 1) {
        const char *src = cmd->sources[0];
        const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
        const char *dot = strrchr(base, '.');
        sbuf_addf(&b, "%s/%.*s.o", cwd, (int)(dot ? dot - base : (long)strlen(base)), base);
    } else
        sbuf_addf(&b, "%s/a.out", cwd);
    return sbuf_take(&b);
}

static bool make_dirs(const char *dir)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return false;
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0755) != 0 && errno != EEXIST)
                return false;
            *p = '/';
        }
    return mkdir(path, 0755) == 0 || errno == EEXIST;
}

/* The record after the command: written when it succeeded and ptxas
 * reported, removed when it failed (the object it described is gone). */
static void keep_record(const wraprec_cmd *cmd, const char *log, bool ok, const char *dir)
{
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return;
    wraprec w = {.directory = xstrdup(cwd)};
    w.sources = xcalloc((size_t)cmd->n_sources + 1, sizeof *w.sources);
    for (int i = 0; i < cmd->n_sources; i++)
        w.sources[w.n_sources++] = absolute(cwd, cmd->sources[i]);
    w.output = cmd->output ? absolute(cwd, cmd->output) : default_output(cwd, cmd);
    w.log = xstrdup(log);
    char *abs_dir = dir ? absolute(cwd, dir) : NULL;
    char *path = wraprec_path_for(&w, abs_dir);
    char err[PATH_MAX + 128];
    if (!ok || !log[0])
        unlink(path);
    else if (abs_dir && !make_dirs(abs_dir))
        diag_warn("wrap: %s: %s; no record kept for %s", abs_dir, strerror(errno), w.output);
    else if (!wraprec_write(path, &w, err, sizeof err))
        diag_warn("wrap: no record kept: %s", err);
    free(path);
    free(abs_dir);
    wraprec_free(&w);
}

/* Lines of the child's standard error, forwarded as they come except the
 * ptxas report that wrap itself asked for. */
typedef struct relay {
    sbuf pending; /* a line not yet ended */
    sbuf log;
    bool hide;
} relay;

static void relay_line(relay *r, const char *line, size_t n)
{
    if (wraprec_is_log_line(line, n)) {
        sbuf_addn(&r->log, line, n);
        if (r->hide)
            return;
    }
    (void)fileio_write_all(STDERR_FILENO, line, n);
}

static void relay_bytes(relay *r, const char *p, size_t n)
{
    sbuf_addn(&r->pending, p, n);
    const char *s = sbuf_str(&r->pending);
    size_t len = r->pending.len, start = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\n') {
            relay_line(r, s + start, i + 1 - start);
            start = i + 1;
        }
    if (start) {
        memmove(r->pending.data, s + start, len - start);
        r->pending.len = len - start;
        r->pending.data[r->pending.len] = '\0';
    }
}

int wrap_run(char *const *argv, int argc, const char *record_dir)
{
    wraprec_cmd cmd;
    wraprec_read_command(argv, argc, &cmd);
    if (cmd.nvcc < 0) {
        /* Not an nvcc command (a C++ compile, a link): nothing to add. */
        execvp(argv[0], argv);
        diag_error(STATUS_CANNOT_RUN, "wrap: cannot run '%s': %s", argv[0], strerror(errno));
        return STATUS_CANNOT_RUN;
    }
    bool add = !cmd.verbose;
    char **run = xcalloc((size_t)argc + 3, sizeof *run);
    memcpy(run, argv, (size_t)argc * sizeof *run);
    if (add) {
        run[argc] = "-Xptxas";
        run[argc + 1] = "-v";
    }
    int fds[2];
    if (pipe(fds) != 0) {
        free(run);
        wraprec_cmd_free(&cmd);
        return diag_error(STATUS_CANNOT_RUN, "wrap: pipe: %s", strerror(errno));
    }
    /* As system() does: the terminal's Ctrl-C reaches the compiler, and
     * wrap lives to pass on how it ended. */
    struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    pid_t pid = fork();
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        close(fds[1]);
        execvp(run[0], run);
        fprintf(stderr, "gpulint: error: wrap: cannot run '%s': %s\n", run[0], strerror(errno));
        _exit(STATUS_CANNOT_RUN);
    }
    close(fds[1]);
    int status = 0;
    if (pid < 0) {
        int saved = errno;
        close(fds[0]);
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        free(run);
        wraprec_cmd_free(&cmd);
        return diag_error(STATUS_CANNOT_RUN, "wrap: fork: %s", strerror(saved));
    }
    relay r = {.hide = add};
    sbuf_init(&r.pending);
    sbuf_init(&r.log);
    char buf[65536];
    for (;;) {
        ssize_t k = read(fds[0], buf, sizeof buf);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        relay_bytes(&r, buf, (size_t)k);
    }
    if (r.pending.len)
        relay_line(&r, sbuf_str(&r.pending), r.pending.len);
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == STATUS_CANNOT_RUN))
        keep_record(&cmd, sbuf_str(&r.log), ok, record_dir);
    sbuf_free(&r.pending);
    sbuf_free(&r.log);
    free(run);
    wraprec_cmd_free(&cmd);
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        signal(sig, SIG_DFL);
        raise(sig);
        return 128 + sig;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : STATUS_CANNOT_RUN;
}
