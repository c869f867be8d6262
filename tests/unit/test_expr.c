/* test_expr: the integer expression trees that the analyses evaluate per
 * lane must follow C's rules (truncating division, short-circuit, ?:) and
 * report every failure instead of producing a wrong number. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/symbolic/expr.h"

static expr *C(int64_t v)
{
    return expr_const(v);
}
static expr *B(expr_op op, expr *a, expr *b)
{
    return expr_binary(op, a, b);
}
static expr *TX(void)
{
    return expr_builtin_sym(SYM_TID_X);
}

static int64_t eval_ok(const expr *e, const expr_env *env)
{
    int64_t v = 0;
    const char *why = NULL;
    assert_int_equal(expr_eval(e, env, &v, &why), EXPR_OK);
    return v;
}

static void check_bin(expr_op op, int64_t a, int64_t b, int64_t want)
{
    expr *e = B(op, C(a), C(b));
    assert_int_equal(eval_ok(e, NULL), want);
    expr_free(e);
}

static expr_status status_of(expr *e, const expr_env *env, const char **why)
{
    int64_t v;
    expr_status s = expr_eval(e, env, &v, why);
    expr_free(e);
    return s;
}

static void test_arithmetic(void **state)
{
    (void)state;
    check_bin(OP_ADD, 2, 3, 5);
    check_bin(OP_SUB, 2, 3, -1);
    check_bin(OP_MUL, -4, 3, -12);
    check_bin(OP_DIV, 7, 2, 3);
    check_bin(OP_DIV, -7, 2, -3); /* C truncates toward zero */
    check_bin(OP_MOD, -7, 2, -1); /* sign follows the dividend */
    check_bin(OP_MOD, 7, -2, 1);
    check_bin(OP_SHL, 3, 4, 48);
    check_bin(OP_SHR, 48, 4, 3);
    check_bin(OP_SHR, -16, 2, -4);
    check_bin(OP_AND, 0xF0, 0x3C, 0x30);
    check_bin(OP_OR, 0xF0, 0x0F, 0xFF);
    check_bin(OP_XOR, 5, 3, 6);
    check_bin(OP_LT, 1, 2, 1);
    check_bin(OP_LE, 2, 2, 1);
    check_bin(OP_GT, 1, 2, 0);
    check_bin(OP_GE, 2, 3, 0);
    check_bin(OP_EQ, 4, 4, 1);
    check_bin(OP_NE, 4, 4, 0);
    check_bin(OP_LAND, 3, 0, 0);
    check_bin(OP_LOR, 0, 7, 1);
    check_bin(OP_MIN, -2, 5, -2);
    check_bin(OP_MAX, -2, 5, 5);

    expr *e = expr_unary(OP_NEG, C(5));
    assert_int_equal(eval_ok(e, NULL), -5);
    expr_free(e);
    e = expr_unary(OP_NOT, C(5));
    assert_int_equal(eval_ok(e, NULL), 0);
    expr_free(e);
    e = expr_unary(OP_BNOT, C(0));
    assert_int_equal(eval_ok(e, NULL), -1);
    expr_free(e);
    e = expr_cond(C(0), C(1), C(2));
    assert_int_equal(eval_ok(e, NULL), 2);
    expr_free(e);
}

