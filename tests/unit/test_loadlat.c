/* test_loadlat: a launch's global loads in phases and the shares of where
 * their sectors come from, worked by hand on the loop bodies of polybench's
 * atax_kernel2 (one statement: its loads in flight together) and gesummv
 * (two statements, each storing: two phases an iteration), a load the
 * footprint cannot follow (no placement, and why) and one whose base
 * offset no launch binds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/symbolic/affbox.h"
#include "analysis/symbolic/cexpr.h"
#include "analysis/timing/loadlat.h"

static expr *P(const char *s)
{
    cexpr_error err;
    expr *e = cexpr_parse(s, true, &err);
    assert_non_null(e);
    return e;
}

/* A site in the loop `for (i = 0; i < n; i++)` at line 10, statement stmt. */
static mem_access in_loop(const char *text, const char *off, bool store, long stmt, int n)
{
    mem_access a;
    memset(&a, 0, sizeof a);
    a.space = SPACE_GLOBAL;
    a.base = (char *)text;
    a.text = (char *)text;
    a.width = 4;
    a.is_store = store;
    a.byte_offset = P(off);
    a.stmt = stmt;
    a.n_loops = 1;
    a.loops[0].var = "i";
    a.loops[0].init = expr_const(0);
    a.loops[0].cond = P(n == 64 ? "i < 64" : "i < 128");
    a.loops[0].next = P("i + 1");
    a.loops[0].loc.line = 10;
    a.loc.line = 11;
    return a;
}

/* The loop around a replaced by `for (var = init; cond; var = next)`. */
static void set_loop(mem_access *a, const char *var, const char *init, const char *cond,
                     const char *next)
{
    expr_free(a->loops[0].init);
    expr_free(a->loops[0].cond);
    expr_free(a->loops[0].next);
    a->loops[0].var = (char *)var;
    a->loops[0].init = P(init);
    a->loops[0].cond = P(cond);
    a->loops[0].next = P(next);
}

static void free_site(mem_access *a)
{
    expr_free(a->byte_offset);
    expr_free(a->loops[0].init);
    expr_free(a->loops[0].cond);
    expr_free(a->loops[0].next);
}

#define J "(blockIdx.x * blockDim.x + threadIdx.x)"

/* y[j] += A[i * 128 + j] * t[i] with 4 blocks of 32 x 8 threads, whose 8
 * warps all take j from threadIdx.x (as atax_kernel2 does): every warp
 * meets each of A's sectors for the first time, and the block fetches it
 * once for all of them, the grid's first touch; t[i] is one sector for 8
 * iterations, which every block fetches. The same holds where the loop
 * may break (a search's `if (hit) break;`): the loads still go out
 * together, and their counts and shares are the full run's, the estimate
 * the request counts take too (HeCBench's ga: its loads were chained one
 * after the other before). */
static void check_atax_body(bool leaves_early)
{
    mem_access s[3] = {
        in_loop("A", "4 * (i * 128 + " J ")", false, 1, 64),
        in_loop("t", "4 * i", false, 1, 64),
        in_loop("y", "4 * " J, true, 1, 64),
    };
    for (int i = 0; i < 3; i++)
        s[i].loops[0].leaves_early = leaves_early;
    const mem_access *sites[3] = {&s[0], &s[1], &s[2]};
    const int64_t grid[3] = {4, 1, 1}, block[3] = {32, 8, 1};
    loadlat l;
    loadlat_compute(sites, 3, grid, block, NULL, NULL, &l);
    assert_true(l.ok);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.n_phases, 1);
    assert_int_equal(l.loads[0].phase, 0);
    assert_int_equal(l.loads[1].phase, 0);
    assert_int_equal(l.loads[0].requests, 4 * 8 * 64);
    assert_float_equal(l.loads[0].new_share, 1, 1e-12);
    assert_float_equal(l.loads[0].first_share, 1, 1e-12);
    /* t: 8 sectors over the grid, 8 per block and per warp, against 64
     * requests of one sector by each of 32 warps: 1/8 of a warp's requests
     * meet a new sector; of the blocks' 32 fetches 8 are first touches. */
    assert_float_equal(l.loads[1].new_share, 0.125, 1e-12);
    assert_float_equal(l.loads[1].first_share, 0.25, 1e-12);
    loadlat_free(&l);
    for (int i = 0; i < 3; i++)
        free_site(&s[i]);
}

