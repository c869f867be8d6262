/* unitcache: results of unchanged files, kept between runs. */
#include "run/unitcache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "util/cachedir.h"
#include "util/jsontext.h"
#include "util/sbuf.h"
#include "util/units.h"

#define ENTRY_FORMAT "gpulint-unit-1"
#define ENTRY_MAX (256u << 20)

char *unitcache_dir(char *err, size_t errlen)
{
    err[0] = '\0';
    if (!getenv("GPULINT_CACHE_DIR") && !getenv("XDG_CACHE_HOME") && !getenv("HOME"))
        return NULL;
    const char *own = getenv("GPULINT_CACHE_DIR");
    if (own && !own[0])
        return NULL;
    char *dir = cachedir_path("units");
    if (!dir) {
        snprintf(err, errlen, "%s cannot be created",
                 own ? own : "the cache directory ($XDG_CACHE_HOME/gpulint or ~/.cache/gpulint)");
        return NULL;
    }
    /* Writable, and room for an entry: a read-only or full disk is found
     * once here, not per file. */
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s/.probe-%d", dir, (int)getpid());
    int fd = open(sbuf_str(&b), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    bool ok = fd >= 0 && write(fd, "gpulint\n", 8) == 8;
    int saved = errno;
    if (fd >= 0)
        close(fd);
    unlink(sbuf_str(&b));
    sbuf_free(&b);
    if (!ok) {
        snprintf(err, errlen, "%s: %s", dir, strerror(saved ? saved : EIO));
        free(dir);
        return NULL;
    }
    return dir;
}

/* ---- keys ---- */

void unitcache_key_init(unitcache_key *k)
{
    k->state = XXH3_createState();
    XXH3_128bits_reset(k->state);
}

void unitcache_key_add(unitcache_key *k, const char *tag, const void *data, size_t len)
{
    /* Length-prefixed, so ("ab","c") and ("a","bc") differ. */
    uint64_t n = strlen(tag);
    XXH3_128bits_update(k->state, &n, sizeof n);
    XXH3_128bits_update(k->state, tag, n);
    n = len;
    XXH3_128bits_update(k->state, &n, sizeof n);
    if (len)
        XXH3_128bits_update(k->state, data, len);
}

void unitcache_key_str(unitcache_key *k, const char *tag, const char *s)
{
    unitcache_key_add(k, tag, s ? s : "", s ? strlen(s) + 1 : 0);
}

static void hex128(XXH128_hash_t h, char hex[33])
{
    snprintf(hex, 33, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
}

void unitcache_key_end(unitcache_key *k, char hex[33])
{
    hex128(XXH3_128bits_digest(k->state), hex);
    XXH3_freeState(k->state);
    k->state = NULL;
}

/* ---- files ---- */

static char *read_all(const char *path, size_t max, size_t *len);

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void unitcache_key_tree(unitcache_key *k, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            names = xrealloc(names, cap * sizeof *names);
        }
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        sbuf p;
        sbuf_init(&p);
        sbuf_addf(&p, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(sbuf_str(&p), &st) == 0 && S_ISDIR(st.st_mode)) {
            unitcache_key_str(k, "dir", names[i]);
            unitcache_key_tree(k, sbuf_str(&p));
        } else {
            size_t len;
            char *text = read_all(sbuf_str(&p), 64u << 20, &len);
            unitcache_key_str(k, "file", names[i]);
            unitcache_key_add(k, "text", text ? text : "", text ? len : 0);
            free(text);
        }
        sbuf_free(&p);
        free(names[i]);
    }
    free(names);
}

/* Not fileio_read: a file nvcc read may hold any bytes (fileio_read
 * refuses NULs), and only its hash matters here. */
static char *read_all(const char *path, size_t max, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    sbuf b;
    sbuf_init(&b);
    char buf[65536];
    ssize_t r;
    size_t total = 0;
    while ((r = read(fd, buf, sizeof buf)) > 0 && total <= max) {
        sbuf_addn(&b, buf, (size_t)r);
        total += (size_t)r;
    }
    close(fd);
    if (r < 0 || total > max) {
        sbuf_free(&b);
        return NULL;
    }
    *len = total;
    return sbuf_take(&b);
}

static bool hash_file(const char *path, char hex[33])
{
    size_t len;
    char *text = read_all(path, 1u << 30, &len);
    if (!text)
        return false;
    hex128(XXH3_128bits(text, len), hex);
    free(text);
    return true;
}