static void test_errors(void **state)
{
    (void)state;
    const char *why = NULL;
    assert_int_equal(status_of(B(OP_DIV, C(1), C(0)), NULL, &why), EXPR_DIV_ZERO);
    assert_int_equal(status_of(B(OP_MOD, C(1), C(0)), NULL, &why), EXPR_DIV_ZERO);
    assert_int_equal(status_of(B(OP_DIV, C(INT64_MIN), C(-1)), NULL, &why), EXPR_OVERFLOW);
    assert_int_equal(status_of(B(OP_MOD, C(INT64_MIN), C(-1)), NULL, &why), EXPR_OVERFLOW);
    assert_int_equal(status_of(B(OP_ADD, C(INT64_MAX), C(1)), NULL, &why), EXPR_OVERFLOW);
    assert_int_equal(status_of(B(OP_SUB, C(INT64_MIN), C(1)), NULL, &why), EXPR_OVERFLOW);
    assert_int_equal(status_of(B(OP_MUL, C(INT64_MAX / 2 + 1), C(2)), NULL, &why), EXPR_OVERFLOW);
    assert_int_equal(status_of(expr_unary(OP_NEG, C(INT64_MIN)), NULL, &why), EXPR_OVERFLOW);
    assert_int_equal(status_of(B(OP_SHL, C(1), C(64)), NULL, &why), EXPR_BAD_SHIFT);
    assert_int_equal(status_of(B(OP_SHL, C(1), C(-1)), NULL, &why), EXPR_BAD_SHIFT);
    assert_int_equal(status_of(B(OP_SHR, C(1), C(64)), NULL, &why), EXPR_BAD_SHIFT);
    assert_int_equal(status_of(B(OP_SHL, C(1), C(63)), NULL, &why), EXPR_OVERFLOW);
    assert_int_equal(status_of(B(OP_SHL, C(3), C(62)), NULL, &why), EXPR_OVERFLOW);

    expr *e = B(OP_SHL, C(-1), C(63));
    assert_int_equal(eval_ok(e, NULL), INT64_MIN);
    expr_free(e);

    why = NULL;
    assert_int_equal(status_of(B(OP_ADD, TX(), expr_named("k")), NULL, &why), EXPR_UNBOUND);
    assert_string_equal(why, "threadIdx.x");
    expr_env env;
    expr_env_init(&env);
    expr_env_set_builtin(&env, SYM_TID_X, 3);
    /* why points into the tree, so look at it before freeing. */
    int64_t v;
    expr *e2 = B(OP_ADD, TX(), expr_named("k"));
    assert_int_equal(expr_eval(e2, &env, &v, &why), EXPR_UNBOUND);
    assert_string_equal(why, "k");
    expr_free(e2);
    e2 = B(OP_ADD, TX(), expr_unknown("call to foo()"));
    assert_int_equal(expr_eval(e2, &env, &v, &why), EXPR_UNKNOWN);
    assert_string_equal(why, "call to foo()");
    expr_free(e2);
}

static void test_short_circuit(void **state)
{
    (void)state;
    /* 0 && (1 / 0) is 0 in C, 1 || (1 / 0) is 1, and ?: evaluates one arm. */
    expr *e = B(OP_LAND, C(0), B(OP_DIV, C(1), C(0)));
    assert_int_equal(eval_ok(e, NULL), 0);
    expr_free(e);
    e = B(OP_LOR, C(2), expr_named("nope"));
    assert_int_equal(eval_ok(e, NULL), 1);
    expr_free(e);
    e = expr_cond(C(1), C(7), B(OP_DIV, C(1), C(0)));
    assert_int_equal(eval_ok(e, NULL), 7);
    expr_free(e);
}

static void test_env(void **state)
{
    (void)state;
    expr_env env;
    expr_env_init(&env);
    expr *e = B(OP_ADD, B(OP_MUL, TX(), C(33)), expr_named("j"));
    assert_string_equal(expr_first_unbound(e, &env), "threadIdx.x");
    expr_env_set_builtin(&env, SYM_TID_X, 2);
    assert_string_equal(expr_first_unbound(e, &env), "j");
    assert_true(expr_env_set(&env, "j", 5));
    assert_null(expr_first_unbound(e, &env));
    assert_int_equal(eval_ok(e, &env), 71);
    assert_true(expr_env_set(&env, "j", 6)); /* replaces */
    assert_int_equal(env.n_named, 1);
    assert_int_equal(eval_ok(e, &env), 72);
    expr_env_unset(&env, "j");
    assert_int_equal(env.n_named, 0);
    assert_string_equal(expr_first_unbound(e, &env), "j");
    expr_free(e);

    char names[EXPR_MAX_BINDINGS + 1][8];
    for (int i = 0; i < EXPR_MAX_BINDINGS; i++) {
        snprintf(names[i], sizeof names[i], "v%d", i);
        assert_true(expr_env_set(&env, names[i], i));
    }
    assert_false(expr_env_set(&env, "extra", 1));
    expr_env_unset(&env, "v0");
    assert_true(expr_env_set(&env, "extra", 1));
    e = expr_named("v63");
    assert_int_equal(eval_ok(e, &env), 63);
    expr_free(e);
}