static void test_one_statement(void **state)
{
    (void)state;
    check_atax_body(false);
}

static void test_leaves_early(void **state)
{
    (void)state;
    check_atax_body(true);
}

/* tmp[j] += A[j * 128 + i]; y[j] += B[j * 128 + i]: the second
 * statement's loads wait for the first statement's store. */
static void test_two_statements(void **state)
{
    (void)state;
    mem_access s[6] = {
        in_loop("tmp", "4 * " J, false, 1, 128),
        in_loop("A", "4 * (" J " * 128 + i)", false, 1, 128),
        in_loop("tmp", "4 * " J, true, 1, 128),
        in_loop("y", "4 * " J, false, 2, 128),
        in_loop("B", "4 * (" J " * 128 + i)", false, 2, 128),
        in_loop("y", "4 * " J, true, 2, 128),
    };
    const mem_access *sites[6];
    for (int i = 0; i < 6; i++)
        sites[i] = &s[i];
    const int64_t grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
    loadlat l;
    loadlat_compute(sites, 6, grid, block, NULL, NULL, &l);
    assert_true(l.ok);
    assert_int_equal(l.n, 4);
    assert_int_equal(l.n_phases, 2);
    int want[4] = {0, 0, 1, 1};
    for (int i = 0; i < 4; i++)
        assert_int_equal(l.loads[i].phase, want[i]);
    /* A: each lane its own row, a sector holds 8 of its floats: a warp
     * meets a new sector every 8th iteration, and no other warp shares it. */
    assert_float_equal(l.loads[1].new_share, 0.125, 1e-12);
    assert_float_equal(l.loads[1].first_share, 1, 1e-12);
    loadlat_free(&l);
    for (int i = 0; i < 6; i++)
        free_site(&s[i]);
}

/* for (i = threadIdx.x - 256; i < 4096; i += 256) x[i] += 1 under
 * `if (threadIdx.x >= 256)` in blocks of 512: the block's first 8 warps
 * load nothing, the other 8 a new sector each request (16 iterations of 4
 * sectors). The share new to the warp is all of them: the first warp
 * alone, which loads nothing, made it none (an L1 hit each). */
static void test_later_warps(void **state)
{
    (void)state;
    mem_access s[2] = {in_loop("x", "4 * i", false, 1, 64), in_loop("x", "4 * i", true, 1, 64)};
    for (int k = 0; k < 2; k++) {
        set_loop(&s[k], "i", "threadIdx.x - 256", "i < 4096", "i + 256");
        s[k].guard = P("threadIdx.x >= 256");
    }
    const mem_access *sites[2] = {&s[0], &s[1]};
    const int64_t grid[3] = {1, 1, 1}, block[3] = {512, 1, 1};
    loadlat l;
    loadlat_compute(sites, 2, grid, block, NULL, NULL, &l);
    assert_true(l.ok);
    assert_int_equal(l.n, 1);
    assert_int_equal(l.loads[0].requests, 8 * 16);
    assert_int_equal(l.loads[0].busiest_requests, 16);
    assert_float_equal(l.loads[0].new_share, 1, 1e-12);
    loadlat_free(&l);
    for (int k = 0; k < 2; k++) {
        expr_free(s[k].guard);
        free_site(&s[k]);
    }
}

/* x[i] += 1 in a loop: the store writes where the same iteration read,
 * so nothing holds a later iteration's load back (ptxas tells the
 * unrolled copies apart); a store to another array (y[i] = x[i]), or to
 * the next element (x[i + 1] = x[i]), may alias a later load and does,
 * and an element every iteration reads and writes (x[j] += ... in an i
 * loop) is the next iteration's load. */
