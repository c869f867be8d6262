/* icount: the warp instructions a launch issues, from its compiled code
 * (SASS, or PTX, with the source line of each instruction) and the counts
 * the source analysis already has. Nsight Compute's smsp__inst_executed is
 * what it predicts.
 *
 * A basic block of the code runs as often as any of its instructions, so a
 * block is placed by an anchor: a memory instruction on the line of a
 * source access whose warp requests over the grid are known (analysis/
 * traffic), or a loop's backward branch on the line of a source loop whose
 * iterations per warp are known (the divergence counts). The entry block
 * runs once per warp. A block with one way in from a block with one way
 * out runs as often as that block; what no rule places runs as often as
 * the most placed block of the innermost loop around it, or once per warp
 * outside loops, and is counted apart (`guessed`). Pure: no I/O. */
#ifndef GPULINT_ANALYSIS_ICOUNT_H
#define GPULINT_ANALYSIS_ICOUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/timing/imix.h"
#include "analysis/timing/pipes.h"

typedef enum icount_kind {
    ICOUNT_LOAD_GLOBAL,
    ICOUNT_STORE_GLOBAL,
    ICOUNT_LOAD_SHARED,
    ICOUNT_STORE_SHARED,
    ICOUNT_LOOP, /* a loop's iterations: its backward branch */
    ICOUNT_ARM,  /* an if's arm, lines [line, last_line]: its warp executions (< 0: unknown) */
    ICOUNT_LOOP_LINES,    /* a loop's lines [line, last_line] */
    ICOUNT_BRANCH_LINE,   /* the line of a source branch's condition (if, ?:, loop, switch) */
    ICOUNT_ATOMIC_GLOBAL, /* a global atomic: one ATOM or RED */
    ICOUNT_KINDS
} icount_kind;

/* A source count tied to a line of the code: file is the code's own file
 * index (the caller matches paths), execs the warp executions over the
 * launch (requests of an access, iterations summed over warps of a loop). */
typedef struct icount_anchor {
    int file, line;
    icount_kind kind;
    double execs;
    double iter_flops; /* loops: FLOPs one source iteration does (0: none) */
    double step;       /* loops: what the source's counter adds each iteration (0: unknown) */
    int last_line;     /* arms: the last line */
    /* Shared loads of the PTX that ptxas issues as one wide load, this many
     * to one (icount_site.merged); 0 or 1: none. */
    int merged;
} icount_anchor;

/* The same on the source's side, before its file is matched with the
 * code's: the path as the front end saw it. */
typedef struct icount_site {
    const char *file;
    int line;
    icount_kind kind;
    double execs;
    /* > 1: ptxas issues the site as one wide load for this many of the
     * source's (analysis/warp/vecmerge): execs counts the wide loads, which the
     * SASS holds; the PTX still holds the source's scalar loads. */
    int merged;
    double iter_flops; /* loops: as icount_anchor.iter_flops */
    double step;       /* loops: as icount_anchor.step */
    int last_line;     /* arms: as icount_anchor.last_line */
} icount_site;

typedef struct icount {
    bool ok;
    char why[160];       /* when !ok */
    double warp_insts;   /* over the launch */
    double guessed;      /* of them, in blocks no anchor or flow placed */
    size_t blocks;       /* basic blocks reached from the entry */
    size_t placed;       /* of them, placed by an anchor, the entry or the flow */
    size_t anchors_used; /* anchors that met an instruction */
    /* Tensor FLOPs over the launch from the MMA shapes the opcodes name
     * (imix_tensor_flops), by input type; tensor warp instructions whose
     * shape is not named are counted apart. */
    double tensor_flops[IMIX_N_TENSOR_TYPES];
    double tensor_unknown;
    /* PTX only: SM clocks the warps take to issue the placed blocks, each
     * warp alone (analysis/timing/depchain), summed over the launch's
     * warps; 0 from SASS. */
    double placed_chain_cycles;
    /* The placed blocks' warp instructions by the pipe they issue to
     * (analysis/timing/pipes): what slows their issue. */
    double placed_pipes[PIPES_N];
    /* Bytes the warps' local loads and stores move over the launch (every
     * lane active; guessed blocks included): a stack frame's traffic, which
     * no source access counts. */
    double local_load_bytes, local_store_bytes;
} icount;

/* How many iterations of its loop one pass through the code runs for the
 * global loads of source line (file, line): the copies of them in the
 * innermost code loop that holds the most, over the copies in the one
 * that holds the fewest (nvcc's unrolled loop against its remainder
 * loop), or over `sites` (the source's loads on that line) where one code
 * loop holds them. 1 where no code loop holds them (a loop unrolled in
 * full, or none). */
double icount_unrolled(imix_level level, const imix_insn *insns, size_t n, int file, int line,
                       size_t sites);

/* warps: the launch's warps. False (with why) when the code has no line
 * information or no instruction. PTX is taken for a whole kernel: its
 * count has the SASS prologue ptxas adds to every kernel. */
bool icount_compute(imix_level level, const imix_insn *insns, size_t n, const icount_anchor *a,
                    size_t n_anchors, double warps, icount *out);

/* The same, for blocks of threads[0] x threads[1] x threads[2]: PTX code
 * that jumps on the thread index runs on the warps that take it; sm is
 * the target the PTX is compiled for (90 for sm_90a; 0 = unknown), which
 * decides what ptxas makes of its literals. */
bool icount_compute_in(imix_level level, const imix_insn *insns, size_t n, const icount_anchor *a,
                       size_t n_anchors, double warps, const int64_t threads[3], int sm,
                       icount *out);

#endif