static void test_uses(void **state)
{
    (void)state;
    expr *e = expr_cond(B(OP_LT, expr_builtin_sym(SYM_TID_Y), C(4)), TX(), expr_named("k"));
    assert_true(expr_uses_builtin(e, SYM_TID_X));
    assert_true(expr_uses_builtin(e, SYM_TID_Y));
    assert_false(expr_uses_builtin(e, SYM_TID_Z));
    assert_false(expr_uses_builtin(e, SYM_NAMED));
    assert_true(expr_uses_name(e, "k"));
    assert_false(expr_uses_name(e, "j"));
    assert_true(expr_uses_thread_index(e));
    expr_free(e);
    /* A block index counts; blockDim, the grid's size and names do not. */
    e = B(OP_MUL, expr_builtin_sym(SYM_BID_Z), expr_named("n"));
    assert_true(expr_uses_thread_index(e));
    expr_free(e);
    e = B(OP_ADD, expr_builtin_sym(SYM_BDIM_X), expr_named("n"));
    assert_false(expr_uses_thread_index(e));
    assert_false(expr_uses_thread_index(NULL));
    expr_free(e);
}

static void test_clone(void **state)
{
    (void)state;
    expr *e = expr_cond(B(OP_LT, TX(), expr_named("n")), expr_unknown("why"), C(3));
    expr *c = expr_clone(e);
    expr_free(e);
    char *s = expr_to_string(c);
    assert_string_equal(s, "threadIdx.x < n ? <unknown: why> : 3");
    free(s);
    expr_free(c);
    assert_null(expr_clone(NULL));
    expr_free(NULL);
}

static void expect_str(expr *e, const char *want)
{
    char *s = expr_to_string(e);
    assert_string_equal(s, want);
    free(s);
    expr_free(e);
}

static void test_to_string(void **state)
{
    (void)state;
    expect_str(B(OP_ADD, B(OP_MUL, TX(), C(33)), expr_named("j")), "threadIdx.x * 33 + j");
    expect_str(B(OP_MUL, B(OP_ADD, TX(), C(1)), C(4)), "(threadIdx.x + 1) * 4");
    expect_str(B(OP_SUB, C(10), B(OP_SUB, C(3), C(2))), "10 - (3 - 2)");
    expect_str(B(OP_SUB, B(OP_SUB, C(10), C(3)), C(2)), "10 - 3 - 2");
    expect_str(B(OP_DIV, expr_builtin_sym(SYM_BID_X), expr_builtin_sym(SYM_BDIM_Y)),
               "blockIdx.x / blockDim.y");
    expect_str(B(OP_XOR, TX(), expr_builtin_sym(SYM_TID_Y)), "threadIdx.x ^ threadIdx.y");
    expect_str(B(OP_ADD, B(OP_SHL, TX(), C(2)), C(1)), "(threadIdx.x << 2) + 1");
    expect_str(B(OP_SHL, B(OP_ADD, TX(), C(2)), C(1)), "(threadIdx.x + 2) << 1");
    expect_str(B(OP_EQ, B(OP_AND, TX(), C(31)), C(0)), "(threadIdx.x & 31) == 0");
    expect_str(expr_unary(OP_NEG, expr_unary(OP_NEG, TX())), "-(-threadIdx.x)");
    expect_str(expr_unary(OP_NEG, C(-3)), "-(-3)");
    expect_str(expr_unary(OP_NOT, B(OP_LT, TX(), C(3))), "!(threadIdx.x < 3)");
    expect_str(expr_unary(OP_NOT, expr_unary(OP_BNOT, TX())), "!~threadIdx.x");
    expect_str(expr_unary(OP_NEG, expr_unary(OP_NOT, TX())), "-!threadIdx.x");
    expect_str(B(OP_MIN, TX(), B(OP_ADD, C(1), C(2))), "min(threadIdx.x, 1 + 2)");
    expect_str(B(OP_MUL, expr_cond(TX(), C(1), C(2)), C(3)), "(threadIdx.x ? 1 : 2) * 3");
    expect_str(expr_cond(TX(), C(1), expr_cond(C(0), C(2), C(3))), "threadIdx.x ? 1 : 0 ? 2 : 3");
    expect_str(expr_cond(TX(), expr_cond(C(0), C(2), C(3)), C(1)), "threadIdx.x ? (0 ? 2 : 3) : 1");
    expect_str(B(OP_LOR, B(OP_LAND, C(1), C(0)), C(1)), "1 && 0 || 1");
    expect_str(B(OP_LAND, C(1), B(OP_LOR, C(0), C(1))), "1 && (0 || 1)");
    expect_str(expr_builtin_sym(SYM_WARP_SIZE), "warpSize");
    expect_str(expr_builtin_sym(SYM_GDIM_Z), "gridDim.z");
}