static void test_in_place(void **state)
{
    (void)state;
    const int64_t grid[3] = {4, 1, 1}, block[3] = {32, 1, 1};
    const char *stores[4][2] = {{"x", "4 * (i * 128 + " J ")"},
                                {"y", "4 * (i * 128 + " J ")"},
                                {"x", "4 * (i * 128 + " J " + 1)"},
                                {"x", "4 * " J}};
    for (int k = 0; k < 4; k++) {
        /* the last: an accumulator every iteration reads and writes */
        const char *load = k == 3 ? "4 * " J : "4 * (i * 128 + " J ")";
        mem_access s[2] = {in_loop("x", load, false, 1, 64),
                           in_loop(stores[k][0], stores[k][1], true, 1, 64)};
        const mem_access *sites[2] = {&s[0], &s[1]};
        loadlat l;
        loadlat_compute(sites, 2, grid, block, NULL, NULL, &l);
        assert_true(l.ok);
        assert_int_equal(l.n, 1);
        assert_int_equal(l.loads[0].free_body, k == 0);
        loadlat_free(&l);
        for (int j = 0; j < 2; j++)
            free_site(&s[j]);
    }
}

/* A tree reduction in place, for (stride = 1; stride < 64; stride *= 2)
 * with __syncthreads in the body: the 6 iterations are the block's warps'
 * lockstep, and the store to the same array makes 5 of them read what
 * another warp stored. Without the barrier the warps run apart; a store
 * to another array reads nothing back. */
static void test_lockstep(void **state)
{
    (void)state;
    const char *guard = "threadIdx.x % (2 * stride) == 0";
    mem_access s[3];
    const char *offs[3] = {"4 * (blockIdx.x * 64 + threadIdx.x)",
                           "4 * (blockIdx.x * 64 + threadIdx.x + stride)",
                           "4 * (blockIdx.x * 64 + threadIdx.x)"};
    for (int i = 0; i < 3; i++) {
        s[i] = in_loop("a", offs[i], i == 2, 1, 64);
        set_loop(&s[i], "stride", "1", "stride < 64", "stride * 2");
        s[i].loops[0].barrier = true;
        s[i].guard = P(guard);
    }
    const mem_access *sites[3] = {&s[0], &s[1], &s[2]};
    const int64_t grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
    loadlat l;
    loadlat_compute(sites, 3, grid, block, NULL, NULL, &l);
    assert_true(l.ok);
    assert_int_equal(l.n, 2);
    for (int i = 0; i < 2; i++) {
        assert_float_equal(l.loads[i].lockstep, 6, 0);
        assert_float_equal(l.loads[i].restored_share, 5.0 / 6, 1e-12);
    }
    loadlat_free(&l);
    s[2].base = "b";
    loadlat_compute(sites, 3, grid, block, NULL, NULL, &l);
    assert_float_equal(l.loads[0].lockstep, 6, 0);
    assert_float_equal(l.loads[0].restored_share, 0, 0);
    loadlat_free(&l);
    for (int i = 0; i < 3; i++)
        s[i].loops[0].barrier = false;
    loadlat_compute(sites, 3, grid, block, NULL, NULL, &l);
    assert_float_equal(l.loads[0].lockstep, 0, 0);
    loadlat_free(&l);
    for (int i = 0; i < 3; i++) {
        expr_free(s[i].guard);
        free_site(&s[i]);
    }
}

/* The closed-form trip count against the counter stepped one value at a
 * time (affbox_loop_values), over upward and downward loops, both sides
 * of the comparison, strict and not, and empty loops. */
