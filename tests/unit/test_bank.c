/* test_bank: the shared-memory bank model against wavefront counts measured
 * with Nsight Compute on an H100 (l1tex__data_pipe_lsu_wavefronts_mem_shared
 * per shared load instruction, one warp): 4-byte strides 1, 2, 4, 16, 32, 33
 * -> 1, 2, 4, 16, 32, 1; 8-byte strides 1, 2, 16 -> 2, 4, 32; 16-byte
 * strides 1, 2, 8 -> 4, 8, 32; naive 32x32 transpose column read -> 32,
 * padded [32][33] -> 1, XOR swizzle -> 1, broadcast -> 1. The index trees
 * are built by hand, as the front end would hand them over. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/warp/bank.h"

static expr *C(int64_t v)
{
    return expr_const(v);
}
static expr *B(expr_op op, expr *a, expr *b)
{
    return expr_binary(op, a, b);
}
static expr *TX(void)
{
    return expr_builtin_sym(SYM_TID_X);
}
static expr *TY(void)
{
    return expr_builtin_sym(SYM_TID_Y);
}
static expr *N(const char *name)
{
    return expr_named(name);
}

static const int64_t warp_block[3] = {32, 1, 1};
static const int64_t tile_block[3] = {32, 8, 1};

/* Analyses `offset` (byte offset, owned) at `width` bytes per lane. */
static bank_result analyse(expr *offset, int width, const int64_t block[3], expr *guard)
{
    mem_access a = {0};
    a.space = SPACE_SHARED;
    a.width = width;
    a.byte_offset = offset;
    a.guard = guard;
    bank_result r;
    bank_analyze(&a, block, NULL, &r);
    expr_free(offset);
    expr_free(guard);
    return r;
}

static int stride_wavefronts(int64_t stride, int width)
{
    bank_result r = analyse(B(OP_MUL, TX(), C(stride * width)), width, warp_block, NULL);
    assert_true(r.analyzed);
    assert_int_equal(r.ideal, bank_ideal(width));
    assert_int_equal(r.requests, 1);
    assert_false(r.assumed);
    return r.worst;
}

static void test_stride_4byte(void **state)
{
    (void)state;
    assert_int_equal(stride_wavefronts(1, 4), 1);
    assert_int_equal(stride_wavefronts(2, 4), 2);
    assert_int_equal(stride_wavefronts(4, 4), 4);
    assert_int_equal(stride_wavefronts(16, 4), 16);
    assert_int_equal(stride_wavefronts(32, 4), 32);
    assert_int_equal(stride_wavefronts(33, 4), 1);
}

static void test_stride_8byte(void **state)
{
    (void)state;
    assert_int_equal(stride_wavefronts(1, 8), 2);
    assert_int_equal(stride_wavefronts(2, 8), 4);
    assert_int_equal(stride_wavefronts(16, 8), 32);
}

static void test_stride_16byte(void **state)
{
    (void)state;
    assert_int_equal(stride_wavefronts(1, 16), 4);
    assert_int_equal(stride_wavefronts(2, 16), 8);
    assert_int_equal(stride_wavefronts(8, 16), 32);
}

static void test_ideal(void **state)
{
    (void)state;
    assert_int_equal(bank_ideal(1), 1);
    assert_int_equal(bank_ideal(2), 1);
    assert_int_equal(bank_ideal(4), 1);
    assert_int_equal(bank_ideal(8), 2);
    assert_int_equal(bank_ideal(16), 4);
}

/* float tile[32][cols]; tile[row][col] -> (row * cols + col) * 4 */
static expr *tile_at(int64_t cols, expr *row, expr *col)
{
    return B(OP_MUL, B(OP_ADD, B(OP_MUL, row, C(cols)), col), C(4));
}

