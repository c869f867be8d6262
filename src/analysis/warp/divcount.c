/* divcount: a condition or trip count over every lane of a launch. */
#include "analysis/warp/divcount.h"
#include "util/order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARP 32

static bool reads_block(const expr *e)
{
    return expr_uses_builtin(e, SYM_BID_X) || expr_uses_builtin(e, SYM_BID_Y) ||
           expr_uses_builtin(e, SYM_BID_Z) || expr_uses_builtin(e, SYM_GDIM_X) ||
           expr_uses_builtin(e, SYM_GDIM_Y) || expr_uses_builtin(e, SYM_GDIM_Z);
}

static void set_dims(expr_env *env, const int64_t block[3], const int64_t grid[3])
{
    expr_env_set_builtin(env, SYM_BDIM_X, block[0]);
    expr_env_set_builtin(env, SYM_BDIM_Y, block[1]);
    expr_env_set_builtin(env, SYM_BDIM_Z, block[2]);
    expr_env_set_builtin(env, SYM_GDIM_X, grid[0]);
    expr_env_set_builtin(env, SYM_GDIM_Y, grid[1]);
    expr_env_set_builtin(env, SYM_GDIM_Z, grid[2]);
    expr_env_set_builtin(env, SYM_WARP_SIZE, WARP);
}

/* The value in one thread: linear id t of block (bx, by, bz). False when it
 * cannot be evaluated, with a sentence in why where why_size is not 0. */
static bool eval_at(const expr *e, expr_env *env, const int64_t block[3], const int64_t bid[3],
                    int64_t t, int64_t *v, char *why, size_t why_size)
{
    expr_env_set_builtin(env, SYM_TID_X, t % block[0]);
    expr_env_set_builtin(env, SYM_TID_Y, (t / block[0]) % block[1]);
    expr_env_set_builtin(env, SYM_TID_Z, t / (block[0] * block[1]));
    expr_env_set_builtin(env, SYM_BID_X, bid[0]);
    expr_env_set_builtin(env, SYM_BID_Y, bid[1]);
    expr_env_set_builtin(env, SYM_BID_Z, bid[2]);
    const char *reason = NULL;
    expr_status st = expr_eval(e, env, v, &reason);
    if (st == EXPR_OK)
        return true;
    if (!why_size)
        return false; /* the caller wants no sentence */
    const char *name = expr_first_unbound(e, env);
    if (st == EXPR_UNBOUND && name)
        snprintf(why, why_size, "'%s' has no value (only thread and block indices are known)",
                 name);
    else
        snprintf(why, why_size, "%s at threadIdx (%lld, %lld, %lld), blockIdx (%lld, %lld, %lld)",
                 st == EXPR_DIV_ZERO    ? "division by zero"
                 : st == EXPR_OVERFLOW  ? "the value overflows 64 bits"
                 : st == EXPR_BAD_SHIFT ? "a shift by a negative or too large count"
                                        : (reason ? reason : "cannot be evaluated"),
                 (long long)(t % block[0]), (long long)((t / block[0]) % block[1]),
                 (long long)(t / (block[0] * block[1])), (long long)bid[0], (long long)bid[1],
                 (long long)bid[2]);
    return false;
}

void divcount_class_add(divcount_classes *s, int64_t uniform, int64_t divergent, int64_t warps,
                        const int64_t block[3], int warp)
{
    for (int i = 0; i < s->n; i++)
        if (s->c[i].uniform == uniform && s->c[i].divergent == divergent) {
            s->c[i].warps += warps;
            return;
        }
    if (s->n == DIVCOUNT_MAX_CLASSES) {
        s->more = true;
        return;
    }
    s->c[s->n++] =
        (divcount_class){uniform, divergent, warps, {block[0], block[1], block[2]}, warp};
}

bool divcount_classes_agree(const divcount_classes *s)
{
    return s->n == 1 && !s->more;
}

/* Threads sorted by trips, 32 to a warp: sum(trips) / (32 x sum(max per warp)). */
static double regrouped(const int64_t *trips, int64_t n, bool *full)
{
    int64_t *s = malloc((size_t)n * sizeof *s);
    memcpy(s, trips, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, order_i64);
    int64_t lanes = 0, runs = 0;
    for (int64_t w = 0; w < n; w += WARP) {
        int64_t end = w + WARP < n ? w + WARP : n;
        for (int64_t i = w; i < end; i++)
            lanes += s[i];
        runs += s[end - 1];
    }
    free(s);
    *full = runs > 0 && lanes == WARP * runs;
    return runs ? (double)lanes / (double)(WARP * runs) : 1.0;
}

