/* test_l2share: which re-reads of panels blocks share come from DRAM.
 * The panel count of a run of launch-ordered blocks against enumeration
 * over every shape of sharing; the two regimes against a block-by-block
 * replay of what they assume (waves read together; drifting readers a
 * launch gap apart). The hardware's side (Nsight Compute's DRAM bytes for
 * the reference GEMMs at three sizes and occupancies) is
 * tests/l2share_truth.py's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include <cmocka.h>

#include "analysis/symbolic/cexpr.h"
#include "analysis/memory/l2share.h"

/* The panel a launch-ordered block reads: its unshared coordinates. */
static int64_t panel_of(const int64_t g[3], unsigned shared, int64_t id)
{
    int64_t c[3] = {id % g[0], id / g[0] % g[1], id / (g[0] * g[1])};
    int64_t key = 0;
    for (int d = 2; d >= 0; d--)
        key = key * g[d] + ((shared & (1u << d)) ? 0 : c[d]);
    return key;
}

static int64_t brute_panels(const int64_t g[3], unsigned shared, int64_t start, int64_t len)
{
    int64_t total = g[0] * g[1] * g[2];
    char *seen = calloc((size_t)total, 1);
    int64_t n = 0;
    for (int64_t id = start; id < start + len; id++) {
        int64_t k = panel_of(g, shared, id);
        n += !seen[k];
        seen[k] = 1;
    }
    free(seen);
    return n;
}

static void test_panels(void **state)
{
    (void)state;
    const int64_t grids[][3] = {{7, 5, 3}, {16, 1, 1}, {1, 9, 4}, {6, 6, 1}, {4, 1, 5}};
    for (size_t gi = 0; gi < sizeof grids / sizeof grids[0]; gi++) {
        const int64_t *g = grids[gi];
        int64_t total = g[0] * g[1] * g[2];
        for (unsigned shared = 0; shared < 8; shared++)
            for (int64_t start = 0; start < total; start += 3)
                for (int64_t len = 1; start + len <= total; len += 2)
                    assert_int_equal(l2share_panels(g, shared, start, len),
                                     brute_panels(g, shared, start, len));
    }
}

/* Lockstep, replayed: each wave's blocks fetch the panels no block of the
 * wave before fetched, or all of theirs when that wave read more than the
 * L2 keeps. */
static int64_t replay_lockstep(const int64_t g[3], const l2share_array *a, size_t n, size_t which,
                               int64_t resident, int64_t l2)
{
    int64_t total = g[0] * g[1] * g[2], fetches = 0;
    char *prev = calloc((size_t)total, 1), *cur = calloc((size_t)total, 1);
    int64_t wave_bytes = 0;
    for (size_t i = 0; i < n; i++)
        wave_bytes +=
            a[i].block_bytes * brute_panels(g, a[i].shared, 0, resident < total ? resident : total);
    for (int64_t start = 0; start < total; start += resident) {
        memset(cur, 0, (size_t)total);
        for (int64_t id = start; id < start + resident && id < total; id++) {
            int64_t k = panel_of(g, a[which].shared, id);
            if (!cur[k] && (wave_bytes > l2 || !prev[k]))
                fetches++;
            cur[k] = 1;
        }
        for (int64_t k = 0; k < total; k++)
            prev[k] |= cur[k];
    }
    free(prev);
    free(cur);
    return fetches;
}

