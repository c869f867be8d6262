/* predict: predictions from child gpulint runs or a report file. */
#include "verify/predict.h"

#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "config.h"
#include "model/model_load.h"
#include "util/fileio.h"
#include "util/sbuf.h"
#include "util/spawn.h"

static const char *const arrays[] = {"kernels",  "shared_accesses", "global_accesses",
                                     "branches", "roofline",        "sources"};
#define N_ARRAYS (sizeof arrays / sizeof arrays[0])

static json_t *empty_report(void)
{
    json_t *r = json_object();
    for (size_t i = 0; i < N_ARRAYS; i++)
        json_object_set_new(r, arrays[i], json_array());
    return r;
}

static void merge(json_t *into, const json_t *from)
{
    for (size_t i = 0; i < N_ARRAYS; i++) {
        json_t *src = json_object_get(from, arrays[i]);
        if (json_is_array(src))
            json_array_extend(json_object_get(into, arrays[i]), src);
    }
}

void vpred_none(vpred *out, const char *why)
{
    memset(out, 0, sizeof *out);
    out->report = empty_report();
    snprintf(out->why_none, sizeof out->why_none, "%s", why);
}

void vpred_free(vpred *p)
{
    json_decref(p->report);
    memset(p, 0, sizeof *p);
}

static void hash_stat(XXH3_state_t *h, const char *path)
{
    struct stat st;
    XXH3_128bits_update(h, path, strlen(path) + 1);
    if (stat(path, &st) == 0) {
        int64_t v[3] = {(int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
                        (int64_t)st.st_mtim.tv_nsec};
        XXH3_128bits_update(h, v, sizeof v);
    }
}

/* The cached report sits next to the fatbin: same key (the source, nvcc),
 * the product model it was made for (its predicted times are that
 * product's), and what made it: this gpulint's binary and the model's file
 * (a rebuild or an edited model is a new report). */
static char *cached_path(const kbuild_unit *u, const char *self, const char *gpu,
                         const char *gpu_file)
{
    XXH3_state_t *h = XXH3_createState();
    XXH3_128bits_reset(h);
    hash_stat(h, self);
    if (gpu_file) {
        hash_stat(h, gpu_file);
    } else if (gpu) {
        const char *dir = getenv("GPULINT_MODELS");
        sbuf m;
        sbuf_init(&m);
        sbuf_addf(&m, "%s/gpu/%s.ini", dir && *dir ? dir : model_default_dir(), gpu);
        hash_stat(h, sbuf_str(&m));
        sbuf_free(&m);
    }
    XXH128_hash_t key = XXH3_128bits_digest(h);
    XXH3_freeState(h);
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%.*s%s%s-%016llx.report.json", (int)(strlen(u->fatbin) - 7), u->fatbin,
              gpu ? "." : "", gpu ? gpu : "", (unsigned long long)key.low64);
    return sbuf_take(&b);
}

/* A report made by another gpulint binary or model file is never read
 * again: it goes when this one is written (the same name up to the key's
 * 16 hex digits). */
static void drop_older_reports(const char *path)
{
    const char *slash = strrchr(path, '/'), *dash = strrchr(path, '-');
    if (!slash || !dash || dash < slash)
        return;
    char *dir = xstrndup(path, (size_t)(slash - path));
    size_t stem = (size_t)(dash - slash); /* "name.gpu-" without the slash */
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        const char *n = e->d_name, *key = n + stem;
        if (strncmp(n, slash + 1, stem) != 0 || strlen(key) != 16 + strlen(".report.json") ||
            strspn(key, "0123456789abcdef") != 16 || strcmp(key + 16, ".report.json") != 0)
            continue;
        sbuf old;
        sbuf_init(&old);
        sbuf_addf(&old, "%s/%s", dir, n);
        unlink(sbuf_str(&old));
        sbuf_free(&old);
    }
    if (d)
        closedir(d);
    free(dir);
}

