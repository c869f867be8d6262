/* test_pipes: which pipe each instruction issues to, against what Nsight
 * Compute measured on an H200, and the clocks a scheduler spends on a mix.
 * tests/pipes_xu.py and tests/pipes_probe.py check the tables below against
 * their recordings. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/timing/pipes.h"
#include "analysis/timing/ptxcost.h"

/* XU warp instructions per PTX instruction (or per round trip of two
 * conversions): (K = 48 - K = 16) / 32 of smsp__inst_executed_pipe_xu,
 * tests/data/xuprobe/ptx_xu.csv.gz and xu.csv.gz. */
static const struct {
    const char *ptx; /* one instruction, or two separated by a space */
    double xu;
} measured_xu[] = {
    {"add.u32", 0},
    {"mad.lo.s32", 0},
    {"div.s32", 0}, /* a division by one divisor, its reciprocal made once */
    {"div.u32", 0},
    {"rem.s32", 0},
    {"rem.u32", 0},
    {"div.s64", 3},
    {"div.u64", 3},
    {"rem.s64", 3},
    {"rem.u64", 3},
    {"add.s64", 0},
    {"mul.lo.s64", 0},
    {"shl.b64", 0},
    {"shr.s64", 0},
    {"add.f32", 0},
    {"fma.rn.f32", 0},
    {"div.rn.f32", 2},
    {"div.rn.ftz.f32", 2},
    {"rcp.rn.f32", 1},
    {"rcp.approx.f32", 1},
    {"sqrt.rn.f32", 1},
    {"sqrt.approx.f32", 1},
    {"rsqrt.approx.f32", 1},
    {"ex2.approx.f32", 1},
    {"lg2.approx.f32", 1},
    {"sin.approx.f32", 1},
    {"cos.approx.f32", 1},
    {"tanh.approx.f32", 1},
    {"add.f64", 0},
    {"fma.rn.f64", 0},
    {"div.rn.f64", 1},
    {"rcp.rn.f64", 1},
    {"sqrt.rn.f64", 1},
    {"rsqrt.approx.f64", 1},
    {"cvt.rzi.s32.f32 cvt.rn.f32.s32", 1}, /* F2I, then I2FP on the ALU pipe */
    {"cvt.rzi.s64.f32 cvt.rn.f32.s64", 2},
    {"cvt.f64.f32 cvt.rn.f32.f64", 2},
    {"cvt.rzi.s32.f64 cvt.rn.f64.s32", 2},
};

static void test_xu_as_measured(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof measured_xu / sizeof measured_xu[0]; i++) {
        char ops[64];
        strcpy(ops, measured_xu[i].ptx);
        double got[PIPES_N] = {0};
        for (char *op = strtok(ops, " "); op; op = strtok(NULL, " "))
            pipes_add(IMIX_PTX, op, ptxcost_sass_per_ptx(op), got);
        if (fabs(got[PIPES_XU] - measured_xu[i].xu) > 0)
            fail_msg("%s: %g XU, measured %g", measured_xu[i].ptx, got[PIPES_XU],
                     measured_xu[i].xu);
        /* every SASS instruction of it lands on some pipe */
        double sum = 0;
        for (int p = 0; p < PIPES_N; p++)
            sum += got[p];
        char one[64];
        strcpy(one, measured_xu[i].ptx);
        double sass = 0;
        for (char *op = strtok(one, " "); op; op = strtok(NULL, " "))
            sass += ptxcost_sass_per_ptx(op);
        assert_float_equal(sum, sass, 1e-12);
    }
}

/* Warp instructions on each pipe per copy of a PTX instruction (or of
 * the instructions named, where a probe's separator did not fold away),
 * Nsight Compute on an H200: tests/data/pipeprobe (scripts/pipeprobe;
 * tests/pipes_probe.py checks every row against the recording). `known`
 * names where gpulint's count or pipe differs, and why. */
