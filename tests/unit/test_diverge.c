/* test_diverge: the divergence model on the seed chapters' cases:
 * mathKernel1's tid % 2 (divergent, 50%), the warp-granular (tid / 32) % 2
 * (not divergent), bounds checks (not flagged), per-lane trip counts
 * (exercise 13.8: 62.5%; threadIdx.x % 32 iterations: 50%), and the
 * neighbored against the interleaved reduction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/warp/divcount.h"
#include "analysis/warp/diverge.h"

static expr *C(int64_t v)
{
    return expr_const(v);
}
static expr *B(expr_op op, expr *a, expr *b)
{
    return expr_binary(op, a, b);
}
static expr *TX(void)
{
    return expr_builtin_sym(SYM_TID_X);
}
static expr *TY(void)
{
    return expr_builtin_sym(SYM_TID_Y);
}
static expr *N(const char *name)
{
    return expr_named(name);
}
static expr *IDX(void)
{
    return B(OP_ADD, B(OP_MUL, expr_builtin_sym(SYM_BID_X), expr_builtin_sym(SYM_BDIM_X)), TX());
}

static const int64_t block256[3] = {256, 1, 1};

static bool near(double a, double b)
{
    return a > b - 1e-9 && a < b + 1e-9;
}

static diverge_result branch(expr *cond, const int64_t block[3])
{
    branch_site b = {0};
    b.kind = BRANCH_IF;
    b.cond = cond;
    diverge_result r;
    diverge_analyze(&b, block, NULL, &r);
    expr_free(cond);
    return r;
}

static loop_ctx loop(const char *var, expr *init, expr *cond, expr *next)
{
    loop_ctx L = {0};
    L.var = (char *)var;
    L.init = init;
    L.cond = cond;
    L.next = next;
    L.loc.line = 7;
    return L;
}

static void free_site(branch_site *b)
{
    for (int i = 0; i < b->n_loops; i++) {
        expr_free(b->loops[i].init);
        expr_free(b->loops[i].cond);
        expr_free(b->loops[i].next);
    }
    if (b->kind != BRANCH_LOOP)
        expr_free(b->cond);
}

static void test_odd_even(void **state)
{
    (void)state;
    diverge_result r = branch(B(OP_EQ, B(OP_MOD, TX(), C(2)), C(0)), block256);
    assert_int_equal(r.verdict, DIVERGE_DIVERGENT);
    assert_true(r.flagged);
    assert_true(near(r.efficiency, 0.5));
    assert_int_equal(r.warp_visits, 8);
    assert_int_equal(r.divergent_visits, 8);
    assert_int_equal(r.worst_warp, 0);
    assert_int_equal(r.worst_value[0], 1);
    assert_int_equal(r.worst_value[1], 0);
    /* the global index behaves the same: blockIdx.x shifts a whole block */
    r = branch(B(OP_EQ, B(OP_MOD, IDX(), C(2)), C(0)), block256);
    assert_int_equal(r.verdict, DIVERGE_DIVERGENT);
    assert_true(near(r.efficiency, 0.5));
    assert_true(r.assumed);
    assert_non_null(strstr(r.note, "blockIdx.x"));
}

static void test_warp_granular(void **state)
{
    (void)state;
    diverge_result r = branch(B(OP_EQ, B(OP_MOD, B(OP_DIV, TX(), C(32)), C(2)), C(0)), block256);
    assert_int_equal(r.verdict, DIVERGE_CONVERGENT);
    assert_false(r.flagged);
    assert_true(near(r.efficiency, 1.0));
    assert_int_equal(r.region_runs, 4);
    assert_non_null(strstr(r.reason, "not flagged"));
    /* warpSize spelled out */
    r = branch(B(OP_EQ, B(OP_MOD, B(OP_DIV, TX(), expr_builtin_sym(SYM_WARP_SIZE)), C(2)), C(0)),
               block256);
    assert_int_equal(r.verdict, DIVERGE_CONVERGENT);
    /* values the same for the whole warp are not even evaluated */
    r = branch(B(OP_EQ, B(OP_MOD, expr_builtin_sym(SYM_BID_X), C(2)), C(0)), block256);
    assert_int_equal(r.verdict, DIVERGE_WARP_UNIFORM);
    assert_false(r.flagged);
    r = branch(B(OP_GT, N("n"), C(3)), block256);
    assert_int_equal(r.verdict, DIVERGE_WARP_UNIFORM);
}