static void test_transpose(void **state)
{
    (void)state;
    /* naive: the column read tile[threadIdx.x][threadIdx.y] */
    bank_result r = analyse(tile_at(32, TX(), TY()), 4, tile_block, NULL);
    assert_true(r.analyzed);
    assert_int_equal(r.worst, 32);
    assert_int_equal(r.requests, 8);
    assert_int_equal(r.warps, 8);
    assert_true(r.average == 32.0);
    assert_true(r.degree == 32.0);
    assert_int_equal(r.worst_req.banks[0], 32); /* warp 0: every lane in bank 0 */
    /* the row write tile[threadIdx.y][threadIdx.x] is clean */
    r = analyse(tile_at(32, TY(), TX()), 4, tile_block, NULL);
    assert_int_equal(r.worst, 1);
    /* padded [32][33] */
    r = analyse(tile_at(33, TX(), TY()), 4, tile_block, NULL);
    assert_true(r.analyzed);
    assert_int_equal(r.worst, 1);
    assert_true(r.degree == 1.0);
    /* XOR swizzle: tile[ty][tx ^ ty] for the row and tile[tx][ty ^ tx] for
     * the column both spread over every bank */
    r = analyse(tile_at(32, TY(), B(OP_XOR, TX(), TY())), 4, tile_block, NULL);
    assert_int_equal(r.worst, 1);
    r = analyse(tile_at(32, TX(), B(OP_XOR, TY(), TX())), 4, tile_block, NULL);
    assert_int_equal(r.worst, 1);
}

static void test_broadcast(void **state)
{
    (void)state;
    bank_result r = analyse(C(12), 4, warp_block, NULL);
    assert_int_equal(r.worst, 1);
    assert_int_equal(r.worst_req.distinct_words, 1);
    /* lanes in pairs on one word: tile[threadIdx.x / 2] */
    r = analyse(B(OP_MUL, B(OP_DIV, TX(), C(2)), C(4)), 4, warp_block, NULL);
    assert_int_equal(r.worst, 1);
    /* bytes of one word (char array) are one word */
    r = analyse(B(OP_DIV, TX(), C(8)), 1, warp_block, NULL);
    assert_int_equal(r.worst, 1);
    /* two words of one bank, each shared by 16 lanes: 2 */
    r = analyse(B(OP_MUL, B(OP_MOD, TX(), C(2)), C(128)), 4, warp_block, NULL);
    assert_int_equal(r.worst, 2);
}

static void test_request_direct(void **state)
{
    (void)state;
    int64_t addr[32];
    bank_request q;
    char why[128];
    for (int l = 0; l < 32; l++)
        addr[l] = l * 128;
    assert_true(bank_request_eval(addr, 0xFFFFFFFFu, 4, &q, why, sizeof why));
    assert_int_equal(q.wavefronts, 32);
    assert_int_equal(q.banks[0], 32);
    /* inactive lanes take no part: 4 lanes left */
    assert_true(bank_request_eval(addr, 0xFu, 4, &q, why, sizeof why));
    assert_int_equal(q.wavefronts, 4);
    assert_true(bank_request_eval(addr, 0, 4, &q, why, sizeof why));
    assert_int_equal(q.wavefronts, 0);
    assert_int_equal(q.ideal, 0);
    /* 8-byte: only the first half-warp active -> one pass */
    for (int l = 0; l < 32; l++)
        addr[l] = l * 8;
    assert_true(bank_request_eval(addr, 0xFFFFu, 8, &q, why, sizeof why));
    assert_int_equal(q.wavefronts, 1);
    assert_int_equal(q.ideal, 1);
    assert_int_equal(q.groups, 2);
    assert_int_equal(q.group_wavefronts[0], 1);
    assert_int_equal(q.group_wavefronts[1], 0);
    /* misaligned and bad widths are refused */
    addr[1] = 12;
    assert_false(bank_request_eval(addr, 0xFFFFFFFFu, 8, &q, why, sizeof why));
    assert_non_null(strstr(why, "lane 1"));
    assert_false(bank_request_eval(addr, 0xFFFFFFFFu, 3, &q, why, sizeof why));
    assert_false(bank_request_eval(addr, 0xFFFFFFFFu, 32, &q, why, sizeof why));
    /* negative offsets keep floor semantics: -4 is word -1, bank 31 */
    assert_int_equal(bank_word_of(-4), -1);
    assert_int_equal(bank_of(-4), 31);
    assert_int_equal(bank_of(-1), 31);
    assert_int_equal(bank_of(132), 1);
}