static char *entry_path(const char *dir, const char *key)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "%s/%.2s/%s.json", dir, key, key);
    return sbuf_take(&b);
}

static void entry_check(const char *record, size_t rlen, const char *output, size_t olen,
                        char hex[33])
{
    XXH3_state_t *s = XXH3_createState();
    XXH3_128bits_reset(s);
    XXH3_128bits_update(s, record, rlen);
    XXH3_128bits_update(s, "\0", 1);
    XXH3_128bits_update(s, output, olen);
    hex128(XXH3_128bits_digest(s), hex);
    XXH3_freeState(s);
}

bool unitcache_lookup(const char *dir, const char *key, char **record, size_t *record_len,
                      char **output, size_t *output_len)
{
    char *path = entry_path(dir, key);
    size_t len;
    char *text = read_all(path, ENTRY_MAX, &len);
    json_t *e = text ? json_loadb(text, len, 0, NULL) : NULL;
    free(text);
    bool hit = false;
    char *rec = NULL, *out = NULL;
    const char *fmt = json_string_value(json_object_get(e, "format"));
    const char *k = json_string_value(json_object_get(e, "key"));
    const char *check = json_string_value(json_object_get(e, "check"));
    const json_t *deps = json_object_get(e, "deps");
    if (!fmt || strcmp(fmt, ENTRY_FORMAT) || !k || strcmp(k, key) || !check || !json_is_array(deps))
        goto out;
    rec = json_bytes_value(json_object_get(e, "record"));
    out = json_bytes_value(json_object_get(e, "output"));
    if (!rec || !out)
        goto out;
    char want[33];
    entry_check(rec, strlen(rec), out, strlen(out), want);
    if (strcmp(want, check) != 0)
        goto out; /* torn or edited: rebuilt by the caller */
    size_t i;
    json_t *d;
    json_array_foreach(deps, i, d)
    {
        const char *p = json_string_value(json_array_get(d, 0));
        const char *h = json_string_value(json_array_get(d, 1));
        char now[33];
        if (!p || !h || !hash_file(p, now) || strcmp(now, h) != 0)
            goto out;
    }
    hit = true;
    utimensat(AT_FDCWD, path, NULL, 0); /* recently used: trimmed last */
    *record = rec;
    *record_len = strlen(rec);
    *output = out;
    *output_len = strlen(out);
    rec = out = NULL;
out:
    free(rec);
    free(out);
    json_decref(e);
    free(path);
    return hit;
}

/* The paths of a make rule ("target: a b \\\n c", "\ " for a space). */
static json_t *dep_paths(const char *text, const char *skip_prefix)
{
    json_t *list = json_array();
    const char *p = strstr(text, ": ");
    if (!p) {
        p = strstr(text, ":\n");
        if (!p)
            return list;
    }
    p++;
    char cwd[PATH_MAX];
    bool have_cwd = getcwd(cwd, sizeof cwd) != NULL;
    sbuf w;
    sbuf_init(&w);
    for (;; p++) {
        bool end = *p == '\0';
        if (!end && *p == '\\' && p[1] == '\n') {
            p++;
            continue;
        }
        if (!end && *p == '\\' && p[1] == ' ') {
            sbuf_addc(&w, ' ');
            p++;
            continue;
        }
        if (!end && *p == '$' && p[1] == '$') {
            sbuf_addc(&w, '$');
            p++;
            continue;
        }
        if (end || *p == ' ' || *p == '\n' || *p == '\t') {
            const char *s = sbuf_str(&w);
            if (*s && !(skip_prefix && !strncmp(s, skip_prefix, strlen(skip_prefix)))) {
                sbuf full;
                sbuf_init(&full);
                if (s[0] != '/' && have_cwd)
                    sbuf_addf(&full, "%s/", cwd);
                sbuf_add(&full, s);
                json_array_append_new(list, json_string_nocheck(sbuf_str(&full)));
                sbuf_free(&full);
            }
            sbuf_free(&w);
            sbuf_init(&w);
            if (end)
                break;
            continue;
        }
        sbuf_addc(&w, *p);
    }
    sbuf_free(&w);
    return list;
}

