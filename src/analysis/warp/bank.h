/* bank: shared-memory bank conflicts. Given the byte address each lane of
 * a warp reads or writes, how many wavefronts (passes through the 32 banks)
 * the request needs, against the ideal for its width; and, for an access
 * site, the worst and average over every warp of the block and every loop
 * iteration. Pure: no I/O, no globals. */
#ifndef GPULINT_BANK_H
#define GPULINT_BANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"
#include "analysis/symbolic/expr.h"
#include "analysis/symbolic/lanes.h"

#define BANK_COUNT 32
#define BANK_WORD_BYTES 4
#define BANK_MAX_GROUPS 4

typedef enum bank_merge {
    BANK_MERGE_NONE,
    BANK_MERGE_LANE_PAIRS,      /* every lane pair 2i, 2i+1 on one address */
    BANK_MERGE_NEIGHBOUR_PAIRS, /* 16-byte: pairs on elements e, e + 1, two per four lanes */
} bank_merge;

/* One warp's request. */
typedef struct bank_request {
    int wavefronts;
    int ideal;             /* groups with an active lane: 1, 2 or 4 for a full warp */
    int groups;            /* lane groups processed separately: 1 (<= 4 bytes), 2 (8), 4 (16) */
    int group_lanes;       /* 32, 16, 8 */
    int banks[BANK_COUNT]; /* distinct 4-byte words each bank holds, over the whole warp */
    int group_banks[BANK_MAX_GROUPS][BANK_COUNT]; /* the same per lane group */
    int group_wavefronts[BANK_MAX_GROUPS];
    int distinct_words; /* over the whole warp */
    /* The lanes were regrouped because they repeat addresses (see bank.c);
     * groups and group_lanes describe the grouping actually used. */
    bank_merge merged;
} bank_request;

/* Bank and word of a byte address (floor division, so negative offsets
 * stay consistent). */
int64_t bank_word_of(int64_t addr);
int bank_of(int64_t addr);

/* Ideal wavefronts of a full warp's request of `width` bytes per lane:
 * width * 32 / 128 rounded up (1, 1, 1, 2, 4 for 1, 2, 4, 8, 16). */
int bank_ideal(int width);

/* addr[l] is lane l's byte offset, read only for lanes in `active`.
 * width is 1, 2, 4, 8 or 16 bytes. False, with why, on a bad width or an
 * address that is not a multiple of the width (the hardware would fault). */
bool bank_request_eval(const int64_t addr[LANES_WARP], uint32_t active, int width,
                       bank_request *out, char *why, size_t why_size);

typedef struct bank_result {
    bool analyzed;
    char reason[LANES_WHY_MAX]; /* when !analyzed */
    int width;
    int worst;      /* wavefronts of the worst request */
    double average; /* over warps x iterations */
    int ideal;      /* bank_ideal(width), or less for the worst request (see bank.c) */
    double degree;  /* worst / ideal */
    long requests;  /* warp-wide requests evaluated */
    int64_t total;  /* wavefronts summed over those requests */
    /* The walk succeeded but no lane of this block reaches the access (a
     * guard excludes them all): 0 requests, not a failure. */
    bool unreached;
    int warps;
    /* The first request that reached `worst`, for explanations. */
    int worst_warp;
    long worst_iteration;
    uint32_t worst_active;
    int64_t worst_addr[LANES_WARP];
    int64_t worst_tid[LANES_WARP][3];
    bank_request worst_req;
    /* The result rests on assumptions (unknown warp-uniform values taken as
     * 0, unknown loop bounds sampled, guards taken as true): note says which. */
    bool assumed;
    bool capped; /* a loop was cut short */
    /* A guard could not be evaluated, so every lane was taken as active:
     * requests and wavefronts are then upper bounds. */
    bool guard_assumed;
    bool bound_sampled; /* a loop bound was unknown and sampled */
    char note[LANES_NOTE_MAX];
} bank_result;

/* Evaluates a->byte_offset in every lane of every warp of a block of
 * block[0] x block[1] x block[2] threads, through the loops around the
 * access. env holds known constants (template arguments, parameters). */
bool bank_analyze(const mem_access *a, const int64_t block[3], const expr_env *env,
                  bank_result *out);

#endif
