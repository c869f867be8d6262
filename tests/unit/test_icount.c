/* icount: warp instructions from the code's blocks and the source's counts,
 * against Nsight Compute's smsp__inst_executed for a real kernel and on
 * small listings whose counts follow from their shape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/timing/icount.h"
#include "input/ptx.h"
#include "input/sass.h"
#include "util/fileio.h"

static int file_of(const sass_listing *l, const char *suffix)
{
    for (size_t i = 0; i < l->n_files; i++) {
        size_t n = strlen(l->files[i]), k = strlen(suffix);
        if (n >= k && strcmp(l->files[i] + n - k, suffix) == 0)
            return (int)i + 1;
    }
    return 0;
}

/* reduce0<int> over 2^24 ints in 65536 blocks of 256 threads (the truth
 * set's run): 524,288 warps. Its anchors are what the source analysis
 * counts: the load and the first store once per warp, the tree loop 8
 * iterations per warp, its shared accesses in the warps with a lane whose
 * tid % (2s) == 0 (8 warps for s = 1..16, then 4, 2, 1: 47 of 64 per
 * block), and block 0's lane 0 at the end. Nsight Compute measured
 * 131,203,072 warp instructions (h100/cuda-samples_reduction.reduce0.csv). */
static void test_reduce0(void **state)
{
    (void)state;
    char *text;
    size_t len;
    assert_int_equal(fileio_read(ICOUNT_DATA "/reduce0-int.sass", 1 << 20, &text, &len), FILEIO_OK);
    sass_listing l;
    sass_parse(text, len, &l);
    free(text);
    assert_int_equal(l.problem_line, 0);
    const sass_function *f = sass_find(&l, "_Z7reduce0IiEvPT_S1_j", NULL);
    assert_non_null(f);
    int k = file_of(&l, "reduction_kernel.cu");
    assert_true(k > 0);
    const double warps = 65536.0 * 8, blocks = 65536.0, tree = blocks * 47;
    const icount_anchor a[] = {
        {k, 114, ICOUNT_LOAD_GLOBAL, warps, 0, 0, 0, 0},
        {k, 114, ICOUNT_STORE_SHARED, warps, 0, 0, 0, 0},
        {k, 119, ICOUNT_LOOP, 8 * warps, 0, 0, 0, 0},
        {k, 122, ICOUNT_LOAD_SHARED, tree, 0, 0, 0, 0},
        {k, 122, ICOUNT_LOAD_SHARED, tree, 0, 0, 0, 0},
        {k, 122, ICOUNT_STORE_SHARED, tree, 0, 0, 0, 0},
        {k, 130, ICOUNT_LOAD_SHARED, blocks, 0, 0, 0, 0},
        {k, 130, ICOUNT_STORE_GLOBAL, blocks, 0, 0, 0, 0},
    };
    icount r;
    assert_true(
        icount_compute(IMIX_SASS, f->insns, f->n_insns, a, sizeof a / sizeof a[0], warps, &r));
    assert_true(r.warp_insts == 131203072.0);
    /* The loop's preheader (one move) and the `@P0 EXIT` after the loop:
     * outside every loop, once per warp. */
    assert_true(r.guessed == 2 * warps);
    assert_int_equal(r.anchors_used, 8);
    sass_listing_free(&l);
}

static icount run(const char *text, const icount_anchor *a, size_t n, double warps, bool *ok)
{
    sass_listing l;
    sass_parse(text, strlen(text), &l);
    assert_int_equal(l.problem_line, 0);
    assert_int_equal(l.n_functions, 1);
    icount r;
    *ok = icount_compute(IMIX_SASS, l.functions[0].insns, l.functions[0].n_insns, a, n, warps, &r);
    sass_listing_free(&l);
    return r;
}

/* A loop nvcc unrolled by four: four loads of one site in each pass, the
 * site's 400 requests a warp shared among them; the loop's own branch
 * says 100 passes. The block after the loop (one way in from the loop's
 * exit, which also leads back) is guessed once per warp. */
static const char unrolled[] =
    ".text._Z1kv:\n"
    "\t//## File \"k.cu\", line 3\n"
    "        /*0000*/                   MOV R0, RZ ;\n"
    ".L_x_0:\n"
    "\t//## File \"k.cu\", line 5\n"
    "        /*0010*/                   LDG.E R1, desc[UR4][R2.64] ;\n"
    "        /*0020*/                   LDG.E R4, desc[UR4][R2.64+0x4] ;\n"
    "        /*0030*/                   LDG.E R5, desc[UR4][R2.64+0x8] ;\n"
    "        /*0040*/                   LDG.E R6, desc[UR4][R2.64+0xc] ;\n"
    "        /*0050*/                   FADD R0, R0, R1 ;\n"
    "\t//## File \"k.cu\", line 4\n"
    "        /*0060*/                   ISETP.NE.AND P0, PT, R7, RZ, PT ;\n"
    "        /*0070*/              @P0 BRA `(.L_x_0) ;\n"
    "\t//## File \"k.cu\", line 7\n"
    "        /*0080*/                   STG.E desc[UR4][R8.64], R0 ;\n"
    "        /*0090*/                   EXIT ;\n"
    ".L_x_1:\n"
    "        /*00a0*/                   BRA `(.L_x_1) ;\n";

static void test_unrolled(void **state)
{
    (void)state;
    bool ok;
    const icount_anchor a[] = {{1, 5, ICOUNT_LOAD_GLOBAL, 400 * 10, 0, 0, 0, 0},
                               {1, 4, ICOUNT_LOOP, 100 * 10, 0, 0, 0, 0}};
    icount r = run(unrolled, a, 2, 10, &ok);
    assert_true(ok);
    /* entry 1 + loop 7 x 100 + tail 2, per warp; the spin is never reached */
    assert_true(r.warp_insts == 10 * (1 + 700 + 2));
    assert_true(r.guessed == 10 * 2);
    assert_int_equal(r.blocks, 3);
    /* The store's anchor places the tail instead of a guess. */
    const icount_anchor b[] = {{1, 5, ICOUNT_LOAD_GLOBAL, 400 * 10, 0, 0, 0, 0},
                               {1, 4, ICOUNT_LOOP, 100 * 10, 0, 0, 0, 0},
                               {1, 7, ICOUNT_STORE_GLOBAL, 10, 0, 0, 0, 0}};
    r = run(unrolled, b, 3, 10, &ok);
    assert_true(r.guessed == 0);
    assert_int_equal(r.placed, 3);
    /* Without the loop's count, its most placed block stands for it. */
    r = run(unrolled, a, 1, 10, &ok);
    assert_true(ok && r.warp_insts == 10 * (1 + 700 + 2));
}

/* A loop with no memory access that nvcc unrolled by four: the source's
 * iteration does one FMA (2 FLOPs), the pass four FFMAs; 1024 source trips
 * are 256 passes of the six-instruction body. Before its FLOPs were read,
 * the loop's branch took all 1024 trips as passes: four times the work. */
static const char compute_loop[] =
    ".text._Z1sv:\n"
    "\t//## File \"s.cu\", line 3\n"
    "        /*0000*/                   MOV R0, RZ ;\n"
    ".L_x_0:\n"
    "\t//## File \"s.cu\", line 5\n"
    "        /*0010*/                   FFMA R1, R1, R1, R2 ;\n"
    "        /*0020*/                   FFMA R1, R1, R1, R2 ;\n"
    "        /*0030*/                   FFMA R1, R1, R1, R2 ;\n"
    "        /*0040*/                   FFMA R1, R1, R1, R2 ;\n"
    "\t//## File \"s.cu\", line 4\n"
    "        /*0050*/                   ISETP.NE.AND P0, PT, R7, RZ, PT ;\n"
    "        /*0060*/              @P0 BRA `(.L_x_0) ;\n"
    "\t//## File \"s.cu\", line 7\n"
    "        /*0070*/                   EXIT ;\n";

static void test_unrolled_compute(void **state)
{
    (void)state;
    bool ok;
    const icount_anchor a[] = {{1, 4, ICOUNT_LOOP, 1024 * 10, 2, 0, 0, 0}};
    icount r = run(compute_loop, a, 1, 10, &ok);
    assert_true(ok);
    /* entry 1 + 256 passes x 6 + exit 1, per warp */
    assert_true(r.warp_insts == 10 * (1 + 256 * 6 + 1));
    /* Copies that are no whole number of iterations are no unrolling: a
     * source iteration of 3 FLOPs against the pass's 8 takes every trip. */
    const icount_anchor b[] = {{1, 4, ICOUNT_LOOP, 1024 * 10, 3, 0, 0, 0}};
    r = run(compute_loop, b, 1, 10, &ok);
    assert_true(ok && r.warp_insts == 10 * (1 + 1024 * 6 + 1));
}