/* A GEMM's grid: A's panel shared along x (a block row), B's along y. */
static void test_lockstep_gemm(void **state)
{
    (void)state;
    const struct {
        int64_t g, resident, panel, l2;
    } cases[] = {
        {64, 528, 1 << 20, 31457280}, /* gemm_regtile at 4096 on an H200: 8 waves */
        {32, 132, 1 << 21, 31457280}, /* gemm_vec */
        {32, 264, 1 << 20, 31457280}, /* gemm_wmma: a wave reads 43 MB */
        {32, 528, 1 << 19, 31457280}, /* gemm_regtile at 2048: a wave fits */
        {10, 7, 100, 1000},           /* waves that end inside rows */
        {10, 25, 100, 100000},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        l2share_launch l = {{cases[c].g, cases[c].g, 1}, cases[c].resident, true, cases[c].l2};
        l2share_array a[2] = {{cases[c].panel, cases[c].panel * cases[c].g, 1},
                              {cases[c].panel, cases[c].panel * cases[c].g, 2}};
        int64_t bytes[2], fetches[2];
        l2share_reads(&l, a, 2, bytes, fetches);
        for (size_t i = 0; i < 2; i++) {
            assert_int_equal(fetches[i], replay_lockstep(l.grid, a, 2, i, l.resident, l.l2_bytes));
            assert_int_equal(bytes[i], fetches[i] * a[i].block_bytes);
        }
    }
    /* regtile at 4096: A's 64 rows plus the 6 a wave boundary cuts, B
     * once a wave (Nsight Compute: 610.4 MB read, H200) */
    l2share_launch l = {{64, 64, 1}, 528, true, 31457280};
    l2share_array a[2] = {{1 << 20, 64 << 20, 1}, {1 << 20, 64 << 20, 2}};
    int64_t bytes[2], fetches[2];
    l2share_reads(&l, a, 2, bytes, fetches);
    assert_int_equal(fetches[0], 70);
    assert_int_equal(fetches[1], 8 * 64);
}

/* Drifting: a panel's readers a block row apart (B) find it again only if
 * the row of blocks between them read no more than the L2 keeps; readers
 * next to each other (A) always do. */
static void test_drifting(void **state)
{
    (void)state;
    l2share_array a[2] = {{256 << 10, 64 << 20, 1}, {256 << 10, 64 << 20, 2}};
    int64_t bytes[2], fetches[2];
    /* gemm_naive at 4096: a row of 256 blocks reads 64 MB of B */
    l2share_launch l = {{256, 256, 1}, 1056, false, 31457280};
    l2share_reads(&l, a, 2, bytes, fetches);
    assert_int_equal(fetches[0], 256);
    assert_int_equal(fetches[1], 256 * 256);
    /* at 2048 (rows of 128 blocks, 32 MB of B) with a 64 MB L2 */
    l2share_launch small = {{128, 128, 1}, 1056, false, 64 << 20};
    l2share_array b[2] = {{128 << 10, 16 << 20, 1}, {128 << 10, 16 << 20, 2}};
    l2share_reads(&small, b, 2, bytes, fetches);
    assert_int_equal(fetches[0], 128);
    assert_int_equal(fetches[1], 128);
    assert_int_equal(bytes[1], 16 << 20);
}

/* Panels that overlap (a convolution's halo: 8 panels of 1000 bytes over
 * 6000) read in one wave, or kept by the L2, cost the grid's footprint,
 * not 8 panels; a wave that cannot keep them reads each panel again, a
 * panel's bytes each time. */
static void test_overlapping_panels(void **state)
{
    (void)state;
    l2share_array a[1] = {{1000, 6000, 2}};
    int64_t bytes[1], fetches[1];
    for (int lockstep = 0; lockstep < 2; lockstep++) {
        l2share_launch l = {{8, 8, 1}, 64, lockstep, 1 << 30};
        l2share_reads(&l, a, 1, bytes, fetches);
        assert_int_equal(fetches[0], 8);
        assert_int_equal(bytes[0], 6000);
    }
    /* one row of blocks a wave, each wave its own 8 panels (8 x 1000 bytes
     * outgrow an L2 of 4000): 64 fetches, 56 past the first of each */
    l2share_launch small = {{8, 8, 1}, 8, true, 4000};
    l2share_reads(&small, a, 1, bytes, fetches);
    assert_int_equal(fetches[0], 64);
    assert_int_equal(bytes[0], 6000 + 56 * 1000);
}

/* What a wave reads of arrays no block shares counts against the L2 too:
 * a table every block reads comes again each wave once the wave's own
 * streams outgrow it, and only then. */
static void test_private_streams(void **state)
{
    (void)state;
    l2share_launch l = {{100, 1, 1}, 10, true, 1000};
    l2share_array a[2] = {{64, 64, 1}, {200, 20000, 0}};
    int64_t bytes[2], fetches[2];
    assert_int_equal(l2share_reads(&l, a, 2, bytes, fetches), 64 + 10 * 200);
    assert_int_equal(fetches[0], 10);
    assert_int_equal(bytes[0], 640);
    assert_int_equal(bytes[1], 20000);
    a[1] = (l2share_array){50, 5000, 0};
    l2share_reads(&l, a, 2, bytes, fetches);
    assert_int_equal(fetches[0], 1);
    assert_int_equal(bytes[0], 64);
}