bool vpred_run(const char *self, const kbuild_unit *units, int n, const char *arch, const char *gpu,
               const char *gpu_file, int jobs, vpred *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->report = empty_report();
    out->source = true;
    snprintf(out->origin, sizeof out->origin, "this gpulint (%s)", GPULINT_VERSION);
    if (gpu)
        snprintf(out->gpu, sizeof out->gpu, "%s", gpu);
    /* The children use the bundled model (the device's twin where there is
     * one, for its timing constants; else the arch), not the device, which
     * this process already holds, and no colour. */
    size_t n_env = 0;
    extern char **environ;
    while (environ[n_env])
        n_env++;
    char **env = xcalloc(n_env + 3, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n_env; i++)
        if (strncmp(environ[i], "GPULINT_NO_DEVICE=", 18) != 0)
            env[k++] = environ[i];
    env[k++] = "GPULINT_NO_DEVICE=1";
    env[k] = NULL;

    spawn_job *js = xcalloc((size_t)n, sizeof *js);
    bool *running = xcalloc((size_t)n, sizeof *running);
    bool ok = true;
    int next = 0;
    for (int done = 0; done < n && ok; done++) {
        while (next < n && next - done < (jobs > 0 ? jobs : 1)) {
            const kbuild_unit *u = &units[next];
            char *cache = cached_path(u, self, gpu, gpu_file);
            char *text;
            size_t len;
            if (fileio_read(cache, 64u << 20, &text, &len) == FILEIO_OK) {
                json_error_t je;
                json_t *j = json_loadb(text, len, 0, &je);
                free(text);
                if (j) {
                    merge(out->report, j);
                    json_decref(j);
                    free(cache);
                    next++;
                    continue;
                }
            }
            free(cache);
            /* The child compiles the source itself rather than reading
             * kbuild's ptxas log: only its own nvcc run keeps the PTX whose
             * instruction mix the predicted times' issue part needs, so the
             * predictions are those of `gpulint FILE.cu` (and of the
             * predictions files scripts/verify-predictions.sh writes). */
            const char *argv[] = {self,
                                  u->source,
                                  gpu ? "--gpu" : "--arch",
                                  gpu_file ? gpu_file : gpu ? gpu : arch,
                                  "--format",
                                  "json",
                                  NULL};
            if (!spawn_start(argv, env, &js[next], err, errlen)) {
                ok = false;
                break;
            }
            running[next] = true;
            next++;
        }
        if (!ok || !running[done])
            continue;
        spawn_result r;
        running[done] = false;
        if (!spawn_finish(&js[done], &r)) {
            snprintf(err, errlen, "lost track of the prediction for %s", units[done].file);
            ok = false;
            continue;
        }
        json_error_t je;
        json_t *j = r.status == 0 ? json_loadb(r.out, r.out_len, 0, &je) : NULL;
        if (!j) {
            /* One file's source analysis failing (a libclang crash, say)
             * leaves its checks without predictions; the rest goes on. */
            char *nl = strchr(r.err, '\n');
            if (nl)
                *nl = '\0';
            fprintf(stderr, "gpulint: warning: %s: no predictions (%s%s)\n", units[done].file,
                    r.signaled ? "the analysis crashed: " : "", r.err[0] ? r.err : "no output");
        } else {
            merge(out->report, j);
            char *cache = cached_path(&units[done], self, gpu, gpu_file);
            drop_older_reports(cache);
            FILE *f = fopen(cache, "w");
            if (f) {
                json_dumpf(j, f, JSON_COMPACT);
                fclose(f);
            }
            free(cache);
            json_decref(j);
        }
        spawn_result_free(&r);
    }
    for (int i = 0; i < n; i++)
        if (running[i]) {
            spawn_result r;
            spawn_finish(&js[i], &r);
            spawn_result_free(&r);
        }
    free(running);
    free(js);
    free(env);
    return ok;
}

bool vpred_load(const char *path, const char *arch, vpred *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j) {
        snprintf(err, errlen, "%s:%d: %s", path, je.line, je.text);
        return false;
    }
    const json_t *targets = json_object_get(j, "targets");
    const char *their = json_string_value(json_object_get(json_array_get(targets, 0), "arch"));
    if (!json_is_array(json_object_get(j, "kernels")) || !their) {
        snprintf(err, errlen,
                 "%s: not a gpulint report (expected the output of 'gpulint "
                 "kernels/*.cu --format json')",
                 path);
        json_decref(j);
        return false;
    }
    if (strcmp(their, arch) != 0) {
        snprintf(err, errlen,
                 "%s: predictions for %s, but this GPU is %s (make them with --arch %s)", path,
                 their, arch, arch);
        json_decref(j);
        return false;
    }
    out->report = empty_report();
    const char *gpu = json_string_value(json_object_get(json_array_get(targets, 0), "gpu"));
    if (gpu)
        snprintf(out->gpu, sizeof out->gpu, "%s", gpu);
    merge(out->report, j);
    json_decref(j);
    out->source = json_array_size(json_object_get(out->report, "roofline")) > 0 ||
                  json_array_size(json_object_get(out->report, "shared_accesses")) > 0;
    snprintf(out->origin, sizeof out->origin, "%s", path);
    if (!out->source)
        snprintf(out->why_none, sizeof out->why_none,
                 "%s has no source analysis (it was made by a gpulint without libclang)", path);
    return true;
}