static void test_guard(void **state)
{
    (void)state;
    /* stride 32 words but only 4 lanes active (threadIdx.x < 4): 4 */
    bank_result r = analyse(B(OP_MUL, TX(), C(128)), 4, warp_block, B(OP_LT, TX(), C(4)));
    assert_true(r.analyzed);
    assert_int_equal(r.worst, 4);
    assert_int_equal(r.worst_active, 0xFu);
    /* no lane active at all: nothing to analyse */
    r = analyse(B(OP_MUL, TX(), C(4)), 4, warp_block, B(OP_GT, TX(), C(100)));
    assert_false(r.analyzed);
    assert_non_null(strstr(r.reason, "no lane"));
    /* a guard on an unknown value is taken as true, and said so */
    r = analyse(B(OP_MUL, TX(), C(8)), 4, warp_block, B(OP_LT, TX(), N("n")));
    assert_true(r.analyzed);
    assert_int_equal(r.worst, 2);
    assert_true(r.assumed);
    assert_non_null(strstr(r.note, "'n'"));
}

static void test_partial_warp(void **state)
{
    (void)state;
    /* 40 threads: warp 1 has lanes 0..7 only (threads 32..39) */
    const int64_t block[3] = {40, 1, 1};
    bank_result r = analyse(B(OP_MUL, TX(), C(128)), 4, block, NULL);
    assert_true(r.analyzed);
    assert_int_equal(r.warps, 2);
    assert_int_equal(r.requests, 2);
    assert_int_equal(r.worst, 32);
    assert_true(r.average == 20.0);
}

static void test_uniform_unknowns(void **state)
{
    (void)state;
    /* s[threadIdx.x + k]: k shifts every lane alike -> taken as 0, noted */
    bank_result r = analyse(B(OP_MUL, B(OP_ADD, TX(), N("k")), C(4)), 4, warp_block, NULL);
    assert_true(r.analyzed);
    assert_int_equal(r.worst, 1);
    assert_true(r.assumed);
    assert_non_null(strstr(r.note, "'k'"));
    /* blockIdx.x * 33 + threadIdx.x * 33 (a warp-uniform builtin) */
    r = analyse(B(OP_MUL,
                  B(OP_ADD, B(OP_MUL, expr_builtin_sym(SYM_BID_X), C(33)), B(OP_MUL, TX(), C(2))),
                  C(4)),
                4, warp_block, NULL);
    assert_true(r.analyzed);
    assert_int_equal(r.worst, 2);
    assert_non_null(strstr(r.note, "blockIdx.x"));
    /* s[threadIdx.x * k]: the stride itself is unknown -> not analysed */
    r = analyse(B(OP_MUL, B(OP_MUL, TX(), N("k")), C(4)), 4, warp_block, NULL);
    assert_false(r.analyzed);
    assert_string_equal(r.reason, "index depends on 'k' whose value is unknown");
    /* with k known it is */
    mem_access a = {0};
    a.width = 4;
    a.byte_offset = B(OP_MUL, B(OP_MUL, TX(), N("k")), C(4));
    expr_env env;
    expr_env_init(&env);
    expr_env_set(&env, "k", 16);
    bank_analyze(&a, warp_block, &env, &r);
    assert_true(r.analyzed);
    assert_int_equal(r.worst, 16);
    assert_false(r.assumed);
    expr_free(a.byte_offset);
}

static loop_ctx loop(const char *var, expr *init, expr *cond, expr *next)
{
    loop_ctx L = {0};
    L.var = (char *)var;
    L.init = init;
    L.cond = cond;
    L.next = next;
    L.loc.line = 10;
    return L;
}

static void free_loop(loop_ctx *L)
{
    expr_free(L->init);
    expr_free(L->cond);
    expr_free(L->next);
}

