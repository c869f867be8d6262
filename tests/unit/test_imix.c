/* test_imix: the PTX and SASS readers and the instruction mix. The
 * listings below follow what CUDA 13's NVVM and cuobjdump/nvdisasm write
 * (tests/data/truth/sass has whole real listings; tests/truth_set.py checks
 * the mix of those against Nsight Compute's counters). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/timing/imix.h"
#include "input/ptx.h"
#include "input/sass.h"

static void test_classify(void **state)
{
    (void)state;
    static const struct {
        imix_level level;
        const char *op;
        imix_class cls;
        int width, lanes;
    } cases[] = {
        {IMIX_PTX, "fma.rn.f32", IMIX_FP32_FMA, 0, 1},
        {IMIX_PTX, "add.rn.ftz.f32", IMIX_FP32_ADD, 0, 1},
        {IMIX_PTX, "sub.f64", IMIX_FP64_ADD, 0, 1},
        {IMIX_PTX, "mul.rn.f64", IMIX_FP64_MUL, 0, 1},
        {IMIX_PTX, "fma.rn.f16x2", IMIX_FP16_FMA, 0, 2},
        {IMIX_PTX, "fma.rn.bf16", IMIX_FP16_FMA, 0, 1},
        {IMIX_PTX, "div.rn.f32", IMIX_SPECIAL, 0, 1},
        {IMIX_PTX, "ex2.approx.ftz.f32", IMIX_SPECIAL, 0, 1},
        {IMIX_PTX, "mul.lo.s32", IMIX_OTHER, 0, 0},
        {IMIX_PTX, "ld.shared.v4.f32", IMIX_LD_SHARED, 128, 0},
        {IMIX_PTX, "ld.shared::cta.u8", IMIX_LD_SHARED, 8, 0},
        {IMIX_PTX, "st.shared.v2.f64", IMIX_ST_SHARED, 128, 0},
        {IMIX_PTX, "ld.global.nc.f32", IMIX_LD_GLOBAL, 32, 0},
        {IMIX_PTX, "st.global.cs.v4.b32", IMIX_ST_GLOBAL, 128, 0},
        {IMIX_PTX, "ld.f32", IMIX_LD_GENERIC, 32, 0},
        {IMIX_PTX, "ld.local.u32", IMIX_LD_LOCAL, 32, 0},
        {IMIX_PTX, "ld.param.u64", IMIX_LD_CONST, 64, 0},
        {IMIX_PTX, "atom.shared.add.u32", IMIX_ATOM_SHARED, 0, 0},
        {IMIX_PTX, "red.global.add.f32", IMIX_ATOM_GLOBAL, 0, 0},
        {IMIX_PTX, "cp.async.cg.shared.global", IMIX_CP_ASYNC, 0, 0},
        {IMIX_PTX, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes", IMIX_TMA, 0,
         0},
        {IMIX_PTX, "cp.async.bulk.tensor.2d.shared::cluster.global.tile", IMIX_TMA, 0, 0},
        {IMIX_PTX, "mbarrier.try_wait.parity.shared::cta.b64", IMIX_MBARRIER, 0, 0},
        {IMIX_PTX, "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", IMIX_TENSOR, 0, 0},
        {IMIX_PTX, "tcgen05.mma.cta_group::1.kind::f16", IMIX_TENSOR, 0, 0},
        {IMIX_PTX, "wgmma.fence.sync.aligned", IMIX_OTHER, 0, 0},
        {IMIX_PTX, "wgmma.wait_group.sync.aligned", IMIX_OTHER, 0, 0},
        {IMIX_PTX, "wgmma", IMIX_OTHER, 0, 0},
        {IMIX_PTX, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", IMIX_TENSOR, 0, 0},
        {IMIX_PTX, "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", IMIX_TENSOR, 0, 0},
        {IMIX_PTX, "wmma.load.a.sync.aligned.row.m16n16k16.global.f16", IMIX_OTHER, 0, 0},
        {IMIX_PTX, "shfl.sync.bfly.b32", IMIX_SHUFFLE, 0, 0},
        {IMIX_PTX, "bar.sync", IMIX_BARRIER, 0, 0},
        {IMIX_PTX, "bra.uni", IMIX_BRANCH, 0, 0},
        {IMIX_PTX, "call.uni", IMIX_CALL, 0, 0},
        {IMIX_SASS, "FFMA", IMIX_FP32_FMA, 0, 1},
        {IMIX_SASS, "UTMALDG.2D", IMIX_TMA, 0, 0},
        {IMIX_SASS, "UBLKCP.S.G", IMIX_TMA, 0, 0},
        {IMIX_SASS, "LDGSTS.E.BYPASS.128", IMIX_CP_ASYNC, 0, 0},
        {IMIX_SASS, "SYNCS.ARRIVE.TRANS64.RED.A1T0", IMIX_MBARRIER, 0, 0},
        {IMIX_SASS, "HGMMA.64x128x16.F32.BF16", IMIX_TENSOR, 0, 0},
        {IMIX_SASS, "FADD.FTZ", IMIX_FP32_ADD, 0, 1},
        {IMIX_SASS, "DFMA.RM", IMIX_FP64_FMA, 0, 1},
        {IMIX_SASS, "HFMA2.MMA", IMIX_FP16_FMA, 0, 2},
        {IMIX_SASS, "HADD2.BF16_V2", IMIX_FP16_ADD, 0, 2},
        {IMIX_SASS, "FSETP.GT.AND", IMIX_OTHER, 0, 0},
        {IMIX_SASS, "MUFU.RCP", IMIX_SPECIAL, 0, 1},
        {IMIX_SASS, "LDS", IMIX_LD_SHARED, 32, 0},
        {IMIX_SASS, "LDS.U.128", IMIX_LD_SHARED, 128, 0},
        {IMIX_SASS, "LDS.U8", IMIX_LD_SHARED, 8, 0},
        {IMIX_SASS, "STS.64", IMIX_ST_SHARED, 64, 0},
        {IMIX_SASS, "LDSM.16.M88.4", IMIX_LD_SHARED, 128, 0},
        {IMIX_SASS, "LDG.E.128.CONSTANT", IMIX_LD_GLOBAL, 128, 0},
        {IMIX_SASS, "STG.E.U16", IMIX_ST_GLOBAL, 16, 0},
        {IMIX_SASS, "LD.E", IMIX_LD_GENERIC, 32, 0},
        {IMIX_SASS, "STL.64", IMIX_ST_LOCAL, 64, 0},
        {IMIX_SASS, "LDC.64", IMIX_LD_CONST, 0, 0},
        {IMIX_SASS, "ATOMS.ADD", IMIX_ATOM_SHARED, 0, 0},
        {IMIX_SASS, "RED.E.ADD.F32.FTZ.RN.STRONG.GPU", IMIX_ATOM_GLOBAL, 0, 0},
        {IMIX_SASS, "LDGSTS.E.BYPASS.128", IMIX_CP_ASYNC, 0, 0},
        {IMIX_SASS, "HMMA.16816.F32.BF16", IMIX_TENSOR, 0, 0},
        {IMIX_SASS, "HGMMA.64x128x16.F32.BF16", IMIX_TENSOR, 0, 0},
        {IMIX_SASS, "SHFL.BFLY", IMIX_SHUFFLE, 0, 0},
        {IMIX_SASS, "BAR.SYNC.DEFER_BLOCKING", IMIX_BARRIER, 0, 0},
        {IMIX_SASS, "EXIT", IMIX_BRANCH, 0, 0},
        {IMIX_SASS, "IMAD.WIDE.U32", IMIX_OTHER, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        imix_op op = imix_classify(cases[i].level, cases[i].op);
        if (op.cls != cases[i].cls || op.width_bits != cases[i].width || op.lanes != cases[i].lanes)
            fail_msg("%s: class %s width %d lanes %d, expected %s %d %d", cases[i].op,
                     imix_class_name(op.cls), op.width_bits, op.lanes,
                     imix_class_name(cases[i].cls), cases[i].width, cases[i].lanes);
    }
}

/* An entry with a loop, a guarded early exit and a call; a device
 * function; an extern declaration; the -lineinfo debug section. */
