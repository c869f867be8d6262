/* icount: a launch's warp instructions (see icount.h). */
#include "analysis/timing/icount.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/depchain.h"
#include "analysis/timing/icfg.h"
#include "analysis/timing/rarearm.h"
#include "analysis/timing/literals.h"
#include "analysis/timing/aggatom.h"
#include "analysis/timing/ptxcost.h"
#include "analysis/timing/tidguard.h"
#include "util/sbuf.h" /* xcalloc */

/* "BRA", "BRA.U", "bra.uni": op is mnemonic m with modifiers or none. */
static bool op_is(const char *op, const char *m)
{
    size_t k = strlen(m);
    return strncmp(op, m, k) == 0 && (op[k] == '\0' || op[k] == '.' || op[k] == ' ');
}

static bool is_jump(imix_level level, const char *op)
{
    if (level == IMIX_PTX)
        return op_is(op, "bra") || op_is(op, "brx");
    return op_is(op, "BRA") || op_is(op, "BRX") || op_is(op, "JMP") || op_is(op, "JMX");
}

static bool is_exit(imix_level level, const char *op)
{
    if (level == IMIX_PTX)
        return op_is(op, "ret") || op_is(op, "exit");
    return op_is(op, "EXIT") || op_is(op, "RET");
}

static void split_blocks(code *c)
{
    bool *leader = xcalloc(c->n + 1, sizeof *leader);
    leader[0] = true;
    for (size_t i = 0; i < c->n; i++) {
        const imix_insn *in = &c->insns[i];
        if (is_jump(c->level, in->op) || is_exit(c->level, in->op))
            leader[i + 1] = true;
        if (is_jump(c->level, in->op) && in->target >= 0 && (size_t)in->target < c->n)
            leader[in->target] = true;
    }
    c->b = xcalloc(c->n, sizeof *c->b);
    c->block_of = xcalloc(c->n, sizeof *c->block_of);
    for (size_t i = 0; i < c->n; i++) {
        if (leader[i]) {
            if (c->n_blocks)
                c->b[c->n_blocks - 1].end = i;
            c->b[c->n_blocks++].first = i;
        }
        c->block_of[i] = c->n_blocks - 1;
    }
    c->b[c->n_blocks - 1].end = c->n;
    free(leader);
}

static void add_succ(block *b, int s)
{
    if (s >= 0 && b->n_succ < 2 && (b->n_succ == 0 || b->succ[0] != s))
        b->succ[b->n_succ++] = s;
}

/* A jump without a known target (BRX through a table) is taken to fall
 * through: the blocks after it are reached either way. */
static void link_blocks(code *c)
{
    for (int k = 0; k < c->n_blocks; k++) {
        block *b = &c->b[k];
        const imix_insn *last = &c->insns[b->end - 1];
        int next = k + 1 < c->n_blocks ? k + 1 : -1;
        if (is_jump(c->level, last->op)) {
            bool known = last->target >= 0 && (size_t)last->target < c->n;
            add_succ(b, known ? c->block_of[last->target] : next);
            if (last->guarded || !known)
                add_succ(b, next);
        } else if (!is_exit(c->level, last->op) || last->guarded) {
            add_succ(b, next);
            b->leaves = is_exit(c->level, last->op);
        }
    }
    int *stack = xcalloc((size_t)c->n_blocks, sizeof *stack), top = 0;
    c->b[0].reached = true;
    stack[top++] = 0;
    while (top) {
        block *b = &c->b[stack[--top]];
        for (int s = 0; s < b->n_succ; s++)
            if (!c->b[b->succ[s]].reached) {
                c->b[b->succ[s]].reached = true;
                stack[top++] = b->succ[s];
            }
    }
    free(stack);
    for (int k = 0; k < c->n_blocks; k++)
        for (int s = 0; c->b[k].reached && s < c->b[k].n_succ; s++) {
            block *t = &c->b[c->b[k].succ[s]];
            t->pred = k;
            t->n_pred++;
        }
}

/* A jump to itself or to an instruction before it closes a loop: the
 * instructions from its target to it. */
static bool back_edge(imix_level level, const imix_insn *in, size_t at)
{
    return is_jump(level, in->op) && in->target >= 0 && (size_t)in->target <= at;
}

/* A block that jumps back to its own start: a loop of one block. */
static bool is_loop_block(const code *c, int k)
{
    const imix_insn *last = &c->insns[c->b[k].end - 1];
    return back_edge(c->level, last, c->b[k].end - 1) && (size_t)last->target == c->b[k].first;
}

static bool kind_matches(icount_kind k, const imix_insn *in, imix_level level, size_t at)
{
    if (k == ICOUNT_LOOP)
        return back_edge(level, in, at);
    imix_class cls = imix_classify(level, in->op).cls;
    switch (k) {
    case ICOUNT_LOAD_GLOBAL:
        return cls == IMIX_LD_GLOBAL || cls == IMIX_LD_GENERIC;
    case ICOUNT_STORE_GLOBAL:
        return cls == IMIX_ST_GLOBAL || cls == IMIX_ST_GENERIC;
    case ICOUNT_ATOMIC_GLOBAL:
        return cls == IMIX_ATOM_GLOBAL;
    case ICOUNT_LOAD_SHARED:
        return cls == IMIX_LD_SHARED;
    case ICOUNT_STORE_SHARED:
        return cls == IMIX_ST_SHARED;
    default:
        return false;
    }
}

static bool at_line(const imix_insn *in, int file, int line, bool outer)
{
    return outer ? in->outer_file == file && in->outer_line == line
                 : in->file == file && in->line == line;
}

/* The anchors of one line and kind, summed: the sites and their
 * executions. */
typedef struct group {
    int file, line;
    icount_kind kind;
    double execs;
    size_t sites;
    bool outer;        /* met through the instructions' outer lines */
    double iter_flops; /* loops: the first anchor's */
    double step;       /* loops: the first anchor's */
} group;

static bool meets(const code *c, const group *g, size_t k)
{
    return at_line(&c->insns[k], g->file, g->line, g->outer) &&
           kind_matches(g->kind, &c->insns[k], c->level, k);
}

static size_t group_anchors(const icount_anchor *a, size_t n_anchors, group *out)
{
    size_t n = 0;
    for (size_t i = 0; i < n_anchors; i++) {
        if (a[i].kind >= ICOUNT_ARM)
            continue; /* placed apart (place_arms) */
        size_t g = 0;
        while (g < n &&
               !(out[g].file == a[i].file && out[g].line == a[i].line && out[g].kind == a[i].kind))
            g++;
        if (g == n)
            out[n++] =
                (group){a[i].file, a[i].line, a[i].kind, 0, 0, false, a[i].iter_flops, a[i].step};
        out[g].execs += a[i].execs;
        out[g].sites++;
    }
    return n;
}

static void place(block *b, double count)
{
    if (!b->placed || count > b->count)
        b->count = count;
    b->placed = true;
}

/* How many times over nvcc unrolled the loop of instructions [lo, hi]
 * whose source loop runs iters iterations: the most copies of one access
 * site in it (at least 1). A site that runs several times an iteration
 * sits in a loop nested in the source loop; its copies are that loop's,
 * unrolled in full, not this one's (hexciton's k loop of 7 inside j). */
static double unrolled(const code *c, const group *g, size_t n_groups, size_t lo, size_t hi,
                       double iters)
{
    double u = 1;
    for (size_t i = 0; i < n_groups; i++) {
        if (g[i].kind == ICOUNT_LOOP || !g[i].sites)
            continue;
        size_t in = 0;
        for (size_t k = lo; k <= hi; k++)
            in += meets(c, &g[i], k);
        double per_iter = iters > 0 ? floor(g[i].execs / (double)g[i].sites / iters + 0.5) : 1;
        double copies = (double)in / (double)g[i].sites / (per_iter > 1 ? per_iter : 1);
        if (copies > u)
            u = copies;
    }
    return u;
}

