/* mixprec: Amdahl's law for mixed precision, against exercise 13.5's worked
 * answer (1.875x, 75% for 2x) and numbers derived by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/calc/mixprec.h"

static void test_speedup(void **state)
{
    (void)state;
    char why[128];
    double s;
    mixprec_part ex[] = {{0.7, 3}, {0.2, 1}, {0.1, 1}};
    assert_true(mixprec_speedup(ex, 3, &s, why, sizeof why));
    assert_float_equal(s, 1.875, 1e-12);
    /* Everything at 4x is 4x; half at 4x is 1 / (0.125 + 0.5) = 1.6x. */
    mixprec_part all[] = {{1, 4}};
    assert_true(mixprec_speedup(all, 1, &s, why, sizeof why));
    assert_float_equal(s, 4, 1e-12);
    mixprec_part half[] = {{0.5, 4}, {0.5, 1}};
    assert_true(mixprec_speedup(half, 2, &s, why, sizeof why));
    assert_float_equal(s, 1.6, 1e-12);
    mixprec_part short_sum[] = {{0.5, 4}, {0.4, 1}};
    assert_false(mixprec_speedup(short_sum, 2, &s, why, sizeof why));
    mixprec_part zero_rate[] = {{0.5, 0}, {0.5, 1}};
    assert_false(mixprec_speedup(zero_rate, 2, &s, why, sizeof why));
}

static void test_fraction_for(void **state)
{
    (void)state;
    double x;
    assert_true(mixprec_fraction_for(2, 3, &x));
    assert_float_equal(x, 0.75, 1e-12);
    /* 1.6x at 4x is half the time (the case above, backwards). */
    assert_true(mixprec_fraction_for(1.6, 4, &x));
    assert_float_equal(x, 0.5, 1e-12);
    assert_true(mixprec_fraction_for(3, 3, &x)); /* all of it */
    assert_float_equal(x, 1, 1e-12);
    assert_false(mixprec_fraction_for(5, 3, &x));
    assert_false(mixprec_fraction_for(0, 3, &x));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_speedup),
        cmocka_unit_test(test_fraction_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