/* Arrays no block shares, and grids of one block, keep their footprint. */
static void test_unshared(void **state)
{
    (void)state;
    l2share_launch l = {{100, 1, 1}, 10, true, 1000};
    l2share_array a[2] = {{64, 6400, 0}, {64, 64, 2}}; /* y: a grid of one row */
    int64_t bytes[2], fetches[2];
    l2share_reads(&l, a, 2, bytes, fetches);
    assert_int_equal(fetches[0], 0);
    assert_int_equal(bytes[0], 6400);
    assert_int_equal(fetches[1], 0);
    assert_int_equal(bytes[1], 64);
}

/* A GEMM's two operands behind a bounds check, as hand-written GEMMs
 * guard them (`if (row < N && col < N)`): where the grid fits N the guard
 * keeps every lane, so blocks that differ in blockIdx.y read the same rows
 * of a, those that differ in x the same columns of b; where it does not,
 * the guard could make them read differently and nothing is shared. */
static expr *P(const char *s)
{
    cexpr_error err;
    expr *e = cexpr_parse(s, true, &err);
    assert_non_null(e);
    return e;
}

static mem_access operand(const char *off, const char *guard)
{
    mem_access a;
    memset(&a, 0, sizeof a);
    a.space = SPACE_GLOBAL;
    a.base = (char *)"m";
    a.text = (char *)off;
    a.width = 4;
    a.byte_offset = P(off);
    a.guard = P(guard);
    a.n_loops = 1;
    a.loops[0].var = (char *)"k";
    a.loops[0].init = P("0");
    a.loops[0].cond = P("k < 64");
    a.loops[0].next = P("k + 1");
    a.loc.line = 1;
    return a;
}

static void guarded_gemm(int n, bool expect_cut, unsigned a_shared, unsigned b_shared)
{
    char guard[128];
    snprintf(guard, sizeof guard,
             "blockIdx.x * 16 + threadIdx.y < %d && blockIdx.y * 16 + threadIdx.x < %d", n, n);
    mem_access s[2] = {operand("4 * ((blockIdx.x * 16 + threadIdx.y) * 64 + k)", guard),
                       operand("4 * (k * 64 + blockIdx.y * 16 + threadIdx.x)", guard)};
    footprint_site fs[2] = {{&s[0], "a"}, {&s[1], "b"}};
    const int64_t g[3] = {4, 4, 1}, b[3] = {16, 16, 1};
    footprint f = {0};
    footprint_compute(fs, 2, g, b, NULL, &f);
    bool cut = l2share_guards_cut(fs, 2, g, b, NULL, &f);
    assert_int_equal(cut, expect_cut);
    assert_int_equal(l2share_dims(fs, 2, "a", cut) & 3, a_shared);
    assert_int_equal(l2share_dims(fs, 2, "b", cut) & 3, b_shared);
    /* a guard taken as cutting always forbids the sharing it names */
    assert_int_equal(l2share_dims(fs, 2, "a", true) & 3, 0);
    footprint_free(&f);
    for (int i = 0; i < 2; i++) {
        expr_free(s[i].byte_offset);
        expr_free(s[i].guard);
        expr_free(s[i].loops[0].init);
        expr_free(s[i].loops[0].cond);
        expr_free(s[i].loops[0].next);
    }
}

static void test_guarded_operands(void **state)
{
    (void)state;
    guarded_gemm(64, false, 2, 1); /* 4 x 16 = 64: every lane kept */
    guarded_gemm(56, true, 0, 0);  /* the last blocks' lanes past 56 cut */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_panels),           cmocka_unit_test(test_lockstep_gemm),
        cmocka_unit_test(test_drifting),         cmocka_unit_test(test_overlapping_panels),
        cmocka_unit_test(test_private_streams),  cmocka_unit_test(test_unshared),
        cmocka_unit_test(test_guarded_operands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
