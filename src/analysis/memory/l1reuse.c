/* l1reuse: a block's loops that read again what its loop before read,
 * after L1 has let it go. */
#include "analysis/memory/l1reuse.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/affbox.h"
#include "util/sbuf.h"

int64_t l1reuse_bytes_per_block(const gpu_arch *arch, int64_t threads_per_block,
                                int64_t smem_per_block, int64_t grid_blocks_per_sm)
{
    if (!arch || arch->unified_l1_per_sm <= 0 || arch->n_carveouts == 0 || threads_per_block <= 0 ||
        arch->warp_size <= 0 || smem_per_block < 0)
        return 0;
    int64_t warp = arch->warp_size;
    int64_t threads = (threads_per_block + warp - 1) / warp * warp;
    int64_t blocks = arch->max_threads_per_sm / threads;
    if (blocks > arch->max_blocks_per_sm)
        blocks = arch->max_blocks_per_sm;
    if (grid_blocks_per_sm > 0 && blocks > grid_blocks_per_sm)
        blocks = grid_blocks_per_sm;
    /* The 1 KB a block reserves counts towards the carveout
     * (cuda_occupancy.h adds it from cc 8.0 on). */
    int64_t smem = smem_per_block + arch->smem_reserved_per_block;
    if (smem > 0 && arch->smem_per_sm / smem < blocks)
        blocks = arch->smem_per_sm / smem;
    if (blocks <= 0)
        return 0;
    int64_t carveout = -1;
    for (int i = 0; i < arch->n_carveouts && carveout < 0; i++)
        if (arch->carveouts[i] >= blocks * smem)
            carveout = arch->carveouts[i];
    if (carveout < 0)
        return 0;
    return (arch->unified_l1_per_sm - carveout) / blocks;
}

static bool is_load(const footprint_site *s)
{
    const mem_access *a = s->access;
    return a && a->space == SPACE_GLOBAL && !a->is_store && !a->why_not && s->array;
}

/* The loads' sectors, when the footprint follows every one of them. */
static bool read_sectors(const footprint_site *sites, size_t n, const int64_t grid[3],
                         const int64_t block[3], const expr_env *env, const int64_t bid[3],
                         int64_t *out)
{
    footprint f;
    footprint_of_block(sites, n, grid, block, env, bid, false, &f);
    bool ok = f.n_left_out == 0 && f.n_partial == 0;
    *out = f.read_sectors;
    footprint_free(&f);
    return ok;
}

/* Loops every load shares, outermost first. */
static int shared_depth(const footprint_site *loads, size_t n)
{
    int depth = loads[0].access->n_loops;
    for (size_t i = 1; i < n; i++) {
        const mem_access *a = loads[i].access;
        int d = 0;
        while (d < depth && d < a->n_loops && loop_same(&a->loops[d], &loads[0].access->loops[d]))
            d++;
        depth = d;
    }
    return depth;
}

/* Iterations of the shared loops in block bid: the sweep of one of them is
 * what a phase reads between its reuses. 0: not known. */
static int64_t shared_trips(const mem_access *a, int depth, const int64_t grid[3],
                            const int64_t block[3], const expr_env *env, const int64_t bid[3])
{
    expr_env names;
    expr_env_bind_launch(&names, env, grid, block);
    for (int d = 0; d < 3; d++)
        expr_env_set_builtin(&names, (expr_builtin)(SYM_BID_X + d), bid[d]);
    int64_t trips = 1;
    for (int d = 0; d < depth; d++) {
        int64_t t = affbox_loop_trips(&a->loops[d], &names, INT64_MAX / 2);
        if (t <= 0 || trips > INT64_MAX / 2 / t)
            return 0;
        trips *= t;
    }
    return trips;
}

/* A load whose address moves with its phase's loops: it sweeps, so the
 * start of what it read is the first to go. A load that stays put (x[i]
 * read each iteration) is fresh when its phase ends. */
static bool sweeps(const mem_access *a, int depth)
{
    for (int d = depth; d < a->n_loops; d++)
        if (a->loops[d].var && expr_uses_name(a->byte_offset, a->loops[d].var))
            return true;
    return false;
}

typedef struct phases {
    footprint_site *loads;
    size_t n_loads, n;
    size_t *start;  /* phase p: loads[start[p]] .. loads[start[p + 1] - 1] */
    int64_t *sweep; /* bytes a block reads in phase p, per shared iteration */
    int depth;
} phases;

/* The sectors phase j reads that L1 has let go: read by an earlier phase
 * and swept out since, by a later phase's sweep or by its own. */