static void test_bounds_check(void **state)
{
    (void)state;
    diverge_result r = branch(B(OP_LT, IDX(), N("n")), block256);
    assert_int_equal(r.verdict, DIVERGE_BOUNDS_CHECK);
    assert_false(r.flagged);
    assert_non_null(strstr(r.reason, "not flagged: bounds check"));
    assert_non_null(strstr(r.reason, "'n'"));
    r = branch(B(OP_GE, N("n"), TX()), block256);
    assert_int_equal(r.verdict, DIVERGE_BOUNDS_CHECK);
    /* 2-D: row < M && col < N with a 16 x 16 block */
    const int64_t block[3] = {16, 16, 1};
    expr *row = B(OP_ADD, B(OP_MUL, expr_builtin_sym(SYM_BID_Y), C(16)), TY());
    expr *col = B(OP_ADD, B(OP_MUL, expr_builtin_sym(SYM_BID_X), C(16)), TX());
    r = branch(B(OP_LAND, B(OP_LT, row, N("M")), B(OP_LT, col, N("N"))), block);
    assert_int_equal(r.verdict, DIVERGE_BOUNDS_CHECK);
    /* tid % 4 < k is not an index against a bound: evaluated, and k matters */
    r = branch(B(OP_LT, B(OP_MOD, TX(), C(4)), N("k")), block256);
    assert_int_equal(r.verdict, DIVERGE_NOT_ANALYZED);
    assert_string_equal(r.reason, "condition depends on 'k' whose value is unknown");
    /* a known bound is just a condition: tid < 16 splits warp 0, but 16
     * lanes of work need a warp whatever the mapping: not flagged */
    r = branch(B(OP_LT, TX(), C(16)), block256);
    assert_int_equal(r.verdict, DIVERGE_UNAVOIDABLE);
    assert_false(r.flagged);
    assert_int_equal(r.divergent_visits, 1);
    assert_int_equal(r.taken_runs, 1);
    assert_int_equal(r.taken_ideal_runs, 1);
    assert_true(near(r.efficiency, 0.5));
}

static diverge_result per_lane_loop(expr *bound, const int64_t block[3])
{
    branch_site b = {0};
    b.kind = BRANCH_LOOP;
    b.n_loops = 1;
    b.loops[0] = loop("i", C(0), B(OP_LT, N("i"), bound), B(OP_ADD, N("i"), C(1)));
    b.cond = b.loops[0].cond;
    diverge_result r;
    diverge_analyze(&b, block, NULL, &r);
    free_site(&b);
    return r;
}

static void test_trip_counts(void **state)
{
    (void)state;
    /* for (i = 0; i < threadIdx.x % 32; i++): 496 / (32 x 31) */
    diverge_result r = per_lane_loop(B(OP_MOD, TX(), C(32)), block256);
    assert_int_equal(r.verdict, DIVERGE_DIVERGENT);
    assert_true(near(r.efficiency, 496.0 / (32 * 31)));
    assert_true(near(r.efficiency, 0.5));
    assert_int_equal(r.min_trips, 0);
    assert_int_equal(r.max_trips, 31);
    assert_int_equal(r.worst_value[31], 31);
    /* exercise 13.8: (i % 4) + 1 iterations -> 80 / 128 */
    r = per_lane_loop(B(OP_ADD, B(OP_MOD, TX(), C(4)), C(1)), block256);
    assert_int_equal(r.verdict, DIVERGE_DIVERGENT);
    assert_true(near(r.efficiency, 0.625));
    /* its fix, threads regrouped so a warp shares a trip count */
    r = per_lane_loop(B(OP_ADD, B(OP_MOD, B(OP_DIV, TX(), C(32)), C(4)), C(1)), block256);
    assert_int_equal(r.verdict, DIVERGE_CONVERGENT);
    assert_true(near(r.efficiency, 1.0));
    /* a uniform bound: not even evaluated */
    r = per_lane_loop(N("n"), block256);
    assert_int_equal(r.verdict, DIVERGE_WARP_UNIFORM);
    /* a per-lane bound resting on an unknown cannot be counted */
    r = per_lane_loop(B(OP_MUL, B(OP_MOD, TX(), C(3)), N("n")), block256);
    assert_int_equal(r.verdict, DIVERGE_NOT_ANALYZED);
    assert_non_null(strstr(r.reason, "'n'"));
}

