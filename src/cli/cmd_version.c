/* cmd_version: `gpulint --version` / `gpulint version`: what was built and
 * where its data comes from, for bug reports and for scripts that need to
 * know whether the source analysis or charts are there. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config.h"
#include "cusrc/cusrc.h"
#include "gpulint_commit.h"
#include "input/devquery.h"
#include "model/model_load.h"
#include "report/chart.h"
#include "verify/verify.h"

static void part(const char *name, bool built, const char *version, const char *what)
{
    if (built)
        printf("  %-9s %s (%s)\n", name, version, what);
    else
        printf("  %-9s not built (%s unavailable)\n", name, what);
}

static void show_dir(const char *name, const char *dir)
{
    char real[PATH_MAX];
    if (realpath(dir, real))
        printf("  %-9s %s\n", name, real);
    else
        printf("  %-9s %s (missing)\n", name, dir);
}

int cmd_version(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--help") != 0 && strcmp(argv[1], "-h") != 0)
        return diag_error(EXIT_USAGE, "version: takes no arguments");
    if (argc > 1) {
        puts("usage: gpulint --version\n\nThe version, the commit it was built from, the optional "
             "parts built in and the data directories in use.");
        return EXIT_OK;
    }
    char v[64];
    printf("gpulint %s (commit %s)\n", GPULINT_VERSION, GPULINT_COMMIT);
    bool have = cusrc_backend_version(v, sizeof v);
    part("libclang", have, v, "source analysis");
    have = chart_backend_version(v, sizeof v);
    part("cairo", have, v, "charts");
    have = devquery_runtime_version(v, sizeof v);
    part("cudart", have, v, "device query and verify");
    const char *models = model_default_dir();
    show_dir("models", models);
    show_dir("kernels", verify_kernels_dir(models));
    return EXIT_OK;
}
