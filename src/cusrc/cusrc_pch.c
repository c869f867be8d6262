/* cusrc_pch: a precompiled header of what clang puts in front of every CUDA
 * file (__clang_cuda_runtime_wrapper.h and the toolkit headers it pulls in).
 * Parsing those takes about 0.6 s of a small file's 0.7 s; loading them
 * precompiled takes a tenth of that. One file (about 10 MB) per clang
 * version and argument list, in the cache directory, which keeps the
 * PCH_KEEP most recently used; clang itself rejects a file whose headers
 * changed since, and the caller then parses without it and drops it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cusrc/cusrc_int.h"
#include "util/cachedir.h"

/* FNV-1a, 64 bits: a cache key, not a security boundary; clang validates
 * the file it loads. */
static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ull;
    }
    h ^= 0xff; /* separator: {"ab","c"} and {"a","bc"} differ */
    return h * 0x100000001b3ull;
}

#define PCH_KEEP 8

static bool has_errors(CXTranslationUnit tu)
{
    unsigned n = clang_getNumDiagnostics(tu);
    bool bad = false;
    for (unsigned i = 0; i < n && !bad; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        bad = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error;
        clang_disposeDiagnostic(d);
    }
    return bad;
}

/* Parses an empty CUDA file with the same arguments (so only the implicit
 * headers are in it) and saves it, through a temporary name so that a
 * concurrent gpulint never reads half a file. */
static bool build(CXIndex index, const char *const *args, int n_args, const char *path)
{
    struct CXUnsavedFile files[2] = {
        {.Filename = "gpulint-pch.cu", .Contents = "", .Length = 0},
        cusrc_decls_file(),
    };
    CXTranslationUnit tu = NULL;
    if (clang_parseTranslationUnit2(index, files[0].Filename, args, n_args, files, 2,
                                    CXTranslationUnit_Incomplete |
                                        CXTranslationUnit_ForSerialization,
                                    &tu) != CXError_Success ||
        !tu)
        return false;
    bool ok = !has_errors(tu);
    sbuf tmp;
    sbuf_init(&tmp);
    sbuf_addf(&tmp, "%s.%ld.tmp", path, (long)getpid());
    ok = ok && clang_saveTranslationUnit(tu, sbuf_str(&tmp), clang_defaultSaveOptions(tu)) ==
                   CXSaveError_None;
    clang_disposeTranslationUnit(tu);
    ok = ok && rename(sbuf_str(&tmp), path) == 0;
    if (!ok)
        unlink(sbuf_str(&tmp));
    sbuf_free(&tmp);
    return ok;
}

static bool is_pch(const char *name)
{
    size_t n = strlen(name);
    return strncmp(name, "cuda-wrapper-", 13) == 0 && n > 4 && strcmp(name + n - 4, ".pch") == 0;
}

/* Removes all but the PCH_KEEP most recently used files (use touches). */
static void prune(const char *dir)
{
    for (;;) {
        DIR *d = opendir(dir);
        if (!d)
            return;
        int n = 0;
        char oldest[512] = "";
        struct timespec when = {0};
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!is_pch(e->d_name))
                continue;
            char p[512];
            struct stat st;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            if (stat(p, &st) != 0)
                continue;
            n++;
            if (!oldest[0] || st.st_mtim.tv_sec < when.tv_sec ||
                (st.st_mtim.tv_sec == when.tv_sec && st.st_mtim.tv_nsec < when.tv_nsec)) {
                snprintf(oldest, sizeof oldest, "%s", p);
                when = st.st_mtim;
            }
        }
        closedir(d);
        if (n <= PCH_KEEP || unlink(oldest) != 0)
            return;
    }
}

char *cusrc_pch_get(CXIndex index, const char *const *args, int n_args)
{
    char *dir = cachedir_path(NULL);
    if (!dir)
        return NULL;
    CXString version = clang_getClangVersion();
    uint64_t h = fnv(0xcbf29ce484222325ull, clang_getCString(version));
    clang_disposeString(version);
    struct CXUnsavedFile decls = cusrc_decls_file(); /* part of the header, not on disk */
    h = fnv(h, decls.Contents);
    for (int i = 0; i < n_args; i++)
        h = fnv(h, args[i]);
    sbuf path;
    sbuf_init(&path);
    sbuf_addf(&path, "%s/cuda-wrapper-%016llx.pch", dir, (unsigned long long)h);
    struct stat st;
    char *out = NULL;
    if (stat(sbuf_str(&path), &st) == 0 && S_ISREG(st.st_mode)) {
        utimensat(AT_FDCWD, sbuf_str(&path), NULL, 0); /* recently used */
        out = sbuf_take(&path);
    } else if (build(index, args, n_args, sbuf_str(&path))) {
        out = sbuf_take(&path);
        prune(dir);
    }
    sbuf_free(&path);
    free(dir);
    return out;
}