static void test_simplify(void **state)
{
    (void)state;
    expr *e = B(OP_ADD, B(OP_MUL, TX(), B(OP_ADD, C(32), C(1))), B(OP_MUL, C(0), C(5)));
    expr *s = expr_simplify(e);
    char *t = expr_to_string(s);
    assert_string_equal(t, "threadIdx.x * 33");
    free(t);
    expr_free(s);
    expr_free(e);

    e = expr_cond(B(OP_LT, C(1), C(2)), TX(), expr_named("k"));
    s = expr_simplify(e);
    t = expr_to_string(s);
    assert_string_equal(t, "threadIdx.x");
    free(t);
    expr_free(s);
    expr_free(e);

    /* A failing constant subtree is kept, so the error is not lost. */
    e = B(OP_ADD, TX(), B(OP_DIV, C(1), C(0)));
    s = expr_simplify(e);
    t = expr_to_string(s);
    assert_string_equal(t, "threadIdx.x + 1 / 0");
    free(t);
    expr_free(s);
    expr_free(e);

    /* x * 0 keeps x, whose being unbound the analyses must hear about. */
    e = B(OP_MUL, expr_named("k"), C(0));
    s = expr_simplify(e);
    assert_int_equal(s->kind, EX_BINARY);
    expr_free(s);
    expr_free(e);

    e = B(OP_LAND, C(0), expr_named("k"));
    s = expr_simplify(e);
    assert_int_equal(s->kind, EX_CONST);
    assert_int_equal(s->value, 0);
    expr_free(s);
    expr_free(e);
}

static void test_builtin_names(void **state)
{
    (void)state;
    for (int i = SYM_NAMED + 1; i < SYM_BUILTIN_COUNT; i++) {
        expr_builtin b;
        assert_true(expr_builtin_from_name(expr_builtin_name((expr_builtin)i), &b));
        assert_int_equal(b, i);
    }
    expr_builtin b;
    assert_false(expr_builtin_from_name("threadIdx.w", &b));
    assert_false(expr_builtin_from_name("?", &b));
    assert_string_equal(expr_builtin_name(SYM_BDIM_Y), "blockDim.y");
    assert_string_equal(expr_builtin_name(SYM_NAMED), "?");
}

/* expr_eval_lanes against expr_eval lane by lane: random trees of every
 * operator over threadIdx.x, a counter i (bound per lane) and a name n
 * bound in some lanes only, with small and huge constants, so divisions by
 * zero, overflows, unbound names and short circuits all occur; a lane
 * succeeds in both with the same value, or fails in both, as unknown in
 * both or on arithmetic in both. */
static uint64_t rng = 88172645463325252ull;
static int64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int64_t)(rng >> 1);
}

