/* project: which files a run lints and with which of their build's nvcc
 * arguments: the command line's files, or every CUDA unit of -p's
 * compile_commands.json (files given with -p filter it), then --shard K/N.
 * Internal to run/. */
#ifndef GPULINT_PROJECT_H
#define GPULINT_PROJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "cusrc/cusrc.h"
#include "input/compdb.h"

typedef struct project {
    char **files; /* as shown: relative to the working directory when under it */
    char ***args; /* each file's compile_commands.json arguments, or NULL */
    int *n_args;
    int n;
    compdb db;
    cusrc_xcalls calls; /* the host units' calls into the CUDA units (run/xcalls) */
    char *calls_text;
} project;

/* Fills p (caller frees with project_free). Returns an exit code; on
 * failure the one error line was printed. */
int project_files(const char *compdb_dir, char *const *files, int n_files, const char *shard,
                  project *p);
void project_free(project *p);
/* Without -p, files named together on the command line are taken as the
 * units of one program (each with the arguments after "--"), so that the
 * sizes a unit's main passes to another unit's functions follow there
 * (run/xcalls) as in a compile_commands.json project. All the files named,
 * whichever --shard lints: a shard's results are the whole run's. */
void project_command_line_units(project *p, char *const *files, int n_files, char *const *extra,
                                int n_extra);

/* An absolute path as shown: relative to the working directory when under
 * it (the names a user typed, the same on every CI machine). */
char *project_shown_name(const char *abs);

/* "K/N" into k (1-based) and n; false when malformed or out of range. */
bool project_parse_shard(const char *s, int *k, int *n);

#endif