static void test_grid_stride(void **state)
{
    (void)state;
    /* for (i = idx; i < n; i += blockDim.x * gridDim.x) */
    branch_site b = {0};
    b.kind = BRANCH_LOOP;
    b.n_loops = 1;
    b.loops[0] = loop(
        "i", IDX(), B(OP_LT, N("i"), N("n")),
        B(OP_ADD, N("i"), B(OP_MUL, expr_builtin_sym(SYM_BDIM_X), expr_builtin_sym(SYM_GDIM_X))));
    diverge_result r;
    diverge_analyze(&b, block256, NULL, &r);
    assert_int_equal(r.verdict, DIVERGE_BOUNDS_CHECK);
    free_site(&b);
}

static void test_reductions(void **state)
{
    (void)state;
    /* neighbored: for (s = 1; s < blockDim.x; s *= 2) if (tid % (2 * s) == 0) */
    branch_site b = {0};
    b.kind = BRANCH_IF;
    b.n_loops = 1;
    b.loops[0] =
        loop("s", C(1), B(OP_LT, N("s"), expr_builtin_sym(SYM_BDIM_X)), B(OP_MUL, N("s"), C(2)));
    b.cond = B(OP_EQ, B(OP_MOD, TX(), B(OP_MUL, C(2), N("s"))), C(0));
    diverge_result r;
    assert_true(diverge_analyze(&b, block256, NULL, &r));
    assert_int_equal(r.verdict, DIVERGE_DIVERGENT);
    /* taken lanes: 8 warps x (16 + 8 + 4 + 2 + 1), then 4 + 2 + 1 single lanes */
    assert_int_equal(r.region_runs, 47);
    assert_true(near(r.efficiency, 255.0 / (32 * 47)));
    assert_int_equal(r.divergent_visits, 47);
    /* the same lanes fit in 4 + 2 + 1 + 1 + 1 + 1 + 1 + 1 = 12 warp runs */
    assert_int_equal(r.taken_runs, 47);
    assert_int_equal(r.taken_ideal_runs, 12);
    assert_true(r.flagged);
    free_site(&b);

    /* interleaved: for (s = blockDim.x / 2; s > 0; s >>= 1) if (tid < s) */
    memset(&b, 0, sizeof b);
    b.kind = BRANCH_IF;
    b.n_loops = 1;
    b.loops[0] = loop("s", B(OP_DIV, expr_builtin_sym(SYM_BDIM_X), C(2)), B(OP_GT, N("s"), C(0)),
                      B(OP_SHR, N("s"), C(1)));
    b.cond = B(OP_LT, TX(), N("s"));
    assert_true(diverge_analyze(&b, block256, NULL, &r));
    /* only the last five steps (s = 16 .. 1) split a warp, and there the
     * work is below one warp: no mapping runs fewer warps, so not flagged */
    assert_int_equal(r.verdict, DIVERGE_UNAVOIDABLE);
    assert_false(r.flagged);
    assert_int_equal(r.taken_runs, r.taken_ideal_runs);
    assert_int_equal(r.divergent_visits, 5);
    assert_int_equal(r.region_runs, 12);
    assert_true(near(r.efficiency, 255.0 / (32 * 12)));
    free_site(&b);
}