static size_t innermost_loop(imix_level level, const imix_insn *insns, size_t n, size_t k);

/* The FLOPs (tensor FLOPs too, from the MMA shapes) of the loop of
 * instructions [lo, hi] outside the loops nested in it: a warp's, over 32. */
static double own_flops(const code *c, size_t lo, size_t hi)
{
    double flops = 0;
    for (size_t k = lo; k <= hi; k++) {
        if (innermost_loop(c->level, c->insns, c->n, k) != hi)
            continue;
        imix_op op = imix_classify(c->level, c->insns[k].op);
        flops += imix_op_flops(op);
        if (op.cls == IMIX_TENSOR) { /* a warp's FLOPs, the source's are a thread's */
            int type;
            flops += imix_tensor_flops(c->level, c->insns[k].op, &type) / 32;
        }
    }
    return flops;
}

/* How many times over nvcc unrolled the loop of instructions [lo, hi]
 * whose source iteration does iter_flops FLOPs: its own FLOPs over them,
 * where that is a whole number of copies (within 10%); 1 otherwise. A
 * loop that moves no memory and has no remainder loop shows its
 * unrolling this way only: nvcc puts N copies of the body's arithmetic in
 * one pass and runs the pass trips / N times. */
static double unrolled_flops(const code *c, double iter_flops, size_t lo, size_t hi)
{
    if (iter_flops <= 0)
        return 1;
    double copies = own_flops(c, lo, hi) / iter_flops, whole = floor(copies + 0.5);
    return whole >= 2 && fabs(copies - whole) <= 0.1 * whole ? whole : 1;
}

/* Does the loop of instructions [lo, hi], outside the loops nested in
 * it, hold an access that runs several times an iteration of its source
 * loop (iters): a source loop nested in it that nvcc unrolled in full.
 * Its FLOPs then count that loop's copies too, and say nothing of how
 * often the outer loop was unrolled. */
static bool holds_inner(const code *c, const group *g, size_t n_groups, size_t lo, size_t hi,
                        double iters)
{
    for (size_t i = 0; i < n_groups && iters > 0; i++) {
        if (g[i].kind == ICOUNT_LOOP || !g[i].sites ||
            g[i].execs / (double)g[i].sites < 1.5 * iters)
            continue;
        for (size_t k = lo; k <= hi; k++)
            if (meets(c, &g[i], k) && innermost_loop(c->level, c->insns, c->n, k) == hi)
                return true;
    }
    return false;
}

/* Does an access of the loop of instructions [lo, hi], outside the loops
 * nested in it, appear once an iteration of its source loop (iters): the
 * loop is not unrolled, whatever its counter steps by (NVVM strength-
 * reduces a counter to the byte offset it feeds, hexciton's
 * `add.s32 %r64, %r64, 56` for a k stepping 1). */
static bool one_copy(const code *c, const group *g, size_t n_groups, size_t lo, size_t hi,
                     double iters)
{
    for (size_t i = 0; i < n_groups && iters > 0; i++) {
        if (g[i].kind == ICOUNT_LOOP || !g[i].sites)
            continue;
        size_t in = 0;
        for (size_t k = lo; k <= hi; k++)
            in += meets(c, &g[i], k) && innermost_loop(c->level, c->insns, c->n, k) == hi;
        double per_iter = floor(g[i].execs / (double)g[i].sites / iters + 0.5);
        if (in > 0 && per_iter >= 1 && (double)in == (double)g[i].sites * per_iter)
            return true;
    }
    return false;
}

/* How many times over nvcc unrolled the loop whose back edge is at edge,
 * read from the compiled code alone: where the same source loop closes
 * another, smaller loop too (the remainder NVVM keeps for the last
 * trips % N), the remainder holds one copy of the body, so the ratio of
 * the two loops' own FLOPs is N (a whole number within a fifth of a
 * copy); 1 where there is no such loop. */
static double unrolled_remainder(const code *c, const group *g, size_t edge)
{
    double mine = own_flops(c, (size_t)c->insns[edge].target, edge), u = 1;
    for (size_t k = 0; k < c->n && mine > 0; k++) {
        if (k == edge || !meets(c, g, k))
            continue;
        double one = own_flops(c, (size_t)c->insns[k].target, k);
        if (one <= 0)
            continue;
        double copies = mine / one, whole = floor(copies + 0.5);
        if (whole >= 2 && fabs(copies - whole) <= 0.2 && whole > u)
            u = whole;
    }
    return u;
}

/* The constant the counter of the loop whose back edge is at edge steps
 * by: the backward branch is taken on a predicate a setp of the loop
 * computes from a register the loop adds a constant to (NVVM's `add.s32
 * %r9, %r9, 16; setp.ne.s32 %p2, %r9, 16384`). PTX only; 0 where there is
 * no such counter. */
static double counter_step(const code *c, size_t edge)
{
    const imix_insn *br = &c->insns[edge];
    size_t lo = (size_t)br->target;
    if (c->level != IMIX_PTX || !br->guarded || !br->src[0])
        return 0;
    size_t cmp = edge;
    for (size_t j = edge; j-- > lo;)
        if (c->insns[j].dst[0] == br->src[0]) {
            cmp = j;
            break;
        }
    if (cmp == edge || strncmp(c->insns[cmp].op, "setp.", 5))
        return 0;
    for (int s = 0; s < IMIX_SRC && c->insns[cmp].src[s]; s++)
        for (size_t j = lo; j < edge; j++) {
            const imix_insn *in = &c->insns[j];
            bool adds = !strcmp(in->op, "add.s32") || !strcmp(in->op, "add.u32") ||
                        !strcmp(in->op, "sub.s32") || !strcmp(in->op, "sub.u32");
            if (adds && in->has_imm && in->dst[0] == c->insns[cmp].src[s] &&
                (in->src[0] == in->dst[0] || in->src[1] == in->dst[0]))
                return fabs((double)in->imm);
        }
    return 0;
}

/* How many times over nvcc unrolled the loop whose back edge is at edge,
 * from its counter: its step over the source's is N, where that is a
 * whole number no larger than the loop's own instructions (a byte offset
 * stepping 64 a pass is no unrolling by 64 of a four-instruction body); 1
 * otherwise. */
static double unrolled_step(const code *c, double step, size_t edge)
{
    double by = counter_step(c, edge);
    if (step == 0 || by == 0)
        return 1;
    double copies = by / fabs(step), whole = floor(copies + 0.5);
    return whole >= 2 && fabs(copies - whole) < 1e-9 &&
                   whole <= (double)(edge - (size_t)c->insns[edge].target + 1)
               ? whole
               : 1;
}

/* How many times over nvcc unrolled the loop whose back edge is at edge,
 * against the remainder loop it kept for the last trips % N (another loop
 * closing on the same source line): the ratio of the two counters' steps,
 * where the source's step says the same (overlap's incKernel: -4 against
 * -1 for `++i`, where NVVM merged the four copies' loads and stores into
 * one, so no access says 4). One counter may be the source's variable and
 * the other a count of trips left (all-pairs-distance's k1: i stepping
 * 2048 against a remainder's -1, no unrolling): the ratio alone would
 * read 2048. 1 where there is no such pair. */