static const char split_loop[] =
    ".text._Z1rv:\n"
    "\t//## File \"r.cu\", line 4\n"
    ".L_x_0:\n"
    "        /*0000*/                   LDG.E R1, desc[UR4][R2.64] ;\n"
    "        /*0010*/                   LDG.E R4, desc[UR4][R2.64+0x4] ;\n"
    "        /*0020*/                   LDG.E R5, desc[UR4][R2.64+0x8] ;\n"
    "        /*0030*/                   LDG.E R6, desc[UR4][R2.64+0xc] ;\n"
    "        /*0040*/              @P0 BRA `(.L_x_0) ;\n"
    ".L_x_1:\n"
    "        /*0050*/                   LDG.E R1, desc[UR4][R2.64] ;\n"
    "        /*0060*/              @P1 BRA `(.L_x_1) ;\n"
    "        /*0070*/                   EXIT ;\n";

/* nvcc's split of a loop: a copy unrolled by four, then a remainder loop
 * for the iterations left. The site's 400 requests a warp and the loop's
 * 400 iterations go to the unrolled copy (100 passes); the remainder's
 * block, which no count places, is guessed once per warp. */
static void test_remainder(void **state)
{
    (void)state;
    bool ok;
    const icount_anchor a[] = {{1, 4, ICOUNT_LOAD_GLOBAL, 400, 0, 0, 0, 0},
                               {1, 4, ICOUNT_LOOP, 400, 0, 0, 0, 0}};
    icount r = run(split_loop, a, 2, 1, &ok);
    assert_true(ok);
    assert_true(r.warp_insts == 100 * 5 + 2 + 1);
    assert_true(r.guessed == 2 + 1);
}

/* The same split of a loop that moves no memory (chainprobe.cu's no-load
 * variant): four FFMA copies a pass, then a remainder of one. The
 * compiled code alone says four: the remainder holds one copy of the
 * body. The source's iteration FLOPs need not agree (a count of 5.5 FLOPs
 * against the pass's 8 would take 1.45 copies, no unrolling). */
static const char split_compute[] = ".text._Z1qv:\n"
                                    "\t//## File \"q.cu\", line 4\n"
                                    ".L_x_0:\n"
                                    "        /*0000*/                   FFMA R1, R1, R1, R2 ;\n"
                                    "        /*0010*/                   FFMA R1, R1, R1, R2 ;\n"
                                    "        /*0020*/                   FFMA R1, R1, R1, R2 ;\n"
                                    "        /*0030*/                   FFMA R1, R1, R1, R2 ;\n"
                                    "        /*0040*/              @P0 BRA `(.L_x_0) ;\n"
                                    ".L_x_1:\n"
                                    "        /*0050*/                   FFMA R1, R1, R1, R2 ;\n"
                                    "        /*0060*/              @P1 BRA `(.L_x_1) ;\n"
                                    "        /*0070*/                   EXIT ;\n";

static void test_remainder_compute(void **state)
{
    (void)state;
    bool ok;
    const icount_anchor a[] = {{1, 4, ICOUNT_LOOP, 1024, 5.5, 0, 0, 0}};
    icount r = run(split_compute, a, 1, 1, &ok);
    /* 256 passes of five instructions; the remainder's block and the
     * exit guessed once */
    assert_true(ok && r.warp_insts == 256 * 5 + 2 + 1);
    /* Without the remainder, the same count takes every trip for a pass. */
    r = run(compute_loop, a, 1, 1, &ok);
    assert_true(ok && r.warp_insts == 1 + 1024 * 6 + 1);
}

/* A struct copied whole in the source (`auto pj = p[j]`, ten fields: ten
 * sites on the line) of which NVVM loads only the four fields the body
 * reads, in a loop unrolled by four with a remainder: sixteen loads a
 * pass stand for 1.6 copies of the ten sites, while the remainder's one
 * copy of the body's arithmetic against the pass's four says 4 (HeCBench
 * nbody's accelerate_particles on sm_90). */
static const char struct_copy_loop[] =
    ".text._Z1pv:\n"
    "\t//## File \"p.cu\", line 6\n"
    ".L_x_0:\n"
    "        /*0000*/                   LDG.E R1, desc[UR4][R2.64] ;\n"
    "        /*0010*/                   LDG.E R4, desc[UR4][R2.64+0x4] ;\n"
    "        /*0020*/                   LDG.E R5, desc[UR4][R2.64+0x8] ;\n"
    "        /*0030*/                   LDG.E R6, desc[UR4][R2.64+0x24] ;\n"
    "        /*0040*/                   FFMA R7, R1, R4, R7 ;\n"
    "        /*0050*/                   LDG.E R1, desc[UR4][R2.64+0x28] ;\n"
    "        /*0060*/                   LDG.E R4, desc[UR4][R2.64+0x2c] ;\n"
    "        /*0070*/                   LDG.E R5, desc[UR4][R2.64+0x30] ;\n"
    "        /*0080*/                   LDG.E R6, desc[UR4][R2.64+0x4c] ;\n"
    "        /*0090*/                   FFMA R7, R1, R4, R7 ;\n"
    "        /*00a0*/                   LDG.E R1, desc[UR4][R2.64+0x50] ;\n"
    "        /*00b0*/                   LDG.E R4, desc[UR4][R2.64+0x54] ;\n"
    "        /*00c0*/                   LDG.E R5, desc[UR4][R2.64+0x58] ;\n"
    "        /*00d0*/                   LDG.E R6, desc[UR4][R2.64+0x74] ;\n"
    "        /*00e0*/                   FFMA R7, R1, R4, R7 ;\n"
    "        /*00f0*/                   LDG.E R1, desc[UR4][R2.64+0x78] ;\n"
    "        /*0100*/                   LDG.E R4, desc[UR4][R2.64+0x7c] ;\n"
    "        /*0110*/                   LDG.E R5, desc[UR4][R2.64+0x80] ;\n"
    "        /*0120*/                   LDG.E R6, desc[UR4][R2.64+0x9c] ;\n"
    "        /*0130*/                   FFMA R7, R1, R4, R7 ;\n"
    "        /*0140*/              @P0 BRA `(.L_x_0) ;\n"
    ".L_x_1:\n"
    "        /*0150*/                   LDG.E R1, desc[UR4][R2.64] ;\n"
    "        /*0160*/                   LDG.E R4, desc[UR4][R2.64+0x4] ;\n"
    "        /*0170*/                   LDG.E R5, desc[UR4][R2.64+0x8] ;\n"
    "        /*0180*/                   LDG.E R6, desc[UR4][R2.64+0x24] ;\n"
    "        /*0190*/                   FFMA R7, R1, R4, R7 ;\n"
    "        /*01a0*/              @P1 BRA `(.L_x_1) ;\n"
    "        /*01b0*/                   EXIT ;\n";

static void test_remainder_over_copies(void **state)
{
    (void)state;
    bool ok;
    icount_anchor a[11];
    for (int i = 0; i < 10; i++)
        a[i] = (icount_anchor){1, 6, ICOUNT_LOAD_GLOBAL, 400, 0, 0, 0, 0};
    a[10] = (icount_anchor){1, 6, ICOUNT_LOOP, 400, 0, 0, 0, 0};
    icount r = run(struct_copy_loop, a, 11, 1, &ok);
    /* 100 passes of 21 instructions (not 250); the remainder's six and
     * the exit guessed once. */
    assert_true(ok);
    assert_true(r.warp_insts == 100 * 21 + 6 + 1);
}

/* A device function with a loop, inlined twice (calNumEigenValuesLessThan
 * called for both ends of an interval, HeCBench eigenvalue): each copy is
 * a loop unrolled by four and its remainder, and the loop's two sites
 * share its count: each unrolled copy runs its half, 100 passes, rather
 * than one copy all of it and the other a guess. */
