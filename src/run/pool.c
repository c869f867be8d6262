/* pool: forked workers, a poll loop over their phase pipes, in-order delivery. */
#include "run/pool.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "input/nvcc_stage.h"
#include "util/fsutil.h"
#include "util/sbuf.h"

static int phase_out = -1;
static bool worker_side;

void pool_phase(char phase)
{
    if (phase_out >= 0) {
        ssize_t r = write(phase_out, &phase, 1);
        (void)r;
    }
}

bool pool_in_worker(void)
{
    return worker_side;
}

typedef struct slot {
    pid_t pid; /* 0 = free */
    size_t job;
    int attempt;
    int phase_in;
    char phase;
    double start;
} slot;

typedef struct pool_state {
    const pool_spec *spec;
    char *dir;
    slot *slots;
    size_t *todo; /* jobs waiting to start, next first */
    size_t n_todo;
    int *attempts;
    pool_outcome *done; /* accepted outcomes, by job */
    bool *ready;
    /* Here and not a local: a worker forked inside the loop exits with it
     * live, and a leak checker finds it only through ps on the stack. */
    struct pollfd *pfd;
    size_t delivered, finished, failed;
    double t0;
    bool progress_shown;
} pool_state;

static volatile sig_atomic_t stop_signal;
static int wake[2] = {-1, -1};

static void on_stop(int sig)
{
    int saved = errno;
    if (!stop_signal)
        stop_signal = sig;
    if (wake[1] >= 0) {
        ssize_t r = write(wake[1], "x", 1);
        (void)r;
    }
    errno = saved;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *job_path(const pool_state *ps, size_t job, const char *ext)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s/%zu.%s", ps->dir, job, ext);
    return sbuf_take(&b);
}

static char *slurp(const char *path, size_t *len)
{
    sbuf b;
    sbuf_init(&b);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        char buf[65536];
        ssize_t r;
        while ((r = read(fd, buf, sizeof buf)) > 0 || (r < 0 && errno == EINTR))
            if (r > 0)
                sbuf_addn(&b, buf, (size_t)r);
        close(fd);
        unlink(path);
    }
    *len = b.len;
    return sbuf_take(&b);
}

static void progress_clear(pool_state *ps)
{
    if (ps->progress_shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        ps->progress_shown = false;
    }
}

static void fmt_clock(char *out, size_t n, double s)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(out, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(out, n, "%ld:%02ld", t / 60, t % 60);
}

static void progress_show(pool_state *ps)
{
    if (!ps->spec->progress || ps->spec->n_jobs < 2)
        return;
    double el = now() - ps->t0;
    char e[32], eta[32] = "";
    fmt_clock(e, sizeof e, el);
    if (ps->finished > 0 && ps->finished < ps->spec->n_jobs) {
        char t[24];
        fmt_clock(t, sizeof t,
                  el / (double)ps->finished * (double)(ps->spec->n_jobs - ps->finished));
        snprintf(eta, sizeof eta, ", ETA %s", t);
    }
    fprintf(stderr, "\r\033[Kgpulint: %zu/%zu files", ps->finished, ps->spec->n_jobs);
    if (ps->failed)
        fprintf(stderr, ", %zu failed", ps->failed);
    fprintf(stderr, ", %s elapsed%s", e, eta);
    fflush(stderr);
    ps->progress_shown = true;
}

/* In the child: never returns. */
static void worker_main(pool_state *ps, size_t job, int attempt, int phase_w)
{
    worker_side = true;
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    close(wake[0]);
    close(wake[1]);
    wake[0] = wake[1] = -1;
    for (int i = 0; i < ps->spec->parallel; i++)
        if (ps->slots[i].pid)
            close(ps->slots[i].phase_in);
    phase_out = phase_w;
    char *out = job_path(ps, job, "out"), *res = job_path(ps, job, "res");
    int ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int rfd = open(res, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    free(out);
    free(res);
    if (ofd < 0 || rfd < 0)
        _exit(70);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) {
        dup2(devnull, 0);
        close(devnull);
    }
    dup2(ofd, 1);
    dup2(ofd, 2);
    close(ofd);
    /* The nvcc stages go inside the run's directory, which the parent
     * removes whatever becomes of this worker. */
    setenv("TMPDIR", ps->dir, 1);
    int rc = ps->spec->work(ps->spec->ctx, job, attempt, rfd);
    close(rfd);
    /* exit, not _exit: a leak checker's report at exit covers the worker. */
    exit(rc & 0xff);
}

