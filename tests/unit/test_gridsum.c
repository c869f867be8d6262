/* test_gridsum: the separable sum over a launch's threads against the
 * brute-force sum over every thread, on the shapes the roofline meets
 * (fdtd-2d's bounds checks and halo arms, a ?: with per-thread values),
 * and the refusals that must send the caller back to the walk: a condition
 * that couples two dimensions, a name with no value, an arm that fails
 * where the walk would have skipped it, an overflow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/symbolic/gridsum.h"

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
static expr *IND(expr *c)
{
    return expr_cond(c, C(1), C(0));
}
/* blockIdx.d * block + threadIdx.d */
static expr *GLOBAL(int d, int64_t block)
{
    static const expr_builtin bid[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    static const expr_builtin tid[3] = {SYM_TID_X, SYM_TID_Y, SYM_TID_Z};
    return B(OP_ADD, B(OP_MUL, S(bid[d]), C(block)), S(tid[d]));
}

static void refused(expr *e, const int64_t g[3], const int64_t b[3]);

/* Every thread, one by one: the truth. */
static int64_t brute(const expr *e, const int64_t g[3], const int64_t b[3])
{
    int64_t sum = 0;
    expr_env env;
    expr_env_init(&env);
    for (int64_t bz = 0; bz < g[2]; bz++)
        for (int64_t by = 0; by < g[1]; by++)
            for (int64_t bx = 0; bx < g[0]; bx++)
                for (int64_t tz = 0; tz < b[2]; tz++)
                    for (int64_t ty = 0; ty < b[1]; ty++)
                        for (int64_t tx = 0; tx < b[0]; tx++) {
                            expr_env_set_builtin(&env, SYM_BID_X, bx);
                            expr_env_set_builtin(&env, SYM_BID_Y, by);
                            expr_env_set_builtin(&env, SYM_BID_Z, bz);
                            expr_env_set_builtin(&env, SYM_TID_X, tx);
                            expr_env_set_builtin(&env, SYM_TID_Y, ty);
                            expr_env_set_builtin(&env, SYM_TID_Z, tz);
                            int64_t v = 0;
                            assert_int_equal(expr_eval(e, &env, &v, NULL), EXPR_OK);
                            sum += v;
                        }
    return sum;
}

static void agrees(expr *e, const int64_t g[3], const int64_t b[3])
{
    int64_t got = -1;
    assert_true(gridsum_separable(e, g, b, &got));
    assert_int_equal(got, brute(e, g, b));
    expr_free(e);
}

/* fdtd-2d's step 3: (y < 2047 && x < 2047 ? 1 : 0) * 5 on a 64 x 256 grid
 * of 32 x 8 blocks, cut at 70 x 60 so that edge blocks are partial. */
static void test_bounds_check(void **state)
{
    (void)state;
    const int64_t g[3] = {3, 8, 1}, b[3] = {32, 8, 1};
    expr *in = B(OP_LAND, B(OP_LT, GLOBAL(1, 8), C(60)), B(OP_LT, GLOBAL(0, 32), C(70)));
    agrees(B(OP_MUL, IND(in), C(5)), g, b);
}

/* Blocks of 80 x 3 threads: x is summed 32 threads at a time, the last
 * 16 a part of a group; the cut at 150 leaves the second block partial. */
static void test_wide_blocks(void **state)
{
    (void)state;
    const int64_t g[3] = {2, 2, 1}, b[3] = {80, 3, 1};
    expr *in = B(OP_LAND, B(OP_LT, GLOBAL(0, 80), C(150)), B(OP_LT, GLOBAL(1, 3), C(5)));
    agrees(B(OP_MUL, IND(in), B(OP_ADD, GLOBAL(0, 80), C(7))), g, b);
}

/* Step 1's arms: inside the bounds, 4 where y == 0 and 12 elsewhere. */
static void test_halo_arms(void **state)
{
    (void)state;
    const int64_t g[3] = {3, 4, 2}, b[3] = {16, 4, 2};
    expr *in = B(OP_LAND, B(OP_LT, GLOBAL(1, 4), C(13)), B(OP_LT, GLOBAL(0, 16), C(40)));
    expr *top = B(OP_EQ, GLOBAL(1, 4), C(0));
    expr *arms = B(OP_ADD, B(OP_MUL, IND(expr_clone(top)), C(4)),
                   B(OP_MUL, IND(expr_unary(OP_NOT, top)), C(12)));
    agrees(B(OP_SUB, B(OP_MUL, IND(in), arms), C(1)), g, b);
}

/* A ?: over two dimensions whose arms are per-thread values. */
static void test_cond_values(void **state)
{
    (void)state;
    const int64_t g[3] = {2, 3, 1}, b[3] = {8, 4, 1};
    expr *c = B(OP_LAND, B(OP_GT, GLOBAL(0, 8), C(3)), B(OP_LE, GLOBAL(1, 4), C(7)));
    agrees(expr_cond(c, B(OP_MUL, GLOBAL(0, 8), C(3)), GLOBAL(1, 4)), g, b);
}

/* The front end's trip count of `for (i = g; i < n; i += s)`:
 * max(0, (n - g + s - 1) / s). */
static expr *TRIPS(int d, int64_t block, int64_t n, int64_t s)
{
    expr *span = B(OP_SUB, C(n), GLOBAL(d, block));
    return B(OP_MAX, C(0), B(OP_DIV, B(OP_SUB, B(OP_ADD, span, C(s)), C(1)), C(s)));
}

/* Grid-stride trip counts in closed form, against every thread: bounds
 * below, inside and past the launch, strides equal to the launch or not,
 * blocks of one thread, a constant factor and a sum of two loops. */
static void test_stride_trips(void **state)
{
    (void)state;
    const int64_t ns[] = {-3, 0, 1, 5, 63, 64, 65, 100, 191, 192, 193, 1000};
    const int64_t blocks[] = {1, 7, 32};
    for (size_t bi = 0; bi < sizeof blocks / sizeof *blocks; bi++) {
        const int64_t g[3] = {6, 1, 1}, b[3] = {blocks[bi], 1, 1};
        const int64_t p = g[0] * b[0];
        const int64_t strides[] = {p, 1, 5, 2 * p + 1};
        for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
            for (size_t si = 0; si < sizeof strides / sizeof *strides; si++)
                agrees(B(OP_MUL, TRIPS(0, b[0], ns[ni], strides[si]), C(3)), g, b);
        agrees(B(OP_ADD, TRIPS(0, b[0], 100, p), B(OP_MUL, C(2), TRIPS(0, b[0], 37, p))), g, b);
    }
    /* With y as a second factor: 2-D launches keep the product. */
    const int64_t g2[3] = {5, 3, 1}, b2[3] = {8, 4, 1};
    agrees(B(OP_MUL, TRIPS(0, 8, 97, 40), IND(B(OP_LT, GLOBAL(1, 4), C(10)))), g2, b2);
}

/* sum(i = g + k0; i < n; i += P: body) over the threads of a launch of P. */
static expr *LOOP(int64_t block, int64_t k0, int64_t n, int64_t p, expr *body)
{
    return expr_loop_sum("i", B(OP_ADD, GLOBAL(0, block), C(k0)), B(OP_LT, expr_named("i"), C(n)),
                         B(OP_ADD, expr_named("i"), C(p)), body);
}

/* A grid-stride loop's work: a body the same in every pass, one that
 * cancels to a constant (8 * (i / 64) + 8 - 8 * (i / 64)), and one that
 * changes with the counter. */
static void test_stride_loops(void **state)
{
    (void)state;
    const int64_t g[3] = {4, 1, 1}, b[3] = {16, 1, 1}, p = 64;
    const int64_t ns[] = {0, 10, 64, 65, 200};
    for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++) {
        agrees(LOOP(16, 0, ns[ni], p, C(6)), g, b);
        expr *q = B(OP_DIV, expr_named("i"), C(64));
        expr *cancel = B(OP_SUB, B(OP_ADD, B(OP_MUL, q, C(8)), C(8)),
                         B(OP_MUL, B(OP_DIV, expr_named("i"), C(64)), C(8)));
        agrees(LOOP(16, 3, ns[ni], p, B(OP_MIN, C(1), cancel)), g, b);
        agrees(LOOP(16, 0, ns[ni], p, B(OP_MOD, expr_named("i"), C(7))), g, b);
    }
}

