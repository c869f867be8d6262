/* nvcc: spawn nvcc directly (posix_spawn, no shell) on a stage and read its log. */
#include "input/nvcc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "util/sbuf.h"

static bool executable_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

bool nvcc_find(const char *explicit_path, char *out, size_t n, char *err, size_t errlen)
{
    if (explicit_path) {
        if (executable_file(explicit_path)) {
            snprintf(out, n, "%s", explicit_path);
            return true;
        }
        snprintf(err, errlen, "--nvcc %s: not an executable file", explicit_path);
        return false;
    }
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(out, n, "%s/bin/nvcc", home);
        if (executable_file(out))
            return true;
    }
    const char *path = getenv("PATH");
    if (path) {
        char *copy = xstrdup(path);
        for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir;
             dir = strtok_r(NULL, ":", &save)) {
            snprintf(out, n, "%s/nvcc", *dir ? dir : ".");
            if (executable_file(out)) {
                free(copy);
                return true;
            }
        }
        free(copy);
    }
    snprintf(out, n, "%s/bin/nvcc", GPULINT_CUDA_HOME);
    if (executable_file(out))
        return true;
    snprintf(err, errlen,
             "nvcc not found (looked in $CUDA_HOME/bin, PATH and %s/bin); pass --nvcc PATH or "
             "use --ptxas-log",
             GPULINT_CUDA_HOME);
    return false;
}

static bool has_flag(char *const *extra, int n_extra, const char *const *flags, size_t n_flags)
{
    for (int i = 0; i < n_extra; i++)
        for (size_t f = 0; f < n_flags; f++) {
            size_t len = strlen(flags[f]);
            if (strncmp(extra[i], flags[f], len) == 0 &&
                (extra[i][len] == '\0' || extra[i][len] == '='))
                return true;
        }
    return false;
}

bool nvcc_args_choose_arch(char *const *extra, int n_extra)
{
    static const char *const flags[] = {
        "-arch", "--gpu-architecture", "-gencode", "--generate-code", "-code", "--gpu-code"};
    return has_flag(extra, n_extra, flags, sizeof flags / sizeof flags[0]);
}

bool nvcc_keeps_ptx(char *const *extra, int n_extra)
{
    static const char *const flags[] = {"-keep",      "--keep",      "-keep-dir",
                                        "--keep-dir", "-save-temps", "--save-temps"};
    return !has_flag(extra, n_extra, flags, sizeof flags / sizeof flags[0]);
}

bool nvcc_needs_rdc(const char *log, char *const *extra, int n_extra, char *callee, size_t n)
{
    static const char *const flags[] = {
        "-rdc", "--relocatable-device-code", "-dc", "--device-c", "-dlink", "--device-link"};
    /* ptxas's words for a call to a __device__ function no unit of this
     * compile defines: whole-program compilation cannot link it. */
    static const char said[] = "Unresolved extern function '";
    const char *at = log ? strstr(log, said) : NULL;
    if (!at || has_flag(extra, n_extra, flags, sizeof flags / sizeof flags[0]))
        return false;
    at += sizeof said - 1;
    size_t len = strcspn(at, "'\n");
    snprintf(callee, n, "%.*s", (int)(len < n ? len : n - 1), at);
    return true;
}

void nvcc_sibling(const char *nvcc, const char *tool, char *out, size_t n)
{
    const char *slash = strrchr(nvcc, '/');
    snprintf(out, n, "%.*s%s", slash ? (int)(slash - nvcc + 1) : 0, nvcc, tool);
}

/* "sm_90" -> "arch=compute_90,code=sm_90" (kept in buf). */
static const char *gencode(const char *arch, char *buf, size_t n)
{
    const char *num = strncmp(arch, "sm_", 3) == 0 ? arch + 3 : arch;
    snprintf(buf, n, "arch=compute_%s,code=sm_%s", num, num);
    return buf;
}

/* The one arch an -arch value names ("sm_90", "compute_90"): not a list,
 * not all, all-major or native, which compile several. */
static bool one_arch_value(const char *v)
{
    return v && (!strncmp(v, "sm_", 3) || !strncmp(v, "compute_", 8)) && !strchr(v, ',');
}

static bool user_picks_one_arch(char *const *args, int n)
{
    static const char *const several[] = {"-gencode", "--generate-code", "-code", "--gpu-code"};
    static const char *const arch[] = {"-arch", "--gpu-architecture"};
    if (has_flag(args, n, several, sizeof several / sizeof several[0]))
        return false;
    int found = 0;
    bool one = true;
    for (int i = 0; i < n; i++)
        for (size_t f = 0; f < 2; f++) {
            size_t len = strlen(arch[f]);
            if (strncmp(args[i], arch[f], len) != 0)
                continue;
            if (args[i][len] == '=')
                one &= one_arch_value(args[i] + len + 1);
            else if (args[i][len] == '\0')
                one &= one_arch_value(i + 1 < n ? args[i + 1] : NULL);
            else
                continue;
            found++;
        }
    return found == 1 && one;
}

