/* model_load: the file-system side of the models. */
#include "model/model_load.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "util/fileio.h"
#include "util/fsutil.h"
#include "util/sbuf.h"

#define MODEL_FILE_MAX (1u << 20)

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *model_default_dir(void)
{
    static char buf[PATH_MAX + 64];
    const char *env = getenv("GPULINT_MODELS");
    if (env && *env)
        return env;
    char exe[PATH_MAX];
    if (fsutil_exe_dir(exe, sizeof exe)) {
        snprintf(buf, sizeof buf, "%s/../share/gpulint/models", exe);
        if (is_dir(buf))
            return buf;
    }
    if (is_dir(GPULINT_SOURCE_MODELS))
        return GPULINT_SOURCE_MODELS;
    return GPULINT_INSTALLED_MODELS;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted *.ini names in dir, so listings and errors are deterministic. */
static char **list_ini(const char *dir, size_t *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t cap = 16;
    char **names = xmalloc(cap * sizeof *names);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ini") != 0 || e->d_name[0] == '.')
            continue;
        if (*n == cap)
            names = xrealloc(names, (cap *= 2) * sizeof *names);
        names[(*n)++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, *n, sizeof *names, cmp_names);
    return names;
}

static bool read_model(const char *path, char **text, size_t *len, model_load_error *err)
{
    snprintf(err->path, sizeof err->path, "%s", path);
    fileio_status st = fileio_read(path, MODEL_FILE_MAX, text, len);
    if (st != FILEIO_OK) {
        err->err.line = 0;
        snprintf(err->err.message, sizeof err->err.message, "%s", fileio_status_text(st));
        return false;
    }
    return true;
}

bool model_load_arch_file(const char *path, gpu_arch *out, model_load_error *err)
{
    char *text;
    size_t len;
    if (!read_model(path, &text, &len, err))
        return false;
    bool ok = model_parse_arch(text, len, out, &err->err);
    free(text);
    return ok;
}

bool model_load_product_file(const char *path, gpu_product *out, model_load_error *err)
{
    char *text;
    size_t len;
    if (!read_model(path, &text, &len, err))
        return false;
    bool ok = model_parse_product(text, len, out, &err->err);
    free(text);
    return ok;
}

static int cmp_cc(const void *a, const void *b)
{
    const gpu_arch *x = a, *y = b;
    int kx = x->cc_major * 10 + x->cc_minor, ky = y->cc_major * 10 + y->cc_minor;
    return (kx > ky) - (kx < ky);
}

static bool load_products(const char *dir, model_db *db, model_load_error *err)
{
    size_t n;
    char **names = list_ini(dir, &n);
    bool ok = true;
    db->products = xcalloc(n, sizeof *db->products);
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *text;
        size_t len;
        if (ok && read_model(path, &text, &len, err)) {
            gpu_product *p = &db->products[db->n_products];
            ok = model_parse_product(text, len, p, &err->err);
            free(text);
            if (ok && !model_find_arch(db, p->arch)) {
                err->err.line = 0;
                snprintf(err->err.message, sizeof err->err.message,
                         "arch '%s' has no model in arch/", p->arch);
                ok = false;
            }
            if (ok)
                db->n_products++;
        } else {
            ok = false;
        }
        free(names[i]);
    }
    free(names);
    return ok;
}

bool model_db_load(const char *dir, model_db *db, model_load_error *err)
{
    memset(db, 0, sizeof *db);
    db->dir = xstrdup(dir);
    char sub[PATH_MAX + 16];
    snprintf(sub, sizeof sub, "%s/arch", dir);
    size_t n;
    char **names = list_ini(sub, &n);
    if (!names || n == 0) {
        free(names);
        snprintf(err->path, sizeof err->path, "%s", sub);
        err->err.line = 0;
        snprintf(err->err.message, sizeof err->err.message,
                 "no architecture models found (set GPULINT_MODELS to gpulint's models/ "
                 "directory)");
        return false;
    }
    db->archs = xcalloc(n, sizeof *db->archs);
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%s", sub, names[i]);
        if (ok) {
            ok = model_load_arch_file(path, &db->archs[db->n_archs], err);
            if (ok)
                db->n_archs++;
        }
        free(names[i]);
    }
    free(names);
    if (!ok)
        return false;
    qsort(db->archs, db->n_archs, sizeof *db->archs, cmp_cc);
    snprintf(sub, sizeof sub, "%s/gpu", dir);
    if (is_dir(sub))
        return load_products(sub, db, err);
    return true;
}

