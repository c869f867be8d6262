/* launchplan: grids, idle threads, occupancy, waves and sectors per shape. */
#include "analysis/calc/launchplan.h"
#include "util/order.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECTOR 32 /* bytes: the unit L1/L2 fetch from DRAM since Maxwell */

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Sectors the warps of block (0,0,0) fetch, row-major, against the fewest
 * that could hold their bytes. */
static void sectors(const launchplan_problem *p, launchplan_candidate *c, int warp_size)
{
    int64_t threads = c->block[0] * c->block[1] * c->block[2];
    int warps = (int)ceil_div(threads, warp_size);
    double got = 0, ideal = 0;
    c->coalesced = true;
    c->rows_per_warp = 0;
    int64_t *sec = malloc((size_t)warp_size * sizeof *sec);
    for (int w = 0; w < warps; w++) {
        int n = 0;
        int64_t first_row = -1, rows = 0;
        for (int l = 0; l < warp_size; l++) {
            int64_t t = (int64_t)w * warp_size + l;
            if (t >= threads)
                break;
            int64_t x = t % c->block[0], y = (t / c->block[0]) % c->block[1],
                    z = t / (c->block[0] * c->block[1]);
            if (x >= p->extent[0] || y >= p->extent[1] || z >= p->extent[2])
                continue;
            int64_t row = z * p->extent[1] + y;
            if (row != first_row) {
                rows++;
                first_row = row;
            }
            int64_t off = (row * p->extent[0] + x) * p->elem_size;
            sec[n++] = off / SECTOR;
        }
        if (!n)
            continue;
        qsort(sec, (size_t)n, sizeof *sec, order_i64);
        int distinct = 1;
        for (int i = 1; i < n; i++)
            distinct += sec[i] != sec[i - 1];
        int64_t need = ceil_div((int64_t)n * p->elem_size, SECTOR);
        got += distinct;
        ideal += (double)need;
        if (distinct > need)
            c->coalesced = false;
        if (rows > c->rows_per_warp)
            c->rows_per_warp = (int)rows;
    }
    free(sec);
    c->sectors = warps ? got / warps : 0;
    c->ideal_sectors = warps ? ideal / warps : 0;
}

bool launchplan_evaluate(const gpu_arch *arch, const launchplan_problem *p, const int64_t block[3],
                         launchplan_candidate *c, char *why, size_t why_size)
{
    memset(c, 0, sizeof *c);
    int64_t threads = 1;
    for (int i = 0; i < 3; i++) {
        if (block[i] < 1 || p->extent[i] < 1) {
            snprintf(why, why_size, "block and problem extents must be at least 1");
            return false;
        }
        threads *= block[i];
        if (threads > arch->max_threads_per_block) {
            snprintf(why, why_size,
                     "a block of %lldx%lldx%lld has more than the %d threads %s allows",
                     (long long)block[0], (long long)block[1], (long long)block[2],
                     arch->max_threads_per_block, arch->name);
            return false;
        }
        c->block[i] = block[i];
        c->grid[i] = ceil_div(p->extent[i], block[i]);
    }
    c->blocks = c->grid[0] * c->grid[1] * c->grid[2];
    c->threads = c->blocks * threads;
    c->idle_threads = c->threads - p->extent[0] * p->extent[1] * p->extent[2];
    c->idle_fraction = (double)c->idle_threads / (double)c->threads;
    occ_launch l = {.threads_per_block = (int)threads, .carveout_percent = -1};
    c->launches = occ_compute(arch, &p->kernel, &l, &c->occ);
    c->waves = -1;
    if (c->launches && p->sm_count > 0) {
        int64_t slots = (int64_t)c->occ.blocks_per_sm * p->sm_count;
        c->waves = (double)c->blocks / (double)slots;
        c->full_waves = (int)ceil_div(c->blocks, slots);
        int64_t last = c->blocks - (int64_t)(c->full_waves - 1) * slots;
        c->tail_fill = (double)last / (double)slots;
    }
    sectors(p, c, arch->warp_size);
    return true;
}

/* Share of the SMs' block slots used over all waves. */
static double wave_use(const launchplan_candidate *c)
{
    return c->waves > 0 ? c->waves / c->full_waves : 1.0;
}

int launchplan_compare(const launchplan_candidate *a, const launchplan_candidate *b)
{
    if (a->launches != b->launches)
        return a->launches ? 1 : -1;
    if (a->coalesced != b->coalesced)
        return a->coalesced ? 1 : -1;
    long oa = lround(a->occ.occupancy * 100), ob = lround(b->occ.occupancy * 100);
    if (oa != ob)
        return oa > ob ? 1 : -1;
    /* A warp on one row reads whole 128-byte lines in one request; spread
     * over rows it needs a line per row for the same bytes. */
    if (a->rows_per_warp != b->rows_per_warp)
        return a->rows_per_warp < b->rows_per_warp ? 1 : -1;
    if (fabs(a->idle_fraction - b->idle_fraction) > 1e-9)
        return a->idle_fraction < b->idle_fraction ? 1 : -1;
    double wa = wave_use(a), wb = wave_use(b);
    if (fabs(wa - wb) > 1e-9)
        return wa > wb ? 1 : -1;
    if (a->block[0] != b->block[0])
        return a->block[0] > b->block[0] ? 1 : -1;
    return 0;
}

bool launchplan_search(const gpu_arch *arch, const launchplan_problem *p,
                       launchplan_candidate *best)
{
    bool found = false;
    int ws = arch->warp_size, max = arch->max_threads_per_block;
    int64_t cap[3];
    for (int i = 0; i < 3; i++)
        cap[i] = p->extent[i] < ws ? p->extent[i] : ceil_div(p->extent[i], ws) * ws;
    for (int64_t bx = 1; bx <= max && bx <= cap[0] * 2; bx *= 2)
        for (int64_t by = 1; bx * by <= max && by <= cap[1]; by++)
            for (int64_t bz = 1; bx * by * bz <= max && bz <= cap[2]; bz++) {
                if ((bx * by * bz) % ws)
                    continue;
                int64_t block[3] = {bx, by, bz};
                launchplan_candidate c;
                char why[128];
                if (!launchplan_evaluate(arch, p, block, &c, why, sizeof why))
                    continue;
                if (!found || launchplan_compare(&c, best) > 0) {
                    *best = c;
                    found = true;
                }
            }
    return found;
}