static void test_inlined_twice(void **state)
{
    (void)state;
    static const char text[] = ".text._Z1ev:\n"
                               "\t//## File \"e.cu\", line 3\n"
                               ".L_x_0:\n"
                               "        /*0000*/                   FFMA R1, R1, R1, R2 ;\n"
                               "        /*0010*/                   FFMA R1, R1, R1, R2 ;\n"
                               "        /*0020*/                   FFMA R1, R1, R1, R2 ;\n"
                               "        /*0030*/                   FFMA R1, R1, R1, R2 ;\n"
                               "        /*0040*/              @P0 BRA `(.L_x_0) ;\n"
                               ".L_x_1:\n"
                               "        /*0050*/                   FFMA R1, R1, R1, R2 ;\n"
                               "        /*0060*/              @P1 BRA `(.L_x_1) ;\n"
                               ".L_x_2:\n"
                               "        /*0070*/                   FFMA R3, R3, R3, R2 ;\n"
                               "        /*0080*/                   FFMA R3, R3, R3, R2 ;\n"
                               "        /*0090*/                   FFMA R3, R3, R3, R2 ;\n"
                               "        /*00a0*/                   FFMA R3, R3, R3, R2 ;\n"
                               "        /*00b0*/              @P0 BRA `(.L_x_2) ;\n"
                               ".L_x_3:\n"
                               "        /*00c0*/                   FFMA R3, R3, R3, R2 ;\n"
                               "        /*00d0*/              @P1 BRA `(.L_x_3) ;\n"
                               "        /*00e0*/                   EXIT ;\n";
    bool ok;
    const icount_anchor a[] = {{1, 3, ICOUNT_LOOP, 400, 2, 0, 0, 0},
                               {1, 3, ICOUNT_LOOP, 400, 2, 0, 0, 0}};
    icount r = run(text, a, 2, 1, &ok);
    /* Two unrolled copies of 100 passes of five; both remainders (two
     * each) and the exit guessed once. */
    assert_true(ok);
    assert_true(r.warp_insts == 2 * 100 * 5 + 2 * 2 + 1);
}

static double copies(const char *text, int line, size_t sites)
{
    sass_listing l;
    sass_parse(text, strlen(text), &l);
    assert_int_equal(l.problem_line, 0);
    double u =
        icount_unrolled(IMIX_SASS, l.functions[0].insns, l.functions[0].n_insns, 1, line, sites);
    sass_listing_free(&l);
    return u;
}

/* How many iterations one pass of the code's loop runs for a line's
 * loads: the unrolled copy against the remainder loop (polybench
 * gramschmidt_kernel1's shape on sm_90: four LDGs a pass, then one), the
 * copies over the source's sites where one loop holds them, and 1 where no
 * loop holds them or the line has none. */
static void test_unroll_copies(void **state)
{
    (void)state;
    assert_true(copies(split_loop, 4, 1) == 4);
    /* Where two sources sites are one load, the remainder still says 4. */
    assert_true(copies(split_loop, 4, 2) == 4);
    /* One loop of four copies: two sites unrolled twice, one site four times. */
    assert_true(copies(unrolled, 5, 2) == 2);
    assert_true(copies(unrolled, 5, 1) == 4);
    /* No load on the line; loads outside every loop. */
    assert_true(copies(unrolled, 7, 1) == 1);
    static const char straight[] =
        ".text._Z1sv:\n"
        "\t//## File \"s.cu\", line 2\n"
        "        /*0000*/                   LDG.E R1, desc[UR4][R2.64] ;\n"
        "        /*0010*/                   LDG.E R4, desc[UR4][R2.64+0x4] ;\n"
        "        /*0020*/                   EXIT ;\n";
    assert_true(copies(straight, 2, 1) == 1);
}

/* Two sites ptxas merged into one 64-bit load: one instruction, one
 * site's count, not two. */
static void test_merged(void **state)
{
    (void)state;
    static const char text[] = ".text._Z1mv:\n"
                               "\t//## File \"m.cu\", line 2\n"
                               ".L_x_0:\n"
                               "        /*0000*/                   LDS.64 R2, [R4] ;\n"
                               "        /*0010*/              @P0 BRA `(.L_x_0) ;\n"
                               "        /*0020*/                   EXIT ;\n";
    bool ok;
    const icount_anchor a[] = {{1, 2, ICOUNT_LOAD_SHARED, 30, 0, 0, 0, 0},
                               {1, 2, ICOUNT_LOAD_SHARED, 30, 0, 0, 0, 0}};
    icount r = run(text, a, 2, 1, &ok);
    assert_true(ok);
    assert_true(r.warp_insts == 30 * 2 + 1);
}

/* One way in from a block with one way out: the same count, both ways. */
static void test_flow(void **state)
{
    (void)state;
    static const char text[] =
        ".text._Z1fv:\n"
        "\t//## File \"f.cu\", line 2\n"
        "        /*0000*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;\n"
        "        /*0010*/              @P0 BRA `(.L_x_1) ;\n"
        "\t//## File \"f.cu\", line 3\n"
        "        /*0020*/                   IADD3 R1, R1, 0x1, RZ ;\n"
        "        /*0030*/                   BRA `(.L_x_2) ;\n"
        ".L_x_2:\n"
        "        /*0040*/                   IADD3 R1, R1, 0x2, RZ ;\n"
        "\t//## File \"f.cu\", line 4\n"
        "        /*0050*/                   STG.E desc[UR4][R2.64], R1 ;\n"
        ".L_x_1:\n"
        "        /*0060*/                   EXIT ;\n";
    bool ok;
    const icount_anchor a[] = {{1, 4, ICOUNT_STORE_GLOBAL, 3, 0, 0, 0, 0}};
    icount r = run(text, a, 1, 8, &ok);
    assert_true(ok);
    /* entry 2 x 8; the arm 2 x 3 (its one successor has it as its one
     * predecessor); the join after the arm, 2 x 3; the exit, a join of two
     * ways, guessed once per warp */
    assert_true(r.warp_insts == 16 + 6 + 6 + 8);
    assert_true(r.guessed == 8);
}

/* A triangular loop as nvcc compiles it: an outer loop of 40 passes whose
 * top and preheader no count places, around an inner loop of 600 passes
 * a warp. The unplaced blocks run as often as the outer loop's placed
 * block (its back edge), not as the inner loop beside them. */
static const char nested[] =
    ".text._Z1kv:\n"
    "\t//## File \"k.cu\", line 3\n"
    "        /*0000*/                   MOV R0, RZ ;\n"
    ".L_x_0:\n"
    "\t//## File \"k.cu\", line 12\n"
    "        /*0010*/                   IADD3 R1, R1, 0x1, RZ ;\n"
    "        /*0020*/                   ISETP.GT.U32.AND P1, PT, R1, 0x4f, PT ;\n"
    "        /*0030*/              @P1 BRA `(.L_x_2) ;\n"
    "\t//## File \"k.cu\", line 13\n"
    "        /*0040*/                   MOV R2, R1 ;\n"
    ".L_x_1:\n"
    "\t//## File \"k.cu\", line 14\n"
    "        /*0050*/                   FFMA R0, R0, 0.5, 1 ;\n"
    "        /*0060*/                   FFMA R0, R0, 0.5, 1 ;\n"
    "        /*0070*/                   FFMA R0, R0, 0.5, 1 ;\n"
    "        /*0080*/                   FFMA R0, R0, 0.5, 1 ;\n"
    "\t//## File \"k.cu\", line 13\n"
    "        /*0090*/                   IADD3 R2, R2, 0x4, RZ ;\n"
    "        /*00a0*/                   ISETP.LT.U32.AND P0, PT, R2, 0x50, PT ;\n"
    "        /*00b0*/              @P0 BRA `(.L_x_1) ;\n"
    ".L_x_2:\n"
    "\t//## File \"k.cu\", line 12\n"
    "        /*00c0*/                   ISETP.LT.U32.AND P2, PT, R1, 0x28, PT ;\n"
    "        /*00d0*/              @P2 BRA `(.L_x_0) ;\n"
    "\t//## File \"k.cu\", line 15\n"
    "        /*00e0*/                   STG.E desc[UR4][R8.64], R0 ;\n"
    "        /*00f0*/                   EXIT ;\n"
    ".L_x_3:\n"
    "        /*0100*/                   BRA `(.L_x_3) ;\n";

static void test_nested_guess(void **state)
{
    (void)state;
    bool ok;
    const icount_anchor a[] = {{1, 13, ICOUNT_LOOP, 600 * 10, 0, 0, 0, 0},
                               {1, 12, ICOUNT_LOOP, 40 * 10, 0, 0, 0, 0}};
    icount r = run(nested, a, 2, 10, &ok);
    assert_true(ok);
    /* entry 1, outer top 3 x 40, preheader 1 x 40, inner 7 x 600, back
     * edge 2 x 40, tail 2: per warp */
    assert_true(r.warp_insts == 10 * (1 + 120 + 40 + 4200 + 80 + 2));
    /* The outer top runs on every outer pass: its count is the outer
     * loop's, not a guess; the preheader, which the top's jump can pass,
     * and the tail after the loops stay guesses. */
    assert_true(r.guessed == 10 * (40 + 2));
}