static void test_reduction_loops(void **state)
{
    (void)state;
    const int64_t block[3] = {256, 1, 1};
    /* neighbored, strided index: for (s = 1; s < blockDim.x; s *= 2)
     * { index = 2 * s * tid; if (index < blockDim.x) sdata[index] ... } */
    mem_access a = {0};
    a.width = 4;
    expr *index = B(OP_MUL, B(OP_MUL, C(2), N("s")), TX());
    a.byte_offset = B(OP_MUL, expr_clone(index), C(4));
    a.guard = B(OP_LT, index, expr_builtin_sym(SYM_BDIM_X));
    a.n_loops = 1;
    a.loops[0] =
        loop("s", C(1), B(OP_LT, N("s"), expr_builtin_sym(SYM_BDIM_X)), B(OP_MUL, N("s"), C(2)));
    bank_result r;
    assert_true(bank_analyze(&a, block, NULL, &r));
    /* s=1: 4 warps x 2; s=2: 2 x 4; s=4, 8, 16: 1 x 8; s=32: 4; 64: 2; 128: 1 */
    assert_int_equal(r.worst, 8);
    assert_int_equal(r.requests, 12);
    assert_true(r.average > 47.0 / 12 - 1e-9 && r.average < 47.0 / 12 + 1e-9);
    assert_false(r.assumed);
    expr_free(a.byte_offset);
    expr_free(a.guard);
    free_loop(&a.loops[0]);

    /* interleaved: for (s = blockDim.x / 2; s > 0; s >>= 1) if (tid < s)
     * sdata[tid + s]: clean in every iteration */
    memset(&a, 0, sizeof a);
    a.width = 4;
    a.byte_offset = B(OP_MUL, B(OP_ADD, TX(), N("s")), C(4));
    a.guard = B(OP_LT, TX(), N("s"));
    a.n_loops = 1;
    a.loops[0] = loop("s", B(OP_DIV, expr_builtin_sym(SYM_BDIM_X), C(2)), B(OP_GT, N("s"), C(0)),
                      B(OP_SHR, N("s"), C(1)));
    assert_true(bank_analyze(&a, block, NULL, &r));
    assert_int_equal(r.worst, 1);
    assert_true(r.average == 1.0);
    /* s = 128, 64, 32: 4 + 2 + 1 warps; then 16 .. 1: warp 0 alone */
    assert_int_equal(r.requests, 4 + 2 + 1 + 5);
    expr_free(a.byte_offset);
    expr_free(a.guard);
    free_loop(&a.loops[0]);
}

/* Loops whose counter nothing inside reads are walked once and replayed
 * (lanes.c). Each case is analysed twice: as written, and with "+ o * 0"
 * added to the index so that the counter is read and every iteration is
 * evaluated. Both must give the same numbers. */
typedef struct replay_case {
    const char *what;
    int64_t block;
    int64_t outer_trips; /* for (o = 0; o < outer_trips; o++) */
    bool per_lane_outer; /* ... o < outer_trips - threadIdx.x % 4 instead */
    int64_t inner_trips; /* for (i = 0; i < inner_trips; i++), 0: no inner loop */
    int64_t stride;      /* words between lanes */
} replay_case;

static bank_result replay_run(const replay_case *c, bool read_counter)
{
    mem_access a = {0};
    a.width = 4;
    expr *index = B(OP_MUL, TX(), C(c->stride));
    if (c->inner_trips)
        index = B(OP_ADD, index, B(OP_MUL, N("i"), C(32 * c->stride)));
    if (read_counter)
        index = B(OP_ADD, index, B(OP_MUL, N("o"), C(0)));
    a.byte_offset = B(OP_MUL, index, C(4));
    expr *bound = C(c->outer_trips);
    if (c->per_lane_outer)
        bound = B(OP_SUB, bound, B(OP_MOD, TX(), C(4)));
    a.loops[a.n_loops++] = loop("o", C(0), B(OP_LT, N("o"), bound), B(OP_ADD, N("o"), C(1)));
    if (c->inner_trips)
        a.loops[a.n_loops++] =
            loop("i", C(0), B(OP_LT, N("i"), C(c->inner_trips)), B(OP_ADD, N("i"), C(1)));
    const int64_t block[3] = {c->block, 1, 1};
    bank_result r;
    bank_analyze(&a, block, NULL, &r);
    expr_free(a.byte_offset);
    for (int i = 0; i < a.n_loops; i++)
        free_loop(&a.loops[i]);
    return r;
}

