/* kbuild: reference kernels built once per device, toolkit and gpulint
 * version (see kbuild.h). */
#include "verify/kbuild.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "config.h"
#include "input/nvcc.h"
#include "input/nvcc_stage.h"
#include "util/cachedir.h"
#include "util/fileio.h"
#include "util/fsutil.h"
#include "util/sbuf.h"
#include "util/spawn.h"

#define SOURCE_MAX (16u << 20)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void hash_str(XXH3_state_t *h, const char *s)
{
    XXH3_128bits_update(h, s, strlen(s) + 1); /* the NUL separates fields */
}

static bool read_all(const char *path, char **text, size_t *len)
{
    return fileio_read(path, SOURCE_MAX, text, len) == FILEIO_OK;
}

/* Writes through a temporary name, so that a concurrent gpulint never
 * reads half a file. */
static bool write_atomic(const char *path, const char *data, size_t len)
{
    sbuf tmp;
    sbuf_init(&tmp);
    sbuf_addf(&tmp, "%s.%ld.tmp", path, (long)getpid());
    int fd = open(sbuf_str(&tmp), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    bool ok = fd >= 0;
    for (size_t off = 0; ok && off < len;) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        ok = w > 0;
        off += ok ? (size_t)w : 0;
    }
    if (fd >= 0 && close(fd) != 0)
        ok = false;
    ok = ok && rename(sbuf_str(&tmp), path) == 0;
    if (!ok)
        unlink(sbuf_str(&tmp));
    sbuf_free(&tmp);
    return ok;
}