static void test_trips_closed_form(void **state)
{
    (void)state;
    static const char *const conds[] = {"i < n", "i <= n", "n > i", "n >= i",
                                        "i > n", "i >= n", "n < i", "n <= i"};
    static const char *const nexts[] = {"i + 1", "i + 7", "i - 3", "i - 8"};
    int compared = 0;
    for (size_t c = 0; c < sizeof conds / sizeof *conds; c++)
        for (size_t s = 0; s < sizeof nexts / sizeof *nexts; s++)
            for (int64_t init = -5; init <= 40; init += 9)
                for (int64_t n = -10; n <= 110; n += 13) {
                    loop_ctx l = {.var = "i",
                                  .init = expr_const(init),
                                  .cond = P(conds[c]),
                                  .next = P(nexts[s])};
                    expr_env env;
                    expr_env_init(&env);
                    expr_env_set(&env, "n", n);
                    int stepped = affbox_loop_values(&l, &env, NULL, 1000);
                    int64_t closed = affbox_loop_trips(&l, &env, 1000);
                    /* Stepping gives 0 for a loop that never ends (the
                     * counter moving away from its bound): so must this. */
                    assert_int_equal(closed, stepped);
                    compared += stepped > 0;
                    expr_free(l.init);
                    expr_free(l.cond);
                    expr_free(l.next);
                }
    assert_true(compared > 100);
    /* A multiplied step is stepped: 1, 2, 4, ..., 32. */
    loop_ctx l = {.var = "s", .init = expr_const(1), .cond = P("s < 64"), .next = P("s * 2")};
    assert_int_equal(affbox_loop_trips(&l, NULL, 1000), 6);
    /* Above max: unknown, as stepping says. */
    expr_free(l.cond);
    expr_free(l.next);
    l.cond = P("s < 1000000000000");
    l.next = P("s + 1");
    assert_int_equal(affbox_loop_trips(&l, NULL, 1000), 0);
    assert_int_equal(affbox_loop_trips(&l, NULL, INT64_C(1) << 40), 999999999999);
    expr_free(l.init);
    expr_free(l.cond);
    expr_free(l.next);
}

/* x[j] = ...; then y = x[j + 32] outside any loop, 64 threads a block: the
 * block stored [64 b, 64 b + 64) and reads [64 b + 32, 64 b + 96), half of
 * it seen (from L1 or L2, not DRAM). A store to another array, or one in
 * the same loop as the load (whose later iterations come after it), is no
 * earlier touch. */
static void test_seen_before(void **state)
{
    (void)state;
    mem_access s[2] = {
        in_loop("x", "4 * (blockIdx.x * 64 + threadIdx.x)", true, 1, 64),
        in_loop("x", "4 * (blockIdx.x * 64 + threadIdx.x + 32)", false, 2, 64),
    };
    s[0].n_loops = 0;
    s[1].n_loops = 0;
    const mem_access *sites[2] = {&s[0], &s[1]};
    const int64_t grid[3] = {4, 1, 1}, block[3] = {64, 1, 1};
    loadlat l;
    loadlat_compute(sites, 2, grid, block, NULL, NULL, &l);
    assert_true(l.ok);
    assert_int_equal(l.n, 1);
    assert_float_equal(l.loads[0].seen_share, 0.5, 1e-12);
    loadlat_free(&l);
    /* Another array: nothing seen. */
    s[0].base = "z";
    loadlat_compute(sites, 2, grid, block, NULL, NULL, &l);
    assert_float_equal(l.loads[0].seen_share, 0, 0);
    loadlat_free(&l);
    /* Both in the loop at line 10: the store's iterations also run after
     * the load's, so none of it counts. */
    s[0].base = "x";
    s[0].n_loops = 1;
    s[1].n_loops = 1;
    loadlat_compute(sites, 2, grid, block, NULL, NULL, &l);
    assert_float_equal(l.loads[0].seen_share, 0, 0);
    loadlat_free(&l);
    for (int i = 0; i < 2; i++)
        free_site(&s[i]);
}

/* The innermost loop of s[0] made `for (i = 0; cond; i++)`. */
static void set_cond(mem_access *a, const char *cond)
{
    expr_free(a->loops[0].cond);
    a->loops[0].cond = P(cond);
}

/* loadlat_load.together of s[0], with s[1] beside it, 4 blocks of 64. */
static double first_together(const mem_access s[2])
{
    const mem_access *sites[2] = {&s[0], &s[1]};
    const int64_t grid[3] = {4, 1, 1}, block[3] = {64, 1, 1};
    loadlat l;
    loadlat_compute(sites, 2, grid, block, NULL, NULL, &l);
    assert_true(l.ok);
    double together = l.loads[0].together;
    loadlat_free(&l);
    return together;
}

