/* launch_maxnreg: a launch of a kernel whose warpgroups change their
 * registers at run time (setmaxnreg): what each warpgroup runs with, what
 * the launch reserves (what occupancy counts) and how many warpgroups can
 * hold the raised count at once -- a "setmaxnreg" object on the launch's
 * JSON and a note, or an error where a raise can never be granted. */
#ifndef GPULINT_LAUNCH_MAXNREG_H
#define GPULINT_LAUNCH_MAXNREG_H

#include <jansson.h>
#include <stdbool.h>

#include "cusrc/cusrc.h"
#include "model/model.h"
#include "report/code_report.h"
#include "report/findings.h"

typedef struct launch_maxnreg_in {
    const gpu_arch *arch;
    const code_listing *code; /* NULL: the PTX was not read */
    const char *mangled;      /* the launched kernel's */
    const char *kernel;
    int launch_regs; /* ptxas's */
    int threads;
    const cusrc_launch *launch;
    const char *file;
} launch_maxnreg_in;

/* True when the kernel uses setmaxnreg (then occupancy advice to cap its
 * registers does not apply). */
bool launch_maxnreg_check(const launch_maxnreg_in *in, json_t *launch_json, finding_list *findings);

#endif
