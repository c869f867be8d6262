/* depchain and ptxlat: a warp's dependent-issue time through PTX blocks,
 * on small listings whose times follow from the measured latencies
 * (tests/data/latprobe): FMA 4 clocks, div.rn.f32 44, a load that L1
 * holds 34. The listings are parsed by input/ptx, so its operand reading
 * is checked on the way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/timing/depchain.h"
#include "analysis/timing/ptxlat.h"
#include "input/ptx.h"

static const ptx_function *parse(const char *body, ptx_module *m)
{
    char text[4096];
    snprintf(text, sizeof text, ".version 8.0\n.target sm_90\n.visible .entry k(\n)\n{\n%s}\n",
             body);
    ptx_parse(text, strlen(text), m);
    assert_int_equal(m->problem_line, 0);
    assert_int_equal(m->n_functions, 1);
    return &m->functions[0];
}

static double one_block(const char *body)
{
    ptx_module m;
    const ptx_function *f = parse(body, &m);
    depchain *d = depchain_new(f->n_insns);
    double span = depchain_block(d, f->insns, f->n_insns);
    depchain_free(d);
    ptx_module_free(&m);
    return span;
}

static void test_operands(void **state)
{
    (void)state;
    ptx_module m;
    const ptx_function *f = parse("\tfma.rn.f32 %f3, %f1, %f2, %f1;\n"
                                  "\tst.global.f32 [%rd1+4], %f3;\n"
                                  "\t@!%p1 bra $L__BB0_2;\n"
                                  "\tld.global.v2.f32 {%f4, %f5}, [%rd2];\n"
                                  "$L__BB0_2:\n\tret;\n",
                                  &m);
    assert_int_equal(f->n_insns, 5);
    /* the FMA writes %f3 and reads three registers, %f1 twice */
    assert_true(f->insns[0].dst[0] && !f->insns[0].dst[1]);
    assert_true(f->insns[0].src[0] && f->insns[0].src[2] && !f->insns[0].src[3]);
    assert_true(f->insns[0].src[0] == f->insns[0].src[2]);
    /* a store writes nothing: the address and the value are read */
    assert_true(!f->insns[1].dst[0]);
    assert_true(f->insns[1].src[1] == f->insns[0].dst[0]);
    /* a guarded branch reads its predicate */
    assert_true(f->insns[2].src[0] && !f->insns[2].dst[0]);
    /* a vector load writes both lanes */
    assert_true(f->insns[3].dst[0] && f->insns[3].dst[1] && !f->insns[3].dst[2]);
    /* no integer immediate: a float's bits (0f...) and an address offset
     * are none */
    for (int i = 0; i < 5; i++)
        assert_false(f->insns[i].has_imm);
    ptx_module_free(&m);
    /* a loop counter's step and bound, hex and negative */
    f = parse("\tadd.s32 %r9, %r9, 16;\n"
              "\tsetp.ne.s32 %p2, %r9, 16384;\n"
              "\tadd.s32 %r13, %r13, -4;\n"
              "\tand.b32 %r1, %r2, 0xff;\n"
              "\tadd.f32 %f1, %f2, 0f3F800000;\n",
              &m);
    assert_int_equal(f->n_insns, 5);
    assert_true(f->insns[0].has_imm && f->insns[0].imm == 16);
    assert_true(f->insns[1].has_imm && f->insns[1].imm == 16384);
    assert_true(f->insns[2].has_imm && f->insns[2].imm == -4);
    assert_true(f->insns[3].has_imm && f->insns[3].imm == 255);
    assert_false(f->insns[4].has_imm);
    /* the register read is the one written: the counter's own */
    assert_true(f->insns[0].dst[0] == f->insns[0].src[0] &&
                f->insns[1].src[0] == f->insns[0].dst[0]);
    ptx_module_free(&m);
}

static void test_latencies(void **state)
{
    (void)state;
    bool measured;
    assert_true(ptxlat_cycles("fma.rn.f32", &measured) == 4 && measured);
    assert_true(ptxlat_cycles("div.rn.f64", &measured) == 111 && measured);
    /* not probed: taken as the measured instruction named */
    assert_true(ptxlat_cycles("sub.f32", &measured) == 4 && !measured);
    assert_true(ptxlat_cycles("rsqrt.approx.ftz.f32", &measured) == 17 && !measured);
    assert_true(ptxlat_cycles("ld.global.nc.f32", &measured) == 34 && !measured);
    assert_true(ptxlat_cycles("ld.shared.u32", &measured) == 23 && !measured);
    assert_true(ptxlat_cycles("cvt.rn.f32.s32", &measured) == 11 && !measured);
    assert_true(ptxlat_cycles("cvt.s64.s32", &measured) == 4 && !measured);
    assert_true(ptxlat_cycles("ld.param.u64", &measured) == 0 && !measured);
    /* slow-path branches: late in a division, early in a square root */
    assert_true(ptxlat_branch_at("div.rn.f32") == 40);
    assert_true(ptxlat_branch_at("sqrt.rn.f32") == 8);
    assert_true(ptxlat_branch_at("div.full.f32") == 0);
    assert_true(ptxlat_branch_at("fma.rn.f32") == 0);
}

