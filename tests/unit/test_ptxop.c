/* test_ptxop: opcodes split at their dots, and PTX's type words against
 * the PTX ISA's table of fundamental types. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/timing/ptxop.h"

static void test_split(void **state)
{
    (void)state;
    ptxop s;
    ptxop_split("ld.global.nc.v4.f32", &s);
    assert_int_equal(s.n, 5);
    assert_string_equal(s.p[0], "ld");
    assert_string_equal(s.p[4], "f32");
    assert_true(ptxop_is(&s, "ld"));
    assert_false(ptxop_is(&s, "l"));
    assert_true(ptxop_has(&s, "nc"));
    assert_false(ptxop_has(&s, "ld")); /* the mnemonic is not a part */
    ptxop_split("IMAD.WIDE.U32", &s);
    assert_int_equal(s.n, 3);
    assert_string_equal(s.p[1], "WIDE");
    ptxop_split("bar", &s);
    assert_int_equal(s.n, 1);
    ptxop_split("", &s);
    assert_int_equal(s.n, 1);
    assert_string_equal(s.p[0], "");
    /* more parts than kept: the rest stays in the last */
    ptxop_split("a.b.c.d.e.f.g.h.i.j.k.l.m", &s);
    assert_int_equal(s.n, PTXOP_MAX_PARTS);
    assert_string_equal(s.p[PTXOP_MAX_PARTS - 1], "l.m");
    /* longer than the buffer: cut, never overrun */
    char longer[200];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    ptxop_split(longer, &s);
    assert_int_equal(s.n, 1);
    assert_int_equal(strlen(s.p[0]), sizeof s.buf - 1);
}

static void test_types(void **state)
{
    (void)state;
    assert_int_equal(ptxop_type_bits("u8"), 8);
    assert_int_equal(ptxop_type_bits("bf16"), 16);
    assert_int_equal(ptxop_type_bits("f16x2"), 32);
    assert_int_equal(ptxop_type_bits("f64"), 64);
    assert_int_equal(ptxop_type_bits("b128"), 128);
    assert_int_equal(ptxop_type_bits("pred"), 0);
    assert_int_equal(ptxop_type_bits("global"), 0);
    assert_int_equal(ptxop_type_bits("v4"), 0);
    assert_int_equal(ptxop_type_kind("s32"), PTXOP_INT);
    assert_int_equal(ptxop_type_kind("pred"), PTXOP_INT);
    assert_int_equal(ptxop_type_kind("tf32"), PTXOP_FLOAT);
    assert_int_equal(ptxop_type_kind("bf16x2"), PTXOP_FLOAT);
    assert_int_equal(ptxop_type_kind("f64"), PTXOP_F64);
    assert_int_equal(ptxop_type_kind("b128"), PTXOP_NONE);
    assert_int_equal(ptxop_type_kind("rn"), PTXOP_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
