/* traffic: L1 and shared-memory requests of a launch (see traffic.h). */
#include "analysis/memory/traffic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/warp/bank.h"
#include "analysis/warp/coalesce.h"
#include "analysis/memory/linefill.h"
#include "analysis/symbolic/exprpoly.h"
#include "analysis/symbolic/gridcls.h"
#include "analysis/symbolic/lanes.h"
#include "analysis/warp/vecmerge.h"
#include "util/sbuf.h"

typedef struct grid_ctx {
    const mem_access *access;
    const int64_t *block;
    const expr_env *env;
    bool estimated;    /* some block rested on a guard or a sampled bound */
    bool capped;       /* some block's loop was cut short */
    bool extrapolated; /* some block's cut-short walk was scaled to its full count */
    int64_t busiest;   /* the busiest warp's requests in any block evaluated */
    /* The interior block, asked for first and again by gridcls_sum's
     * classes and its probes' reference: walked once. */
    bool have_interior;
    int64_t interior[3], interior_m[GRIDCLS_METRICS];
} grid_ctx;

/* One block's requests and units (wavefronts or sectors); unreached: 0.
 * floor_*: what the walk itself counted, a lower bound when it was cut
 * short and the figures above were scaled to the full count. */
typedef struct block_counts {
    bool analyzed, unreached, estimated, capped, extrapolated;
    int64_t requests, units, lines, run_sectors, wavefronts;
    int64_t lane_ops; /* global: active lanes over the requests */
    bool one_address; /* global: all of them at one address */
    int64_t busiest;  /* the requests of the block's busiest warp */
    int64_t floor_requests, floor_units;
    char reason[LANES_WHY_MAX];
} block_counts;

/* Each innermost-loop instance makes as many warp requests as its longest
 * lane runs: the lanes step together. */
static bool longest_lane(const lanes_visit *v, int64_t m[LANES_METRICS], char *why, size_t why_size,
                         void *ctx)
{
    (void)why, (void)why_size, (void)ctx;
    int64_t top = 0;
    for (int l = 0; l < LANES_WARP; l++)
        if ((v->active >> l & 1) && v->value[l] > top)
            top = v->value[l];
    m[0] = top;
    return true;
}

/* The warp requests a site's loops make in full, counted from each
 * innermost loop's trip counts rather than walked request by request (the
 * walk stops at LANES_MAX_VISITS_PER_WARP: a triangular nest of thousands
 * of iterations each). False when this count is cut short or sampled too,
 * or the guard reads the innermost counter (its lanes would then not be
 * the loop's). */
static bool full_requests(const mem_access *a, const int64_t block[3], const expr_env *env,
                          int64_t *out, int64_t *busiest)
{
    if (a->n_loops == 0 || a->why_not)
        return false;
    const loop_ctx *inner = &a->loops[a->n_loops - 1];
    if (!inner->var || (a->guard && expr_uses_name(a->guard, inner->var)))
        return false;
    lanes_job job = {.what = "loop",
                     .guard = a->guard,
                     .loops = a->loops,
                     .n_loops = a->n_loops,
                     .last_loop_trips = true,
                     .uncapped_trips = true,
                     /* longest_lane's count is the same for each repeat:
                      * visit_n multiplies it. */
                     .counts_mod_128 = true,
                     .block = {block[0], block[1], block[2]},
                     .env = env,
                     .fn = longest_lane};
    lanes_result lr;
    if (!lanes_run(&job, &lr) || lr.loop_capped || lr.bound_sampled || lr.guard_assumed)
        return false;
    *out = lr.sum[0];
    *busiest = lr.busiest_sum[0];
    return true;
}

/* A walk cut short: its requests, units and lines scaled to the full
 * request count, as the walked requests' mean (an estimate; what was walked
 * stays the lower bound). */