/* A loop nvcc unrolled by two whose copies of a guarded load each sit in a
 * block of their own (entropy_opt's `if (in bounds) count[v[i]]++` over an
 * unrolled window), then the remainder's copy after the loop; no anchor
 * meets the loop's back edge (NVVM put it on the body's lines). The
 * site's 200 requests are shared by the loop's two copies (100 passes),
 * not given whole to the first and guessed again for the second. */
static const char guarded_copies[] =
    ".text._Z1gv:\n"
    "\t//## File \"g.cu\", line 4\n"
    "        /*0000*/                   MOV R0, RZ ;\n"
    ".L_x_0:\n"
    "        /*0010*/                   ISETP.GE.AND P1, PT, R0, 0x10, PT ;\n"
    "        /*0020*/              @P1 BRA `(.L_x_1) ;\n"
    "        /*0030*/                   LDG.E R1, desc[UR4][R2.64] ;\n"
    ".L_x_1:\n"
    "        /*0040*/                   ISETP.GE.AND P2, PT, R0, 0x11, PT ;\n"
    "        /*0050*/              @P2 BRA `(.L_x_2) ;\n"
    "        /*0060*/                   LDG.E R4, desc[UR4][R2.64+0x4] ;\n"
    ".L_x_2:\n"
    "        /*0070*/                   IADD3 R0, R0, 0x2, RZ ;\n"
    "        /*0080*/              @P0 BRA `(.L_x_0) ;\n"
    "        /*0090*/              @P3 BRA `(.L_x_3) ;\n"
    "        /*00a0*/                   LDG.E R5, desc[UR4][R2.64+0x8] ;\n"
    ".L_x_3:\n"
    "        /*00b0*/                   EXIT ;\n";

static void test_guarded_copies(void **state)
{
    (void)state;
    bool ok;
    const icount_anchor a[] = {{1, 4, ICOUNT_LOAD_GLOBAL, 200, 0, 0, 0, 0}};
    icount r = run(guarded_copies, a, 1, 1, &ok);
    assert_true(ok);
    /* the entry once; the loop's eight instructions 100 times each (the
     * first copy's block by its requests, the back edge's and the tops'
     * blocks as every pass runs them, the second copy's block guessed at
     * the loop's count); the three after the loop once (guesses) */
    assert_true(r.warp_insts == 1 + 100 * 8 + 3);
    assert_true(r.guessed == 100 * 1 + 3);
}

/* Loads LLVM hoisted out of a loop it unrolled in full (conv_rows'
 * kernel[KERNEL_RADIUS - j]: the source reads it 8 x 17 times a thread, the
 * code 17 times, outside every loop). Straight-line code runs once a warp,
 * whatever the source's requests say: the block is not counted 8 times. */
static void test_hoisted_straight_line(void **state)
{
    (void)state;
    static const char text[] =
        ".text._Z1hv:\n"
        "\t//## File \"h.cu\", line 3\n"
        "        /*0000*/                   LDG.E R1, desc[UR4][R2.64] ;\n"
        "        /*0010*/                   LDG.E R4, desc[UR4][R2.64+0x4] ;\n"
        "        /*0020*/                   FFMA R5, R1, R4, R5 ;\n"
        "        /*0030*/                   EXIT ;\n";
    bool ok;
    const icount_anchor a[] = {{1, 3, ICOUNT_LOAD_GLOBAL, 10 * 16, 0, 0, 0, 0}};
    icount r = run(text, a, 1, 10, &ok);
    assert_true(ok);
    assert_true(r.warp_insts == 10 * 4);
}

/* A rotated loop whose top holds no access (HeCBench mask's grid-stride
 * body: the index arithmetic, then a load in one arm, then the store and
 * the back edge). Nothing places the top, but every pass runs it: it runs
 * as often as the loop's back edge, and the time model counts it; only
 * the exit, after the loop, stays a guess. */
static const char rotated[] =
    ".text._Z1mv:\n"
    "\t//## File \"m.cu\", line 3\n"
    "        /*0000*/                   MOV R0, RZ ;\n"
    ".L_x_0:\n"
    "\t//## File \"m.cu\", line 5\n"
    "        /*0010*/                   IMAD R1, R0, R0, RZ ;\n"
    "        /*0020*/                   IMAD R2, R1, R0, RZ ;\n"
    "        /*0030*/                   ISETP.GT.AND P1, PT, R2, 0x4, PT ;\n"
    "        /*0040*/              @P1 BRA `(.L_x_1) ;\n"
    "\t//## File \"m.cu\", line 6\n"
    "        /*0050*/                   LDG.E R4, desc[UR4][R2.64] ;\n"
    ".L_x_1:\n"
    "\t//## File \"m.cu\", line 7\n"
    "        /*0060*/                   STG.E desc[UR4][R2.64], R4 ;\n"
    "\t//## File \"m.cu\", line 4\n"
    "        /*0070*/                   IADD3 R0, R0, 0x1, RZ ;\n"
    "        /*0080*/                   ISETP.LT.AND P0, PT, R0, 0x64, PT ;\n"
    "        /*0090*/              @P0 BRA `(.L_x_0) ;\n"
    "        /*00a0*/                   EXIT ;\n";

static void test_every_pass_counted(void **state)
{
    (void)state;
    bool ok;
    const icount_anchor a[] = {{1, 4, ICOUNT_LOOP, 100 * 10, 0, 0, 0, 0},
                               {1, 6, ICOUNT_LOAD_GLOBAL, 50 * 10, 0, 0, 0, 0},
                               {1, 7, ICOUNT_STORE_GLOBAL, 100 * 10, 0, 0, 0, 0}};
    icount r = run(rotated, a, 3, 10, &ok);
    assert_true(ok);
    /* entry 1, top 4 x 100, load 1 x 50, store and back edge 4 x 100,
     * exit 1: per warp */
    assert_true(r.warp_insts == 10 * (1 + 400 + 50 + 400 + 1));
    assert_true(r.guessed == 10 * 1);
}

static void test_refusals(void **state)
{
    (void)state;
    bool ok;
    static const char no_lines[] = ".text._Z1nv:\n"
                                   ".L_x_0:\n"
                                   "        /*0000*/                   IADD3 R1, R1, 0x1, RZ ;\n"
                                   "        /*0010*/              @P0 BRA `(.L_x_0) ;\n"
                                   "        /*0020*/                   EXIT ;\n";
    icount r = run(no_lines, NULL, 0, 4, &ok);
    assert_false(ok);
    assert_non_null(strstr(r.why, "no line information"));
    const icount_anchor elsewhere[] = {{1, 99, ICOUNT_LOOP, 5, 0, 0, 0, 0}};
    r = run(unrolled, elsewhere, 1, 4, &ok);
    assert_false(ok);
    assert_non_null(strstr(r.why, "met the code's lines"));
    /* Loop-free code needs no anchor: every block at most once a warp. */
    static const char straight[] = ".text._Z1sv:\n"
                                   "        /*0000*/                   IADD3 R1, R1, 0x1, RZ ;\n"
                                   "        /*0010*/                   EXIT ;\n";
    r = run(straight, NULL, 0, 4, &ok);
    assert_true(ok && r.warp_insts == 8);
    assert_false(icount_compute(IMIX_SASS, NULL, 0, NULL, 0, 4, &r));
}

/* Without SASS, a PTX block stands for what ptxas makes of it: an integer
 * division by a register is 12 warp instructions on sm_90, an IEEE float
 * division 8 (tests/data/ptxprobe), the other instructions one each. */
static void test_ptx_expansion(void **state)
{
    (void)state;
    imix_insn insns[4];
    memset(insns, 0, sizeof insns);
    const char *ops[] = {"ld.param.u32", "div.s32", "div.rn.f32", "ret"};
    for (int i = 0; i < 4; i++) {
        snprintf(insns[i].op, sizeof insns[i].op, "%s", ops[i]);
        insns[i].target = -1;
        insns[i].line = 1;
    }
    icount r;
    assert_true(icount_compute(IMIX_PTX, insns, 4, NULL, 0, 10, &r));
    /* + the stack pointer's load ptxas adds at the top (sass_prologue) */
    assert_true(r.warp_insts == 10 * (1 + 12 + 8 + 1) + 10);
    /* The same instructions read as SASS count one each. */
    assert_true(icount_compute(IMIX_SASS, insns, 4, NULL, 0, 10, &r));
    assert_true(r.warp_insts == 10 * 4);
}