static bool phase_rereads(const phases *ph, size_t j, int64_t l1, const int64_t grid[3],
                          const int64_t block[3], const expr_env *env, const int64_t bid[3],
                          int64_t *out)
{
    footprint_site *gone = xcalloc(ph->n_loads, sizeof *gone);
    size_t n_gone = 0;
    bool later = false; /* a phase between p and j sweeps more than L1 keeps */
    for (size_t p = j; p-- > 0;) {
        bool own = ph->sweep[p] > l1;
        for (size_t i = ph->start[p]; i < ph->start[p + 1]; i++)
            if (later || (own && sweeps(ph->loads[i].access, ph->depth)))
                gone[n_gone++] = ph->loads[i];
        later = later || own;
    }
    int64_t mine, was, both;
    size_t b1 = ph->start[j], b2 = ph->start[j + 1];
    bool ok = read_sectors(ph->loads + b1, b2 - b1, grid, block, env, bid, &mine) &&
              read_sectors(gone, n_gone, grid, block, env, bid, &was);
    for (size_t i = b1; ok && i < b2; i++)
        gone[n_gone++] = ph->loads[i];
    ok = ok && read_sectors(gone, n_gone, grid, block, env, bid, &both);
    *out = ok ? mine + was - both : 0;
    free(gone);
    return ok;
}

void l1reuse_compute(const footprint_site *sites, size_t n, const int64_t grid[3],
                     const int64_t block[3], const expr_env *env, const int64_t bid[3],
                     int64_t l1_bytes_per_block, l1reuse *out)
{
    memset(out, 0, sizeof *out);
    if (l1_bytes_per_block <= 0)
        return;
    phases ph = {.loads = xcalloc(n ? n : 1, sizeof *ph.loads)};
    for (size_t i = 0; i < n; i++)
        if (is_load(&sites[i]))
            ph.loads[ph.n_loads++] = sites[i];
    if (ph.n_loads < 2) {
        free(ph.loads);
        return;
    }
    /* A phase: consecutive loads under the same loop just inside the
     * shared ones (or under none). */
    ph.depth = shared_depth(ph.loads, ph.n_loads);
    ph.start = xcalloc(ph.n_loads + 1, sizeof *ph.start);
    ph.sweep = xcalloc(ph.n_loads, sizeof *ph.sweep);
    for (size_t i = 0; i < ph.n_loads; i++) {
        const mem_access *a = ph.loads[i].access, *p = i ? ph.loads[i - 1].access : NULL;
        bool in_loop = a->n_loops > ph.depth, prev_in_loop = p && p->n_loops > ph.depth;
        if (!p || in_loop != prev_in_loop ||
            (in_loop && !loop_same(&a->loops[ph.depth], &p->loops[ph.depth])))
            ph.start[ph.n++] = i;
    }
    ph.start[ph.n] = ph.n_loads;
    int64_t trips =
        ph.n > 1 ? shared_trips(ph.loads[0].access, ph.depth, grid, block, env, bid) : 0;
    bool ok = trips > 0;
    for (size_t p = 0; ok && p < ph.n; p++) {
        int64_t sectors;
        ok = read_sectors(ph.loads + ph.start[p], ph.start[p + 1] - ph.start[p], grid, block, env,
                          bid, &sectors);
        ph.sweep[p] = 32 * sectors / (trips ? trips : 1);
    }
    for (size_t j = 1; ok && j < ph.n; j++) {
        int64_t again;
        ok = phase_rereads(&ph, j, l1_bytes_per_block, grid, block, env, bid, &again);
        if (!ok || again <= 0)
            continue;
        out->reread_sectors += again;
        if (!out->why[0]) {
            const mem_access *a = ph.loads[ph.start[j]].access;
            int line = a->n_loops > ph.depth ? a->loops[ph.depth].loc.line : a->loc.line;
            size_t p = j - 1;
            while (p > 0 && ph.sweep[p] <= l1_bytes_per_block)
                p--;
            const mem_access *b = ph.loads[ph.start[p]].access;
            int pline = b->n_loops > ph.depth ? b->loops[ph.depth].loc.line : b->loc.line;
            snprintf(out->why, sizeof out->why,
                     "the loads at line %d read again what L1 let go as the loads at line %d "
                     "swept %.4g KiB a block, more than the %.4g KiB it keeps for one",
                     line, pline, (double)ph.sweep[p] / 1024, (double)l1_bytes_per_block / 1024);
        }
    }
    if (!ok)
        out->reread_sectors = 0, out->why[0] = '\0';
    free(ph.sweep);
    free(ph.start);
    free(ph.loads);
}