static void extrapolate(const mem_access *a, const int64_t block[3], const expr_env *env,
                        block_counts *c)
{
    int64_t full, busiest;
    if (!c->capped || c->requests <= 0 || !full_requests(a, block, env, &full, &busiest) ||
        full <= c->requests)
        return;
    double f = (double)full / (double)c->requests;
    c->units = (int64_t)llround((double)c->units * f);
    c->lines = (int64_t)llround((double)c->lines * f);
    c->run_sectors = (int64_t)llround((double)c->run_sectors * f);
    c->wavefronts = (int64_t)llround((double)c->wavefronts * f);
    c->lane_ops = (int64_t)llround((double)c->lane_ops * f);
    c->requests = full;
    c->busiest = busiest;
    c->capped = false;
    c->extrapolated = true;
}

static void count_block(const mem_access *a, const int64_t block[3], const expr_env *env,
                        block_counts *c)
{
    memset(c, 0, sizeof *c);
    if (a->space == SPACE_SHARED) {
        bank_result br;
        c->analyzed = bank_analyze(a, block, env, &br);
        c->unreached = br.unreached;
        c->estimated = br.guard_assumed || br.bound_sampled;
        c->capped = br.capped;
        c->requests = br.requests;
        c->units = br.total;
        snprintf(c->reason, sizeof c->reason, "%s", br.reason);
    } else {
        coalesce_result cr;
        c->analyzed = coalesce_analyze(a, block, env, &cr);
        c->unreached = cr.unreached;
        c->estimated = cr.guard_assumed || cr.bound_sampled;
        c->capped = cr.capped;
        c->requests = cr.requests;
        c->busiest = cr.busiest_requests;
        c->units = cr.total_sectors;
        c->lines = cr.total_lines;
        c->run_sectors = cr.total_run_sectors;
        c->wavefronts = cr.total_wavefronts;
        c->lane_ops = cr.lane_ops;
        c->one_address = cr.one_address;
        snprintf(c->reason, sizeof c->reason, "%s", cr.reason);
    }
    c->floor_requests = c->requests;
    c->floor_units = c->units;
    if (c->analyzed)
        extrapolate(a, block, env, c);
}

