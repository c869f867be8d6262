/* launch_values: a launch's values as numbers (its constants, its
 * expressions with --define), and the names its kernel's parameters bind. */
#ifndef GPULINT_REPORT_LAUNCH_VALUES_H
#define GPULINT_REPORT_LAUNCH_VALUES_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "analysis/timing/kroof.h"
#include "cusrc/cusrc.h"

/* An integer parameter the index and trip-count expressions can use. */
bool param_bindable(const cusrc_param *p);
/* v's constant, or its expression evaluated with defines (may be NULL). */
bool launch_value(const cusrc_value *v, const kroof_defines *defines, int64_t *out);
bool dim3_with_defines(const cusrc_dim3 *d, const kroof_defines *defines, int64_t out[3]);
/* The launch's integer arguments by parameter name, and its struct
 * arguments' fields ("domain.nx"), where they have values. */
void launch_constants(const cusrc_kernel *k, const cusrc_launch *l, const kroof_defines *defines,
                      kroof_defines *out);
/* The user's bindings (--define, --defines) the launch contradicts, each
 * with the source's value and where it is set; NULL when none. */
json_t *launch_define_conflicts(const cusrc_kernel *k, const cusrc_launch *l,
                                const kroof_defines *user, const char *file);

#endif
