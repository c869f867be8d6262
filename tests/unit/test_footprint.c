/* test_footprint: the bytes a launch touches, against a brute force that
 * runs every thread through its loops and marks every byte each access
 * reaches: bounds checks, a 2-D tile, a stencil's overlapping sites, a
 * grid-stride loop, gaps and overlaps of strided accesses, a loop counting
 * down, and the sites that must be left out (a division, a loop that can
 * break, a condition on two indices at once, a triangular loop, a guard on
 * a value read from memory) with the
 * figure kept a lower bound and the reason given. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/memory/footprint.h"
#include "analysis/symbolic/cexpr.h"

static expr *P(const char *s)
{
    cexpr_error err;
    expr *e = cexpr_parse(s, true, &err);
    assert_non_null(e);
    return e;
}

typedef struct lp {
    const char *var, *init, *cond, *next;
    bool leaves_early;
} lp;

static mem_access site(const char *base, const char *off, int width, bool store, const char *guard,
                       int n_loops, const lp *loops)
{
    mem_access a;
    memset(&a, 0, sizeof a);
    a.space = SPACE_GLOBAL;
    a.base = (char *)base;
    a.text = (char *)off;
    a.width = width;
    a.is_store = store;
    a.byte_offset = P(off);
    a.guard = guard ? P(guard) : NULL;
    a.n_loops = n_loops;
    for (int i = 0; i < n_loops; i++) {
        a.loops[i].var = (char *)loops[i].var;
        a.loops[i].init = P(loops[i].init);
        a.loops[i].cond = P(loops[i].cond);
        a.loops[i].next = P(loops[i].next);
        a.loops[i].leaves_early = loops[i].leaves_early;
    }
    a.loc.line = 1;
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

/* ---- the brute force: every thread, every iteration, every byte ---- */

#define SPAN (1 << 16)
#define ORIGIN 4096 /* byte offsets from -ORIGIN */

static void mark(const mem_access *a, expr_env *env, int depth, unsigned char *bytes)
{
    if (depth == a->n_loops) {
        int64_t g = 1, off;
        if (a->guard)
            assert_int_equal(expr_eval(a->guard, env, &g, NULL), EXPR_OK);
        if (!g)
            return;
        assert_int_equal(expr_eval(a->byte_offset, env, &off, NULL), EXPR_OK);
        for (int b = 0; b < a->width; b++) {
            assert_true(off + b + ORIGIN >= 0 && off + b + ORIGIN < SPAN);
            bytes[off + b + ORIGIN] = 1;
        }
        return;
    }
    const loop_ctx *l = &a->loops[depth];
    int64_t v, c, trips = 0;
    assert_int_equal(expr_eval(l->init, env, &v, NULL), EXPR_OK);
    for (;;) {
        expr_env_set(env, l->var, v);
        assert_int_equal(expr_eval(l->cond, env, &c, NULL), EXPR_OK);
        if (!c)
            break;
        mark(a, env, depth + 1, bytes);
        assert_int_equal(expr_eval(l->next, env, &v, NULL), EXPR_OK);
        assert_true(++trips < 100000);
    }
    expr_env_unset(env, l->var);
}

/* what: 0 bytes read and never written, 1 written, -1 either, 2 the fewest
 * 32-byte windows covering what 0 counts, 3 the 64-byte blocks of the
 * array (ORIGIN is a multiple of 64: byte 0 starts one) holding a byte
 * read, written or not, 4
 * the 32-byte sectors of the array holding written bytes, 5 those written
 * in part with no byte read, 6 the 128-byte lines holding them. */
static int64_t brute(const mem_access *sites, int n, const int64_t g[3], const int64_t b[3],
                     int what)
{
    unsigned char *bytes[2] = {calloc(SPAN, 1), calloc(SPAN, 1)}; /* read, written */
    expr_env env;
    expr_env_init(&env);
    for (int d = 0; d < 3; d++) {
        expr_env_set_builtin(&env, (expr_builtin)(SYM_BDIM_X + d), b[d]);
        expr_env_set_builtin(&env, (expr_builtin)(SYM_GDIM_X + d), g[d]);
    }
    for (int i = 0; i < n; i++) {
        for (int64_t p = 0; p < g[0] * g[1] * g[2] * b[0] * b[1] * b[2]; p++) {
            int64_t r = p;
            int64_t v[6];
            for (int d = 0; d < 3; d++) {
                v[d] = r % b[d];
                r /= b[d];
            }
            for (int d = 0; d < 3; d++) {
                v[3 + d] = r % g[d];
                r /= g[d];
            }
            for (int d = 0; d < 3; d++) {
                expr_env_set_builtin(&env, (expr_builtin)(SYM_TID_X + d), v[d]);
                expr_env_set_builtin(&env, (expr_builtin)(SYM_BID_X + d), v[3 + d]);
            }
            mark(&sites[i], &env, 0, bytes[sites[i].is_store]);
        }
    }
    int64_t count = 0, next = -1;
    if (what == 5 || what == 6) { /* sectors written in part, none of it read; their lines */
        int64_t last_line = -1;
        for (int sec = 0; sec < SPAN / 32; sec++) {
            int written = 0, read = 0;
            for (int k = 0; k < 32; k++) {
                written += bytes[1][32 * sec + k];
                read += bytes[0][32 * sec + k];
            }
            if (written == 0 || written == 32 || read)
                continue;
            count += what == 5 || sec / 4 != last_line;
            last_line = sec / 4;
        }
        free(bytes[0]);
        free(bytes[1]);
        return count;
    }
    for (int i = 0; i < SPAN; i++) {
        bool in = what == 0 || what == 2   ? bytes[0][i] && !bytes[1][i]
                  : what == 3              ? bytes[0][i]
                  : what == 1 || what == 4 ? bytes[1][i]
                                           : bytes[0][i] || bytes[1][i];
        if (what == 2 && in && i >= next) { /* 32-byte windows of the unwritten reads */
            count++;
            next = i + 32;
        } else if (what == 3 && in && i / 64 >= next) {
            count++;
            next = i / 64 + 1;
        } else if (what == 4 && in && i / 32 >= next) {
            count++;
            next = i / 32 + 1;
        } else if (what < 2) {
            count += in;
        }
    }
    free(bytes[0]);
    free(bytes[1]);
    return count;
}

/* footprint_compute over one array must equal the brute force, reads,
 * writes and both. Bytes read and also written count as written only: the
 * write may come first. */