/* ptxas fuses a mul.f32 with the one add or sub that reads it (no
 * rounding modifier on either: PTX lets them contract) into one FFMA:
 * (3.75f - 0.355f * s) * s is mul, sub, mul in PTX and FFMA, FMUL in SASS
 * (scripts/latprobe/fuseprobe.cu: 71,340,032 counted so against Nsight
 * Compute's 71,337,984). A product read twice, or rounded (.rn), stays. */
static void test_ptx_contraction(void **state)
{
    (void)state;
    enum { S = 1, P = 2, D = 3, Q = 4 };
    imix_insn in[8];
    memset(in, 0, sizeof in);
    const struct {
        const char *op;
        uint32_t dst, src0, src1;
    } code[] = {
        {"mul.f32", P, S, 0}, {"sub.f32", D, P, 0}, {"mul.f32", S, D, S},    {"mul.f32", Q, S, 0},
        {"add.f32", D, Q, D}, {"sub.f32", S, Q, S}, {"mul.rn.f32", P, S, 0}, {"add.f32", D, P, D},
    };
    for (int i = 0; i < 8; i++) {
        snprintf(in[i].op, sizeof in[i].op, "%s", code[i].op);
        in[i].target = -1;
        in[i].line = 1;
        in[i].dst[0] = code[i].dst;
        in[i].src[0] = code[i].src0;
        in[i].src[1] = code[i].src1;
    }
    icount r;
    /* mul, sub, mul: the first multiply fuses (two instructions); then a
     * product read twice (Q) and a rounded one (.rn) stay: five */
    assert_true(icount_compute(IMIX_PTX, in, 3, NULL, 0, 1, &r));
    assert_true(r.warp_insts == 2 + 1); /* + the prologue's stack pointer */
    assert_true(icount_compute(IMIX_PTX, in + 3, 5, NULL, 0, 1, &r));
    assert_true(r.warp_insts == 5 + 1);
}

/* A 32-bit division by a register: ptxcost's count (a chain's by one
 * divisor) plus the divisor's reciprocal once per divisor and block, as
 * ptxas leaves it in HeCBench mask's loop body on sm_90 (eight SASS
 * instructions signed, seven unsigned); by an immediate, none. */
static void test_ptx_divisors(void **state)
{
    (void)state;
    enum { X = 1, Y = 2, Z = 3, Q = 4 };
    const struct {
        const char *op;
        uint32_t src1;
    } code[] = {{"div.s32", Y}, {"rem.s32", Y}, {"div.u32", Z}, {"div.s32", 0}};
    imix_insn in[4];
    memset(in, 0, sizeof in);
    for (int i = 0; i < 4; i++) {
        snprintf(in[i].op, sizeof in[i].op, "%s", code[i].op);
        in[i].target = -1;
        in[i].line = 1;
        in[i].dst[0] = Q;
        in[i].src[0] = X;
        in[i].src[1] = code[i].src1;
    }
    icount r;
    assert_true(icount_compute(IMIX_PTX, in, 4, NULL, 0, 1, &r));
    assert_true(r.warp_insts == (12 + 8) + 10 + (9 + 7) + 12 + 1);
}

/* One kernel k of PTX body (files k.cu and h.h), counted with anchors a. */
static icount ptx_run_on(const char *body, const icount_anchor *a, size_t n, double warps,
                         const int64_t threads[3], int sm)
{
    char text[4096];
    snprintf(text, sizeof text,
             ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"k.cu\"\n"
             ".file 2 \"h.h\"\n"
             ".visible .entry k(.param .u64 p0, .param .u64 p1)\n{\n.loc 1 1 1\n%s}\n",
             body);
    ptx_module m;
    ptx_parse(text, strlen(text), &m);
    assert_int_equal(m.problem_line, 0);
    assert_int_equal(m.n_functions, 1);
    icount r;
    assert_true(icount_compute_in(IMIX_PTX, m.functions[0].insns, m.functions[0].n_insns, a, n,
                                  warps, threads, sm, &r));
    ptx_module_free(&m);
    return r;
}

static icount ptx_run_in(const char *body, const icount_anchor *a, size_t n, double warps,
                         const int64_t threads[3])
{
    return ptx_run_on(body, a, n, warps, threads, 90);
}

static icount ptx_run(const char *body, const icount_anchor *a, size_t n, double warps)
{
    return ptx_run_in(body, a, n, warps, NULL);
}

static double ptx_count(const char *body)
{
    return ptx_run(body, NULL, 0, 1).warp_insts;
}

/* What ptxas makes no SASS of (langevin's and channelSum's kernels on
 * sm_90, tests/data/hecbench/sass): copies of registers and immediates,
 * cvta.to.global, a widened offset every reader adds to a base (each add
 * an IMAD.WIDE), and a read-only load of an address its block already
 * loaded. Copies of special registers, symbols' addresses, a load at
 * another offset and a plain load stay. */
/* A loop NVVM unrolled by four whose copies' loads and stores it merged
 * into one (HeCBench overlap's incKernel, `g_out[i] = g_out[i] + 1` five
 * times: one load, +4, one store a pass): no access says 4, but the
 * counter steps -4 where the remainder loop's steps -1 and the source's
 * 1, so 400 trips are 100 passes. Where the source's step is 4 as well,
 * the counters say nothing (i stepping its own 4 beside a count of trips
 * left): every trip a pass. */
static void test_merged_unrolled_step(void **state)
{
    (void)state;
    static const char body[] = "ld.param.u64 %rd1, [p0];\n"
                               "mov.u32 %r2, 400;\n"
                               "mov.u32 %r3, 3;\n"
                               ".loc 1 3 1\n"
                               "$L__BB0_1:\n"
                               "ld.global.u32 %r4, [%rd1];\n"
                               "add.s32 %r5, %r4, 4;\n"
                               "st.global.u32 [%rd1], %r5;\n"
                               "add.s32 %r2, %r2, -4;\n"
                               "setp.ne.s32 %p1, %r2, 0;\n"
                               "@%p1 bra $L__BB0_1;\n"
                               "$L__BB0_2:\n"
                               "ld.global.u32 %r6, [%rd1];\n"
                               "add.s32 %r7, %r6, 1;\n"
                               "st.global.u32 [%rd1], %r7;\n"
                               "add.s32 %r3, %r3, -1;\n"
                               "setp.ne.s32 %p2, %r3, 0;\n"
                               "@%p2 bra $L__BB0_2;\n"
                               "ret;\n";
    const icount_anchor a[] = {{1, 3, ICOUNT_LOAD_GLOBAL, 400, 0, 0, 0, 0},
                               {1, 3, ICOUNT_STORE_GLOBAL, 400, 0, 0, 0, 0},
                               {1, 3, ICOUNT_LOOP, 400, 0, 1, 0, 0}};
    icount r = ptx_run(body, a, 3, 1);
    /* 100 passes of six; the parameter and the counters' start values
     * (moves kept: their reader adds a literal), the remainder's six
     * guessed once, the return, the stack pointer and memory descriptor */
    assert_true(r.warp_insts == 100 * 6 + 3 + 6 + 1 + 2);
    const icount_anchor by4[] = {{1, 3, ICOUNT_LOAD_GLOBAL, 400, 0, 0, 0, 0},
                                 {1, 3, ICOUNT_STORE_GLOBAL, 400, 0, 0, 0, 0},
                                 {1, 3, ICOUNT_LOOP, 400, 0, 4, 0, 0}};
    r = ptx_run(body, by4, 3, 1);
    assert_true(r.warp_insts == 400 * 6 + 3 + 6 + 1 + 2);
}

/* Double literals (scripts/ptxprobe/f64lit.cu, tests/data/ptxprobe/
 * f64lit): one that does not fit a 32-bit literal is moved into a uniform
 * register pair once a block for each value, two UMOVs from sm_90, one
 * UMOV.64 from sm_120, none before (the constant bank); a second literal
 * of one instruction goes to a register (a pair for a double); a select
 * takes each word's literal itself. */
