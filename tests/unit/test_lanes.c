/* test_lanes: per-lane loop trip counts (the divergence counts of a loop
 * that depends on the thread index) against the same loop run in C, for
 * the loops whose trip count lanes works out in closed form (<, <=, >, >=,
 * != against a bound, a constant step up or down, the comparison either
 * way round) and for those it steps (a step that never reaches the bound,
 * a != the steps jump over, a lane-dependent step), capped alike. A loop
 * behind an if is reached only by the lanes that pass it; a loop whose
 * step is unknown and whose bound is known fails at once, naming the
 * unknown, rather than running with the step taken as 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/symbolic/lanes.h"

#define BLOCK 64

typedef struct loop_case {
    const char *what;
    int64_t init_mul, init_add; /* i = tid x init_mul + init_add */
    expr_op op;
    bool mirrored;                /* bound OP i instead of i OP bound */
    int64_t bound_mul, bound_add; /* bound = tid x bound_mul + bound_add */
    expr_op step_op;              /* OP_ADD or OP_SUB */
    int64_t step, step_tid_mul;   /* step = step + tid x step_tid_mul */
    bool closed;                  /* every lane's count in closed form */
} loop_case;

static bool compare(expr_op op, int64_t a, int64_t b)
{
    switch (op) {
    case OP_LT:
        return a < b;
    case OP_LE:
        return a <= b;
    case OP_GT:
        return a > b;
    case OP_GE:
        return a >= b;
    default:
        return a != b;
    }
}

/* The loop as C runs it, stopped where lanes stops following a loop. */
static int64_t c_trips(const loop_case *c, int64_t tid, bool *capped)
{
    int64_t i = tid * c->init_mul + c->init_add, bound = tid * c->bound_mul + c->bound_add;
    int64_t step = c->step + tid * c->step_tid_mul, trips = 0;
    for (;;) {
        bool go = c->mirrored ? compare(c->op, bound, i) : compare(c->op, i, bound);
        if (!go)
            break;
        if (trips >= LANES_MAX_ITER) {
            *capped = true;
            break;
        }
        trips++;
        i = c->step_op == OP_ADD ? i + step : i - step;
    }
    return trips;
}

static expr *affine_tid(int64_t mul, int64_t add)
{
    return expr_binary(OP_ADD, expr_binary(OP_MUL, expr_builtin_sym(SYM_TID_X), expr_const(mul)),
                       expr_const(add));
}

typedef struct seen {
    int64_t trips[BLOCK];
} seen;

static bool on_visit(const lanes_visit *v, int64_t m[LANES_METRICS], char *why, size_t why_size,
                     void *ctx)
{
    (void)m;
    (void)why;
    (void)why_size;
    seen *s = ctx;
    for (int l = 0; l < LANES_WARP; l++)
        s->trips[v->warp * LANES_WARP + l] = v->value[l];
    return true;
}

/* stepped: the step written as max(i + S, -10^15), the same values in a
 * shape the closed form does not take (and expr_simplify keeps), so lanes
 * steps the loop. */
static void run(const loop_case *c, bool stepped, seen *s, bool *capped, int64_t *steps)
{
    static char var[] = "i";
    expr *i = expr_named(var);
    expr *bound = affine_tid(c->bound_mul, c->bound_add);
    expr *cond = c->mirrored ? expr_binary(c->op, bound, i) : expr_binary(c->op, i, bound);
    expr *step =
        expr_binary(OP_ADD, expr_const(c->step),
                    expr_binary(OP_MUL, expr_builtin_sym(SYM_TID_X), expr_const(c->step_tid_mul)));
    expr *next = expr_binary(c->step_op, expr_named(var), step);
    if (stepped)
        next = expr_binary(OP_MAX, next, expr_const(-1000000000000000));
    loop_ctx loop = {.var = var,
                     .init = affine_tid(c->init_mul, c->init_add),
                     .cond = cond,
                     .next = next,
                     .loc = {.line = 1}};
    lanes_job job = {.what = "trip count",
                     .loops = &loop,
                     .n_loops = 1,
                     .last_loop_trips = true,
                     .block = {BLOCK, 1, 1},
                     .fn = on_visit,
                     .ctx = s};
    lanes_result r;
    memset(s, 0, sizeof *s);
    assert_true(lanes_run(&job, &r));
    *capped = r.loop_capped;
    *steps = r.steps;
    expr_free(loop.init);
    expr_free(loop.cond);
    expr_free(loop.next);
}

