/* footprint: the bytes of global memory a launch touches, array by array:
 * the union, over every thread of the grid and every iteration of the loops
 * around each access, of the bytes the access reads or writes. With a cold
 * L2 every byte read must come from DRAM once, and written bytes the L2
 * cannot hold at the end must go there: the compulsory traffic, a lower
 * bound on DRAM bytes whatever the caches do. A site whose addresses or
 * iteration space cannot be followed exactly is left out, which keeps the
 * figure a lower bound and says so. Pure: no I/O, no globals. */
#ifndef GPULINT_ANALYSIS_FOOTPRINT_H
#define GPULINT_ANALYSIS_FOOTPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"
#include "analysis/symbolic/expr.h"

typedef struct footprint_site {
    const mem_access *access; /* global sites only; others are ignored */
    /* The memory it addresses: sites with the same name share bytes (the
     * caller maps pointer parameters bound to one allocation together). */
    const char *array;
} footprint_site;

/* read_bytes: bytes read that no site writes (a byte also written may be
 * written before it is read, and then never comes from DRAM); write_bytes:
 * bytes written; bytes: read or written. */
typedef struct footprint_array {
    char *name;
    int64_t read_bytes, write_bytes, bytes;
    /* 32-byte sectors DRAM must read for read_bytes, at least: the fewest
     * 32-byte windows that cover them, whatever the alignment. */
    int64_t read_sectors;
    /* 64-byte blocks holding a byte any site reads (written or not: an
     * estimate takes a read-modify-write's read as the first touch), the
     * array's byte 0 taken 64-byte aligned (cudaMalloc aligns to 256):
     * what DRAM reads, as it fetches 64 bytes for a lone sector
     * (scripts/timeprobe/dramprobe.cu). */
    int64_t read_blocks64;
    /* 32-byte sectors (byte 0 aligned) holding write_bytes: L2 writes a
     * dirty sector back whole, however little of it was stored. */
    int64_t write_sectors;
    /* Of those, the sectors written in part that no site reads, and the
     * 128-byte lines that hold them: L2 brings the rest of such a sector
     * from DRAM (scripts/timeprobe/coldpartial.cu). */
    int64_t partial_write_sectors, partial_write_lines;
    int n_sites, n_left_out, n_partial;
    bool reads_uncertain; /* read_bytes a lower bound: see footprint.why */
} footprint_array;

typedef struct footprint {
    size_t n_arrays;
    footprint_array *arrays;
    int64_t read_bytes, write_bytes, bytes; /* sums over the arrays */
    int64_t read_sectors, read_blocks64, write_sectors;
    int64_t partial_write_sectors, partial_write_lines; /* footprint_array's, summed */
    int n_sites, n_left_out;
    int n_partial; /* followed through part of their loops (a subset) */
    /* NULL when every site was followed in full (the figures are exact);
     * else why the first one was not ("in[i * i] (line 14): ..."): lower
     * bounds. */
    char *why;
    /* footprint_cover: sites counted by the box around them, and which. */
    int n_covered;
    char *covered;
} footprint;

/* Sites of one launch of grid x block threads; env binds the names the
 * launch and --define give values (may be NULL). */
void footprint_compute(const footprint_site *sites, size_t n, const int64_t grid[3],
                       const int64_t block[3], const expr_env *env, footprint *out);
/* The same for an estimate: a site with a condition on two indices at
 * once (a triangle, a halo's bounds check) is counted by the box around it
 * (affbox_cover), more bytes than it touches; n_covered says how many. */
void footprint_cover(const footprint_site *sites, size_t n, const int64_t grid[3],
                     const int64_t block[3], const expr_env *env, footprint *out);
/* The same for the one block bid of the launch: what that block's threads
 * touch together, each byte once however many of them touch it; cover:
 * for an estimate, as footprint_cover counts. */
void footprint_of_block(const footprint_site *sites, size_t n, const int64_t grid[3],
                        const int64_t block[3], const expr_env *env, const int64_t bid[3],
                        bool cover, footprint *out);
/* The same for the blocks first to first + span - 1 together (two
 * neighbours: what they share counts once). */
void footprint_of_blocks(const footprint_site *sites, size_t n, const int64_t grid[3],
                         const int64_t block[3], const expr_env *env, const int64_t first[3],
                         const int64_t span[3], footprint *out);
/* The same for warp number `warp` of block bid (0 the first), where a warp
 * is a row of the block (blockDim.x a multiple of 32); false, out empty,
 * otherwise. */
bool footprint_of_warp(const footprint_site *sites, size_t n, const int64_t grid[3],
                       const int64_t block[3], const expr_env *env, const int64_t bid[3], int warp,
                       bool cover, footprint *out);
void footprint_free(footprint *f);

#endif