static bool nvcc_version(const char *nvcc, char *out, size_t n)
{
    const char *argv[] = {nvcc, "--version", NULL};
    spawn_result r;
    char err[256];
    if (!spawn_run(argv, NULL, &r, err, sizeof err))
        return false;
    bool ok = r.status == 0;
    /* The last non-empty line: "Build cuda_13.0.r13.0/compiler.36424714_0". */
    char *last = NULL;
    for (char *save = NULL, *l = strtok_r(r.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        last = l;
    snprintf(out, n, "%s", last ? last : "");
    spawn_result_free(&r);
    return ok && out[0];
}

/* argv-style words of a space-separated string (owned, NULL-terminated). */
static char **words(const char *s, int *n)
{
    char *copy = xstrdup(s ? s : "");
    char **v = xcalloc(strlen(copy) / 2 + 2, sizeof *v);
    *n = 0;
    for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        v[(*n)++] = xstrdup(w);
    free(copy);
    return v;
}

static void free_words(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

typedef struct job {
    kbuild_unit *u;
    nvstage stage;
    nvcc_job nvcc;
    char *text;
    double started;
    bool running;
} job;

static kbuild_status start(const char *nvcc, const char *arch, job *j, char *err, size_t errlen)
{
    size_t len;
    if (!read_all(j->u->source, &j->text, &len)) {
        snprintf(err, errlen, "%s: cannot read", j->u->source);
        return KBUILD_IO;
    }
    int n_extra;
    char **extra = words(j->u->extra, &n_extra);
    /* -lineinfo: Nsight Compute's source counters map back to the lines. */
    extra = xrealloc(extra, (size_t)(n_extra + 2) * sizeof *extra);
    extra[n_extra++] = xstrdup("-lineinfo");
    nvstage_status ss = nvstage_prepare(&j->stage, j->u->source, j->text, len, extra, n_extra,
                                        "nvcc argument of verify.ini", err, errlen);
    free_words(extra, n_extra);
    if (ss != NVSTAGE_OK)
        return ss == NVSTAGE_REFUSED ? KBUILD_REFUSED : KBUILD_IO;
    const char *archs[1] = {arch};
    if (!nvcc_start(nvcc, &j->stage, archs, 1, &j->nvcc, err, errlen)) {
        nvstage_free(&j->stage);
        return KBUILD_TOOL;
    }
    j->started = now();
    j->running = true;
    return KBUILD_OK;
}

static kbuild_status finish(job *j, char **failed_log, char *err, size_t errlen)
{
    char *raw;
    size_t len;
    int status;
    bool waited = nvcc_finish(&j->nvcc, &raw, &len, &status);
    j->running = false;
    j->u->seconds = now() - j->started;
    char *log = nvstage_unmap(&j->stage, raw);
    free(raw);
    kbuild_status rc = KBUILD_OK;
    if (!waited) {
        snprintf(err, errlen, "lost track of nvcc");
        rc = KBUILD_TOOL;
    } else if (status != 0) {
        snprintf(err, errlen, "%s: nvcc failed (exit status %d)", j->u->source, status);
        *failed_log = log;
        log = NULL;
        rc = KBUILD_COMPILE;
    } else {
        /* A fatbin is binary, which fileio refuses by design: read it raw. */
        FILE *f = fopen(j->stage.output, "rb");
        sbuf data;
        sbuf_init(&data);
        if (f) {
            char chunk[65536];
            size_t r;
            while ((r = fread(chunk, 1, sizeof chunk, f)) > 0)
                sbuf_addn(&data, chunk, r);
            fclose(f);
        }
        if (!data.len) {
            snprintf(err, errlen, "%s: nvcc wrote no fatbin", j->u->source);
            rc = KBUILD_IO;
        } else if (!write_atomic(j->u->fatbin, data.data, data.len) ||
                   !write_atomic(j->u->log_path, log, strlen(log))) {
            snprintf(err, errlen, "%s: cannot write %s: %s", j->u->source, j->u->fatbin,
                     strerror(errno));
            rc = KBUILD_IO;
        }
        sbuf_free(&data);
        if (rc == KBUILD_OK) {
            j->u->log = log;
            log = NULL;
        }
    }
    free(log);
    free(j->text);
    j->text = NULL;
    nvstage_free(&j->stage);
    return rc;
}

kbuild_status kbuild_run(const char *nvcc, const char *kernels_dir, const char *arch, int jobs,
                         kbuild_unit *units, int n, kbuild *kb, char **failed_log, char *err,
                         size_t errlen)
{
    memset(kb, 0, sizeof *kb);
    *failed_log = NULL;
    if (!nvcc_version(nvcc, kb->nvcc_version, sizeof kb->nvcc_version)) {
        snprintf(err, errlen, "cannot run %s --version", nvcc);
        return KBUILD_TOOL;
    }
    kb->dir = cachedir_path("verify");
    if (!kb->dir) {
        char templ[] = "/tmp/gpulint-verify-XXXXXX";
        if (!mkdtemp(templ)) {
            snprintf(err, errlen, "cannot create a temporary directory: %s", strerror(errno));
            return KBUILD_IO;
        }
        kb->dir = xstrdup(templ);
        kb->temporary = true;
    }
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s/verify.h", kernels_dir);
    char *header = NULL;
    size_t header_len = 0;
    if (!read_all(sbuf_str(&b), &header, &header_len)) {
        snprintf(err, errlen, "%s: cannot read", sbuf_str(&b));
        sbuf_free(&b);
        return KBUILD_IO;
    }
    sbuf_free(&b);

    kbuild_status rc = KBUILD_OK;
    job *js = xcalloc((size_t)n, sizeof *js);
    for (int i = 0; i < n && rc == KBUILD_OK; i++) {
        kbuild_unit *u = &units[i];
        sbuf_addf(&b, "%s/%s", kernels_dir, u->file);
        u->source = sbuf_take(&b);
        char *text;
        size_t len;
        if (!read_all(u->source, &text, &len)) {
            snprintf(err, errlen, "%s: cannot read", u->source);
            rc = KBUILD_IO;
            break;
        }
        XXH3_state_t *h = XXH3_createState();
        XXH3_128bits_reset(h);
        hash_str(h, "gpulint " GPULINT_VERSION);
        hash_str(h, kb->nvcc_version);
        hash_str(h, arch);
        hash_str(h, u->file);
        hash_str(h, u->extra ? u->extra : "");
        XXH3_128bits_update(h, text, len);
        XXH3_128bits_update(h, header, header_len);
        XXH128_hash_t key = XXH3_128bits_digest(h);
        XXH3_freeState(h);
        free(text);
        const char *dot = strrchr(u->file, '.');
        int stem = (int)(dot ? dot - u->file : (long)strlen(u->file));
        sbuf_addf(&b, "%s/%.*s-%s-%016llx%016llx.fatbin", kb->dir, stem, u->file, arch,
                  (unsigned long long)key.high64, (unsigned long long)key.low64);
        u->fatbin = sbuf_take(&b);
        sbuf_addf(&b, "%.*s.log", (int)(strlen(u->fatbin) - 7), u->fatbin);
        u->log_path = sbuf_take(&b);
        struct stat st;
        size_t log_len;
        if (stat(u->fatbin, &st) == 0 && st.st_size > 0 && read_all(u->log_path, &u->log, &log_len))
            u->from_cache = true;
    }
    free(header);

    /* At most `jobs` nvcc at once, finished in order. */
    int next = 0, done = 0;
    while (rc == KBUILD_OK && done < n) {
        int running = 0;
        for (int i = done; i < next; i++)
            running += js[i].running;
        while (rc == KBUILD_OK && next < n && running < (jobs > 0 ? jobs : 1)) {
            js[next].u = &units[next];
            if (!units[next].from_cache) {
                rc = start(nvcc, arch, &js[next], err, errlen);
                running++;
            }
            next++;
        }
        if (rc != KBUILD_OK)
            break;
        if (js[done].running)
            rc = finish(&js[done], failed_log, err, errlen);
        done++;
    }
    for (int i = 0; i < n; i++)
        if (js[i].running) { /* after a failure: let the others end */
            char *ignored = NULL, e2[64];
            finish(&js[i], &ignored, e2, sizeof e2);
            free(ignored);
        }
    free(js);
    return rc;
}

void kbuild_unit_free(kbuild_unit *u)
{
    free(u->source);
    free(u->fatbin);
    free(u->log_path);
    free(u->log);
    u->source = u->fatbin = u->log_path = u->log = NULL;
}

void kbuild_free(kbuild *kb)
{
    if (kb->temporary && kb->dir)
        fsutil_remove_tree(kb->dir);
    free(kb->dir);
    memset(kb, 0, sizeof *kb);
}
