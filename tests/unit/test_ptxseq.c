/* test_ptxseq: PTX instructions whose SASS depends on the code around
 * them, as the PTX reader marks them. Atomics ptxas aggregates a warp at
 * a time (analysis/timing/aggatom), on the shape of HeCBench's
 * all-pairs-distance k1 (whose SASS has REDUX.SUM, VOTEU.ANY, UFLO and
 * one REDG for each atomicAdd), and each way out: an address from the
 * thread index, a result that is read, a float add, a register written
 * twice, and a target without REDUX. Bytes of a four-byte vector load
 * ptxas unpacks (analysis/timing/byteunpack): those read as numbers, not
 * those only stored again. */
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

/* k3's char4 compare: all four bytes of each load compared; a uchar4 copy
 * (aligned-types) stores its bytes as loaded; a load of which two bytes
 * are read. */
static void test_byte_unpack(void **state)
{
    (void)state;
    const char *text = ".version 8.0\n.target sm_90\n.address_size 64\n"
                       ".visible .entry k(.param .u64 p0, .param .u64 p1)\n{\n"
                       "ld.param.u64 %rd1, [p0];\nld.param.u64 %rd2, [p1];\n"
                       "ld.global.v4.u8 {%rs1, %rs2, %rs3, %rs4}, [%rd1];\n"
                       "ld.global.nc.v4.u8 {%rs5, %rs6, %rs7, %rs8}, [%rd2];\n"
                       "setp.ne.s16 %p1, %rs1, %rs5;\nsetp.ne.s16 %p2, %rs2, %rs6;\n"
                       "setp.ne.s16 %p3, %rs3, %rs7;\nsetp.ne.s16 %p4, %rs4, %rs8;\n"
                       "ld.global.v4.u8 {%rs9, %rs10, %rs11, %rs12}, [%rd1+4];\n"
                       "st.global.v4.u8 [%rd2+4], {%rs9, %rs10, %rs11, %rs12};\n"
                       "ld.global.v4.u8 {%rs13, %rs14, %rs15, %rs16}, [%rd1+8];\n"
                       "add.s16 %rs17, %rs13, %rs16;\nst.global.u8 [%rd2+8], %rs17;\n"
                       "ret;\n}\n";
    ptx_module m;
    ptx_parse(text, strlen(text), &m);
    assert_int_equal(m.problem_line, 0);
    int unpacked[4], n = 0;
    for (size_t i = 0; i < m.functions[0].n_insns; i++)
        if (!strncmp(m.functions[0].insns[i].op, "ld.global", 9) && n < 4)
            unpacked[n++] = m.functions[0].insns[i].unpacked;
    ptx_module_free(&m);
    assert_int_equal(n, 4);
    assert_int_equal(unpacked[0], 4);
    assert_int_equal(unpacked[1], 4);
    assert_int_equal(unpacked[2], 0);
    assert_int_equal(unpacked[3], 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uniform_address),
        cmocka_unit_test(test_ways_out),
        cmocka_unit_test(test_byte_unpack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
