/* test_exprpoly: which pairs of index expressions differ by a constant
 * (the question that decides whether two accesses through one pointer can
 * overlap), on the shapes real kernels write: a complex number's parts
 * behind a macro's products, a row a constant away, shifts; and the pairs
 * that must be refused because the difference depends on a name (n * n
 * may be 0), a division does not distribute, or a part is not known. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analysis/symbolic/cexpr.h"
#include "analysis/symbolic/exprpoly.h"

static expr *parse(const char *s)
{
    cexpr_error err;
    expr *e = cexpr_parse(s, true, &err);
    assert_non_null(e);
    return e;
}

/* Whether a - b is a constant, and which. */
static bool differ(const char *a, const char *b, int64_t *d)
{
    expr *x = parse(a), *y = parse(b);
    *d = 12345;
    bool ok = exprpoly_const_difference(x, y, d);
    expr_free(x);
    expr_free(y);
    return ok;
}

static void test_constant_apart(void **state)
{
    (void)state;
    int64_t d;
    /* hexciton's sigma_imag(i, j) against sigma_real(i, j), in bytes */
    assert_true(differ("(gid * dim * dim * 2 + 2 * (dim * i + j) + 1) * 8",
                       "(gid * dim * dim * 2 + 2 * (dim * i + j)) * 8", &d));
    assert_int_equal(d, 8);
    /* the same terms in another order, and a product spelled twice */
    assert_true(differ("n * i + j", "j + i * n", &d));
    assert_int_equal(d, 0);
    assert_true(differ("(i + 1) * n + j", "i * n + j + n - 3", &d));
    assert_int_equal(d, 3);
    assert_true(differ("(k << 2) + 4", "k * 4", &d));
    assert_int_equal(d, 4);
    assert_true(differ("-(x - 5)", "5 - x - 2", &d));
    assert_int_equal(d, 2);
    /* a division or a condition is one atom, equal where its text is */
    assert_true(differ("t / w * w + 7", "t / w * w", &d));
    assert_int_equal(d, 7);
    assert_true(differ("(r > 2 ? r - 3 : 0) + 1", "(r > 2 ? r - 3 : 0)", &d));
    assert_int_equal(d, 1);
}

static void test_refused(void **state)
{
    (void)state;
    int64_t d;
    /* restrict_promote.cu's `two`: n * n apart, which may be 0 */
    assert_false(differ("n * n + row * n + col", "row * n + col", &d));
    assert_int_equal(d, 12345);
    /* a loop counter on one side only */
    assert_false(differ("base + k", "base", &d));
    /* a division does not distribute: (t + 1) / 2 - t / 2 is 0 or 1 */
    assert_false(differ("(t + 1) / 2", "t / 2", &d));
    /* coefficients past 64 bits */
    assert_false(differ("x * 4611686018427387904 * 4", "0", &d));
}

static void test_unknown_part(void **state)
{
    (void)state;
    int64_t d;
    /* two unknowns of the same reason are not the same value */
    expr *a = expr_binary(OP_ADD, expr_unknown("read from memory"), expr_const(1));
    expr *b = expr_unknown("read from memory");
    assert_false(exprpoly_const_difference(a, b, &d));
    expr_free(a);
    expr_free(b);
}

/* exprpoly_fold's text for a, folded. */
static void folds_to(const char *a, const char *want)
{
    expr *x = parse(a), *f = exprpoly_fold(x);
    char *got = expr_to_string(f);
    assert_string_equal(got, want);
    free(got);
    expr_free(f);
    expr_free(x);
}

/* A sum that cancels inside a min folds, and so does the min around it;
 * a sum that keeps a name, or a division that does not distribute, stays. */
static void test_fold(void **state)
{
    (void)state;
    folds_to("2 * min(1, max(0, i / 65536 * 8 + 8 - i / 65536 * 8))", "2");
    folds_to("(n - n) * k + 3", "3");
    folds_to("i / 4 * 4 + 1 - i", "i / 4 * 4 + 1 - i");
    folds_to("(t + 1) / 2 - t / 2", "(t + 1) / 2 - t / 2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constant_apart),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_unknown_part),
        cmocka_unit_test(test_fold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
