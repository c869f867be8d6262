/* Rare arms (rarearm.h): the branches of the CUDA math library's code
 * that real data seldom takes, placed at no warp, and what follows from
 * that for the blocks they join. */
#include "analysis/timing/rarearm.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h" /* xcalloc */

/* PTX only: a conditional `bra` ends the block. */
static bool ends_in_branch(const code *c, const block *b)
{
    const char *op = c->insns[b->end - 1].op;
    return c->level == IMIX_PTX && !strncmp(op, "bra", 3) && (op[3] == '\0' || op[3] == '.');
}

/* Which way out of block k (0: the jump, 1: the next block; -1: neither)
 * a test for infinity takes where it holds (setp.eq against
 * 0d7FF0000000000000 or 0f7F800000, an infinite argument of sin or cos;
 * setp.ne: the next block). */
static int infinite_arm(const code *c, int k)
{
    const block *b = &c->b[k];
    const imix_insn *bra = &c->insns[b->end - 1];
    for (size_t j = b->end - 1; j-- > 0;) {
        const imix_insn *t = &c->insns[j];
        if (t->dst[0] != bra->src[0])
            continue;
        bool eq = !strncmp(t->op, "setp.eq.", 8) || !strncmp(t->op, "setp.equ.", 9);
        bool ne = !strncmp(t->op, "setp.ne.", 8) || !strncmp(t->op, "setp.neu.", 9);
        bool inf = t->n_literals == 1 && (t->literal_bits[0] == 0x7FF0000000000000ull ||
                                          t->literal_bits[0] == 0x7F800000ull);
        if (!(eq || ne) || !inf)
            return -1;
        return (eq != bra->guard_negated) ? 0 : 1;
    }
    return -1;
}

/* Whether block k is on a slow path (rare_path), or leads only there: one
 * way on, or a branch each of whose arms is rare or the infinite one
 * (float sin's test for infinity before its Payne-Hanek reduction),
 * within depth blocks. */
static bool arm_is_rare(const code *c, int k, int depth)
{
    const block *b = &c->b[k];
    for (size_t i = b->first; i < b->end; i++)
        if (c->insns[i].rare_path)
            return true;
    if (depth == 0 || b->leaves)
        return false;
    if (b->n_succ == 1)
        return b->succ[0] > k && c->b[b->succ[0]].n_pred == 1 &&
               arm_is_rare(c, b->succ[0], depth - 1);
    if (b->n_succ != 2 || !c->insns[b->end - 1].guarded)
        return false;
    int inf = infinite_arm(c, k);
    for (int s = 0; s < 2; s++)
        if (s != inf && (b->succ[s] <= k || !arm_is_rare(c, b->succ[s], depth - 1)))
            return false;
    return true;
}

/* Which way out of block k a math function takes only for arguments real
 * data seldom has: the way to a slow path (arm_is_rare), else the
 * infinite arm; -1: neither. */
static int rare_arm(const code *c, int k)
{
    const block *b = &c->b[k];
    for (int s = 0; s < 2; s++)
        if (b->succ[s] > k && arm_is_rare(c, b->succ[s], 3))
            return s;
    return infinite_arm(c, k);
}

/* The fast path of a math function is what is counted, as ptxcost counts
 * division's: a branch's rare arm (rare_arm) runs on no warp and its other
 * arm on every warp the branch runs on (fft's fft1D_512: 28 calls of sin
 * and cos, none past 2^31 or infinite, and none of their slow paths in
 * Nsight Compute's executed counts, tests/data/ptxprobe/f64lit/
 * fft1D_512-source.csv.gz). Whether it placed a block. */
bool rare_place_arms(code *c, int k)
{
    const block *b = &c->b[k];
    if (!b->placed || b->n_succ != 2 || !ends_in_branch(c, b) || !c->insns[b->end - 1].guarded ||
        c->level != IMIX_PTX)
        return false;
    bool open[2];
    for (int s = 0; s < 2; s++) {
        const block *arm = &c->b[b->succ[s]];
        open[s] = b->succ[s] != k && !arm->placed && arm->n_pred == 1;
    }
    int rare = open[0] || open[1] ? rare_arm(c, k) : -1; /* once an arm is open: each pass */
    bool placed = false;
    for (int s = 0; s < 2 && rare >= 0; s++)
        if (open[s]) {
            c->b[b->succ[s]].count = s == rare ? 0 : b->count;
            c->b[b->succ[s]].placed = placed = true;
        }
    return placed;
}

/* A join whose ways in are all placed and all but one run on no warp
 * (a math function's rare arms, place_rare_arms) runs as often as that
 * one. Whether it placed a block. */
bool rare_place_lone_joins(code *c)
{
    int *in = xcalloc((size_t)c->n_blocks * 2, sizeof *in), *live = in + c->n_blocks;
    double *from = xcalloc((size_t)c->n_blocks, sizeof *from);
    for (int m = 0; m < c->n_blocks; m++)
        for (int s = 0; c->b[m].reached && c->b[m].placed && s < c->b[m].n_succ; s++) {
            int t = c->b[m].succ[s];
            in[t]++;
            if (c->b[m].count > 0) {
                live[t]++;
                from[t] = c->b[m].count;
            }
        }
    bool placed = false;
    for (int t = 0; t < c->n_blocks; t++) {
        block *b = &c->b[t];
        if (b->reached && !b->placed && b->n_pred >= 2 && in[t] == b->n_pred && live[t] == 1) {
            b->count = from[t];
            b->placed = placed = true;
        }
    }
    free(in);
    free(from);
    return placed;
}

/* After the guess: a guessed rare arm (rare_arm) of a branch the guess
 * left unplaced runs on no warp either, nor a guessed block every way in
 * to which from before it runs on none (float sin's inline slow path and
 * its loop over __cudart_i2opi_f). */
void rare_zero_arms(code *c)
{
    for (int k = 0; k < c->n_blocks; k++) {
        const block *b = &c->b[k];
        if (!b->reached || b->n_succ != 2 || !c->insns[b->end - 1].guarded || !ends_in_branch(c, b))
            continue;
        int rare = rare_arm(c, k);
        block *arm = rare >= 0 ? &c->b[b->succ[rare]] : NULL;
        if (arm && arm->guessed && arm->n_pred == 1 && b->succ[rare] > k)
            arm->count = 0;
    }
    int *ways = xcalloc((size_t)c->n_blocks * 2, sizeof *ways), *dead = ways + c->n_blocks;
    for (int t = 0; t < c->n_blocks; t++) {
        block *b = &c->b[t];
        if (!b->reached)
            continue;
        if (t > 0 && b->guessed && ways[t] > 0 && ways[t] == dead[t])
            b->count = 0;
        for (int s = 0; s < b->n_succ; s++)
            if (b->succ[s] > t) {
                ways[b->succ[s]]++;
                dead[b->succ[s]] += b->count == 0;
            }
    }
    free(ways);
}
