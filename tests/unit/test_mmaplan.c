/* mmaplan: fragment tiling and the roofline of a Tensor Core GEMM, against
 * exercise 13.7 (512 x 512 x 2048 in m16n8k16: 32, 64 and 128 fragments,
 * exact) and a padded case worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/calc/mmaplan.h"

static void test_exercise_13_7(void **state)
{
    (void)state;
    mma_shape s;
    assert_true(mmaplan_shape("m16n8k16", &s));
    mmaplan r;
    assert_true(
        mmaplan_compute((int64_t[3]){512, 512, 2048}, &s, 2, 2, 312e12, 2.039e12, 200e12, &r));
    assert_int_equal(r.frags[0], 32);
    assert_int_equal(r.frags[1], 64);
    assert_int_equal(r.frags[2], 128);
    assert_float_equal(r.util_total, 1.0, 1e-12);
    assert_float_equal(r.flops, 2.0 * 512 * 512 * 2048, 1);
    assert_float_equal(r.bytes, 2.0 * (512 * 2048 + 2048 * 512 + 512 * 512), 1e-6);
    assert_float_equal(r.ai, 1073741824.0 / 4718592.0, 1e-9);
    assert_false(r.memory_bound);
    /* bytes / (FLOPs / peak) */
    assert_float_equal(r.bandwidth_needed, 4718592.0 / (1073741824.0 / 312e12), 1e3);
    assert_float_equal(r.of_peak, 200.0 / 312.0, 1e-12);
}

static void test_padding_and_memory_bound(void **state)
{
    (void)state;
    mma_shape s;
    assert_true(mmaplan_shape("m16n8k16", &s));
    mmaplan r;
    /* 1000 = 62.5 fragments of 16: 63, 1008 wide, 1000/1008 used. */
    assert_true(mmaplan_compute((int64_t[3]){1000, 1000, 1000}, &s, 2, 2, 1e15, 3e12, 0, &r));
    assert_int_equal(r.frags[0], 63);
    assert_int_equal(r.frags[1], 125);
    assert_float_equal(r.util[0], 1000.0 / 1008.0, 1e-12);
    assert_float_equal(r.util[1], 1.0, 1e-12);
    assert_float_equal(r.util_total, (1000.0 / 1008.0) * (1000.0 / 1008.0), 1e-12);
    assert_float_equal(r.effective_peak, 1e15 * r.util_total, 1);
    /* A skinny GEMM: M = 16 rows against a 4096 x 4096 B is memory-bound. */
    assert_true(mmaplan_compute((int64_t[3]){16, 4096, 4096}, &s, 2, 2, 1e15, 3e12, 0, &r));
    assert_true(r.memory_bound);
    assert_float_equal(r.attainable, r.ai * 3e12, 1);
    assert_false(mmaplan_compute((int64_t[3]){0, 1, 1}, &s, 2, 2, 1e15, 3e12, 0, &r));
    assert_false(mmaplan_shape("m16n9k16", &s));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exercise_13_7),
        cmocka_unit_test(test_padding_and_memory_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
