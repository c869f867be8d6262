/* depchain: a warp's dependent-issue time through its blocks (see depchain.h). */
#include "analysis/timing/depchain.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/ptxcost.h"
#include "analysis/timing/ptxlat.h"
#include "util/sbuf.h" /* xcalloc */

/* When each register's value is ready: open addressing on the name's hash. */
struct depchain {
    uint32_t *key;
    double *at;
    size_t cap;
    double now; /* when the next block may start issuing */
};

static double *slot(depchain *d, uint32_t key, bool add)
{
    size_t i = key & (d->cap - 1);
    while (d->key[i] && d->key[i] != key)
        i = (i + 1) & (d->cap - 1);
    if (!d->key[i]) {
        if (!add)
            return NULL;
        d->key[i] = key;
        d->at[i] = 0;
    }
    return &d->at[i];
}

depchain *depchain_new(size_t n)
{
    depchain *d = xcalloc(1, sizeof *d);
    d->cap = 16;
    while (d->cap < 2 * (n + 1) * IMIX_DST)
        d->cap *= 2;
    d->key = xcalloc(d->cap, sizeof *d->key);
    d->at = xcalloc(d->cap, sizeof *d->at);
    return d;
}

void depchain_free(depchain *d)
{
    if (!d)
        return;
    free(d->key);
    free(d->at);
    free(d);
}

/* Each instruction issues once its operands are ready and the one before
 * it has issued, and not before the branch to the slow path inside an
 * IEEE division's or square root's sequence ahead of it. */
double depchain_block(depchain *d, const imix_insn *in, size_t k)
{
    double start = d->now, last = start, fence = start, issued = 0;
    double prev = start - 1;
    for (size_t i = 0; i < k; i++) {
        /* A copy ptxas renames away hands its source's time on and takes
         * no issue slot. */
        double t = in[i].folded ? start : fmax(fence, prev + 1);
        for (int s = 0; s < IMIX_SRC && in[i].src[s]; s++) {
            double *r = slot(d, in[i].src[s], false);
            if (r && *r > t)
                t = *r;
        }
        if (in[i].folded) {
            for (int s = 0; s < IMIX_DST && in[i].dst[s]; s++)
                *slot(d, in[i].dst[s], true) = t;
            continue;
        }
        double lat = ptxlat_cycles(in[i].op, NULL);
        double branch = ptxlat_branch_at(in[i].op);
        if (branch > 0)
            fence = t + branch;
        for (int s = 0; s < IMIX_DST && in[i].dst[s]; s++)
            *slot(d, in[i].dst[s], true) = t + lat;
        last = fmax(last, t + 1);
        prev = t;
        issued += ptxcost_sass_per_ptx(in[i].op);
    }
    double span = fmax(last - start, issued);
    d->now = start + span;
    return span;
}