static void test_invariant_loop_replay(void **state)
{
    (void)state;
    const replay_case cases[] = {
        {"outer loop only", 64, 5, false, 0, 2},
        {"outer around inner", 96, 3, false, 4, 1},
        {"lanes leave the outer loop early", 32, 3, true, 0, 4},
        {"lanes leave early, inner loop", 40, 4, true, 3, 33},
        {"visit cap reached by replays", 32, 3000, false, 8, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bank_result fast = replay_run(&cases[i], false);
        bank_result full = replay_run(&cases[i], true);
        printf("%s: %ld requests, %lld wavefronts, worst %d\n", cases[i].what, fast.requests,
               (long long)fast.total, fast.worst);
        assert_true(fast.analyzed && full.analyzed);
        assert_int_equal(fast.requests, full.requests);
        assert_int_equal(fast.total, full.total);
        assert_int_equal(fast.worst, full.worst);
        assert_int_equal(fast.capped, full.capped);
        assert_int_equal(fast.worst_iteration, full.worst_iteration);
        assert_int_equal(fast.worst_warp, full.worst_warp);
    }
    /* Worked by hand: 2 warps x 5 iterations of a 2-way conflict. */
    bank_result r = replay_run(&cases[0], false);
    assert_int_equal(r.requests, 10);
    assert_int_equal(r.total, 20);
    /* Lanes with threadIdx.x % 4 = k run 3 - k iterations: stride 4 puts
     * lanes l, l + 8, l + 16, l + 24 (same k) on one bank, so every
     * request is 4-way; iterations 0, 1, 2 have lanes with k <= 2, 1, 0. */
    r = replay_run(&cases[2], false);
    assert_int_equal(r.requests, 3);
    assert_int_equal(r.total, 12);
    /* 16384 requests per warp at most, then the walk stops and says so. */
    r = replay_run(&cases[4], false);
    assert_true(r.capped);
    assert_int_equal(r.requests, LANES_MAX_VISITS_PER_WARP);
}

static void test_loop_unknown_bound(void **state)
{
    (void)state;
    /* for (k = 0; k < K; k++) acc += tile[k][threadIdx.x] ... tile[threadIdx.x][k] */
    mem_access a = {0};
    a.width = 4;
    a.byte_offset = tile_at(32, TX(), N("k"));
    a.n_loops = 1;
    a.loops[0] = loop("k", C(0), B(OP_LT, N("k"), N("K")), B(OP_ADD, N("k"), C(1)));
    bank_result r;
    assert_true(bank_analyze(&a, warp_block, NULL, &r));
    assert_int_equal(r.worst, 32);
    assert_int_equal(r.requests, LANES_UNKNOWN_BOUND_ITER);
    assert_true(r.assumed);
    assert_non_null(strstr(r.note, "loop 'k'"));
    expr_free(a.byte_offset);
    free_loop(&a.loops[0]);

    /* an endless loop is cut at LANES_MAX_ITER and said so */
    memset(&a, 0, sizeof a);
    a.width = 4;
    a.byte_offset = B(OP_MUL, TX(), C(4));
    a.n_loops = 1;
    a.loops[0] = loop("i", C(0), C(1), B(OP_ADD, N("i"), C(1)));
    assert_true(bank_analyze(&a, warp_block, NULL, &r));
    assert_true(r.capped);
    assert_int_equal(r.requests, LANES_MAX_ITER);
    expr_free(a.byte_offset);
    free_loop(&a.loops[0]);

    /* a loop the front end could not express */
    memset(&a, 0, sizeof a);
    a.width = 4;
    a.byte_offset = B(OP_MUL, TX(), C(4));
    a.n_loops = 1;
    a.loops[0] = loop("i", C(0), NULL, NULL);
    assert_false(bank_analyze(&a, warp_block, NULL, &r));
    assert_non_null(strstr(r.reason, "loop at line 10"));
    expr_free(a.byte_offset);
    free_loop(&a.loops[0]);
}

static void test_not_analysed(void **state)
{
    (void)state;
    bank_result r = analyse(B(OP_MUL, TX(), C(2)), 4, warp_block, NULL);
    assert_false(r.analyzed); /* lane 1 at byte 2: misaligned */
    assert_non_null(strstr(r.reason, "misaligned"));
    r = analyse(B(OP_DIV, C(4), B(OP_SUB, TX(), C(3))), 4, warp_block, NULL);
    assert_false(r.analyzed);
    assert_non_null(strstr(r.reason, "division by zero"));
    r = analyse(expr_unknown("call to f()"), 4, warp_block, NULL);
    assert_false(r.analyzed);
    assert_non_null(strstr(r.reason, "call to f()"));
    const int64_t huge[3] = {64, 32, 1};
    r = analyse(B(OP_MUL, TX(), C(4)), 4, huge, NULL);
    assert_false(r.analyzed);
    assert_non_null(strstr(r.reason, "cannot launch"));
    mem_access a = {0};
    a.width = 4;
    a.why_not = (char *)"the array is reached through a pointer the front end could not follow";
    assert_false(bank_analyze(&a, warp_block, NULL, &r));
    assert_string_equal(r.reason, a.why_not);
}

/* ---- kernels/bank_probe.cu: the model's prediction for each probe ---- */

/* The transposes' accesses: tile[row][col] with rows y + j, j = 0, 8, 16, 24
 * (loop j), a 32 x 8 block. */
static expr *J(void)
{
    return N("j");
}
static expr *YJ(void)
{
    return B(OP_ADD, TY(), J());
}

/* Lane -> element of the pattern kernels (PATTERN_KERNEL in bank_probe.cu). */
static int e_zero(int l)
{
    (void)l;
    return 0;
}
static int e_mod16(int l)
{
    return l % 16;
}
static int e_mod8(int l)
{
    return l % 8;
}
static int e_pairs(int l)
{
    return l / 2;
}
static int e_b64_apart(int l)
{
    return l < 16 ? l % 8 : 24 + l % 8;
}
static int e_b64_mix(int l)
{
    return l < 8 ? l : l < 16 ? 16 + l - 8 : 8 + (l - 16) % 8;
}
static int e_b64_perm(int l)
{
    return l < 16 ? l % 8 + 16 * (l / 8) : 8 + l % 8 + 16 * ((l - 16) / 8);
}
static int e_b128_fit(int l)
{
    return 2 * (l / 8) + l % 2;
}
static int e_b64_swapped(int l)
{
    return l < 16 ? 8 + l / 2 : (l - 16) / 2;
}
static int e_b128_apart(int l)
{
    return l / 8 % 2 == 0 ? l % 2 : 10 + l % 2;
}
static int e_b128_perm(int l)
{
    static const int base[4] = {0, 4, 16, 20};
    return base[l / 8] + l % 4 + 8 * (l % 8 / 4);
}

typedef struct probe_case {
    const char *kernel, *op;
    int width;
    int64_t stride; /* > 0: lane i at element i * stride */
    int transpose;  /* 0: none; 1 naive, 2 padded, 3 xor */
    bool broadcast;
    int (*elem)(int lane); /* pattern kernels */
} probe_case;

static const probe_case probes[] = {
    {"ld_b32_stride1", "ld", 4, 1, 0, false, NULL},
    {"ld_b32_stride2", "ld", 4, 2, 0, false, NULL},
    {"ld_b32_stride4", "ld", 4, 4, 0, false, NULL},
    {"ld_b32_stride16", "ld", 4, 16, 0, false, NULL},
    {"ld_b32_stride32", "ld", 4, 32, 0, false, NULL},
    {"ld_b32_stride33", "ld", 4, 33, 0, false, NULL},
    {"ld_b64_stride1", "ld", 8, 1, 0, false, NULL},
    {"ld_b64_stride2", "ld", 8, 2, 0, false, NULL},
    {"ld_b64_stride16", "ld", 8, 16, 0, false, NULL},
    {"ld_b128_stride1", "ld", 16, 1, 0, false, NULL},
    {"ld_b128_stride2", "ld", 16, 2, 0, false, NULL},
    {"ld_b128_stride8", "ld", 16, 8, 0, false, NULL},
    {"st_b32_stride1", "st", 4, 1, 0, false, NULL},
    {"st_b32_stride2", "st", 4, 2, 0, false, NULL},
    {"st_b32_stride4", "st", 4, 4, 0, false, NULL},
    {"st_b32_stride16", "st", 4, 16, 0, false, NULL},
    {"st_b32_stride32", "st", 4, 32, 0, false, NULL},
    {"st_b32_stride33", "st", 4, 33, 0, false, NULL},
    {"st_b64_stride1", "st", 8, 1, 0, false, NULL},
    {"st_b64_stride2", "st", 8, 2, 0, false, NULL},
    {"st_b64_stride16", "st", 8, 16, 0, false, NULL},
    {"st_b128_stride1", "st", 16, 1, 0, false, NULL},
    {"st_b128_stride2", "st", 16, 2, 0, false, NULL},
    {"st_b128_stride8", "st", 16, 8, 0, false, NULL},
    {"ld_b32_broadcast", "ld", 4, 0, 0, true, NULL},
    {"transpose_naive", "ld", 4, 0, 1, false, NULL},
    {"transpose_naive", "st", 4, 0, 1, false, NULL},
    {"transpose_padded", "ld", 4, 0, 2, false, NULL},
    {"transpose_padded", "st", 4, 0, 2, false, NULL},
    {"transpose_xor", "ld", 4, 0, 3, false, NULL},
    {"transpose_xor", "st", 4, 0, 3, false, NULL},
    {"ld_b64_broadcast", "ld", 8, 0, 0, false, e_zero},
    {"ld_b64_halves_same", "ld", 8, 0, 0, false, e_mod16},
    {"ld_b64_pairs", "ld", 8, 0, 0, false, e_pairs},
    {"ld_b64_apart", "ld", 8, 0, 0, false, e_b64_apart},
    {"ld_b64_mix", "ld", 8, 0, 0, false, e_b64_mix},
    {"ld_b64_perm", "ld", 8, 0, 0, false, e_b64_perm},
    {"ld_b128_broadcast", "ld", 16, 0, 0, false, e_zero},
    {"ld_b128_pairs", "ld", 16, 0, 0, false, e_pairs},
    {"ld_b128_fit", "ld", 16, 0, 0, false, e_b128_fit},
    {"ld_b128_quarters_same", "ld", 16, 0, 0, false, e_mod8},
    {"ld_b128_perm", "ld", 16, 0, 0, false, e_b128_perm},
    {"ld_b64_swapped", "ld", 8, 0, 0, false, e_b64_swapped},
    {"ld_b128_apart", "ld", 16, 0, 0, false, e_b128_apart},
};

static int probe_model(const probe_case *p)
{
    if (p->elem) {
        int64_t addr[32];
        for (int l = 0; l < 32; l++)
            addr[l] = (int64_t)p->elem(l) * p->width;
        bank_request q;
        char why[128];
        assert_true(bank_request_eval(addr, 0xFFFFFFFFu, p->width, &q, why, sizeof why));
        assert_true(q.ideal >= 1 && q.wavefronts >= q.ideal);
        return q.wavefronts;
    }
    mem_access a = {0};
    a.space = SPACE_SHARED;
    a.width = p->width;
    a.is_store = strcmp(p->op, "st") == 0;
    const int64_t *block = warp_block;
    if (p->broadcast) {
        a.byte_offset = C(0);
    } else if (p->transpose) {
        block = tile_block;
        int64_t cols = p->transpose == 2 ? 33 : 32;
        bool load = !a.is_store;
        /* stores write rows: tile[y + j][x] (xor: [y + j][x ^ (y + j)]);
         * loads read columns: tile[x][y + j] (xor: [x][(y + j) ^ x]) */
        expr *row = load ? TX() : YJ();
        expr *col = load ? YJ() : TX();
        if (p->transpose == 3)
            col = B(OP_XOR, col, load ? TX() : YJ());
        a.byte_offset = tile_at(cols, row, col);
        a.n_loops = 1;
        a.loops[0] = loop("j", C(0), B(OP_LT, J(), C(32)), B(OP_ADD, J(), C(8)));
    } else {
        a.byte_offset = B(OP_MUL, TX(), C(p->stride * p->width));
    }
    bank_result r;
    bool ok = bank_analyze(&a, block, NULL, &r);
    expr_free(a.byte_offset);
    if (a.n_loops)
        free_loop(&a.loops[0]);
    assert_true(ok);
    assert_false(r.assumed);
    assert_true(r.average == (double)r.worst); /* every request of a probe is alike */
    if (p->transpose)
        assert_int_equal(r.requests, 8 * 4);
    return r.worst;
}

static void test_probe_expected(void **state)
{
    (void)state;
    FILE *f = fopen(BANK_PROBE_EXPECTED, "r");
    assert_non_null(f);
    char line[256];
    bool seen[sizeof probes / sizeof probes[0]] = {false};
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        char kernel[64], op[8];
        int want;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        assert_int_equal(sscanf(line, "%63s %7s %d", kernel, op, &want), 3);
        lines++;
        size_t i = 0;
        while (i < sizeof probes / sizeof probes[0] &&
               (strcmp(probes[i].kernel, kernel) || strcmp(probes[i].op, op)))
            i++;
        if (i == sizeof probes / sizeof probes[0])
            fail_msg("%s %s: not a known probe", kernel, op);
        int got = probe_model(&probes[i]);
        if (got != want)
            fail_msg("%s %s: model %d, bank_probe.expected %d", kernel, op, got, want);
        seen[i] = true;
    }
    fclose(f);
    assert_int_equal(lines, (int)(sizeof probes / sizeof probes[0]));
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
        if (!seen[i])
            fail_msg("%s %s: missing from bank_probe.expected", probes[i].kernel, probes[i].op);
}

