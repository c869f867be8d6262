/* test_gridcls: grid totals by block class against the brute-force sum over
 * every block of the grid, for halo guards (first/last block), a partial
 * last block, and a guard that singles out one interior block (which must
 * be reported as not uniform rather than averaged away). The stencil's halo
 * stores are the case Nsight Compute measured: 65,408 of 65,536 requests
 * for a 128 x 512 grid (tests/data/ncu/h100/sass-stencil.csv). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/warp/bank.h"
#include "analysis/symbolic/gridcls.h"

static expr *C(int64_t v)
{
    return expr_const(v);
}
static expr *B(expr_op op, expr *a, expr *b)
{
    return expr_binary(op, a, b);
}
static expr *S(expr_builtin b)
{
    return expr_builtin_sym(b);
}

typedef struct access_ctx {
    const mem_access *a;
    const int64_t *block;
    const int64_t *grid;
} access_ctx;

static void env_for(const access_ctx *c, const int64_t bid[3], expr_env *env)
{
    expr_env_init(env);
    const expr_builtin b[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    const expr_builtin g[3] = {SYM_GDIM_X, SYM_GDIM_Y, SYM_GDIM_Z};
    for (int d = 0; d < 3; d++) {
        expr_env_set_builtin(env, b[d], bid[d]);
        expr_env_set_builtin(env, g[d], c->grid[d]);
    }
}

static bool block_fn(const int64_t bid[3], int64_t m[GRIDCLS_METRICS], char *why, size_t n, void *p)
{
    access_ctx *c = p;
    expr_env env;
    env_for(c, bid, &env);
    bank_result r;
    if (!bank_analyze(c->a, c->block, &env, &r)) {
        if (!r.unreached) {
            snprintf(why, n, "%s", r.reason);
            return false;
        }
        m[0] = m[1] = 0;
        return true;
    }
    m[0] = r.requests;
    m[1] = r.total;
    return true;
}

/* Every block, one by one. */
static void brute_force(const access_ctx *c, int64_t sum[2])
{
    sum[0] = sum[1] = 0;
    for (int64_t z = 0; z < c->grid[2]; z++)
        for (int64_t y = 0; y < c->grid[1]; y++)
            for (int64_t x = 0; x < c->grid[0]; x++) {
                int64_t bid[3] = {x, y, z}, m[GRIDCLS_METRICS] = {0};
                char why[256];
                assert_true(block_fn(bid, m, why, sizeof why, (void *)c));
                sum[0] += m[0];
                sum[1] += m[1];
            }
}

static gridcls_result by_class(const access_ctx *c)
{
    bool used[3];
    gridcls_uses_block_index(c->a, used);
    gridcls_result r;
    char why[256];
    assert_true(
        gridcls_sum(c->grid, used, GRIDCLS_METRICS, block_fn, (void *)c, &r, why, sizeof why));
    return r;
}

/* Metrics past `judged` are summed but do not make the interior differ. */
static bool index_in_third(const int64_t bid[3], int64_t m[GRIDCLS_METRICS], char *why,
                           size_t why_size, void *ctx)
{
    (void)why, (void)why_size, (void)ctx;
    m[0] = 1;
    m[1] = 4;
    m[2] = bid[0];
    return true;
}

static void test_judged_metrics(void **state)
{
    (void)state;
    const int64_t grid[3] = {8, 1, 1};
    const bool used[3] = {true, false, false};
    gridcls_result r;
    char why[64];
    assert_true(gridcls_sum(grid, used, 2, index_in_third, NULL, &r, why, sizeof why));
    assert_true(r.uniform);
    assert_int_equal(r.sum[0], 8);
    assert_int_equal(r.sum[1], 32);
    /* Judged, the third differs; the grid is small enough to evaluate
     * block by block, so its sum is exact. */
    assert_true(gridcls_sum(grid, used, 3, index_in_third, NULL, &r, why, sizeof why));
    assert_int_equal(r.sum[2], 0 + 1 + 2 + 3 + 4 + 5 + 6 + 7);
    assert_non_null(strstr(r.note, "each of the 6 was evaluated"));
}

