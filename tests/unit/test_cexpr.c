/* test_cexpr: the command-line expression parser must agree with C on
 * precedence, associativity and literals, and reject anything else with a
 * message that names the column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/symbolic/cexpr.h"

static int64_t value_of(const char *s, const expr_env *env)
{
    cexpr_error err;
    expr *e = cexpr_parse(s, true, &err);
    if (!e)
        fail_msg("'%s': column %d: %s", s, err.column, err.msg);
    int64_t v = 0;
    assert_int_equal(expr_eval(e, env, &v, NULL), EXPR_OK);
    /* printing and re-parsing gives the same value */
    char *text = expr_to_string(e);
    expr *again = cexpr_parse(text, true, &err);
    if (!again)
        fail_msg("re-parsing '%s' (from '%s'): %s", text, s, err.msg);
    int64_t w = 0;
    assert_int_equal(expr_eval(again, env, &w, NULL), EXPR_OK);
    assert_int_equal(v, w);
    free(text);
    expr_free(again);
    expr_free(e);
    return v;
}

static void test_precedence(void **state)
{
    (void)state;
    assert_int_equal(value_of("1 + 2 * 3", NULL), 7);
    assert_int_equal(value_of("(1 + 2) * 3", NULL), 9);
    assert_int_equal(value_of("1 << 2 + 1", NULL), 8);
    assert_int_equal(value_of("7 & 3 == 3", NULL), 1);
    assert_int_equal(value_of("10 - 3 - 2", NULL), 5);
    assert_int_equal(value_of("2 * 3 % 4", NULL), 2);
    assert_int_equal(value_of("64 / 4 / 2", NULL), 8);
    assert_int_equal(value_of("-3 / 2", NULL), -1);
    assert_int_equal(value_of("- -3", NULL), 3);
    assert_int_equal(value_of("~0", NULL), -1);
    assert_int_equal(value_of("!5", NULL), 0);
    assert_int_equal(value_of("1 | 2 ^ 3 & 6", NULL), 1 | (2 ^ (3 & 6)));
    assert_int_equal(value_of("1 < 2 == 2 > 1", NULL), 1);
    assert_int_equal(value_of("0 || 1 && 0", NULL), 0);
    assert_int_equal(value_of("1 ? 2 : 3 ? 4 : 5", NULL), 2);
    assert_int_equal(value_of("0 ? 2 : 0 ? 4 : 5", NULL), 5);
    assert_int_equal(value_of("min(3, 4) + max(1, 2)", NULL), 5);
    assert_int_equal(value_of("+4", NULL), 4);
}

static void test_literals(void **state)
{
    (void)state;
    assert_int_equal(value_of("0x1F", NULL), 31);
    assert_int_equal(value_of("0XfF", NULL), 255);
    assert_int_equal(value_of("010", NULL), 8);
    assert_int_equal(value_of("0", NULL), 0);
    assert_int_equal(value_of("5u", NULL), 5);
    assert_int_equal(value_of("5ULL", NULL), 5);
    assert_int_equal(value_of("9223372036854775807", NULL), INT64_MAX);
}

static void test_builtins_and_names(void **state)
{
    (void)state;
    expr_env env;
    expr_env_init(&env);
    expr_env_set_builtin(&env, SYM_TID_X, 3);
    expr_env_set_builtin(&env, SYM_TID_Y, 5);
    expr_env_set_builtin(&env, SYM_BDIM_X, 32);
    expr_env_set_builtin(&env, SYM_WARP_SIZE, 32);
    expr_env_set(&env, "k", 100);
    assert_int_equal(value_of("threadIdx.x ^ threadIdx.y", &env), 6);
    assert_int_equal(value_of("threadIdx.y * blockDim.x + threadIdx.x", &env), 163);
    assert_int_equal(value_of("(int)threadIdx.x * 2", &env), 6);
    assert_int_equal(value_of("(unsigned int) threadIdx.x % warpSize", &env), 3);
    assert_int_equal(value_of("threadIdx . x + k", &env), 103);
    cexpr_error err;
    expr *e = cexpr_parse("k + 1", false, &err);
    assert_null(e);
    assert_string_equal(err.msg, "unknown identifier 'k'");
    assert_int_equal(err.column, 1);
    e = cexpr_parse("k + 1", true, &err);
    assert_non_null(e);
    assert_true(expr_uses_name(e, "k"));
    expr_free(e);
    /* (x) with x a name is not a cast */
    assert_int_equal(value_of("(k) - 1", &env), 99);
}

static void expect_error(const char *s, int column, const char *msg)
{
    cexpr_error err;
    expr *e = cexpr_parse(s, false, &err);
    if (e)
        fail_msg("'%s' parsed", s);
    if (strstr(err.msg, msg) == NULL)
        fail_msg("'%s': got '%s', want '%s'", s, err.msg, msg);
    if (column > 0)
        assert_int_equal(err.column, column);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("", 1, "empty");
    expect_error("   ", 4, "empty");
    expect_error("1 +", 4, "ends too early");
    expect_error("(1", 3, "expected ')'");
    expect_error("1 2", 3, "unexpected '2'");
    expect_error("threadIdx.w", 1, "unknown identifier 'threadIdx.w'");
    expect_error("foo.x", 1, "unknown identifier 'foo.x'");
    expect_error("threadIdx.", 11, "member name");
    expect_error("1.5", 1, "not an integer");
    expect_error("09", 1, "octal");
    expect_error("0x", 1, "hexadecimal");
    expect_error("12abc", 1, "not an integer");
    expect_error("99999999999999999999", 1, "too large");
    expect_error("9223372036854775808", 1, "too large");
    expect_error("1 --2", 3, "unexpected '-'");
    expect_error("--2", 1, "not an integer expression operator");
    expect_error("a = 1", 1, "unknown identifier 'a'");
    expect_error("1 = 1", 3, "unexpected '='");
    expect_error("1 ? 2", 6, "expected ':'");
    expect_error("min(1)", 6, "expected ','");
    expect_error("threadIdx.x @ 2", 13, "unexpected '@'");
    char deep[1000];
    memset(deep, '(', 600);
    deep[600] = '1';
    deep[601] = '\0';
    expect_error(deep, -1, "nested too deeply");
}

