/* test_vecmerge: which shared loads ptxas issues as one wide load. The
 * shapes are the reference and example GEMMs' (kernels/gemm.cu's
 * gemm_regtile and gemm_smem, examples/gemm_tiled.cu), whose LDS.128 the
 * SASS shows and whose wavefront totals Nsight Compute agrees with
 * (tests/ncu_sass_compare.py, tests/data/timeprobe/h200/gemm); and the
 * shapes ptxas cannot merge: an address it cannot prove aligned, a stride
 * that is not the width, a guard on the counter, a store. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/symbolic/cexpr.h"
#include "analysis/memory/traffic.h"
#include "analysis/warp/vecmerge.h"

static expr *P(const char *s)
{
    cexpr_error err;
    expr *e = cexpr_parse(s, true, &err);
    assert_non_null(e);
    return e;
}

/* A shared load of `width` bytes at byte offset `off` under loops
 * "v < trips" (outermost first; "" ends the list). */
static mem_access site(const char *off, int width, const char *const vars[], const int trips[])
{
    mem_access a;
    memset(&a, 0, sizeof a);
    a.space = SPACE_SHARED;
    a.base = (char *)"s";
    a.text = (char *)off;
    a.width = width;
    a.byte_offset = P(off);
    for (int i = 0; vars[i][0]; i++) {
        char cond[64], next[64];
        snprintf(cond, sizeof cond, "%s < %d", vars[i], trips[i]);
        snprintf(next, sizeof next, "%s + 1", vars[i]);
        a.loops[i] =
            (loop_ctx){.var = (char *)vars[i], .init = P("0"), .cond = P(cond), .next = P(next)};
        a.n_loops = i + 1;
    }
    return a;
}

static int group_of(const char *off, int width, const char *const vars[], const int trips[],
                    int *level)
{
    mem_access a = site(off, width, vars, trips);
    int g = vecmerge_group(&a, level);
    access_bound_free(&a);
    return g;
}

static const char *const k_i[] = {"k", "i", ""};
static const int regtile_trips[] = {16, 4};

static void test_merged(void **state)
{
    (void)state;
    int level;
    /* gemm_regtile: as[k][threadIdx.y * 4 + i], rows of 64 floats. */
    assert_int_equal(group_of("4 * (k * 64 + threadIdx.y * 4 + i)", 4, k_i, regtile_trips, &level),
                     4);
    assert_int_equal(level, 1);
    /* gemm_smem: as[threadIdx.y][k], k < 32: along the only loop. */
    static const char *const k[] = {"k", ""};
    static const int thirty_two[] = {32};
    assert_int_equal(group_of("4 * (threadIdx.y * 32 + k)", 4, k, thirty_two, &level), 4);
    assert_int_equal(level, 0);
    /* sgemmTiled: As[threadRow * TM + t][k] under for k, for t: not along
     * t (a row apart), along k; a one-pass t loop is straight code. */
    static const int eight_four[] = {8, 4}, eight_one[] = {8, 1};
    static const char *const k_t[] = {"k", "t", ""};
    assert_int_equal(
        group_of("4 * ((threadIdx.x / 8 * 4 + t) * 8 + k)", 4, k_t, eight_four, &level), 4);
    assert_int_equal(level, 0);
    assert_int_equal(group_of("4 * ((threadIdx.x / 8 + t) * 8 + k)", 4, k_t, eight_one, &level), 4);
    /* 8-byte elements two at a time; four floats only two at a time when
     * the address is 8-aligned and not 16. */
    assert_int_equal(group_of("8 * (threadIdx.x * 2 + i)", 8, k_i + 1, regtile_trips + 1, &level),
                     2);
    assert_int_equal(
        group_of("4 * (threadIdx.x * 2 + i) + 8 * k", 4, k_i, (const int[]){4, 2}, &level), 2);
}

static void test_not_merged(void **state)
{
    (void)state;
    int level;
    /* threadIdx.y * 3 words: 12-byte steps, not 16- or 8-aligned. */
    assert_int_equal(group_of("4 * (k * 64 + threadIdx.y * 3 + i)", 4, k_i, regtile_trips, &level),
                     1);
    assert_int_equal(level, -1);
    /* A stride only the launch knows (n): ptxas cannot prove it. */
    assert_int_equal(group_of("4 * (threadIdx.y * n + i)", 4, k_i + 1, regtile_trips + 1, &level),
                     1);
    /* Two words apart each step; three iterations (no group divides). */
    assert_int_equal(
        group_of("4 * (threadIdx.y * 8 + 2 * i)", 4, k_i + 1, regtile_trips + 1, &level), 1);
    assert_int_equal(group_of("4 * (threadIdx.y * 4 + i)", 4, k_i + 1, (const int[]){3}, &level),
                     1);
    /* A guard on the counter, a store, a global load. */
    mem_access a = site("4 * (threadIdx.y * 4 + i)", 4, k_i + 1, regtile_trips + 1);
    assert_int_equal(vecmerge_group(&a, &level), 4);
    a.guard = P("i < threadIdx.x");
    assert_int_equal(vecmerge_group(&a, &level), 1);
    expr_free(a.guard);
    a.guard = NULL;
    a.is_store = true;
    assert_int_equal(vecmerge_group(&a, &level), 1);
    a.is_store = false;
    a.space = SPACE_GLOBAL;
    assert_int_equal(vecmerge_group(&a, &level), 1);
    access_bound_free(&a);
}

/* The merged site over a block: a quarter of the requests, and the wide
 * load's wavefronts: two a request (a warp is two rows of the 16 x 16
 * block, one address each), as gemm_regtile's 134,217,728 LDS.128 of this
 * site made 268,435,456 on the H200 (tests/data/timeprobe/h200/gemm). */
static void test_traffic(void **state)
{
    (void)state;
    mem_access a = site("4 * (k * 64 + threadIdx.y * 4 + i)", 4, k_i, regtile_trips);
    const int64_t grid[3] = {1, 1, 1}, block[3] = {16, 16, 1};
    expr_env env;
    expr_env_init(&env);
    traffic_site_total t;
    char why[256];
    assert_true(traffic_site(&a, block, &env, grid, &t, why, sizeof why));
    assert_int_equal(t.merged, 4);
    assert_int_equal(t.requests, 8 * 16);
    assert_int_equal(t.units, 2 * 8 * 16);
    assert_true(t.exact);
    access_bound_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merged),
        cmocka_unit_test(test_not_merged),
        cmocka_unit_test(test_traffic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
