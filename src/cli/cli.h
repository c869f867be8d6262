/* cli: one entry point per subcommand (as git's builtin/), each in its own
 * cmd_*.c file, plus the helpers they share. Commands return an exit code
 * from util/exitcode.h and print errors through diag_error. */
#ifndef GPULINT_CLI_H
#define GPULINT_CLI_H

#include <jansson.h>

#include <stdbool.h>
#include <stdio.h>

#include "util/diag.h"
#include "util/exitcode.h"

typedef int (*cli_command_fn)(int argc, char **argv);

int cmd_report(int argc, char **argv); /* gpulint [report] FILE.cu ... */
int cmd_sizes(int argc, char **argv);  /* gpulint sizes FILE.cu ... */
/* The main job; with sizes_template, gpulint sizes's output instead. */
int cmd_report_as(int argc, char **argv, bool sizes_template);
int cmd_occupancy(int argc, char **argv);  /* gpulint occupancy */
int cmd_check(int argc, char **argv);      /* gpulint check */
int cmd_devices(int argc, char **argv);    /* gpulint devices */
int cmd_models(int argc, char **argv);     /* gpulint models */
int cmd_bank(int argc, char **argv);       /* gpulint bank */
int cmd_coalesce(int argc, char **argv);   /* gpulint coalesce */
int cmd_warps(int argc, char **argv);      /* gpulint warps */
int cmd_roofline(int argc, char **argv);   /* gpulint roofline */
int cmd_verify(int argc, char **argv);     /* gpulint verify */
int cmd_version(int argc, char **argv);    /* gpulint --version */
int cmd_merge(int argc, char **argv);      /* gpulint merge */
int cmd_cache(int argc, char **argv);      /* gpulint cache */
int cmd_wrap(int argc, char **argv);       /* gpulint wrap */
int cmd_divergence(int argc, char **argv); /* gpulint divergence */
int cmd_launch(int argc, char **argv);     /* gpulint launch */
int cmd_exercises(int argc, char **argv);  /* gpulint exercises */

/* A command's JSON document on stdout, as every command prints it (2-space
 * indent, 6 significant digits); takes the reference. */
void cli_put_json(json_t *doc);
/* Reals of a million and more in doc become the nearest integer, so six
 * significant digits never round a count (cli_put_json does this). */
void cli_json_exact_counts(json_t *doc);

#endif
