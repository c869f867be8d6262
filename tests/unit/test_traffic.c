/* test_traffic: a launch's L1 requests and sectors against a brute force
 * that runs every warp of the grid through its loop and counts, per
 * request, the distinct 32-byte sectors its active lanes touch: a bounds
 * check whose last block is partly idle, a 2-D block, a strided store, a
 * loop, a guard on blockIdx (edge blocks differ); shared wavefronts of a
 * conflict-free and a 2-way site; a site that cannot be analysed is left
 * out and named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/symbolic/lanes.h"
#include "analysis/memory/traffic.h"
#include "analysis/symbolic/cexpr.h"

static expr *P(const char *s)
{
    cexpr_error err;
    expr *e = cexpr_parse(s, true, &err);
    assert_non_null(e);
    return e;
}

/* One site; loop_var NULL: no loop, else for (v = 0; v < trips; v++). */
static mem_access site(access_space space, const char *off, int width, bool store,
                       const char *guard, const char *loop_var, int trips)
{
    mem_access a;
    memset(&a, 0, sizeof a);
    a.space = space;
    a.base = (char *)"p";
    a.text = (char *)off;
    a.width = width;
    a.is_store = store;
    a.byte_offset = P(off);
    a.guard = guard ? P(guard) : NULL;
    if (loop_var) {
        char cond[64];
        snprintf(cond, sizeof cond, "%s < %d", loop_var, trips);
        char next[64];
        snprintf(next, sizeof next, "%s + 1", loop_var);
        a.n_loops = 1;
        a.loops[0].var = (char *)loop_var;
        a.loops[0].init = P("0");
        a.loops[0].cond = P(cond);
        a.loops[0].next = P(next);
    }
    a.loc.line = 7;
    return a;
}

static void site_free(mem_access *a)
{
    expr_free(a->byte_offset);
    expr_free(a->guard);
    for (int i = 0; i < a->n_loops; i++) {
        expr_free(a->loops[i].init);
        expr_free(a->loops[i].cond);
        expr_free(a->loops[i].next);
    }
}

static int cmp64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* Every warp of every block, every iteration: requests and sectors. */
static void brute(const mem_access *a, const int64_t grid[3], const int64_t block[3],
                  int64_t *requests, int64_t *sectors, int64_t *lines, int64_t *busiest)
{
    *requests = *sectors = *lines = *busiest = 0;
    expr_env env;
    expr_env_init(&env);
    for (int d = 0; d < 3; d++) {
        expr_env_set_builtin(&env, (expr_builtin)(SYM_BDIM_X + d), block[d]);
        expr_env_set_builtin(&env, (expr_builtin)(SYM_GDIM_X + d), grid[d]);
    }
    int64_t threads = block[0] * block[1] * block[2];
    int trips = 1;
    if (a->n_loops) {
        int64_t t;
        expr_env_set(&env, a->loops[0].var, 0);
        for (t = 0;; t++) {
            int64_t c;
            expr_env_set(&env, a->loops[0].var, t);
            assert_int_equal(expr_eval(a->loops[0].cond, &env, &c, NULL), EXPR_OK);
            if (!c)
                break;
        }
        trips = (int)t;
    }
    for (int64_t bz = 0; bz < grid[2]; bz++)
        for (int64_t by = 0; by < grid[1]; by++)
            for (int64_t bx = 0; bx < grid[0]; bx++) {
                expr_env_set_builtin(&env, SYM_BID_X, bx);
                expr_env_set_builtin(&env, SYM_BID_Y, by);
                expr_env_set_builtin(&env, SYM_BID_Z, bz);
                for (int64_t w0 = 0; w0 < threads; w0 += 32) {
                    int64_t mine = 0;
                    for (int it = 0; it < trips; it++) {
                        int64_t sec[32];
                        int n = 0;
                        for (int64_t t = w0; t < w0 + 32 && t < threads; t++) {
                            expr_env_set_builtin(&env, SYM_TID_X, t % block[0]);
                            expr_env_set_builtin(&env, SYM_TID_Y, t / block[0] % block[1]);
                            expr_env_set_builtin(&env, SYM_TID_Z, t / (block[0] * block[1]));
                            if (a->n_loops)
                                expr_env_set(&env, a->loops[0].var, it);
                            int64_t g = 1, off;
                            if (a->guard)
                                assert_int_equal(expr_eval(a->guard, &env, &g, NULL), EXPR_OK);
                            if (!g)
                                continue;
                            assert_int_equal(expr_eval(a->byte_offset, &env, &off, NULL), EXPR_OK);
                            sec[n++] = off >= 0 ? off / 32 : -((-off + 31) / 32);
                        }
                        if (!n)
                            continue;
                        qsort(sec, (size_t)n, sizeof sec[0], cmp64);
                        int distinct = 1, in_lines = 1;
                        for (int i = 1; i < n; i++) {
                            distinct += sec[i] != sec[i - 1];
                            in_lines += sec[i] / 4 != sec[i - 1] / 4;
                        }
                        (*requests)++;
                        mine++;
                        *sectors += distinct;
                        *lines += in_lines;
                    }
                    if (mine > *busiest)
                        *busiest = mine;
                }
            }
}

