/* web_cluster: the --cluster part of the web page's occupancy answer. */
#ifndef GPULINT_WEB_CLUSTER_H
#define GPULINT_WEB_CLUSTER_H

#include <stdbool.h>

#include "analysis/occupancy/occ_cluster.h"
#include "util/sbuf.h"
#include "web/web_req.h"

typedef struct web_clusters {
    int n; /* shapes asked for; 0: no --cluster */
    occ_cluster_launch launch[OCC_CLUSTER_MAX_SHAPES];
    int n_gpcs, gpcs[MODEL_MAX_GPCS];
} web_clusters;

/* cluster, non-portable, grid and gpc-sms, as `gpulint occupancy` takes them. */
bool web_clusters_parse(const web_api *api, const web_req *r, web_clusters *out, web_err *e);
/* The "clusters" array (and "cluster_error" for a refused shape) into
 * json, the command line's words into text. */
void web_clusters_answer(const web_clusters *w, const gpu_arch *a, const occ_result *occ,
                         bool explain, sbuf *json, int *count, sbuf *text);

#endif