static const loop_case cases[] = {
    {"i = tid; i < 100; i += 7", 1, 0, OP_LT, false, 0, 100, OP_ADD, 7, 0, true},
    {"i = tid; i <= 100; i += 32", 1, 0, OP_LE, false, 0, 100, OP_ADD, 32, 0, true},
    {"i = 100; i > tid; i -= 3", 0, 100, OP_GT, false, 1, 0, OP_SUB, 3, 0, true},
    {"i = 2 tid; i >= 0; i -= 5", 2, 0, OP_GE, false, 0, 0, OP_SUB, 5, 0, true},
    {"i = 0; i != tid; i += 1", 0, 0, OP_NE, false, 1, 0, OP_ADD, 1, 0, true},
    {"i = 40; i != tid; i -= 1 (lanes above 40 never stop)", 0, 40, OP_NE, false, 1, 0, OP_ADD, -1,
     0, false},
    {"i = tid; 50 > i; i += 4", 1, 0, OP_GT, true, 0, 50, OP_ADD, 4, 0, true},
    {"i = tid; 3 <= i; i -= 2", 1, 0, OP_LE, true, 0, 3, OP_SUB, 2, 0, true},
    {"i = 0; i < 1000 tid; i += 1 (capped)", 0, 0, OP_LT, false, 1000, 0, OP_ADD, 1, 0, true},
    {"i = tid; i < 10; i += 0 (never moves)", 1, 0, OP_LT, false, 0, 10, OP_ADD, 0, 0, false},
    {"i = 0; i != 7; i += 2 (jumps over)", 0, 0, OP_NE, false, 0, 7, OP_ADD, 2, 0, false},
    {"i = 0; i < 64; i += tid", 0, 0, OP_LT, false, 0, 64, OP_ADD, 0, 1, false},
    {"i = tid; i < 20; i -= -3", 1, 0, OP_LT, false, 0, 20, OP_SUB, -3, 0, true},
    {"i = tid - 70; i < -5; i += 9", 1, -70, OP_LT, false, 0, -5, OP_ADD, 9, 0, true},
    {"i = tid; i > 100; i += 1 (never enters)", 1, 0, OP_GT, false, 0, 100, OP_ADD, 1, 0, true},
    {"i = 0; i < 3000; i += 1 (8 x 3000 requests pass the visit cap)", 0, 0, OP_LT, false, 0, 3000,
     OP_ADD, 1, 0, true},
};

static void test_trips_match_c(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const loop_case *c = &cases[k];
        bool c_capped = false;
        int64_t want[BLOCK];
        for (int t = 0; t < BLOCK; t++)
            want[t] = c_trips(c, t, &c_capped);
        for (int stepped = 0; stepped < 2; stepped++) {
            seen s;
            bool capped;
            int64_t steps;
            run(c, stepped, &s, &capped, &steps);
            /* One step a lane: the count came in closed form. */
            if (!stepped && c->closed && steps != BLOCK)
                fail_msg("%s: %lld steps, not in closed form", c->what, (long long)steps);
            /* Stepped: a test of the condition per trip, and the last one. */
            int64_t tests = 0;
            for (int t = 0; t < BLOCK; t++)
                tests += want[t] + 1;
            if (stepped && steps != tests)
                fail_msg("%s: %lld steps, stepping takes %lld", c->what, (long long)steps,
                         (long long)tests);
            for (int t = 0; t < BLOCK; t++)
                if (s.trips[t] != want[t])
                    fail_msg("%s (%s): lane %d ran %lld trips, C runs %lld", c->what,
                             stepped ? "stepped" : "closed form", t, (long long)s.trips[t],
                             (long long)want[t]);
            if (capped != c_capped)
                fail_msg("%s (%s): capped %d, C %d", c->what, stepped ? "stepped" : "closed form",
                         capped, c_capped);
        }
    }
}