static void test_f64_literals(void **state)
{
    (void)state;
    static const char body[] = "ld.param.u64 %rd1, [p0];\n"
                               "ld.global.f64 %fd1, [%rd1];\n"
                               /* two values that do not fit, one thrice */
                               "fma.rn.f64 %fd2, %fd1, %fd1, 0d3FEFE1DCF04A458B;\n"
                               "mul.f64 %fd3, %fd2, 0d3FEFE1DCF04A458B;\n"
                               "setp.lt.f64 %p1, %fd3, 0d3FEFE1DCF04A458B;\n"
                               "add.f64 %fd4, %fd3, 0d3FA4E71C795498AF;\n"
                               /* one that fits, and two in one instruction */
                               "mul.f64 %fd5, %fd4, 0d3FE0000000000000;\n"
                               "fma.rn.f64 %fd6, %fd5, 0d3FE0000000000000, "
                               "0d3FF4000000000000;\n"
                               /* a select's literals, and a float's second one */
                               "selp.f64 %fd7, 0d3DE5DB65F9785EBA, %fd6, %p1;\n"
                               "fma.rn.f32 %f1, %f2, 0f3F000000, 0f3FA00000;\n"
                               "@%p1 bra $L__BB0_2;\n"
                               /* the same values again, in a block of their own:
                                * the double moved again, the float's register
                                * kept from the top of the kernel */
                               "add.f64 %fd7, %fd6, 0d3FEFE1DCF04A458B;\n"
                               "fma.rn.f32 %f3, %f2, 0f3F000000, 0f3FA00000;\n"
                               "$L__BB0_2:\n"
                               "st.global.f64 [%rd1], %fd7;\n"
                               "ret;\n";
    /* 15 PTX instructions: selp.f64 is two SASS (ptxcost), and the
     * prologue's stack pointer and memory descriptor two more */
    double base = 15 + 1 + 2;
    /* sm_90: three values a block (two, then one again) and two second
     * literals (a pair, a float's register) */
    assert_true(ptx_run_on(body, NULL, 0, 1, NULL, 90).warp_insts == base + 3 * 2 + 2 + 1);
    assert_true(ptx_run_on(body, NULL, 0, 1, NULL, 0).warp_insts == base + 3 * 2 + 2 + 1);
    assert_true(ptx_run_on(body, NULL, 0, 1, NULL, 100).warp_insts == base + 3 * 2 + 2 + 1);
    assert_true(ptx_run_on(body, NULL, 0, 1, NULL, 120).warp_insts == base + 3 + 1 + 1);
    assert_true(ptx_run_on(body, NULL, 0, 1, NULL, 80).warp_insts == base + 2 + 1);
    /* A multiply by 0.355 fused into 3.75 minus it, twice (fuseprobe's
     * (3.75 - 0.355 * s) * s; f64lit2's mulsub_wide_fit): the DFMA keeps
     * 3.75, and 0.355 is a register pair made once in the block. Where
     * neither fits (0.455), each is a pair. */
    static const char fused[] = "ld.param.u64 %rd1, [p0];\n"
                                "ld.global.f64 %fd1, [%rd1];\n"
                                "mul.f64 %fd2, %fd1, 0d3FD6B851EB851EB8;\n"
                                "sub.f64 %fd3, 0d400E000000000000, %fd2;\n"
                                "mul.f64 %fd4, %fd3, %fd1;\n"
                                "mul.f64 %fd5, %fd4, 0d3FD6B851EB851EB8;\n"
                                "sub.f64 %fd6, 0d400E000000000000, %fd5;\n"
                                "st.global.f64 [%rd1], %fd6;\n"
                                "ret;\n";
    /* 9 PTX instructions, the two fused multiplies none: 7, and 2 */
    assert_true(ptx_run_on(fused, NULL, 0, 1, NULL, 90).warp_insts == 7 + 2 + 2);
    static const char wide[] = "ld.param.u64 %rd1, [p0];\n"
                               "ld.global.f64 %fd1, [%rd1];\n"
                               "mul.f64 %fd2, %fd1, 0d3FD6B851EB851EB8;\n"
                               "sub.f64 %fd3, 0d3FDD1EB851EB851F, %fd2;\n"
                               "st.global.f64 [%rd1], %fd3;\n"
                               "ret;\n";
    assert_true(ptx_run_on(wide, NULL, 0, 1, NULL, 90).warp_insts == 5 + 2 + 2 + 2);
    /* A multiplier that fits is the DFMA's own where nothing else is a
     * literal (f64lit's loop_wide: DFMA R12, R10, 0.5, R12), and not where
     * the value added is one that does not fit (f64lit2's
     * mulsub_fit_wide: both in pairs). */
    static const char half[] = "ld.param.u64 %rd1, [p0];\n"
                               "ld.global.f64 %fd1, [%rd1];\n"
                               "mul.f64 %fd2, %fd1, 0d3FE0000000000000;\n"
                               "add.f64 %fd3, %fd1, %fd2;\n"
                               "mul.f64 %fd4, %fd3, 0d3FE0000000000000;\n"
                               "sub.f64 %fd5, 0d3FDD1EB851EB851F, %fd4;\n"
                               "st.global.f64 [%rd1], %fd5;\n"
                               "ret;\n";
    assert_true(ptx_run_on(half, NULL, 0, 1, NULL, 90).warp_insts == 6 + 2 + 2 + 2);
}

/* A math function's arms for rare arguments run on no warp: cos of a
 * double tests for infinity (its x * 0 arm) and past 2^31 calls the
 * Payne-Hanek reduction (fft's fft1D_512 executes neither, tests/data/
 * ptxprobe/f64lit/fft1D_512-source.csv.gz); float sin's slow path is
 * inline, behind its own test for infinity, and reads __cudart_i2opi_f. */
static void test_rare_arms(void **state)
{
    (void)state;
    static const char dbl[] = "ld.param.u64 %rd1, [p0];\n"                   /* 1 */
                              "ld.global.f64 %fd1, [%rd1];\n"                /* 1 */
                              "abs.f64 %fd2, %fd1;\n"                        /* 1 */
                              "setp.eq.f64 %p1, %fd2, 0d7FF0000000000000;\n" /* 1 */
                              "@%p1 bra $L__BB0_2;\n"                        /* 1 */
                              "bra.uni $L__BB0_1;\n"                         /* 1 */
                              "$L__BB0_2:\n"
                              "mul.rn.f64 %fd3, %fd1, 0d0000000000000000;\n" /* 0 */
                              "bra.uni $L__BB0_3;\n"                         /* 0 */
                              "$L__BB0_1:\n"
                              "mul.f64 %fd3, %fd1, 0d3FE0000000000000;\n"     /* 1 */
                              "setp.ltu.f64 %p2, %fd2, 0d41E0000000000000;\n" /* 1 */
                              "@%p2 bra $L__BB0_3;\n"                         /* 1 */
                              "{ // callseq 0, 0\n"
                              ".param .b64 param0;\n"
                              "st.param.f64 [param0+0], %fd1;\n" /* 0 */
                              ".param .align 8 .b8 retval0[16];\n"
                              "call.uni (retval0), \n"
                              "__internal_trig_reduction_slowpathd, \n"
                              "(\n"
                              "param0\n"
                              ");\n"
                              "ld.param.f64 %fd3, [retval0+0];\n" /* 0 */
                              "}\n"
                              "$L__BB0_3:\n"
                              "st.global.f64 [%rd1], %fd3;\n" /* 1 */
                              "ret;\n";                       /* 1 */
    assert_true(ptx_count(dbl) == 11 + 2);
    static const char flt[] = "ld.param.u64 %rd1, [p0];\n"           /* 1 */
                              "ld.global.f32 %f1, [%rd1];\n"         /* 1 */
                              "abs.f32 %f2, %f1;\n"                  /* 1 */
                              "setp.ltu.f32 %p1, %f2, 0f47CE4780;\n" /* 1 */
                              "@%p1 bra $L__BB0_4;\n"                /* 1 */
                              "setp.eq.f32 %p2, %f2, 0f7F800000;\n"  /* 0 */
                              "@%p2 bra $L__BB0_3;\n"                /* 0 */
                              "bra.uni $L__BB0_1;\n"                 /* 0 */
                              "$L__BB0_3:\n"
                              "mul.rn.f32 %f3, %f1, 0f00000000;\n" /* 0 */
                              "bra.uni $L__BB0_4;\n"               /* 0 */
                              "$L__BB0_1:\n"
                              "mov.u64 %rd2, __cudart_i2opi_f;\n" /* 0 */
                              "mov.u32 %r1, 0;\n"
                              "ld.global.nc.u32 %r2, [%rd2];\n" /* 0 */
                              "cvt.rn.f32.s32 %f1, %r2;\n"      /* 0 */
                              "$L__BB0_4:\n"
                              "st.global.f32 [%rd1], %f1;\n" /* 1 */
                              "ret;\n";                      /* 1 */
    assert_true(ptx_count(flt) == 7 + 2);
}