static void check_global(mem_access a, int64_t gx, int64_t gy, int64_t bx, int64_t by)
{
    const int64_t grid[3] = {gx, gy, 1}, block[3] = {bx, by, 1};
    int64_t req, sec, lines, busiest;
    brute(&a, grid, block, &req, &sec, &lines, &busiest);
    expr_env env;
    expr_env_init(&env);
    const mem_access *sites[1] = {&a};
    traffic t;
    traffic_compute(sites, 1, grid, block, &env, NULL, &t);
    int k = a.is_store ? TRAFFIC_STORE : TRAFFIC_LOAD;
    assert_int_equal(t.requests[k], req);
    assert_int_equal(t.units[k], sec);
    assert_int_equal(t.lines[k], lines);
    assert_int_equal(t.busiest_requests[k], busiest);
    assert_int_equal(t.certain_units[k], sec);
    /* Through a memo: callers binding blockDim and blockIdx differently
     * (traffic_site binds both itself) get one walk and the same totals. */
    traffic_memo *memo = traffic_memo_new();
    for (int d = 0; d < 3; d++)
        expr_env_set_builtin(&env, (expr_builtin)(SYM_GDIM_X + d), grid[d]);
    expr_env other = env;
    expr_env_set_builtin(&other, SYM_BID_X, 0);
    expr_env_set_builtin(&other, SYM_BDIM_X, block[0]);
    traffic_site_total first, again;
    char why[128];
    assert_true(traffic_site_memo(memo, &a, block, &env, grid, &first, why, sizeof why));
    assert_true(traffic_site_memo(memo, &a, block, &other, grid, &again, why, sizeof why));
    assert_int_equal(traffic_memo_entries(memo), 1);
    assert_int_equal(first.units, sec);
    assert_int_equal(again.units, sec);
    assert_int_equal(again.requests, req);
    traffic_memo_free(memo);
    assert_null(t.why);
    assert_int_equal(t.n_left_out, 0);
    traffic_free(&t);
    site_free(&a);
}

static void test_bounds_check_edge_block(void **state)
{
    (void)state;
    /* 1000 floats in blocks of 128: the last block has 104 active lanes. */
    check_global(site(SPACE_GLOBAL, "4 * (blockIdx.x * blockDim.x + threadIdx.x)", 4, false,
                      "blockIdx.x * blockDim.x + threadIdx.x < 1000", NULL, 0),
                 8, 1, 128, 1);
}

static void test_2d_block_row_major(void **state)
{
    (void)state;
    /* A 16x16 block over a 100-wide matrix: each warp spans two rows. */
    check_global(site(SPACE_GLOBAL,
                      "4 * ((blockIdx.y * 16 + threadIdx.y) * 100 + blockIdx.x * 16 + threadIdx.x)",
                      4, false, "blockIdx.x * 16 + threadIdx.x < 100", NULL, 0),
                 7, 5, 16, 16);
}

static void test_strided_store(void **state)
{
    (void)state;
    /* A column walk: every lane its own sector. */
    check_global(site(SPACE_GLOBAL, "4 * ((blockIdx.x * blockDim.x + threadIdx.x) * 1024)", 4, true,
                      NULL, NULL, 0),
                 4, 1, 256, 1);
}

static void test_loop(void **state)
{
    (void)state;
    /* A row per thread over 9 iterations of 8-byte elements. */
    check_global(site(SPACE_GLOBAL, "8 * ((blockIdx.x * blockDim.x + threadIdx.x) * 9 + k)", 8,
                      false, NULL, "k", 9),
                 3, 1, 64, 1);
}

