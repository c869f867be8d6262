/* localmem: the DRAM traffic of a launch's local memory (ptxas's stack
 * frame: local arrays, spills), which no source access counts. A thread's
 * frame sits in memory only its SM slot uses; successive threads of a slot
 * reuse it. Its lines stay in the L2 while everything the GPU touches
 * between two uses fits there; past that, every dirty line is written
 * back and a load misses with the chance that its line was evicted.
 * Pure: no I/O. */
#ifndef GPULINT_ANALYSIS_LOCALMEM_H
#define GPULINT_ANALYSIS_LOCALMEM_H

#include <stdbool.h>

typedef struct localmem_launch {
    double threads;           /* launched */
    double resident_threads;  /* the GPU holds at once (occupancy x SMs) */
    double frame_bytes;       /* ptxas's stack frame, a thread */
    double load_bytes;        /* the local loads' bytes over the launch (executed) */
    double store_bytes;       /* the local stores' */
    double global_dram_bytes; /* the launch's other DRAM traffic, estimated */
    double l2_bytes;
    /* Dirty bytes the L2 still holds when the launch ends (the product's
     * l2_write_retained_bytes) that the launch's global writes leave free:
     * written back after it. */
    double retained_bytes;
} localmem_launch;

typedef struct localmem_dram {
    double working_set; /* bytes the L2 must hold between two uses of a line */
    double miss;        /* the chance a local load's line was evicted */
    double read, write; /* DRAM bytes the local traffic adds */
} localmem_dram;

/* false: nothing to add (no frame, no traffic, or sizes not known). */
bool localmem_dram_traffic(const localmem_launch *l, localmem_dram *out);

#endif