/* A triangular loop nest over a 1-D grid: each block's count grows with
 * its index. Too many blocks to evaluate one by one, so the probes (1, 50,
 * 98) find the line and the sum is the line's. */
static bool triangular(const int64_t bid[3], int64_t m[GRIDCLS_METRICS], char *why, size_t why_size,
                       void *ctx)
{
    (void)why, (void)why_size, (void)ctx;
    m[0] = 1000 - 7 * bid[0];
    m[1] = 3 * m[0];
    return true;
}

static void test_linear_trend(void **state)
{
    (void)state;
    const int64_t grid[3] = {100, 1, 1};
    const bool used[3] = {true, false, false};
    gridcls_result r;
    char why[64];
    assert_true(gridcls_sum(grid, used, 2, triangular, NULL, &r, why, sizeof why));
    int64_t want = 0;
    for (int64_t b = 0; b < 100; b++)
        want += 1000 - 7 * b;
    assert_int_equal(r.sum[0], want);
    assert_int_equal(r.sum[1], 3 * want);
    assert_false(r.uniform);
    assert_non_null(strstr(r.note, "summed as that line"));
}

/* The stencil's left-halo store: tile[ly][0] = ... if threadIdx.x == 0 and
 * gx = blockIdx.x * 32 + threadIdx.x > 0; rows of 34 floats. */
static void test_halo_guard(void **state)
{
    (void)state;
    mem_access a = {.space = SPACE_SHARED, .width = 4};
    a.byte_offset = B(OP_MUL, B(OP_ADD, S(SYM_TID_Y), C(1)), C(34 * 4));
    a.guard = B(OP_LAND, B(OP_EQ, S(SYM_TID_X), C(0)),
                B(OP_GT, B(OP_ADD, B(OP_MUL, S(SYM_BID_X), C(32)), S(SYM_TID_X)), C(0)));
    const int64_t block[3] = {32, 8, 1}, grid[3] = {7, 5, 1};
    access_ctx c = {&a, block, grid};
    int64_t want[2];
    brute_force(&c, want);
    gridcls_result r = by_class(&c);
    assert_true(r.uniform);
    assert_int_equal(r.sum[0], want[0]);
    assert_int_equal(r.sum[1], want[1]);
    /* 8 warps per block, none in the 5 blocks of the first column. */
    assert_int_equal(want[0], (7 - 1) * 5 * 8);
    assert_int_equal(r.classes, 3); /* blockIdx.y is not used */
    expr_free(a.byte_offset);
    expr_free(a.guard);
}

/* idx < n with a partial last block: 100 threads of 4 x 32. */
static void test_partial_last_block(void **state)
{
    (void)state;
    mem_access a = {.space = SPACE_SHARED, .width = 4};
    a.byte_offset = B(OP_MUL, S(SYM_TID_X), C(4));
    a.guard = B(OP_LT, B(OP_ADD, B(OP_MUL, S(SYM_BID_X), C(32)), S(SYM_TID_X)), C(100));
    const int64_t block[3] = {32, 1, 1}, grid[3] = {4, 1, 1};
    access_ctx c = {&a, block, grid};
    int64_t want[2];
    brute_force(&c, want);
    gridcls_result r = by_class(&c);
    assert_true(r.uniform);
    assert_int_equal(r.sum[0], want[0]);
    assert_int_equal(r.sum[0], 4); /* the last warp has 4 lanes: still a request */
    expr_free(a.byte_offset);
    expr_free(a.guard);
}

/* A 2-D guard on both edges, and a grid 2 blocks wide. */
static void test_two_dimensions(void **state)
{
    (void)state;
    mem_access a = {.space = SPACE_SHARED, .width = 4};
    a.byte_offset = B(OP_MUL, S(SYM_TID_X), C(8)); /* 2-way conflict */
    expr *gx = B(OP_ADD, B(OP_MUL, S(SYM_BID_X), C(32)), S(SYM_TID_X));
    expr *gy = B(OP_ADD, B(OP_MUL, S(SYM_BID_Y), C(4)), S(SYM_TID_Y));
    a.guard = B(OP_LAND, B(OP_LT, gx, C(50)), B(OP_GT, gy, C(2)));
    const int64_t block[3] = {32, 4, 1};
    const int64_t grids[][3] = {{2, 9, 1}, {2, 2, 1}, {3, 1, 1}};
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        access_ctx c = {&a, block, grids[g]};
        int64_t want[2];
        brute_force(&c, want);
        gridcls_result r = by_class(&c);
        assert_true(r.uniform);
        assert_int_equal(r.sum[0], want[0]);
        assert_int_equal(r.sum[1], want[1]);
    }
    expr_free(a.byte_offset);
    expr_free(a.guard);
}