static bool start(pool_state *ps, slot *s, size_t job, char *err, size_t errlen)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return false;
    }
    int attempt = ps->attempts[job];
    fflush(NULL); /* or the child would print the parent's buffered output again */
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return false;
    }
    if (pid == 0) {
        close(p[0]);
        worker_main(ps, job, attempt, p[1]);
    }
    setpgid(pid, pid); /* either side may run first */
    close(p[1]);
    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
    *s = (slot){.pid = pid, .job = job, .attempt = attempt, .phase_in = p[0], .start = now()};
    return true;
}

static void kill_all(pool_state *ps)
{
    for (int i = 0; i < ps->spec->parallel; i++) {
        slot *s = &ps->slots[i];
        if (!s->pid)
            continue;
        killpg(s->pid, SIGKILL);
        kill(s->pid, SIGKILL);
        while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        close(s->phase_in);
        s->pid = 0;
    }
}

static void drain_phase(slot *s, bool *eof)
{
    char buf[256];
    for (;;) {
        ssize_t r = read(s->phase_in, buf, sizeof buf);
        if (r > 0) {
            s->phase = buf[r - 1];
            continue;
        }
        if (r < 0 && errno == EINTR && !stop_signal)
            continue;
        if (r == 0)
            *eof = true;
        return; /* EAGAIN: all read for now */
    }
}

/* The worker is gone (its pipe closed) or is being stopped (timed_out). */
static void finish(pool_state *ps, slot *s, bool timed_out)
{
    /* Its nvcc may outlive a crash; the group dies before the worker is
     * reaped, while its id cannot have been reused. */
    killpg(s->pid, SIGKILL);
    if (timed_out)
        kill(s->pid, SIGKILL);
    int status = 0;
    while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
        ;
    bool eof = false;
    drain_phase(s, &eof);
    close(s->phase_in);
    pool_outcome o = {.phase = s->phase, .seconds = now() - s->start};
    if (timed_out) {
        o.end = POOL_TIMED_OUT;
    } else if (WIFSIGNALED(status)) {
        o.end = POOL_CRASHED;
        o.signal = WTERMSIG(status);
    } else {
        o.end = POOL_EXITED;
        o.status = WEXITSTATUS(status);
    }
    char *rp = job_path(ps, s->job, "res"), *op = job_path(ps, s->job, "out");
    o.result = slurp(rp, &o.result_len);
    o.output = slurp(op, &o.output_len);
    free(rp);
    free(op);
    size_t job = s->job;
    int attempt = s->attempt;
    s->pid = 0;
    pool_verdict v = ps->spec->ended(ps->spec->ctx, job, attempt, &o);
    if (v == POOL_RETRY) {
        free(o.result);
        free(o.output);
        ps->attempts[job]++;
        memmove(ps->todo + 1, ps->todo, ps->n_todo * sizeof *ps->todo);
        ps->todo[0] = job;
        ps->n_todo++;
        return;
    }
    ps->finished++;
    if (v == POOL_FAILED)
        ps->failed++;
    ps->done[job] = o;
    ps->ready[job] = true;
}

static void deliver_ready(pool_state *ps)
{
    while (ps->delivered < ps->spec->n_jobs && ps->ready[ps->delivered]) {
        pool_outcome *o = &ps->done[ps->delivered];
        progress_clear(ps);
        ps->spec->deliver(ps->spec->ctx, ps->delivered, o);
        fflush(stdout);
        fflush(stderr);
        free(o->result);
        free(o->output);
        o->result = o->output = NULL;
        ps->delivered++;
    }
}

static void stop_now(pool_state *ps)
{
    int sig = stop_signal;
    kill_all(ps);
    progress_clear(ps);
    fsutil_remove_tree(ps->dir);
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);
}

