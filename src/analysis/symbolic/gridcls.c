/* gridcls: grid totals by block class (see gridcls.h). The classes are
 * exact for guards that single out the grid's edges (`gx > 0`,
 * `gx + 1 < nx`, the partial last block of `idx < n`); interior blocks are
 * probed at two more places so that a guard which singles out some other
 * block is reported rather than silently averaged away. */
#include "analysis/symbolic/gridcls.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analysis/symbolic/expr.h"

static const expr_builtin block_index[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
static const char dim_name[3] = {'x', 'y', 'z'};

int64_t gridcls_interior(int64_t extent)
{
    return extent > 1 ? 1 : 0;
}

void gridcls_uses_block_index(const mem_access *a, bool out[3])
{
    for (int d = 0; d < 3; d++) {
        expr_builtin b = block_index[d];
        bool u = expr_uses_builtin(a->byte_offset, b) || expr_uses_builtin(a->guard, b);
        for (int l = 0; l < a->n_loops && !u; l++)
            u = expr_uses_builtin(a->loops[l].init, b) || expr_uses_builtin(a->loops[l].cond, b) ||
                expr_uses_builtin(a->loops[l].next, b);
        out[d] = u;
    }
}

typedef struct dim_classes {
    int n;
    int64_t rep[3];
    int64_t count[3];
} dim_classes;

static void classes_of(int64_t extent, bool used, dim_classes *c)
{
    c->n = 0;
    if (!used || extent <= 1) {
        c->rep[0] = gridcls_interior(extent);
        c->count[0] = extent;
        c->n = 1;
        return;
    }
    c->rep[c->n] = 0;
    c->count[c->n++] = 1;
    if (extent > 2) {
        c->rep[c->n] = 1;
        c->count[c->n++] = extent - 2;
    }
    c->rep[c->n] = extent - 1;
    c->count[c->n++] = 1;
}

/* Interior blocks whose counts are neither alike nor on a line (a mask
 * that keeps the upper triangle of each matrix of a batch): the mean of
 * GRIDCLS_SAMPLES blocks spread over the interior by the golden ratio's
 * sequence, which no period of the grid aliases (evenly spaced blocks at a
 * stride of a whole matrix would all sit at the same row), times the
 * interior's count. An estimate. */
#define GRIDCLS_SAMPLES 64
static bool sample_interior(const int64_t grid[3], int d, gridcls_fn fn, void *ctx,
                            int64_t sum[GRIDCLS_METRICS], char *why, size_t why_size)
{
    int64_t n = grid[d] - 2;
    double acc[GRIDCLS_METRICS] = {0};
    for (int i = 0; i < GRIDCLS_SAMPLES; i++) {
        double f = 0.5 + 0.6180339887498949 * i;
        f -= (double)(int64_t)f;
        int64_t bid[3] = {0, 0, 0}, m[GRIDCLS_METRICS] = {0};
        bid[d] = 1 + (int64_t)(f * (double)n);
        if (bid[d] > n)
            bid[d] = n;
        if (!fn(bid, m, why, why_size, ctx))
            return false;
        for (int k = 0; k < GRIDCLS_METRICS; k++)
            acc[k] += (double)m[k];
    }
    for (int k = 0; k < GRIDCLS_METRICS; k++) {
        double t = acc[k] / GRIDCLS_SAMPLES * (double)n + 0.5;
        sum[k] = t < 9.2e18 ? (int64_t)t : INT64_MAX;
    }
    return true;
}

/* Interior blocks that differ along the one dimension the site reads
 * (triangular loop nests: each block's rows run a different length). Up to
 * GRIDCLS_ENUMERATE of them are each evaluated; more are summed as a linear
 * trend when the probes lie on a line (exact for per-block counts affine in
 * the block index, which triangular nests over a 1-D grid give), else from
 * a sample (sample_interior). Returns false when fn fails; sets
 * res->uniform and its note either way. */
#define GRIDCLS_ENUMERATE 16
static bool resum_interior(const int64_t grid[3], int d, const int64_t ref[GRIDCLS_METRICS],
                           const int64_t mid[GRIDCLS_METRICS], const int64_t last[GRIDCLS_METRICS],
                           gridcls_fn fn, void *ctx, gridcls_result *res, char *why,
                           size_t why_size)
{
    int64_t g = grid[d], n = g - 2; /* interior blocks 1 .. g-2 */
    int64_t sum[GRIDCLS_METRICS] = {0};
    int evaluated = 2;
    if (n <= GRIDCLS_ENUMERATE) {
        evaluated = (int)n - 1;
        for (int64_t b = 1; b <= n; b++) {
            int64_t bid[3] = {0, 0, 0}, m[GRIDCLS_METRICS] = {0};
            bid[d] = b;
            if (!fn(bid, m, why, why_size, ctx))
                return false;
            for (int k = 0; k < GRIDCLS_METRICS; k++)
                sum[k] += m[k];
        }
        snprintf(res->note, sizeof res->note,
                 "interior blocks differ along %c: each of the %lld was evaluated", dim_name[d],
                 (long long)n);
        res->uniform = true;
    } else {
        int64_t pm = g / 2, pl = g - 2;
        bool line = true;
        for (int k = 0; k < GRIDCLS_METRICS && line; k++) {
            int64_t a, b, ends;
            line = !__builtin_mul_overflow(mid[k] - ref[k], pl - 1, &a) &&
                   !__builtin_mul_overflow(last[k] - ref[k], pm - 1, &b) && a == b &&
                   !__builtin_add_overflow(ref[k], last[k], &ends) &&
                   !__builtin_mul_overflow(n, ends, &sum[k]);
            sum[k] /= 2;
        }
        if (line) {
            snprintf(res->note, sizeof res->note,
                     "interior blocks differ along %c, on a line through blockIdx.%c = 1, %lld "
                     "and %lld: summed as that line",
                     dim_name[d], dim_name[d], (long long)pm, (long long)pl);
        } else {
            if (!sample_interior(grid, d, fn, ctx, sum, why, why_size))
                return false;
            evaluated += GRIDCLS_SAMPLES;
            snprintf(res->note, sizeof res->note,
                     "interior blocks differ along %c, not on a line: the total scales the mean "
                     "of %d blocks spread over the %lld (an estimate)",
                     dim_name[d], GRIDCLS_SAMPLES, (long long)n);
        }
    }
    for (int k = 0; k < GRIDCLS_METRICS; k++)
        res->sum[k] += sum[k] - n * ref[k];
    res->classes += evaluated;
    return true;
}

bool gridcls_sum(const int64_t grid[3], const bool used[3], int judged, gridcls_fn fn, void *ctx,
                 gridcls_result *res, char *why, size_t why_size)
{
    memset(res, 0, sizeof *res);
    res->uniform = true;
    dim_classes c[3];
    for (int d = 0; d < 3; d++)
        classes_of(grid[d], used[d], &c[d]);
    for (int z = 0; z < c[2].n; z++)
        for (int y = 0; y < c[1].n; y++)
            for (int x = 0; x < c[0].n; x++) {
                int64_t bid[3] = {c[0].rep[x], c[1].rep[y], c[2].rep[z]};
                int64_t m[GRIDCLS_METRICS] = {0};
                if (!fn(bid, m, why, why_size, ctx))
                    return false;
                int64_t weight = c[0].count[x] * c[1].count[y] * c[2].count[z];
                for (int k = 0; k < GRIDCLS_METRICS; k++)
                    res->sum[k] += m[k] * weight;
                res->classes++;
            }
    /* Probe the interior of each used dimension away from the
     * representative, the rest of the index held at the interior. */
    int64_t base[3], ref[GRIDCLS_METRICS] = {0};
    int n_used = 0;
    for (int d = 0; d < 3; d++) {
        base[d] = gridcls_interior(grid[d]);
        n_used += used[d] && grid[d] > 1;
    }
    bool have_ref = false;
    for (int d = 0; d < 3 && res->uniform; d++) {
        if (!used[d] || grid[d] < 4)
            continue;
        if (!have_ref) {
            if (!fn(base, ref, why, why_size, ctx))
                return false;
            have_ref = true;
        }
        const int64_t probes[2] = {grid[d] / 2, grid[d] - 2};
        int64_t pm[2][GRIDCLS_METRICS] = {{0}};
        for (int p = 0; p < 2; p++) {
            int64_t bid[3] = {base[0], base[1], base[2]};
            bid[d] = probes[p];
            if (!fn(bid, pm[p], why, why_size, ctx))
                return false;
            if (res->uniform && memcmp(pm[p], ref, (size_t)judged * sizeof ref[0]) != 0) {
                res->uniform = false;
                snprintf(res->note, sizeof res->note,
                         "interior blocks differ (blockIdx.%c = %lld is not like blockIdx.%c = "
                         "1): the total takes every interior block as like the first",
                         dim_name[d], (long long)probes[p], dim_name[d]);
            }
        }
        /* Along the only dimension the site reads, the interior can be
         * summed block by block or as a line. */
        if (!res->uniform && n_used == 1 &&
            !resum_interior(grid, d, ref, pm[0], pm[1], fn, ctx, res, why, why_size))
            return false;
    }
    return true;
}