/* for (i = tid; i < 100; i += S) behind `if (guard)`. */
static bool run_guarded(const expr *guard, expr *step, seen *s, lanes_result *r)
{
    static char var[] = "i";
    loop_ctx loop = {.var = var,
                     .init = expr_builtin_sym(SYM_TID_X),
                     .cond = expr_binary(OP_LT, expr_named(var), expr_const(100)),
                     .next = expr_binary(OP_ADD, expr_named(var), step),
                     .loc = {.line = 1}};
    lanes_job job = {.what = "trip count",
                     .guard = guard,
                     .loops = &loop,
                     .n_loops = 1,
                     .last_loop_trips = true,
                     .block = {BLOCK, 1, 1},
                     .fn = on_visit,
                     .ctx = s};
    memset(s, 0, sizeof *s);
    bool ok = lanes_run(&job, r);
    expr_free(loop.init);
    expr_free(loop.cond);
    expr_free(loop.next);
    return ok;
}

static void test_guard_and_unknown_step(void **state)
{
    (void)state;
    seen s;
    lanes_result r;
    /* Lanes 0..9 pass the if: only they run the loop; no warp of lanes
     * above 31 reaches it at all. */
    expr *guard = expr_binary(OP_LT, expr_builtin_sym(SYM_TID_X), expr_const(10));
    assert_true(run_guarded(guard, expr_const(32), &s, &r));
    assert_int_equal(r.visits, 1);
    for (int t = 0; t < BLOCK; t++)
        assert_int_equal(s.trips[t], t < 10 ? (100 - t + 31) / 32 : 0);
    /* A guard no lane passes: the loop is never reached. */
    expr *never = expr_binary(OP_LT, expr_builtin_sym(SYM_TID_X), expr_const(0));
    assert_true(run_guarded(never, expr_const(32), &s, &r));
    assert_int_equal(r.visits, 0);
    /* The step is an unknown name: the trip count depends on it. */
    static char stride[] = "stride";
    assert_false(run_guarded(guard, expr_named(stride), &s, &r));
    assert_string_equal(r.why, "trip count depends on 'stride' whose value is unknown");
    expr_free(guard);
    expr_free(never);
}

/* The innermost loop stepped by addition (the value affine in its counter)
 * against the same loop evaluated iteration by iteration (the value as
 * max(value, -10^15), which is not affine and which expr_simplify keeps),
 * for every loop shape above, under an
 * outer loop and an if: the same requests in the same order, the same
 * counts, caps and notes. */
typedef struct trace {
    uint64_t hash;
    long n;
} trace;

static bool on_request(const lanes_visit *v, int64_t m[LANES_METRICS], char *why, size_t why_size,
                       void *ctx)
{
    (void)why;
    (void)why_size;
    trace *t = ctx;
    uint64_t h = t->hash ^ ((uint64_t)v->warp << 40 ^ (uint64_t)v->iteration << 8 ^ v->active);
    for (int l = 0; l < LANES_WARP; l++)
        h = (h ^ (uint64_t)v->value[l]) * 1099511628211ull;
    t->hash = h;
    t->n++;
    m[0] = v->value[0] & 0xff;
    m[1] = __builtin_popcount(v->active);
    return true;
}

/* What a count that repeats every 128 bytes sees of a request: its
 * lanes' offsets from the first active lane and the first's address mod
 * 128, summed over the requests in no particular order (a visit counts
 * v->repeat times), and the iteration of the first request with the
 * largest count. */
typedef struct mod_trace {
    uint64_t sum;
    long n, calls;
    int64_t best;
    long best_iteration;
} mod_trace;

static bool on_request_mod(const lanes_visit *v, int64_t m[LANES_METRICS], char *why,
                           size_t why_size, void *ctx)
{
    (void)why;
    (void)why_size;
    mod_trace *t = ctx;
    int first = __builtin_ctz(v->active);
    uint64_t h = (uint64_t)v->warp << 40 ^ v->active ^ (uint64_t)(v->value[first] & 127) << 32;
    for (int l = 0; l < LANES_WARP; l++)
        if (v->active >> l & 1)
            h = (h ^ (uint64_t)(v->value[l] - v->value[first])) * 1099511628211ull;
    t->sum += h * (uint64_t)v->repeat;
    t->calls++;
    t->n += v->repeat;
    m[0] = (v->value[first] & 127) + __builtin_popcount(v->active);
    m[1] = __builtin_popcount(v->active);
    if (t->n == v->repeat || m[0] > t->best) {
        t->best = m[0];
        t->best_iteration = v->iteration;
    }
    return true;
}