static expr *random_tree(int depth)
{
    int pick = (int)(next_rand() % (depth > 0 ? 9 : 4));
    static const int64_t consts[] = {0, 1, -1, 2, 3, 7, 32, 63, 64, INT64_MAX, INT64_MIN};
    switch (pick) {
    case 0:
        return expr_const(consts[next_rand() % (int64_t)(sizeof consts / sizeof consts[0])]);
    case 1:
        return expr_builtin_sym(SYM_TID_X);
    case 2:
        return expr_named("i");
    case 3:
        return expr_named("n");
    case 4:
        return expr_unary((expr_op[]){OP_NEG, OP_NOT, OP_BNOT}[next_rand() % 3],
                          random_tree(depth - 1));
    case 5:
        return expr_cond(random_tree(depth - 1), random_tree(depth - 1), random_tree(depth - 1));
    default: {
        static const expr_op ops[] = {OP_ADD, OP_SUB, OP_MUL,  OP_DIV, OP_MOD, OP_SHL, OP_SHR,
                                      OP_AND, OP_OR,  OP_XOR,  OP_LT,  OP_LE,  OP_GT,  OP_GE,
                                      OP_EQ,  OP_NE,  OP_LAND, OP_LOR, OP_MIN, OP_MAX};
        expr_op op = ops[next_rand() % (int64_t)(sizeof ops / sizeof ops[0])];
        return expr_binary(op, random_tree(depth - 1), random_tree(depth - 1));
    }
    }
}

static void test_lanes_agree(void **state)
{
    (void)state;
    expr_env envs[32];
    for (int l = 0; l < 32; l++) {
        expr_env_init(&envs[l]);
        expr_env_set_builtin(&envs[l], SYM_TID_X, l);
        expr_env_set(&envs[l], "i", l * 5 - 40);
        if (l % 3)
            expr_env_set(&envs[l], "n", l % 4 ? l : 0);
    }
    int ok_lanes = 0, failed_lanes = 0;
    for (int t = 0; t < 20000; t++) {
        expr *e = random_tree(1 + t % 5);
        /* Half the trees aliased to lane 1's names (lanes without n keep
         * their slots elsewhere: the lookup must not trust the hint). */
        if (t % 2)
            expr_alias_names(e, &envs[1]);
        uint32_t mask = t % 4 ? 0xffffffffu : (uint32_t)next_rand();
        int64_t out[32], again[32];
        uint32_t unknown, fine = expr_eval_lanes_unknown(e, envs, mask, out, &unknown);
        assert_int_equal(expr_eval_lanes(e, envs, mask, again), fine);
        assert_int_equal(fine & ~mask, 0);
        assert_int_equal(unknown & (fine | ~mask), 0);
        for (int l = 0; l < 32; l++) {
            if (!(mask >> l & 1))
                continue;
            int64_t v;
            expr_status s = expr_eval(e, &envs[l], &v, NULL);
            assert_int_equal(s == EXPR_OK, fine >> l & 1);
            assert_int_equal(s == EXPR_UNBOUND || s == EXPR_UNKNOWN, unknown >> l & 1);
            if (s == EXPR_OK)
                assert_int_equal(v, out[l]);
            ok_lanes += s == EXPR_OK;
            failed_lanes += s != EXPR_OK;
        }
        expr_free(e);
    }
    /* Both outcomes came up often enough to mean something. */
    assert_true(ok_lanes > 100000);
    assert_true(failed_lanes > 10000);
}

/* sum(n = 0; n < N; n = n + 1: body): a triangular loop's work. */
static expr *triangle(expr *bound, expr *body)
{
    return expr_loop_sum("n", C(0), B(OP_LT, expr_named("n"), bound),
                         B(OP_ADD, expr_named("n"), C(1)), body);
}

/* The first unknown part, depth first: the left operand's before the
 * right's, the condition's before an arm's. */
static void test_first_unknown(void **state)
{
    (void)state;
    expr *known = B(OP_ADD, TX(), C(3));
    assert_null(expr_first_unknown(known));
    expr_free(known);
    expr *e = B(OP_MUL, B(OP_ADD, C(1), expr_unknown("left")), expr_unknown("right"));
    assert_string_equal(expr_first_unknown(e)->name, "left");
    expr_free(e);
    e = expr_cond(B(OP_LT, expr_unknown("cond"), C(2)), expr_unknown("then"), C(0));
    assert_string_equal(expr_first_unknown(e)->name, "cond");
    expr_free(e);
}