/* Every request in kernels/bank_probe.measured (random index patterns
 * measured with ncu on an H100) must come out as measured. */
static void test_measured_patterns(void **state)
{
    (void)state;
    FILE *f = fopen(BANK_PROBE_MEASURED, "r");
    assert_non_null(f);
    char line[512];
    int n = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        int width, want, used;
        unsigned mask;
        char *p = line;
        assert_int_equal(sscanf(p, "%d %x %d%n", &width, &mask, &want, &used), 3);
        p += used;
        int64_t addr[32];
        for (int l = 0; l < 32; l++) {
            long long e;
            assert_int_equal(sscanf(p, "%lld%n", &e, &used), 1);
            p += used;
            addr[l] = e * width;
        }
        bank_request q;
        char why[128];
        assert_true(bank_request_eval(addr, mask, width, &q, why, sizeof why));
        if (q.wavefronts != want && bad++ < 5)
            print_error("%d-byte pattern %d: model %d, measured %d\n", width, n, q.wavefronts,
                        want);
        n++;
    }
    fclose(f);
    assert_true(n > 500);
    assert_int_equal(bad, 0);
}

/* A loop moving every lane by the same stride each iteration: with a
 * stride of whole 128 bytes a request meets the banks as the last one did
 * (bank_analyze reuses its counts); with others it may not. Totals and the
 * worst request against bank_request_eval request by request, for dense,
 * every-other-word, 32-way and 8-byte patterns. */
