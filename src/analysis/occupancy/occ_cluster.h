/* occ_cluster: thread-block clusters on one GPU -- how many can be resident
 * at once (cudaOccupancyMaxActiveClusters), the largest that fits
 * (cudaOccupancyMaxPotentialClusterSize), and the launch errors a cluster
 * shape gets before anything runs. Pure. The rule, fitted to and checked
 * against the runtime's answers on an H200 (tests/data/clusterprobe):
 * all blocks of a cluster run in one GPC, so each GPC of n SMs holds
 * floor(n x b / c) clusters of c blocks when n >= c, none otherwise, where
 * b is the blocks per SM occupancy allows, capped for cluster launches. */
#ifndef GPULINT_OCC_CLUSTER_H
#define GPULINT_OCC_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/occupancy/occ.h"
#include "model/model.h"

typedef enum occ_cluster_failure {
    OCC_CLUSTER_OK = 0,
    OCC_CLUSTER_UNSUPPORTED, /* the arch has no clusters (before sm_90) */
    OCC_CLUSTER_UNMEASURED,  /* clusters exist, their limits are not in the model */
    OCC_CLUSTER_BAD_SHAPE,   /* a dimension below 1 */
    OCC_CLUSTER_TOO_LARGE,   /* above the non-portable limit */
    OCC_CLUSTER_NEEDS_OPTIN, /* above the portable limit without the opt-in */
    OCC_CLUSTER_GRID,        /* the grid is not a whole number of clusters */
    OCC_CLUSTER_BLOCK,       /* the block itself cannot launch */
    OCC_CLUSTER_NO_LAYOUT,   /* the model has no GPC layout: count unknown */
    OCC_CLUSTER_NO_GPC,      /* no GPC holds a whole cluster */
} occ_cluster_failure;

typedef struct occ_cluster_launch {
    int dims[3];
    bool nonportable; /* cudaFuncAttributeNonPortableClusterSizeAllowed set */
    int grid[3];      /* blocks; 0 where not known */
} occ_cluster_launch;

typedef struct occ_cluster_result {
    occ_cluster_failure failure;
    int size;       /* blocks per cluster */
    int size_limit; /* the limit that applies: portable, or non-portable with the opt-in */
    /* Blocks an SM holds: what occupancy allows, and under the cluster cap. */
    int occ_blocks_per_sm, blocks_per_sm;
    bool capped;                 /* the cluster cap, not occupancy, set blocks_per_sm */
    int64_t clusters;            /* resident at once on the GPU */
    int n_gpcs;                  /* 0 when the layout is not known */
    int gpc_sms[MODEL_MAX_GPCS]; /* copied from the model */
    int gpc_clusters[MODEL_MAX_GPCS];
    int sms_used;       /* SMs of the GPCs that hold a cluster */
    int64_t slots_idle; /* block slots of all SMs no cluster can fill */
    /* cudaOccupancyMaxPotentialClusterSize without and with the opt-in
     * (0 when no cluster fits). */
    int largest_portable, largest_nonportable;
} occ_cluster_result;

/* occ is the launch's occ_compute result. gpcs may be NULL (n_gpcs 0):
 * everything but the counts is still filled. Returns false on a failure. */
bool occ_cluster_compute(const gpu_arch *arch, const int *gpcs, int n_gpcs, const occ_result *occ,
                         const occ_cluster_launch *l, occ_cluster_result *r);

/* "2,4x2,1x1x8": up to max shapes into dims; false with a sentence in why
 * (which names the bad shape). */
#define OCC_CLUSTER_MAX_SHAPES 16
bool occ_cluster_parse_list(const char *text, int dims[][3], int max, int *n, char *why,
                            size_t why_len);
/* The runtime's words for a failure ("cudaErrorInvalidClusterSize: ...");
 * NULL for OCC_CLUSTER_OK. */
const char *occ_cluster_failure_reason(occ_cluster_failure f);

#endif
