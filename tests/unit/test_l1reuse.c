/* test_l1reuse: what L1 keeps for a block (the carveout left over, shared
 * among the blocks an SM holds) and the sectors a later loop reads from L2
 * again, worked by hand: a layer norm's two passes over a row, the same
 * row read twice per iteration of a shared loop, neighbours in one loop,
 * two loops over different arrays, and a load that stays put in its loop
 * against one a later loop's sweep lets go. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/symbolic/cexpr.h"
#include "analysis/memory/l1reuse.h"

static expr *P(const char *s)
{
    cexpr_error err;
    expr *e = cexpr_parse(s, true, &err);
    assert_non_null(e);
    return e;
}

/* A loop at a line of its own: loops are told apart by where they are. */
static void loop(mem_access *a, int line, const char *var, const char *init, const char *cond,
                 const char *next)
{
    loop_ctx *l = &a->loops[a->n_loops++];
    l->var = (char *)var;
    l->init = P(init);
    l->cond = P(cond);
    l->next = P(next);
    l->loc.line = line;
}

static mem_access load(const char *base, const char *off, int line)
{
    mem_access a;
    memset(&a, 0, sizeof a);
    a.space = SPACE_GLOBAL;
    a.base = (char *)base;
    a.text = (char *)off;
    a.width = 4;
    a.byte_offset = P(off);
    a.loc.line = line;
    return a;
}

static void drop(mem_access *s, int n)
{
    for (int i = 0; i < n; i++) {
        expr_free(s[i].byte_offset);
        for (int k = 0; k < s[i].n_loops; k++) {
            expr_free(s[i].loops[k].init);
            expr_free(s[i].loops[k].cond);
            expr_free(s[i].loops[k].next);
        }
    }
}

static int64_t rereads(mem_access *s, int n, const int64_t g[3], const int64_t b[3], int64_t l1,
                       char *why, size_t why_size)
{
    footprint_site fs[8];
    for (int i = 0; i < n; i++)
        fs[i] = (footprint_site){&s[i], s[i].base};
    const int64_t mid[3] = {g[0] / 2, 0, 0};
    l1reuse r;
    l1reuse_compute(fs, (size_t)n, g, b, NULL, mid, l1, &r);
    if (why)
        snprintf(why, why_size, "%s", r.why);
    return r.reread_sectors;
}

/* rows of 2048 floats (8 KiB, 256 sectors), a block of 32 threads a row:
 * a statistics loop and a normalising loop over the same row. */
static void two_passes(mem_access s[2], const char *rows)
{
    s[0] = load("x", "4 * (row * 2048 + c)", 11);
    s[1] = load("x", "4 * (row * 2048 + c)", 21);
    for (int i = 0; i < 2; i++) {
        char cond[32];
        snprintf(cond, sizeof cond, "row < %s", rows);
        loop(&s[i], 5, "row", "blockIdx.x", cond, "row + gridDim.x");
        loop(&s[i], 10 + 10 * i, "c", "threadIdx.x", "c < 2048", "c + 32");
    }
}

static void test_layer_norm(void **state)
{
    (void)state;
    const int64_t g[3] = {4, 1, 1}, b[3] = {32, 1, 1};
    mem_access s[2];
    two_passes(s, "4");
    char why[L1REUSE_WHY_MAX];
    /* 8 KiB swept between the reuses, L1 keeps 4 KiB: the whole row again. */
    assert_int_equal(rereads(s, 2, g, b, 4096, why, sizeof why), 256);
    assert_non_null(strstr(why, "line 20"));
    assert_non_null(strstr(why, "line 10"));
    assert_non_null(strstr(why, "8 KiB a block, more than the 4 KiB"));
    /* 16 KiB kept: the row fits, L1 serves the second pass. */
    assert_int_equal(rereads(s, 2, g, b, 16384, why, sizeof why), 0);
    assert_string_equal(why, "");
    /* L1's share not known: nothing claimed. */
    assert_int_equal(rereads(s, 2, g, b, 0, NULL, 0), 0);
    drop(s, 2);
}

/* Two rows a block (grid 2, rows 4): the sweep between reuses is one row,
 * 8 KiB, though the block reads 16 KiB in all. */
static void test_per_iteration(void **state)
{
    (void)state;
    const int64_t g[3] = {2, 1, 1}, b[3] = {32, 1, 1};
    mem_access s[2];
    two_passes(s, "4");
    assert_int_equal(rereads(s, 2, g, b, 12000, NULL, 0), 0);
    assert_int_equal(rereads(s, 2, g, b, 4096, NULL, 0), 2 * 256);
    drop(s, 2);
}

/* A stencil's neighbours in one loop reuse within the sweep: not this
 * module's, whatever L1 keeps. */
static void test_one_loop(void **state)
{
    (void)state;
    const int64_t g[3] = {4, 1, 1}, b[3] = {32, 1, 1};
    mem_access s[3] = {load("x", "4 * (blockIdx.x * 4096 + c)", 11),
                       load("x", "4 * (blockIdx.x * 4096 + c + 1)", 11),
                       load("x", "4 * (blockIdx.x * 4096 + c + 2)", 11)};
    for (int i = 0; i < 3; i++)
        loop(&s[i], 10, "c", "threadIdx.x", "c < 2048", "c + 32");
    assert_int_equal(rereads(s, 3, g, b, 1024, NULL, 0), 0);
    drop(s, 3);
}

