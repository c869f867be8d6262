/* regtile_text: the register-tiled GEMM's words for `gpulint roofline
 * --gemm M,N,K --tile T --thread-tile TMxTN` (its loads, traffic,
 * shared-memory ceiling and registers, from analysis/calc/regtile), shared by the
 * command line and the web page. */
#include "analysis/calc/regtile_text.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "analysis/timing/roofline.h"

bool regtile_parse_shape(const char *text, int *tm, int *tn)
{
    char *end;
    errno = 0;
    /* Digits only: strtol alone would take signs and spaces. */
    if (!isdigit((unsigned char)text[0]))
        return false;
    long a = strtol(text, &end, 10), b = a;
    if (errno || a < 1 || a > 1024)
        return false;
    if (*end == 'x' || *end == 'X') {
        const char *second = end + 1;
        if (!isdigit((unsigned char)second[0]))
            return false;
        b = strtol(second, &end, 10);
        if (errno || b < 1 || b > 1024)
            return false;
    }
    if (*end)
        return false;
    *tm = (int)a;
    *tn = (int)b;
    return true;
}

/* The ceiling against the peak, in words. */
static void verdict(double ceiling, double peak, sbuf *b)
{
    char x[64], y[64];
    if (!(peak > 0))
        return;
    if (ceiling >= peak)
        sbuf_addf(b, ", above the %s peak: shared memory does not limit",
                  roofline_fmt_si(peak, "FLOP/s", x, sizeof x));
    else
        sbuf_addf(b, ", below the %s peak (%.0f%% of it)",
                  roofline_fmt_si(peak, "FLOP/s", y, sizeof y), 100 * ceiling / peak);
}

void regtile_text(const regtile *r, double peak, sbuf *b)
{
    char x[64], y[64], z[32];
    sbuf_addf(b, "Register tiling: %dx%d outputs per thread, %d threads per %dx%d block tile\n",
              r->tm, r->tn, r->threads_per_block, r->tile, r->tile);
    sbuf_addf(b, "Shared-memory loads: %s FMA per load (TM x TN / (TM + TN)); ",
              roofline_fmt_num(r->fma_per_load, z, sizeof z));
    if (r->gain == 1)
        sbuf_add(b, "the same as one output per thread\n");
    else
        sbuf_addf(b, "one output per thread: 0.5, so %sx fewer loads\n",
                  roofline_fmt_num(r->gain, x, sizeof x));
    sbuf_addf(b, "Shared-memory traffic: %s, %s FLOP/B\n",
              roofline_fmt_si(r->smem_bytes, "B", x, sizeof x),
              roofline_fmt_num(r->smem_ai, z, sizeof z));
    if (r->smem_bandwidth > 0) {
        sbuf_addf(b, "Shared-memory ceiling: %s at %s",
                  roofline_fmt_si(r->smem_ceiling, "FLOP/s", x, sizeof x),
                  roofline_fmt_si(r->smem_bandwidth, "B/s", y, sizeof y));
        if (r->smem_ceiling_banked > 0)
            sbuf_add(b, " with conflict-free loads");
        else
            verdict(r->smem_ceiling, peak, b);
        sbuf_addf(b, " (one output per thread: %s)\n",
                  roofline_fmt_si(r->smem_ceiling_untiled, "FLOP/s", x, sizeof x));
    } else {
        sbuf_add(b, "Shared-memory ceiling: give --gpu ID for the SMs and clock it needs\n");
    }
    if (r->conflict_slowdown > 0) {
        sbuf_addf(b,
                  "Bank conflicts of the tile's own loads (As[k][ty*%d + i], Bs[k][tx*%d + j]): "
                  "A %s, B %s wavefronts per request over the ideal, shared time x%s",
                  r->tm, r->tn, roofline_fmt_num(r->a_conflict, x, sizeof x),
                  roofline_fmt_num(r->b_conflict, y, sizeof y),
                  roofline_fmt_num(r->conflict_slowdown, z, sizeof z));
        if (r->smem_ceiling_banked > 0) {
            sbuf_addf(b, ": the ceiling with them is %s",
                      roofline_fmt_si(r->smem_ceiling_banked, "FLOP/s", x, sizeof x));
            verdict(r->smem_ceiling_banked, peak, b);
        }
        sbuf_addc(b, '\n');
    }
    sbuf_addf(b, "Registers: at least %d per thread for the tile and its operands\n",
              r->registers_min);
}