static void test_decl(void **state)
{
    (void)state;
    cexpr_decl d;
    cexpr_error err;
    assert_true(cexpr_parse_decl("float tile[32][33]", &d, &err));
    assert_string_equal(d.type, "float");
    assert_string_equal(d.name, "tile");
    assert_int_equal(d.elem_size, 4);
    assert_int_equal(d.n_dims, 2);
    assert_int_equal(d.dims[0], 32);
    assert_int_equal(d.dims[1], 33);
    assert_true(cexpr_parse_decl("  __shared__ double2 buf[256];  ", &d, &err));
    assert_int_equal(d.elem_size, 16);
    assert_true(cexpr_parse_decl("__shared__ __align__(16) unsigned int x[4][8 + 1]", &d, &err));
    assert_string_equal(d.type, "unsigned int");
    assert_int_equal(d.dims[1], 9);
    assert_true(cexpr_parse_decl("extern __shared__ float s[]", &d, &err));
    assert_int_equal(d.n_dims, 1);
    assert_int_equal(d.dims[0], 0);
    assert_true(cexpr_parse_decl("char c[3]", &d, &err));
    assert_int_equal(d.elem_size, 1);

    assert_false(cexpr_parse_decl("float tile", &d, &err));
    assert_non_null(strstr(err.msg, "expected '['"));
    assert_false(cexpr_parse_decl("floot tile[3]", &d, &err));
    assert_string_equal(err.msg, "unknown element type 'floot'");
    assert_false(cexpr_parse_decl("float tile[0]", &d, &err));
    assert_non_null(strstr(err.msg, "positive"));
    assert_false(cexpr_parse_decl("float tile[n]", &d, &err));
    assert_string_equal(err.msg, "unknown identifier 'n'");
    assert_false(cexpr_parse_decl("float t[1][2][3][4][5]", &d, &err));
    assert_false(cexpr_parse_decl("float t[2][]", &d, &err));
    assert_false(cexpr_parse_decl("tile[3]", &d, &err));
    assert_false(cexpr_parse_decl("float tile[3] x", &d, &err));
    assert_false(cexpr_parse_decl("", &d, &err));
    assert_int_equal(cexpr_type_size("__half"), 2);
    assert_int_equal(cexpr_type_size("float4"), 16);
    assert_int_equal(cexpr_type_size("struct"), 0);
}

static void test_access(void **state)
{
    (void)state;
    cexpr_decl d;
    cexpr_access a;
    cexpr_error err;
    char why[200];
    assert_true(cexpr_parse_decl("float tile[32][33]", &d, &err));
    assert_true(cexpr_parse_access("tile[threadIdx.x][threadIdx.y]", false, &a, &err));
    assert_int_equal(a.n_idx, 2);
    expr *off = cexpr_byte_offset(&d, &a, why, sizeof why);
    assert_non_null(off);
    expr_env env;
    expr_env_init(&env);
    expr_env_set_builtin(&env, SYM_TID_X, 2);
    expr_env_set_builtin(&env, SYM_TID_Y, 5);
    int64_t v;
    assert_int_equal(expr_eval(off, &env, &v, NULL), EXPR_OK);
    assert_int_equal(v, (2 * 33 + 5) * 4);
    expr_free(off);
    cexpr_access_free(&a);

    assert_true(cexpr_parse_access("t[threadIdx.x]", false, &a, &err));
    assert_null(cexpr_byte_offset(&d, &a, why, sizeof why));
    assert_non_null(strstr(why, "'t'"));
    cexpr_access_free(&a);
    assert_true(cexpr_parse_access("tile[threadIdx.x]", false, &a, &err));
    assert_null(cexpr_byte_offset(&d, &a, why, sizeof why));
    assert_non_null(strstr(why, "2 dimensions"));
    cexpr_access_free(&a);

    assert_false(cexpr_parse_access("tile", false, &a, &err));
    assert_false(cexpr_parse_access("tile[threadIdx.x", false, &a, &err));
    assert_false(cexpr_parse_access("tile[threadIdx.x] + 1", false, &a, &err));
    assert_false(cexpr_parse_access("tile[j]", false, &a, &err));
    assert_string_equal(err.msg, "unknown identifier 'j'");
    assert_int_equal(err.column, 6);
    assert_false(cexpr_parse_access("[1]", false, &a, &err));
    assert_true(cexpr_parse_access("tile[j][k]", true, &a, &err));
    cexpr_access_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_literals),
        cmocka_unit_test(test_builtins_and_names),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_decl),
        cmocka_unit_test(test_access),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
