/* cluster_explain: a cluster occupancy result in words -- the summary
 * `gpulint occupancy --cluster` prints, and with --explain the worked
 * steps per GPC. Pure: renders into an sbuf. */
#ifndef GPULINT_CLUSTER_EXPLAIN_H
#define GPULINT_CLUSTER_EXPLAIN_H

#include <stdbool.h>

#include "analysis/occupancy/occ_cluster.h"
#include "util/sbuf.h"

void cluster_answer_text(sbuf *out, const gpu_arch *a, const occ_cluster_launch *l,
                         const occ_cluster_result *r, bool explain);
/* What `gpulint occupancy --cluster` prints for one shape after the
 * occupancy answer: a blank line, the answer, and where the count is not
 * known, how to give the GPC layout. */
void cluster_block_text(sbuf *out, const gpu_arch *a, const occ_cluster_launch *l,
                        const occ_cluster_result *r, bool explain);
/* "4x2x1" (or "4") into out. */
void cluster_shape_text(sbuf *out, const int dims[3]);

#endif
