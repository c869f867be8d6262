/* cluster_report: a cluster occupancy result as the JSON object of
 * `gpulint occupancy --cluster` and of each clustered launch. */
#ifndef GPULINT_CLUSTER_REPORT_H
#define GPULINT_CLUSTER_REPORT_H

#include <jansson.h>

#include "analysis/occupancy/occ_cluster.h"

json_t *cluster_json(const gpu_arch *a, const occ_cluster_launch *l, const occ_cluster_result *r);

#endif
