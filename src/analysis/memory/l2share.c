/* l2share: DRAM re-reads from which blocks share a panel while it is in L2.
 * See l2share.h for the two regimes and where they were measured. */
#include "analysis/memory/l2share.h"

#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* The dimensions of more than one block that the array's panels differ
 * along (a dimension of extent 1 is shared and unshared alike). */
static unsigned unshared_dims(const int64_t grid[3], unsigned shared)
{
    unsigned u = 0;
    for (int d = 0; d < 3; d++)
        if (grid[d] > 1 && !(shared & (1u << d)))
            u |= 1u << d;
    return u;
}

int64_t l2share_panels(const int64_t grid[3], unsigned shared, int64_t start, int64_t len)
{
    if (len <= 0)
        return 0;
    /* Blocks are launched x fastest: block id = x + W (y + H z). */
    const int64_t w = grid[0], wh = grid[0] * grid[1], end = start + len;
    switch (unshared_dims(grid, shared)) {
    case 0:
        return 1;
    case 7:
        return len;
    case 1: /* x: consecutive ids have distinct x until a row is full */
        return min64(len, w);
    case 3: /* x and y */
        return min64(len, wh);
    case 6: /* y and z: one panel per row of blocks */
        return (end - 1) / w - start / w + 1;
    case 4: /* z */
        return (end - 1) / wh - start / wh + 1;
    case 2: /* y alone: rows, the same y again after a whole plane */
        return min64((end - 1) / w - start / w + 1, grid[1]);
    default: { /* x and z: the x the ids cover in each plane they reach */
        int64_t n = 0;
        for (int64_t z = start / wh; z * wh < end; z++)
            n += min64(min64(end, (z + 1) * wh) - max64(start, z * wh), w);
        return n;
    }
    }
}

/* What the launch-ordered blocks [0, len) read: each array's panels among
 * them, each panel once. */
static double bytes_of(const int64_t grid[3], const l2share_array *arrays, size_t n, int64_t len)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum +=
            (double)arrays[i].block_bytes * (double)l2share_panels(grid, arrays[i].shared, 0, len);
    return sum;
}

/* Lockstep: a panel comes from DRAM once for each wave that reads it,
 * unless everything a wave reads fits in L2 (then the next wave finds it). */
static int64_t lockstep_fetches(const l2share_launch *l, unsigned shared, int64_t total,
                                int64_t resident, double wave)
{
    if (wave <= (double)l->l2_bytes)
        return l2share_panels(l->grid, shared, 0, total);
    int64_t f = 0;
    for (int64_t start = 0; start < total; start += resident)
        f += l2share_panels(l->grid, shared, start, min64(resident, total - start));
    return f;
}

/* Drifting: a panel's readers follow one another in launch order, g apart
 * for each step along a shared dimension (the steps below it wrapped);
 * each comes from DRAM again where what the g blocks between read
 * outgrows the L2. */
static int64_t drifting_fetches(const l2share_launch *l, const l2share_array *arrays, size_t n,
                                unsigned shared, int64_t total)
{
    const int64_t stride[3] = {1, l->grid[0], l->grid[0] * l->grid[1]};
    int dims[3], m = 0;
    for (int d = 0; d < 3; d++)
        if (l->grid[d] > 1 && (shared & (1u << d)))
            dims[m++] = d;
    int64_t again = 0, below = 0;
    for (int j = 0; j < m; j++) {
        int64_t gap = stride[dims[j]] - below, count = l->grid[dims[j]] - 1;
        for (int i = j + 1; i < m; i++)
            count *= l->grid[dims[i]];
        if (bytes_of(l->grid, arrays, n, min64(gap, total)) > (double)l->l2_bytes)
            again += count;
        below += (l->grid[dims[j]] - 1) * stride[dims[j]];
    }
    return l2share_panels(l->grid, shared, 0, total) * (1 + again);
}

