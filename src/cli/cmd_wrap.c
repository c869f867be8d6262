/* cmd_wrap: `gpulint wrap [--dir DIR] [--] COMMAND...`, the compiler launcher. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "run/wrap.h"

int cmd_wrap(int argc, char **argv)
{
    const char *dir = NULL;
    bool help = false;
    const opt_spec specs[] = {
        {"dir", 0, OPT_STRING, &dir, NULL, "DIR",
         "keep the records in DIR (default: $GPULINT_WRAP_DIR, else beside each object)"},
        {"help", 'h', OPT_FLAG, &help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    /* wrap's own options end at the command: everything from the compiler
     * on belongs to the build. */
    int end = 1, start;
    while (end < argc && argv[end][0] == '-' && strcmp(argv[end], "--") != 0)
        end += strcmp(argv[end], "--dir") == 0 ? 2 : 1;
    if (end > argc)
        end = argc;
    start = end < argc && strcmp(argv[end], "--") == 0 ? end + 1 : end;
    opt_result res;
    if (!opt_parse(specs, end, argv, &res)) {
        opt_free(&res);
        return diag_error(EXIT_USAGE, "wrap: %s", res.error);
    }
    opt_free(&res);
    if (help) {
        opt_usage("gpulint wrap [--dir DIR] [--] COMPILER ARGS...\n\nRuns the build's compile "
                  "command, adding -Xptxas -v to nvcc where absent, and keeps\nthe resource "
                  "report of each object for 'gpulint --from DIR' and 'gpulint check\n--from DIR'. "
                  "The command's output, files and exit status are its own.\n"
                  "CMake: -DCMAKE_CUDA_COMPILER_LAUNCHER='gpulint;wrap' "
                  "(with ccache: 'gpulint;wrap;ccache')\nMake/Meson: NVCC='gpulint wrap nvcc'",
                  specs);
        return EXIT_OK;
    }
    if (start >= argc)
        return diag_error(EXIT_USAGE, "wrap: give the compile command, e.g. gpulint wrap nvcc -c "
                                      "a.cu -o a.o");
    if (!dir) {
        const char *env = getenv("GPULINT_WRAP_DIR");
        dir = env && env[0] ? env : NULL;
    }
    if (dir && !dir[0])
        return diag_error(EXIT_USAGE, "wrap: --dir needs a directory");
    return wrap_run(argv + start, argc - start, dir);
}