static const char ptx_text[] =
    "//\n// Generated by NVIDIA NVVM Compiler\n//\n"
    ".version 9.0\n.target sm_90\n.address_size 64\n\n"
    "\t// .globl\tk\n"
    ".extern .func  (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0\n);\n"
    ".func  (.param .b32 func_retval0) _Z3twof(\n\t.param .b32 _Z3twof_param_0\n)\n{\n"
    "\t.reg .f32 \t%f<3>;\n"
    "\tld.param.f32 \t%f1, [_Z3twof_param_0];\n"
    "\tadd.f32 \t%f2, %f1, %f1;\n"
    "\tst.param.f32 \t[func_retval0], %f2;\n\tret;\n\n}\n"
    ".visible .entry k(\n\t.param .u64 k_param_0,\n\t.param .u32 k_param_1\n)\n"
    ".maxntid 256, 1, 1\n{\n"
    "\t.reg .pred \t%p<3>;\n\t.reg .f32 \t%f<8>;\n"
    "\t.loc\t1 10 0\n"
    "\tld.param.u64 \t%rd1, [k_param_0];\n"
    "\tsetp.ge.s32 \t%p1, %r1, %r2;\n"
    "\t@%p1 bra \t$L__BB1_3;\n"
    "$L__BB1_2:\n"
    "\t.loc\t1 12 5\n"
    "\tld.global.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd2];\n"
    "\t.loc\t1 30 5, function_name $L__info_string0, inlined_at 1 12 5\n"
    "\tfma.rn.f32 \t%f5, %f1, %f2, %f3; /* fused */\n"
    "\tsetp.lt.s32 \t%p2, %r3, 8;\n"
    "\t@%p2 bra \t$L__BB1_2;\n"
    "\t{ // callseq 0, 0\n"
    "\t.param .b32 param0;\n"
    "\tst.param.f32 \t[param0], %f5;\n"
    "\tcall.uni (retval0), \n\t_Z3twof, \n\t(\n\tparam0\n\t);\n"
    "\t} // callseq 0\n"
    "$L__BB1_3:\n"
    "\tret;\n\n}\n"
    "\t.file\t1 \"/tmp/x/gpulint.cu\"\n"
    "\t.section\t.debug_str\n\t{\n$L__info_string0:\n.b8 95,90,0\n\n\t}\n";