int64_t l2share_reads(const l2share_launch *l, const l2share_array *arrays, size_t n,
                      int64_t *dram_bytes, int64_t *fetches)
{
    int64_t total = l->grid[0] * l->grid[1] * l->grid[2];
    int64_t resident = l->resident < 1 ? 1 : min64(l->resident, total);
    double wave = bytes_of(l->grid, arrays, n, resident);
    for (size_t i = 0; i < n; i++) {
        const l2share_array *a = &arrays[i];
        unsigned shared = a->shared & ~unshared_dims(l->grid, a->shared);
        bool any = false;
        for (int d = 0; d < 3; d++)
            any |= l->grid[d] > 1 && (shared & (1u << d));
        if (!any || a->block_bytes <= 0 || total < 2) {
            dram_bytes[i] = a->grid_bytes;
            fetches[i] = 0;
            continue;
        }
        fetches[i] = l->lockstep ? lockstep_fetches(l, a->shared, total, resident, wave)
                                 : drifting_fetches(l, arrays, n, a->shared, total);
        /* A panel's first fetch is in the grid's footprint, which counts
         * once what neighbouring panels share (a stencil's halo); each
         * fetch past it reads the panel again. */
        int64_t panels = l2share_panels(l->grid, a->shared, 0, total);
        double bytes =
            (double)a->grid_bytes + (double)max64(fetches[i] - panels, 0) * (double)a->block_bytes;
        dram_bytes[i] = bytes > 9e18 ? INT64_MAX : (int64_t)bytes;
    }
    return wave > 9e18 ? INT64_MAX : (int64_t)wave;
}

static bool uses_bid(const mem_access *a, int d, bool guards_cut)
{
    expr_builtin b = (expr_builtin)(SYM_BID_X + d);
    if (expr_uses_builtin(a->byte_offset, b) ||
        (guards_cut && a->guard && expr_uses_builtin(a->guard, b)))
        return true;
    for (int j = 0; j < a->n_loops; j++) {
        const loop_ctx *lc = &a->loops[j];
        if ((lc->init && expr_uses_builtin(lc->init, b)) ||
            (lc->cond && expr_uses_builtin(lc->cond, b)) ||
            (lc->next && expr_uses_builtin(lc->next, b)))
            return true;
    }
    return false;
}

bool l2share_guards_cut(const footprint_site *sites, size_t n, const int64_t grid[3],
                        const int64_t block[3], const expr_env *env, const footprint *with_guards)
{
    footprint_site *bare = xcalloc(n ? n : 1, sizeof *bare);
    mem_access *unguarded = xcalloc(n ? n : 1, sizeof *unguarded);
    for (size_t i = 0; i < n; i++) {
        bare[i] = sites[i];
        if (sites[i].access) {
            unguarded[i] = *sites[i].access; /* shallow: read, never freed */
            unguarded[i].guard = NULL;
            bare[i].access = &unguarded[i];
        }
    }
    footprint f = {0};
    footprint_compute(bare, n, grid, block, env, &f);
    bool cut = f.n_left_out || f.n_partial || f.n_arrays != with_guards->n_arrays;
    for (size_t i = 0; !cut && i < f.n_arrays; i++) {
        const footprint_array *a = &f.arrays[i], *b = NULL;
        for (size_t j = 0; j < with_guards->n_arrays && !b; j++)
            if (!strcmp(with_guards->arrays[j].name, a->name))
                b = &with_guards->arrays[j];
        cut = !b || a->bytes != b->bytes || a->read_bytes != b->read_bytes;
    }
    footprint_free(&f);
    free(unguarded);
    free(bare);
    return cut;
}

unsigned l2share_dims(const footprint_site *sites, size_t n, const char *array, bool guards_cut)
{
    unsigned shared = 7;
    for (size_t i = 0; i < n; i++) {
        const mem_access *a = sites[i].access;
        if (!a || a->space != SPACE_GLOBAL || !sites[i].array || strcmp(sites[i].array, array))
            continue;
        if (a->is_store)
            return 0;
        for (int d = 0; d < 3; d++)
            if (uses_bid(a, d, guards_cut))
                shared &= ~(1u << d);
    }
    return shared;
}