static double unrolled_step_ratio(const code *c, const group *g, size_t edge)
{
    double by_source = g->step != 0 ? unrolled_step(c, g->step, edge) : 1;
    double mine = counter_step(c, edge);
    for (size_t k = 0; k < c->n && by_source >= 2; k++) {
        double one = k != edge && meets(c, g, k) ? counter_step(c, k) : 0;
        if (one > 0 && mine / one == by_source)
            return by_source;
    }
    return 1;
}

/* How many times over nvcc unrolled the loop of group g whose back edge
 * is at edge. */
static double loop_unrolling(const code *c, const group *all, size_t n_groups, const group *g,
                             size_t edge)
{
    double iters = g->execs / (double)g->sites;
    size_t lo = (size_t)c->insns[edge].target;
    /* A remainder loop beside this one is the unrolling read from the
     * code itself; the copies of the accesses miss it where nvcc dropped
     * or hoisted some (nbody's `auto pj = p[j]`: ten fields, four loads a
     * copy). */
    double u = unrolled_remainder(c, g, edge);
    if (u <= 1)
        u = unrolled_step_ratio(c, g, edge);
    if (u <= 1)
        u = unrolled(c, all, n_groups, lo, edge, iters);
    /* FLOPs and the counter's step are read where the loop's
     * accesses say nothing (none of its own has one copy). */
    bool silent = !one_copy(c, all, n_groups, lo, edge, iters);
    if (u <= 1 && silent && !holds_inner(c, all, n_groups, lo, edge, iters))
        u = unrolled_flops(c, g->iter_flops, lo, edge);
    if (u <= 1 && silent && c->level == IMIX_PTX)
        u = unrolled_step(c, g->step, edge);
    return u;
}

/* An access's requests go to the loop holding most of its instructions,
 * shared among its copies there, and are placed on the block holding most
 * of them: a site unrolled four times is four instructions of a quarter
 * each, whether in one block or each in a block of its own under its
 * guard (entropy_opt's window of bounds-checked loads), two sites ptxas
 * merged into one wide load one instruction of one site's count, and the
 * copies of a remainder loop after an unrolled one are left to the flow
 * (they run the few iterations the unrolled loop did not). A loop's
 * iterations go to its backward branch, divided by the copies of its body
 * nvcc made; where nvcc split the loop in an unrolled one and a
 * remainder, to the unrolled one's; where a helper's loop was inlined at
 * several sites, a share to each copy's. An instruction inlined from a helper
 * (a load in an intrinsic's header) is met through its outer line when
 * none is on the line itself. */
static void place_anchors(code *c, const icount_anchor *a, size_t n_anchors, icount *out)
{
    group *g = xcalloc(n_anchors ? n_anchors : 1, sizeof *g);
    size_t n_groups = group_anchors(a, n_anchors, g);
    int *in_block = xcalloc((size_t)c->n_blocks, sizeof *in_block);
    size_t *in_loop = xcalloc(c->n + 1, sizeof *in_loop);
    /* No jump lands inside a block nor leaves it before its end, so its
     * instructions share their innermost loop. */
    size_t *loop_of = xcalloc((size_t)c->n_blocks, sizeof *loop_of);
    for (int m = 0; m < c->n_blocks; m++)
        loop_of[m] = innermost_loop(c->level, c->insns, c->n, c->b[m].first);
    for (size_t i = 0; i < n_groups; i++) {
        size_t met = 0;
        for (int outer = 0; outer < 2 && !met; outer++) {
            g[i].outer = outer;
            for (size_t k = 0; k < c->n; k++)
                met += meets(c, &g[i], k);
        }
        if (!met) {
            g[i].sites = 0; /* met nothing: no part in unrolled() */
            continue;
        }
        out->anchors_used += g[i].sites;
    }
    for (size_t i = 0; i < n_groups; i++) {
        if (!g[i].sites || g[i].kind == ICOUNT_LOOP)
            continue;
        memset(in_block, 0, (size_t)c->n_blocks * sizeof *in_block);
        memset(in_loop, 0, (c->n + 1) * sizeof *in_loop);
        for (size_t k = 0; k < c->n; k++)
            if (meets(c, &g[i], k)) {
                in_block[c->block_of[k]]++;
                in_loop[loop_of[c->block_of[k]]]++;
            }
        size_t loop = 0;
        for (size_t l = 1; l <= c->n; l++)
            if (in_loop[l] > in_loop[loop])
                loop = l;
        int most = -1;
        for (size_t k = 0; k < c->n; k++) {
            int b = c->block_of[k];
            if (meets(c, &g[i], k) && loop_of[b] == loop &&
                (most < 0 || in_block[b] > in_block[most]))
                most = b;
        }
        size_t m = in_loop[loop];
        place(&c->b[most], g[i].execs / (double)(m > g[i].sites ? m : g[i].sites));
    }
    double *edge_u = xcalloc(c->n + 1, sizeof *edge_u);
    for (size_t i = 0; i < n_groups; i++) {
        if (!g[i].sites || g[i].kind != ICOUNT_LOOP)
            continue;
        double best_u = 0;
        for (size_t k = 0; k < c->n; k++) {
            edge_u[k] = 0;
            if (!meets(c, &g[i], k))
                continue;
            edge_u[k] = loop_unrolling(c, g, n_groups, &g[i], k);
            if (edge_u[k] > best_u)
                best_u = edge_u[k];
        }
        /* Each inlined copy of the loop (a helper called twice) closes
         * its own unrolled loop: the sites' latches share the count. */
        size_t placed = 0;
        for (size_t k = 0; k < c->n && placed < g[i].sites; k++) {
            if (best_u <= 0 || edge_u[k] != best_u)
                continue;
            block *latch = &c->b[c->block_of[k]];
            double iters = g[i].execs / (double)g[i].sites / best_u;
            place(latch, iters);
            if (iters > latch->loop_count)
                latch->loop_count = iters;
            placed++;
        }
    }
    free(edge_u);
    free(loop_of);
    free(in_loop);
    free(in_block);
    free(g);
}

/* Whether instruction in lies on lines [first, last] of file, itself or
 * through the line its helper was inlined at. */
static bool insn_within(const imix_insn *in, int file, int first, int last)
{
    return (in->file == file && in->line >= first && in->line <= last) ||
           (in->outer_file == file && in->outer_line >= first && in->outer_line <= last);
}

/* Whether every line of block b lies on lines [first, last] of file (and
 * it has one). */
static bool block_within(const code *c, const block *b, int file, int first, int last)
{
    bool any = false;
    for (size_t i = b->first; i < b->end; i++) {
        const imix_insn *in = &c->insns[i];
        if (in->line <= 0)
            continue;
        if (!insn_within(in, file, first, last))
            return false;
        any = true;
    }
    return any;
}

/* Whether the code still loops on a source loop's lines: nvcc unrolled it
 * in full where no backward jump lies on them, and its copies then run as
 * the code around them. */
static bool loops_on(const code *c, const icount_anchor *a)
{
    for (size_t j = 0; j < c->n; j++)
        if (back_edge(c->level, &c->insns[j], j) &&
            insn_within(&c->insns[j], a->file, a->line, a->last_line))
            return true;
    return false;
}

/* The innermost arm that holds every line of block b: the one of fewest
 * lines; -1 where none does. Two arms of the same lines (a helper's if,
 * walked at two calls) are one whose count is unknown. */
static int home_arm(const code *c, const block *b, const icount_anchor *a, const bool *arm,
                    size_t n, bool *known)
{
    int best = -1;
    *known = true;
    for (size_t i = 0; i < n; i++) {
        if (!arm[i] || !block_within(c, b, a[i].file, a[i].line, a[i].last_line))
            continue;
        if (best >= 0 && a[i].line == a[best].line && a[i].last_line == a[best].last_line &&
            a[i].file == a[best].file)
            *known = false;
        else if (best < 0 || a[i].last_line - a[i].line < a[best].last_line - a[best].line) {
            best = (int)i;
            *known = a[i].kind == ICOUNT_ARM && a[i].execs >= 0;
        }
    }
    return best;
}

