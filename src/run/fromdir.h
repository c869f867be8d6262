/* fromdir: `gpulint --from DIR` and `gpulint check --from DIR`: the report
 * of a build that ran with `gpulint wrap`, made from the records it left
 * (input/wraprec) without compiling anything again. Only ptxas's numbers
 * are known there; the source analyses need `gpulint -p`. Internal to run/. */
#ifndef GPULINT_FROMDIR_H
#define GPULINT_FROMDIR_H

#include "run/pipeline.h"

/* Fills r from o->from_dir (files given filter it by source). Returns an
 * exit code; on failure the error lines were printed, and the records that
 * could be read are still in r. */
int fromdir_run(const pipeline_opts *o, report *r);

#endif