/* resize's launch: 29184 blocks of 256 threads, 4194304 elements. Every
 * element is one thread's one pass, so the sums are the element count
 * times the work of a pass; without the closed form the walk's budget
 * (4M threads) is exceeded. */
static void test_stride_large(void **state)
{
    (void)state;
    const int64_t g[3] = {29184, 1, 1}, b[3] = {256, 1, 1}, p = 29184 * 256, n = 4194304;
    int64_t got = -1;
    expr *e = B(OP_MUL, TRIPS(0, 256, n, p), C(16));
    assert_true(gridsum_separable(e, g, b, &got));
    assert_int_equal(got, 16 * n);
    expr_free(e);
    e = LOOP(256, 0, n, p, C(6));
    assert_true(gridsum_separable(e, g, b, &got));
    assert_int_equal(got, 6 * n);
    expr_free(e);
    /* The body resize's loop leaves, 2 * min(1, 8 * (i / 65536) + 8 -
     * 8 * (i / 65536)): 2 whatever i is. */
    expr *q = B(OP_DIV, expr_named("i"), C(65536));
    expr *cancel = B(OP_SUB, B(OP_ADD, B(OP_MUL, q, C(8)), C(8)),
                     B(OP_MUL, B(OP_DIV, expr_named("i"), C(65536)), C(8)));
    e = LOOP(256, 0, n, p, B(OP_MUL, C(2), B(OP_MIN, C(1), cancel)));
    assert_true(gridsum_separable(e, g, b, &got));
    assert_int_equal(got, 2 * n);
    expr_free(e);
    /* Half the launch's stride: threads below n - p / 2 make two passes. */
    e = TRIPS(0, 256, n, p / 2);
    assert_true(gridsum_separable(e, g, b, &got));
    assert_int_equal(got, n + (n - p / 2));
    expr_free(e);
    /* A loop stepping by half the launch: threads share elements, so the
     * work is not the body over [0, n); no closed form, past the budget. */
    refused(LOOP(256, 0, n, p / 2, C(6)), g, b);
}