static void test_ptx_folds(void **state)
{
    (void)state;
    double n = ptx_count("ld.param.u64 %rd1, [p0];\n"        /* 1 */
                         "ld.param.u64 %rd2, [p1];\n"        /* 1 */
                         "cvta.to.global.u64 %rd3, %rd1;\n"  /* 0 */
                         "cvta.to.global.u64 %rd4, %rd2;\n"  /* 0 */
                         "mov.u32 %r1, %tid.x;\n"            /* 1: S2R */
                         "mov.f32 %f1, 0f3F800000;\n"        /* 0 */
                         "mov.b32 %r2, %r1;\n"               /* 0 */
                         "mul.wide.s32 %rd5, %r2, 4;\n"      /* 0 */
                         "add.s64 %rd6, %rd3, %rd5;\n"       /* 1 */
                         "add.s64 %rd7, %rd4, %rd5;\n"       /* 1 */
                         "ld.global.nc.f32 %f2, [%rd6];\n"   /* 1 */
                         "ld.global.nc.f32 %f3, [%rd6];\n"   /* 0 */
                         "ld.global.nc.f32 %f4, [%rd6+4];\n" /* 1 */
                         "ld.global.f32 %f7, [%rd7];\n"      /* 1 */
                         "ld.global.f32 %f8, [%rd7];\n"      /* 1 */
                         "add.f32 %f5, %f2, %f3;\n"          /* 1 */
                         "fma.rn.f32 %f6, %f5, %f1, %f4;\n"  /* 1 */
                         "st.global.f32 [%rd7], %f6;\n"      /* 1 */
                         "ret;\n");                          /* 1 */
    assert_true(n == 13 + 2); /* + the stack pointer and memory descriptor */
    /* A parameter read again, in the entry block or in a later one after a
     * branch (fuseprobe's loop bound): the entry's read kept, none more;
     * one read first in a later block is an instruction there. */
    n = ptx_count("ld.param.u32 %r1, [p1];\n"    /* 1 */
                  "setp.lt.s32 %p1, %r1, 1;\n"   /* 1 */
                  "@%p1 bra $L__BB0_2;\n"        /* 1 */
                  "ld.param.u32 %r2, [p1];\n"    /* 0 */
                  "ld.param.u64 %rd1, [p0];\n"   /* 1 */
                  "ld.param.u64 %rd2, [p0];\n"   /* 0 */
                  "st.global.u32 [%rd1], %r2;\n" /* 1 */
                  "st.global.u32 [%rd2], %r2;\n" /* 1 */
                  "$L__BB0_2:\n"
                  "ret;\n"); /* 1 */
    assert_true(n == 7 + 2);
    /* A widened offset also read by something else than an add stays. */
    n = ptx_count("ld.param.u64 %rd1, [p0];\n"
                  "mov.u32 %r1, %ctaid.x;\n"
                  "mul.wide.s32 %rd5, %r1, 4;\n"
                  "add.s64 %rd6, %rd1, %rd5;\n"
                  "st.global.u64 [%rd6], %rd5;\n"
                  "ret;\n");
    assert_true(n == 6 + 2);
}

/* LLVM's bypass of a slow 64-bit division (HeCBench lif's size_t `i / n`):
 * where both operands fit in 32 bits the 32-bit arm runs, and the call of
 * the 64-bit routine does not. Test block 7 (setp.s64 is two), 32-bit arm
 * 1 + 1 + 9 + 7 (the divisor's reciprocal) + 1, join 2: 28, not the 103
 * both arms would give; and the prologue's two. */
static void test_ptx_division_bypass(void **state)
{
    (void)state;
    double n = ptx_count("ld.param.u64 %rd1, [p0];\n"
                         "ld.param.u64 %rd2, [p1];\n"
                         "or.b64 %rd3, %rd1, %rd2;\n"
                         "and.b64 %rd4, %rd3, -4294967296;\n"
                         "setp.eq.s64 %p1, %rd4, 0;\n"
                         "@%p1 bra $L__BB0_2;\n"
                         "div.u64 %rd5, %rd1, %rd2;\n"
                         "bra.uni $L__BB0_3;\n"
                         "$L__BB0_2:\n"
                         "cvt.u32.u64 %r1, %rd1;\n"
                         "cvt.u32.u64 %r2, %rd2;\n"
                         "div.u32 %r3, %r1, %r2;\n"
                         "cvt.u64.u32 %rd5, %r3;\n"
                         "$L__BB0_3:\n"
                         "st.global.u64 [%rd1], %rd5;\n"
                         "ret;\n");
    assert_true(n == 28 + 2);
}

/* A loop NVVM unrolled by 16 with no remainder, no access and no FLOPs
 * the source counts directly (kernels/divergence.cu's div_short: each
 * iteration's FLOPs sit in an if's arms): its counter steps 16 where the
 * source's steps 1 (`add.s32 %r9, %r9, 16; setp.ne.s32 %p2, %r9, 16384`),
 * so 16,384 trips are 1,024 passes. A step the body cannot hold (64 a
 * pass of 19 instructions: a byte offset) is no unrolling. */
static void test_unrolled_step(void **state)
{
    (void)state;
    enum { R = 1, P = 2, F = 3, N = 20 };
    imix_insn in[N];
    memset(in, 0, sizeof in);
    for (int i = 0; i < N; i++) {
        snprintf(in[i].op, sizeof in[i].op, "%s",
                 i < 16    ? "fma.rn.f32"
                 : i == 16 ? "add.s32"
                 : i == 17 ? "setp.ne.s32"
                 : i == 18 ? "bra"
                           : "ret");
        in[i].target = -1;
        in[i].file = 1;
        in[i].line = 2;
        in[i].dst[0] = in[i].src[0] = i < 16 ? F : R;
    }
    in[16].has_imm = true;
    in[16].imm = 16;
    in[17].dst[0] = P;
    in[18].dst[0] = 0;
    in[18].guarded = true;
    in[18].src[0] = P;
    in[18].target = 0;
    in[18].line = 1;
    in[19].dst[0] = in[19].src[0] = 0;
    const icount_anchor a[] = {{1, 1, ICOUNT_LOOP, 16384, 0, 1, 0, 0}};
    icount r;
    assert_true(icount_compute(IMIX_PTX, in, N, a, 1, 1, &r));
    assert_true(r.warp_insts == 1024 * 19 + 1 + 1); /* + the prologue's stack pointer */
    /* the source's step unknown, or 64 a pass of 19 instructions: every
     * trip a pass */
    const icount_anchor unknown[] = {{1, 1, ICOUNT_LOOP, 16384, 0, 0, 0, 0}};
    assert_true(icount_compute(IMIX_PTX, in, N, unknown, 1, 1, &r));
    assert_true(r.warp_insts == 16384 * 19 + 1 + 1);
    in[16].imm = 64;
    assert_true(icount_compute(IMIX_PTX, in, N, a, 1, 1, &r));
    assert_true(r.warp_insts == 16384 * 19 + 1 + 1);
}

/* hexciton's comm_aosoa_constants, in small: for i (7) for j (7) for k (7)
 * reads a[i][k] and b[k][j]. nvcc unrolls k in full; a[i][k] no longer
 * changes with j, and LLVM moves its seven copies out of the j loop. The
 * source's two sites on the line run 343 times each; in the code one sits
 * in the i loop (7 passes), the other in j (49). Before, the line's copies
 * put the i loop's block at 98 passes and j's copies of k counted as j
 * unrolled 3.5 times (14 passes): 831 instructions for 562. */
static void test_hoisted_unrolled(void **state)
{
    (void)state;
    enum { N = 22, P = 2 };
    imix_insn in[N];
    memset(in, 0, sizeof in);
    for (int i = 0; i < N; i++) {
        const char *op = i == 0               ? "mov.u32"
                         : i < 15             ? "ld.global.f32"
                         : i == 15 || i == 18 ? "add.s32"
                         : i == 16 || i == 19 ? "setp.ne.s32"
                         : i == 17 || i == 20 ? "bra"
                                              : "ret";
        snprintf(in[i].op, sizeof in[i].op, "%s", op);
        in[i].target = -1;
        in[i].file = 1;
        in[i].line = i == 0 ? 3 : i < 15 ? 10 : i < 18 ? 5 : i < 21 ? 4 : 12;
        in[i].dst[0] = i + 10;
        in[i].src[0] = i + 9;
    }
    for (int e = 17; e <= 20; e += 3) {
        in[e - 1].dst[0] = P;
        in[e].dst[0] = 0;
        in[e].src[0] = P;
        in[e].guarded = true;
    }
    in[17].target = 8; /* j */
    in[20].target = 1; /* i */
    const icount_anchor a[] = {
        {1, 10, ICOUNT_LOAD_GLOBAL, 343, 0, 0, 0, 0},
        {1, 10, ICOUNT_LOAD_GLOBAL, 343, 0, 0, 0, 0},
        {1, 5, ICOUNT_LOOP, 49, 0, 1, 0, 0},
        {1, 4, ICOUNT_LOOP, 7, 0, 1, 0, 0},
    };
    icount r;
    assert_true(icount_compute(IMIX_PTX, in, N, a, 4, 1, &r));
    assert_true(r.warp_insts == 1 + 7 * 7 + 49 * 10 + 7 * 3 + 1 + 2); /* + the prologue */
}

