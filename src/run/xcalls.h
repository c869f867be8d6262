/* xcalls: before a compile_commands.json project's CUDA units run, its
 * host C/C++ units and the CUDA units that define main are read (each in a
 * pool worker, as the CUDA units are)
 * for their calls into functions defined elsewhere with the constant
 * arguments and call paths (cusrc_xcall.c), then, round by round, the
 * CUDA units those calls go to, with them bound; each CUDA unit's scan
 * then follows its functions from all of them. Internal to run/. */
#ifndef GPULINT_XCALLS_H
#define GPULINT_XCALLS_H

#include <jansson.h>

#include "cusrc/cusrc.h"
#include "input/compdb.h"
#include "run/pipeline.h"

/* Reads db's host units into *out and their JSON text into *text (caller
 * frees both). A unit that cannot be read is named in a note and adds
 * nothing. */
void xcalls_collect(const pipeline_opts *o, const compdb *db, cusrc_xcalls *out, char **text);

/* The record of one unit's calls, and back (appending to out). */
json_t *xcalls_to_json(const cusrc_xcalls *x);
void xcalls_from_json(const json_t *j, cusrc_xcalls *out);

#endif