static bool is_kernel(const json_t *o, const char *kernel)
{
    const char *k = json_string_value(json_object_get(o, "kernel"));
    return k && strcmp(k, kernel) == 0;
}

const json_t *vpred_launch(const vpred *p, const char *kernel)
{
    const json_t *kernels = json_object_get(p->report, "kernels");
    size_t i, j;
    const json_t *k, *l;
    json_array_foreach(kernels, i, k)
    {
        json_array_foreach(json_object_get(k, "launches"), j, l)
        {
            if (is_kernel(l, kernel) && json_is_array(json_object_get(l, "grid")) &&
                json_is_array(json_object_get(l, "block")))
                return l;
        }
    }
    return NULL;
}

double vpred_warp_insts(const vpred *p, const char *kernel)
{
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(p->report, "roofline"), i, e)
    {
        const json_t *n = json_object_get(json_object_get(e, "issue"), "warp_instructions");
        if (is_kernel(e, kernel) && json_is_number(n))
            return json_number_value(n);
    }
    return -1;
}

const json_t *vpred_access(const vpred *p, const char *array_key, const char *kernel)
{
    const json_t *arr = json_object_get(p->report, array_key);
    size_t i;
    const json_t *a;
    json_array_foreach(arr, i, a)
    {
        const char *kind = json_string_value(json_object_get(a, "kind"));
        if (is_kernel(a, kernel) && kind && strcmp(kind, "load") == 0)
            return a;
    }
    return NULL;
}

const json_t *vpred_branch(const vpred *p, const char *kernel, int line)
{
    const json_t *arr = json_object_get(p->report, "branches");
    size_t i;
    const json_t *b;
    /* Without a line: the branch that shares its line with a lane counter
     * (VERIFY_LANES sits on the line of the branch it counts), else the
     * first one. */
    if (line == 0)
        json_array_foreach(arr, i, b)
        {
            const char *text = json_string_value(json_object_get(b, "text"));
            if (is_kernel(b, kernel) && text && strncmp(text, "VERIFY_LANES", 12) == 0) {
                line = (int)json_integer_value(json_object_get(b, "line"));
                break;
            }
        }
    /* Without a line, a condition evaluated per lane wins over a loop whose
     * condition is the same for the whole warp (the twins' outer loop). */
    const json_t *uniform = NULL;
    json_array_foreach(arr, i, b)
    {
        const char *text = json_string_value(json_object_get(b, "text"));
        if (!is_kernel(b, kernel) || (text && strncmp(text, "VERIFY_LANES", 12) == 0))
            continue;
        if (line != 0 && json_integer_value(json_object_get(b, "line")) == line)
            return b;
        if (line == 0) {
            const char *v = json_string_value(json_object_get(b, "verdict"));
            if (v && strcmp(v, "warp-uniform") != 0)
                return b;
            if (!uniform)
                uniform = b;
        }
    }
    return uniform;
}

const json_t *vpred_roofline(const vpred *p, const char *kernel)
{
    const json_t *arr = json_object_get(p->report, "roofline");
    size_t i;
    const json_t *r;
    json_array_foreach(arr, i, r)
    {
        if (is_kernel(r, kernel))
            return r;
    }
    return NULL;
}

json_t *vpred_all(const vpred *p, const char *array_key, const char *kernel)
{
    json_t *out = json_array();
    const json_t *arr = json_object_get(p->report, array_key);
    size_t i;
    const json_t *a;
    json_array_foreach(arr, i, a)
    {
        if (is_kernel(a, kernel))
            json_array_append(out, (json_t *)a);
    }
    return out;
}
