/* divcount: the divergence counts of the textbook calculator, against
 * answers worked by hand from the warp rule (a path costs one execution per
 * warp with a lane on it): exercise 13.8's loop, a two-range condition over
 * a grid, partial warps, a block-dependent condition, a warp-aligned one,
 * and the refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/warp/divcount.h"
#include "analysis/symbolic/cexpr.h"

static divcount r;

static bool run(bool loop, const char *text, int64_t bx, int64_t gx)
{
    cexpr_error err;
    expr *e = cexpr_parse(text, false, &err);
    assert_non_null(e);
    int64_t block[3] = {bx, 1, 1}, grid[3] = {gx, 1, 1};
    char why[256];
    bool ok = loop ? divcount_loop(e, block, grid, NULL, &r, why, sizeof why)
                   : divcount_branch(e, block, grid, NULL, &r, why, sizeof why);
    expr_free(e);
    return ok;
}

static void test_exercise_13_8(void **state)
{
    (void)state;
    assert_true(run(true, "(threadIdx.x % 4) + 1", 32, 1));
    /* 8 lanes each of 1..4 trips: 80 lane-iterations in 4 warp iterations. */
    assert_int_equal(r.lane_trips_sum, 80);
    assert_int_equal(r.warp_trips_sum, 4);
    assert_float_equal(r.taken.simd_efficiency, 0.625, 1e-12);
    assert_int_equal(r.iterations_uniform, 1);
    assert_int_equal(r.iterations_divergent, 3);
    assert_int_equal(r.warps_divergent, 1);
    /* One warp cannot be regrouped; 4 warps of 32 equal counts can. */
    assert_float_equal(r.regrouped_efficiency, 0.625, 1e-12);
    assert_int_equal(r.regroup_full_block, 128);
    assert_true(run(true, "(threadIdx.x % 4) + 1", 128, 1));
    assert_float_equal(r.regrouped_efficiency, 1.0, 1e-12);
    /* Trips that grow with the lane never regroup to 100%. */
    assert_true(run(true, "threadIdx.x", 64, 1));
    assert_int_equal(r.regroup_full_block, 0);
    assert_int_equal(r.min_trips, 0);
}

/* PMPP exercise 4.1e: 8 blocks of 128 threads, trips 5 - i % 3 with i the
 * global index. Every 32 consecutive i take each remainder: each warp's
 * lanes run 3, 4 or 5 times, so 3 iterations are uniform and 2 divergent in
 * every one of the 32 warps (the book's 3 and 2); 96 and 64 over the grid. */
static void test_pmpp_4_1e_per_warp(void **state)
{
    (void)state;
    assert_true(run(true, "5 - (blockIdx.x * blockDim.x + threadIdx.x) % 3", 128, 8));
    assert_int_equal(r.iterations_uniform, 96);
    assert_int_equal(r.iterations_divergent, 64);
    assert_true(divcount_classes_agree(&r.per_warp));
    assert_int_equal(r.per_warp.c[0].uniform, 3);
    assert_int_equal(r.per_warp.c[0].divergent, 2);
    assert_int_equal(r.per_warp.c[0].warps, 32);
}

/* Warps that differ: trips threadIdx.x % 40 in blocks of 64, 2 blocks. Warp
 * 0 holds trips 0..31 (0 uniform, 31 divergent), warp 1 trips 32..39 and
 * 0..23 (0 and 39); each pair in 2 warps of the grid, first in block 0. A
 * condition that reads no block index is counted on block 0 and scaled. */
static void test_per_warp_classes_differ(void **state)
{
    (void)state;
    assert_true(run(true, "threadIdx.x % 40", 64, 2));
    assert_false(divcount_classes_agree(&r.per_warp));
    assert_int_equal(r.per_warp.n, 2);
    assert_int_equal(r.per_warp.c[0].uniform, 0);
    assert_int_equal(r.per_warp.c[0].divergent, 31);
    assert_int_equal(r.per_warp.c[0].warps, 2);
    assert_int_equal(r.per_warp.c[0].warp, 0);
    assert_int_equal(r.per_warp.c[1].divergent, 39);
    assert_int_equal(r.per_warp.c[1].warps, 2);
    assert_int_equal(r.per_warp.c[1].warp, 1);
    /* More distinct pairs than are kept: said, not dropped silently. */
    assert_true(run(true, "threadIdx.x / 32 * 2 + threadIdx.x % 2", 256, 1));
    assert_int_equal(r.per_warp.n, DIVCOUNT_MAX_CLASSES);
    assert_true(r.per_warp.more);
}

