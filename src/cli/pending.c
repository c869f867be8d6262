/* pending: weak fallbacks so the binary links while commands are being
 * written in parallel; each real cmd_*.c overrides its entry. Removed once
 * every command has landed. */
#include "cli/cli.h"

#define PENDING(fn)                                                                           \
    __attribute__((weak)) int fn(int argc, char **argv)                                       \
    {                                                                                         \
        (void)argc;                                                                           \
        (void)argv;                                                                           \
        return cli_error(EXIT_INTERNAL, "'%s' is not available in this build", #fn);          \
    }

PENDING(cmd_report)
PENDING(cmd_occupancy)
PENDING(cmd_check)
PENDING(cmd_devices)
PENDING(cmd_models)
PENDING(cmd_bank)
PENDING(cmd_roofline)
