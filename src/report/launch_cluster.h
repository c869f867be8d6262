/* launch_cluster: a launch that runs in thread-block clusters -- the
 * clusters resident at once on the target (a "cluster" object on the
 * launch's JSON and a note), or the error the runtime would give. */
#ifndef GPULINT_LAUNCH_CLUSTER_H
#define GPULINT_LAUNCH_CLUSTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/occupancy/occ.h"
#include "cusrc/cusrc.h"
#include "report/findings.h"

typedef struct launch_cluster_in {
    const gpu_arch *arch;
    const gpu_product *product; /* the GPC layout; NULL: none */
    const cusrc_launch *launch;
    const char *kernel; /* the launched kernel's name */
    const char *file;
    const occ_result *occ; /* the launch's occupancy */
    const int64_t *grid;   /* blocks per dimension, NULL when not known */
} launch_cluster_in;

/* Does nothing for a launch without clusters. Where the cluster launch
 * holds fewer blocks an SM than occupancy allows (the sm_90 cap), lowers
 * *held to them -- what the time model and the grid check then see -- and
 * returns true. */
bool launch_cluster_apply(const launch_cluster_in *in, occ_result *held, json_t *launch_json,
                          finding_list *findings);
/* The launch table's cell: "16 blocks/SM, 100.0%", or for a launch the
 * cluster cap lowers "8 blocks/SM, 50.0% (clusters)". */
void launch_cluster_occupancy_cell(const json_t *occ, const json_t *cluster, char *cell, size_t n);

#endif