static void check_exact(mem_access *sites, int n, const int64_t g[3], const int64_t b[3])
{
    footprint_site fs[16];
    assert_true(n <= 16);
    for (int i = 0; i < n; i++)
        fs[i] = (footprint_site){&sites[i], "a"};
    footprint f;
    footprint_compute(fs, (size_t)n, g, b, NULL, &f);
    /* Every site followed; reads overlapping writes not read first are
     * labelled (and count as not read, as the brute force counts them). */
    if (f.why && !strstr(f.why, "count as not read"))
        fail_msg("left out: %s", f.why);
    assert_int_equal(f.n_left_out, 0);
    assert_int_equal(f.n_partial, 0);
    assert_int_equal(f.n_arrays, 1);
    assert_int_equal(f.read_bytes, brute(sites, n, g, b, 0));
    assert_int_equal(f.write_bytes, brute(sites, n, g, b, 1));
    assert_int_equal(f.write_sectors, brute(sites, n, g, b, 4));
    assert_int_equal(f.partial_write_sectors, brute(sites, n, g, b, 5));
    assert_int_equal(f.partial_write_lines, brute(sites, n, g, b, 6));
    assert_int_equal(f.bytes, brute(sites, n, g, b, -1));
    if (!f.why) /* with every store read first the reads include the writes */
        assert_int_equal(f.read_sectors, brute(sites, n, g, b, 2));
    assert_int_equal(f.read_blocks64, brute(sites, n, g, b, 3));
    assert_true(f.bytes > 0);
    footprint_free(&f);
    for (int i = 0; i < n; i++)
        site_free(&sites[i]);
}

static void test_bounds_check(void **state)
{
    (void)state;
    const int64_t g[3] = {5, 1, 1}, b[3] = {256, 1, 1};
    mem_access s[2] = {
        site("a", "4 * (blockIdx.x * blockDim.x + threadIdx.x)", 4, false,
             "blockIdx.x * blockDim.x + threadIdx.x < 1000", 0, NULL),
        site("a", "4 * (blockIdx.x * blockDim.x + threadIdx.x)", 4, true,
             "!(blockIdx.x * blockDim.x + threadIdx.x >= 1000)", 0, NULL),
    };
    check_exact(s, 2, g, b);
}

static void test_gemm_rows(void **state)
{
    (void)state;
    /* A[row * K + k] over k < K, row < M && col < N; 16 x 16 blocks. */
    const int64_t g[3] = {2, 3, 1}, b[3] = {16, 16, 1};
    lp k = {"k", "0", "k < 20", "k + 1", false};
    mem_access s[1] = {
        site("a", "4 * ((blockIdx.y * 16 + threadIdx.y) * 20 + k)", 4, false,
             "blockIdx.y * 16 + threadIdx.y < 40 && blockIdx.x * 16 + threadIdx.x < 24", 1, &k)};
    check_exact(s, 1, g, b);
}

/* One block's footprint: its 16 rows of A (20 floats each), each byte
 * once however many of the block's columns read it; the grid's last row of
 * blocks has only the 8 rows its guard lets through. */
static void test_one_block(void **state)
{
    (void)state;
    const int64_t g[3] = {2, 3, 1}, b[3] = {16, 16, 1};
    lp k = {"k", "0", "k < 20", "k + 1", false};
    mem_access s =
        site("a", "4 * ((blockIdx.y * 16 + threadIdx.y) * 20 + k)", 4, false,
             "blockIdx.y * 16 + threadIdx.y < 40 && blockIdx.x * 16 + threadIdx.x < 24", 1, &k);
    footprint_site fs = {&s, "a"};
    const int64_t mid[3] = {1, 1, 0}, last[3] = {1, 2, 0};
    footprint f;
    footprint_of_block(&fs, 1, g, b, NULL, mid, false, &f);
    assert_null(f.why);
    assert_int_equal(f.read_bytes, 16 * 20 * 4);
    assert_int_equal(f.read_sectors, 16 * 20 * 4 / 32);
    footprint_free(&f);
    footprint_of_block(&fs, 1, g, b, NULL, last, false, &f);
    assert_int_equal(f.read_bytes, 8 * 20 * 4);
    assert_int_equal(f.read_sectors, 8 * 20 * 4 / 32);
    footprint_free(&f);
    site_free(&s);
}

/* One warp's footprint: the first row of 32 threads of a 32 x 8 block
 * whose rows all read the same columns (atax_kernel2's A[i * NY + j] with j
 * from threadIdx.x alone) covers what the whole block covers; a warp of a
 * 16-wide block is not a row of it, and is refused. */
static void test_one_warp(void **state)
{
    (void)state;
    const int64_t g[3] = {4, 1, 1}, b[3] = {32, 8, 1};
    lp i = {"i", "0", "i < 64", "i + 1", false};
    mem_access s =
        site("a", "4 * (i * 128 + blockIdx.x * blockDim.x + threadIdx.x)", 4, false, NULL, 1, &i);
    footprint_site fs = {&s, "a"};
    const int64_t mid[3] = {2, 0, 0};
    footprint f;
    assert_true(footprint_of_warp(&fs, 1, g, b, NULL, mid, 0, false, &f));
    assert_null(f.why);
    assert_int_equal(f.read_bytes, 64 * 32 * 4);
    assert_int_equal(f.read_sectors, 64 * 4);
    footprint_free(&f);
    footprint_of_block(&fs, 1, g, b, NULL, mid, false, &f);
    assert_int_equal(f.read_sectors, 64 * 4);
    footprint_free(&f);
    /* threadIdx.y in the index: the warp covers an eighth of the block. */
    site_free(&s);
    s = site("a", "4 * ((i * 8 + threadIdx.y) * 128 + blockIdx.x * blockDim.x + threadIdx.x)", 4,
             false, NULL, 1, &i);
    fs.access = &s;
    assert_true(footprint_of_warp(&fs, 1, g, b, NULL, mid, 0, false, &f));
    assert_int_equal(f.read_sectors, 64 * 4);
    footprint_free(&f);
    footprint_of_block(&fs, 1, g, b, NULL, mid, false, &f);
    assert_int_equal(f.read_sectors, 8 * 64 * 4);
    footprint_free(&f);
    /* The block's last warp (row 7): its own row of the tile. */
    assert_true(footprint_of_warp(&fs, 1, g, b, NULL, mid, 7, false, &f));
    assert_int_equal(f.read_sectors, 64 * 4);
    footprint_free(&f);
    const int64_t narrow[3] = {16, 16, 1};
    assert_false(footprint_of_warp(&fs, 1, g, narrow, NULL, mid, 0, false, &f));
    assert_int_equal(f.n_arrays, 0);
    assert_false(footprint_of_warp(&fs, 1, g, b, NULL, mid, 8, false, &f));
    site_free(&s);
}

/* A warp other than the first, where a condition on the thread index
 * keeps the first out: threads 256-511 of a 512-thread block walk
 * x[threadIdx.x - 256 + 256 * k] for k below 4 (a block-stride loop of
 * the threads past a fill group). Warp 0 asks for nothing; warp 8 for
 * the 4 sectors of each of its 4 iterations; warp 9 for the next 32
 * floats of each. */