static void test_two_ranges_over_a_grid(void **state)
{
    (void)state;
    assert_true(run(false, "threadIdx.x < 40 || threadIdx.x >= 104", 128, 8));
    assert_int_equal(r.warps_in_grid, 32);
    /* Per block: warp 0 all 32, warp 1 lanes 32-39, warp 2 none, warp 3 lanes 104-127. */
    assert_int_equal(r.first_taken[0], 32);
    assert_int_equal(r.first_taken[1], 8);
    assert_int_equal(r.first_taken[2], -1);
    assert_int_equal(r.first_taken[3], 24);
    assert_float_equal(r.first_efficiency[1], 0.25, 1e-12);
    assert_true(r.first_efficiency[2] < 0);
    assert_int_equal(r.taken.warps_entering, 24);
    assert_int_equal(r.warps_divergent, 16);
    assert_float_equal(r.taken.simd_efficiency, 64.0 / 96.0, 1e-12);
    /* The else-path: 24 + 32 + 8 lanes in warps 1, 2, 3. */
    assert_int_equal(r.other.warps_entering, 24);
    assert_float_equal(r.other.simd_efficiency, 64.0 / 96.0, 1e-12);
    assert_false(r.every_block);
}

static void test_partial_and_aligned_warps(void **state)
{
    (void)state;
    /* A block of 40: the second warp has 8 lanes; all take the path, which
     * is not divergence, yet it uses 8 of 32 lanes. */
    assert_true(run(false, "1", 40, 1));
    assert_int_equal(r.warps_per_block, 2);
    assert_int_equal(r.warps_divergent, 0);
    assert_float_equal(r.first_efficiency[1], 0.25, 1e-12);
    assert_float_equal(r.taken.simd_efficiency, 40.0 / 64.0, 1e-12);
    /* Even/odd lanes: every warp runs both halves at 50%. */
    assert_true(run(false, "(blockIdx.x * blockDim.x + threadIdx.x) % 2 == 0", 64, 4));
    assert_int_equal(r.warps_divergent, 8);
    assert_float_equal(r.taken.simd_efficiency, 0.5, 1e-12);
    assert_true(r.every_block);
    /* Even/odd warps: no warp diverges. */
    assert_true(run(false, "(threadIdx.x / warpSize) % 2 == 0", 64, 4));
    assert_int_equal(r.warps_divergent, 0);
    assert_int_equal(r.taken.warps_entering, 4);
    assert_float_equal(r.taken.simd_efficiency, 1.0, 1e-12);
}

static void test_block_dependent(void **state)
{
    (void)state;
    assert_true(run(false, "blockIdx.x % 2 == 0", 64, 3));
    assert_true(r.every_block);
    assert_int_equal(r.taken.warps_entering, 4); /* blocks 0 and 2 */
    assert_int_equal(r.other.warps_entering, 2);
    assert_int_equal(r.warps_divergent, 0);
}

static void test_refusals(void **state)
{
    (void)state;
    assert_false(run(false, "threadIdx.x / (threadIdx.x - 3)", 32, 1));
    assert_false(run(false, "1", 1025, 1));
    /* Every block of a huge grid would have to be evaluated. */
    assert_false(run(false, "blockIdx.x < 5", 1024, 1 << 20));
    /* ...but a block-independent condition scales from block 0. */
    assert_true(run(false, "threadIdx.x < 5", 1024, 1 << 20));
    assert_int_equal(r.warps_in_grid, (int64_t)32 << 20);
    assert_int_equal(r.warps_divergent, (int64_t)1 << 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exercise_13_8),
        cmocka_unit_test(test_pmpp_4_1e_per_warp),
        cmocka_unit_test(test_per_warp_classes_differ),
        cmocka_unit_test(test_two_ranges_over_a_grid),
        cmocka_unit_test(test_partial_and_aligned_warps),
        cmocka_unit_test(test_block_dependent),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