static void refused(expr *e, const int64_t g[3], const int64_t b[3])
{
    int64_t got = 12345;
    assert_false(gridsum_separable(e, g, b, &got));
    assert_int_equal(got, 12345);
    expr_free(e);
}

static void test_refusals(void **state)
{
    (void)state;
    const int64_t g[3] = {2, 2, 1}, b[3] = {4, 4, 1};
    /* x < y couples the dimensions. */
    refused(IND(B(OP_LT, GLOBAL(0, 4), GLOBAL(1, 4))), g, b);
    /* || does not separate into a product. */
    refused(IND(B(OP_LOR, B(OP_LT, GLOBAL(0, 4), C(2)), B(OP_LT, GLOBAL(1, 4), C(2)))), g, b);
    /* A name with no value. */
    refused(B(OP_MUL, IND(B(OP_LT, GLOBAL(0, 4), expr_named("n"))), GLOBAL(1, 4)), g, b);
    /* The walk skips the division where x == 0; the factor would not. */
    expr *x = GLOBAL(0, 4);
    refused(expr_cond(B(OP_LAND, B(OP_GT, expr_clone(x), C(0)), B(OP_GT, GLOBAL(1, 4), C(0))),
                      B(OP_DIV, C(100), x), C(0)),
            g, b);
    /* The total does not fit in 64 bits. */
    const int64_t big[3] = {1 << 20, 1 << 20, 1};
    refused(B(OP_MUL, C(INT64_MAX / 2), B(OP_ADD, GLOBAL(0, 4), GLOBAL(1, 4))), big, b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounds_check), cmocka_unit_test(test_wide_blocks),
        cmocka_unit_test(test_halo_arms),    cmocka_unit_test(test_cond_values),
        cmocka_unit_test(test_refusals),     cmocka_unit_test(test_stride_trips),
        cmocka_unit_test(test_stride_loops), cmocka_unit_test(test_stride_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