/* Whether instruction in sits on the line of a source branch's condition. */
static bool on_branch_line(const imix_insn *in, const icount_anchor *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].kind == ICOUNT_BRANCH_LINE && in->file == a[i].file && in->line == a[i].line)
            return true;
    return false;
}

/* Branches the source has no branch for (lgammaf's special cases, in
 * libdevice code on the caller's line; a helper's, inlined) are no arms
 * the source analysis counted: a block reached through a conditional
 * jump off every source branch's line, or from such a block, leaves its
 * arm (home -1) and the guess keeps it. */
static void helpers_branch(const code *c, const icount_anchor *a, size_t n, int *home)
{
    bool *left = xcalloc((size_t)c->n_blocks, sizeof *left);
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < c->n_blocks; k++)
            for (int s = 0; c->b[k].reached && s < c->b[k].n_succ; s++) {
                int t = c->b[k].succ[s], h = home[t];
                if (h < 0 || left[t] ||
                    !block_within(c, &c->b[k], a[h].file, a[h].line, a[h].last_line))
                    continue;
                const imix_insn *last = &c->insns[c->b[k].end - 1];
                bool foreign_jump =
                    is_jump(c->level, last->op) && last->guarded && !on_branch_line(last, a, n);
                if (foreign_jump || left[k]) {
                    left[t] = true;
                    changed = true;
                }
            }
    }
    for (int k = 0; k < c->n_blocks; k++)
        if (left[k])
            home[k] = -1;
    free(left);
}

/* The SASS ptxas makes of one PTX instruction (ptxcost), an aggregated
 * atomic's sequence (aggatom) and a byte vector's unpacking (byteunpack)
 * included. */
static double ptx_sass(const imix_insn *in)
{
    return ptxcost_sass_per_ptx(in->op) + (in->aggregated ? AGGATOM_EXTRA : 0) + in->unpacked;
}

/* ptxas predicates an arm of this many SASS instructions or fewer (PTX
 * weighed by arm_weight: a `sqrt.rn.f32` is 8) and every warp issues it:
 * red_neighbored_less's eight-instruction arm (kernels/reduction.cu,
 * H200); on the fitting half of HeCBench 16 lost matrixT's
 * transposeDiagonal (+0% to +74%) and gained nothing. */
enum { ARM_PREDICATED_MAX = 8 };

/* An instruction's part in an arm's size: the SASS of what ptxas expands
 * (a division, a square root: a sequence or a call) and 1 for the rest (a
 * 64-bit add of an address folds into the load's IMAD.WIDE). */
static double arm_weight(imix_level level, const char *op)
{
    double sass = level == IMIX_PTX ? ptxcost_sass_per_ptx(op) : 1;
    return sass >= 4 ? sass : 1;
}

/* A block of the code of an if's arm (every line of it on the arm's lines,
 * in no arm nested in it) runs as often as warps take the arm: a warp none
 * of whose lanes take it jumps past it. Where nvcc made copies of the arm
 * (a loop around it unrolled), each copy's way in from outside the arm
 * takes an equal share. A loop's lines are an arm of unknown count: its
 * blocks are the loop's, not the if's around it. An arm of at most
 * ARM_PREDICATED_MAX instructions a copy ptxas predicates: its blocks are
 * returned, for place_predicated. */
static bool *place_arms(code *c, const icount_anchor *a, size_t n)
{
    bool *predicated = xcalloc((size_t)c->n_blocks, sizeof *predicated);
    int *home = xcalloc((size_t)c->n_blocks, sizeof *home);
    bool *inner_pred = xcalloc((size_t)c->n_blocks, sizeof *inner_pred);
    bool *arm = xcalloc(n ? n : 1, sizeof *arm);
    for (size_t i = 0; i < n; i++)
        arm[i] = a[i].kind == ICOUNT_ARM || (a[i].kind == ICOUNT_LOOP_LINES && loops_on(c, &a[i]));
    for (int k = 0; k < c->n_blocks; k++) {
        bool known;
        home[k] = c->b[k].reached ? home_arm(c, &c->b[k], a, arm, n, &known) : -1;
        if (home[k] >= 0 && !known)
            home[k] = -1;
    }
    for (int k = 0; k < c->n_blocks; k++)
        for (int s = 0; c->b[k].reached && s < c->b[k].n_succ; s++) {
            int t = c->b[k].succ[s], h = home[t];
            if (h >= 0 && block_within(c, &c->b[k], a[h].file, a[h].line, a[h].last_line))
                inner_pred[t] = true;
        }
    helpers_branch(c, a, n, home);
    for (size_t i = 0; i < n; i++) {
        if (a[i].kind != ICOUNT_ARM || a[i].execs < 0)
            continue;
        int entries = 0;
        double sass = 0;
        for (int k = 0; k < c->n_blocks; k++) {
            entries += home[k] == (int)i && !inner_pred[k];
            if (c->b[k].reached && block_within(c, &c->b[k], a[i].file, a[i].line, a[i].last_line))
                for (size_t j = c->b[k].first; j < c->b[k].end; j++)
                    sass += arm_weight(c->level, c->insns[j].op);
        }
        bool short_arm = sass <= ARM_PREDICATED_MAX * (entries > 1 ? entries : 1);
        for (int k = 0; k < c->n_blocks; k++)
            if (home[k] == (int)i && !c->b[k].placed) {
                predicated[k] = short_arm;
                if (!short_arm) {
                    c->b[k].count = a[i].execs / (entries > 1 ? entries : 1);
                    c->b[k].placed = true;
                }
            }
    }
    free(home);
    free(inner_pred);
    free(arm);
    return predicated;
}

/* A short arm ptxas predicates runs as often as the block that branches to
 * it: every warp that reaches the if issues it. */
static void place_predicated(code *c, const bool *predicated)
{
    for (int k = 0; k < c->n_blocks; k++)
        for (int s = 0; c->b[k].reached && c->b[k].placed && s < c->b[k].n_succ; s++) {
            block *t = &c->b[c->b[k].succ[s]];
            if (predicated[c->b[k].succ[s]] && !t->placed && !predicated[k]) {
                t->count = c->b[k].count;
                t->placed = true;
            }
        }
}

/* The innermost loop around instruction k: the back edge whose range
 * [target, edge] holds k and is the shortest; n when none does. */
static size_t innermost_loop(imix_level level, const imix_insn *insns, size_t n, size_t k)
{
    size_t best = n, best_len = 0;
    for (size_t j = k; j < n; j++)
        if (back_edge(level, &insns[j], j) && (size_t)insns[j].target <= k &&
            (best == n || j - (size_t)insns[j].target < best_len)) {
            best = j;
            best_len = j - (size_t)insns[j].target;
        }
    return best;
}

/* A block in a loop's body, outside the loops nested in it, runs at most
 * once an iteration: where an access's count says more, nvcc moved the
 * access out of the loop it sits in in the source (a load whose address
 * only a loop unrolled in full changes, hoisted past the loop around that
 * one: hexciton's comm_aosoa_constants loads hamiltonian[i][k] once an i,
 * not once a j). The loop's own anchor bounds it. */
