/* launch_local: the DRAM bytes a launch's local memory adds to the DRAM
 * estimate (analysis/memory/localmem), once its occupancy and executed
 * local traffic (launch_issue) are known; dram_bytes is rewritten in place
 * and holds them apart under "local". */
#ifndef GPULINT_REPORT_LAUNCH_LOCAL_H
#define GPULINT_REPORT_LAUNCH_LOCAL_H

#include <jansson.h>
#include <stdint.h>

#include "model/model.h"
#include "report/findings.h"

void launch_local_apply(json_t *roof, const gpu_product *product, int64_t blocks,
                        int64_t threads_per_block, int blocks_per_sm, int64_t frame_bytes);

/* Local memory that reaches DRAM: a note where a stack frame (local arrays,
 * spills) costs the launch its DRAM bandwidth, from dram_bytes.local. */
void launch_local_note(finding_list *findings, const char *file, int line, int column,
                       const char *kernel, const gpu_product *product, const json_t *roof);

#endif
