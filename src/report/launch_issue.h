/* launch_issue: a launch's warp instructions (analysis/timing/icount) from the
 * compiled code of its kernel and what the source analysis counted for it.
 * The counts are computed with the roofline, before nvcc has finished;
 * the code comes after: the roofline entry carries them (a private key
 * the launch checks remove) until the code is read. The result is the
 * entry's "issue" object, which the time model (report/launch_time) takes. */
#ifndef GPULINT_REPORT_LAUNCH_ISSUE_H
#define GPULINT_REPORT_LAUNCH_ISSUE_H

#include <jansson.h>

#include "analysis/timing/kroof.h"
#include "report/code_report.h"

#define LAUNCH_ISSUE_SITES "_issue_sites"

/* k's issue sites as [[file, line, kind, execs], ...]. */
json_t *launch_issue_sites_json(const kroof *k);

/* Sets roof's "issue" from its sites and the kernel's code (mangled name,
 * arch "sm_90"): SASS where there is a listing, else PTX; "reason" where
 * neither can be counted. warps: the launch's; block: its threads a block
 * (NULL: not known). code may be NULL. */
void launch_issue_add(json_t *roof, const code_listing *code, const char *mangled, const char *arch,
                      double warps, const int64_t block[3]);

/* Drops the private key from every entry of a roofline array. */
void launch_issue_strip(json_t *roofline);

#endif