static void cap_by_loops(code *c, double warps)
{
    /* Outside every loop, a block runs at most once a warp: an access
     * whose requests say more was moved out of a loop unrolled in full
     * around it (conv_rows' kernel[KERNEL_RADIUS - j]: 17 loads for the
     * source's 8 x 17, once a warp each). */
    for (int m = 0; m < c->n_blocks; m++) {
        block *b = &c->b[m];
        if (b->placed && b->count > warps &&
            innermost_loop(c->level, c->insns, c->n, b->first) == c->n)
            b->count = warps;
    }
    for (size_t j = 0; j < c->n; j++) {
        if (!back_edge(c->level, &c->insns[j], j))
            continue;
        const block *latch = &c->b[c->block_of[j]];
        if (latch->loop_count <= 0)
            continue;
        for (int m = c->block_of[c->insns[j].target]; m <= c->block_of[j]; m++) {
            block *b = &c->b[m];
            if (b->placed && b->count > latch->loop_count &&
                innermost_loop(c->level, c->insns, c->n, b->first) == j)
                b->count = latch->loop_count;
        }
    }
}

double icount_unrolled(imix_level level, const imix_insn *insns, size_t n, int file, int line,
                       size_t sites)
{
    /* Copies per loop, by the loop's back edge: at most a few loops hold
     * one line's loads. */
    enum { MAX_LOOPS = 8 };
    size_t edge[MAX_LOOPS], copies[MAX_LOOPS], n_loops = 0;
    for (size_t k = 0; k < n; k++) {
        if (!at_line(&insns[k], file, line, false) ||
            !kind_matches(ICOUNT_LOAD_GLOBAL, &insns[k], level, k))
            continue;
        size_t e = innermost_loop(level, insns, n, k), i = 0;
        if (e == n)
            continue;
        while (i < n_loops && edge[i] != e)
            i++;
        if (i == MAX_LOOPS)
            return 1;
        if (i == n_loops) {
            edge[n_loops] = e;
            copies[n_loops++] = 0;
        }
        copies[i]++;
    }
    if (n_loops == 0)
        return 1;
    size_t most = copies[0], fewest = copies[0];
    for (size_t i = 1; i < n_loops; i++) {
        most = copies[i] > most ? copies[i] : most;
        fewest = copies[i] < fewest ? copies[i] : fewest;
    }
    double per_pass = (double)most / (double)(n_loops > 1 ? fewest : (sites ? sites : 1));
    return per_pass > 1 ? per_pass : 1;
}

/* LLVM's bypass of slow division: a 64-bit division or remainder whose
 * operands both fit in 32 bits (`(a | b) & 0xffffffff00000000 == 0`)
 * takes a 32-bit one instead. Sizes and indices fit: the 32-bit arm is
 * taken as the one every warp runs and the call of the 64-bit routine as
 * none (HeCBench lif's `i / n`, `i % n` on size_t). Block k tests; the
 * arm it jumps to on an equal test is the 32-bit one. Gives the count of
 * any of test, 32-bit arm and join to the others: whether it placed a
 * block. */
static bool bypass_division(code *c, int k)
{
    block *t = &c->b[k];
    if (t->n_succ != 2 || t->end - t->first < 3)
        return false;
    const imix_insn *bra = &c->insns[t->end - 1], *test = &c->insns[t->end - 2],
                    *mask = &c->insns[t->end - 3];
    bool eq = !strcmp(test->op, "setp.eq.s64"), ne = !strcmp(test->op, "setp.ne.s64");
    if (!bra->guarded || bra->target < 0 || (!eq && !ne) || strcmp(mask->op, "and.b64") ||
        !mask->has_imm || mask->imm != -4294967296LL)
        return false;
    int jumped = c->block_of[bra->target], fell = k + 1;
    int fast = eq ? jumped : fell, slow = eq ? fell : jumped;
    block *f = &c->b[fast], *sl = &c->b[slow];
    bool calls_64 = false;
    for (size_t i = sl->first; i < sl->end; i++)
        calls_64 |= !strncmp(c->insns[i].op, "div.", 4) || !strncmp(c->insns[i].op, "rem.", 4);
    if (!calls_64 || f->n_pred != 1 || sl->n_pred != 1 || f->n_succ != 1 || sl->n_succ != 1 ||
        f->succ[0] != sl->succ[0])
        return false;
    block *j = &c->b[f->succ[0]];
    const block *known = t->placed ? t : f->placed ? f : j->placed && j->n_pred == 2 ? j : NULL;
    if (!known)
        return false;
    double count = known->count;
    bool placed = false;
    block *all[] = {t, f, j};
    for (int i = 0; i < 3; i++)
        if (!all[i]->placed && (all[i] != j || j->n_pred == 2)) {
            all[i]->count = count;
            all[i]->placed = placed = true;
        }
    if (!sl->placed) {
        sl->count = 0;
        sl->placed = placed = true;
    }
    return placed;
}

/* A block with one way in from a block with one way out runs as often as
 * it, and the other way round (a guarded EXIT is a second way out: the
 * warps whose lanes all leave do not run on). Where a warp's lanes split, both arms of a
 * branch run, so no count is divided between arms or summed at a join. */
static void propagate(code *c)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < c->n_blocks; k++) {
            block *b = &c->b[k];
            if (!b->reached || b->placed)
                continue;
            const block *p = &c->b[b->pred];
            if (b->n_pred == 1 && p->placed && p->n_succ == 1 && !p->leaves) {
                b->count = c->b[b->pred].count;
                b->placed = changed = true;
            } else if (b->n_succ == 1 && !b->leaves && c->b[b->succ[0]].placed &&
                       c->b[b->succ[0]].n_pred == 1) {
                b->count = c->b[b->succ[0]].count;
                b->placed = changed = true;
            }
        }
        for (int k = 0; k < c->n_blocks; k++)
            if (c->b[k].reached && (bypass_division(c, k) || rare_place_arms(c, k)))
                changed = true;
        changed |= rare_place_lone_joins(c);
    }
}

/* A way out of a placed block that jumps on the thread's x index against
 * a constant, into a block reached from nowhere else: it runs on the
 * warps with a lane that goes that way (analysis/timing/tidguard), as
 * often as the branch does. Left alone where some other rule placed it. */
static bool place_tid_guards(code *c, const int64_t threads[3])
{
    bool any = false;
    for (int k = 0; k < c->n_blocks; k++) {
        const block *b = &c->b[k];
        size_t last = b->end - 1;
        /* link_blocks: the jump's target first, then the next block. */
        bool open[2] = {false, false};
        for (int s = 0; s < b->n_succ; s++)
            open[s] = b->succ[s] != k && !c->b[b->succ[s]].placed && c->b[b->succ[s]].n_pred == 1;
        double share[2];
        if (!b->reached || !b->placed || b->n_succ != 2 || (!open[0] && !open[1]) ||
            !is_jump(c->level, c->insns[last].op) ||
            !tidguard_shares(c->insns, c->n, last, threads, &share[0], &share[1]))
            continue;
        for (int s = 0; s < 2; s++)
            if (open[s]) {
                c->b[b->succ[s]].count = b->count * share[s];
                c->b[b->succ[s]].placed = any = true;
            }
    }
    return any;
}

/* Whether instruction at lies in a loop nested in [outer_lo, outer_hi]
 * that does not hold instruction own: such a block runs as often as that
 * inner loop, not as the blocks beside own (a triangular loop's inner
 * loop runs hundreds of times for each pass of the outer one). */
static bool in_inner_loop(size_t at, size_t own, size_t outer_lo, size_t outer_hi, const size_t *lo,
                          const size_t *hi, size_t n_loops)
{
    for (size_t l = 0; l < n_loops; l++)
        if (lo[l] >= outer_lo && hi[l] <= outer_hi && hi[l] - lo[l] < outer_hi - outer_lo &&
            lo[l] <= at && at <= hi[l] && !(lo[l] <= own && own <= hi[l]))
            return true;
    return false;
}