bool unitcache_store(const char *dir, const char *key, const char *deps_text,
                     const char *skip_prefix, const char *record, size_t record_len,
                     const char *output, size_t output_len)
{
    json_t *paths = dep_paths(deps_text, skip_prefix), *deps = json_array();
    size_t i;
    json_t *p;
    bool ok = true;
    json_array_foreach(paths, i, p)
    {
        bool seen = false; /* nvcc's list and libclang's share most files */
        for (size_t k = 0; k < json_array_size(deps) && !seen; k++)
            seen = json_equal(json_array_get(json_array_get(deps, k), 0), p);
        if (seen)
            continue;
        char h[33];
        if (!hash_file(json_string_value(p), h)) {
            ok = false; /* a file nvcc read is gone already: not worth keeping */
            break;
        }
        json_array_append_new(deps, json_pack("[O, s]", p, h));
    }
    json_decref(paths);
    if (!ok) {
        json_decref(deps);
        return false;
    }
    char *rec = xstrndup(record, record_len), *out = xstrndup(output, output_len);
    char check[33];
    entry_check(rec, strlen(rec), out, strlen(out), check);
    json_t *e =
        json_pack("{s:s, s:s, s:o, s:o, s:o, s:s}", "format", ENTRY_FORMAT, "key", key, "deps",
                  deps, "record", json_bytes(rec), "output", json_bytes(out), "check", check);
    free(rec);
    free(out);
    char *path = entry_path(dir, key);
    sbuf sub, tmp;
    sbuf_init(&sub);
    sbuf_addf(&sub, "%s/%.2s", dir, key);
    sbuf_init(&tmp);
    sbuf_addf(&tmp, "%s.tmp-%d", path, (int)getpid());
    ok = e && cachedir_make(sbuf_str(&sub)) &&
         json_dump_file(e, sbuf_str(&tmp), JSON_COMPACT) == 0 &&
         rename(sbuf_str(&tmp), path) == 0; /* whole or not at all */
    if (!ok)
        unlink(sbuf_str(&tmp));
    json_decref(e);
    sbuf_free(&sub);
    sbuf_free(&tmp);
    free(path);
    return ok;
}

/* ---- size ---- */

typedef struct entry_file {
    char *path;
    int64_t size;
    struct timespec used;
} entry_file;

static entry_file *list_entries(const char *dir, size_t *n)
{
    entry_file *v = NULL;
    size_t cap = 0;
    *n = 0;
    DIR *top = opendir(dir);
    struct dirent *d;
    while (top && (d = readdir(top))) {
        if (strlen(d->d_name) != 2)
            continue;
        sbuf sub;
        sbuf_init(&sub);
        sbuf_addf(&sub, "%s/%s", dir, d->d_name);
        DIR *in = opendir(sbuf_str(&sub));
        struct dirent *f;
        while (in && (f = readdir(in))) {
            if (f->d_name[0] == '.')
                continue;
            sbuf p;
            sbuf_init(&p);
            sbuf_addf(&p, "%s/%s", sbuf_str(&sub), f->d_name);
            struct stat st;
            if (stat(sbuf_str(&p), &st) == 0 && S_ISREG(st.st_mode)) {
                if (*n == cap) {
                    cap = cap ? cap * 2 : 256;
                    v = xrealloc(v, cap * sizeof *v);
                }
                v[(*n)++] = (entry_file){sbuf_take(&p), (int64_t)st.st_size, st.st_mtim};
            } else {
                sbuf_free(&p);
            }
        }
        if (in)
            closedir(in);
        sbuf_free(&sub);
    }
    if (top)
        closedir(top);
    return v;
}

void unitcache_stats(const char *dir, int64_t *bytes, size_t *entries)
{
    size_t n;
    entry_file *v = list_entries(dir, &n);
    *bytes = 0;
    *entries = n;
    for (size_t i = 0; i < n; i++) {
        *bytes += v[i].size;
        free(v[i].path);
    }
    free(v);
}

static int by_use(const void *a, const void *b)
{
    const entry_file *x = a, *y = b;
    if (x->used.tv_sec != y->used.tv_sec)
        return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
    if (x->used.tv_nsec != y->used.tv_nsec)
        return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
    return strcmp(x->path, y->path);
}

void unitcache_trim(const char *dir, int64_t cap)
{
    size_t n;
    entry_file *v = list_entries(dir, &n);
    int64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += v[i].size;
    if (n > 1)
        qsort(v, n, sizeof *v, by_use);
    for (size_t i = 0; i < n; i++) {
        if (total > cap && unlink(v[i].path) == 0)
            total -= v[i].size;
        free(v[i].path);
    }
    free(v);
}

int64_t unitcache_cap(void)
{
    const char *s = getenv("GPULINT_CACHE_MAX");
    int64_t v;
    if (s && units_parse_bytes(s, &v) && v >= 0)
        return v;
    return UNITCACHE_DEFAULT_CAP;
}
