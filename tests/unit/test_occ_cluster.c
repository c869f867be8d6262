/* test_occ_cluster: the cluster count against the H200's own answers at one
 * block an SM (tests/data/clusterprobe/README.md: 132, 66, 39, 30, 22, 17,
 * 15, 15, 9, then 7 for sizes 10 to 16), the cluster launch's cap of 8 blocks
 * an SM, and each refusal the runtime gives. The whole recorded sweep is
 * tests/cluster_truth.py's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/occupancy/occ_cluster.h"

static const int H200_GPCS[] = {18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2};

static gpu_arch hopper(void)
{
    gpu_arch a = {.cc_major = 9,
                  .cluster_max_portable = 8,
                  .cluster_max_nonportable = 16,
                  .cluster_blocks_per_sm = 8};
    return a;
}

static occ_cluster_result run(const gpu_arch *a, int blocks_per_sm, int size, bool optin)
{
    occ_result occ = {.failure = OCC_OK, .blocks_per_sm = blocks_per_sm};
    occ_cluster_launch l = {.dims = {size, 1, 1}, .nonportable = optin};
    occ_cluster_result r;
    occ_cluster_compute(a, H200_GPCS, 12, &occ, &l, &r);
    return r;
}

static void test_one_block_per_sm(void **state)
{
    (void)state;
    gpu_arch a = hopper();
    static const int64_t want[17] = {0, 132, 66, 39, 30, 22, 17, 15, 15, 9, 7, 7, 7, 7, 7, 7, 7};
    for (int c = 1; c <= 16; c++) {
        occ_cluster_result r = run(&a, 1, c, true);
        assert_int_equal(r.failure, OCC_CLUSTER_OK);
        assert_int_equal(r.clusters, want[c]);
    }
    occ_cluster_result r = run(&a, 1, 16, true);
    assert_int_equal(r.sms_used, 116); /* the seven GPCs of 16 and 18 SMs */
    assert_int_equal(r.largest_nonportable, 16);
}

static void test_cap(void **state)
{
    (void)state;
    gpu_arch a = hopper();
    /* 128-thread blocks: 16 an SM by occupancy, 8 under a cluster launch
     * (1,056 clusters of one block, 58 of sixteen: what ran) */
    occ_cluster_result r = run(&a, 16, 1, false);
    assert_true(r.capped);
    assert_int_equal(r.blocks_per_sm, 8);
    assert_int_equal(r.clusters, 1056);
    r = run(&a, 16, 16, true);
    assert_int_equal(r.clusters, 58);
    assert_int_equal(r.slots_idle, 132 * 8 - 58 * 16);
}

static void test_refusals(void **state)
{
    (void)state;
    gpu_arch a = hopper();
    assert_int_equal(run(&a, 1, 9, false).failure, OCC_CLUSTER_NEEDS_OPTIN);
    assert_int_equal(run(&a, 1, 17, true).failure, OCC_CLUSTER_TOO_LARGE);
    assert_int_equal(run(&a, 0, 2, false).failure, OCC_CLUSTER_BLOCK);
    occ_result occ = {.blocks_per_sm = 4};
    occ_cluster_launch l = {.dims = {2, 1, 1}, .grid = {3, 1, 1}};
    occ_cluster_result r;
    assert_false(occ_cluster_compute(&a, H200_GPCS, 12, &occ, &l, &r));
    assert_int_equal(r.failure, OCC_CLUSTER_GRID);
    l = (occ_cluster_launch){.dims = {0, 1, 1}};
    assert_false(occ_cluster_compute(&a, H200_GPCS, 12, &occ, &l, &r));
    assert_int_equal(r.failure, OCC_CLUSTER_BAD_SHAPE);
    /* a product of dimensions past int stays refused, not wrapped */
    l = (occ_cluster_launch){.dims = {65536, 65536, 2}, .nonportable = true};
    assert_false(occ_cluster_compute(&a, H200_GPCS, 12, &occ, &l, &r));
    assert_int_equal(r.failure, OCC_CLUSTER_TOO_LARGE);
    gpu_arch ampere = {.cc_major = 8};
    l = (occ_cluster_launch){.dims = {2, 1, 1}};
    assert_false(occ_cluster_compute(&ampere, H200_GPCS, 12, &occ, &l, &r));
    assert_int_equal(r.failure, OCC_CLUSTER_UNSUPPORTED);
    gpu_arch blackwell = {.cc_major = 10};
    assert_false(occ_cluster_compute(&blackwell, H200_GPCS, 12, &occ, &l, &r));
    assert_int_equal(r.failure, OCC_CLUSTER_UNMEASURED);
}

static void test_no_layout(void **state)
{
    (void)state;
    gpu_arch a = hopper();
    occ_result occ = {.blocks_per_sm = 2};
    occ_cluster_launch l = {.dims = {4, 1, 1}};
    occ_cluster_result r;
    assert_false(occ_cluster_compute(&a, NULL, 0, &occ, &l, &r));
    assert_int_equal(r.failure, OCC_CLUSTER_NO_LAYOUT);
    assert_int_equal(r.blocks_per_sm, 2);
    assert_int_equal(r.largest_portable, 8);
    /* a hypothetical GPU of GPCs of 4 SMs holds no cluster of 8 */
    static const int small[] = {4, 4};
    assert_false(
        occ_cluster_compute(&a, small, 2, &occ, &(occ_cluster_launch){.dims = {8, 1, 1}}, &r));
    assert_int_equal(r.failure, OCC_CLUSTER_NO_GPC);
    assert_int_equal(r.largest_portable, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_block_per_sm),
        cmocka_unit_test(test_cap),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_no_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