void regtile_explain(const regtile *r, double peak, int sm_count, double clock_mhz, sbuf *b)
{
    char x[64], y[64], z[32], w[32];
    int words = (r->elem + 3) / 4;
    sbuf_addf(b, "Register tiling: each thread keeps TM x TN = %dx%d outputs of C in registers\n",
              r->tm, r->tn);
    sbuf_addf(b, "  threads per block = (T/TM) x (T/TN) = (%d/%d) x (%d/%d) = %d\n", r->tile, r->tm,
              r->tile, r->tn, r->threads_per_block);
    sbuf_addf(b,
              "  at each k a thread loads TM values of A and TN of B from shared memory and "
              "does TM x TN FMAs:\n"
              "  FMA per shared load = TM x TN / (TM + TN) = %d / %d = %s\n",
              r->tm * r->tn, r->tm + r->tn, roofline_fmt_num(r->fma_per_load, z, sizeof z));
    sbuf_addf(b,
              "  (one output per thread loads one A and one B value for one FMA: 0.5; "
              "%s / 0.5 = %sx fewer loads)\n",
              roofline_fmt_num(r->fma_per_load, z, sizeof z),
              roofline_fmt_num(r->gain, w, sizeof w));
    sbuf_addf(b, "  shared loads = M x N x K x (TM + TN) / (TM x TN) = %s loads x %d B = %s\n",
              roofline_fmt_si(r->smem_loads, "", x, sizeof x), r->elem,
              roofline_fmt_si(r->smem_bytes, "B", y, sizeof y));
    sbuf_addf(b, "  FLOP per shared byte = 2 x TM x TN / (elem x (TM + TN)) = %s\n",
              roofline_fmt_num(r->smem_ai, z, sizeof z));
    if (r->smem_bandwidth > 0) {
        sbuf_addf(b,
                  "  shared-memory bandwidth = SMs x 32 banks x 4 B x clock = %d x %d B x %.0f "
                  "MHz = %s\n",
                  sm_count, REGTILE_SMEM_BYTES_PER_CLOCK, clock_mhz,
                  roofline_fmt_si(r->smem_bandwidth, "B/s", x, sizeof x));
        sbuf_addf(b, "  (one conflict-free warp load of 4-byte words per clock per SM)\n");
        sbuf_addf(b, "  shared-memory ceiling = %s FLOP/B x %s = %s",
                  roofline_fmt_num(r->smem_ai, z, sizeof z),
                  roofline_fmt_si(r->smem_bandwidth, "B/s", x, sizeof x),
                  roofline_fmt_si(r->smem_ceiling, "FLOP/s", y, sizeof y));
        if (r->smem_ceiling_banked > 0)
            sbuf_add(b, " with conflict-free loads");
        else
            verdict(r->smem_ceiling, peak, b);
        sbuf_add(b, "\n");
        sbuf_addf(b, "  one output per thread: %s FLOP/B x %s = %s\n",
                  roofline_fmt_num(r->smem_ai_untiled, z, sizeof z),
                  roofline_fmt_si(r->smem_bandwidth, "B/s", x, sizeof x),
                  roofline_fmt_si(r->smem_ceiling_untiled, "FLOP/s", y, sizeof y));
    }
    if (r->conflict_slowdown > 0) {
        sbuf_addf(b,
                  "  the tile's own loads, for the usual layout (As[k][m], Bs[k][n]; thread (tx, "
                  "ty) reads As[k][ty*%d + i] and Bs[k][tx*%d + j]), through the bank model over "
                  "the block's warps: A %s, B %s wavefronts per request over the ideal\n",
                  r->tm, r->tn, roofline_fmt_num(r->a_conflict, x, sizeof x),
                  roofline_fmt_num(r->b_conflict, y, sizeof y));
        sbuf_addf(b,
                  "  shared time per k = (TM x A + TN x B) / (TM + TN) = (%d x %s + %d x %s) / %d "
                  "= x%s",
                  r->tm, roofline_fmt_num(r->a_conflict, x, sizeof x), r->tn,
                  roofline_fmt_num(r->b_conflict, y, sizeof y), r->tm + r->tn,
                  roofline_fmt_num(r->conflict_slowdown, z, sizeof z));
        if (r->smem_ceiling_banked > 0) {
            sbuf_addf(b, ": ceiling %s",
                      roofline_fmt_si(r->smem_ceiling_banked, "FLOP/s", x, sizeof x));
            verdict(r->smem_ceiling_banked, peak, b);
        }
        sbuf_addc(b, '\n');
        if (r->elem == 4 || r->elem == 8)
            sbuf_addf(b,
                      "  (the B loads: gpulint bank --decl \"%s Bs[1][%d]\" --access "
                      "\"Bs[0][threadIdx.x * %d]\" --block %dx%d)\n",
                      r->elem == 4 ? "float" : "double", r->tile, r->tn, r->tile / r->tn,
                      r->tile / r->tm);
    }
    sbuf_addf(b,
              "  registers >= (TM x TN accumulators + TM + TN operands) x %d = (%d + %d + %d) x "
              "%d = %d per thread\n",
              words, r->tm * r->tn, r->tm, r->tn, words, r->registers_min);
    sbuf_add(b, "  (assumes conflict-free shared loads; the compiler adds addresses and "
                "counters to the registers)\n");
}