/* The smallest 1-D block, a multiple of 32 up to 1024 threads, whose
 * threads regrouped by trip count fill every warp; 0 when none does. */
static int full_block(const expr *e, expr_env *env)
{
    int64_t trial[WARP * DIVCOUNT_MAX_WARPS];
    for (int k = 1; k <= DIVCOUNT_MAX_WARPS; k++) {
        int64_t b1[3] = {(int64_t)WARP * k, 1, 1}, zero[3] = {0, 0, 0};
        expr_env_set_builtin(env, SYM_BDIM_X, b1[0]);
        bool ok = true, full = false;
        for (int64_t t = 0; t < b1[0] && ok; t++) {
            ok = eval_at(e, env, b1, zero, t, &trial[t], NULL, 0);
            if (ok && trial[t] < 0)
                trial[t] = 0;
        }
        if (ok)
            regrouped(trial, b1[0], &full);
        if (ok && full)
            return (int)b1[0];
    }
    return 0;
}

static bool count(bool loop, const expr *e, const int64_t block[3], const int64_t grid[3],
                  const expr_env *base, divcount *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->loop = loop;
    int64_t threads = 1, blocks = 1;
    for (int i = 0; i < 3; i++) {
        if (block[i] < 1 || grid[i] < 1) {
            snprintf(why, why_size, "block and grid extents must be at least 1");
            return false;
        }
        out->block[i] = block[i];
        out->grid[i] = grid[i];
        if (__builtin_mul_overflow(threads, block[i], &threads) ||
            threads > WARP * DIVCOUNT_MAX_WARPS) {
            snprintf(why, why_size, "a block has at most %d threads", WARP * DIVCOUNT_MAX_WARPS);
            return false;
        }
        if (__builtin_mul_overflow(blocks, grid[i], &blocks)) {
            snprintf(why, why_size, "the grid has more blocks than can be counted");
            return false;
        }
    }
    int warps = (int)((threads + WARP - 1) / WARP);
    out->warps_per_block = warps;
    if (__builtin_mul_overflow((int64_t)warps, blocks, &out->warps_in_grid)) {
        snprintf(why, why_size, "the grid has more warps than can be counted");
        return false;
    }
    out->every_block = reads_block(e);
    int64_t evaluated = out->every_block ? blocks : 1;
    if (evaluated > DIVCOUNT_MAX_EVALS / threads) {
        snprintf(why, why_size,
                 "the expression reads blockIdx/gridDim, so every block is evaluated, and "
                 "%lld blocks of %lld threads are more than %lld evaluations",
                 (long long)blocks, (long long)threads, (long long)DIVCOUNT_MAX_EVALS);
        return false;
    }
    expr_env env = base ? *base : (expr_env){0};
    if (!base)
        expr_env_init(&env);
    set_dims(&env, block, grid);
    out->min_trips = INT64_MAX;
    out->max_trips = INT64_MIN;
    int64_t taken_lanes = 0, other_lanes = 0;
    for (int64_t b = 0; b < evaluated; b++) {
        int64_t bid[3] = {b % grid[0], (b / grid[0]) % grid[1], b / (grid[0] * grid[1])};
        for (int w = 0; w < warps; w++) {
            int lanes =
                (int)(threads - (int64_t)w * WARP < WARP ? threads - (int64_t)w * WARP : WARP);
            int taken = 0;
            int64_t mn = INT64_MAX, mx = INT64_MIN, sum = 0;
            for (int l = 0; l < lanes; l++) {
                int64_t t = (int64_t)w * WARP + l, v;
                if (!eval_at(e, &env, block, bid, t, &v, why, why_size))
                    return false;
                if (loop) {
                    v = v < 0 ? 0 : v;
                    if (b == 0)
                        out->first_trips[t] = v;
                    mn = v < mn ? v : mn;
                    mx = v > mx ? v : mx;
                    if (__builtin_add_overflow(sum, v, &sum)) {
                        snprintf(why, why_size, "the trip counts overflow 64 bits");
                        return false;
                    }
                    taken += v > 0;
                } else
                    taken += v != 0;
            }
            if (loop) {
                out->min_trips = mn < out->min_trips ? mn : out->min_trips;
                out->max_trips = mx > out->max_trips ? mx : out->max_trips;
                out->iterations_uniform += mn;
                out->iterations_divergent += mx - mn;
                out->lane_trips_sum += sum;
                out->warp_trips_sum += mx;
                out->warps_divergent += mn != mx;
                out->taken.warps_entering += mx > 0;
                divcount_class_add(&out->per_warp, mn, mx - mn, 1, bid, w);
            } else {
                out->warps_divergent += taken > 0 && taken < lanes;
                out->taken.warps_entering += taken > 0;
                out->other.warps_entering += taken < lanes;
            }
            taken_lanes += taken;
            other_lanes += lanes - taken;
            if (b == 0) {
                out->first_lanes[w] = lanes;
                out->first_taken[w] = taken > 0 ? taken : -1;
                /* A loop's warp: its lane-iterations over 32 per iteration
                 * it runs; a branch's: the lanes on the path over 32. */
                if (loop)
                    out->first_efficiency[w] = mx > 0 ? (double)sum / (WARP * (double)mx) : -1.0;
                else
                    out->first_efficiency[w] = taken > 0 ? (double)taken / WARP : -1.0;
            }
        }
    }
    /* Block 0 stands for every block when the expression cannot tell them
     * apart. */
    int64_t scale = out->every_block ? 1 : blocks;
    out->taken.lanes = taken_lanes;
    out->other.lanes = other_lanes;
    int64_t *counts[] = {
        &out->warps_divergent,      &out->taken.warps_entering, &out->other.warps_entering,
        &out->taken.lanes,          &out->other.lanes,          &out->iterations_uniform,
        &out->iterations_divergent, &out->lane_trips_sum,       &out->warp_trips_sum};
    for (int i = 0; i < out->per_warp.n; i++)
        out->per_warp.c[i].warps *= scale; /* at most warps_in_grid */
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (__builtin_mul_overflow(*counts[i], scale, counts[i])) {
            snprintf(why, why_size, "the counts over %lld blocks overflow 64 bits",
                     (long long)blocks);
            return false;
        }
    if (loop) {
        out->taken.simd_efficiency =
            out->warp_trips_sum ? (double)out->lane_trips_sum / (WARP * (double)out->warp_trips_sum)
                                : 0;
        bool full;
        out->regrouped_efficiency = regrouped(out->first_trips, threads, &full);
        if (block[1] == 1 && block[2] == 1 && !out->every_block)
            out->regroup_full_block = full_block(e, &env);
    } else {
        out->taken.simd_efficiency =
            out->taken.warps_entering
                ? (double)out->taken.lanes / (WARP * (double)out->taken.warps_entering)
                : 0;
        out->other.simd_efficiency =
            out->other.warps_entering
                ? (double)out->other.lanes / (WARP * (double)out->other.warps_entering)
                : 0;
    }
    return true;
}