bool pool_run(const pool_spec *spec, char *err, size_t errlen)
{
    if (spec->n_jobs == 0)
        return true;
    pool_state ps = {.spec = spec, .t0 = now()};
    ps.dir = nvstage_temp_dir("gpulint-run-", err, errlen);
    if (!ps.dir)
        return false;
    int parallel = spec->parallel < 1 ? 1 : spec->parallel;
    if ((size_t)parallel > spec->n_jobs)
        parallel = (int)spec->n_jobs;
    pool_spec local = *spec;
    local.parallel = parallel;
    ps.spec = &local;
    ps.slots = xcalloc((size_t)parallel, sizeof *ps.slots);
    ps.todo = xcalloc(spec->n_jobs, sizeof *ps.todo);
    ps.attempts = xcalloc(spec->n_jobs, sizeof *ps.attempts);
    ps.done = xcalloc(spec->n_jobs, sizeof *ps.done);
    ps.ready = xcalloc(spec->n_jobs, sizeof *ps.ready);
    for (size_t i = 0; i < spec->n_jobs; i++)
        ps.todo[i] = i;
    ps.n_todo = spec->n_jobs;

    bool ok = pipe2(wake, O_CLOEXEC | O_NONBLOCK) == 0;
    if (!ok)
        snprintf(err, errlen, "pipe: %s", strerror(errno));
    struct sigaction sa = {.sa_handler = on_stop}, old[3];
    sigemptyset(&sa.sa_mask);
    const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
    stop_signal = 0;
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, &old[i]);
    struct pollfd *pfd = ps.pfd = xcalloc((size_t)parallel + 1, sizeof *pfd);

    while (ok && ps.delivered < spec->n_jobs) {
        if (stop_signal)
            stop_now(&ps);
        for (int i = 0; i < parallel && ps.n_todo; i++) {
            if (ps.slots[i].pid)
                continue;
            size_t job = ps.todo[0];
            memmove(ps.todo, ps.todo + 1, (ps.n_todo - 1) * sizeof *ps.todo);
            ps.n_todo--;
            if (!start(&ps, &ps.slots[i], job, err, errlen)) {
                ok = false;
                break;
            }
        }
        if (!ok)
            break;
        int n = 0;
        double t = now(), next_deadline = -1;
        pfd[n++] = (struct pollfd){.fd = wake[0], .events = POLLIN};
        for (int i = 0; i < parallel; i++) {
            slot *s = &ps.slots[i];
            pfd[n] = (struct pollfd){.fd = s->pid ? s->phase_in : -1, .events = POLLIN};
            n++;
            if (s->pid && spec->timeout_s > 0) {
                double d = s->start + spec->timeout_s;
                if (next_deadline < 0 || d < next_deadline)
                    next_deadline = d;
            }
        }
        int wait_ms = -1;
        if (next_deadline >= 0)
            wait_ms = next_deadline <= t ? 0 : (int)((next_deadline - t) * 1000) + 1;
        if (spec->progress && spec->n_jobs > 1 && (wait_ms < 0 || wait_ms > 1000))
            wait_ms = 1000; /* the elapsed time keeps moving */
        int r = poll(pfd, (nfds_t)n, wait_ms);
        if (r < 0 && errno != EINTR) {
            snprintf(err, errlen, "poll: %s", strerror(errno));
            ok = false;
            break;
        }
        if (stop_signal)
            stop_now(&ps);
        t = now();
        for (int i = 0; i < parallel; i++) {
            slot *s = &ps.slots[i];
            if (!s->pid)
                continue;
            bool eof = false;
            if (pfd[i + 1].revents)
                drain_phase(s, &eof);
            if (eof)
                finish(&ps, s, false);
            else if (spec->timeout_s > 0 && t - s->start >= spec->timeout_s)
                finish(&ps, s, true);
        }
        deliver_ready(&ps);
        if (ps.delivered < spec->n_jobs)
            progress_show(&ps);
    }
    if (!ok)
        kill_all(&ps);
    progress_clear(&ps);
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &old[i], NULL);
    if (wake[0] >= 0) {
        close(wake[0]);
        close(wake[1]);
        wake[0] = wake[1] = -1;
    }
    for (size_t i = ps.delivered; i < spec->n_jobs; i++)
        if (ps.ready[i]) {
            free(ps.done[i].result);
            free(ps.done[i].output);
        }
    fsutil_remove_tree(ps.dir);
    free(ps.dir);
    free(pfd);
    free(ps.slots);
    free(ps.todo);
    free(ps.attempts);
    free(ps.done);
    free(ps.ready);
    return ok;
}

int pool_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