static const struct {
    const char *probe, *ptx;
    double all, alu, heavy, fp64, xu;
    const char *known;
} measured_pipes[] = {
    {"add_s32", "add.s32 xor.b32", 2, 1, 1, 0, 0, NULL}, /* IMAD.IADD beside the LOP3s */
    {"sub_s32", "sub.s32 xor.b32", 2, 1, 1, 0, 0, NULL},
    {"add_s32_mul", "add.s32", 0, 0, 0, 0, 0, "fuses into the IMAD after it"},
    {"shl_b32", "shl.b32", 1, 1, 0, 0, 0, NULL},
    {"shr_u32", "shr.u32", 1, 1, 0, 0, 0, NULL},
    {"shr_s32", "shr.s32", 1, 1, 0, 0, 0, NULL},
    {"and_b32", "and.b32", 1, 1, 0, 0, 0, NULL},
    {"or_b32", "or.b32", 1, 1, 0, 0, 0, NULL},
    {"xor_b32", "xor.b32", 1, 1, 0, 0, 0, NULL},
    {"not_b32", "not.b32", 1, 1, 0, 0, 0, NULL},
    {"lop3_b32", "lop3.b32", 1, 1, 0, 0, 0, NULL},
    {"shf_l_wrap_b32", "shf.l.wrap.b32", 1, 1, 0, 0, 0, NULL},
    {"prmt_b32", "prmt.b32", 1, 1, 0, 0, 0, NULL},
    {"bfe_u32", "bfe.u32", 2, 2, 0, 0, 0, NULL},
    {"min_s32", "min.s32", 1, 1, 0, 0, 0, NULL},
    {"max_u32", "max.u32", 1, 1, 0, 0, 0, NULL},
    {"abs_s32", "abs.s32 xor.b32", 2, 2, 0, 0, 0, NULL},
    {"neg_s32", "neg.s32 xor.b32", 2, 1, 1, 0, 0, NULL},
    {"mul_lo_s32", "mul.lo.s32", 1, 0, 1, 0, 0, NULL},
    {"mul_hi_s32", "mul.hi.s32", 1, 0, 1, 0, 0, NULL},
    {"mad_lo_s32", "mad.lo.s32", 1, 0, 1, 0, 0, NULL},
    {"popc_b32", "popc.b32", 1, 0, 0, 0, 1, NULL},
    {"clz_b32", "clz.b32", 2, 1, 0, 0, 1, NULL},
    {"brev_b32", "brev.b32", 1, 0, 0, 0, 1, NULL},
    {"setp_selp_s32", "setp.lt.s32 selp.s32", 1, 1, 0, 0, 0,
     "the pair is one IMNMX; counted as two"},
    {"cvt_f32_s32_rt", "cvt.rn.f32.s32 cvt.rzi.s32.f32", 2, 1, 0, 0, 1, NULL},
    {"add_s64", "add.s64 xor.b64", 4, 3, 1, 0, 0,
     "a data add is two SASS (IADD3, IMAD.X); in addresses ptxas folds it: counted as one"},
    {"sub_s64", "sub.s64 xor.b64", 4, 3, 1, 0, 0, "as add_s64"},
    {"shl_b64", "shl.b64", 2, 2, 0, 0, 0, NULL},
    {"add_f32", "add.f32", 1, 0, 0, 0, 0, NULL}, /* FMA-lite */
    {"mul_f32", "mul.f32", 1, 0, 0, 0, 0, NULL},
    {"fma_rn_f32", "fma.rn.f32", 1, 0, 0, 0, 0, NULL},
    {"min_f32", "min.f32", 1, 1, 0, 0, 0, NULL},
    {"max_f32", "max.f32", 1, 1, 0, 0, 0, NULL},
    {"setp_selp_f32", "setp.lt.f32 selp.f32", 2, 2, 0, 0, 0, NULL},
    {"cvt_rni_f32", "cvt.rni.f32.f32", 1, 0, 0, 0, 1, NULL},
    {"add_f64", "add.f64", 1, 0, 0, 1, 0, NULL},
    {"fma_rn_f64", "fma.rn.f64", 1, 0, 0, 1, 0, NULL},
    {"min_f64", "min.f64", 8, 3.5, 3.5, 1, 0, NULL},
    {"setp_selp_f64", "setp.lt.f64 selp.f64", 3, 2, 0, 1, 0, NULL},
    /* stop 71 */
    {"max_f64", "max.f64", 8, 3.5, 3.5, 1, 0, NULL},
    {"bfe_s32", "bfe.s32", 2, 2, 0, 0, 0, NULL},
    {"min_s64", "min.s64 xor.b64", 6, 6, 0, 0, 0, NULL},
    {"setp_selp_s64", "setp.lt.s64 selp.s64 xor.b64", 6, 6, 0, 0, 0, NULL},
    {"mul_lo_s64", "mul.lo.s64 xor.b64", 6, 3, 3, 0, 0, NULL},
    {"shr_s64", "shr.s64 xor.b64", 4, 4, 0, 0, 0, NULL},
};

/* Whether gpulint's pipes for the row's instructions agree with the
 * measurement: the totals, XU and FP64 exactly; the integer pipes
 * together, and each where no instruction may go to either. */