bool divcount_branch(const expr *cond, const int64_t block[3], const int64_t grid[3],
                     const expr_env *env, divcount *out, char *why, size_t why_size)
{
    return count(false, cond, block, grid, env, out, why, why_size);
}

bool divcount_loop(const expr *trips, const int64_t block[3], const int64_t grid[3],
                   const expr_env *env, divcount *out, char *why, size_t why_size)
{
    return count(true, trips, block, grid, env, out, why, why_size);
}

void divcount_classes_text(sbuf *out, const divcount_classes *s, bool counted, long long warps)
{
    if (divcount_classes_agree(s) && s->n > 0) {
        sbuf_addf(out, "%lld uniform, %lld divergent", (long long)s->c[0].uniform,
                  (long long)s->c[0].divergent);
        if (warps == 1)
            sbuf_add(out, " in its one warp");
        else
            sbuf_addf(out, " in each of the %lld warps", warps);
        return;
    }
    sbuf_add(out, "warps differ: ");
    for (int i = 0; i < s->n; i++) {
        const divcount_class *c = &s->c[i];
        sbuf_addf(out, i ? "; %lld + %lld" : "%lld uniform + %lld divergent", (long long)c->uniform,
                  (long long)c->divergent);
        if (counted)
            sbuf_addf(out, " in %lld warp%s", (long long)c->warps, c->warps == 1 ? "" : "s");
        sbuf_add(out, " (first: block ");
        if (c->block[1] == 0 && c->block[2] == 0)
            sbuf_addf(out, "%lld", (long long)c->block[0]);
        else
            sbuf_addf(out, "(%lld, %lld, %lld)", (long long)c->block[0], (long long)c->block[1],
                      (long long)c->block[2]);
        sbuf_addf(out, ", warp %d)", c->warp);
    }
    if (s->more)
        sbuf_add(out, "; and others");
}
