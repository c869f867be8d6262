/* access: what the source front end (cusrc/cusrc.c, libclang) hands to the
 * pure analyses: memory access sites, branches and the loops around them,
 * with index expressions as expr trees; and copies of a site with names
 * bound, which the analyses that evaluate it make. */
#ifndef GPULINT_ACCESS_H
#define GPULINT_ACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/expr.h"

typedef struct src_loc {
    char *file; /* as the front end saw it */
    int line, column;
} src_loc;

/* A loop around an access: `for (var = init; cond; var = next)`. cond and
 * next are expressions in var (and other symbols). Any of them may be NULL
 * (unknown); analyses then say the loop could not be followed. */
typedef struct loop_ctx {
    char *var;
    expr *init;
    expr *cond;
    expr *next;
    /* A break, return or goto in the body can end the loop before cond
     * does: its iterations are at most what init, cond and next say. */
    bool leaves_early;
    /* The body calls __syncthreads: each iteration ends for every warp of
     * the block when its slowest warp ends it. */
    bool barrier;
    src_loc loc;
    /* Where the loop statement is spelled: its offset in the file that
     * spells it. Loops a macro writes share the macro's expansion place
     * (loc) and differ here. */
    unsigned spelled_at;
} loop_ctx;

#define ACCESS_MAX_LOOPS 8
#define ACCESS_MAX_DIMS 4

typedef struct smem_array {
    char *name;
    int elem_size; /* bytes of one element */
    int n_dims;    /* 0 for extern __shared__ T x[] (dynamic) */
    int64_t dims[ACCESS_MAX_DIMS];
    bool dynamic; /* extern __shared__ */
    src_loc loc;
} smem_array;

typedef enum access_space { SPACE_SHARED, SPACE_GLOBAL } access_space;

typedef struct mem_access {
    access_space space;
    char *kernel; /* spelling of the enclosing __global__ function */
    char *base;   /* array (shared) or pointer/parameter (global) name */
    int array;    /* index into cusrc_unit.arrays for shared, -1 otherwise */
    bool is_store;
    /* Global only: one half of an atomic's read-modify-write (atomicAdd
     * is a load site and a store site). The hardware makes it one ATOM or
     * RED instruction carried out at L2: one request of the store's
     * sectors through L1, which Nsight Compute counts apart from loads
     * and stores (l1tex__t_sectors_pipe_lsu_mem_global_op_atom/_red);
     * DRAM still reads and writes its lines. */
    bool atomic;
    /* An atomic add of an integer (32 or 64 bits) whose result nothing reads: where
     * every lane of a warp holds the same address, ptxas sums the lanes
     * and one lane makes it (analysis/timing/aggatom). */
    bool atomic_sums;
    bool atomic_float; /* of a float or double: L2 takes them at its own rate */
    int width;         /* bytes one thread moves (4 for float, 16 for float4) */
    /* One of the `pieces` accesses (2 or more) a whole struct is stored in,
     * back to back (a float3 as three 4-byte stores); 0 otherwise. */
    int pieces;
    /* Byte offset from the start of the array / pointer, per lane: the front
     * end flattens multi-dimensional subscripts with the declared extents. */
    expr *byte_offset;
    /* Conjunction of the enclosing if-conditions (NULL = always); a lane for
     * which it is false does not take part in the access. */
    expr *guard;
    int n_loops; /* enclosing loops, outermost first */
    loop_ctx loops[ACCESS_MAX_LOOPS];
    char *text;    /* source text of the access, e.g. "tile[threadIdx.x][j]" */
    char *why_not; /* non-NULL when the site cannot be analysed: the reason */
    /* why_not is only that the offset holds values the kernel reads or
     * computes at run time (a gather, `x[idx[i]]`): the estimates walk
     * access_gather_estimate's copy instead. Each such value (an EX_UNKNOWN
     * leaf of byte_offset) has value ACCESS_DATA_UNIFORM where it was read
     * at an address every lane shares, ACCESS_DATA_PER_LANE otherwise. */
    bool index_from_data;
    /* Inside a __device__ function walked at its call site: the calls from
     * the kernel to it ("tile::load (line 44)"); NULL in the kernel's body. */
    char *via;
    /* In a switch case: the guard does not state when the site runs. */
    bool in_switch;
    /* The statement it is in, numbered in program order (helpers' statements
     * where they are called); sites of one statement share the number. */
    long stmt;
    src_loc loc;
} mem_access;

typedef enum branch_kind { BRANCH_IF, BRANCH_LOOP, BRANCH_TERNARY, BRANCH_SWITCH } branch_kind;

typedef struct branch_site {
    char *kernel;
    branch_kind kind;
    expr *cond; /* for loops: the continuation condition */
    /* The ifs around the branch (as mem_access.guard): a lane that fails
     * them never reaches it. NULL = every lane. */
    expr *guard;
    int n_loops;
    loop_ctx loops[ACCESS_MAX_LOOPS];
    char *text;
    char *why_not;
    char *via; /* as mem_access.via */
    /* An if neither arm of which counts FLOPs or global bytes, nor leaves
     * early: it cannot make the roofline's per-thread counts upper bounds. */
    bool no_work;
    /* Loops: the FP16, FP32 and FP64 FLOPs one iteration of the body does
     * outside its arms and inner loops (0: none, or not a loop). The
     * compiled loop's copies of them tell how far nvcc unrolled it. */
    int64_t iter_flops;
    /* The lines of loc.file the code it guards spans: an if's then and
     * else arms ([0], [1]), a loop's or a switch's whole statement ([0]);
     * 0 where absent, or where the arm shares the branch's own line (a
     * macro's body, a one-line if). The compiled code's blocks on those
     * lines run as often as the arm (analysis/timing/icount). */
    int arm_first[2], arm_last[2];
    src_loc loc;
} branch_site;

/* A copy of a's expressions with env's names folded in (the strings and
 * locations are shared with a); free it with access_bound_free. */
void access_bind(const mem_access *a, const expr_env *env, mem_access *out);
/* Whether two loop contexts are the same loop of the source. */
bool loop_same(const loop_ctx *a, const loop_ctx *b);
/* Leaves loop i of a bound copy out (its counter already bound). */
void access_drop_loop(mem_access *a, int i);
/* A bound copy's thread indices moved by `by` (threadIdx.x read as
 * threadIdx.x + by[0] ...): the threads from by on, walked as those from 0. */
void access_shift_threads(mem_access *a, const int64_t by[3]);
/* The same for the block indices: the blocks from by on. */
void access_shift_blocks(mem_access *a, const int64_t by[3]);
void access_bound_free(mem_access *a);

/* The values of a gather's index (mem_access.index_from_data). */
enum { ACCESS_DATA_PER_LANE = 1, ACCESS_DATA_UNIFORM = 2 };
/* The text of the load whose value EX_UNKNOWN leaf e is, as the front end
 * names it ("value read from memory ('target[i]')": "target[i]", *len
 * bytes, not terminated); NULL for any other node. */
const char *access_read_text(const expr *e, size_t *len);
/* A copy of gather site a (index_from_data) for estimates, free it with
 * access_bound_free: each value read from memory taken as the thread's
 * rank in the grid, so that the index steps one element from lane to lane
 * and no two threads share one (a mesh's node list, sorted keys, a row per
 * thread), or, where it is the same in every lane, as the block's rank (a
 * row per block); why_not cleared. False for any other site. */
bool access_gather_estimate(const mem_access *a, mem_access *out);

#endif
