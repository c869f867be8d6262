/* diverge: the warp-divergence model. A warp issues one instruction for all
 * its lanes; when a branch condition differs between its active lanes it
 * runs each side in turn with the other lanes masked off. So what matters is
 * whether the condition can differ *within* a warp: conditions on warp-
 * uniform values (blockIdx, parameters, threadIdx.x / 32) never do, and a
 * bounds check `idx < n` splits at most the one warp that straddles n. */
#include "analysis/warp/diverge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/gridcls.h"

const char *diverge_verdict_name(diverge_verdict v)
{
    switch (v) {
    case DIVERGE_DIVERGENT:
        return "divergent";
    case DIVERGE_CONVERGENT:
        return "convergent";
    case DIVERGE_WARP_UNIFORM:
        return "warp-uniform";
    case DIVERGE_BOUNDS_CHECK:
        return "bounds-check";
    case DIVERGE_UNAVOIDABLE:
        return "unavoidable";
    case DIVERGE_NOT_ANALYZED:
        break;
    }
    return "not-analyzed";
}

/* ---- bounds checks ---- */

static void bind_name(expr_env *env, const char *name, int64_t v)
{
    expr_builtin b;
    if (expr_builtin_from_name(name, &b))
        expr_env_set_builtin(env, b, v);
    else
        expr_env_set(env, name, v);
}

static void block_env(const int64_t block[3], const expr_env *env, expr_env *out)
{
    if (env)
        *out = *env;
    else
        expr_env_init(out);
    expr_env_set_builtin(out, SYM_BDIM_X, block[0]);
    expr_env_set_builtin(out, SYM_BDIM_Y, block[1]);
    expr_env_set_builtin(out, SYM_BDIM_Z, block[2]);
    expr_env_set_builtin(out, SYM_WARP_SIZE, LANES_WARP);
}

/* An unbound symbol of e with the block's values and the loop counters
 * bound, or NULL. */
static const char *unknown_in(const expr *e, const branch_site *b, const int64_t block[3],
                              const expr_env *env)
{
    expr_env x;
    block_env(block, env, &x);
    expr_env_set_builtin(&x, SYM_TID_X, 0);
    expr_env_set_builtin(&x, SYM_TID_Y, 0);
    expr_env_set_builtin(&x, SYM_TID_Z, 0);
    for (int i = 0; i < b->n_loops; i++)
        if (b->loops[i].var)
            expr_env_set(&x, b->loops[i].var, 0);
    return expr_first_unbound(e, &x);
}

/* True when e, with loop counters replaced by their starts and unknown
 * (warp-uniform) symbols by 0, is base + a*tx + b*ty + c*tz over the whole
 * block with a, b, c of one sign: an index that grows (or shrinks) with the
 * thread, so a bound on it is crossed in one place only. */