/* sum += x[k * 64 + tid] for k < 8, stored after the loop: nvcc unrolls
 * the loop in full and issues its 8 loads together. Not with a store in
 * the body, a trip count the launch sets, more than LOADLAT_UNROLLED
 * iterations, or a barrier in the loop. */
static void test_unrolled_together(void **state)
{
    (void)state;
    mem_access s[2] = {
        in_loop("x", "4 * (i * 64 + threadIdx.x)", false, 1, 64),
        in_loop("y", "4 * threadIdx.x", true, 2, 64),
    };
    set_cond(&s[0], "i < 8");
    s[1].n_loops = 0;
    assert_float_equal(first_together(s), 8, 0);
    /* The store inside the loop's body holds the next iteration back. */
    s[1].n_loops = 1;
    assert_float_equal(first_together(s), 1, 0);
    s[1].n_loops = 0;
    /* A barrier in the loop. */
    s[0].loops[0].barrier = true;
    assert_float_equal(first_together(s), 1, 0);
    s[0].loops[0].barrier = false;
    /* A bound the launch gives: not known when nvcc compiles. */
    set_cond(&s[0], "i < blockDim.x / 8");
    assert_float_equal(first_together(s), 1, 0);
    /* More iterations than nvcc is taken to unroll. */
    set_cond(&s[0], "i < 17");
    assert_float_equal(first_together(s), 1, 0);
    for (int i = 0; i < 2; i++)
        free_site(&s[i]);
}

/* Two loops a macro writes at one expansion place share their line and
 * column; where they are spelled tells them apart: a store in the second
 * is not in the first one's body. */
static void test_macro_loops_apart(void **state)
{
    (void)state;
    mem_access s[2] = {
        in_loop("x", "4 * (i * 64 + threadIdx.x)", false, 1, 64),
        in_loop("y", "4 * (i * 64 + threadIdx.x)", true, 2, 64),
    };
    set_cond(&s[0], "i < 8");
    set_cond(&s[1], "i < 8");
    assert_float_equal(first_together(s), 1, 0); /* one loop: the store holds it back */
    s[0].loops[0].spelled_at = 100;
    s[1].loops[0].spelled_at = 180;
    assert_false(loop_same(&s[0].loops[0], &s[1].loops[0]));
    assert_float_equal(first_together(s), 8, 0);
    for (int i = 0; i < 2; i++)
        free_site(&s[i]);
}

static void test_not_followed(void **state)
{
    (void)state;
    mem_access s = in_loop("A", "4 * (i * i)", false, 1, 64);
    const mem_access *sites[1] = {&s};
    const int64_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    loadlat l;
    loadlat_compute(sites, 1, grid, block, NULL, NULL, &l);
    assert_false(l.ok);
    assert_non_null(strstr(l.why, "A (line 11)"));
    loadlat_free(&l);
    free_site(&s);
}

/* A base offset from a kernel parameter no launch binds (doitgen's
 * r * (nq * np), r a host loop's counter): the counts do not depend on it,
 * which runs with r = 1, 7 and 32 show. A guard on it does change them. */
static void test_unbound_offset(void **state)
{
    (void)state;
    mem_access s = in_loop("A", "4 * (r * 4096 + i * 128 + " J ")", false, 1, 64);
    const mem_access *sites[1] = {&s};
    const int64_t grid[3] = {4, 1, 1}, block[3] = {32, 8, 1};
    loadlat l;
    loadlat_compute(sites, 1, grid, block, NULL, NULL, &l);
    assert_true(l.ok);
    assert_float_equal(l.loads[0].new_share, 1, 1e-12);
    assert_float_equal(l.loads[0].first_share, 1, 1e-12);
    loadlat_free(&l);
    s.guard = P("threadIdx.x < r");
    loadlat_compute(sites, 1, grid, block, NULL, NULL, &l);
    assert_false(l.ok);
    assert_non_null(strstr(l.why, "depends on 'r'"));
    loadlat_free(&l);
    expr_free(s.guard);
    free_site(&s);
}

/* A load under a condition on data (`if (a[j] > t[j] || b[j] > t[j])`,
 * HeCBench's findMovingPixels): which lanes pass is not known, so the
 * estimate takes the condition as passing, as the request counts do, and
 * places the load in its phase by its box; it was left unplaced, and every
 * request of the warp waited on the one before. */