static bool grid_block(const int64_t bid[3], int64_t m[GRIDCLS_METRICS], char *why, size_t why_size,
                       void *p)
{
    grid_ctx *g = p;
    if (g->have_interior && !memcmp(bid, g->interior, sizeof g->interior)) {
        memcpy(m, g->interior_m, sizeof g->interior_m);
        return true;
    }
    expr_env env = *g->env;
    const expr_builtin b[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    for (int d = 0; d < 3; d++)
        expr_env_set_builtin(&env, b[d], bid[d]);
    block_counts c;
    count_block(g->access, g->block, &env, &c);
    if (!c.analyzed && !c.unreached) {
        snprintf(why, why_size, "%s", c.reason);
        return false;
    }
    g->estimated = g->estimated || c.estimated;
    g->capped = g->capped || c.capped;
    g->extrapolated = g->extrapolated || c.extrapolated;
    if (c.analyzed && c.busiest > g->busiest)
        g->busiest = c.busiest;
    m[0] = c.analyzed ? c.requests : 0;
    m[1] = c.analyzed ? c.units : 0;
    m[2] = c.analyzed ? c.lines : 0;
    m[3] = c.analyzed ? c.floor_requests : 0;
    m[4] = c.analyzed ? c.floor_units : 0;
    m[5] = c.analyzed ? c.run_sectors : 0;
    m[6] = c.analyzed && c.one_address ? c.lane_ops : 0;
    m[7] = c.analyzed && !c.one_address; /* blocks whose lanes are not all at one address */
    m[8] = c.analyzed ? c.wavefronts : 0;
    if (!g->have_interior) {
        g->have_interior = true;
        memcpy(g->interior, bid, sizeof g->interior);
        memcpy(g->interior_m, m, sizeof g->interior_m);
    }
    return true;
}

static bool address_moves_with_block(const mem_access *a)
{
    static const expr_builtin b[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    for (int d = 0; d < 3; d++)
        if (expr_uses_builtin(a->byte_offset, b[d]))
            return true;
    for (int i = 0; i < a->n_loops; i++)
        if (a->loops[i].var && expr_uses_name(a->byte_offset, a->loops[i].var))
            return true; /* a counter may start from one */
    return false;
}

static bool site_totals(const mem_access *a, const int64_t block[3], const expr_env *env,
                        const int64_t grid[3], traffic_site_total *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->uniform = true;
    bool used[3];
    gridcls_uses_block_index(a, used);
    int64_t interior[3];
    for (int d = 0; d < 3; d++)
        interior[d] = gridcls_interior(grid[d]);
    grid_ctx g = {.access = a, .block = block, .env = env};
    int64_t m[GRIDCLS_METRICS] = {0};
    if (!grid_block(interior, m, why, why_size, &g))
        return false;
    int64_t blocks = grid[0] * grid[1] * grid[2];
    if ((!used[0] && !used[1] && !used[2]) || g.estimated) {
        /* Every block is the interior block (or a guard is not known, so no
         * block can be told apart from it). */
        if (__builtin_mul_overflow(m[0], blocks, &out->requests) ||
            __builtin_mul_overflow(m[1], blocks, &out->units) ||
            __builtin_mul_overflow(m[2], blocks, &out->lines) ||
            __builtin_mul_overflow(m[3], blocks, &out->floor_requests) ||
            __builtin_mul_overflow(m[4], blocks, &out->floor_units) ||
            __builtin_mul_overflow(m[5], blocks, &out->run_sectors) ||
            __builtin_mul_overflow(m[8], blocks, &out->wavefronts)) {
            snprintf(why, why_size, "the grid's totals overflow");
            return false;
        }
        if (!m[7] && __builtin_mul_overflow(m[6], blocks, &out->one_address_lanes)) {
            snprintf(why, why_size, "the grid's totals overflow");
            return false;
        }
    } else {
        gridcls_result gr;
        /* Requests and sectors judge the interior; lines only feed the time
         * model's estimate. */
        if (!gridcls_sum(grid, used, 2, grid_block, &g, &gr, why, why_size))
            return false;
        out->requests = gr.sum[0];
        out->units = gr.sum[1];
        out->lines = gr.sum[2];
        out->floor_requests = gr.sum[3];
        out->floor_units = gr.sum[4];
        out->run_sectors = gr.sum[5];
        out->wavefronts = gr.sum[8];
        out->one_address_lanes = gr.sum[7] ? 0 : gr.sum[6];
        out->blocks_evaluated = gr.classes;
        out->uniform = gr.uniform;
        if (!gr.uniform)
            snprintf(out->note, sizeof out->note, "%s", gr.note);
    }
    /* One address in every block is one for the grid where the block
     * index does not move it. */
    if (address_moves_with_block(a))
        out->one_address_lanes = 0;
    out->exact = out->uniform && !g.estimated && !g.capped && !g.extrapolated;
    out->lower = out->uniform && !g.estimated && g.capped && !g.extrapolated;
    /* What was walked bounds the requests from below even where the totals
     * were scaled beyond it. */
    out->floor_is_lower = out->uniform && !g.estimated;
    out->extrapolated = g.extrapolated;
    out->busiest_warp_requests = g.busiest;
    return true;
}

/* Shared loads ptxas merges into one wide load are counted as it issues
 * them (analysis/warp/vecmerge). */
bool traffic_site(const mem_access *a, const int64_t block[3], const expr_env *env,
                  const int64_t grid[3], traffic_site_total *out, char *why, size_t why_size)
{
    int level, group = vecmerge_group(a, &level);
    if (group < 2)
        return site_totals(a, block, env, grid, out, why, why_size);
    mem_access wide;
    vecmerge_site(a, group, level, &wide);
    bool ok = site_totals(&wide, block, env, grid, out, why, why_size);
    vecmerge_free(&wide, level);
    out->merged = group;
    return ok;
}

typedef struct memo_entry {
    const mem_access *access;
    int64_t block[3], grid[3];
    expr_env env;
    bool ok;
    traffic_site_total total;
    char why[LANES_WHY_MAX];
} memo_entry;

struct traffic_memo {
    memo_entry *entries;
    size_t n, cap;
};

traffic_memo *traffic_memo_new(void)
{
    return xcalloc(1, sizeof(traffic_memo));
}

void traffic_memo_free(traffic_memo *m)
{
    if (m)
        free(m->entries);
    free(m);
}

size_t traffic_memo_entries(const traffic_memo *m)
{
    return m ? m->n : 0;
}

/* The same bindings, in any order. */
static bool same_env(const expr_env *x, const expr_env *y)
{
    for (int b = 0; b < SYM_BUILTIN_COUNT; b++)
        if (x->has_builtin[b] != y->has_builtin[b] ||
            (x->has_builtin[b] && x->builtin[b] != y->builtin[b]))
            return false;
    if (x->n_named != y->n_named)
        return false;
    for (int i = 0; i < x->n_named; i++) {
        int j = 0;
        while (j < y->n_named && strcmp(x->names[i], y->names[j]) != 0)
            j++;
        if (j == y->n_named || x->values[i] != y->values[j])
            return false;
    }
    return true;
}

bool traffic_site_memo(traffic_memo *memo, const mem_access *a, const int64_t block[3],
                       const expr_env *env, const int64_t grid[3], traffic_site_total *out,
                       char *why, size_t why_size)
{
    if (!memo)
        return traffic_site(a, block, env, grid, out, why, why_size);
    /* traffic_site binds blockDim from block and blockIdx block by block
     * itself: callers that bind them differently ask the same question. */
    expr_env key = *env;
    for (int d = 0; d < 3; d++) {
        expr_env_set_builtin(&key, (expr_builtin)(SYM_BDIM_X + d), block[d]);
        key.has_builtin[SYM_BID_X + d] = false;
        key.builtin[SYM_BID_X + d] = 0;
    }
    for (size_t i = 0; i < memo->n; i++) {
        const memo_entry *e = &memo->entries[i];
        if (e->access == a && !memcmp(e->block, block, sizeof e->block) &&
            !memcmp(e->grid, grid, sizeof e->grid) && same_env(&e->env, &key)) {
            *out = e->total;
            snprintf(why, why_size, "%s", e->why);
            return e->ok;
        }
    }
    if (memo->n == memo->cap) {
        memo->cap = memo->cap ? 2 * memo->cap : 16;
        memo->entries = xrealloc(memo->entries, memo->cap * sizeof *memo->entries);
    }
    memo_entry *e = &memo->entries[memo->n++];
    memset(e, 0, sizeof *e);
    e->access = a;
    memcpy(e->block, block, sizeof e->block);
    memcpy(e->grid, grid, sizeof e->grid);
    e->env = key;
    e->ok = traffic_site(a, block, &key, grid, &e->total, e->why, sizeof e->why);
    *out = e->total;
    snprintf(why, why_size, "%s", e->why);
    return e->ok;
}

/* Whether ptxas can see that a site's address is the same in every lane:
 * no thread or block index in it, nor a loop counter that starts from
 * one (a grid-stride loop's). Its uniform datapath then holds the address
 * (what aggatom's reductions need). */
static bool uniform_to_ptxas(const mem_access *a)
{
    if (!a->byte_offset || expr_uses_thread_index(a->byte_offset))
        return false;
    for (int i = 0; i < a->n_loops; i++) {
        const loop_ctx *l = &a->loops[i];
        if (l->var && expr_uses_name(a->byte_offset, l->var) &&
            (!l->init || expr_uses_thread_index(l->init)))
            return false;
    }
    return true;
}

/* "text (line N): why" */
static char *site_why(const mem_access *a, const char *why)
{
    sbuf s;
    sbuf_init(&s);
    sbuf_addf(&s, "%s (line %d): %s",
              a->text   ? a->text
              : a->base ? a->base
                        : "an access",
              a->loc.line, why);
    return sbuf_take(&s);
}

/* A gather (access.h, index_from_data) walked as access_gather_estimate
 * places it: its requests are the site's wherever the walk was exact (its
 * guards and loops do not read the data), its sectors an estimate. */
static bool gather_site(const mem_access *a, const int64_t block[3], const expr_env *env,
                        const int64_t grid[3], traffic_site_total *t)
{
    mem_access g;
    if (!access_gather_estimate(a, &g))
        return false;
    char why[LANES_WHY_MAX] = "";
    bool ok = traffic_site(&g, block, env, grid, t, why, sizeof why);
    access_bound_free(&g);
    return ok;
}

/* Every request of a gather moves one sector at least, whatever the data:
 * the certain figures; the rest are an estimate. */
static void add_gather(const mem_access *a, int s, const traffic_site_total *t, traffic *out)
{
    out->requests[s] += t->requests;
    out->units[s] += t->units;
    out->lines[s] += t->lines;
    out->run_sectors[s] += t->run_sectors;
    out->wavefronts[s] += t->wavefronts;
    out->busiest_requests[s] += t->busiest_warp_requests;
    if (t->floor_is_lower) {
        out->certain_requests[s] += t->floor_requests;
        out->certain_units[s] += t->floor_requests;
    }
    out->n_estimated++;
    if (!out->why)
        out->why = site_why(a, "an index read from memory: its sectors estimated as if it "
                               "stepped one element from lane to lane");
}

/* A site whose requests fill its lines in part, beside sites of the same
 * pointer a constant apart in the same loops: its run sectors at the
 * share they fill together (analysis/memory/linefill). */
static void fill_with_siblings(const mem_access *const *sites, size_t n, size_t i,
                               const int64_t grid[3], const int64_t block[3], const expr_env *env,
                               traffic_site_total *t)
{
    int64_t apart[LINEFILL_MAX_SIBLINGS];
    int k;
    double share;
    if (t->run_sectors <= t->units || t->units <= 0 ||
        (k = linefill_siblings(sites, n, i, apart)) == 0 ||
        !linefill_share(sites[i], apart, k, grid, block, env, &share) ||
        share <= (double)t->units / (double)t->run_sectors)
        return;
    t->run_sectors = (int64_t)llround((double)t->units / fmin(1.0, share));
}

/* The bytes from one lane's address to the next one's, where that is a
 * constant other than 0 (an offset affine in threadIdx.x). */
static bool lane_stride(const mem_access *a, int64_t *stride)
{
    expr *lane = a->byte_offset ? expr_shift_builtin(a->byte_offset, SYM_TID_X, 1) : NULL;
    bool known = lane && exprpoly_const_difference(lane, a->byte_offset, stride) && *stride != 0;
    expr_free(lane);
    return known;
}

/* Whether two guards are one test of items a constant apart: the same
 * tree where each comparison's sides may differ by a constant (CUB's
 * `ITEM + tid * ITEMS < valid_items`, item after item). An if's two arms
 * (`c` and `!c`) are not alike: only one of them runs. */
static bool guards_alike(const expr *a, const expr *b)
{
    int64_t d;
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->op != b->op)
        return false;
    if (a->kind == EX_BINARY && a->op >= OP_LT && a->op <= OP_NE)
        return exprpoly_const_difference(a->a, b->a, &d) &&
               exprpoly_const_difference(a->b, b->b, &d);
    if (a->kind == EX_BINARY && (a->op == OP_LAND || a->op == OP_LOR))
        return guards_alike(a->a, b->a) && guards_alike(a->b, b->b);
    return expr_equal(a, b);
}

/* A store of the same pointer, in the same loops, that b writes a
 * constant less than a lane's stride from a, whenever a runs: b always
 * runs, or under a guard alike (CUB's valid-item checks differ from item
 * to item by a constant); whatever its width (a float4's x and y stored
 * as one 8-byte store, z as a 4-byte one). A switch's guards do not say
 * when its cases run. */
static bool beside_in_lane(const mem_access *a, const mem_access *b, int64_t stride)
{
    int64_t d;
    bool same_via = (!a->via && !b->via) || (a->via && b->via && strcmp(a->via, b->via) == 0);
    if (!b->is_store || b->atomic || b->space != SPACE_GLOBAL || !b->byte_offset ||
        b->n_loops != a->n_loops || !a->base || !b->base || strcmp(a->base, b->base) != 0 ||
        !same_via || a->in_switch || b->in_switch ||
        (b->guard && !guards_alike(a->guard, b->guard)))
        return false;
    for (int l = 0; l < a->n_loops; l++)
        if (!loop_same(&a->loops[l], &b->loops[l]))
            return false;
    return exprpoly_const_difference(b->byte_offset, a->byte_offset, &d) && d != 0 &&
           llabs(d) < llabs(stride);
}

/* Whether store site i writes back to back into sectors another store
 * of the same warp also writes at once: a sibling of the same pointer a
 * constant apart closer than from lane to lane (the items of CUB's
 * StoreDirectBlocked, unrolled, each under its own valid-item guard), or
 * the next iteration of a loop it is the only global store of, where the
 * address moves less than from lane to lane (`thread_itr[ITEM]` for
 * ITEM < 4, a byte each, 4 bytes from lane to lane). L1 merges such
 * stores before L2 as it does a struct's pieces: HeCBench's blockAccess
 * (fitting half) writes 8.4 M such sectors a launch in 88 us, under what
 * L2 takes of partial sectors. */
static bool stored_back_to_back(const mem_access *const *sites, size_t n, size_t i)
{
    const mem_access *a = sites[i];
    int64_t stride, step;
    if (!lane_stride(a, &stride))
        return false;
    for (size_t j = 0; j < n; j++)
        if (j != i && beside_in_lane(a, sites[j], stride))
            return true;
    const loop_ctx *l = a->n_loops > 0 ? &a->loops[a->n_loops - 1] : NULL;
    if (!l || !l->var || !l->next)
        return false;
    for (size_t j = 0; j < n; j++) {
        const mem_access *b = sites[j];
        if (j == i || !b->is_store || b->space != SPACE_GLOBAL)
            continue;
        for (int m = 0; m < b->n_loops; m++)
            if (loop_same(&b->loops[m], l))
                return false;
    }
    expr *next = expr_substitute_name(a->byte_offset, l->var, l->next);
    bool merged = next && exprpoly_const_difference(next, a->byte_offset, &step) && step != 0 &&
                  llabs(step) < llabs(stride);
    expr_free(next);
    return merged;
}

/* The most whole sectors a store site's requests can fill: `width` a
 * request (32 lanes of `width` bytes), and none where a warp's lanes
 * differ only in threadIdx.x (the block's x a multiple of 32) and step
 * more than `width` bytes from lane to lane, for then every sector they
 * touch has a gap (lulesh's hgc: a double 64 bytes apart). */
static int64_t whole_store_sectors_at_most(const mem_access *a, const int64_t block[3],
                                           int64_t requests)
{
    int64_t stride;
    if (block[0] % 32 == 0 && lane_stride(a, &stride) && llabs(stride) > a->width)
        return 0;
    return requests * (int64_t)a->width;
}

/* A store site's sectors written in part. On an H200 L2 takes a partial
 * sector beside others of its line at 85% of the whole-sector rate, and
 * one alone in its line at under half of it
 * (scripts/timeprobe/partialprobe.cu); a request of L lines and U
 * sectors has at least 2L - U sectors alone in their line. */
static void add_partial_stores(const mem_access *const *sites, size_t n, size_t i,
                               const int64_t block[3], const traffic_site_total *t, traffic *out)
{
    const mem_access *a = sites[i];
    if (a->pieces >= 2 && a->pieces <= TRAFFIC_MAX_PIECES)
        out->piece_store_units[a->pieces] += t->units;
    if (a->width <= 0)
        return;
    int64_t whole = whole_store_sectors_at_most(a, block, t->requests);
    if (t->units <= whole)
        return;
    int64_t partial = t->units - whole;
    int64_t alone = 2 * t->lines - t->units;
    alone = alone <= 0 ? 0 : alone < partial ? alone : partial;
    out->partial_store_units += alone;
    /* A struct's pieces, and stores back to back into the same sectors:
     * L1 merges them first (l1_store_merge). */
    if (a->pieces < 2 && !stored_back_to_back(sites, n, i))
        out->shared_partial_store_units += partial - alone;
}

void traffic_compute(const mem_access *const *sites, size_t n, const int64_t grid[3],
                     const int64_t block[3], const expr_env *env, traffic_memo *memo, traffic *out)
{
    memset(out, 0, sizeof *out);
    expr_env local;
    expr_env_bind_launch(&local, env, grid, block);
    env = &local;
    for (size_t i = 0; i < n; i++) {
        const mem_access *a = sites[i];
        if (a->atomic && !a->is_store)
            continue; /* its store half is the one request */
        int s = a->space == SPACE_SHARED ? TRAFFIC_SHARED
                : a->atomic              ? TRAFFIC_ATOMIC
                : a->is_store            ? TRAFFIC_STORE
                                         : TRAFFIC_LOAD;
        out->n_sites++;
        char why[LANES_WHY_MAX] = "";
        traffic_site_total t;
        if (a->index_from_data && gather_site(a, block, env, grid, &t)) {
            add_gather(a, s, &t, out);
            continue;
        }
        if (a->why_not || !traffic_site_memo(memo, a, block, env, grid, &t, why, sizeof why)) {
            out->n_left_out++;
            if (!out->why)
                out->why = site_why(a, a->why_not ? a->why_not : why);
            continue;
        }
        if (s == TRAFFIC_LOAD || s == TRAFFIC_STORE)
            fill_with_siblings(sites, n, i, grid, block, env, &t);
        out->requests[s] += t.requests;
        out->units[s] += t.units;
        out->lines[s] += t.lines;
        out->run_sectors[s] += t.run_sectors;
        out->wavefronts[s] += t.wavefronts;
        out->busiest_requests[s] += t.busiest_warp_requests;
        /* Where a guard on data was taken as true (a flag set once), the
         * lanes are a guess that would make the wait the whole time:
         * counted only where known. */
        if (s == TRAFFIC_ATOMIC && t.one_address_lanes > 0 && (t.exact || t.lower)) {
            int64_t ops = a->atomic_sums && uniform_to_ptxas(a) ? t.requests : t.one_address_lanes;
            out->one_address_atomics += ops;
            out->one_address_float_atomics += a->atomic_float ? ops : 0;
        }
        if (s == TRAFFIC_STORE)
            add_partial_stores(sites, n, i, block, &t, out);
        if (t.floor_is_lower) {
            out->certain_requests[s] += t.floor_requests;
            out->certain_units[s] += t.floor_units;
        }
        if (!t.exact) {
            if (t.lower)
                out->n_lower++;
            else
                out->n_estimated++;
            if (!out->why)
                out->why = site_why(a, t.lower ? "a loop was cut short (a lower bound)"
                                       : t.extrapolated && t.uniform
                                           ? "a loop nest too long to walk: its requests counted "
                                             "from the trip counts, its sectors scaled from the "
                                             "requests walked (an estimate)"
                                       : t.note[0] ? t.note
                                                   : "a guard or a loop bound was not evaluated "
                                                     "(an estimate)");
        }
    }
}

void traffic_free(traffic *t)
{
    free(t->why);
    t->why = NULL;
}
