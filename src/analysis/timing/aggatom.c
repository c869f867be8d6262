/* aggatom: the PTX atomics ptxas aggregates a warp at a time (aggatom.h). */
#include "analysis/timing/aggatom.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h" /* xcalloc */

/* A chain deeper than this is taken as not uniform. */
enum { UNIFORM_DEPTH = 24 };

static bool starts(const char *op, const char *prefix)
{
    return strncmp(op, prefix, strlen(prefix)) == 0;
}

static bool ends(const char *op, const char *suffix)
{
    size_t n = strlen(op), k = strlen(suffix);
    return n >= k && strcmp(op + n - k, suffix) == 0;
}

/* The special registers every lane of a block reads alike. */
static bool uniform_special(uint32_t h)
{
    static const char *const names[] = {"ctaid.x",  "ctaid.y", "ctaid.z", "nctaid.x", "nctaid.y",
                                        "nctaid.z", "ntid.x",  "ntid.y",  "ntid.z"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (h == imix_reg_hash(names[i], strlen(names[i])))
            return true;
    return false;
}

/* What a lane reads that another lane may not: memory other than the
 * kernel's parameters, the warp's collectives, clocks. Their results are
 * not taken as uniform (ptxas may not know a load's value is). */
static bool varying_op(const char *op)
{
    if (starts(op, "ld.") || starts(op, "ldu.") || starts(op, "atom.") || starts(op, "tex.") ||
        starts(op, "tld4.") || starts(op, "suld.") || starts(op, "shfl.") || starts(op, "vote.") ||
        starts(op, "activemask") || starts(op, "match.") || starts(op, "redux.") ||
        starts(op, "call"))
        return !starts(op, "ld.param.");
    return false;
}

typedef struct writes {
    uint32_t reg;
    int32_t at;
} writes;

typedef struct defs {
    const imix_insn *in;
    writes *w; /* every (register, writer) pair, by register */
    size_t n_w;
    signed char *memo; /* per instruction: 0 not asked, 1 uniform, -1 not (or being asked) */
} defs;

static int by_reg(const void *a, const void *b)
{
    uint32_t x = ((const writes *)a)->reg, y = ((const writes *)b)->reg;
    return x < y ? -1 : x > y;
}

/* The one instruction that writes register h; -1 when none or several. */
static int32_t writer(const defs *d, uint32_t h)
{
    writes key = {h, 0};
    const writes *f = bsearch(&key, d->w, d->n_w, sizeof *d->w, by_reg);
    if (!f)
        return -1;
    bool several = (f > d->w && f[-1].reg == h) || (f + 1 < d->w + d->n_w && f[1].reg == h);
    return several ? -1 : f->at;
}

/* Register h holds the same value in every lane: the special registers
 * above, or the one unguarded instruction that writes it reads only
 * such registers and immediates (the parameters' loads included). A
 * register written twice (a loop's counter, the arms of a branch) is not
 * followed. */
static bool uniform(const defs *d, uint32_t h, int depth)
{
    if (uniform_special(h))
        return true;
    int32_t w = writer(d, h);
    if (w < 0 || depth > UNIFORM_DEPTH)
        return false;
    if (d->memo[w])
        return d->memo[w] > 0;
    d->memo[w] = -1;
    const imix_insn *in = &d->in[w];
    bool ok = !in->guarded && !varying_op(in->op);
    for (int k = 0; ok && k < IMIX_SRC && in->src[k]; k++)
        ok = uniform(d, in->src[k], depth + 1);
    d->memo[w] = ok ? 1 : -1;
    return ok;
}

static bool read_by_any(const imix_insn *in, size_t n, uint32_t h)
{
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < IMIX_SRC && in[i].src[k]; k++)
            if (in[i].src[k] == h)
                return true;
    return false;
}

/* atom.global.add.u32 / .s32 (scope and order modifiers between), or red. */
static bool integer_global_add(const char *op)
{
    return (starts(op, "atom.") || starts(op, "red.")) && strstr(op, ".global.") &&
           strstr(op, ".add.") && (ends(op, ".u32") || ends(op, ".s32"));
}

void aggatom_mark(imix_insn *in, size_t n)
{
    defs d = {in, NULL, 0, NULL};
    for (size_t i = 0; i < n; i++) {
        imix_insn *a = &in[i];
        a->aggregated = false;
        if (!integer_global_add(a->op) || !a->addr_base)
            continue;
        if (starts(a->op, "atom.") && a->dst[0] && read_by_any(in, n, a->dst[0]))
            continue;
        if (!d.w) {
            for (size_t j = 0; j < n; j++)
                for (int k = 0; k < IMIX_DST && in[j].dst[k]; k++)
                    d.n_w++;
            d.w = xcalloc(d.n_w ? d.n_w : 1, sizeof *d.w);
            d.n_w = 0;
            for (size_t j = 0; j < n; j++)
                for (int k = 0; k < IMIX_DST && in[j].dst[k]; k++)
                    d.w[d.n_w++] = (writes){in[j].dst[k], (int32_t)j};
            qsort(d.w, d.n_w, sizeof *d.w, by_reg);
            d.memo = xcalloc(n, sizeof *d.memo);
        }
        a->aggregated = uniform(&d, a->addr_base, 0);
    }
    free(d.w);
    free(d.memo);
}