/* Which counters the value reads (test_invariant_walk): both, j only (the
 * inner loop is invariant), i only (the outer loop is); and whether a
 * mod_trace run sets counts_mod_128. */
enum { READS_BOTH, READS_J, READS_I };
static int value_reads = READS_BOTH;
static bool counts_on = true;
static int outer_trips = 3; /* 8: past the visit cap where the inner loop runs long */

static void walk_case(const loop_case *c, bool affine, mod_trace *mod, trace *t, lanes_result *r,
                      bool *ok)
{
    static char var[] = "i", outer[] = "j";
    expr *bound = affine_tid(c->bound_mul, c->bound_add);
    expr *i = expr_named(var);
    expr *step =
        expr_binary(OP_ADD, expr_const(c->step),
                    expr_binary(OP_MUL, expr_builtin_sym(SYM_TID_X), expr_const(c->step_tid_mul)));
    loop_ctx loops[2] = {
        {.var = outer,
         .init = expr_const(0),
         .cond = expr_binary(OP_LT, expr_named(outer), expr_const(outer_trips)),
         .next = expr_binary(OP_ADD, expr_named(outer), expr_const(1)),
         .loc = {.line = 1}},
        {.var = var,
         .init = affine_tid(c->init_mul, c->init_add),
         .cond = c->mirrored ? expr_binary(c->op, bound, i) : expr_binary(c->op, i, bound),
         .next = expr_binary(c->step_op, expr_named(var), step),
         .loc = {.line = 2}},
    };
    /* j * 65536 + i * 8 + tid * 4, less a counter where value_reads says */
    expr *value = expr_binary(OP_MUL, expr_builtin_sym(SYM_TID_X), expr_const(4));
    if (value_reads != READS_J)
        value = expr_binary(OP_ADD, expr_binary(OP_MUL, expr_named(var), expr_const(8)), value);
    if (value_reads != READS_I)
        value =
            expr_binary(OP_ADD, expr_binary(OP_MUL, expr_named(outer), expr_const(65536)), value);
    if (!affine)
        value = expr_binary(OP_MAX, value, expr_const(-1000000000000000));
    expr *guard = expr_binary(
        OP_NE, expr_binary(OP_MOD, expr_builtin_sym(SYM_TID_X), expr_const(5)), expr_const(3));
    lanes_job job = {.what = "index",
                     .value = value,
                     .guard = guard,
                     .loops = loops,
                     .n_loops = 2,
                     .block = {BLOCK, 1, 1},
                     .fn = on_request,
                     .ctx = t};
    if (mod) {
        job.counts_mod_128 = counts_on;
        job.fn = on_request_mod;
        job.ctx = mod;
        memset(mod, 0, sizeof *mod);
    }
    memset(t, 0, sizeof *t);
    *ok = lanes_run(&job, r);
    expr_free(value);
    expr_free(guard);
    for (int k = 0; k < 2; k++) {
        expr_free(loops[k].init);
        expr_free(loops[k].cond);
        expr_free(loops[k].next);
    }
}

static void test_affine_walk(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        trace ta, ts;
        lanes_result ra, rs;
        bool oka, oks;
        walk_case(&cases[k], true, NULL, &ta, &ra, &oka);
        walk_case(&cases[k], false, NULL, &ts, &rs, &oks);
        if (oka != oks || ta.hash != ts.hash || ta.n != ts.n || ra.visits != rs.visits ||
            memcmp(ra.sum, rs.sum, sizeof ra.sum) || memcmp(ra.worst, rs.worst, sizeof ra.worst) ||
            ra.loop_capped != rs.loop_capped || strcmp(ra.note, rs.note) || strcmp(ra.why, rs.why))
            fail_msg("%s: affine %d requests (ok %d, note '%s', why '%s'), stepped %d (ok %d, "
                     "note '%s', why '%s')",
                     cases[k].what, (int)ta.n, oka, ra.note, ra.why, (int)ts.n, oks, rs.note,
                     rs.why);
    }
}