static void test_chain_and_independent(void **state)
{
    (void)state;
    /* three dependent FMAs: the third issues at 8, the block ends at 9 */
    assert_true(one_block("\tfma.rn.f32 %f2, %f1, %f1, %f1;\n"
                          "\tfma.rn.f32 %f3, %f2, %f2, %f2;\n"
                          "\tfma.rn.f32 %f4, %f3, %f3, %f3;\n") == 9);
    /* three independent ones: one a clock, in order */
    assert_true(one_block("\tfma.rn.f32 %f2, %f1, %f1, %f1;\n"
                          "\tfma.rn.f32 %f3, %f1, %f1, %f1;\n"
                          "\tfma.rn.f32 %f4, %f1, %f1, %f1;\n") == 3);
    /* a division ptxas makes 8 instructions of: its issue slots, however
     * short the chain */
    assert_true(one_block("\tdiv.rn.f32 %f2, %f1, %f1;\n") == 8);
    /* a load, then the arithmetic that waits for it: 34 + 4 + 1 */
    assert_true(one_block("\tld.global.f32 %f2, [%rd1];\n"
                          "\tadd.f32 %f3, %f2, %f1;\n"
                          "\tmul.f32 %f4, %f3, %f1;\n") == 39);
}

static void test_barrier_fence(void **state)
{
    (void)state;
    /* the independent add after the barrier cannot fill the load's wait:
     * the barrier issues after the add that waits for the load (35), the
     * second add after the barrier (36), the block ends at 37 */
    assert_true(one_block("\tld.shared.f32 %f2, [%r1];\n"
                          "\tadd.f32 %f3, %f2, %f1;\n"
                          "\tbar.sync 0;\n"
                          "\tadd.f32 %f4, %f1, %f1;\n") == 23 + 1 + 1 + 1);
}

/* Blocks walked in order: the second waits for what the first computes. */
static void test_across_blocks(void **state)
{
    (void)state;
    ptx_module m;
    const ptx_function *f = parse("\tdiv.rn.f32 %f2, %f1, %f1;\n"
                                  "\t@%p1 bra $L__BB0_2;\n"
                                  "$L__BB0_2:\n"
                                  "\tadd.f32 %f3, %f2, %f1;\n"
                                  "\tret;\n",
                                  &m);
    depchain *d = depchain_new(f->n_insns);
    /* the division, then the branch: the division's own SASS branches
     * to its slow path 40 clocks in (FCHK and the FFMAs first), and
     * nothing after it issues before that: the block's branch at 40 */
    assert_true(depchain_block(d, f->insns, 2) == 41);
    /* the add waits for the quotient until 44, the return issues after
     * it at 45: the block ends at 46, 5 after its start */
    assert_true(depchain_block(d, f->insns + 2, 2) == 5);
    depchain_free(d);
    ptx_module_free(&m);
}

/* A one-block loop walked twice (as icount walks an innermost loop): the
 * second pass waits for what the first left in flight, the accumulator
 * and the counter, whose add, compare and branch set its length. */
static void test_loop_pass(void **state)
{
    (void)state;
    ptx_module m;
    const ptx_function *f = parse("$L__BB0_1:\n"
                                  "\tfma.rn.f32 %f1, %f2, %f2, %f1;\n"
                                  "\tadd.s32 %r1, %r1, 1;\n"
                                  "\tsetp.lt.s32 %p1, %r1, %r2;\n"
                                  "\t@%p1 bra $L__BB0_1;\n"
                                  "\tret;\n",
                                  &m);
    /* by hand: the FMA issues at t (its accumulator came 4 clocks after
     * the last pass's FMA, long before), the counter's add after it at
     * t + 1, the compare at t + 5, the branch at t + 9: 10 clocks a pass */
    depchain *d = depchain_new(f->n_insns);
    depchain_block(d, f->insns, 4);
    assert_true(depchain_block(d, f->insns, 4) == 10);
    depchain_free(d);
    ptx_module_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_operands),
        cmocka_unit_test(test_latencies),
        cmocka_unit_test(test_chain_and_independent),
        cmocka_unit_test(test_barrier_fence),
        cmocka_unit_test(test_across_blocks),
        cmocka_unit_test(test_loop_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
