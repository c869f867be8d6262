/* launch_share: the DRAM estimate's re-reads of the panels a launch's
 * blocks share (analysis/memory/l2share), counted once the launch's occupancy is
 * known: the source phase leaves them in the roofline entry's dram_bytes
 * (l2_sharing), and the launch phase rewrites dram_bytes in place. */
#ifndef GPULINT_REPORT_LAUNCH_SHARE_H
#define GPULINT_REPORT_LAUNCH_SHARE_H

#include <jansson.h>
#include <stdint.h>

#include "model/model.h"

/* blocks_per_sm and warps_per_sm: the launch's occupancy on product's SMs,
 * of max_warps_per_sm warp slots. */
void launch_share_apply(json_t *roof, const gpu_product *product, const int64_t grid[3],
                        int blocks_per_sm, int warps_per_sm, int max_warps_per_sm);

#endif