void model_db_free(model_db *db)
{
    free(db->dir);
    free(db->archs);
    free(db->products);
    memset(db, 0, sizeof *db);
}

bool model_normalise_arch(const char *name, char *buf, size_t n)
{
    const char *p = name;
    if (strncasecmp(p, "sm_", 3) == 0 || strncasecmp(p, "sm", 2) == 0)
        p += (p[2] == '_') ? 3 : 2;
    else if (strncasecmp(p, "compute_", 8) == 0)
        p += 8;
    int major = 0, minor = 0;
    if (!isdigit((unsigned char)*p))
        return false;
    const char *dot = strchr(p, '.');
    if (dot) {
        /* "9.0" */
        char *end;
        long ma = strtol(p, &end, 10);
        if (end != dot || !isdigit((unsigned char)dot[1]) || dot[2] || ma < 1 || ma > 99)
            return false;
        major = (int)ma;
        minor = dot[1] - '0';
    } else {
        /* "90", "90a", "100f", "121": the last digit is the minor. */
        size_t digits = 0;
        while (isdigit((unsigned char)p[digits]))
            digits++;
        const char *suffix = p + digits;
        if (digits < 2 || digits > 3 || (*suffix && strcmp(suffix, "a") && strcmp(suffix, "f")))
            return false;
        long v = strtol(p, NULL, 10);
        major = (int)(v / 10);
        minor = (int)(v % 10);
    }
    /* CUDA 13 renamed Jetson Thor's compute capability 10.1 to 11.0. */
    if (major == 10 && minor == 1) {
        major = 11;
        minor = 0;
    }
    snprintf(buf, n, "sm_%d%d", major, minor);
    return true;
}

const gpu_arch *model_find_arch(const model_db *db, const char *name)
{
    char norm[32];
    for (size_t i = 0; i < db->n_archs; i++)
        if (strcasecmp(db->archs[i].name, name) == 0)
            return &db->archs[i];
    if (!model_normalise_arch(name, norm, sizeof norm))
        return NULL;
    for (size_t i = 0; i < db->n_archs; i++)
        if (strcmp(db->archs[i].name, norm) == 0)
            return &db->archs[i];
    return NULL;
}

const gpu_arch *model_find_cc(const model_db *db, int major, int minor)
{
    for (size_t i = 0; i < db->n_archs; i++)
        if (db->archs[i].cc_major == major && db->archs[i].cc_minor == minor)
            return &db->archs[i];
    return NULL;
}

const gpu_product *model_find_twin(const model_db *db, const char *name, const char *arch,
                                   int sm_count)
{
    /* The same name (either containing the other) first: "NVIDIA H100
     * 80GB HBM3" is the h100-sxm model's "NVIDIA H100 SXM5 80GB" only by
     * SMs, but "NVIDIA H200" names the h200 model outright. */
    for (size_t i = 0; i < db->n_products; i++) {
        const gpu_product *p = &db->products[i];
        if (strcmp(p->arch, arch) == 0 && p->sm_count == sm_count &&
            (strstr(name, p->name) || strstr(p->name, name)))
            return p;
    }
    for (size_t i = 0; i < db->n_products; i++) {
        const gpu_product *p = &db->products[i];
        if (strcmp(p->arch, arch) == 0 && p->sm_count == sm_count)
            return p;
    }
    return NULL;
}

gpu_product model_twin_at_device(const gpu_product *twin, const gpu_product *device)
{
    gpu_product merged = *twin;
    merged.sm_count = device->sm_count;
    merged.boost_clock_mhz = device->boost_clock_mhz;
    merged.mem_clock_mhz = device->mem_clock_mhz;
    merged.mem_bus_width_bits = device->mem_bus_width_bits;
    if (device->l2_bytes > 0)
        merged.l2_bytes = device->l2_bytes;
    return merged;
}

const gpu_product *model_find_product(const model_db *db, const char *id)
{
    for (size_t i = 0; i < db->n_products; i++)
        if (strcasecmp(db->products[i].id, id) == 0)
            return &db->products[i];
    return NULL;
}