static void test_switch_and_misc(void **state)
{
    (void)state;
    branch_site b = {0};
    b.kind = BRANCH_SWITCH;
    b.cond = B(OP_MOD, TX(), C(4));
    diverge_result r;
    assert_true(diverge_analyze(&b, block256, NULL, &r));
    assert_int_equal(r.verdict, DIVERGE_DIVERGENT);
    assert_true(near(r.efficiency, 0.25));
    free_site(&b);

    memset(&b, 0, sizeof b);
    b.why_not = (char *)"condition calls a function";
    assert_false(diverge_analyze(&b, block256, NULL, &r));
    assert_int_equal(r.verdict, DIVERGE_NOT_ANALYZED);
    assert_string_equal(r.reason, "condition calls a function");
    assert_string_equal(diverge_verdict_name(DIVERGE_BOUNDS_CHECK), "bounds-check");

    /* a 40-thread block: not divergent, but warp 1 runs 8 of 32 lanes */
    const int64_t block40[3] = {40, 1, 1};
    r = branch(B(OP_GE, TX(), C(0)), block40);
    assert_int_equal(r.verdict, DIVERGE_CONVERGENT);
    assert_true(near(r.efficiency, 40.0 / 64));
}

static diverge_counts count_if(expr *cond, const int64_t block[3], const expr_env *env)
{
    branch_site b = {0};
    b.kind = BRANCH_IF;
    b.cond = cond;
    diverge_counts c;
    assert_true(diverge_count(&b, block, env, &c));
    expr_free(cond);
    return c;
}

/* The textbook counts (issue 10): warps entering and diverging, each warp's
 * efficiency, and loops' uniform and divergent iterations; checked by hand
 * and against the calculator's independent evaluation (analysis/warp/divcount). */