/* Two loops over different arrays share nothing to read again. */
static void test_other_array(void **state)
{
    (void)state;
    const int64_t g[3] = {4, 1, 1}, b[3] = {32, 1, 1};
    mem_access s[2] = {load("x", "4 * (blockIdx.x * 2048 + c)", 11),
                       load("y", "4 * (blockIdx.x * 2048 + c)", 21)};
    loop(&s[0], 10, "c", "threadIdx.x", "c < 2048", "c + 32");
    loop(&s[1], 20, "c", "threadIdx.x", "c < 2048", "c + 32");
    assert_int_equal(rereads(s, 2, g, b, 1024, NULL, 0), 0);
    drop(s, 2);
}

/* gemver's x[i], read each iteration of a loop that sweeps a column of
 * A and once after it: fresh in L1 when the loop ends, not read again from
 * L2. A row x[i] read, a sweep of y, then x[i] again: the sweep let it go
 * (32 threads' 4 bytes, 4 sectors). */
static void test_stays_put(void **state)
{
    (void)state;
    const int64_t g[3] = {4, 1, 1}, b[3] = {32, 1, 1};
    mem_access s[3] = {load("x", "4 * (blockIdx.x * 32 + threadIdx.x)", 11),
                       load("a", "4 * (j * 128 + blockIdx.x * 32 + threadIdx.x)", 11),
                       load("x", "4 * (blockIdx.x * 32 + threadIdx.x)", 13)};
    loop(&s[0], 10, "j", "0", "j < 4096", "j + 1");
    loop(&s[1], 10, "j", "0", "j < 4096", "j + 1");
    assert_int_equal(rereads(s, 3, g, b, 1024, NULL, 0), 0);
    drop(s, 3);
    mem_access t[3] = {load("x", "4 * (blockIdx.x * 32 + threadIdx.x)", 9),
                       load("y", "4 * (j * 128 + blockIdx.x * 32 + threadIdx.x)", 11),
                       load("x", "4 * (blockIdx.x * 32 + threadIdx.x)", 13)};
    loop(&t[1], 10, "j", "0", "j < 4096", "j + 1");
    char why[L1REUSE_WHY_MAX];
    assert_int_equal(rereads(t, 3, g, b, 1024, why, sizeof why), 4);
    assert_non_null(strstr(why, "line 13"));
    assert_non_null(strstr(why, "line 10 swept 512 KiB"));
    drop(t, 3);
}

/* An arch shaped as sm_90: 256 KiB unified, carveouts 0 8 16 32 64 100
 * 132 164 196 228 KiB, 1 KiB reserved per block, 2048 threads and 32
 * blocks an SM. */
static gpu_arch hopper(void)
{
    gpu_arch a = {0};
    a.warp_size = 32;
    a.max_threads_per_sm = 2048;
    a.max_blocks_per_sm = 32;
    a.smem_per_sm = 228 * 1024;
    a.smem_reserved_per_block = 1024;
    static const int kb[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    for (int i = 0; i < 10; i++)
        a.carveouts[a.n_carveouts++] = kb[i] * 1024;
    a.unified_l1_per_sm = 256 * 1024;
    return a;
}

static void test_share(void **state)
{
    (void)state;
    gpu_arch a = hopper();
    /* 2 blocks of 1024 threads, 2 KiB reserved: the 8 KiB carveout,
     * (256 - 8) KiB / 2. */
    assert_int_equal(l1reuse_bytes_per_block(&a, 1024, 0, 0), (256 - 8) * 1024 / 2);
    /* 256 threads with 40 KiB each: 5 blocks (228 / 41), 205 KiB needs the
     * 228 KiB carveout, 28 KiB over 5. */
    assert_int_equal(l1reuse_bytes_per_block(&a, 256, 40 * 1024, 0), 28 * 1024 / 5);
    /* 64 threads: 32 blocks (the block limit), 32 KiB reserved, the 32 KiB
     * carveout, 224 KiB over 32. */
    assert_int_equal(l1reuse_bytes_per_block(&a, 64, 0, 0), 224 * 1024 / 32);
    /* A grid of 16 blocks on 132 SMs: one block an SM, 1 KiB reserved,
     * the 8 KiB carveout, 248 KiB its own. */
    assert_int_equal(l1reuse_bytes_per_block(&a, 256, 0, 1), 248 * 1024);
    a.unified_l1_per_sm = 0;
    assert_int_equal(l1reuse_bytes_per_block(&a, 1024, 0, 0), 0);
    assert_int_equal(l1reuse_bytes_per_block(NULL, 1024, 0, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layer_norm), cmocka_unit_test(test_per_iteration),
        cmocka_unit_test(test_one_loop),   cmocka_unit_test(test_other_array),
        cmocka_unit_test(test_stays_put),  cmocka_unit_test(test_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
