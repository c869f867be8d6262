/* warpmap: threads into warps, against the hardware rule worked by hand
 * (x fastest, 32 consecutive linear ids per warp): the chapter 3 seed's
 * 8- and 40-thread blocks, a 2-D block, and the refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/calc/warpmap.h"

static warpmap m;

static bool run(int64_t bx, int64_t by, int64_t gx)
{
    int64_t block[3] = {bx, by, 1}, grid[3] = {gx, 1, 1};
    char why[256];
    return warpmap_compute(block, grid, &m, why, sizeof why);
}

static void test_small_blocks(void **state)
{
    (void)state;
    /* 2 blocks of 8: a warp each, 8 of 32 lanes working: 16 of 64. */
    assert_true(run(8, 1, 2));
    assert_int_equal(m.warps_per_block, 1);
    assert_int_equal(m.warps_in_grid, 2);
    assert_int_equal(m.lanes_in_grid, 64);
    assert_float_equal(m.lane_use, 0.25, 1e-12);
    assert_int_equal(m.warps[0].lanes, 8);
    /* 2 blocks of 40: threads 0-31 and 32-39 per block, 4 warps, 80 of 128. */
    assert_true(run(40, 1, 2));
    assert_int_equal(m.warps_in_grid, 4);
    assert_int_equal(m.warps[1].first_linear, 32);
    assert_int_equal(m.warps[1].last_linear, 39);
    assert_int_equal(m.warps[1].lanes, 8);
    assert_float_equal(m.lane_use, 80.0 / 128.0, 1e-12);
    assert_false(m.rows_split);
}

static void test_two_dimensional(void **state)
{
    (void)state;
    /* 16x16: warp 1 holds rows 2 and 3, (0,2) .. (15,3). */
    assert_true(run(16, 16, 1));
    assert_int_equal(m.warps_per_block, 8);
    assert_int_equal(m.warps[1].first[0], 0);
    assert_int_equal(m.warps[1].first[1], 2);
    assert_int_equal(m.warps[1].last[0], 15);
    assert_int_equal(m.warps[1].last[1], 3);
    assert_true(m.rows_split);
    /* 32x8: one row per warp. */
    assert_true(run(32, 8, 1));
    assert_false(m.rows_split);
}

static void test_refusals(void **state)
{
    (void)state;
    assert_false(run(0, 1, 1));
    assert_false(run(2048, 1, 1));
    assert_false(run(64, 32, 1));
    assert_false(run(32, 1, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_blocks),
        cmocka_unit_test(test_two_dimensional),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