/* What no rule placed: the most placed block at its own depth of the
 * innermost loop around it that has one (a loop is a backward jump's range
 * of instructions), else once per warp. */
static void guess(code *c, double warps)
{
    /* The loops, found once: each backward jump's range. */
    size_t *lo = xcalloc(c->n, sizeof *lo), *hi = xcalloc(c->n, sizeof *hi), n_loops = 0;
    for (size_t j = 0; j < c->n; j++)
        if (back_edge(c->level, &c->insns[j], j)) {
            lo[n_loops] = (size_t)c->insns[j].target;
            hi[n_loops++] = j;
        }
    for (int k = 0; k < c->n_blocks; k++) {
        block *b = &c->b[k];
        if (!b->reached || b->placed)
            continue;
        b->guessed = true;
        b->count = warps;
        size_t tried = 0; /* loops around b, smallest first: each larger than the last */
        for (;;) {
            size_t best = n_loops;
            for (size_t l = 0; l < n_loops; l++) {
                size_t size = hi[l] - lo[l] + 1;
                if (lo[l] <= b->first && hi[l] >= b->first && size > tried &&
                    (best == n_loops || size < hi[best] - lo[best] + 1))
                    best = l;
            }
            if (best == n_loops)
                break;
            tried = hi[best] - lo[best] + 1;
            double most = -1;
            for (int m = c->block_of[lo[best]]; m <= c->block_of[hi[best]]; m++)
                if (c->b[m].placed && c->b[m].count > most &&
                    !in_inner_loop(c->b[m].first, b->first, lo[best], hi[best], lo, hi, n_loops))
                    most = c->b[m].count;
            if (most >= 0) {
                b->count = most;
                b->guess_loop = hi[best];
                break;
            }
        }
    }
    free(lo);
    free(hi);
}

/* Whether block k runs on every pass of the innermost loop around it
 * (so the count a guess gave it holds): no jump between the loop's start
 * and the block goes past it to a later part of the loop (one that leaves
 * the loop ends it, or reaches cold code laid out apart that comes
 * back). A loop closes with a
 * guarded backward jump (NVVM rotates loops so the test is at the
 * bottom); an unguarded one goes to cold code laid out earlier. */
static bool every_pass(const code *c, int k, size_t *loop_end)
{
    size_t at = c->b[k].first, lo = 0, hi = 0;
    bool found = false;
    for (size_t j = at; j < c->n; j++)
        if (back_edge(c->level, &c->insns[j], j) && c->insns[j].guarded &&
            (size_t)c->insns[j].target <= at &&
            (!found || j - (size_t)c->insns[j].target < hi - lo)) {
            lo = (size_t)c->insns[j].target;
            hi = j;
            found = true;
        }
    if (!found)
        return false;
    if (loop_end)
        *loop_end = hi;
    for (size_t j = lo; j < at; j++) {
        const imix_insn *in = &c->insns[j];
        if (is_jump(c->level, in->op) &&
            (in->target < 0 || ((size_t)in->target > at && (size_t)in->target <= hi)))
            return false;
    }
    return true;
}

/* Whether shared load k has a neighbour on its line: a shared load of the
 * same register, one word of its width before or after. */
static bool has_neighbour(const code *c, size_t k)
{
    const imix_insn *in = &c->insns[k];
    int64_t width = imix_classify(c->level, in->op).width_bits / 8;
    for (size_t j = 0; j < c->n && width > 0 && in->addr_base; j++) {
        const imix_insn *o = &c->insns[j];
        if (j != k && o->addr_base == in->addr_base && o->line == in->line && o->file == in->file &&
            kind_matches(ICOUNT_LOAD_SHARED, o, c->level, j) &&
            (o->addr_offset == in->addr_offset + width ||
             o->addr_offset == in->addr_offset - width))
            return true;
    }
    return false;
}

/* What a PTX instruction weighs among the SASS: a shared load of a site
 * ptxas merges (analysis/warp/vecmerge: gemm_regtile's four `ld.shared.f32`
 * of `as[k][threadIdx.y * 4 + i]` are one LDS.128) a share of the wide
 * load; 1 otherwise. A merged site's loads read neighbouring words of one
 * register; another site's on the line (`bs[k][tx]`, 128 bytes apart) do
 * not. */
static double *merge_shares(const code *c, const icount_anchor *a, size_t n_anchors)
{
    double *share = xcalloc(c->n, sizeof *share);
    for (size_t k = 0; k < c->n; k++)
        share[k] = 1;
    for (size_t i = 0; i < n_anchors && c->level == IMIX_PTX; i++) {
        if (a[i].kind != ICOUNT_LOAD_SHARED || a[i].merged <= 1)
            continue;
        for (size_t k = 0; k < c->n; k++)
            if (at_line(&c->insns[k], a[i].file, a[i].line, false) &&
                kind_matches(ICOUNT_LOAD_SHARED, &c->insns[k], c->level, k) && has_neighbour(c, k))
                share[k] = 1.0 / a[i].merged;
    }
    return share;
}

/* Each block's dependent-issue span (analysis/timing/depchain), in code
 * order; an innermost loop (a backward jump whose range holds no other)
 * is walked once to leave its values in flight, then again for its
 * spans. */
static double *chain_spans(const code *c)
{
    double *span = xcalloc((size_t)c->n_blocks, sizeof *span);
    depchain *d = depchain_new(c->n);
    for (int k = 0; k < c->n_blocks;) {
        int end = k; /* the innermost loop that starts at block k ends at block end */
        for (size_t j = c->b[k].first; j < c->n; j++)
            if (back_edge(c->level, &c->insns[j], j) &&
                (size_t)c->insns[j].target >= c->b[k].first) {
                if ((size_t)c->insns[j].target == c->b[k].first)
                    end = c->block_of[j];
                break;
            }
        for (int pass = end > k || is_loop_block(c, k) ? 0 : 1; pass < 2; pass++)
            for (int m = k; m <= end; m++)
                span[m] = depchain_block(d, &c->insns[c->b[m].first], c->b[m].end - c->b[m].first);
        k = end + 1;
    }
    depchain_free(d);
    return span;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Every register the function reads, once per read, sorted. */
static uint32_t *sorted_reads(const code *c, size_t *n_out)
{
    uint32_t *r = xcalloc(c->n * IMIX_SRC + 1, sizeof *r);
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        for (int s = 0; s < IMIX_SRC && c->insns[i].src[s]; s++)
            r[n++] = c->insns[i].src[s];
    qsort(r, n, sizeof *r, cmp_u32);
    *n_out = n;
    return r;
}

static size_t reads_of(const uint32_t *r, size_t n, uint32_t reg)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r[mid] < reg)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t k = lo;
    while (k < n && r[k] == reg)
        k++;
    return k - lo;
}

/* Whether instruction j has a literal operand, or reads the product of a
 * multiply with one that ptxas fuses into it (fused[k]). */
static bool takes_literal(const code *c, const bool *fused, size_t j)
{
    const imix_insn *in = &c->insns[j];
    if (in->literal || in->has_imm)
        return true;
    for (size_t k = 0; k < j; k++)
        if (fused[k] && (c->insns[k].literal || c->insns[k].has_imm))
            for (int s = 0; s < IMIX_SRC && in->src[s]; s++)
                if (c->insns[k].dst[0] == in->src[s])
                    return true;
    return false;
}