static bool thread_monotone(const expr *e, const branch_site *b, const int64_t block[3],
                            const expr_env *env)
{
    expr *x = expr_clone(e);
    for (int i = b->n_loops - 1; i >= 0; i--) {
        const loop_ctx *L = &b->loops[i];
        if (!L->var || !L->init)
            continue;
        expr *y = expr_substitute_name(x, L->var, L->init);
        expr_free(x);
        x = y;
    }
    expr_env ev;
    block_env(block, env, &ev);
    expr_env_set_builtin(&ev, SYM_TID_X, 0);
    expr_env_set_builtin(&ev, SYM_TID_Y, 0);
    expr_env_set_builtin(&ev, SYM_TID_Z, 0);
    const char *u;
    for (int guard = 0; (u = expr_first_unbound(x, &ev)) != NULL; guard++) {
        if (guard >= EXPR_MAX_BINDINGS) {
            expr_free(x);
            return false;
        }
        bind_name(&ev, u, 0);
    }
    int64_t threads = block[0] * block[1] * block[2];
    int64_t base = 0, coef[3] = {0, 0, 0};
    bool ok = true;
    for (int64_t t = 0; ok && t < threads; t++) {
        int64_t tid[3], v;
        lanes_thread_index(block, t, tid);
        expr_env_set_builtin(&ev, SYM_TID_X, tid[0]);
        expr_env_set_builtin(&ev, SYM_TID_Y, tid[1]);
        expr_env_set_builtin(&ev, SYM_TID_Z, tid[2]);
        if (expr_eval(x, &ev, &v, NULL) != EXPR_OK) {
            ok = false;
            break;
        }
        int nz = (tid[0] != 0) + (tid[1] != 0) + (tid[2] != 0);
        if (t == 0) {
            base = v;
        } else if (nz == 1 && (tid[0] == 1 || tid[1] == 1 || tid[2] == 1)) {
            coef[tid[0] ? 0 : tid[1] ? 1 : 2] = v - base;
        } else {
            /* The unit steps come first in linear order for every axis. */
            int64_t want = base + coef[0] * tid[0] + coef[1] * tid[1] + coef[2] * tid[2];
            ok = v == want;
        }
    }
    expr_free(x);
    bool up = coef[0] >= 0 && coef[1] >= 0 && coef[2] >= 0;
    bool down = coef[0] <= 0 && coef[1] <= 0 && coef[2] <= 0;
    bool moves = coef[0] || coef[1] || coef[2];
    return ok && moves && (up || down);
}

static bool is_compare(const expr *e)
{
    return e->kind == EX_BINARY &&
           (e->op == OP_LT || e->op == OP_LE || e->op == OP_GT || e->op == OP_GE);
}

/* The condition is a bounds check: a conjunction whose parts each either
 * read no per-lane value or compare a thread-monotone index with a value
 * that is unknown (and warp-uniform), at least one part of the latter kind.
 * *bound names the unknown. */
static bool bounds_check(const expr *c, const branch_site *b, const int64_t block[3],
                         const expr_env *env, const char **bound)
{
    if (c->kind == EX_BINARY && c->op == OP_LAND) {
        const char *b1 = NULL, *b2 = NULL;
        bool l = bounds_check(c->a, b, block, env, &b1);
        bool r = bounds_check(c->b, b, block, env, &b2);
        bool lu = !l && !lanes_expr_per_lane(c->a, b->loops, b->n_loops);
        bool ru = !r && !lanes_expr_per_lane(c->b, b->loops, b->n_loops);
        *bound = b1 ? b1 : b2;
        return (l && (r || ru)) || (r && lu);
    }
    if (!is_compare(c))
        return false;
    const expr *lane = NULL, *other = NULL;
    bool pa = lanes_expr_per_lane(c->a, b->loops, b->n_loops);
    bool pb = lanes_expr_per_lane(c->b, b->loops, b->n_loops);
    if (pa && !pb)
        lane = c->a, other = c->b;
    else if (pb && !pa)
        lane = c->b, other = c->a;
    else
        return false;
    const char *u = unknown_in(other, b, block, env);
    if (!u && env) {
        /* A size the launch or --define gives is still a size: the index
         * crosses it in one place whatever its value. */
        expr_env sizes_unbound = *env;
        sizes_unbound.n_named = 0;
        u = unknown_in(other, b, block, &sizes_unbound);
    }
    if (!u)
        return false;
    if (!thread_monotone(lane, b, block, env))
        return false;
    *bound = u;
    return true;
}

/* ---- per-lane evaluation ---- */

typedef struct diverge_ctx {
    branch_kind kind;
    diverge_result *out;
    bool seen_trips;
    /* Lanes on each side of an if per iteration index, summed over warps. */
    int64_t *taken, *other;
    long n_iter;
} diverge_ctx;

static int popcount32(uint32_t m)
{
    return __builtin_popcount(m);
}

/* The distinct values among a warp's active lanes (a switch's passes). */
static int distinct_values(const lanes_visit *v)
{
    int64_t seen[LANES_WARP];
    int distinct = 0;
    for (int l = 0; l < LANES_WARP; l++) {
        if (!(v->active >> l & 1))
            continue;
        int k = 0;
        while (k < distinct && seen[k] != v->value[l])
            k++;
        if (k == distinct)
            seen[distinct++] = v->value[l];
    }
    return distinct;
}