static void test_later_warp(void **state)
{
    (void)state;
    const int64_t g[3] = {1, 1, 1}, b[3] = {512, 1, 1}, mid[3] = {0, 0, 0};
    lp i = {"i", "threadIdx.x - 256", "i < 1024", "i + 256", false};
    mem_access s = site("x", "4 * i", 4, false, "threadIdx.x >= 256", 1, &i);
    footprint_site fs = {&s, "x"};
    footprint f;
    assert_true(footprint_of_warp(&fs, 1, g, b, NULL, mid, 0, false, &f));
    assert_int_equal(f.read_sectors, 0);
    footprint_free(&f);
    assert_true(footprint_of_warp(&fs, 1, g, b, NULL, mid, 8, false, &f));
    assert_int_equal(f.read_bytes, 4 * 32 * 4);
    assert_int_equal(f.read_sectors, 4 * 4);
    footprint_free(&f);
    assert_true(footprint_of_warp(&fs, 1, g, b, NULL, mid, 9, false, &f));
    assert_int_equal(f.read_sectors, 4 * 4);
    footprint_free(&f);
    /* The 16 warps together: 8 of them, 16 sectors each, all distinct. */
    int64_t sum = 0;
    for (int w = 0; w < 16; w++) {
        assert_true(footprint_of_warp(&fs, 1, g, b, NULL, mid, w, false, &f));
        sum += f.read_sectors;
        footprint_free(&f);
    }
    assert_int_equal(sum, 8 * 16);
    footprint_of_block(&fs, 1, g, b, NULL, mid, false, &f);
    assert_int_equal(f.read_sectors, 1024 * 4 / 32);
    footprint_free(&f);
    site_free(&s);
}

static void test_stencil_overlap(void **state)
{
    (void)state;
    const int64_t g[3] = {4, 1, 1}, b[3] = {64, 1, 1};
    const char *guard = "blockIdx.x * 64 + threadIdx.x > 0 && blockIdx.x * 64 + threadIdx.x < 199";
    mem_access s[4] = {
        site("a", "8 * (blockIdx.x * 64 + threadIdx.x - 1)", 8, false, guard, 0, NULL),
        site("a", "8 * (blockIdx.x * 64 + threadIdx.x)", 8, false, guard, 0, NULL),
        site("a", "8 * (blockIdx.x * 64 + threadIdx.x + 1)", 8, false, guard, 0, NULL),
        site("a", "8 * (blockIdx.x * 64 + threadIdx.x) + 1024", 8, true, guard, 0, NULL),
    };
    check_exact(s, 4, g, b);
}

/* Two neighbouring blocks together count the halo they share once: a
 * three-point stencil's blocks 1 and 2 of 64 read elements 63 to 192
 * (130 of 8 bytes), 2 more than either alone; along y, a column
 * stencil's neighbouring rows of blocks share two rows of 64 (gridDim
 * keeps its value while the blocks walked are two). */
static void test_neighbour_blocks(void **state)
{
    (void)state;
    const int64_t g[3] = {4, 3, 1}, b[3] = {64, 1, 1};
    mem_access s[2] = {
        site("a", "8 * (blockIdx.x * 64 + threadIdx.x - 1)", 8, false,
             "blockIdx.x * 64 + threadIdx.x > 0", 0, NULL),
        site("a", "8 * (blockIdx.x * 64 + threadIdx.x + 1)", 8, false, NULL, 0, NULL),
    };
    footprint_site fs[2] = {{&s[0], "a"}, {&s[1], "a"}};
    const int64_t first[3] = {1, 0, 0}, pair_x[3] = {2, 1, 1};
    footprint one, two;
    footprint_of_block(fs, 2, g, b, NULL, first, false, &one);
    footprint_of_blocks(fs, 2, g, b, NULL, first, pair_x, &two);
    assert_null(two.why);
    assert_int_equal(one.read_bytes, 66 * 8);
    assert_int_equal(two.read_bytes, 130 * 8);
    footprint_free(&one);
    footprint_free(&two);
    site_free(&s[0]);
    site_free(&s[1]);
    /* rows r - 1 and r + 1 of a 3 x 64 block grid of columns */
    mem_access c[2] = {
        site("a", "4 * ((blockIdx.y + 1) * gridDim.x * 64 + blockIdx.x * 64 + threadIdx.x)", 4,
             false, NULL, 0, NULL),
        site("a", "4 * ((blockIdx.y + 3) * gridDim.x * 64 + blockIdx.x * 64 + threadIdx.x)", 4,
             false, NULL, 0, NULL),
    };
    footprint_site fc[2] = {{&c[0], "a"}, {&c[1], "a"}};
    const int64_t row0[3] = {1, 0, 0}, pair_y[3] = {1, 2, 1};
    footprint_of_blocks(fc, 2, g, b, NULL, row0, pair_y, &two);
    assert_null(two.why);
    assert_int_equal(two.read_bytes, 4 * 64 * 4); /* rows 1, 2, 3, 4 */
    footprint_free(&two);
    site_free(&c[0]);
    site_free(&c[1]);
}

static void test_grid_stride(void **state)
{
    (void)state;
    const int64_t g[3] = {3, 1, 1}, b[3] = {32, 1, 1};
    lp i = {"i", "blockIdx.x * blockDim.x + threadIdx.x", "i < 1000", "i + blockDim.x * gridDim.x",
            false};
    mem_access s[1] = {site("a", "4 * i", 4, false, NULL, 1, &i)};
    check_exact(s, 1, g, b);
}

/* A struct of nine floats copied field by field from an array of 2^26
 * elements (HeCBench black-scholes' options): the fields' images join into
 * one contiguous run per element, drawn in sectors although the array
 * spans more than 2^28 floats; with a field missing they do not, and the
 * footprint says it is a lower bound. */
static void test_wide_struct(void **state)
{
    (void)state;
    const int64_t g[3] = {(int64_t)1 << 18, 1, 1}, b[3] = {256, 1, 1};
    for (int fields = 9; fields >= 8; fields--) {
        mem_access s[9];
        footprint_site fs[9];
        char off[9][80];
        for (int k = 0; k < fields; k++) {
            snprintf(off[k], sizeof off[k], "36 * (blockIdx.x * 256 + threadIdx.x) + %d", 4 * k);
            s[k] = site("a", off[k], 4, false, NULL, 0, NULL);
            fs[k] = (footprint_site){&s[k], "a"};
        }
        footprint f;
        footprint_compute(fs, (size_t)fields, g, b, NULL, &f);
        if (fields == 9) {
            assert_int_equal(f.n_left_out, 0);
            assert_int_equal(f.read_bytes, (int64_t)36 << 26);
            assert_int_equal(f.read_sectors, ((int64_t)36 << 26) / 32);
            assert_null(f.why);
        } else {
            assert_true(f.why && strstr(f.why, "more than 2^28"));
        }
        footprint_free(&f);
        for (int k = 0; k < fields; k++)
            site_free(&s[k]);
    }
}

/* A tile loop whose last tile is cut short by a count of valid items
 * (`valid = min(n - i, TILE)`, CUB's BlockLoad with valid_items): a bound
 * through min or max is split into the comparisons it stands for, on
 * either side (the last two: a bound of one index, where the split gives
 * alternatives). n = 1000 leaves the last of 4 tiles of 256 partial. */