static void test_loop_strides(void **state)
{
    (void)state;
    static const int64_t strides[] = {128, 256, 4096, 160, 64, 8, 136};
    static const int64_t mul[] = {4, 8, 128, 8}, width[] = {4, 4, 4, 8};
    const int64_t block[3] = {64, 1, 1};
    for (size_t si = 0; si < sizeof strides / sizeof strides[0]; si++)
        for (int pi = 0; pi < 4; pi++) {
            mem_access a = {0};
            a.space = SPACE_SHARED;
            a.width = (int)width[pi];
            a.byte_offset =
                B(OP_ADD, B(OP_MUL, N("k"), C(strides[si])), B(OP_MUL, TX(), C(mul[pi])));
            a.n_loops = 1;
            a.loops[0] = (loop_ctx){.var = "k",
                                    .init = C(0),
                                    .cond = B(OP_LT, N("k"), C(20)),
                                    .next = B(OP_ADD, N("k"), C(1)),
                                    .loc = {.line = 1}};
            bank_result r;
            if (!bank_analyze(&a, block, NULL, &r))
                fail_msg("stride %lld pattern %d: %s", (long long)strides[si], pi, r.reason);
            int64_t total = 0;
            int worst = 0;
            for (int w = 0; w < 2; w++)
                for (int64_t k = 0; k < 20; k++) {
                    int64_t addr[LANES_WARP];
                    for (int l = 0; l < LANES_WARP; l++)
                        addr[l] = k * strides[si] + (w * 32 + l) * mul[pi];
                    bank_request q;
                    char why[128];
                    assert_true(
                        bank_request_eval(addr, 0xffffffffu, (int)width[pi], &q, why, sizeof why));
                    total += q.wavefronts;
                    worst = q.wavefronts > worst ? q.wavefronts : worst;
                }
            assert_int_equal(r.requests, 40);
            assert_int_equal(r.total, total);
            assert_int_equal(r.worst, worst);
            expr_free(a.byte_offset);
            expr_free(a.loops[0].init);
            expr_free(a.loops[0].cond);
            expr_free(a.loops[0].next);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stride_4byte),       cmocka_unit_test(test_stride_8byte),
        cmocka_unit_test(test_stride_16byte),      cmocka_unit_test(test_ideal),
        cmocka_unit_test(test_transpose),          cmocka_unit_test(test_broadcast),
        cmocka_unit_test(test_request_direct),     cmocka_unit_test(test_guard),
        cmocka_unit_test(test_partial_warp),       cmocka_unit_test(test_uniform_unknowns),
        cmocka_unit_test(test_loop_strides),       cmocka_unit_test(test_reduction_loops),
        cmocka_unit_test(test_loop_unknown_bound), cmocka_unit_test(test_invariant_loop_replay),
        cmocka_unit_test(test_not_analysed),       cmocka_unit_test(test_probe_expected),
        cmocka_unit_test(test_measured_patterns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