static void test_guard_on_block_index(void **state)
{
    (void)state;
    /* Only the first and the last block work: the classes of the grid
     * differ, the total must still be exact. */
    check_global(site(SPACE_GLOBAL, "4 * (blockIdx.x * blockDim.x + threadIdx.x)", 4, false,
                      "blockIdx.x == 0 || blockIdx.x == gridDim.x - 1", NULL, 0),
                 6, 1, 96, 1);
}

static void test_shared_wavefronts(void **state)
{
    (void)state;
    const int64_t grid[3] = {10, 1, 1}, block[3] = {64, 1, 1};
    mem_access ok = site(SPACE_SHARED, "4 * threadIdx.x", 4, false, NULL, NULL, 0);
    mem_access two = site(SPACE_SHARED, "8 * threadIdx.x", 4, true, NULL, NULL, 0);
    const mem_access *sites[2] = {&ok, &two};
    expr_env env;
    expr_env_init(&env);
    traffic t;
    traffic_compute(sites, 2, grid, block, &env, NULL, &t);
    /* 2 warps x 10 blocks per site; a stride of two words is 2-way. */
    assert_int_equal(t.requests[TRAFFIC_SHARED], 40);
    assert_int_equal(t.units[TRAFFIC_SHARED], 20 + 40);
    assert_int_equal(t.units[TRAFFIC_LOAD], 0);
    traffic_free(&t);
    site_free(&ok);
    site_free(&two);
}

/* Stores that cannot fill the sectors they touch: a column walk writes 4
 * bytes into each of 32 sectors, each alone in its line (all in part: the
 * slowest kind); a stride of two floats 16 bytes into each of 8, four to
 * a line (all in part beside others of their line: a lane steps more
 * than its 4 bytes, so every sector has a gap); a coalesced row fills its
 * 4 sectors, and a coalesced 2-byte row its 2. Where a warp spans rows of
 * a block narrower than 32, lanes that step 8 bytes in x may still fill
 * their sectors with the next row's: then only the bound of `width`
 * whole sectors a request holds, and these fill all 4. */
static void test_partial_store_sectors(void **state)
{
    (void)state;
    const int64_t grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    mem_access col = site(SPACE_GLOBAL, "4 * ((blockIdx.x * blockDim.x + threadIdx.x) * 1024)", 4,
                          true, NULL, NULL, 0);
    mem_access two =
        site(SPACE_GLOBAL, "8 * (blockIdx.x * blockDim.x + threadIdx.x)", 4, true, NULL, NULL, 0);
    mem_access row =
        site(SPACE_GLOBAL, "4 * (blockIdx.x * blockDim.x + threadIdx.x)", 4, true, NULL, NULL, 0);
    mem_access half =
        site(SPACE_GLOBAL, "2 * (blockIdx.x * blockDim.x + threadIdx.x)", 2, true, NULL, NULL, 0);
    const mem_access *sites[4] = {&col, &two, &row, &half};
    expr_env env;
    expr_env_init(&env);
    traffic t;
    traffic_compute(sites, 4, grid, block, &env, NULL, &t);
    /* 32 warps: 32 sectors a request for the column, 8 for the stride. */
    assert_int_equal(t.units[TRAFFIC_STORE], 32 * (32 + 8 + 4 + 2));
    assert_int_equal(t.partial_store_units, 32 * 32);
    assert_int_equal(t.shared_partial_store_units, 32 * 8);
    traffic_free(&t);
    const int64_t one[3] = {1, 1, 1}, rows16[3] = {16, 2, 1};
    mem_access two_rows =
        site(SPACE_GLOBAL, "8 * threadIdx.x + 4 * threadIdx.y", 4, true, NULL, NULL, 0);
    const mem_access *interleaved[1] = {&two_rows};
    traffic_compute(interleaved, 1, one, rows16, &env, NULL, &t);
    assert_int_equal(t.units[TRAFFIC_STORE], 4);
    assert_int_equal(t.partial_store_units + t.shared_partial_store_units, 0);
    traffic_free(&t);
    site_free(&two_rows);
    site_free(&col);
    site_free(&two);
    site_free(&row);
    site_free(&half);
}

/* CUB's StoreDirectBlocked of bytes: `out[4 * t + j]` for j < 4, the
 * loop's only store. Each request writes 1 byte into each of 4 sectors of
 * one line (all in part beside others), and the next iteration writes the
 * next byte of the same sectors: L1 merges them, so none counts as
 * partial. With another store in the loop, or stepping a row (1024
 * bytes) an iteration, they count: 4 a request, 128 requests. */