/* A SASS instruction takes one literal: a copy of a literal whose reader
 * has another (3.75f - 0.355f * x, an FFMA of x and two constants) stays a
 * move, made again each pass of a loop (fuseprobe's HFMA2.MMA R0, 0.355
 * at the top of its loop, tests/data/latprobe/h200/fuse-sass.txt.gz).
 * A double's copy is not kept: its reader takes the literal that fits and
 * the other from a pair made before the loop (the same file's
 * mulmadd<double>; analysis/timing/literals). */
static bool literal_kept(const code *c, const bool *fused, size_t i)
{
    uint32_t reg = c->insns[i].dst[0];
    for (size_t j = i + 1; j < c->n && reg; j++)
        for (int s = 0; s < IMIX_SRC && c->insns[j].src[s]; s++)
            if (c->insns[j].src[s] == reg && takes_literal(c, fused, j))
                return true;
    return false;
}

/* A 32-bit index widened and scaled (`mul.wide.s32 %rd7, %r30, 4`) whose
 * every reader adds it to a 64-bit base is no instruction of its own:
 * ptxas makes each add an IMAD.WIDE that scales and adds at once
 * (channelSum's loop: mul.wide and add.s64, one IMAD.WIDE; langevin's
 * offset added to two bases, two). */
static void wide_offsets(const code *c, bool *folded)
{
    uint32_t *adds = xcalloc(c->n * IMIX_SRC + 1, sizeof *adds);
    size_t n_adds = 0, n_reads = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->insns[i].op, "add.s64") || !strcmp(c->insns[i].op, "add.u64"))
            for (int s = 0; s < IMIX_SRC && c->insns[i].src[s]; s++)
                adds[n_adds++] = c->insns[i].src[s];
    qsort(adds, n_adds, sizeof *adds, cmp_u32);
    uint32_t *reads = sorted_reads(c, &n_reads);
    for (size_t i = 0; i < c->n; i++) {
        const imix_insn *in = &c->insns[i];
        if (strncmp(in->op, "mul.wide.", 9) != 0 || !in->dst[0] || in->dst[1])
            continue;
        size_t by_adds = reads_of(adds, n_adds, in->dst[0]);
        folded[i] |= by_adds > 0 && by_adds == reads_of(reads, n_reads, in->dst[0]);
    }
    free(reads);
    free(adds);
}

/* A read-only load (ld.global.nc, what __ldg writes) of an address an
 * earlier one in its block read is the same value: ptxas loads it once
 * (channelSum's `__ldg(X + index) * __ldg(X + index)` beside a third:
 * three PTX loads, one LDG). */
static bool redefined_between(const code *c, size_t from, size_t to, const imix_insn *reader)
{
    for (size_t m = from; m < to; m++)
        for (int d = 0; d < IMIX_DST && c->insns[m].dst[d]; d++)
            for (int s = 0; s < IMIX_SRC && reader->src[s]; s++)
                if (c->insns[m].dst[d] == reader->src[s])
                    return true;
    return false;
}

/* A parameter's word is the same for the whole launch: NVVM reads it
 * again where it needs it (fuseprobe's loop bound, `ld.param.u32 %r13` at
 * the top of each pass), ptxas keeps the entry block's read (ISETP with
 * R6, loaded before the loop; tests/data/latprobe/h200/fuse-sass.txt.gz). */
static bool param_read_before(const code *c, size_t i)
{
    const imix_insn *in = &c->insns[i];
    size_t entry_end = c->n_blocks ? c->b[0].end : 0;
    size_t first = c->b[c->block_of[i]].first;
    for (size_t j = 0; j < i; j++)
        if ((j < entry_end || j >= first) && !strcmp(c->insns[j].op, in->op) &&
            c->insns[j].args == in->args && !c->insns[j].guarded)
            return true;
    return false;
}

static void repeated_loads(const code *c, bool *folded)
{
    for (int k = 0; k < c->n_blocks; k++)
        for (size_t i = c->b[k].first; i < c->b[k].end; i++) {
            const imix_insn *in = &c->insns[i];
            if (!in->args || in->guarded)
                continue;
            if (!strncmp(in->op, "ld.param.", 9)) {
                folded[i] = folded[i] || param_read_before(c, i);
                continue;
            }
            if (strncmp(in->op, "ld.global.nc.", 13) != 0)
                continue;
            for (size_t j = c->b[k].first; j < i && !folded[i]; j++)
                folded[i] = !strcmp(c->insns[j].op, in->op) && c->insns[j].args == in->args &&
                            !c->insns[j].guarded && !redefined_between(c, j + 1, i, in);
        }
}

/* PTX's add, sub and mul without a rounding modifier may be fused: ptxas
 * contracts a multiply whose one reader is an add or subtract of the same
 * type in its block into one FFMA/DFMA (PTX ISA, "mul" and "add":
 * "may be optimized aggressively ... e.g. into fma"), where NVVM left them
 * apart ((3.75f - 0.355f * s) * s compiles to mul, sub, mul). Marks the
 * multiplies ptxas folds so, and the other PTX instructions it makes no
 * SASS of beside their readers (below). */
static bool *ptxas_folds(const code *c)
{
    size_t n_reads = 0;
    uint32_t *reads = sorted_reads(c, &n_reads);
    bool *fused = xcalloc(c->n + 1, sizeof *fused);
    for (int k = 0; k < c->n_blocks; k++)
        for (size_t i = c->b[k].first; i < c->b[k].end; i++) {
            const char *op = c->insns[i].op;
            bool f32 = !strcmp(op, "mul.f32") || !strcmp(op, "mul.ftz.f32");
            if (!(f32 || !strcmp(op, "mul.f64")) || !c->insns[i].dst[0] || c->insns[i].dst[1] ||
                reads_of(reads, n_reads, c->insns[i].dst[0]) != 1)
                continue;
            for (size_t j = i + 1; j < c->b[k].end; j++) {
                bool reads_it = false;
                for (int s = 0; s < IMIX_SRC && c->insns[j].src[s]; s++)
                    reads_it |= c->insns[j].src[s] == c->insns[i].dst[0];
                if (!reads_it)
                    continue;
                const char *use = c->insns[j].op;
                fused[i] = f32 ? !strcmp(use, "add.f32") || !strcmp(use, "sub.f32") ||
                                     !strcmp(use, "add.ftz.f32") || !strcmp(use, "sub.ftz.f32")
                               : !strcmp(use, "add.f64") || !strcmp(use, "sub.f64");
                break;
            }
        }
    free(reads);
    /* The renamed copies, but a literal one whose reader ends up with a
     * second literal (below): before the multiplies fused into their
     * readers are marked among them. */
    for (size_t i = 0; i < c->n; i++)
        fused[i] |=
            c->insns[i].folded && !(c->insns[i].folded_literal && !c->insns[i].literal_f64[0] &&
                                    literal_kept(c, fused, i));
    wide_offsets(c, fused);
    repeated_loads(c, fused);
    return fused;
}

/* A 32-bit integer division by a register computes the divisor's
 * reciprocal first (I2F.RP, MUFU.RCP, F2I and the IMADs that refine it:
 * eight SASS instructions with the IABS a signed one needs, seven
 * without); ptxas shares it among the divisions of one block by that
 * divisor and does not hoist it out of a loop (HeCBench mask's
 * upperMaskKernel on sm_90: three divisors, three reciprocals in the loop
 * body). ptxcost's per-division count is a chain's by one divisor, the
 * reciprocal made once: block b's reciprocals are added here, and their
 * pipes to pipes[]. */
static void add_local(imix_level level, const imix_insn *in, double count, icount *out)
{
    imix_op op = imix_classify(level, in->op);
    /* 32 lanes: a thread's local word is interleaved with its warp's, so
     * one warp instruction moves the width of each lane, contiguous. */
    double bytes = count * 32.0 * op.width_bits / 8.0;
    if (op.cls == IMIX_LD_LOCAL)
        out->local_load_bytes += bytes;
    else if (op.cls == IMIX_ST_LOCAL)
        out->local_store_bytes += bytes;
}

