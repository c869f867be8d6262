/* launch_local: the DRAM bytes a launch's local memory adds to the DRAM
 * estimate (analysis/memory/localmem), once its occupancy and executed
 * local traffic (launch_issue) are known; dram_bytes is rewritten in place
 * and holds them apart under "local". */
#ifndef GPULINT_REPORT_LAUNCH_LOCAL_H
#define GPULINT_REPORT_LAUNCH_LOCAL_H

#include <jansson.h>
#include <stdint.h>

#include "model/model.h"

void launch_local_apply(json_t *roof, const gpu_product *product, int64_t blocks,
                        int64_t threads_per_block, int blocks_per_sm, int64_t frame_bytes);

#endif