/* One warp's FLOPs of an MMA from the shape its opcode names (2 m n k; a
 * warpgroup's wgmma shared by its four warps), by the inputs' type. */
static void test_tensor_shapes(void **state)
{
    (void)state;
    static const struct {
        imix_level level;
        const char *op;
        double flops;
        const char *type;
    } cases[] = {
        {IMIX_PTX, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4096, "fp16"},
        {IMIX_PTX, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 2048, "tf32"},
        {IMIX_PTX, "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", 8192, "fp16"},
        {IMIX_PTX, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 8192, "int8"},
        {IMIX_PTX, "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 512, "fp64"},
        {IMIX_PTX, "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", 65536, "bf16"},
        {IMIX_PTX, "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3", 262144, "fp8"},
        /* CUTLASS example 48 on an H200 (tests/data/hopperprobe): 2 x 5120 x 4096 x
         * 4096 FLOPs in 5,242,880 gmma warp instructions = 32,768 each */
        {IMIX_PTX, "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32", 32768, "tf32"},
        /* Example 54 (fp8, 1024 x 512 x 1024): 8,192 gmma warp instructions x
         * 131,072 = 2 M N K; example 88 (FMHA, 16 x 16 heads of 1024 x 1024,
         * d 128): 2,097,152 x 65,536 = 4 B H Q K D, both GEMMs' FLOPs. */
        {IMIX_PTX, "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3", 131072, "fp8"},
        {IMIX_PTX, "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", 65536, "fp16"},
        /* FlashAttention-3's forward, head dimension 128 (fa3_fwd): Q K^T in
         * m64n176k16 (8 a 176-key tile), P V in m64n128k16 (11): per tile
         * pair and consumer warpgroup 19 x 4 warp instructions, and 196,608
         * tile pairs x 2 warpgroups x 76 = ncu's 29,884,416 exactly. */
        {IMIX_PTX, "wgmma.mma_async.sync.aligned.m64n176k16.f32.bf16.bf16", 90112, "bf16"},
        {IMIX_SASS, "HMMA.16816.F32", 4096, "fp16"},
        {IMIX_SASS, "HMMA.16816.F32.BF16", 4096, "bf16"},
        {IMIX_SASS, "HMMA.1688.F32.TF32", 2048, "tf32"},
        {IMIX_SASS, "IMMA.16832.S8.S8", 8192, "int8"},
        {IMIX_SASS, "DMMA.884", 512, "fp64"},
        {IMIX_SASS, "HGMMA.64x128x16.F32.BF16", 65536, "bf16"},
        {IMIX_SASS, "QGMMA.64x256x32.F32.E4M3.E4M3", 262144, "fp8"},
        {IMIX_PTX, "tcgen05.mma.cta_group::1.kind::f16", 0, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int type = -1;
        double f = imix_tensor_flops(cases[i].level, cases[i].op, &type);
        if (f != cases[i].flops)
            fail_msg("%s: %g FLOPs, want %g", cases[i].op, f, cases[i].flops);
        if (cases[i].type)
            assert_string_equal(imix_tensor_type_name(type), cases[i].type);
    }
    /* counted by type in a mix; the shapeless apart */
    imix_insn in[3] = {{.op = "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"},
                       {.op = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"},
                       {.op = "tcgen05.mma.cta_group::1.kind::f16"}};
    imix m;
    imix_count(IMIX_PTX, in, 3, &m);
    assert_true(m.tensor_flops[IMIX_T_BF16] == 65536 + 4096);
    assert_int_equal(m.tensor_unknown, 1);
    assert_int_equal(m.count[IMIX_TENSOR], 3);
}

static void test_ptx(void **state)
{
    (void)state;
    ptx_module m;
    ptx_parse(ptx_text, strlen(ptx_text), &m);
    assert_int_equal(m.problem_line, 0);
    assert_string_equal(m.target, "sm_90");
    assert_int_equal(m.n_functions, 2); /* the extern declaration has no body */
    assert_string_equal(ptx_file_path(&m, 1), "/tmp/x/gpulint.cu");
    const ptx_function *two = ptx_find(&m, "_Z3twof");
    assert_non_null(two);
    assert_false(two->is_entry);
    assert_int_equal(two->n_insns, 4);
    const ptx_function *k = ptx_find(&m, "k");
    assert_non_null(k);
    assert_true(k->is_entry);
    /* ld.param, setp, bra, ld.global, fma, setp, bra, st.param, call, ret */
    assert_int_equal(k->n_insns, 10);
    assert_string_equal(k->insns[3].op, "ld.global.v4.f32");
    assert_int_equal(k->insns[3].line, 12);
    assert_int_equal(k->insns[4].line, 30); /* the helper's own line */
    assert_true(k->insns[2].guarded);
    assert_int_equal(k->insns[2].target, 9); /* $L__BB1_3: the ret */
    assert_int_equal(k->insns[6].target, 3); /* $L__BB1_2: back to the load */
    assert_string_equal(k->insns[8].op, "call.uni");

    imix mix;
    imix_count(IMIX_PTX, k->insns, k->n_insns, &mix);
    assert_int_equal(mix.backward_branches, 1);
    assert_int_equal(mix.guarded_branches, 2);
    assert_int_equal(mix.count[IMIX_CALL], 1);
    assert_int_equal(mix.width[IMIX_LD_GLOBAL][IMIX_W128], 1);
    assert_true(mix.flops[IMIX_P_FP32] == 2.0);
    ptx_module_free(&m);
}

/* nvcc's scoped temporaries put a brace on an instruction's line
 * (`{ .reg .b64 %tmp;` ... `cvta.shared.u64 %rd2, %tmp; }`, `{
 * cvt.rn.f16.f32 %rs1, %f1;}`): the instructions count and the function
 * still ends at its own brace, so the next entry reads (CUTLASS's FMHA
 * lost every kernel after the first such block). */
static void test_ptx_scoped_temporaries(void **state)
{
    (void)state;
    static const char text[] =
        ".version 9.0\n.target sm_90a\n"
        ".entry a(\n\t.param .u64 a_param_0\n)\n{\n"
        "\t{ .reg .b64 %tmp;\n"
        "\t  cvt.u64.u32 \t%tmp, %r1;\n"
        "\t  cvta.shared.u64 \t%rd1, %tmp; }\n"
        "\t{  cvt.rn.f16.f32 %rs1, %f1;}\n"
        "\tmov.b32 \t{%rs2, %rs3}, %r2;\n"
        "\tprototype_0 : .callprototype ()_ (.param .b64 _,\n\t.param .b64 _);\n"
        "\tret;\n}\n"
        ".entry b(\n)\n{\n\tadd.f32 \t%f1, %f2, %f3;\n\tret;\n}\n";
    ptx_module m;
    ptx_parse(text, strlen(text), &m);
    assert_int_equal(m.problem_line, 0);
    assert_int_equal(m.n_functions, 2);
    const ptx_function *a = ptx_find(&m, "a");
    assert_non_null(a);
    /* cvt, cvta, cvt, mov, ret: the prototype is a declaration */
    assert_int_equal(a->n_insns, 5);
    assert_string_equal(a->insns[1].op, "cvta.shared.u64");
    assert_string_equal(a->insns[2].op, "cvt.rn.f16.f32");
    const ptx_function *b = ptx_find(&m, "b");
    assert_non_null(b);
    assert_int_equal(b->n_insns, 2);
    ptx_module_free(&m);
}

static void test_ptx_damaged(void **state)
{
    (void)state;
    static const char *const texts[] = {
        ".entry k(\n)\n{\n\tadd.f32 %f1, %f2, %f3;\n", /* no closing brace */
        ".entry (\n)\n{\n}\n",                         /* no name */
        ".entry k(\n)\n{\n\t7 %r1;\n}\n",              /* not an opcode */
        ".file x\n",
        "/* open comment\n.entry k()\n{\n}\n",
        "",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        ptx_module m;
        ptx_parse(texts[i], strlen(texts[i]), &m);
        if (i < 4 && m.problem_line == 0)
            fail_msg("case %zu: no problem reported", i);
        ptx_module_free(&m);
    }
}

/* A .file directive whose index ends the text is read within the text,
 * which need not end in a NUL (libFuzzer found a read past it): a buffer
 * of exactly its bytes, which ASan guards. */
static void test_ptx_file_at_end(void **state)
{
    (void)state;
    static const char text[] = ".version 8.8\n.file 12";
    size_t n = sizeof text - 1;
    char *buf = malloc(n);
    assert_non_null(buf);
    memcpy(buf, text, n);
    ptx_module m;
    ptx_parse(buf, n, &m);
    assert_int_equal(m.problem_line, 2);
    assert_int_equal(m.n_files, 0);
    ptx_module_free(&m);
    free(buf);
}

static const char sass_text[] =
    "\nFatbin elf code:\n================\narch = sm_90\ncode version = [1,8]\n"
    "\tcode for sm_90\n\t.target\tsm_90\n\n"
    "\t\tFunction : _Z1kPf\n"
    "\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n"
    "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
    "                                                   /* 0x000fe20000000800 */\n"
    "        /*0010*/                   ISETP.GE.AND P0, PT, R0, R5, PT ;\n"
    "        /*0020*/               @P0 EXIT ;\n"
    "        /*0030*/                   HFMA2.MMA R3, -RZ, RZ, 1.875, 0 ;\n"
    "        /*0040*/                   LDS.U.128 R4, [R2] ;\n"
    "        /*0050*/               @PT FFMA R6, R4, R5, R6 ;   /* 0x0000000504067223 */\n"
    "        /*0060*/              @!P1 BRA 0x40 ;\n"
    "        /*0070*/                   STG.E desc[UR4][R8.64], R6 ;\n"
    "        /*0080*/                   EXIT ;\n"
    "        /*0090*/                   BRA 0x90;\n"
    "        ..........\n\n"
    "Fatbin elf code:\n================\narch = sm_80\n"
    "\t\tFunction : _Z1kPf\n"
    "        /*0000*/                   DFMA R2, R4, R6, R2 ;\n"
    "        /*0010*/                   EXIT ;\n";

static const char nvdisasm_text[] = "\t.section\t.text._Z1gv,\"ax\",@progbits\n"
                                    "        .global         _Z1gv\n"
                                    "_Z1gv:\n"
                                    ".text._Z1gv:\n"
                                    "        /*0000*/                   MOV R0, RZ ;\n"
                                    ".L_x_0:\n"
                                    "        /*0010*/                   FADD R0, R0, 1 ;\n"
                                    "        /*0020*/                   BRA `(.L_x_0) ;\n"
                                    "        /*0030*/                   BRA .L_x_0 ;\n";

static void test_sass(void **state)
{
    (void)state;
    sass_listing l;
    sass_parse(sass_text, strlen(sass_text), &l);
    assert_int_equal(l.problem_line, 0);
    assert_int_equal(l.n_functions, 2);
    const sass_function *f = sass_find(&l, "_Z1kPf", "sm_90");
    assert_non_null(f);
    assert_int_equal(f->n_insns, 10);
    assert_true(f->insns[2].guarded);  /* @P0 EXIT */
    assert_false(f->insns[5].guarded); /* @PT is always true */
    assert_true(f->insns[3].move);
    assert_int_equal(f->insns[6].target, 4);
    assert_int_equal(f->insns[9].target, 9);
    imix m;
    imix_count(IMIX_SASS, f->insns, f->n_insns, &m);
    assert_int_equal(m.backward_branches, 1); /* the spin at the end is no loop */
    assert_int_equal(m.guarded_branches, 2);
    assert_int_equal(m.moves, 1);
    assert_int_equal(m.count[IMIX_FP16_FMA], 0);
    assert_int_equal(m.width[IMIX_LD_SHARED][IMIX_W128], 1);
    assert_true(m.flops[IMIX_P_FP32] == 2.0);
    const sass_function *g = sass_find(&l, "_Z1kPf", "sm_80");
    assert_non_null(g);
    assert_string_equal(g->insns[0].op, "DFMA");
    sass_listing_free(&l);

    sass_parse(nvdisasm_text, strlen(nvdisasm_text), &l);
    assert_int_equal(l.n_functions, 1);
    assert_string_equal(l.functions[0].name, "_Z1gv");
    assert_int_equal(l.functions[0].n_insns, 4);
    assert_int_equal(l.functions[0].insns[3].target, 1);
    sass_listing_free(&l);

    /* -gi: a helper's frames innermost first, then the kernel's own line. */
    static const char lines_text[] =
        ".text._Z1hv:\n"
        "\t//## File \"k.cu\", line 7\n"
        "        /*0000*/                   MOV R0, RZ ;\n"
        "\t//## File \"cg.h\", line 98 inlined at \"cg.h\", line 87\n"
        "\t//## File \"cg.h\", line 87 inlined at \"k.cu\", line 9\n"
        "\t//## File \"k.cu\", line 9\n"
        "        /*0010*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
        "        /*0020*/                   EXIT ;\n"
        ".text._Z1gv:\n"
        "        /*0000*/                   EXIT ;\n";
    sass_parse(lines_text, strlen(lines_text), &l);
    assert_int_equal(l.problem_line, 0);
    assert_int_equal(l.n_files, 2);
    const imix_insn *in = l.functions[0].insns;
    assert_string_equal(sass_file_path(&l, in[0].file), "k.cu");
    assert_int_equal(in[0].line, 7);
    assert_int_equal(in[0].outer_line, 7);
    assert_string_equal(sass_file_path(&l, in[1].file), "cg.h");
    assert_int_equal(in[1].line, 98);
    assert_string_equal(sass_file_path(&l, in[1].outer_file), "k.cu");
    assert_int_equal(in[1].outer_line, 9);
    assert_int_equal(in[2].line, 98);                  /* until the next //## File line */
    assert_int_equal(l.functions[1].insns[0].line, 0); /* a new function starts unplaced */
    assert_null(sass_file_path(&l, 0));
    assert_null(sass_file_path(&l, 3));
    sass_listing_free(&l);
}

static void test_sass_damaged(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "/*0000*/ FFMA R1, R2, R3, R4 ;\n",                       /* outside a function */
        "Function : f\n/*0010*/ FADD R1 ;\n/*0000*/ FADD R1 ;\n", /* addresses go back */
        "Function : f\n/*0000*/ 42 ;\n",                          /* not an opcode */
        "Function : f\n//## File k.cu, line 3\n",                 /* no quoted path */
        "Function : f\n//## File \"k.cu\", lines\n",              /* no line number */
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        sass_listing l;
        sass_parse(texts[i], strlen(texts[i]), &l);
        if (l.problem_line == 0)
            fail_msg("case %zu: no problem reported", i);
        sass_listing_free(&l);
    }
}

static imix loop_free(double fp32, double guarded, size_t guarded_branches, size_t loops)
{
    imix m;
    memset(&m, 0, sizeof m);
    m.flops[IMIX_P_FP32] = fp32;
    m.guarded_flops[IMIX_P_FP32] = guarded;
    m.guarded_branches = guarded_branches;
    m.backward_branches = loops;
    return m;
}

static void test_check(void **state)
{
    (void)state;
    imix m = loop_free(8, 0, 0, 0);
    assert_int_equal(imix_check(&m, IMIX_P_FP32, 8, false), IMIX_AGREE);
    assert_int_equal(imix_check(&m, IMIX_P_FP32, 10, false), IMIX_SOURCE_ABOVE);
    assert_int_equal(imix_check(&m, IMIX_P_FP32, 6, false), IMIX_SOURCE_BELOW);
    assert_int_equal(imix_check(&m, IMIX_P_FP32, NAN, false), IMIX_NOT_COMPARABLE);
    assert_int_equal(imix_check(&m, IMIX_P_FP32, 8, true), IMIX_NOT_COMPARABLE);
    assert_int_equal(imix_check(&m, IMIX_P_FP64, 2, false), IMIX_NO_CODE);
    assert_int_equal(imix_check(&m, IMIX_P_FP32, 0, false), IMIX_NO_SOURCE);
    m = loop_free(8, 0, 1, 0); /* an early exit: fewer may run */
    assert_int_equal(imix_check(&m, IMIX_P_FP32, 6, false), IMIX_WITHIN);
    assert_int_equal(imix_check(&m, IMIX_P_FP32, 10, false), IMIX_SOURCE_ABOVE);
    assert_int_equal(imix_check(&m, IMIX_P_FP32, 0, false), IMIX_NOT_COMPARABLE);
    m = loop_free(8, 0, 0, 1); /* a loop: any count of 8s */
    assert_int_equal(imix_check(&m, IMIX_P_FP32, 4096, false), IMIX_NOT_COMPARABLE);
    assert_int_equal(imix_check(&m, IMIX_P_FP64, 4096, false), IMIX_NO_CODE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_ptx),
        cmocka_unit_test(test_ptx_damaged),
        cmocka_unit_test(test_ptx_file_at_end),
        cmocka_unit_test(test_ptx_scoped_temporaries),
        cmocka_unit_test(test_sass),
        cmocka_unit_test(test_sass_damaged),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_tensor_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