static void test_back_to_back_stores(void **state)
{
    (void)state;
    const int64_t grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    mem_access bytes = site(SPACE_GLOBAL, "4 * (blockIdx.x * blockDim.x + threadIdx.x) + j", 1,
                            true, NULL, "j", 4);
    mem_access other =
        site(SPACE_GLOBAL, "4 * (blockIdx.x * blockDim.x + threadIdx.x)", 4, true, NULL, "j", 4);
    other.base = (char *)"q";
    mem_access rows = site(SPACE_GLOBAL, "4 * (blockIdx.x * blockDim.x + threadIdx.x) + 1024 * j",
                           1, true, NULL, "j", 4);
    expr_env env;
    expr_env_init(&env);
    traffic t;
    const mem_access *alone[1] = {&bytes};
    traffic_compute(alone, 1, grid, block, &env, NULL, &t);
    assert_int_equal(t.units[TRAFFIC_STORE], 128 * 4);
    assert_int_equal(t.shared_partial_store_units, 0);
    traffic_free(&t);
    const mem_access *two[2] = {&bytes, &other};
    traffic_compute(two, 2, grid, block, &env, NULL, &t);
    assert_int_equal(t.shared_partial_store_units, 128 * 4);
    traffic_free(&t);
    const mem_access *apart[1] = {&rows};
    traffic_compute(apart, 1, grid, block, &env, NULL, &t);
    assert_int_equal(t.shared_partial_store_units, 128 * 4);
    traffic_free(&t);
    site_free(&bytes);
    site_free(&other);
    site_free(&rows);
}

/* CUB's StoreDirectBlocked unrolled: `out[4 * t + k]`, a byte each, each
 * item under its own valid-item guard. The four items fill each other's
 * sectors in the same warp, so none counts as partial beside others. An
 * if's two arms do not (only one runs), nor does a switch's cases; a
 * guarded store beside one that always runs is filled, not the other
 * way round. */
static void test_sibling_stores(void **state)
{
    (void)state;
    const int64_t grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    const char *t = "4 * (blockIdx.x * blockDim.x + threadIdx.x)";
    mem_access item[4];
    const mem_access *items[4];
    char off[4][96], guard[4][96];
    for (int k = 0; k < 4; k++) {
        snprintf(off[k], sizeof off[k], "%s + %d", t, k);
        snprintf(guard[k], sizeof guard[k], "%s + %d < 4096", t, k);
        item[k] = site(SPACE_GLOBAL, off[k], 1, true, guard[k], NULL, 0);
        items[k] = &item[k];
    }
    expr_env env;
    expr_env_init(&env);
    traffic tr;
    traffic_compute(items, 4, grid, block, &env, NULL, &tr);
    assert_int_equal(tr.units[TRAFFIC_STORE], 4 * 32 * 4);
    assert_int_equal(tr.shared_partial_store_units, 0);
    traffic_free(&tr);
    /* 16 warps take each arm; all 4 sectors of a request in part */
    mem_access then = site(SPACE_GLOBAL, off[0], 1, true, "threadIdx.x < 128", NULL, 0);
    mem_access other = site(SPACE_GLOBAL, off[1], 1, true, "!(threadIdx.x < 128)", NULL, 0);
    const mem_access *arms[2] = {&then, &other};
    traffic_compute(arms, 2, grid, block, &env, NULL, &tr);
    assert_int_equal(tr.shared_partial_store_units, 2 * 16 * 4);
    traffic_free(&tr);
    mem_access always = site(SPACE_GLOBAL, off[1], 1, true, NULL, NULL, 0);
    const mem_access *one_guarded[2] = {&then, &always};
    traffic_compute(one_guarded, 2, grid, block, &env, NULL, &tr);
    assert_int_equal(tr.shared_partial_store_units, 32 * 4);
    traffic_free(&tr);
    mem_access case0 = site(SPACE_GLOBAL, off[0], 1, true, NULL, NULL, 0);
    case0.in_switch = always.in_switch = true;
    const mem_access *cases[2] = {&case0, &always};
    traffic_compute(cases, 2, grid, block, &env, NULL, &tr);
    assert_int_equal(tr.shared_partial_store_units, 2 * 32 * 4);
    traffic_free(&tr);
    for (int k = 0; k < 4; k++)
        site_free(&item[k]);
    site_free(&then);
    site_free(&other);
    site_free(&always);
    site_free(&case0);
}