static bool pipes_agree(int row)
{
    char ops[96];
    snprintf(ops, sizeof ops, "%s", measured_pipes[row].ptx);
    double got[PIPES_N] = {0};
    for (char *op = strtok(ops, " "); op; op = strtok(NULL, " ")) {
        if (!strcmp(op, "xor.b64") && strchr(measured_pipes[row].ptx, ' '))
            got[PIPES_ALU] += 2; /* the separator: two LOP3.LUT a copy in sass.txt */
        else
            pipes_add(IMIX_PTX, op, ptxcost_sass_per_ptx(op), got);
    }
    double all = 0;
    for (int p = 0; p < PIPES_N; p++)
        all += got[p];
    double alu = measured_pipes[row].alu, heavy = measured_pipes[row].heavy;
    double lite =
        measured_pipes[row].all - alu - heavy - measured_pipes[row].fp64 - measured_pipes[row].xu;
    double either = got[PIPES_ALU_OR_HEAVY];
    bool placed = either > 0 ? alu >= got[PIPES_ALU] && heavy >= got[PIPES_FMA_HEAVY]
                             : alu == got[PIPES_ALU] && heavy == got[PIPES_FMA_HEAVY];
    return all == measured_pipes[row].all && got[PIPES_XU] == measured_pipes[row].xu &&
           got[PIPES_FP64] == measured_pipes[row].fp64 &&
           got[PIPES_ALU] + got[PIPES_FMA_HEAVY] + either == alu + heavy && placed &&
           got[PIPES_OTHER] == lite;
}

static void test_pipes_as_measured(void **state)
{
    (void)state;
    int wrong = 0;
    for (int i = 0; i < (int)(sizeof measured_pipes / sizeof measured_pipes[0]); i++) {
        bool agree = pipes_agree(i);
        if (!measured_pipes[i].known && !agree)
            print_error("%s: gpulint's pipes differ from the measured ones\n",
                        measured_pipes[i].probe);
        if (measured_pipes[i].known && agree)
            print_error("%s: now as measured; drop its note (%s)\n", measured_pipes[i].probe,
                        measured_pipes[i].known);
        wrong += !measured_pipes[i].known != agree;
    }
    assert_int_equal(wrong, 0);
}

/* The one pipe a single instruction of op lands on; PIPES_N: none or several. */
static pipes_pipe pipe_of(imix_level level, const char *op)
{
    double got[PIPES_N] = {0};
    pipes_add(level, op, 1, got);
    for (int p = 0; p < PIPES_N; p++)
        if (got[p] == 1)
            return (pipes_pipe)p;
    return PIPES_N;
}

/* The pipes Nsight Compute's documentation names for each SASS opcode, and
 * what ptxas makes of the PTX (mask's and all-pairs-distance's listings in
 * tests/data/hecbench/sass). */
static void test_classes(void **state)
{
    (void)state;
    assert_int_equal(pipe_of(IMIX_SASS, "IMAD.WIDE.U32"), PIPES_FMA_HEAVY);
    assert_int_equal(pipe_of(IMIX_SASS, "IMAD.MOV.U32"), PIPES_FMA_HEAVY);
    assert_int_equal(pipe_of(IMIX_SASS, "HFMA2.MMA"), PIPES_FMA_HEAVY); /* a move */
    assert_int_equal(pipe_of(IMIX_SASS, "HFMA2"), PIPES_OTHER);
    assert_int_equal(pipe_of(IMIX_SASS, "ISETP.GE.AND"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_SASS, "LOP3.LUT"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_SASS, "I2FP.F32.S32"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_SASS, "I2F.RP"), PIPES_XU);
    assert_int_equal(pipe_of(IMIX_SASS, "MUFU.RCP"), PIPES_XU);
    assert_int_equal(pipe_of(IMIX_SASS, "DFMA"), PIPES_FP64);
    assert_int_equal(pipe_of(IMIX_SASS, "FFMA"), PIPES_OTHER);
    assert_int_equal(pipe_of(IMIX_SASS, "LDG.E"), PIPES_OTHER);

    assert_int_equal(pipe_of(IMIX_PTX, "mad.lo.s32"), PIPES_FMA_HEAVY);
    assert_int_equal(pipe_of(IMIX_PTX, "mul.wide.s32"), PIPES_FMA_HEAVY);
    assert_int_equal(pipe_of(IMIX_PTX, "add.s32"), PIPES_ALU_OR_HEAVY);
    assert_int_equal(pipe_of(IMIX_PTX, "shl.b32"), PIPES_ALU_OR_HEAVY);
    assert_int_equal(pipe_of(IMIX_PTX, "add.s64"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_PTX, "shr.u32"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_PTX, "and.b32"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_PTX, "setp.lt.s32"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_PTX, "setp.lt.f32"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_PTX, "setp.lt.f64"), PIPES_FP64);
    assert_int_equal(pipe_of(IMIX_PTX, "selp.f64"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_PTX, "max.f32"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_PTX, "abs.s32"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_PTX, "neg.f32"), PIPES_OTHER); /* an operand's modifier */
    assert_int_equal(pipe_of(IMIX_PTX, "fma.rn.f32"), PIPES_OTHER);
    assert_int_equal(pipe_of(IMIX_PTX, "fma.rn.f64"), PIPES_FP64);
    assert_int_equal(pipe_of(IMIX_PTX, "mul.f64"), PIPES_FP64);
    assert_int_equal(pipe_of(IMIX_PTX, "popc.b32"), PIPES_XU);
    assert_int_equal(pipe_of(IMIX_PTX, "cvt.rn.f32.f16"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_PTX, "cvt.rni.f32.f32"), PIPES_XU);
    assert_int_equal(pipe_of(IMIX_PTX, "cvt.u32.u16"), PIPES_ALU);
    assert_int_equal(pipe_of(IMIX_PTX, "ld.global.f32"), PIPES_OTHER);
    assert_int_equal(pipe_of(IMIX_PTX, "mov.u32"), PIPES_OTHER);
    assert_int_equal(pipe_of(IMIX_PTX, "bra.uni"), PIPES_OTHER);
    assert_string_equal(pipes_name(PIPES_ALU_OR_HEAVY), "alu_or_fma_heavy");
    assert_string_equal(pipes_name(PIPES_N), "?");
}

