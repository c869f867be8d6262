/* main: dispatch to a subcommand; no logic lives here. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "config.h"

static const struct {
    const char *name;
    cli_command_fn fn;
    const char *summary;
} commands[] = {
    {"report", cmd_report, "the main job by name: 'gpulint report FILE.cu' = 'gpulint FILE.cu'"},
    {"sizes", cmd_sizes,
     "the names a file's launches need a value for, as a --defines file to fill in"},
    {"occupancy", cmd_occupancy, "occupancy calculator (with --explain: worked steps)"},
    {"check", cmd_check, "fail when registers, spills, stack or occupancy cross a threshold"},
    {"bank", cmd_bank, "shared-memory bank-conflict calculator"},
    {"coalesce", cmd_coalesce, "global-memory coalescing calculator"},
    {"warps", cmd_warps, "how a launch's threads fall into warps"},
    {"divergence", cmd_divergence,
     "divergence calculator: warps entering and diverging, SIMD efficiency"},
    {"launch", cmd_launch,
     "launch planner: block shapes for a problem, idle threads, occupancy, waves"},
    {"roofline", cmd_roofline, "roofline calculator"},
    {"exercises", cmd_exercises,
     "the textbook exercises: question, gpulint's answer, the book's, and why they differ"},
    {"verify", cmd_verify,
     "run the reference kernels on this GPU: predictions against measurement"},
    {"merge", cmd_merge, "one report from the JSON reports or SARIF logs of --shard runs"},
    {"wrap", cmd_wrap,
     "compiler launcher for the real build: records ptxas's report per object (--from)"},
    {"cache", cmd_cache, "what gpulint keeps between runs: --stats, --clear"},
    {"devices", cmd_devices, "query the local GPU(s) through the CUDA runtime"},
    {"models", cmd_models, "list the bundled architecture and GPU models"},
    {"version", cmd_version, "the version, commit, optional parts built and data directories"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: gpulint [options] FILE.cu... [-- nvcc-args]\n"
               "       gpulint --ptxas-log LOG [options]\n"
               "       gpulint --from BUILD_DIR [options]   (after a build under gpulint wrap)\n"
               "       gpulint <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'gpulint FILE.cu --help' and 'gpulint <command> --help' list the options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0)
        return cmd_version(argc - 1, argv + 1);
    if (strcmp(argv[1], "help") == 0 || (strcmp(argv[1], "--help") == 0 && argc == 2)) {
        usage(stdout);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    return cmd_report(argc, argv);
}
