/* defines: the --defines file and --define arguments: the values read
 * (decimal, hex, negative, spaces and comments around them, CRLF line
 * ends as an editor on Windows writes them), --define replacing a file's
 * value, and each refusal naming the file and line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "input/defines.h"
#include "util/exitcode.h"

static int parse(defines *d, const char *text, char *err, size_t n)
{
    return defines_parse_text(d, "s.sizes", text, strlen(text), err, n);
}

static long long value_of(const defines *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->names[i], name))
            return d->values[i];
    fail_msg("'%s' not read", name);
    return 0;
}

static void test_values(void **state)
{
    (void)state;
    defines d = {0};
    char err[512] = "";
    assert_int_equal(parse(&d,
                           "# sizes of a training step\r\n"
                           "\r\n"
                           "model->config.channels = 768   # from the checkpoint\r\n"
                           "  n=0x1000\n"
                           "offset=-3\n"
                           "Params::size=4096",
                           err, sizeof err),
                     EXIT_OK);
    assert_string_equal(err, "");
    assert_int_equal(d.n, 4);
    assert_int_equal(value_of(&d, "model->config.channels"), 768);
    assert_int_equal(value_of(&d, "n"), 4096);
    assert_int_equal(value_of(&d, "offset"), -3);
    assert_int_equal(value_of(&d, "Params::size"), 4096);
    assert_int_equal(d.lines[0], 3);
    assert_int_equal(d.lines[3], 6);
    /* The command line wins, and its value is no longer the file's. */
    assert_int_equal(defines_add_arg(&d, "n=10", err, sizeof err), EXIT_OK);
    assert_int_equal(value_of(&d, "n"), 10);
    assert_int_equal(d.lines[1], 0);
    assert_int_equal(d.n, 4);
    defines_free(&d);
}

static void refused(const char *text, const char *message)
{
    defines d = {0};
    char err[512] = "";
    assert_int_equal(parse(&d, text, err, sizeof err), EXIT_USAGE);
    assert_string_equal(err, message);
    defines_free(&d);
}

static void test_refusals(void **state)
{
    (void)state;
    refused("a=1\nb\n", "s.sizes:2: expected NAME=VALUE, not 'b'");
    refused("a=\n", "s.sizes:1: 'a' has no value (write an integer after '=')");
    refused("a=12k\n", "s.sizes:1: '12k' is not an integer (the value of 'a')");
    refused("a=99999999999999999999\n",
            "s.sizes:1: '99999999999999999999' is not an integer (the value of 'a')");
    refused("a=1\n\na=2\n", "s.sizes:3: 'a' is given twice (first at line 1)");
    refused("=4\n", "s.sizes:1: '' is not a name (a name is what gpulint prints, e.g. n or "
                    "model->config.channels)");
    refused("2n=4\n", "s.sizes:1: '2n' is not a name (a name is what gpulint prints, e.g. n or "
                      "model->config.channels)");
    refused("a b=4\n", "s.sizes:1: 'a b' is not a name (a name is what gpulint prints, e.g. n or "
                       "model->config.channels)");
    /* Control characters never reach the terminal. */
    refused("a=\x1b[31m\n", "s.sizes:1: '?[31m' is not an integer (the value of 'a')");
    char err[512];
    defines d = {0};
    assert_int_equal(defines_add_arg(&d, "N", err, sizeof err), EXIT_USAGE);
    assert_string_equal(err, "invalid --define 'N': expected NAME=INTEGER");
    assert_int_equal(defines_read_file(&d, "/nonexistent/s.sizes", err, sizeof err), EXIT_USAGE);
    assert_string_equal(err, "--defines /nonexistent/s.sizes: no such file");
    defines_free(&d);
}

static void test_too_many(void **state)
{
    (void)state;
    char text[DEFINES_MAX * 16 + 64] = "";
    size_t n = 0;
    for (int i = 0; i <= DEFINES_MAX; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "v%d=%d\n", i, i);
    char want[128];
    snprintf(want, sizeof want, "s.sizes:%d: more than %d names", DEFINES_MAX + 1, DEFINES_MAX);
    refused(text, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_too_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
