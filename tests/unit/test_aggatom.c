/* test_aggatom: which PTX atomics ptxas aggregates a warp at a time, on
 * the shape of HeCBench's all-pairs-distance k1 (whose SASS has
 * REDUX.SUM, VOTEU.ANY, UFLO and one REDG for each atomicAdd), and each
 * way out: an address from the thread index, a result that is read, a
 * float add, a register written twice, and a target without REDUX. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "input/ptx.h"

/* The aggregated flags of kernel k's instructions whose op starts "atom"
 * or "red", in order, as a string of 'y' and 'n'. */
static void flags(const char *target, const char *body, char *out, size_t size)
{
    char text[4096];
    snprintf(text, sizeof text,
             ".version 8.0\n.target %s\n.address_size 64\n"
             ".visible .entry k(.param .u64 p0, .param .u64 p1)\n{\n%s}\n",
             target, body);
    ptx_module m;
    ptx_parse(text, strlen(text), &m);
    assert_int_equal(m.problem_line, 0);
    assert_int_equal(m.n_functions, 1);
    size_t n = 0;
    for (size_t i = 0; i < m.functions[0].n_insns && n + 1 < size; i++) {
        const imix_insn *in = &m.functions[0].insns[i];
        if (!strncmp(in->op, "atom", 4) || !strncmp(in->op, "red", 3))
            out[n++] = in->aggregated ? 'y' : 'n';
    }
    out[n] = '\0';
    ptx_module_free(&m);
}

/* distance + 4 * (224 * blockIdx.x + blockIdx.y), from a parameter. */
#define UNIFORM_ADDRESS                                                                            \
    "ld.param.u64 %rd1, [p1];\n"                                                                   \
    "cvta.to.global.u64 %rd2, %rd1;\n"                                                             \
    "mov.u32 %r1, %ctaid.x;\n"                                                                     \
    "mov.u32 %r2, %ctaid.y;\n"                                                                     \
    "mad.lo.s32 %r3, %r1, 224, %r2;\n"                                                             \
    "mul.wide.s32 %rd3, %r3, 4;\n"                                                                 \
    "add.s64 %rd4, %rd2, %rd3;\n"                                                                  \
    "mov.u32 %r4, %tid.x;\n"

static void test_uniform_address(void **state)
{
    (void)state;
    char f[16];
    flags("sm_90",
          UNIFORM_ADDRESS "atom.global.add.u32 %r5, [%rd4], %r4;\n"
                          "red.global.add.s32 [%rd4+8], %r4;\n"
                          "ret;\n",
          f, sizeof f);
    assert_string_equal(f, "yy");
}

static void test_ways_out(void **state)
{
    (void)state;
    char f[16];
    /* The result read (an ATOMG with a prefix sum, not this sequence). */
    flags("sm_90",
          UNIFORM_ADDRESS "atom.global.add.u32 %r5, [%rd4], %r4;\n"
                          "add.s32 %r6, %r5, 1;\nret;\n",
          f, sizeof f);
    assert_string_equal(f, "n");
    /* A float add: REDUX sums integers only. */
    flags("sm_90", UNIFORM_ADDRESS "red.global.add.f32 [%rd4], 0f3F800000;\nret;\n", f, sizeof f);
    assert_string_equal(f, "n");
    /* The address moved by the thread index. */
    flags("sm_90",
          UNIFORM_ADDRESS "mul.wide.u32 %rd5, %r4, 4;\nadd.s64 %rd6, %rd4, %rd5;\n"
                          "red.global.add.u32 [%rd6], 1;\nret;\n",
          f, sizeof f);
    assert_string_equal(f, "n");
    /* An address register written twice (an arm's choice, a loop's step). */
    flags("sm_90",
          UNIFORM_ADDRESS "add.s64 %rd4, %rd4, 512;\nred.global.add.u32 [%rd4], %r4;\nret;\n", f,
          sizeof f);
    assert_string_equal(f, "n");
    /* An address loaded from memory: ptxas is not taken to know it uniform. */
    flags("sm_90",
          UNIFORM_ADDRESS "ld.global.u64 %rd7, [%rd4];\nred.global.add.u32 [%rd7], %r4;\nret;\n", f,
          sizeof f);
    assert_string_equal(f, "n");
    /* Before sm_80 there is no REDUX.SUM. */
    flags("sm_75", UNIFORM_ADDRESS "red.global.add.u32 [%rd4], %r4;\nret;\n", f, sizeof f);
    assert_string_equal(f, "n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uniform_address),
        cmocka_unit_test(test_ways_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
