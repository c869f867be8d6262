/* cmd_sizes: `gpulint sizes FILE.cu`: the main job's analysis, printed as
 * the --defines file of the names the launches need a value for (each
 * with the launches it leaves unsized and where the source gets it), for
 * the user to fill in and pass back with --defines. */
#include "cli/cli.h"

int cmd_sizes(int argc, char **argv)
{
    return cmd_report_as(argc, argv, true);
}