static void test_loop_sum(void **state)
{
    (void)state;
    /* An inner loop from n + 1 to 10, 3 FLOPs a step: 3 * (9 + 8 + 7 + 6 + 5). */
    expr *inner =
        B(OP_MUL, B(OP_MAX, C(0), B(OP_SUB, C(10), B(OP_ADD, expr_named("n"), C(1)))), C(3));
    expr *e = triangle(C(5), inner);
    assert_int_equal(eval_ok(e, NULL), 105);
    /* Nothing outside to bind: it folds to its total. */
    expr *s = expr_simplify(e);
    assert_int_equal(s->kind, EX_CONST);
    assert_int_equal(s->value, 105);
    expr_free(s);
    expr_free(e);

    /* The sum of 0 .. N-1 with N bound outside; the counter is its own, so
     * an outer n (another loop's, a --define) neither leaks in nor is
     * reported unbound. */
    e = triangle(expr_named("N"), expr_named("n"));
    expr_env env;
    expr_env_init(&env);
    assert_string_equal(expr_first_unbound(e, &env), "N");
    expr_sym_ref refs[4];
    int n = 0;
    bool over = false;
    expr_unbound_syms(e, &env, refs, &n, 4, &over);
    assert_int_equal(n, 1);
    assert_string_equal(refs[0].name, "N");
    expr_env_set(&env, "N", 100);
    expr_env_set(&env, "n", 1000);
    assert_null(expr_first_unbound(e, &env));
    assert_int_equal(eval_ok(e, &env), 4950);
    expr *bound = expr_bind(e, &env);
    assert_int_equal(bound->kind, EX_CONST);
    assert_int_equal(bound->value, 4950);
    expr_free(bound);
    expr_env_unset(&env, "N");
    bound = expr_bind(e, &env);
    char *t = expr_to_string(bound);
    assert_string_equal(t, "sum(n = 0; n < N; n = n + 1: n)");
    free(t);
    expr_free(bound);

    /* Lanes agree with expr_eval, lane by lane. */
    expr_env envs[32];
    for (int l = 0; l < 32; l++) {
        expr_env_init(&envs[l]);
        expr_env_set(&envs[l], "N", l);
    }
    int64_t out[32];
    assert_int_equal(expr_eval_lanes(e, envs, 0xffffffffu, out), 0xffffffffu);
    for (int l = 0; l < 32; l++)
        assert_int_equal(out[l], (int64_t)l * (l - 1) / 2);

    /* Too many steps: unknown, with why, never a truncated total. */
    expr_env_set(&env, "N", (int64_t)EXPR_SUM_MAX_STEPS + 1);
    const char *why = NULL;
    int64_t v;
    assert_int_equal(expr_eval(e, &env, &v, &why), EXPR_UNKNOWN);
    assert_non_null(strstr(why, "65536"));
    expr_env_set(&env, "N", EXPR_SUM_MAX_STEPS);
    assert_int_equal(eval_ok(e, &env), (int64_t)EXPR_SUM_MAX_STEPS * (EXPR_SUM_MAX_STEPS - 1) / 2);
    expr *c = expr_clone(e);
    expr_free(e);
    assert_true(expr_uses_name(c, "N"));
    assert_int_equal(eval_ok(c, &env), (int64_t)EXPR_SUM_MAX_STEPS * (EXPR_SUM_MAX_STEPS - 1) / 2);
    expr_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arithmetic),    cmocka_unit_test(test_errors),
        cmocka_unit_test(test_short_circuit), cmocka_unit_test(test_env),
        cmocka_unit_test(test_uses),          cmocka_unit_test(test_clone),
        cmocka_unit_test(test_to_string),     cmocka_unit_test(test_simplify),
        cmocka_unit_test(test_builtin_names), cmocka_unit_test(test_lanes_agree),
        cmocka_unit_test(test_loop_sum),      cmocka_unit_test(test_first_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