/* atomicReduction's v16: in[16 * i + k] for k < 16, each lane 64 bytes
 * from the next. Alone a site's request fills one sector in two of each
 * line it touches (a run of one counted as four); with its fifteen
 * siblings the warp asks for every sector of those lines in the same
 * iteration, so the run sectors are the sectors. A site of another
 * pointer at the same offsets keeps its own share. */
static void test_sibling_loads_fill_lines(void **state)
{
    (void)state;
    const int64_t grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    mem_access in[16];
    char text[16][64];
    const mem_access *sites[17];
    for (int k = 0; k < 16; k++) {
        snprintf(text[k], sizeof text[k], "4 * (16 * (blockIdx.x * blockDim.x + threadIdx.x) + %d)",
                 k);
        in[k] = site(SPACE_GLOBAL, text[k], 4, false, NULL, NULL, 0);
        in[k].base = (char *)"in";
        sites[k] = &in[k];
    }
    mem_access other = site(SPACE_GLOBAL, "4 * (16 * (blockIdx.x * blockDim.x + threadIdx.x))", 4,
                            false, NULL, NULL, 0);
    sites[16] = &other;
    expr_env env;
    expr_env_init(&env);
    traffic t;
    traffic_compute(sites, 17, grid, block, &env, NULL, &t);
    /* 32 warps, 32 sectors a request */
    assert_int_equal(t.units[TRAFFIC_LOAD], 17 * 32 * 32);
    assert_int_equal(t.run_sectors[TRAFFIC_LOAD], 16 * 32 * 32 + 4 * 32 * 32);
    traffic_free(&t);
    traffic_compute(sites + 15, 2, grid, block, &env, NULL, &t);
    assert_int_equal(t.run_sectors[TRAFFIC_LOAD], 2 * 4 * 32 * 32);
    traffic_free(&t);
    for (int k = 0; k < 16; k++)
        site_free(&in[k]);
    site_free(&other);
}

/* A float3 stored as three 4-byte pieces: each piece's request writes
 * 12 sectors in part (32 lanes x 12 bytes), and the three pieces' sectors
 * are kept apart by their count of pieces, for the L2 merge
 * (kroof's l1_store_merge); a piece-less store and a load are not. */
static void test_piece_store_sectors(void **state)
{
    (void)state;
    const int64_t grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    mem_access x =
        site(SPACE_GLOBAL, "12 * (blockIdx.x * blockDim.x + threadIdx.x)", 4, true, NULL, NULL, 0);
    mem_access y = site(SPACE_GLOBAL, "12 * (blockIdx.x * blockDim.x + threadIdx.x) + 4", 4, true,
                        NULL, NULL, 0);
    mem_access z = site(SPACE_GLOBAL, "12 * (blockIdx.x * blockDim.x + threadIdx.x) + 8", 4, true,
                        NULL, NULL, 0);
    mem_access plain =
        site(SPACE_GLOBAL, "4 * (blockIdx.x * blockDim.x + threadIdx.x)", 4, true, NULL, NULL, 0);
    mem_access load =
        site(SPACE_GLOBAL, "12 * (blockIdx.x * blockDim.x + threadIdx.x)", 4, false, NULL, NULL, 0);
    x.pieces = y.pieces = z.pieces = load.pieces = 3;
    const mem_access *sites[5] = {&x, &y, &z, &plain, &load};
    expr_env env;
    expr_env_init(&env);
    traffic t;
    traffic_compute(sites, 5, grid, block, &env, NULL, &t);
    /* 32 warps; a warp's 384 bytes are 12 sectors, whichever piece. */
    assert_int_equal(t.piece_store_units[3], 3 * 32 * 12);
    assert_int_equal(t.units[TRAFFIC_STORE], 3 * 32 * 12 + 32 * 4);
    for (int k = 0; k <= TRAFFIC_MAX_PIECES; k++)
        if (k != 3)
            assert_int_equal(t.piece_store_units[k], 0);
    traffic_free(&t);
    site_free(&x);
    site_free(&y);
    site_free(&z);
    site_free(&plain);
    site_free(&load);
}

