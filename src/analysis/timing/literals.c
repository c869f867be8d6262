/* Literal moves (literals.h): which literal a SASS instruction keeps in
 * its 32-bit slot, and the register moves the others cost. */
#include "analysis/timing/literals.h"

#include <stdint.h>
#include <string.h>

#include "analysis/timing/ptxcost.h"
#include "util/sbuf.h" /* xcalloc */

/* Whether value v is among the n of seen[]; added where not (and room). */
static bool seen_before(uint64_t *seen, size_t *n, size_t cap, uint64_t v)
{
    for (size_t k = 0; k < *n; k++)
        if (seen[k] == v)
            return true;
    if (*n < cap)
        seen[(*n)++] = v;
    return false;
}

/* The float literals one SASS instruction takes: its PTX instruction's,
 * and those of a multiply ptxas fuses into it or a copy it folds into its
 * operand (fuseprobe's 0.355 * s fused into 3.75 - that). Zeros are RZ
 * and left out; past the first two of a PTX instruction, the bits are not
 * kept and each is taken as a double that does not fit. addend: in a
 * slot a DFMA's 32-bit literal can fill, its addend (or a DADD's or
 * DMUL's operand); a fused multiply's is not (f64lit2's mulsub_fit_wide:
 * 3.75 * s fused into 0.355 - that moves both into pairs, four moves). */
enum { LIT_MAX = 4 };
struct lit_set {
    int n;
    bool f64[LIT_MAX], fits[LIT_MAX], addend[LIT_MAX];
    uint64_t bits[LIT_MAX];
};

static bool is_fma(const char *op)
{
    return !strncmp(op, "fma.", 4) || !strncmp(op, "mad.", 4);
}

static void add_literals(lit_set *to, const imix_insn *in, bool addend)
{
    for (int k = 0; k < in->n_literals && to->n < LIT_MAX; k++) {
        bool known = k < 2;
        if (known && !in->literal_bits[k])
            continue;
        bool f64 = !known || in->literal_f64[k];
        to->f64[to->n] = f64;
        to->bits[to->n] = known ? in->literal_bits[k] : 0;
        to->fits[to->n] = known && (!f64 || ptxcost_f64_literal_fits(in->literal_bits[k]));
        to->addend[to->n] = addend && (!is_fma(in->op) || (known && in->literal_last[k]));
        to->n++;
    }
}

/* Whether reg is what reader j adds: any operand of an add or a multiply,
 * an fma's last. */
static bool read_as_addend(const imix_insn *reader, uint32_t reg)
{
    if (!is_fma(reader->op))
        return true;
    int last = 0;
    while (last + 1 < IMIX_SRC && reader->src[last + 1])
        last++;
    return !reader->n_literals && reader->src[last] == reg;
}

/* Per instruction; a kept mov is the register a literal is moved into
 * (none); a fused multiply gives its literals to its one reader, the first
 * in its block; a folded copy gives its literal to each of its readers
 * (fuseprobe's mov.f64 of 3.75, read by 32 subs, each a DFMA with 3.75
 * as its literal). */
lit_set *lit_sets(const imix_insn *insns, size_t n, const bool *gone, const size_t *block_end)
{
    lit_set *l = xcalloc(n + 1, sizeof *l);
    for (size_t i = 0; i < n; i++) {
        const imix_insn *in = &insns[i];
        bool folded = gone && gone[i], copy = !strncmp(in->op, "mov.", 4);
        if (!in->n_literals || (!folded && copy))
            continue;
        if (!folded || !in->dst[0]) {
            add_literals(&l[i], in, true);
            continue;
        }
        size_t end = copy ? n : block_end[i];
        for (size_t j = i + 1; j < end; j++) {
            bool reads = false;
            for (int s = 0; s < IMIX_SRC && insns[j].src[s]; s++)
                reads |= insns[j].src[s] == in->dst[0];
            if (reads)
                add_literals(&l[j], in, copy && read_as_addend(&insns[j], in->dst[0]));
            if (reads && !copy)
                break;
        }
    }
    return l;
}

/* The literal an instruction keeps as its own, in its 32-bit literal
 * slot: a float; a double that fits in its addend (f64lit2: 3.75 in
 * 3.75 - 0.355 * s); a multiplier's that fits where no literal is added
 * (f64lit's loop_wide: DFMA R12, R10, 0.5, R12), but not beside an added
 * one that does not (f64lit2's mulsub_fit_wide: both in pairs). Up to
 * sm_89 a double that does not fit comes from the constant bank, one an
 * instruction, an addend first (f64lit's sm_80 listings). -1: none (sm_90
 * on: each double in a register). */
static int own_literal(const lit_set *l, int sm)
{
    bool wide_addend = false;
    for (int k = 0; k < l->n; k++) {
        if (l->fits[k] && (l->addend[k] || !l->f64[k]))
            return k;
        wide_addend |= l->addend[k];
    }
    for (int k = 0; k < l->n && !wide_addend; k++)
        if (l->fits[k])
            return k;
    if (sm >= 90 || sm == 0 || !l->n)
        return -1;
    for (int k = 0; k < l->n; k++)
        if (l->addend[k])
            return k;
    return 0;
}

/* A block's doubles an instruction does not keep as its own: each moved
 * into a register pair, uniform (UMOV, UMOV) or not (HFMA2.MMA, MOV), once
 * a block for each value, its readers there sharing it, and made again in
 * each block and each pass of a loop (f64lit's loop_wide, f64lit2's loop
 * kernels, fuseprobe's mulmadd<double>: HFMA2.MMA and MOV at the loop's
 * top; ptxas keeps the pair before the loop where it does not reuse it,
 * f64lit2's loop_mulsub_wide_fit, 2.8% over); and a select's second
 * literal, whose register pair its FSEL writes over, made at each one
 * (fft's selp.f64). */
double lit_block_moves(const imix_insn *insns, size_t first, size_t end, const lit_set *l, int sm)
{
    uint64_t seen[64];
    size_t n_seen = 0;
    double extra = 0;
    for (size_t i = first; i < end; i++) {
        if (!l[i].n)
            continue;
        if (!strncmp(insns[i].op, "selp.", 5)) {
            for (int k = 1; k < l[i].n; k++)
                extra += l[i].f64[k] ? ptxcost_f64_pair_moves(sm) : 1;
            continue; /* each word's literal is its SEL's or FSEL's own */
        }
        int own = own_literal(&l[i], sm);
        for (int k = 0; k < l[i].n; k++)
            if (k != own && l[i].f64[k] && !seen_before(seen, &n_seen, 64, l[i].bits[k]))
                extra += ptxcost_f64_pair_moves(sm);
    }
    return extra;
}

/* An instruction's float literals besides its own (but a select's): each
 * moved into a register once for the kernel, before its loops, where its
 * readers in every block find it (depixel's 0.5 in check_connect's blocks,
 * one IMAD.MOV; the reference kernel rf_fma_heavy's 0.001f, one MOV). Once
 * a warp, as the prologue. */
double lit_kernel_moves(const imix_insn *insns, size_t n, const lit_set *l)
{
    uint64_t seen[64];
    size_t n_seen = 0;
    double extra = 0;
    for (size_t i = 0; i < n && l; i++) {
        int own = own_literal(&l[i], 90);
        if (!l[i].n || !strncmp(insns[i].op, "selp.", 5))
            continue;
        for (int k = 0; k < l[i].n; k++)
            if (k != own && !l[i].f64[k] && !seen_before(seen, &n_seen, 64, l[i].bits[k]))
                extra += 1;
    }
    return extra;
}