static void test_min_max_bounds(void **state)
{
    (void)state;
    const int64_t g[3] = {3, 1, 1}, b[3] = {64, 1, 1};
    lp i = {"i", "blockIdx.x * 256", "i < 1000", "i + gridDim.x * 256", false};
    const char *guards[] = {
        "threadIdx.x * 4 < min(1000 - i, 256)",
        "!(threadIdx.x * 4 >= min(1000 - i, 256))",
        "min(1000 - i, 256) > threadIdx.x * 4 + 2",
        "max(threadIdx.x * 4, 200) < 232",
        "min(threadIdx.x, 10) < 5 || threadIdx.x > max(59, 3)",
    };
    for (size_t c = 0; c < sizeof guards / sizeof guards[0]; c++) {
        mem_access s[1] = {site("a", "4 * (i + threadIdx.x * 4)", 4, false, guards[c], 1, &i)};
        check_exact(s, 1, g, b);
    }
}

/* A clamped index in the address itself: `x[min(n - 1, i + 4)]` (a
 * window's last element repeated), a stencil's edge rows `max(r - 1, 0)`
 * and `min(r + 1, rows - 1)`, and a clamp to both ends as a helper's
 * if/else chain gives it (`x > hi ? hi : x < lo ? lo : x`). Each is two
 * or three sites under the comparison's sides: exact. */
static void test_clamped_index(void **state)
{
    (void)state;
    const int64_t g[3] = {3, 5, 1}, b[3] = {64, 1, 1};
    const char *offs[] = {
        "4 * min(180, blockIdx.x * 64 + threadIdx.x + 4)",
        "4 * (max(blockIdx.y - 1, 0) * 192 + blockIdx.x * 64 + threadIdx.x)",
        "4 * (min(blockIdx.y + 1, 4) * 192 + blockIdx.x * 64 + threadIdx.x)",
        ("8 * (blockIdx.x * 64 + threadIdx.x - 7 > 150 ? 150 : "
         "blockIdx.x * 64 + threadIdx.x - 7 < 0 ? 0 : blockIdx.x * 64 + threadIdx.x - 7)"),
        "4 * max(min(blockIdx.x * 64 + threadIdx.x, 100), 20)",
    };
    for (size_t c = 0; c < sizeof offs / sizeof offs[0]; c++) {
        mem_access s[2] = {
            site("a", offs[c], 4, false, NULL, 0, NULL),
            site("a", "4 * (blockIdx.y * 192 + blockIdx.x * 64 + threadIdx.x) + 8192", 4, true,
                 NULL, 0, NULL),
        };
        check_exact(s, 2, g, b);
    }
}

/* What DRAM reads for a gather: a load every 64 bytes or more takes a
 * 64-byte block each, one every 32 bytes a block per two (dramprobe.cu
 * measured 64 and 32 bytes a load on an H100); a contiguous range 12 bytes
 * off the array start spans one block more than its length. */
static void test_blocks64(void **state)
{
    (void)state;
    const int64_t g[3] = {4, 1, 1}, b[3] = {64, 1, 1};
    static const struct {
        const char *off;
        int64_t sectors, blocks;
    } cases[] = {
        {"128 * (blockIdx.x * blockDim.x + threadIdx.x)", 256, 256},
        {"64 * (blockIdx.x * blockDim.x + threadIdx.x)", 256, 256},
        {"32 * (blockIdx.x * blockDim.x + threadIdx.x)", 256, 128},
        {"4 * (blockIdx.x * blockDim.x + threadIdx.x) + 12", 32, 17},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        mem_access s = site("a", cases[i].off, 4, false, NULL, 0, NULL);
        footprint_site fs = {&s, "a"};
        footprint f;
        footprint_compute(&fs, 1, g, b, NULL, &f);
        assert_null(f.why);
        assert_int_equal(f.read_sectors, cases[i].sectors);
        assert_int_equal(f.read_blocks64, cases[i].blocks);
        assert_int_equal(f.read_blocks64, brute(&s, 1, g, b, 3));
        footprint_free(&f);
        site_free(&s);
    }
}

static void test_gaps_and_overlaps(void **state)
{
    (void)state;
    const int64_t g[3] = {2, 1, 1}, b[3] = {8, 1, 1};
    lp j = {"j", "0", "j < 10", "j + 1", false};
    lp d = {"d", "9", "d >= 0", "d - 1", false};
    mem_access s[3] = {
        /* Every other float: gaps. */
        site("a", "8 * (blockIdx.x * 8 + threadIdx.x)", 4, false, NULL, 0, NULL),
        /* Windows of 8 lanes stepping 5: overlapping, not a mixed radix. */
        site("a", "4 * (threadIdx.x + 5 * j) + 1000", 4, false, NULL, 1, &j),
        /* A loop counting down, 12-byte stride, 8-byte elements. */
        site("a", "12 * d + 3000", 8, true, "threadIdx.x == 3", 1, &d),
    };
    check_exact(s, 3, g, b);
}

