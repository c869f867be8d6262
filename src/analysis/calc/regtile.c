/* regtile: see regtile.h. */
#include "analysis/calc/regtile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/warp/bank.h"

/* The CUDA limit on threads per block, every compute capability since 2.0. */
#define REGTILE_MAX_THREADS 1024

/* Wavefronts over the ideal of one operand's loads, element idx * step of
 * a row (idx is the thread index along it), averaged over the block's
 * warps; 0 when the bank model cannot say. The row's element i and the k
 * row shift every lane alike, so i = k = 0 stands for all. */
static double conflict(expr_builtin idx, int step, int elem, const int64_t block[3])
{
    mem_access m = {0};
    m.space = SPACE_SHARED;
    m.width = elem;
    m.byte_offset = expr_binary(
        OP_MUL, expr_binary(OP_MUL, expr_builtin_sym(idx), expr_const(step)), expr_const(elem));
    m.text = (char *)"";
    bank_result r;
    double c = 0;
    if (elem <= 16 && !(elem & (elem - 1)) && bank_analyze(&m, block, NULL, &r) && r.analyzed &&
        r.requests > 0 && r.ideal > 0)
        c = r.average / r.ideal;
    expr_free(m.byte_offset);
    return c;
}

bool regtile_compute(double m, double n, double k, int tile, int tm, int tn, int elem, int sm_count,
                     double clock_mhz, regtile *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (!(m >= 1) || !(n >= 1) || !(k >= 1) || isinf(m) || isinf(n) || isinf(k) || tile < 1 ||
        tm < 1 || tn < 1 || elem < 1) {
        snprintf(why, why_size, "sizes, tiles and the element size must be at least 1");
        return false;
    }
    if (tile % tm || tile % tn) {
        snprintf(why, why_size, "the thread tile %dx%d must divide the %dx%d block tile", tm, tn,
                 tile, tile);
        return false;
    }
    long threads = (long)(tile / tm) * (tile / tn);
    if (threads > REGTILE_MAX_THREADS) {
        snprintf(why, why_size,
                 "a %dx%d tile in %dx%d thread tiles needs %ld threads per block, more than "
                 "the %d a block may have",
                 tile, tile, tm, tn, threads, REGTILE_MAX_THREADS);
        return false;
    }
    out->m = m;
    out->n = n;
    out->k = k;
    out->tile = tile;
    out->tm = tm;
    out->tn = tn;
    out->elem = elem;
    out->threads_per_block = (int)threads;
    out->outputs_per_thread = tm * tn;
    out->fma_per_load = (double)tm * tn / (tm + tn);
    /* One output per thread: one FMA for one load of A and one of B. */
    out->gain = out->fma_per_load / 0.5;
    out->smem_loads = m * n * k * (tm + tn) / ((double)tm * tn);
    out->smem_bytes = out->smem_loads * elem;
    out->smem_ai = 2 * m * n * k / out->smem_bytes;
    out->smem_ai_untiled = 1.0 / elem;
    /* Registers are 32 bits: an 8-byte element takes two. */
    out->registers_min = (tm * tn + tm + tn) * ((elem + 3) / 4);
    int64_t block[3] = {tile / tn, tile / tm, 1};
    out->a_conflict = conflict(SYM_TID_Y, tm, elem, block);
    out->b_conflict = conflict(SYM_TID_X, tn, elem, block);
    out->conflict_slowdown = out->a_conflict > 0 && out->b_conflict > 0
                                 ? (tm * out->a_conflict + tn * out->b_conflict) / (tm + tn)
                                 : 0;
    if (sm_count > 0 && clock_mhz > 0) {
        out->smem_bandwidth = sm_count * (double)REGTILE_SMEM_BYTES_PER_CLOCK * clock_mhz * 1e6;
        out->smem_ceiling = out->smem_ai * out->smem_bandwidth;
        out->smem_ceiling_untiled = out->smem_ai_untiled * out->smem_bandwidth;
        if (out->conflict_slowdown > 0)
            out->smem_ceiling_banked = out->smem_ceiling / out->conflict_slowdown;
    }
    return true;
}