/* What ptxas puts at the top of every kernel that its PTX does not
 * spell: the stack pointer's load (`LDC R1, c[0x0][0x28]`), and where the
 * kernel touches global memory the memory descriptor its loads and stores
 * name (`ULDC.64 UR4, c[0x0][0x208]`): both in every sm_90 listing of
 * tests/data/hecbench/sass that has them to make. */
static double sass_prologue(const code *c)
{
    bool global = false;
    for (size_t i = 0; i < c->n && !global; i++) {
        imix_class cls = imix_classify(c->level, c->insns[i].op).cls;
        global = cls == IMIX_LD_GLOBAL || cls == IMIX_ST_GLOBAL || cls == IMIX_ATOM_GLOBAL;
    }
    return 1 + global; /* constant-bank loads: on no arithmetic pipe */
}

static double divisor_setups(const code *c, const block *b, double pipes[PIPES_N])
{
    double extra = 0;
    for (size_t i = b->first; i < b->end; i++) {
        const imix_insn *in = &c->insns[i];
        bool div = !strcmp(in->op, "div.s32") || !strcmp(in->op, "rem.s32") ||
                   !strcmp(in->op, "div.u32") || !strcmp(in->op, "rem.u32");
        if (!div || !in->src[1])
            continue; /* by an immediate: a multiply by a magic number */
        bool seen = false;
        for (size_t j = b->first; j < i && !seen; j++)
            seen = c->insns[j].src[1] == in->src[1] &&
                   (!strncmp(c->insns[j].op, "div.", 4) || !strncmp(c->insns[j].op, "rem.", 4));
        double setup = seen ? 0 : in->op[4] == 's' ? 8 : 7; /* "div.s32" */
        if (setup > 0)
            pipes_add_divisor_setup(setup, pipes);
        extra += setup;
    }
    return extra;
}

/* A tensor instruction run `execs` times: its FLOPs by the shape its
 * opcode names, or counted apart. */
static void add_tensor(imix_level level, const imix_insn *in, double execs, icount *out)
{
    if (imix_classify(level, in->op).cls != IMIX_TENSOR)
        return;
    int type = -1;
    double f = imix_tensor_flops(level, in->op, &type);
    if (f > 0 && type >= 0)
        out->tensor_flops[type] += f * execs;
    else
        out->tensor_unknown += execs;
}

bool icount_compute(imix_level level, const imix_insn *insns, size_t n, const icount_anchor *a,
                    size_t n_anchors, double warps, icount *out)
{
    return icount_compute_in(level, insns, n, a, n_anchors, warps, NULL, 0, out);
}

bool icount_compute_in(imix_level level, const imix_insn *insns, size_t n, const icount_anchor *a,
                       size_t n_anchors, double warps, const int64_t threads[3], int sm,
                       icount *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0 || warps <= 0) {
        snprintf(out->why, sizeof out->why, "the kernel's code has no instructions");
        return false;
    }
    code c = {.level = level, .insns = insns, .n = n};
    split_blocks(&c);
    link_blocks(&c);
    place_anchors(&c, a, n_anchors, out);
    cap_by_loops(&c, warps);
    bool loops = false;
    for (size_t i = 0; i < n && !loops; i++)
        loops = back_edge(level, &insns[i], i);
    bool ok = true;
    if (loops && out->anchors_used == 0) {
        bool lines = false;
        for (size_t i = 0; i < n && !lines; i++)
            lines = insns[i].line > 0;
        snprintf(out->why, sizeof out->why, "%s",
                 lines ? "no loop or access of the source met the code's lines"
                       : "the code has no line information (compile with -lineinfo, or give "
                         "a SASS listing with lines)");
        ok = false;
    } else {
        /* Every warp runs the entry once (a loop back to the first
         * instruction runs it more). */
        if (!c.b[0].placed || c.b[0].count < warps)
            c.b[0].count = warps;
        c.b[0].placed = true;
        propagate(&c);
        /* PTX only, for now: on SASS (the truth set's listings) the arms
         * of OneFlow's SoftmaxWarpImpl took its guessed share from 81% to
         * 66% while its placed instructions alone came to 1.6e8 against
         * 1.23e8 measured in all (H200), a cause not found yet. */
        if (level == IMIX_PTX) {
            bool *predicated = place_arms(&c, a, n_anchors);
            propagate(&c);
            place_predicated(&c, predicated);
            propagate(&c);
            free(predicated);
            while (threads && place_tid_guards(&c, threads))
                propagate(&c);
        }
        guess(&c, warps);
        if (level == IMIX_PTX)
            rare_zero_arms(&c);
        bool *fused = level == IMIX_PTX ? ptxas_folds(&c) : NULL;
        double *share = merge_shares(&c, a, n_anchors);
        /* The chain walks a fused multiply as its own instruction: walking
         * it as part of the FMA (4 clocks for the pair, not 8) put
         * chainprobe's no-load variant 11% short and moved five HeCBench
         * fitting launches further under, none over (stop 61). */
        double *spans = level == IMIX_PTX ? chain_spans(&c) : NULL;
        lit_set *lits = NULL;
        if (level == IMIX_PTX) {
            size_t *ends = xcalloc(c.n + 1, sizeof *ends);
            for (size_t i = 0; i < c.n; i++)
                ends[i] = c.b[c.block_of[i]].end;
            lits = lit_sets(c.insns, c.n, fused, ends);
            free(ends);
        }
        if (level == IMIX_PTX)
            out->warp_insts += warps * (sass_prologue(&c) + lit_kernel_moves(c.insns, c.n, lits));
        for (int k = 0; k < c.n_blocks; k++) {
            const block *b = &c.b[k];
            if (!b->reached)
                continue;
            /* PTX stands for the SASS ptxas makes of it (ptxcost). */
            double per_warp = 0, pipes[PIPES_N] = {0};
            for (size_t i = b->first; i < b->end; i++) {
                if (!fused || !fused[i]) {
                    double sass = level == IMIX_PTX ? ptx_sass(&insns[i]) * share[i] : 1;
                    per_warp += sass;
                    pipes_add(level, insns[i].op, sass, pipes);
                }
                add_tensor(level, &insns[i], b->count, out);
                add_local(level, &insns[i], b->count, out);
            }
            if (level == IMIX_PTX) {
                double moves = lit_block_moves(c.insns, b->first, b->end, lits, sm);
                pipes[PIPES_OTHER] += moves;
                per_warp += divisor_setups(&c, b, pipes) + moves;
            }
            double insts = b->count * per_warp;
            /* A block every pass of its loop runs, guessed from that
             * loop's placed blocks, runs as often as the loop does: the
             * count is the loop's own, not a guess. */
            size_t loop_end = 0;
            bool each_pass = b->guessed && every_pass(&c, k, &loop_end);
            bool sure = !b->guessed || (each_pass && b->guess_loop && b->guess_loop == loop_end);
            if (spans && (!b->guessed || each_pass))
                out->placed_chain_cycles += b->count * spans[k];
            out->warp_insts += insts;
            out->guessed += sure ? 0 : insts;
            for (int p = 0; p < PIPES_N && sure; p++)
                out->placed_pipes[p] += b->count * pipes[p];
            out->blocks++;
            out->placed += sure;
        }
        free(spans);
        free(lits);
        free(fused);
        free(share);
        out->ok = true;
    }
    free(c.b);
    free(c.block_of);
    return ok;
}