/* Sum, fewest and most trips over a warp's active lanes (a loop that runs
 * a negative count runs none); lo = INT64_MAX when no lane is active. */
static void trip_span(const lanes_visit *v, int64_t *sum, int64_t *lo, int64_t *hi)
{
    *sum = 0;
    *lo = INT64_MAX;
    *hi = 0;
    for (int l = 0; l < LANES_WARP; l++)
        if (v->active >> l & 1) {
            int64_t t = v->value[l] > 0 ? v->value[l] : 0;
            *sum += t;
            *lo = t < *lo ? t : *lo;
            *hi = t > *hi ? t : *hi;
        }
}

static bool on_warp(const lanes_visit *v, int64_t m[LANES_METRICS], char *why, size_t why_size,
                    void *p)
{
    (void)why;
    (void)why_size;
    diverge_ctx *ctx = p;
    diverge_result *r = ctx->out;
    int active = popcount32(v->active);
    bool divergent = false;
    if (ctx->kind == BRANCH_LOOP) {
        int64_t sum, lo, hi;
        trip_span(v, &sum, &lo, &hi);
        divergent = lo != hi;
        m[1] = sum;
        m[2] = hi;
        if (!v->probe) {
            if (!ctx->seen_trips || lo < r->min_trips)
                r->min_trips = lo;
            if (!ctx->seen_trips || hi > r->max_trips)
                r->max_trips = hi;
            ctx->seen_trips = true;
        }
    } else if (ctx->kind == BRANCH_SWITCH) {
        int distinct = distinct_values(v);
        divergent = distinct > 1;
        m[1] = active;
        m[2] = distinct;
    } else {
        int taken = 0;
        for (int l = 0; l < LANES_WARP; l++)
            if ((v->active >> l & 1) && v->value[l] != 0)
                taken++;
        divergent = taken > 0 && taken < active;
        m[1] = taken;
        m[2] = taken > 0;
        if (!v->probe && v->iteration < ctx->n_iter) {
            ctx->taken[v->iteration] += taken;
            ctx->other[v->iteration] += active - taken;
            r->taken_runs += taken > 0;
            r->other_runs += active - taken > 0;
        }
    }
    m[0] = divergent;
    if (!v->probe && divergent && r->divergent_visits == 0) {
        r->worst_warp = v->warp;
        r->worst_iteration = v->iteration;
        r->worst_active = v->active;
        memcpy(r->worst_value, v->value, sizeof r->worst_value);
    }
    if (!v->probe && divergent)
        r->divergent_visits++;
    return true;
}

/* ---- textbook counts ---- */

typedef struct count_ctx {
    branch_kind kind;
    diverge_counts *out;
    int64_t lanes[LANES_MAX_THREADS / LANES_WARP], runs[LANES_MAX_THREADS / LANES_WARP];
    int64_t other_runs;
    bool divergent[LANES_MAX_THREADS / LANES_WARP];
} count_ctx;

static bool on_count(const lanes_visit *v, int64_t m[LANES_METRICS], char *why, size_t why_size,
                     void *p)
{
    (void)m;
    (void)why;
    (void)why_size;
    count_ctx *c = p;
    if (v->probe || v->warp < 0 || v->warp >= LANES_MAX_THREADS / LANES_WARP)
        return true;
    int w = v->warp, active = popcount32(v->active);
    if (c->kind == BRANCH_LOOP) {
        int64_t sum, lo, hi;
        trip_span(v, &sum, &lo, &hi);
        if (active == 0)
            return true;
        c->lanes[w] += sum;
        c->runs[w] += hi;
        c->divergent[w] |= lo != hi;
        c->out->iterations_uniform += lo;
        c->out->iterations_divergent += hi - lo;
        c->out->warp_uniform[w] += lo;
        c->out->warp_divergent[w] += hi - lo;
    } else if (c->kind == BRANCH_SWITCH) {
        int distinct = distinct_values(v);
        c->lanes[w] += active;
        c->runs[w] += distinct;
        c->divergent[w] |= distinct > 1;
    } else {
        int taken = 0;
        for (int l = 0; l < LANES_WARP; l++)
            taken += (v->active >> l & 1) && v->value[l] != 0;
        c->lanes[w] += taken;
        c->runs[w] += taken > 0;
        c->other_runs += taken < active;
        c->divergent[w] |= taken > 0 && taken < active;
    }
    return true;
}