/* A guard that picks one interior block is not an edge effect: on a small
 * grid every interior block is evaluated and the sum is exact; on a large
 * one the probes see the difference, find no line through it, and the sum
 * is a sample's, which says so. */
static void test_interior_outlier(void **state)
{
    (void)state;
    mem_access a = {.space = SPACE_SHARED, .width = 4};
    a.byte_offset = B(OP_MUL, S(SYM_TID_X), C(4));
    a.guard = B(OP_NE, S(SYM_BID_X), C(5));
    const int64_t block[3] = {32, 1, 1}, small[3] = {10, 1, 1};
    access_ctx c = {&a, block, small};
    gridcls_result r = by_class(&c);
    int64_t want[2];
    brute_force(&c, want);
    assert_true(r.uniform);
    assert_int_equal(r.sum[0], want[0]);
    assert_int_equal(r.sum[1], want[1]);
    expr_free(a.guard);
    a.guard = B(OP_NE, S(SYM_BID_X), C(50));
    const int64_t large[3] = {100, 1, 1};
    access_ctx cl = {&a, block, large};
    r = by_class(&cl);
    assert_false(r.uniform);
    assert_non_null(strstr(r.note, "not on a line"));
    brute_force(&cl, want);
    /* One block in 98 missed at most. */
    assert_true(llabs(r.sum[0] - want[0]) <= 32);
    expr_free(a.byte_offset);
    expr_free(a.guard);
}

/* Blocks whose work repeats with a period (a batch of matrices, each
 * masked the same way: two blocks of every eight load): neither alike nor
 * on a line. Taking the interior as like block 1 counted every block; the
 * sample, spread so that the period does not alias it, comes within 5%. */
static void test_interior_periodic(void **state)
{
    (void)state;
    mem_access a = {.space = SPACE_SHARED, .width = 4};
    a.byte_offset = B(OP_MUL, S(SYM_TID_X), C(4));
    a.guard = B(OP_LT, B(OP_MOD, S(SYM_BID_X), C(8)), C(2));
    const int64_t block[3] = {32, 1, 1}, grid[3] = {4096, 1, 1};
    access_ctx c = {&a, block, grid};
    gridcls_result r = by_class(&c);
    int64_t want[2];
    brute_force(&c, want);
    assert_int_equal(want[0], 1024); /* one warp request in each loading block */
    assert_false(r.uniform);
    assert_true(llabs(r.sum[0] - want[0]) * 20 <= want[0]);
    expr_free(a.byte_offset);
    expr_free(a.guard);
}

/* No block index anywhere: one class, the grid's block count as weight. */
static void test_block_index_unused(void **state)
{
    (void)state;
    mem_access a = {.space = SPACE_SHARED, .width = 4};
    a.byte_offset = B(OP_MUL, S(SYM_TID_X), C(4));
    const int64_t block[3] = {64, 1, 1}, grid[3] = {1000, 30, 2};
    access_ctx c = {&a, block, grid};
    gridcls_result r = by_class(&c);
    assert_int_equal(r.classes, 1);
    assert_int_equal(r.sum[0], 2 * 1000 * 30 * 2);
    expr_free(a.byte_offset);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_judged_metrics),     cmocka_unit_test(test_halo_guard),
        cmocka_unit_test(test_partial_last_block), cmocka_unit_test(test_two_dimensions),
        cmocka_unit_test(test_interior_outlier),   cmocka_unit_test(test_interior_periodic),
        cmocka_unit_test(test_linear_trend),       cmocka_unit_test(test_block_index_unused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
