/* launchplan: grids, idle threads, waves and sectors of block shapes,
 * against numbers worked by hand (exercise 13.6's 1000x1000 matrix, which
 * the book gets wrong: 4.6%, 1.6% and 2.3% idle, not 24%, 0.8% and none),
 * on the bundled sm_80 model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/calc/launchplan.h"
#include "model/model_load.h"

static model_db db;
static const gpu_arch *sm80;

static int setup(void **state)
{
    (void)state;
    model_load_error err;
    if (!model_db_load(model_default_dir(), &db, &err))
        return -1;
    sm80 = model_find_arch(&db, "sm_80");
    return sm80 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    model_db_free(&db);
    return 0;
}

static launchplan_candidate eval(int64_t w, int64_t h, int64_t bx, int64_t by, int sms)
{
    launchplan_problem p = {.extent = {w, h, 1}, .elem_size = 4, .sm_count = sms};
    launchplan_candidate c;
    char why[128];
    assert_true(launchplan_evaluate(sm80, &p, (int64_t[3]){bx, by, 1}, &c, why, sizeof why));
    return c;
}

static void test_exercise_13_6_idle(void **state)
{
    (void)state;
    launchplan_candidate c = eval(1000, 1000, 32, 32, 108);
    assert_int_equal(c.grid[0], 32);
    assert_int_equal(c.idle_threads, 1024 * 1024 - 1000000);
    assert_float_equal(c.idle_fraction, 48576.0 / 1048576.0, 1e-12);
    /* 2 blocks of 1024 threads per SM (2048 threads), 108 SMs: 1024 blocks
     * in 216 slots = 4.74 waves, the fifth 160/216 full. */
    assert_int_equal(c.occ.blocks_per_sm, 2);
    assert_float_equal(c.waves, 1024.0 / 216.0, 1e-12);
    assert_int_equal(c.full_waves, 5);
    assert_float_equal(c.tail_fill, (1024.0 - 4 * 216) / 216.0, 1e-12);
    c = eval(1000, 1000, 16, 16, 108);
    assert_int_equal(c.grid[0], 63);
    assert_int_equal(c.idle_threads, 1008 * 1008 - 1000000);
    c = eval(1000, 1000, 256, 1, 108);
    assert_int_equal(c.grid[0], 4);
    assert_int_equal(c.grid[1], 1000);
    assert_int_equal(c.idle_threads, 24000);
}

static void test_sectors(void **state)
{
    (void)state;
    /* 32 floats of one row: 128 bytes, 4 sectors, one row. */
    launchplan_candidate c = eval(1000, 1000, 32, 8, 0);
    assert_true(c.coalesced);
    assert_float_equal(c.sectors, 4.0, 1e-12);
    assert_int_equal(c.rows_per_warp, 1);
    assert_true(c.waves < 0);
    /* 16 per row: two rows of 64 bytes, still whole sectors. */
    c = eval(1000, 1000, 16, 16, 0);
    assert_true(c.coalesced);
    assert_int_equal(c.rows_per_warp, 2);
    /* 4 per row: 8 rows of 16 bytes, 8 sectors for 128 bytes. */
    c = eval(1000, 1000, 4, 64, 0);
    assert_false(c.coalesced);
    assert_float_equal(c.sectors, 8.0, 1e-12);
    assert_float_equal(c.ideal_sectors, 4.0, 1e-12);
    /* Rows of 1001 floats start off the 32-byte grid: a warp of 32 then
     * straddles 5 sectors somewhere in the block. */
    c = eval(1001, 64, 32, 8, 0);
    assert_false(c.coalesced);
}

static void test_compare_and_search(void **state)
{
    (void)state;
    launchplan_candidate a = eval(1000, 1000, 256, 1, 108), b = eval(1000, 1000, 16, 16, 108);
    /* Same occupancy; one row per warp beats two. */
    assert_true(launchplan_compare(&a, &b) > 0);
    assert_true(launchplan_compare(&b, &a) < 0);
    launchplan_problem p = {.extent = {4096, 4096, 1}, .elem_size = 4, .sm_count = 108};
    launchplan_candidate best;
    assert_true(launchplan_search(sm80, &p, &best));
    /* 4096 is a multiple of every power-of-two width: nothing idle. */
    assert_int_equal(best.idle_threads, 0);
    assert_true(best.coalesced);
    assert_int_equal(best.rows_per_warp, 1);
    assert_float_equal(best.occ.occupancy, 1.0, 1e-12);
    /* A block too large for the arch is refused. */
    launchplan_candidate c;
    char why[128];
    assert_false(launchplan_evaluate(sm80, &p, (int64_t[3]){64, 32, 1}, &c, why, sizeof why));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exercise_13_6_idle),
        cmocka_unit_test(test_sectors),
        cmocka_unit_test(test_compare_and_search),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
