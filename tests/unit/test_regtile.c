/* test_regtile: register tiling against worked numbers (the chapter 6
 * seed's 128 x 128 block tile in 8 x 8 thread tiles: 256 threads, 4 FMA per
 * shared load, not the 64 its comment gives), against a count of the
 * kernel's loop nest, and the A100 and H100 shared-memory bandwidths
 * (NVIDIA quotes 33 TB/s for the H100 SXM5's). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/calc/regtile.h"

static void test_worked(void **state)
{
    (void)state;
    regtile r;
    char why[160];
    assert_true(regtile_compute(4096, 4096, 4096, 128, 8, 8, 4, 108, 1410, &r, why, sizeof why));
    assert_int_equal(r.threads_per_block, 256);
    assert_int_equal(r.outputs_per_thread, 64);
    assert_true(r.fma_per_load == 4);
    assert_true(r.gain == 8);
    /* 4096^3 x 16 / 64 loads of 4 bytes */
    assert_true(r.smem_loads == 17179869184.0);
    assert_true(r.smem_bytes == 68719476736.0);
    assert_true(r.smem_ai == 2);
    assert_true(r.smem_ai_untiled == 0.25);
    assert_int_equal(r.registers_min, 80);
    /* 108 SMs x 128 B x 1.41 GHz = 19.49 TB/s; 2 FLOP/B -> 38.98 TFLOP/s */
    assert_true(fabs(r.smem_bandwidth - 19491840e6) < 1);
    assert_true(fabs(r.smem_ceiling - 38983680e6) < 1);
    assert_true(fabs(r.smem_ceiling_untiled - 4872960e6) < 1);
    /* H100 SXM5: 132 SMs x 128 B x 1.98 GHz = 33.45 TB/s */
    assert_true(regtile_compute(64, 64, 64, 64, 4, 4, 4, 132, 1980, &r, why, sizeof why));
    assert_true(fabs(r.smem_bandwidth - 33454080e6) < 1);
    /* doubles take two registers each: (4 + 2 + 2) x 2 */
    assert_true(regtile_compute(64, 64, 64, 64, 2, 2, 8, 0, 0, &r, why, sizeof why));
    assert_int_equal(r.registers_min, 16);
    assert_true(r.smem_ai == 0.25 && r.fma_per_load == 1);
    assert_true(r.smem_bandwidth == 0 && r.smem_ceiling == 0);
}

/* The kernel's loop nest, walked: every block, every thread, every k loads
 * its TM values of A and TN of B. */
static double walk_loads(int m, int n, int k, int t, int tm, int tn)
{
    double loads = 0;
    for (int by = 0; by < m / t; by++)
        for (int bx = 0; bx < n / t; bx++)
            for (int thread = 0; thread < (t / tm) * (t / tn); thread++)
                for (int kk = 0; kk < k; kk++)
                    loads += tm + tn;
    return loads;
}

static void test_against_loop_nest(void **state)
{
    (void)state;
    static const int cases[][6] = {{32, 64, 24, 16, 2, 4},
                                   {48, 48, 5, 16, 4, 4},
                                   {64, 32, 7, 32, 8, 2},
                                   {16, 16, 3, 16, 1, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int *c = cases[i];
        regtile r;
        char why[160];
        assert_true(
            regtile_compute(c[0], c[1], c[2], c[3], c[4], c[5], 4, 0, 0, &r, why, sizeof why));
        assert_true(r.smem_loads == walk_loads(c[0], c[1], c[2], c[3], c[4], c[5]));
        assert_int_equal(r.threads_per_block, (c[3] / c[4]) * (c[3] / c[5]));
    }
}

static void test_refused(void **state)
{
    (void)state;
    regtile r;
    char why[160];
    assert_false(regtile_compute(64, 64, 64, 64, 3, 4, 4, 0, 0, &r, why, sizeof why));
    assert_non_null(strstr(why, "must divide"));
    /* 64 / 1 x 64 / 2 = 2048 threads */
    assert_false(regtile_compute(64, 64, 64, 64, 1, 2, 4, 0, 0, &r, why, sizeof why));
    assert_non_null(strstr(why, "2048 threads"));
    assert_false(regtile_compute(0, 64, 64, 64, 4, 4, 4, 0, 0, &r, why, sizeof why));
    assert_false(regtile_compute(64, 64, 64, 64, 0, 4, 4, 0, 0, &r, why, sizeof why));
    assert_false(regtile_compute(64, 64, INFINITY, 64, 4, 4, 4, 0, 0, &r, why, sizeof why));
    assert_false(regtile_compute(64, 64, NAN, 64, 4, 4, 4, 0, 0, &r, why, sizeof why));
}

/* The tile's own bank conflicts, worked by hand from the bank rule (bank =
 * word mod 32): a 128 x 128 tile with 8 x 8 thread tiles has 16 x 16
 * threads, so a warp is two ty rows of 16 tx. Bs[k][tx*8 + j] puts its 16
 * distinct words 8 apart: banks 0, 8, 16, 24, four words each, 4
 * wavefronts; As[k][ty*8 + i] has two words (one per ty), in different
 * banks: 1. Shared time per k: (8 x 1 + 8 x 4) / 16 = 2.5x. A 32 x 32 tile
 * with 4 x 1 thread tiles (a warp is one ty row of 32 tx) reads 32
 * consecutive words of B and one word of A: no conflict. */
static void test_tile_conflicts(void **state)
{
    (void)state;
    regtile r;
    char why[160];
    assert_true(regtile_compute(4096, 4096, 4096, 128, 8, 8, 4, 108, 1410, &r, why, sizeof why));
    assert_float_equal(r.a_conflict, 1.0, 1e-12);
    assert_float_equal(r.b_conflict, 4.0, 1e-12);
    assert_float_equal(r.conflict_slowdown, 2.5, 1e-12);
    assert_float_equal(r.smem_ceiling_banked, r.smem_ceiling / 2.5, 1e-3);
    assert_true(regtile_compute(4096, 4096, 4096, 32, 4, 1, 4, 0, 0, &r, why, sizeof why));
    assert_float_equal(r.a_conflict, 1.0, 1e-12);
    assert_float_equal(r.b_conflict, 1.0, 1e-12);
    assert_float_equal(r.conflict_slowdown, 1.0, 1e-12);
    assert_true(r.smem_ceiling_banked == 0); /* no SM count: no ceiling */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked),
        cmocka_unit_test(test_tile_conflicts),
        cmocka_unit_test(test_against_loop_nest),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
