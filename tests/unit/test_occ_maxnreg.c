/* test_occ_maxnreg: the register pool of a warp-specialised block against
 * the H200's outcomes (tests/data/maxnregprobe: a ping-pong block of three
 * warpgroups at 168 fits one at 40 and two at 232, not two at 240), the
 * 8-register unit of the reservation, and the counts setmaxnreg refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/occupancy/occ_maxnreg.h"

static occ_maxnreg run(int regs, int threads, int raise, int lower)
{
    gpu_arch a = {.warp_size = 32, .reg_alloc_unit = 256};
    int r[1] = {raise}, l[1] = {lower};
    occ_maxnreg m;
    occ_maxnreg_compute(&a, &(occ_maxnreg_in){regs, threads, r, l, raise ? 1 : 0, lower ? 1 : 0},
                        &m);
    return m;
}

static void test_pool(void **state)
{
    (void)state;
    occ_maxnreg m = run(168, 384, 232, 40);
    assert_int_equal(m.warpgroups, 3);
    assert_int_equal(m.most_raised, 2); /* 40 + 2 x 232 = 504 = 3 x 168 */
    assert_int_equal(run(168, 384, 240, 40).most_raised, 1);
    assert_int_equal(run(168, 384, 232, 0).most_raised, 0); /* nothing lowers */
    assert_int_equal(run(128, 512, 160, 24).most_raised, 3);
    assert_int_equal(run(128, 512, 168, 24).most_raised, 2);
    /* a raise to no more than the launch gave is always granted */
    assert_int_equal(run(168, 384, 168, 0).most_raised, 3);
}

static void test_units_and_refusals(void **state)
{
    (void)state;
    /* ptxas's 163 is reserved as 168: registers go to a warp 256 at a time */
    assert_int_equal(run(163, 384, 232, 40).reserved, 168);
    assert_int_equal(run(168, 384, 250, 40).bad_count, 250);
    assert_int_equal(run(168, 384, 232, 16).bad_count, 16);
    assert_int_equal(run(168, 384, 264, 40).bad_count, 264);
    /* a block that is not whole warpgroups has no count */
    occ_maxnreg m = run(168, 320, 232, 40);
    assert_int_equal(m.warpgroups, 0);
    assert_int_equal(m.most_raised, -1);
    /* an operand that is not an immediate: not known */
    assert_int_equal(run(168, 384, -1, 40).most_raised, -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool),
        cmocka_unit_test(test_units_and_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