static void test_counts(void **state)
{
    (void)state;
    /* chapter 3's neighbored-less step: 2 * tid < blockDim.x with 128
     * threads: warps 0 and 1 take it whole, warps 2 and 3 skip it */
    const int64_t block128[3] = {128, 1, 1};
    diverge_counts c =
        count_if(B(OP_LT, B(OP_MUL, C(2), TX()), expr_builtin_sym(SYM_BDIM_X)), block128, NULL);
    assert_int_equal(c.warps, 4);
    assert_int_equal(c.warps_entering, 2);
    assert_int_equal(c.warps_divergent, 0);
    assert_true(near(c.warp_efficiency[0], 1.0) && near(c.warp_efficiency[1], 1.0));
    assert_true(c.warp_efficiency[2] < 0 && c.warp_efficiency[3] < 0);
    assert_true(c.exact);

    /* a bounds check is counted: i < 2000 in block 7 of 256 threads
     * (threads 1792..2047): 208 lanes, warps 0-5 whole, warp 6 half */
    expr_env env;
    expr_env_init(&env);
    expr_env_set(&env, "n", 2000);
    expr_env_set_builtin(&env, SYM_BID_X, 7);
    c = count_if(B(OP_LT, IDX(), N("n")), block256, &env);
    assert_int_equal(c.warps_entering, 7);
    assert_int_equal(c.warps_divergent, 1);
    assert_int_equal(c.lanes_on, 208);
    assert_int_equal(c.runs, 7);
    assert_true(near(c.warp_efficiency[6], 0.5));
    assert_true(c.warp_efficiency[7] < 0);

    /* the same condition through the calculator's own evaluator */
    const int64_t grid1[3] = {1, 1, 1};
    expr *cond = B(OP_LOR, B(OP_LT, TX(), C(40)), B(OP_GE, TX(), C(104)));
    branch_site b = {0};
    b.kind = BRANCH_IF;
    b.cond = cond;
    assert_true(diverge_count(&b, block128, NULL, &c));
    divcount d;
    char why[256];
    assert_true(divcount_branch(cond, block128, grid1, NULL, &d, why, sizeof why));
    assert_int_equal(c.warps_entering, d.taken.warps_entering);
    assert_int_equal(c.warps_divergent, d.warps_divergent);
    assert_int_equal(c.lanes_on, d.taken.lanes);
    assert_int_equal(c.warps_entering, 3); /* warp 2 (64-95) skips */
    assert_int_equal(c.warps_divergent, 2);
    for (int w = 0; w < 4; w++)
        assert_true(near(c.warp_efficiency[w], d.first_efficiency[w]));
    expr_free(cond);

    /* exercise 13.8 as a loop: (tid % 4) + 1 trips in a warp of 32:
     * 1 iteration all lanes run, 3 only some run, 80 / (32 x 4) */
    memset(&b, 0, sizeof b);
    b.kind = BRANCH_LOOP;
    b.n_loops = 1;
    b.loops[0] = loop("i", C(0), B(OP_LT, N("i"), B(OP_ADD, B(OP_MOD, TX(), C(4)), C(1))),
                      B(OP_ADD, N("i"), C(1)));
    b.cond = b.loops[0].cond;
    const int64_t block32[3] = {32, 1, 1};
    assert_true(diverge_count(&b, block32, NULL, &c));
    assert_int_equal(c.warps_entering, 1);
    assert_int_equal(c.warps_divergent, 1);
    assert_int_equal(c.iterations_uniform, 1);
    assert_int_equal(c.iterations_divergent, 3);
    assert_int_equal(c.lanes_on, 80);
    assert_int_equal(c.runs, 4);
    assert_true(near(c.warp_efficiency[0], 0.625));
    free_site(&b);

    /* a loop past the 4,096 iterations a lane walk follows: its runs come
     * from the trip count in closed form, whole (16,384 a warp, exact),
     * not stopped at the cap; a lane-dependent bound still gives each
     * warp its longest lane's trips: 10,000 + 31 */
    memset(&b, 0, sizeof b);
    b.kind = BRANCH_LOOP;
    b.n_loops = 1;
    b.loops[0] = loop("j", C(0), B(OP_LT, N("j"), C(16384)), B(OP_ADD, N("j"), C(1)));
    b.cond = b.loops[0].cond;
    assert_true(diverge_count(&b, block32, NULL, &c));
    assert_int_equal(c.runs, 16384);
    assert_int_equal(c.lanes_on, 16384 * 32);
    assert_true(c.exact);
    free_site(&b);
    memset(&b, 0, sizeof b);
    b.kind = BRANCH_LOOP;
    b.n_loops = 1;
    b.loops[0] =
        loop("j", C(0), B(OP_LT, N("j"), B(OP_ADD, C(10000), TX())), B(OP_ADD, N("j"), C(1)));
    b.cond = b.loops[0].cond;
    assert_true(diverge_count(&b, block32, NULL, &c));
    assert_int_equal(c.runs, 10031);
    assert_int_equal(c.warps_divergent, 1);
    free_site(&b);

    /* the neighbored reduction's if, over its loop: every warp enters and
     * diverges; 255 lanes over 47 warp runs as diverge_analyze counts */
    memset(&b, 0, sizeof b);
    b.kind = BRANCH_IF;
    b.n_loops = 1;
    b.loops[0] =
        loop("s", C(1), B(OP_LT, N("s"), expr_builtin_sym(SYM_BDIM_X)), B(OP_MUL, N("s"), C(2)));
    b.cond = B(OP_EQ, B(OP_MOD, TX(), B(OP_MUL, C(2), N("s"))), C(0));
    assert_true(diverge_count(&b, block256, NULL, &c));
    assert_int_equal(c.warps_entering, 8);
    assert_int_equal(c.warps_divergent, 8);
    assert_int_equal(c.lanes_on, 255);
    assert_int_equal(c.runs, 47);
    free_site(&b);

    /* an unknown value: no counts, and why */
    memset(&b, 0, sizeof b);
    b.kind = BRANCH_IF;
    b.cond = B(OP_LT, B(OP_MOD, TX(), C(4)), N("k"));
    assert_false(diverge_count(&b, block256, NULL, &c));
    assert_non_null(strstr(c.why, "'k'"));
    free_site(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odd_even),        cmocka_unit_test(test_warp_granular),
        cmocka_unit_test(test_bounds_check),    cmocka_unit_test(test_trip_counts),
        cmocka_unit_test(test_grid_stride),     cmocka_unit_test(test_reductions),
        cmocka_unit_test(test_switch_and_misc), cmocka_unit_test(test_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