/* A 32-bit division by a register: the reciprocal's three XU instructions,
 * the rest IMADs and adds. */
static void test_divisor_setup(void **state)
{
    (void)state;
    double got[PIPES_N] = {0};
    pipes_add_divisor_setup(8, got);
    assert_float_equal(got[PIPES_XU], 3, 0);
    assert_float_equal(got[PIPES_ALU] + got[PIPES_FMA_HEAVY], 5, 1e-12);
}

/* Clocks a warp instruction, by hand. */
static void test_issue_clocks(void **state)
{
    (void)state;
    const double hopper[PIPES_N] = {
        [PIPES_ALU] = 2, [PIPES_FMA_HEAVY] = 2, [PIPES_FP64] = 2, [PIPES_XU] = 8};
    const double none[PIPES_N] = {0};
    /* FFMA alone, and anything where no pipe is slower than issue */
    double ffma[PIPES_N] = {[PIPES_OTHER] = 100};
    assert_float_equal(pipes_issue_clocks(ffma, hopper), 1, 0);
    double mix[PIPES_N] = {
        [PIPES_ALU] = 33, [PIPES_FMA_HEAVY] = 32, [PIPES_XU] = 7, [PIPES_OTHER] = 28};
    assert_float_equal(pipes_issue_clocks(mix, none), 1, 0);
    /* mask's kernels from their SASS: 1 + .33^2 + .32^2 + 7 x .07^2 */
    assert_float_equal(pipes_issue_clocks(mix, hopper),
                       1 + 0.33 * 0.33 + 0.32 * 0.32 + 7 * 0.07 * 0.07, 1e-12);
    /* all ALU: every second clock */
    double alu[PIPES_N] = {[PIPES_ALU] = 10};
    assert_float_equal(pipes_issue_clocks(alu, hopper), 2, 0);
    /* XU at a third: the pipe's bound (8 / 3) over the waits (1 + 7 / 9) */
    double xu[PIPES_N] = {[PIPES_XU] = 1, [PIPES_OTHER] = 2};
    assert_float_equal(pipes_issue_clocks(xu, hopper), 8.0 / 3, 1e-12);
    /* adds and shifts even out the two integer pipes: 40 ALU, 0 IMAD and
     * 20 either make 40 and 20; 10, 10 and 20 make 20 and 20 */
    double uneven[PIPES_N] = {[PIPES_ALU] = 40, [PIPES_ALU_OR_HEAVY] = 20, [PIPES_OTHER] = 40};
    assert_float_equal(pipes_issue_clocks(uneven, hopper), 1 + 0.4 * 0.4 + 0.2 * 0.2, 1e-12);
    double even[PIPES_N] = {
        [PIPES_ALU] = 10, [PIPES_FMA_HEAVY] = 10, [PIPES_ALU_OR_HEAVY] = 20, [PIPES_OTHER] = 60};
    assert_float_equal(pipes_issue_clocks(even, hopper), 1 + 2 * 0.2 * 0.2, 1e-12);
    double empty[PIPES_N] = {0};
    assert_float_equal(pipes_issue_clocks(empty, hopper), 1, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xu_as_measured),    cmocka_unit_test(test_classes),
        cmocka_unit_test(test_pipes_as_measured), cmocka_unit_test(test_divisor_setup),
        cmocka_unit_test(test_issue_clocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
