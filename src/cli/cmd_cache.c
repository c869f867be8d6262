/* cmd_cache: `gpulint cache --stats|--clear`, what gpulint keeps between
 * runs: results of unchanged files (units/), their compiles (compiles/),
 * precompiled CUDA headers for libclang (*.pch) and built reference kernels
 * (verify/). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "run/unitcache.h"
#include "util/cachedir.h"
#include "util/fsutil.h"
#include "util/sbuf.h"

static void tree_size(const char *path, int64_t *bytes, size_t *files)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        *bytes += (int64_t)st.st_size;
        (*files)++;
        return;
    }
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        sbuf p;
        sbuf_init(&p);
        sbuf_addf(&p, "%s/%s", path, e->d_name);
        tree_size(sbuf_str(&p), bytes, files);
        sbuf_free(&p);
    }
    if (d)
        closedir(d);
}

int cmd_cache(int argc, char **argv)
{
    bool stats = false, clear = false, help = false;
    const opt_spec specs[] = {
        {"stats", 's', OPT_FLAG, &stats, NULL, NULL, "where the cache is and what it holds"},
        {"clear", 'c', OPT_FLAG, &clear, NULL, NULL, "remove everything gpulint keeps there"},
        {"help", 'h', OPT_FLAG, &help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    opt_result res;
    if (!opt_parse(specs, argc, argv, &res)) {
        opt_free(&res);
        return diag_error(EXIT_USAGE, "%s", res.error);
    }
    int n_pos = res.n_positional;
    opt_free(&res);
    if (help) {
        opt_usage("gpulint cache --stats|--clear\n\nThe cache is $GPULINT_CACHE_DIR (empty: "
                  "none), else $XDG_CACHE_HOME/gpulint or ~/.cache/gpulint; results of "
                  "files, and apart from them their compiles, are kept up to "
                  "$GPULINT_CACHE_MAX bytes each (default 512M), least recently used first "
                  "out.",
                  specs);
        return EXIT_OK;
    }
    if (n_pos || stats == clear)
        return diag_error(EXIT_USAGE, "cache: give --stats or --clear");
    char *root = cachedir_path(NULL);
    if (!root)
        return diag_error(EXIT_INPUT, "cache: no cache directory (GPULINT_CACHE_DIR is empty, or "
                                      "it cannot be created)");
    int rc = EXIT_OK;
    if (clear) {
        int64_t bytes = 0;
        size_t files = 0;
        tree_size(root, &bytes, &files);
        DIR *d = opendir(root);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            sbuf p;
            sbuf_init(&p);
            sbuf_addf(&p, "%s/%s", root, e->d_name);
            fsutil_remove_tree(sbuf_str(&p));
            sbuf_free(&p);
        }
        if (d)
            closedir(d);
        printf("%s: removed %zu files, %.1f MiB\n", root, files, (double)bytes / 1048576.0);
    } else {
        static const struct {
            const char *sub, *what;
        } parts[] = {{"units", "results of files (-j runs, -p projects)"},
                     {"compiles", "nvcc's output per file (runs with other --gpu, --define)"},
                     {"verify", "built reference kernels (verify)"}};
        printf("cache %s (results and compiles capped at %.0f MiB each: GPULINT_CACHE_MAX)\n", root,
               (double)unitcache_cap() / 1048576.0);
        int64_t all = 0;
        size_t all_files = 0;
        tree_size(root, &all, &all_files);
        int64_t rest = all;
        size_t rest_files = all_files;
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
            sbuf p;
            sbuf_init(&p);
            sbuf_addf(&p, "%s/%s", root, parts[i].sub);
            int64_t b = 0;
            size_t f = 0;
            tree_size(sbuf_str(&p), &b, &f);
            printf("  %-8s %8zu files %10.1f MiB  %s\n", parts[i].sub, f, (double)b / 1048576.0,
                   parts[i].what);
            rest -= b;
            rest_files -= f;
            sbuf_free(&p);
        }
        printf("  %-8s %8zu files %10.1f MiB  %s\n", "*.pch", rest_files, (double)rest / 1048576.0,
               "precompiled CUDA headers (source analysis)");
    }
    free(root);
    return rc;
}