static void test_left_out(void **state)
{
    (void)state;
    const int64_t g[3] = {2, 1, 1}, b[3] = {32, 1, 1};
    lp brk = {"k", "0", "k < 8", "k + 1", true};
    const struct {
        const char *off, *guard;
        const lp *loop;
        const char *why;
    } cases[] = {
        {"4 * (threadIdx.x * threadIdx.x)", NULL, NULL, "not a sum of multiples"},
        {"4 * ((threadIdx.x + 1) / 2)", NULL, NULL, "does not cut an index"},
        {"4 * ((threadIdx.x - 5) % 8)", NULL, NULL, "may be negative"},
        /* the digits overlap: threadIdx.x reaches past 2 */
        {"4 * ((threadIdx.x + 2 * blockIdx.x) / 4)", NULL, NULL, "mixes two indices"},
        {"4 * k", NULL, &brk, "break or return"},
        {"4 * n", NULL, NULL, "not known here"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        mem_access s[2] = {
            site("a", cases[c].off, 4, false, cases[c].guard, cases[c].loop ? 1 : 0, cases[c].loop),
            site("b", "4 * threadIdx.x", 4, false, NULL, 0, NULL),
        };
        footprint_site fs[2] = {{&s[0], "a"}, {&s[1], "b"}};
        footprint f;
        footprint_compute(fs, 2, g, b, NULL, &f);
        assert_int_equal(f.n_sites, 2);
        if (f.n_left_out != 1)
            fail_msg("case %zu: followed", c);
        assert_non_null(f.why);
        if (!strstr(f.why, cases[c].why))
            fail_msg("case %zu: '%s' lacks '%s'", c, f.why, cases[c].why);
        /* What was followed still counts: b's 128 bytes, a's none. */
        assert_int_equal(f.read_bytes, 128);
        assert_int_equal(f.n_arrays, 2);
        footprint_free(&f);
        site_free(&s[0]);
        site_free(&s[1]);
    }
}

/* A condition on two indices at once (a triangle, k <= j): the footprint
 * follows it in bands, the rows that hold over a whole band (a subset,
 * labelled), and footprint_cover the rows that hold anywhere in a band (a
 * superset); both against the brute force, and on the 64 x 64 triangles
 * within 5% of it. Where each index's own bound leaves one row (tid < bid
 * with bid < 2) both are exact. */
static void test_cover(void **state)
{
    (void)state;
    lp tri = {"j", "threadIdx.x", "j < 32", "j + 1", false};
    const struct {
        int64_t g, b;
        const char *off, *guard;
        const lp *loop;
        bool close;
    } cases[] = {
        {2, 32, "4 * threadIdx.x", "threadIdx.x < blockIdx.x", NULL, false},
        {2, 32, "4 * j", NULL, &tri, false},
        {2, 32, "4 * threadIdx.x", "threadIdx.x + blockIdx.x < 20", NULL, false},
        {64, 64, "4 * (blockIdx.x * 64 + threadIdx.x)", "threadIdx.x <= blockIdx.x", NULL, true},
        /* the mask kernels' form: one index cut into row and column */
        {16, 256, "4 * (blockIdx.x * 256 + threadIdx.x)",
         "(blockIdx.x * 256 + threadIdx.x) % 64 > (blockIdx.x * 256 + threadIdx.x) / 64", NULL,
         true},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const int64_t g[3] = {cases[c].g, 1, 1}, b[3] = {cases[c].b, 1, 1};
        mem_access s[2] = {
            site("a", cases[c].off, 4, false, cases[c].guard, cases[c].loop ? 1 : 0, cases[c].loop),
            site("b", "4 * threadIdx.x", 4, true, NULL, 0, NULL),
        };
        int64_t exact = brute(s, 1, g, b, 0);
        footprint_site fs[2] = {{&s[0], "a"}, {&s[1], "b"}};
        footprint lower, cover;
        footprint_compute(fs, 2, g, b, NULL, &lower);
        footprint_cover(fs, 2, g, b, NULL, &cover);
        assert_int_equal(lower.n_left_out, 0);
        assert_int_equal(cover.n_left_out, 0);
        if (lower.n_partial) {
            assert_non_null(strstr(lower.why, "bands"));
            assert_int_equal(cover.n_covered, 1);
            assert_non_null(strstr(cover.covered, "two indices at once"));
        } else {
            assert_int_equal(lower.read_bytes, exact);
            assert_int_equal(cover.read_bytes, exact);
        }
        if (lower.read_bytes > exact || cover.read_bytes < exact)
            fail_msg("case %zu: %lld <= %lld <= %lld fails", c, (long long)lower.read_bytes,
                     (long long)exact, (long long)cover.read_bytes);
        if (cases[c].close &&
            (20 * lower.read_bytes < 19 * exact || 20 * cover.read_bytes > 21 * exact))
            fail_msg("case %zu: %lld, %lld for %lld", c, (long long)lower.read_bytes,
                     (long long)cover.read_bytes, (long long)exact);
        assert_int_equal(lower.write_bytes, cover.write_bytes);
        footprint_free(&lower);
        footprint_free(&cover);
        site_free(&s[0]);
        site_free(&s[1]);
    }
}

/* A guard comparing a value read from memory (`blockIdx.x < len[0]`)
 * leaves the site out of the footprint, with that reason; the cover takes
 * an order comparison as passing (every block's row), never an equality,
 * the anti-DCE idiom (`if (v == -1.2345f)`), which stays left out. */
static void test_cover_memory_guard(void **state)
{
    (void)state;
    const int64_t g[3] = {4, 1, 1}, b[3] = {32, 1, 1};
    /* An order comparison and an equality with an integer (a mask's
     * test, `mask[i] == 0`) are taken as passing; an equality with what
     * is not an integer (the anti-DCE `v == -1.2345f`) is not. */
    const expr_op ops[3] = {OP_LT, OP_EQ, OP_EQ};
    for (int c = 0; c < 3; c++) {
        mem_access s = site("a", "128 * blockIdx.x + 4 * threadIdx.x", 4, false, NULL, 0, NULL);
        s.guard = expr_binary(ops[c], c == 2 ? expr_const(0) : P("blockIdx.x"),
                              expr_unknown("value read from memory ('len[0]')"));
        footprint_site fs = {&s, "a"};
        footprint f;
        footprint_compute(&fs, 1, g, b, NULL, &f);
        assert_int_equal(f.n_left_out, 1);
        assert_non_null(f.why);
        assert_non_null(strstr(f.why, "compares a value read from memory"));
        footprint_free(&f);
        footprint_cover(&fs, 1, g, b, NULL, &f);
        assert_int_equal(f.n_left_out, c == 1 ? 1 : 0);
        assert_int_equal(f.read_bytes, c == 1 ? 0 : 4 * 128);
        footprint_free(&f);
        site_free(&s);
    }
}

/* A guard on a size with no value (`if (s1 == 0)`, s1 a method's result
 * nothing binds; `else` its negation): the footprint leaves the site out,
 * saying so, and the cover takes the check as passing, as the counts do;
 * a loop counter in the same guard is still cut. */
static void test_cover_unbound_guard(void **state)
{
    (void)state;
    const int64_t g[3] = {4, 1, 1}, b[3] = {32, 1, 1};
    lp half = {"k", "0", "k < 2", "k + 1", false};
    const char *guards[] = {"s1 == 0", "!(s1 == 0)", "s1 < 2 * threadIdx.x && k < 1"};
    for (int c = 0; c < 3; c++) {
        mem_access s = site("a", "256 * blockIdx.x + 4 * threadIdx.x + 128 * k", 4, false,
                            guards[c], 1, &half);
        footprint_site fs = {&s, "a"};
        footprint f;
        footprint_compute(&fs, 1, g, b, NULL, &f);
        assert_int_equal(f.n_left_out, 1);
        assert_non_null(f.why);
        assert_non_null(strstr(f.why, "a size with no value"));
        footprint_free(&f);
        footprint_cover(&fs, 1, g, b, NULL, &f);
        assert_int_equal(f.n_left_out, 0);
        assert_int_equal(f.read_bytes, c == 2 ? 4 * 128 : 4 * 256);
        footprint_free(&f);
        site_free(&s);
    }
}

/* An array of more than 2^28 of its elements (2^29 floats) is drawn in
 * 32-byte sectors: a row per block, contiguous or every other row, counted
 * whole; rows at a stride that is not a multiple of 32 bytes cannot be,
 * and the array keeps the old rule, its widest single image that fits (here
 * none: 0 B, a lower bound, said so). */
static void test_wide_array(void **state)
{
    (void)state;
    const int64_t g[3] = {8192, 1, 1}, b[3] = {256, 1, 1};
    lp k = {"k", "0", "k < 256", "k + 1", false};
    const struct {
        const char *off;
        int64_t bytes, sectors;
        bool wide;
    } cases[] = {
        {"4 * (blockIdx.x * 65536 + k * 256 + threadIdx.x)", (int64_t)1 << 31, (int64_t)1 << 26,
         false},
        {"4 * (blockIdx.x * 131072 + k * 256 + threadIdx.x)", (int64_t)1 << 31, (int64_t)1 << 26,
         false},
        {"4 * (blockIdx.x * 65537 + k * 256 + threadIdx.x)", 0, 0, true},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        mem_access s = site("a", cases[c].off, 4, false, NULL, 1, &k);
        footprint_site fs = {&s, "a"};
        footprint f;
        footprint_compute(&fs, 1, g, b, NULL, &f);
        assert_int_equal(f.n_left_out, 0);
        assert_int_equal(f.read_bytes, cases[c].bytes);
        assert_int_equal(f.read_sectors, cases[c].sectors);
        assert_true(cases[c].wide ? f.why && strstr(f.why, "more than 2^28") : !f.why);
        footprint_free(&f);
        site_free(&s);
    }
}

/* Beside the rows of such an array, one element a block at a stride that
 * is not a multiple of 32 bytes (a softmax's label read, `row[t]`) cannot
 * be drawn in sectors: it alone is left out, the rows still counted in
 * full (before, the whole array fell back to its widest image, 0 B). */
static void test_wide_array_odd_site(void **state)
{
    (void)state;
    const int64_t g[3] = {8192, 1, 1}, b[3] = {256, 1, 1};
    lp k = {"k", "0", "k < 256", "k + 1", false};
    mem_access rows =
        site("a", "4 * (blockIdx.x * 65536 + k * 256 + threadIdx.x)", 4, false, NULL, 1, &k);
    mem_access one = site("a", "4 * (blockIdx.x * 65537)", 4, false, "threadIdx.x == 0", 0, NULL);
    footprint_site fs[2] = {{&rows, "a"}, {&one, "a"}};
    footprint f;
    footprint_compute(fs, 2, g, b, NULL, &f);
    assert_int_equal(f.n_left_out, 1);
    assert_int_equal(f.read_sectors, (int64_t)1 << 26);
    assert_true(f.why && strstr(f.why, "not whole sectors left out"));
    footprint_free(&f);
    site_free(&rows);
    site_free(&one);
}

static void test_unreached_and_defines(void **state)
{
    (void)state;
    const int64_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
    mem_access s[2] = {
        site("a", "4 * threadIdx.x", 4, false, "threadIdx.x >= 32", 0, NULL),
        site("b", "4 * (threadIdx.x + n)", 4, false, "threadIdx.x < m", 0, NULL),
    };
    footprint_site fs[2] = {{&s[0], "a"}, {&s[1], "b"}};
    expr_env env;
    expr_env_init(&env);
    expr_env_set(&env, "n", 100);
    expr_env_set(&env, "m", 10);
    footprint f;
    footprint_compute(fs, 2, g, b, &env, &f);
    assert_null(f.why);
    assert_int_equal(f.arrays[0].read_bytes, 0); /* no thread reaches it */
    assert_int_equal(f.arrays[1].read_bytes, 40);
    footprint_free(&f);
    site_free(&s[0]);
    site_free(&s[1]);
}

/* A store gpulint cannot place may write a byte before it is read: the
 * array's reads then count for nothing, its followed writes still do. */
static void test_store_left_out(void **state)
{
    (void)state;
    const int64_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
    mem_access s[3] = {
        site("a", "4 * threadIdx.x", 4, false, NULL, 0, NULL),
        site("a", "4 * (threadIdx.x * threadIdx.x % 32)", 4, true, NULL, 0, NULL),
        site("a", "4 * threadIdx.x + 512", 4, true, NULL, 0, NULL),
    };
    footprint_site fs[3] = {{&s[0], "a"}, {&s[1], "a"}, {&s[2], "a"}};
    footprint f;
    footprint_compute(fs, 3, g, b, NULL, &f);
    assert_non_null(f.why);
    assert_int_equal(f.n_left_out, 1);
    assert_int_equal(f.read_bytes, 0);
    assert_int_equal(f.write_bytes, 128);
    assert_int_equal(f.bytes, 256);
    footprint_free(&f);
    for (int i = 0; i < 3; i++)
        site_free(&s[i]);
}

/* In place: a store whose place the thread reads first (the same statement,
 * or an earlier one) leaves every byte read from DRAM; a store before the
 * read, or one without such a read, leaves only the bytes never written. */
static void test_in_place(void **state)
{
    (void)state;
    const int64_t g[3] = {2, 1, 1}, b[3] = {64, 1, 1};
    const char *i = "4 * (blockIdx.x * 64 + threadIdx.x)";
    const struct {
        long load_stmt, store_stmt;
        const char *store_off;
        int64_t read;
    } cases[] = {
        {1, 1, NULL, 512},                                        /* a[i] = a[i] * 2 */
        {1, 2, NULL, 512},                                        /* x = a[i]; a[i] = x * 2; */
        {2, 1, NULL, 0},                                          /* a[i] = 0; x = a[i]; */
        {1, 1, "4 * (blockIdx.x * 64 + threadIdx.x) + 256", 256}, /* a[i + 64] = a[i] */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        mem_access s[2] = {
            site("a", i, 4, false, NULL, 0, NULL),
            site("a", cases[c].store_off ? cases[c].store_off : i, 4, true, NULL, 0, NULL),
        };
        s[0].stmt = cases[c].load_stmt;
        s[1].stmt = cases[c].store_stmt;
        footprint_site fs[2] = {{&s[0], "a"}, {&s[1], "a"}};
        footprint f;
        footprint_compute(fs, 2, g, b, NULL, &f);
        /* Exact where the store is read first; else the overlap is labelled. */
        if ((f.why != NULL) != (cases[c].read < 512))
            fail_msg("case %zu: %s", c, f.why ? f.why : "exact");
        if (f.read_bytes != cases[c].read)
            fail_msg("case %zu: %lld bytes read, want %lld", c, (long long)f.read_bytes,
                     (long long)cases[c].read);
        assert_int_equal(f.write_bytes, 512);
        footprint_free(&f);
        site_free(&s[0]);
        site_free(&s[1]);
    }
}

/* Divisions and remainders that cut an index into digits, guards with
 * alternatives (an else arm's negated conjunction, !=), and a condition on
 * two indices that holds for every thread. */
static void test_digits_and_alternatives(void **state)
{
    (void)state;
    const int64_t g[3] = {3, 2, 1}, b[3] = {64, 2, 1};
    lp tile = {"i", "threadIdx.x", "i < 8 * 16", "i + blockDim.x", false};
    lp half = {"k", "0", "k < 6", "k + 1", false};
    lp part = {"i", "threadIdx.x", "i < 40", "i + blockDim.x", false};
    mem_access s[10] = {
        /* warp and lane: out[warp * 40 + lane % 8] */
        site("a", "4 * ((threadIdx.x >> 5) * 40 + (threadIdx.x & 7))", 4, false, NULL, 0, NULL),
        /* a tile load: r = i / 16, c = i % 16 of a 16-wide tile, row stride 100 */
        site("a", "4 * (blockIdx.x * 8 * 100 + (i / 16) * 100 + i % 16) + 8000", 4, false, NULL, 1,
             &tile),
        /* every thread but one; an else arm */
        site("a", "8 * threadIdx.x + 20000", 8, true, "threadIdx.x != 3", 0, NULL),
        site("a", "4 * (blockIdx.y * 64 + threadIdx.x) + 24000", 4, false,
             "!(threadIdx.x == 0 && blockIdx.y < 1) && threadIdx.x < 60", 0, NULL),
        /* i + blockDim.x < 384 holds for every thread of the grid */
        site("a", "4 * (blockIdx.x * 128 + threadIdx.x + 64) + 26000", 4, false,
             "blockIdx.x * 128 + threadIdx.x + blockDim.x < 384", 0, NULL),
        /* a loop counter cut in halves: k / 2 and k % 2 */
        site("a", "4 * ((k / 2) * 10 + k % 2 + threadIdx.y * 100) + 30000", 4, true, NULL, 1,
             &half),
        /* a guard false everywhere but one block row */
        site("a", "4 * (threadIdx.x + 64 * threadIdx.y)", 4, true,
             "blockIdx.y == 1 && threadIdx.x % 2 == 1", 0, NULL),
        /* a digit that needs no split: tid.y < 2 */
        site("a", "4 * (threadIdx.y % 4 + threadIdx.y / 4) + 31000", 4, false, NULL, 0, NULL),
        /* a tile smaller than the block: i < 40 cuts the digits of i */
        site("a", "4 * ((i / 16) * 100 + i % 16) + 40000", 4, false, NULL, 1, &part),
        /* a lower bound on blockIdx.x * 64 + threadIdx.x, used apart */
        site("a", "4 * (blockIdx.x * 1000 + threadIdx.x) + 50000", 4, true,
             "blockIdx.x * 64 + threadIdx.x >= 70", 0, NULL),
    };
    check_exact(s, 10, g, b);
}

/* A 2D block's flattened index, tid = 16 * threadIdx.y + threadIdx.x, cut
 * at a digit it does not have (a 64 x 16 tile loaded by 64 threads in two
 * steps, as the reference GEMMs load B: idx / 32 and idx % 32, and a
 * float4's index over two threads): the largest index is split, the rest
 * fit under it. */
static void test_flattened_index(void **state)
{
    (void)state;
    const int64_t g[3] = {2, 2, 1}, b[3] = {16, 4, 1};
    lp two = {"i", "0", "i < 2", "i + 1", false};
    mem_access s[3] = {
        site(
            "a",
            "4 * (((16 * threadIdx.y + threadIdx.x + 64 * i) / 32) * 100 + "
            "(16 * threadIdx.y + threadIdx.x + 64 * i) % 32 + blockIdx.x * 32 + blockIdx.y * 2000)",
            4, false, NULL, 1, &two),
        site("a", "16 * ((16 * threadIdx.y + threadIdx.x) / 2 * 9 + blockIdx.x) + 10000", 16, false,
             NULL, 0, NULL),
        site("a", "4 * ((16 * threadIdx.y + threadIdx.x) % 8) + 20000", 4, true, NULL, 0, NULL),
    };
    check_exact(s, 3, g, b);
}

/* cuda-samples' reduce6: i = blockIdx.x * 2 * blockDim.x + threadIdx.x
 * steps by twice the grid, reading i and i + blockDim.x: the loop bound
 * cuts the step index, and the second read's guard cuts it again. */
static void test_two_per_thread(void **state)
{
    (void)state;
    const int64_t g[3] = {3, 1, 1}, b[3] = {64, 1, 1};
    for (int n = 1000; n <= 1152; n += 152) {
        char cond[32], guard[64];
        snprintf(cond, sizeof cond, "i < %d", n);
        snprintf(guard, sizeof guard, "i + 64 < %d", n);
        lp i = {"i", "blockIdx.x * 128 + threadIdx.x", cond, "i + 384", false};
        mem_access s[2] = {
            site("a", "4 * i", 4, false, NULL, 1, &i),
            site("a", "4 * (i + 64)", 4, false, guard, 1, &i),
        };
        check_exact(s, 2, g, b);
    }
}

/* A local one arm of an if sets and a later test reads (a bitonic sort's
 * partner: `int j = -1; if (i < len * (i / len) + len / 2) j = i + len /
 * 2; if (j != -1)`): the front end's c ? x : y, in the offset and in the
 * guard, taken arm by arm. Also a choice inside a sum, one without a
 * guard, and a guard that tests an integer for itself. Exact against the
 * brute force. */
static void test_chosen_index(void **state)
{
    (void)state;
    const int64_t g[3] = {3, 1, 1}, b[3] = {64, 1, 1};
    const char *partner = "(blockIdx.x * 64 + threadIdx.x < 4 * ((blockIdx.x * 64 + threadIdx.x) / "
                          "4) + 2 ? blockIdx.x * 64 + threadIdx.x + 2 : -1)";
    char off[256], moved[256], guard[256];
    snprintf(off, sizeof off, "4 * %s", partner);
    snprintf(moved, sizeof moved, "4 * %s + 20000", partner);
    snprintf(guard, sizeof guard, "%s != -1", partner);
    mem_access s[3] = {
        site("a", "4 * (blockIdx.x * 64 + threadIdx.x)", 4, false, guard, 0, NULL),
        site("a", off, 4, false, guard, 0, NULL),
        site("a", moved, 4, true, guard, 0, NULL),
    };
    check_exact(s, 3, g, b);
    mem_access t[3] = {
        site("a", "4 * (blockIdx.x * 64 + (threadIdx.x % 2 == 0 ? threadIdx.x : 0))", 4, false,
             NULL, 0, NULL),
        site("a", "8 * (threadIdx.x < 16 ? threadIdx.x : threadIdx.x + 100)", 8, true, NULL, 0,
             NULL),
        /* an integer tested for itself: != 0 */
        site("a", "4 * (blockIdx.x * 64 + threadIdx.x) + 30000", 4, false, "threadIdx.x & 2", 0,
             NULL),
    };
    check_exact(t, 3, g, b);
}

/* Digits that do not divide their index's range (hexciton's 7 x 7
 * matrices over 64 threads: i = ij / 7, j = ij % 7), with and without a
 * guard that makes the range whole, merged back and kept apart; and a
 * loop bound through a MIN macro, `m < (num < start + 4 ? num : start +
 * 4)`, and the same as a max's complement. Exact against the brute force. */
static void test_ragged_digits(void **state)
{
    (void)state;
    const int64_t g[3] = {3, 1, 1}, b[3] = {64, 2, 1};
    lp chunk = {"m", "blockIdx.x * 8 + threadIdx.y * 4",
                "m < (22 < blockIdx.x * 8 + threadIdx.y * 4 + 4 ? 22 : "
                "blockIdx.x * 8 + threadIdx.y * 4 + 4)",
                "m + 2", false};
    lp wide = {"m", "blockIdx.x * 8 + threadIdx.y * 4",
               "!(m >= (blockIdx.x * 8 + threadIdx.y * 4 + 4 > 22 ? 22 : "
               "blockIdx.x * 8 + threadIdx.y * 4 + 4))",
               "m + 1", false};
    mem_access s[4] = {
        site("a", "8 * (m * 49 + (threadIdx.x / 7) * 7 + threadIdx.x % 7)", 8, false,
             "threadIdx.x < 49", 1, &chunk),
        site("a", "8 * (m * 49 + (threadIdx.x / 7) * 7 + threadIdx.x % 7) + 20000", 8, true,
             "threadIdx.x < 49", 1, &wide),
        site("a", "4 * ((threadIdx.x / 7) * 100 + threadIdx.x % 7 + threadIdx.y * 1000) + 40000", 4,
             false, NULL, 0, NULL),
        site("a", "4 * (threadIdx.x / 5 + 40 * (threadIdx.x % 5)) + 50000", 4, true, NULL, 0, NULL),
    };
    check_exact(s, 4, g, b);
}

/* Stores that write part of their sectors, as the cold-L2 probe's (8
 * bytes of each 32-byte sector, 16 of each, one sector of each 128-byte
 * line; a face of a 3-D grid, one element a row; an 8-byte store beside
 * a read of its sector's other half), counted sector by sector and line
 * by line against the brute force (check_exact). */
static void test_partial_sectors(void **state)
{
    (void)state;
    const int64_t g[3] = {3, 1, 1}, b[3] = {64, 1, 1};
    mem_access s[5] = {
        site("a", "32 * (blockIdx.x * 64 + threadIdx.x)", 8, true, NULL, 0, NULL),
        site("a", "32 * (blockIdx.x * 64 + threadIdx.x) + 8200", 16, true, NULL, 0, NULL),
        site("a", "128 * (blockIdx.x * 64 + threadIdx.x) + 16384", 8, true, NULL, 0, NULL),
        site("a", "200 * (blockIdx.x * 30 + threadIdx.x) + 8 * 24 + 41000", 8, true,
             "threadIdx.x < 30", 0, NULL),
        site("a", "32 * threadIdx.x + 16", 8, false, NULL, 0, NULL),
    };
    check_exact(s, 5, g, b);
}

/* A tree reduction in place: stride *= 2 takes the values 1, 2, 4 .. 32,
 * followed one by one (exact), and the store, read first at its place,
 * leaves every element read from DRAM. A loop whose multiplied counter
 * stops at a thread's own bound cannot be listed: its first iteration
 * only, labelled. */
static void test_first_iteration(void **state)
{
    (void)state;
    const int64_t g[3] = {2, 1, 1}, b[3] = {64, 1, 1};
    lp stride = {"stride", "1", "stride < 64", "stride * 2", false};
    const char *guard = "threadIdx.x % (2 * stride) == 0";
    mem_access s[3] = {
        site("a", "4 * (blockIdx.x * 64 + threadIdx.x)", 4, false, guard, 1, &stride),
        site("a", "4 * (blockIdx.x * 64 + threadIdx.x + stride)", 4, false, guard, 1, &stride),
        site("a", "4 * (blockIdx.x * 64 + threadIdx.x)", 4, true, guard, 1, &stride),
    };
    for (int i = 0; i < 3; i++)
        s[i].stmt = 7;
    footprint_site fs[3] = {{&s[0], "a"}, {&s[1], "a"}, {&s[2], "a"}};
    footprint f;
    footprint_compute(fs, 3, g, b, NULL, &f);
    assert_null(f.why);
    assert_int_equal(f.n_partial, 0);
    assert_int_equal(f.n_left_out, 0);
    assert_int_equal(f.read_bytes, 512);
    assert_int_equal(f.write_bytes, 256);
    footprint_free(&f);
    lp own = {"stride", "1", "stride < threadIdx.x + 2", "stride * 2", false};
    mem_access t = site("a", "4 * (blockIdx.x * 64 + stride)", 4, false, NULL, 1, &own);
    footprint_site ft = {&t, "a"};
    footprint_compute(&ft, 1, g, b, NULL, &f);
    assert_non_null(f.why);
    assert_non_null(strstr(f.why, "first iteration"));
    assert_int_equal(f.n_partial, 1);
    footprint_free(&f);
    site_free(&t);
    for (int i = 0; i < 3; i++)
        site_free(&s[i]);
}

/* Blocks that take their tiles in another order (blockperm): the CUDA
 * samples' diagonal transpose, square and not, touches what the plain
 * order touches; a reordering that sends two blocks to one tile is no
 * permutation, and the site stays left out. */
static void test_block_orders(void **state)
{
    (void)state;
    const int64_t sq[3] = {8, 8, 1}, wide[3] = {8, 4, 1}, b[3] = {4, 4, 1};
    mem_access d[2] = {
        site("a",
             "4 * ((blockIdx.x * 4 + threadIdx.y) * 32 + (blockIdx.x + blockIdx.y) % gridDim.x * 4 "
             "+ threadIdx.x)",
             4, false, NULL, 0, NULL),
        site("a",
             "4 * 1024 + 4 * (((blockIdx.x + blockIdx.y) % gridDim.x * 4 + threadIdx.y) * 32 + "
             "blockIdx.x * 4 + threadIdx.x)",
             4, true, NULL, 0, NULL),
    };
    check_exact(d, 2, sq, b);
    /* bid = x + 8y; by = bid % 4, bx = (bid / 4 + by) % 8 over a 32 x 16 matrix */
    mem_access w[1] = {site("a",
                            "4 * ((((blockIdx.x + gridDim.x * blockIdx.y) % gridDim.y) * 4 + "
                            "threadIdx.y) * 32 + (((blockIdx.x + gridDim.x * blockIdx.y) / "
                            "gridDim.y + (blockIdx.x + gridDim.x * blockIdx.y) % gridDim.y) % "
                            "gridDim.x) * 4 + threadIdx.x)",
                            4, false, NULL, 0, NULL)};
    check_exact(w, 1, wide, b);
    mem_access t = site("a",
                        "4 * ((blockIdx.x * 4 + threadIdx.y) * 32 + (blockIdx.x + blockIdx.y) % 4 "
                        "* 4 + threadIdx.x)",
                        4, false, NULL, 0, NULL);
    footprint_site ft = {&t, "a"};
    footprint f;
    footprint_compute(&ft, 1, sq, b, NULL, &f);
    assert_int_equal(f.n_left_out, 1);
    assert_non_null(f.why);
    assert_non_null(strstr(f.why, "mixes two indices"));
    footprint_free(&f);
    site_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounds_check),
        cmocka_unit_test(test_gemm_rows),
        cmocka_unit_test(test_one_block),
        cmocka_unit_test(test_one_warp),
        cmocka_unit_test(test_later_warp),
        cmocka_unit_test(test_stencil_overlap),
        cmocka_unit_test(test_grid_stride),
        cmocka_unit_test(test_gaps_and_overlaps),
        cmocka_unit_test(test_blocks64),
        cmocka_unit_test(test_left_out),
        cmocka_unit_test(test_cover),
        cmocka_unit_test(test_cover_memory_guard),
        cmocka_unit_test(test_cover_unbound_guard),
        cmocka_unit_test(test_wide_array),
        cmocka_unit_test(test_wide_array_odd_site),
        cmocka_unit_test(test_unreached_and_defines),
        cmocka_unit_test(test_store_left_out),
        cmocka_unit_test(test_in_place),
        cmocka_unit_test(test_digits_and_alternatives),
        cmocka_unit_test(test_flattened_index),
        cmocka_unit_test(test_two_per_thread),
        cmocka_unit_test(test_min_max_bounds),
        cmocka_unit_test(test_clamped_index),
        cmocka_unit_test(test_neighbour_blocks),
        cmocka_unit_test(test_wide_struct),
        cmocka_unit_test(test_first_iteration),
        cmocka_unit_test(test_block_orders),
        cmocka_unit_test(test_chosen_index),
        cmocka_unit_test(test_ragged_digits),
        cmocka_unit_test(test_partial_sectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