static void test_left_out_site_is_named(void **state)
{
    (void)state;
    const int64_t grid[3] = {4, 1, 1}, block[3] = {32, 1, 1};
    mem_access good = site(SPACE_GLOBAL, "4 * threadIdx.x", 4, false, NULL, NULL, 0);
    mem_access bad = site(SPACE_GLOBAL, "4 * threadIdx.x", 4, false, NULL, NULL, 0);
    bad.why_not = (char *)"index not understood: a pointer loaded from memory";
    bad.text = (char *)"q[r[i]]";
    const mem_access *sites[2] = {&good, &bad};
    expr_env env;
    expr_env_init(&env);
    traffic t;
    traffic_compute(sites, 2, grid, block, &env, NULL, &t);
    assert_int_equal(t.n_left_out, 1);
    assert_int_equal(t.requests[TRAFFIC_LOAD], 4);
    assert_int_equal(t.units[TRAFFIC_LOAD], 16);
    assert_non_null(t.why);
    assert_non_null(strstr(t.why, "q[r[i]] (line 7)"));
    assert_non_null(strstr(t.why, "pointer loaded from memory"));
    traffic_free(&t);
    bad.why_not = NULL;
    site_free(&good);
    site_free(&bad);
}

/* A gather (index_from_data): a row per thread plus a value read per lane
 * (`in[i * 1000 + t]`, 4-byte elements), and a table indexed by a value read
 * at an address every lane shares (`w[k]`). The requests are the site's;
 * the sectors an estimate (the per-lane value stepping one element a lane:
 * 32 rows, 32 sectors a request; the shared one: 1); at least one sector a
 * request is certain. */
static void test_gather_estimated(void **state)
{
    (void)state;
    const int64_t grid[3] = {4, 1, 1}, block[3] = {64, 1, 1};
    mem_access rows = site(SPACE_GLOBAL, "4 * (threadIdx.x * 1000)", 4, false, NULL, NULL, 0);
    expr *row = rows.byte_offset;
    rows.byte_offset =
        expr_binary(OP_ADD, row, expr_binary(OP_MUL, expr_const(4), expr_unknown("value read")));
    rows.byte_offset->b->b->value = ACCESS_DATA_PER_LANE;
    rows.why_not = (char *)"index not understood: value read";
    rows.index_from_data = true;
    mem_access table = site(SPACE_GLOBAL, "0", 4, false, NULL, NULL, 0);
    expr_free(table.byte_offset);
    table.byte_offset = expr_binary(OP_MUL, expr_const(4), expr_unknown("value read at k"));
    table.byte_offset->b->value = ACCESS_DATA_UNIFORM;
    table.why_not = (char *)"index not understood: value read at k";
    table.index_from_data = true;
    const mem_access *sites[2] = {&rows, &table};
    expr_env env;
    expr_env_init(&env);
    traffic t;
    traffic_compute(sites, 2, grid, block, &env, NULL, &t);
    assert_int_equal(t.n_left_out, 0);
    assert_int_equal(t.n_estimated, 2);
    assert_int_equal(t.requests[TRAFFIC_LOAD], 2 * 8);
    assert_int_equal(t.units[TRAFFIC_LOAD], 8 * 32 + 8 * 1);
    assert_int_equal(t.certain_units[TRAFFIC_LOAD], 16);
    assert_non_null(strstr(t.why, "stepped one element from lane to lane"));
    traffic_free(&t);
    rows.why_not = table.why_not = NULL;
    site_free(&rows);
    site_free(&table);
}

/* A loop longer than the walk follows (LANES_MAX_ITER iterations) whose
 * lanes run different lengths: the requests come from the trip counts
 * (each warp runs as long as its longest lane, 20000 + 31), the sectors are
 * scaled from those walked, and what was walked stays the lower bound. */