static void test_data_guard(void **state)
{
    (void)state;
    mem_access s[2] = {
        in_loop("a", "4 * " J, false, 1, 64),
        in_loop("b", "4 * " J, false, 1, 64),
    };
    for (int i = 0; i < 2; i++) {
        free_site(&s[i]);
        s[i].n_loops = 0;
        s[i].byte_offset = P("4 * " J);
    }
    s[1].guard = expr_binary(OP_LE, expr_unknown("value read from memory ('a[j]')"), expr_const(7));
    const mem_access *sites[2] = {&s[0], &s[1]};
    const int64_t grid[3] = {16, 1, 1}, block[3] = {256, 1, 1};
    loadlat l;
    loadlat_compute(sites, 2, grid, block, NULL, NULL, &l);
    assert_true(l.ok);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.loads[1].phase, l.loads[0].phase);
    assert_int_equal(l.loads[1].requests, 16 * 8);
    assert_float_equal(l.loads[1].new_share, 1, 1e-12);
    assert_float_equal(l.loads[1].first_share, 1, 1e-12);
    loadlat_free(&l);
    expr_free(s[1].guard);
    for (int i = 0; i < 2; i++)
        expr_free(s[i].byte_offset);
}

/* nlll's loop body (HeCBench): `t = target[i]`, then `weights[t]` and
 * `input[i * 64 + t]`. The two gathers cannot go out before target[i]'s
 * data are back: a second phase, both in it. A gather whose value was
 * read by no load of the body's phase (`table[v]`, v read before the
 * loop) stays in the phase it is issued with. */
static expr *gather_offset(const char *scale, const char *value)
{
    expr *v = expr_unknown(value);
    v->value = ACCESS_DATA_PER_LANE;
    return expr_binary(OP_MUL, expr_const(4), expr_binary(OP_ADD, P(scale), v));
}

static void test_dependent_loads(void **state)
{
    (void)state;
    mem_access s[4] = {
        in_loop("target[i]", "4 * i", false, 1, 64),
        in_loop("weights[t]", "0", false, 2, 64),
        in_loop("input[i * 64 + t]", "0", false, 2, 64),
        in_loop("table[v]", "0", false, 3, 64),
    };
    const char *value[4] = {NULL, "value read from memory ('target[i]')",
                            "value read from memory ('target[i]')",
                            "value read from memory ('v0[blockIdx.x]')"};
    const char *scale[4] = {NULL, "0", "i * 64", "0"};
    for (int i = 1; i < 4; i++) {
        expr_free(s[i].byte_offset);
        s[i].byte_offset = gather_offset(scale[i], value[i]);
        s[i].index_from_data = true;
    }
    const mem_access *sites[4] = {&s[0], &s[1], &s[2], &s[3]};
    const int64_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    loadlat l;
    loadlat_compute(sites, 4, grid, block, NULL, NULL, &l);
    assert_true(l.ok);
    assert_int_equal(l.n, 4);
    assert_int_equal(l.n_phases, 2);
    assert_int_equal(l.loads[0].phase, 0);
    assert_int_equal(l.loads[1].phase, 1);
    assert_int_equal(l.loads[2].phase, 1);
    assert_int_equal(l.loads[3].phase, 1);
    loadlat_free(&l);
    for (int i = 0; i < 4; i++)
        free_site(&s[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_statement),     cmocka_unit_test(test_two_statements),
        cmocka_unit_test(test_lockstep),          cmocka_unit_test(test_trips_closed_form),
        cmocka_unit_test(test_not_followed),      cmocka_unit_test(test_unbound_offset),
        cmocka_unit_test(test_seen_before),       cmocka_unit_test(test_unrolled_together),
        cmocka_unit_test(test_macro_loops_apart), cmocka_unit_test(test_leaves_early),
        cmocka_unit_test(test_data_guard),        cmocka_unit_test(test_later_warps),
        cmocka_unit_test(test_in_place),          cmocka_unit_test(test_dependent_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