/* The kernel of arm_kernel(): a guarded jump over an if's arm of `adds`
 * additions on line 3 and one inlined from a helper (file 2) at line 4,
 * then a loop on lines 5-6 when `loop`, all before the join on line 8. */
static icount arm_run(int adds, bool loop, const icount_anchor *a, size_t n, double warps)
{
    char body[2048];
    int at = snprintf(body, sizeof body,
                      "mov.u32 %%r1, %%tid.x;\nsetp.gt.u32 %%p1, %%r1, 31;\n@%%p1 bra $L_join;\n"
                      ".loc 1 3 1\n");
    for (int i = 0; i < adds; i++)
        at += snprintf(body + at, sizeof body - (size_t)at, "add.s32 %%r%d, %%r1, %d;\n", i + 2,
                       i + 1);
    at += snprintf(body + at, sizeof body - (size_t)at,
                   ".loc 2 9 1, function_name $L__info_string0, inlined_at 1 4 1\n"
                   "add.s32 %%r40, %%r1, 7;\n");
    if (loop)
        at += snprintf(body + at, sizeof body - (size_t)at,
                       ".loc 1 5 1\n$L_loop:\nadd.s32 %%r41, %%r41, 1;\n"
                       "setp.lt.u32 %%p2, %%r41, 10;\n@%%p2 bra $L_loop;\n");
    snprintf(body + at, sizeof body - (size_t)at, "$L_join:\n.loc 1 8 1\nret;\n");
    return ptx_run(body, a, n, warps);
}

static double arm_count(int adds, bool loop, const icount_anchor *a, size_t n, double warps)
{
    return arm_run(adds, loop, a, n, warps).warp_insts;
}

/* The guard (a register made of %tid.x) and the four adds it skips, in a
 * launch of 4 blocks of 1,024 threads. */
static double guard_count(const char *guard, bool know_block)
{
    char body[1024];
    snprintf(body, sizeof body,
             "mov.u32 %%r1, %%tid.x;\n%s"
             "$L__BB0_1:\nadd.s32 %%r5, %%r1, 1;\nadd.s32 %%r6, %%r5, 1;\n"
             "add.s32 %%r7, %%r6, 1;\nadd.s32 %%r8, %%r7, 1;\n"
             "$L__BB0_2:\nret;\n",
             guard);
    const int64_t threads[3] = {1024, 1, 1};
    return ptx_run_in(body, NULL, 0, 128, know_block ? threads : NULL).warp_insts;
}

/* Code a branch on the thread index skips runs on the warps with a lane
 * that reaches it: CUB's raking warp (`tid > 31` jumps past it) is one warp
 * of 32 a block, as is warp 0 (`tid >> 5`); every warp has a lane 0; a
 * bound read from a parameter leaves the guess (every warp). */
/* The warp instructions knowing the block saves: the adds on the warps
 * no lane of which reaches them. */
static double guard_saves(const char *guard)
{
    return guard_count(guard, false) - guard_count(guard, true);
}

static void test_tid_guards(void **state)
{
    (void)state;
    /* 4 adds on 4 warps, not 128 */
    assert_true(guard_saves("setp.gt.u32 %p1, %r1, 31;\n@%p1 bra $L__BB0_2;\n") == 4 * (128 - 4));
    assert_true(guard_saves("shr.u32 %r2, %r1, 5;\nsetp.ne.s32 %p1, %r2, 0;\n"
                            "@%p1 bra $L__BB0_2;\n") == 4 * (128 - 4));
    assert_true(guard_saves("setp.lt.u32 %p1, %r1, 32;\n@!%p1 bra $L__BB0_2;\n") == 4 * (128 - 4));
    /* tid < 40: warps 0 and 1 of each block */
    assert_true(guard_saves("setp.gt.u32 %p1, %r1, 39;\n@%p1 bra $L__BB0_2;\n") == 4 * (128 - 8));
    /* lane 0 of every warp */
    assert_true(guard_saves("and.b32 %r2, %r1, 31;\nsetp.ne.s32 %p1, %r2, 0;\n"
                            "@%p1 bra $L__BB0_2;\n") == 0);
    /* a bound read from a parameter, a register written twice (a loop's
     * counter): no guard */
    assert_true(guard_saves("ld.param.u32 %r2, [p0];\nsetp.ge.u32 %p1, %r1, %r2;\n"
                            "@%p1 bra $L__BB0_2;\n") == 0);
    assert_true(guard_saves("add.s32 %r1, %r1, 1;\nsetp.gt.u32 %p1, %r1, 31;\n"
                            "@%p1 bra $L__BB0_2;\n") == 0);
}

/* An if's arm runs on the warps with a lane on it (red_shuffle8's `if (tid
 * < 32)`: 1 warp of 16), its helper's inlined code too; an arm of eight
 * instructions or fewer ptxas predicates, and every warp that reaches the
 * if issues it (red_neighbored_less's `if (index < RED_BLOCK)`); a loop in
 * the arm runs as its own anchor says, not as the arm. */
static void test_arms(void **state)
{
    (void)state;
    const icount_anchor arm[] = {{1, 3, ICOUNT_ARM, 4, 0, 0, 6, 0}};
    const icount_anchor unknown[] = {{1, 3, ICOUNT_ARM, -1, 0, 0, 6, 0}};
    const double warps = 64;
    /* 11 instructions in the arm: 4 warps, not 64 */
    double placed = arm_count(10, false, arm, 1, warps);
    double guessed = arm_count(10, false, unknown, 1, warps);
    assert_true(guessed - placed == (warps - 4) * 11);
    assert_true(arm_count(10, false, NULL, 0, warps) == guessed);
    /* 8: predicated, as often as the block that branches to it (every
     * warp), and counted by the time model, not guessed */
    icount short_arm = arm_run(7, false, arm, 1, warps);
    assert_true(short_arm.warp_insts == arm_count(7, false, unknown, 1, warps));
    assert_true(arm_run(7, false, unknown, 1, warps).guessed - short_arm.guessed == warps * 8);
    /* A loop of lines 5-6 in it: its block runs as the loop's anchor says,
     * the rest as the arm. */
    const icount_anchor with_loop[] = {{1, 3, ICOUNT_ARM, 4, 0, 0, 6, 0},
                                       {1, 5, ICOUNT_LOOP_LINES, -1, 0, 0, 6, 0},
                                       {1, 5, ICOUNT_LOOP, 40, 0, 0, 0, 0}};
    const icount_anchor loop_only[] = {{1, 3, ICOUNT_ARM, -1, 0, 0, 6, 0},
                                       {1, 5, ICOUNT_LOOP, 40, 0, 0, 0, 0}};
    double loop_placed = arm_count(10, true, with_loop, 3, warps);
    double loop_guessed = arm_count(10, true, loop_only, 2, warps);
    assert_true(loop_guessed - loop_placed == (warps - 4) * 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce0),
        cmocka_unit_test(test_unrolled),
        cmocka_unit_test(test_unrolled_compute),
        cmocka_unit_test(test_remainder),
        cmocka_unit_test(test_remainder_compute),
        cmocka_unit_test(test_remainder_over_copies),
        cmocka_unit_test(test_inlined_twice),
        cmocka_unit_test(test_unroll_copies),
        cmocka_unit_test(test_merged),
        cmocka_unit_test(test_flow),
        cmocka_unit_test(test_nested_guess),
        cmocka_unit_test(test_every_pass_counted),
        cmocka_unit_test(test_guarded_copies),
        cmocka_unit_test(test_hoisted_straight_line),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_ptx_expansion),
        cmocka_unit_test(test_ptx_contraction),
        cmocka_unit_test(test_ptx_divisors),
        cmocka_unit_test(test_ptx_folds),
        cmocka_unit_test(test_merged_unrolled_step),
        cmocka_unit_test(test_ptx_division_bypass),
        cmocka_unit_test(test_unrolled_step),
        cmocka_unit_test(test_hoisted_unrolled),
        cmocka_unit_test(test_arms),
        cmocka_unit_test(test_tid_guards),
        cmocka_unit_test(test_f64_literals),
        cmocka_unit_test(test_rare_arms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
