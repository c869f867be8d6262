/* siblings: the program's other units as libclang sees them, for a unit
 * whose declared functions another unit defines (cusrc_sibling.c). Internal
 * to run/. */
#ifndef GPULINT_SIBLINGS_H
#define GPULINT_SIBLINGS_H

#include "cusrc/cusrc.h"
#include "input/compdb.h"
#include "run/pipeline.h"

/* Every unit of db (o's project) but file (all of them, whatever the shard),
 * each with its libclang arguments: its compile_commands.json entry's,
 * then the user's "--" ones (the files given on the command line hold
 * those already). */
cusrc_sibling *siblings_of(const pipeline_opts *o, const compdb *db, const char *file, int *n);
void siblings_free(cusrc_sibling *sib, int n);

#endif