/* The expression a branch is evaluated on: its condition, or for a loop
 * whose own condition the front end did not give, the loop context's. NULL
 * with why when there is none to evaluate. */
static const expr *branch_condition(const branch_site *b, const char **why)
{
    if (b->why_not) {
        *why = b->why_not;
        return NULL;
    }
    if (b->kind == BRANCH_LOOP && b->n_loops < 1) {
        *why = "the loop's start and step are not known";
        return NULL;
    }
    const expr *cond = b->cond;
    if (b->kind == BRANCH_LOOP && !cond)
        cond = b->loops[b->n_loops - 1].cond;
    if (!cond)
        *why = "the condition is not known";
    return cond;
}

/* Walks the branch over the block's lanes: per warp request the
 * condition's value, or for a loop each lane's trip count (its own
 * condition standing in for the loop context's). */
/* uncapped: a loop's trip count in closed form is taken in full (a count
 * of runs needs every trip; a walk that visits each iteration stops at
 * LANES_MAX_ITER). */
static bool branch_lanes_run(const branch_site *b, const expr *cond, const int64_t block[3],
                             const expr_env *env, bool uncapped, lanes_fn fn, void *ctx,
                             lanes_result *lr)
{
    lanes_job job = {
        .what = b->kind == BRANCH_LOOP ? "trip count" : "condition",
        .value = b->kind == BRANCH_LOOP ? NULL : cond,
        .guard = b->guard,
        .loops = b->loops,
        .n_loops = b->n_loops,
        .last_loop_trips = b->kind == BRANCH_LOOP,
        .uncapped_trips = uncapped && b->kind == BRANCH_LOOP,
        .block = {block[0], block[1], block[2]},
        .env = env,
        .fn = fn,
        .ctx = ctx,
    };
    loop_ctx loops[ACCESS_MAX_LOOPS];
    if (b->kind == BRANCH_LOOP && b->cond) {
        memcpy(loops, b->loops, sizeof loops);
        loops[b->n_loops - 1].cond = b->cond;
        job.loops = loops;
    }
    return lanes_run(&job, lr);
}

bool diverge_count(const branch_site *b, const int64_t block[3], const expr_env *env,
                   diverge_counts *out)
{
    memset(out, 0, sizeof *out);
    const char *no_cond = NULL;
    const expr *cond = branch_condition(b, &no_cond);
    if (!cond) {
        snprintf(out->why, sizeof out->why, "%s", no_cond);
        return false;
    }
    count_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(out->why, sizeof out->why, "out of memory");
        return false;
    }
    c->kind = b->kind;
    c->out = out;
    lanes_result lr;
    bool ok = branch_lanes_run(b, cond, block, env, true, on_count, c, &lr);
    if (ok && lr.n_assumed > 0) {
        /* Counting needs every value; a symbol taken as 0 because it shifts
         * every lane alike may still move lanes across a bound. */
        snprintf(out->why, sizeof out->why, "'%s' is not known", lr.assumed[0]);
        ok = false;
    } else if (!ok) {
        snprintf(out->why, sizeof out->why, "%s", lr.why);
    }
    out->warps = lr.warps;
    out->visits = lr.visits + lr.steps / LANES_WARP;
    for (int w = 0; ok && w < lr.warps && w < LANES_MAX_THREADS / LANES_WARP; w++) {
        out->warps_entering += c->runs[w] > 0;
        out->warps_divergent += c->divergent[w];
        out->lanes_on += c->lanes[w];
        out->runs += c->runs[w];
        out->warp_efficiency[w] =
            c->runs[w] > 0 ? (double)c->lanes[w] / ((double)LANES_WARP * (double)c->runs[w]) : -1.0;
    }
    out->other_runs = ok ? c->other_runs : 0;
    out->exact = ok && !lr.bound_sampled && !lr.guard_assumed && !lr.loop_capped;
    free(c);
    return ok;
}