/* A count that repeats every 128 bytes (counts_mod_128): the affine walk
 * visits one period of a loop's requests, each for the iterations 128
 * bytes apart; against every request stepped one by one, on every loop
 * shape (under 3 and 8 outer iterations: 8 pass the visit cap): the same
 * requests, counts, worst and its iteration, caps, notes. */
static void test_period_walk(void **state)
{
    (void)state;
    int batched = 0;
    for (size_t run = 0; run < 2 * sizeof cases / sizeof cases[0]; run++) {
        size_t k = run % (sizeof cases / sizeof cases[0]);
        outer_trips = run < sizeof cases / sizeof cases[0] ? 3 : 8;
        trace ta, ts;
        mod_trace ma, ms;
        lanes_result ra, rs;
        bool oka, oks;
        walk_case(&cases[k], true, &ma, &ta, &ra, &oka);
        walk_case(&cases[k], false, &ms, &ts, &rs, &oks);
        outer_trips = 3;
        if (oka != oks || ma.sum != ms.sum || ma.n != ms.n || ma.best != ms.best ||
            ma.best_iteration != ms.best_iteration || ra.visits != rs.visits ||
            memcmp(ra.sum, rs.sum, sizeof ra.sum) || memcmp(ra.worst, rs.worst, sizeof ra.worst) ||
            ra.loop_capped != rs.loop_capped || strcmp(ra.note, rs.note) || strcmp(ra.why, rs.why))
            fail_msg("%s: by period %ld requests (ok %d, note '%s', why '%s'), stepped %ld (ok %d, "
                     "note '%s', why '%s')",
                     cases[k].what, ma.n, oka, ra.note, ra.why, ms.n, oks, rs.note, rs.why);
        batched += ma.calls < ms.calls;
    }
    /* The shapes where every lane steps alike walk by period. */
    assert_true(batched >= 3);
}

/* A loop whose counter nothing inside reads, for a count that takes
 * repeats: each run of iterations with the same lanes visits its requests
 * once, standing for the run; against the walk without repeats (every
 * request visited), for the inner loop and for the outer one, on every
 * loop shape. */
static void test_invariant_walk(void **state)
{
    (void)state;
    int batched = 0;
    for (int run = 0; run < 4; run++)
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            int reads = run % 2 ? READS_I : READS_J;
            outer_trips = run < 2 ? 3 : 8;
            trace ta, ts;
            mod_trace ma, ms;
            lanes_result ra, rs;
            bool oka, oks;
            value_reads = reads;
            counts_on = true;
            walk_case(&cases[k], true, &ma, &ta, &ra, &oka);
            counts_on = false;
            walk_case(&cases[k], true, &ms, &ts, &rs, &oks);
            value_reads = READS_BOTH;
            counts_on = true;
            outer_trips = 3;
            if (oka != oks || ma.sum != ms.sum || ma.n != ms.n || ma.best != ms.best ||
                ma.best_iteration != ms.best_iteration || ra.visits != rs.visits ||
                memcmp(ra.sum, rs.sum, sizeof ra.sum) ||
                memcmp(ra.worst, rs.worst, sizeof ra.worst) || ra.loop_capped != rs.loop_capped ||
                strcmp(ra.note, rs.note) || strcmp(ra.why, rs.why))
                fail_msg("%s (reads %d): with repeats %ld requests (ok %d, note '%s', why '%s'), "
                         "without %ld (ok %d, note '%s', why '%s')",
                         cases[k].what, reads, ma.n, oka, ra.note, ra.why, ms.n, oks, rs.note,
                         rs.why);
            batched += ma.calls < ms.calls;
        }
    assert_true(batched >= 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guard_and_unknown_step),
        cmocka_unit_test(test_trips_match_c),
        cmocka_unit_test(test_affine_walk),
        cmocka_unit_test(test_period_walk),
        cmocka_unit_test(test_invariant_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
