/* launch_names: the names a launch's sizes and counts read and which of
 * them have no value (see launch_names.c). */
#ifndef GPULINT_LAUNCH_NAMES_H
#define GPULINT_LAUNCH_NAMES_H

#include <jansson.h>

#include "analysis/timing/kroof.h"
#include "cusrc/cusrc.h"

/* For a launch of kernel kn: {"reads": [names its sizes and counts
 * read], "unknown": [those the user does not bind], "origins": {name:
 * where it comes from}, "reach": [names of the condition it runs under]}.
 * and "params": [the kernel's parameters], which --define binds too (in
 * the per-thread counts and accesses); only "params" for a kernel
 * without a launch (l NULL). */
json_t *launch_names_json(const cusrc_kernel *kn, const cusrc_launch *l, const kroof *k,
                          const kroof_defines *user);

/* Appends to sizes_from, as {name, value, model}, each binding of `all`
 * that is not the user's (a cudaDeviceProp field the model of the GPU
 * gives) and that the launch's grid, block or shared memory reads. */
void launch_device_props_json(json_t *sizes_from, const cusrc_launch *l, const kroof_defines *all,
                              const kroof_defines *user, const char *model);

#endif
