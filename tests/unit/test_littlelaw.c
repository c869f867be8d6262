/* test_littlelaw: Little's law against worked numbers: the chapter 3
 * seed's 5 cycles x 6 warps per cycle = 30 warps, Fermi's 20 cycles x 32
 * FMAs per cycle = 640 in flight = 20 warps, a DRAM case in bytes, whole
 * warps rounded up, and refused inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/calc/littlelaw.h"

static void test_worked(void **state)
{
    (void)state;
    littlelaw r;
    char why[128];
    assert_true(littlelaw_solve(5, 6, 1, &r, why, sizeof why));
    assert_true(r.in_flight == 30 && r.warps == 30);
    assert_int_equal(r.warps_whole, 30);
    assert_true(littlelaw_solve(20, 32, 32, &r, why, sizeof why));
    assert_true(r.in_flight == 640);
    assert_int_equal(r.warps_whole, 20);
    /* 800 cycles x 92 B/cycle in 128-byte warp requests: 73,600 B, 575 warps */
    assert_true(littlelaw_solve(800, 92, 128, &r, why, sizeof why));
    assert_true(r.in_flight == 73600);
    assert_int_equal(r.warps_whole, 575);
    /* 10.5 warps are 11 whole ones; 0.1 x 30 = 3.0000000000000004 stays 3 */
    assert_true(littlelaw_solve(7, 1.5, 1, &r, why, sizeof why));
    assert_int_equal(r.warps_whole, 11);
    assert_true(littlelaw_solve(0.1, 30, 1, &r, why, sizeof why));
    assert_int_equal(r.warps_whole, 3);
}

static void test_refused(void **state)
{
    (void)state;
    littlelaw r;
    char why[128];
    assert_false(littlelaw_solve(0, 6, 1, &r, why, sizeof why));
    assert_string_equal(why, "latency must be a positive number");
    assert_false(littlelaw_solve(5, -1, 1, &r, why, sizeof why));
    assert_string_equal(why, "throughput must be a positive number");
    assert_false(littlelaw_solve(5, 6, 0, &r, why, sizeof why));
    assert_false(littlelaw_solve(1e9, 1e9, 1, &r, why, sizeof why));
    assert_non_null(strstr(why, "10^12"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