void diverge_uses_block_index(const branch_site *b, bool uses[3])
{
    const expr_builtin bid[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    for (int d = 0; d < 3; d++) {
        bool u = expr_uses_builtin(b->cond, bid[d]);
        for (int l = 0; l < b->n_loops && !u; l++)
            u = expr_uses_builtin(b->loops[l].init, bid[d]) ||
                expr_uses_builtin(b->loops[l].cond, bid[d]) ||
                expr_uses_builtin(b->loops[l].next, bid[d]);
        uses[d] = u;
    }
}

static bool not_analyzed(diverge_result *out, const char *why)
{
    out->verdict = DIVERGE_NOT_ANALYZED;
    snprintf(out->reason, sizeof out->reason, "%s", why);
    return false;
}

bool diverge_analyze(const branch_site *b, const int64_t block[3], const expr_env *env,
                     diverge_result *out)
{
    memset(out, 0, sizeof *out);
    out->efficiency = 1.0;
    const char *no_cond = NULL;
    const expr *cond = branch_condition(b, &no_cond);
    if (!cond)
        return not_analyzed(out, no_cond);

    /* A loop's trip count differs between lanes only if its start, step or
     * bound does; the counter itself is then per-lane. */
    bool per_lane;
    if (b->kind == BRANCH_LOOP) {
        const loop_ctx *L = &b->loops[b->n_loops - 1];
        per_lane = lanes_expr_per_lane(cond, b->loops, b->n_loops) ||
                   lanes_expr_per_lane(L->init, b->loops, b->n_loops - 1) ||
                   lanes_expr_per_lane(L->next, b->loops, b->n_loops - 1);
    } else {
        per_lane = lanes_expr_per_lane(cond, b->loops, b->n_loops);
    }
    if (!per_lane) {
        out->verdict = DIVERGE_WARP_UNIFORM;
        snprintf(out->reason, sizeof out->reason,
                 "not flagged: the %s reads only values that are the same for every lane of a "
                 "warp",
                 b->kind == BRANCH_LOOP ? "trip count" : "condition");
        return true;
    }
    const char *bound = NULL;
    if (b->kind != BRANCH_SWITCH && bounds_check(cond, b, block, env, &bound)) {
        out->verdict = DIVERGE_BOUNDS_CHECK;
        int64_t known;
        const char *why = NULL;
        expr *sym = expr_named(bound);
        if (env && expr_eval(sym, env, &known, &why) == EXPR_OK)
            snprintf(out->reason, sizeof out->reason,
                     "not flagged: bounds check (a thread index against '%s', %lld here: only "
                     "a warp that straddles it diverges)",
                     bound, (long long)known);
        else
            snprintf(out->reason, sizeof out->reason,
                     "not flagged: bounds check (a thread index against '%s', whose value is "
                     "unknown: only the warp that straddles it diverges)",
                     bound);
        expr_free(sym);
        return true;
    }

    diverge_ctx ctx = {.kind = b->kind, .out = out};
    if (b->kind == BRANCH_IF || b->kind == BRANCH_TERNARY) {
        ctx.n_iter = LANES_MAX_VISITS_PER_WARP;
        ctx.taken = calloc((size_t)ctx.n_iter, sizeof *ctx.taken);
        ctx.other = calloc((size_t)ctx.n_iter, sizeof *ctx.other);
        if (!ctx.taken || !ctx.other) {
            free(ctx.taken);
            free(ctx.other);
            return not_analyzed(out, "out of memory");
        }
    }
    lanes_result lr;
    bool ok = branch_lanes_run(b, cond, block, env, false, on_warp, &ctx, &lr);
    for (long i = 0; i < ctx.n_iter; i++) {
        out->taken_ideal_runs += (ctx.taken[i] + LANES_WARP - 1) / LANES_WARP;
        out->other_ideal_runs += (ctx.other[i] + LANES_WARP - 1) / LANES_WARP;
    }
    free(ctx.taken);
    free(ctx.other);
    out->warps = lr.warps;
    if (!ok) {
        out->divergent_visits = 0;
        return not_analyzed(out, lr.why);
    }
    if (lr.visits == 0)
        return not_analyzed(out, "no lane of the block reaches it with this block shape");
    out->warp_visits = lr.visits;
    out->region_runs = lr.sum[2];
    out->efficiency =
        lr.sum[2] > 0 ? (double)lr.sum[1] / ((double)LANES_WARP * (double)lr.sum[2]) : 1.0;
    out->assumed = lr.n_assumed > 0 || lr.bound_sampled || lr.guard_assumed || lr.loop_capped;
    snprintf(out->note, sizeof out->note, "%s", lr.note);
    bool is_if = b->kind == BRANCH_IF || b->kind == BRANCH_TERNARY;
    if (lr.worst[0] > 0 && is_if && out->taken_runs <= out->taken_ideal_runs &&
        out->other_runs <= out->other_ideal_runs) {
        out->verdict = DIVERGE_UNAVOIDABLE;
        snprintf(out->reason, sizeof out->reason,
                 "not flagged: lanes disagree only where fewer lanes remain than the warps "
                 "that run them hold (%ld warp runs, the fewest possible)",
                 out->taken_runs);
    } else if (lr.worst[0] > 0) {
        out->verdict = DIVERGE_DIVERGENT;
        out->flagged = true;
    } else {
        out->verdict = DIVERGE_CONVERGENT;
        snprintf(out->reason, sizeof out->reason,
                 "not flagged: the lanes of every warp agree (the %s changes only at warp "
                 "boundaries)",
                 b->kind == BRANCH_LOOP ? "trip count" : "condition");
    }
    return true;
}

typedef struct grid_runs_ctx {
    const branch_site *b;
    const int64_t *block;
    const expr_env *env;
    bool exact;
} grid_runs_ctx;

static bool runs_of_block(const int64_t bid[3], int64_t m[GRIDCLS_METRICS], char *why,
                          size_t why_size, void *p)
{
    grid_runs_ctx *g = p;
    expr_env env = *g->env;
    const expr_builtin dims[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    for (int d = 0; d < 3; d++)
        expr_env_set_builtin(&env, dims[d], bid[d]);
    diverge_counts c;
    if (!diverge_count(g->b, g->block, &env, &c)) {
        snprintf(why, why_size, "%s", c.why);
        return false;
    }
    g->exact &= c.exact;
    m[0] = c.runs;
    m[1] = c.other_runs;
    return true;
}

bool diverge_grid_arms(const branch_site *b, const int64_t block[3], const expr_env *env,
                       const int64_t grid[3], int64_t runs[2], bool *exact, char *why,
                       size_t why_size)
{
    bool uses[3];
    diverge_uses_block_index(b, uses);
    grid_runs_ctx g = {.b = b, .block = block, .env = env, .exact = true};
    gridcls_result r;
    if (!gridcls_sum(grid, uses, 2, runs_of_block, &g, &r, why, why_size))
        return false;
    runs[0] = r.sum[0];
    runs[1] = r.sum[1];
    *exact = g.exact && r.uniform;
    return true;
}

bool diverge_grid_runs(const branch_site *b, const int64_t block[3], const expr_env *env,
                       const int64_t grid[3], int64_t *runs, bool *exact, char *why,
                       size_t why_size)
{
    int64_t both[2];
    if (!diverge_grid_arms(b, block, env, grid, both, exact, why, why_size))
        return false;
    *runs = both[0];
    return true;
}