static void test_cut_short_walk_is_scaled(void **state)
{
    (void)state;
    mem_access a = site(SPACE_GLOBAL, "4 * (k * 32 + threadIdx.x)", 4, false, NULL, "k", 0);
    expr_free(a.loops[0].cond);
    a.loops[0].cond = P("k < 20000 + threadIdx.x");
    const int64_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    expr_env env;
    expr_env_init(&env);
    traffic_site_total t;
    char why[256];
    assert_true(traffic_site(&a, block, &env, grid, &t, why, sizeof why));
    assert_int_equal(t.requests, 20031);
    assert_int_equal(t.units, 4 * 20031);
    assert_true(t.extrapolated && t.floor_is_lower);
    assert_false(t.exact || t.lower);
    assert_int_equal(t.floor_requests, LANES_MAX_ITER);
    assert_int_equal(t.floor_units, 4 * LANES_MAX_ITER);
    const mem_access *sites[1] = {&a};
    traffic tt;
    traffic_compute(sites, 1, grid, block, &env, NULL, &tt);
    assert_int_equal(tt.requests[TRAFFIC_LOAD], 20031);
    assert_int_equal(tt.certain_requests[TRAFFIC_LOAD], LANES_MAX_ITER);
    assert_int_equal(tt.n_estimated, 1);
    assert_non_null(strstr(tt.why, "too long to walk"));
    traffic_free(&tt);
    site_free(&a);
}

/* A triangular loop (each lane runs 64 - threadIdx.x iterations; a warp
 * as long as its longest lane): warp 0 makes 64 requests, warp 1 32, the
 * mean 48; the busiest warp's 64 is what a one-wave launch waits for. The
 * same past the walk's reach, from the trip counts: warp 1's lanes run
 * 20000 + 32 .. 20000 + 63 iterations, 20063 requests. */
static void test_busiest_warp(void **state)
{
    (void)state;
    const int64_t grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
    expr_env env;
    expr_env_init(&env);
    char why[256];
    mem_access a = site(SPACE_GLOBAL, "4 * (k * 64 + threadIdx.x)", 4, false, NULL, "k", 0);
    expr_free(a.loops[0].cond);
    a.loops[0].cond = P("k < 64 - threadIdx.x");
    traffic_site_total t;
    assert_true(traffic_site(&a, block, &env, grid, &t, why, sizeof why));
    assert_int_equal(t.requests, 2 * (64 + 32));
    assert_int_equal(t.busiest_warp_requests, 64);
    expr_free(a.loops[0].cond);
    a.loops[0].cond = P("k < 20000 + threadIdx.x");
    assert_true(traffic_site(&a, block, &env, grid, &t, why, sizeof why));
    assert_true(t.extrapolated);
    assert_int_equal(t.requests, 2 * (20031 + 20063));
    assert_int_equal(t.busiest_warp_requests, 20063);
    site_free(&a);
}

/* A nest whose outer loop nothing inside reads (Match1's `for (p2 = 0; p2
 * < NPTS; p2++)` around `for (d = 0; d < 128; d++) x[p1 * 128 + d]`),
 * longer than the walk follows: the requests are the two trip counts'
 * product, 10000 x 8 per warp, and the sectors, each lane 512 bytes from
 * the next (32 sectors a request), scaled to them. */
static void test_invariant_outer_loop_counted_in_full(void **state)
{
    (void)state;
    mem_access a = site(SPACE_GLOBAL, "4 * (threadIdx.x * 128 + d)", 4, false, NULL, "d", 8);
    a.n_loops = 2;
    a.loops[1] = a.loops[0];
    a.loops[0].var = (char *)"p2";
    a.loops[0].init = P("0");
    a.loops[0].cond = P("p2 < 10000");
    a.loops[0].next = P("p2 + 1");
    const int64_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    expr_env env;
    expr_env_init(&env);
    traffic_site_total t;
    char why[256];
    assert_true(traffic_site(&a, block, &env, grid, &t, why, sizeof why));
    assert_int_equal(t.requests, 2 * 10000 * 8);
    assert_int_equal(t.units, 32 * 2 * 10000 * 8);
    assert_true(t.extrapolated && t.floor_is_lower);
    assert_true(t.floor_requests < t.requests);
    site_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounds_check_edge_block),
        cmocka_unit_test(test_2d_block_row_major),
        cmocka_unit_test(test_strided_store),
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_guard_on_block_index),
        cmocka_unit_test(test_shared_wavefronts),
        cmocka_unit_test(test_back_to_back_stores),
        cmocka_unit_test(test_sibling_stores),
        cmocka_unit_test(test_partial_store_sectors),
        cmocka_unit_test(test_piece_store_sectors),
        cmocka_unit_test(test_sibling_loads_fill_lines),
        cmocka_unit_test(test_left_out_site_is_named),
        cmocka_unit_test(test_gather_estimated),
        cmocka_unit_test(test_cut_short_walk_is_scaled),
        cmocka_unit_test(test_busiest_warp),
        cmocka_unit_test(test_invariant_outer_loop_counted_in_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
