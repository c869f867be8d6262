/* pending: weak fallbacks so the binary links while commands are being
 * written in parallel; each real cmd_*.c overrides its entry. Removed once
 * every command has landed. */
#include "cli/cli.h"

#define PENDING(fn)                                                                                \
    __attribute__((weak)) int fn(int argc, char **argv)                                            \
    {                                                                                              \
        (void)argc;                                                                                \
        (void)argv;                                                                                \
        return cli_error(EXIT_INTERNAL, "'%s' is not available in this build", #fn);               \
    }

PENDING(cmd_report)
PENDING(cmd_occupancy)
PENDING(cmd_check)
PENDING(cmd_devices)
PENDING(cmd_models)
PENDING(cmd_bank)
PENDING(cmd_roofline)

#include "config.h"
#if GPULINT_HAVE_CAIRO
#include <stdio.h>

#include "report/chart.h"

__attribute__((weak)) bool chart_occupancy(const gpu_arch *arch, const occ_kernel *k,
                                           const occ_launch *l, const char *title, const char *path,
                                           char *err, size_t errlen)
{
    (void)arch;
    (void)k;
    (void)l;
    (void)title;
    (void)path;
    snprintf(err, errlen, "charts are not available in this build");
    return false;
}
#endif