/* nvcc -MD preprocesses the whole file once more, on the host side, only
 * to list what it includes: a third of a small file's compile (PolyBench's
 * correlation, 0.55 s against 0.40 s). The preprocessing pass the device
 * compile makes anyway lists it as well, handed -MD -MF: what the device
 * code read, which is what the compile's output depends on (the source
 * analysis adds the files libclang read: cusrc_unit.includes_read). Only
 * where that pass runs once (one virtual arch: a second would write over
 * the first's list), the host compiler is the default one, the user asks
 * for no dependency file and the path survives -Xcompiler's comma split. */
static bool deps_in_device_pass(const nvstage *stage, bool own_arch, int n_archs)
{
    static const char *const deps_flags[] = {"-M",
                                             "-MM",
                                             "-MD",
                                             "-MMD",
                                             "-MF",
                                             "-MT",
                                             "-MP",
                                             "--generate-dependencies",
                                             "--generate-nonsystem-dependencies",
                                             "--generate-dependencies-with-compile",
                                             "--generate-nonsystem-dependencies-with-compile",
                                             "--dependency-output",
                                             "--dependency-target-name",
                                             "-ccbin",
                                             "--compiler-bindir"};
    if (strchr(stage->deps, ',') ||
        has_flag(stage->args, stage->n_args, deps_flags, sizeof deps_flags / sizeof deps_flags[0]))
        return false;
    return own_arch ? n_archs == 1 : user_picks_one_arch(stage->args, stage->n_args);
}

bool nvcc_start(const char *nvcc, const nvstage *stage, const char *const *archs, int n_archs,
                nvcc_job *job, char *err, size_t errlen)
{
    memset(job, 0, sizeof *job);
    job->pid = -1;
    job->fd = -1;
    int n_args = 0;
    char **argv = xcalloc((size_t)(20 + 2 * n_archs + stage->n_args), sizeof *argv);
    char **owned = xcalloc((size_t)n_archs + 1, sizeof *owned);
    argv[n_args++] = (char *)nvcc;
    argv[n_args++] = "-fatbin";
    argv[n_args++] = "-o";
    argv[n_args++] = stage->output;
    argv[n_args++] = "-Xptxas";
    argv[n_args++] = "-v";
    bool own_arch = !nvcc_args_choose_arch(stage->args, stage->n_args);
    char *deps_flag = NULL;
    if (stage->deps && deps_in_device_pass(stage, own_arch, n_archs)) {
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "-MD,-MF,%s", stage->deps);
        deps_flag = sbuf_take(&b);
        argv[n_args++] = "-Xcompiler";
        argv[n_args++] = deps_flag;
    } else if (stage->deps) { /* what the source read: the cache's key (run/unitcache) */
        argv[n_args++] = "-MD";
        argv[n_args++] = "-MF";
        argv[n_args++] = stage->deps;
    }
    if (nvcc_keeps_ptx(stage->args, stage->n_args)) {
        argv[n_args++] = "--keep";
        argv[n_args++] = "--keep-dir";
        argv[n_args++] = stage->tmpdir;
        /* The kept PTX's .loc lines tie its instructions to the source
         * (analysis/timing/icount); -lineinfo changes no instruction. -G has
         * its own line tables. */
        static const char *const lines[] = {"-lineinfo", "--generate-line-info", "-G",
                                            "--device-debug"};
        if (stage->path_in_ptx &&
            !has_flag(stage->args, stage->n_args, lines, sizeof lines / sizeof lines[0]))
            argv[n_args++] = "-lineinfo";
    }
    for (int i = 0; own_arch && i < n_archs; i++) {
        char buf[96];
        owned[i] = xstrdup(gencode(archs[i], buf, sizeof buf));
        argv[n_args++] = "-gencode";
        argv[n_args++] = owned[i];
    }
    for (int i = 0; i < stage->n_args; i++)
        argv[n_args++] = stage->args[i];
    argv[n_args++] = stage->source; /* absolute: nvcc adds no working directory */
    argv[n_args] = NULL;
    char **env = nvstage_env(stage);

    int pipefd[2];
    bool ok = false;
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
    } else {
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
        posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
        int rc = posix_spawn(&job->pid, nvcc, &fa, NULL, argv, env);
        posix_spawn_file_actions_destroy(&fa);
        close(pipefd[1]);
        if (rc != 0) {
            snprintf(err, errlen, "cannot run %s: %s", nvcc, strerror(rc));
            close(pipefd[0]);
            job->pid = -1;
        } else {
            job->fd = pipefd[0];
            ok = true;
        }
    }
    nvstage_env_free(env);
    for (int i = 0; i < n_archs; i++)
        free(owned[i]);
    free(owned);
    free(deps_flag);
    free(argv);
    return ok;
}

bool nvcc_finish(nvcc_job *job, char **log, size_t *len, int *exit_status)
{
    sbuf b;
    sbuf_init(&b);
    char chunk[16384];
    for (;;) {
        ssize_t r = read(job->fd, chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        sbuf_addn(&b, chunk, (size_t)r);
    }
    close(job->fd);
    int status = 0;
    bool ok = true;
    while (waitpid(job->pid, &status, 0) < 0) {
        if (errno != EINTR) {
            ok = false;
            break;
        }
    }
    if (WIFEXITED(status))
        *exit_status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        *exit_status = 128 + WTERMSIG(status);
    else
        *exit_status = -1;
    *len = b.len;
    *log = sbuf_take(&b);
    return ok;
}
