/* test_coalesce: the 32-byte sector model on the seed chapters' cases:
 * contiguous floats (4 sectors, 100%), in[2 * idx] (8 sectors, 50%), a
 * 4-byte field of a 16-byte struct (25%), and a column walk of a row-major
 * 1024-wide float matrix (32 sectors per request). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/symbolic/cexpr.h"
#include "analysis/warp/coalesce.h"
#include "util/fileio.h"

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

/* idx = blockIdx.x * blockDim.x + threadIdx.x */
static expr *IDX(void)
{
    return B(OP_ADD, B(OP_MUL, expr_builtin_sym(SYM_BID_X), expr_builtin_sym(SYM_BDIM_X)), TX());
}

static const int64_t block256[3] = {256, 1, 1};

static coalesce_result analyse(expr *offset, int width, const int64_t block[3], const expr_env *env)
{
    mem_access a = {0};
    a.space = SPACE_GLOBAL;
    a.width = width;
    a.byte_offset = offset;
    coalesce_result r;
    coalesce_analyze(&a, block, env, &r);
    expr_free(offset);
    return r;
}

static bool near(double a, double b)
{
    return a > b - 1e-9 && a < b + 1e-9;
}

static void test_contiguous(void **state)
{
    (void)state;
    coalesce_result r = analyse(B(OP_MUL, IDX(), C(4)), 4, block256, NULL);
    assert_true(r.analyzed);
    assert_int_equal(r.worst_sectors, 4);
    assert_int_equal(r.ideal_sectors, 4);
    assert_true(near(r.efficiency, 1.0));
    assert_int_equal(r.requests, 8);
    assert_int_equal(r.total_lines, 8); /* a line a request */
    /* blockIdx.x is unknown, the alignment assumed: both are in the note */
    assert_true(r.assumed);
    assert_non_null(strstr(r.note, "blockIdx.x"));
    assert_non_null(strstr(r.note, "256-byte"));
    /* float4: 16 sectors, still 100% */
    r = analyse(B(OP_MUL, IDX(), C(16)), 16, block256, NULL);
    assert_int_equal(r.worst_sectors, 16);
    assert_int_equal(r.ideal_sectors, 16);
    assert_true(near(r.efficiency, 1.0));
}

static void test_strided(void **state)
{
    (void)state;
    coalesce_result r = analyse(B(OP_MUL, B(OP_MUL, C(2), IDX()), C(4)), 4, block256, NULL);
    assert_true(r.analyzed);
    assert_int_equal(r.worst_sectors, 8);
    assert_int_equal(r.worst_ideal, 4);
    assert_true(near(r.efficiency, 0.5));
    assert_true(near(r.worst_efficiency, 0.5));
}

static void test_struct_field(void **state)
{
    (void)state;
    /* struct { float a, b, c, d; } p[]; p[idx].b -> 16 * idx + 4 */
    coalesce_result r = analyse(B(OP_ADD, B(OP_MUL, IDX(), C(16)), C(4)), 4, block256, NULL);
    assert_true(r.analyzed);
    assert_int_equal(r.worst_sectors, 16);
    assert_true(near(r.efficiency, 0.25));
}

static void test_column_walk(void **state)
{
    (void)state;
    /* a[threadIdx.x * N + col], N = 1024, col a parameter */
    expr_env env;
    expr_env_init(&env);
    expr_env_set(&env, "N", 1024);
    const int64_t block[3] = {32, 1, 1};
    coalesce_result r =
        analyse(B(OP_MUL, B(OP_ADD, B(OP_MUL, TX(), expr_named("N")), expr_named("col")), C(4)), 4,
                block, &env);
    assert_true(r.analyzed);
    assert_int_equal(r.worst_sectors, 32);
    assert_int_equal(r.total_lines, 32 * r.requests);
    assert_true(near(r.efficiency, 4.0 / 32));
    assert_non_null(strstr(r.note, "'col'"));
}

static void test_request_direct(void **state)
{
    (void)state;
    int64_t addr[32];
    coalesce_request q;
    char why[128];
    for (int l = 0; l < 32; l++)
        addr[l] = 4 * l + 4; /* one float past an aligned base: 5 sectors */
    assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 4, &q, why, sizeof why));
    assert_int_equal(q.sectors, 5);
    assert_int_equal(q.ideal, 4);
    assert_int_equal(q.bytes, 128);
    assert_int_equal(q.lines, 2); /* bytes 4..131 cross into the second line */
    /* every lane on one word: a broadcast, one sector, and 4 distinct bytes
     * asked for (counting 128 made the efficiency 400%) */
    for (int l = 0; l < 32; l++)
        addr[l] = 64;
    assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 4, &q, why, sizeof why));
    assert_int_equal(q.sectors, 1);
    assert_int_equal(q.ideal, 1);
    assert_int_equal(q.bytes, 4);
    /* pairs of lanes on one 8-byte word: 16 words, 128 distinct bytes */
    for (int l = 0; l < 32; l++)
        addr[l] = 8 * (l / 2);
    assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 8, &q, why, sizeof why));
    assert_int_equal(q.sectors, 4);
    assert_int_equal(q.ideal, 4);
    assert_int_equal(q.bytes, 128);
    /* inactive lanes do not count */
    for (int l = 0; l < 32; l++)
        addr[l] = 128 * l;
    assert_true(coalesce_request_eval(addr, 0x3u, 4, &q, why, sizeof why));
    assert_int_equal(q.sectors, 2);
    assert_int_equal(q.ideal, 1);
    assert_int_equal(q.lines, 2);
    assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 4, &q, why, sizeof why));
    assert_int_equal(q.lines, 32); /* a column walk: one line a lane */
    addr[0] = 2;
    assert_false(coalesce_request_eval(addr, 0x3u, 4, &q, why, sizeof why));
    assert_non_null(strstr(why, "misaligned"));
    assert_false(coalesce_request_eval(addr, 0x3u, 12, &q, why, sizeof why));
}

/* L1 wavefronts of a load request against scripts/timeprobe/l1lines.cu's
 * clocks a request on an H200 (tests/data/timeprobe/h200/l1lines/run.txt,
 * mode shared: every line an L1 hit): `lines` groups of 32 / lines lanes,
 * each group reading consecutive floats of one line, the groups `stride`
 * bytes apart. The model leaves out the tag stage's set conflicts, which
 * cost up to 3 clocks more at some strides, and below 8 lines the probe
 * sees a warp's load latency (3.7 clocks), not the L1's rate. */
static void test_request_wavefronts(void **state)
{
    (void)state;
    static const struct {
        int lines, stride;
        double measured;
    } probe[] = {
        {8, 128, 8.002},    {8, 132, 4.123},    {8, 256, 8.002},   {8, 392, 5.002},
        {8, 640, 8.002},    {16, 128, 16.002},  {16, 132, 4.109},  {16, 136, 4.105},
        {16, 160, 5.003},   {16, 392, 7.001},   {16, 640, 16.001}, {16, 4096, 16.002},
        {32, 128, 32.002},  {32, 132, 8.001},   {32, 136, 9.001},  {32, 160, 10.003},
        {32, 256, 32.002},  {32, 384, 32.002},  {32, 392, 11.000}, {32, 640, 32.002},
        {32, 1152, 31.993}, {32, 4096, 32.002},
    };
    int64_t addr[32];
    coalesce_request q;
    char why[128];
    for (size_t i = 0; i < sizeof probe / sizeof *probe; i++) {
        int group = 32 / probe[i].lines;
        for (int l = 0; l < 32; l++)
            addr[l] = (int64_t)(l / group) * probe[i].stride + 4 * (l % group);
        assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 4, &q, why, sizeof why));
        assert_int_equal(q.lines, probe[i].lines);
        assert_true(q.wavefronts <= probe[i].measured + 0.25);
        assert_true(q.wavefronts >= probe[i].measured - 3.25);
    }
    /* whole lines: one a float per lane, four for 16 bytes a lane */
    for (int l = 0; l < 32; l++)
        addr[l] = 4 * l;
    assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 4, &q, why, sizeof why));
    assert_int_equal(q.wavefronts, 1);
    for (int l = 0; l < 32; l++)
        addr[l] = 16 * l;
    assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 16, &q, why, sizeof why));
    assert_int_equal(q.wavefronts, 4);
}

/* The value of `metric` for launch `id` in Nsight Compute's --csv rows
 * (every field quoted, "ID" first, the metric's name and value last but
 * one and last; a value may hold thousands' commas); -1 when absent. */
static double ncu_value(const char *csv, int id, const char *metric)
{
    char key[64], quoted[160];
    snprintf(key, sizeof key, "\n\"%d\",", id);
    snprintf(quoted, sizeof quoted, "\"%s\",\"", metric);
    for (const char *row = strstr(csv, key); row; row = strstr(row + 1, key)) {
        const char *end = strchr(row + 1, '\n');
        const char *m = strstr(row, quoted);
        if (!m || (end && m > end))
            continue;
        const char *v = strstr(m + strlen(quoted), "\",\"");
        if (!v || (end && v > end))
            return -1;
        double x = 0;
        for (v += 3; *v && *v != '"'; v++)
            if (*v >= '0' && *v <= '9')
                x = 10 * x + (*v - '0');
        return x;
    }
    return -1;
}

/* The data stage's wavefronts a request, as Nsight Compute counted them on
 * an H100 (tests/data/timeprobe/h100/l1lines: l1lines.cu with 8 lines and
 * more, mode shared first: 8, 16, 32 lines by 17 strides, two launches
 * each, the second counted), are the model's most lines sharing a bank:
 * its wavefronts are those, or the lines four a clock where more (the
 * tag stage), on every row. */
static void test_request_wavefronts_counters(void **state)
{
    (void)state;
    static const int strides[] = {128,  132,  136,  160,  256,  384,   392,   512,  640,
                                  1024, 1152, 2048, 4096, 8192, 16384, 32768, 65536};
    static const int line_counts[] = {8, 16, 32};
    const int n_strides = (int)(sizeof strides / sizeof *strides);
    char *csv;
    size_t len;
    assert_int_equal(fileio_read(L1LINES_DATA
                                 "/ncu_l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum.csv",
                                 1 << 20, &csv, &len),
                     FILEIO_OK);
    int64_t addr[32];
    coalesce_request q;
    char why[128];
    int rows = 0;
    for (int li = 0; li < 3; li++)
        for (int si = 0; si < n_strides; si++) {
            int id = 2 * (li * n_strides + si) + 1;
            double waves =
                ncu_value(csv, id, "l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum");
            double requests = ncu_value(csv, id, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
            assert_true(waves > 0 && requests > 0);
            int lines = line_counts[li], group = 32 / lines;
            for (int l = 0; l < 32; l++)
                addr[l] = (int64_t)(l / group) * strides[si] + 4 * (l % group);
            assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 4, &q, why, sizeof why));
            /* the probe's other accesses add a little (2.0015 a request for 2) */
            double data = waves / requests, tags = ceil(lines / 4.0);
            assert_true(fabs(q.wavefronts - fmax(tags, data)) < 0.05);
            rows++;
        }
    assert_int_equal(rows, 51);
    free(csv);
}

/* Run sectors: each contiguous run of sectors counts at least a line
 * (4 sectors), so the share of its lines a request fills is sectors / run
 * sectors. */
static void test_run_sectors(void **state)
{
    (void)state;
    int64_t addr[32];
    coalesce_request q;
    char why[128];
    for (int l = 0; l < 32; l++)
        addr[l] = 4 * l + 4; /* one run of 5 sectors across two lines: filled */
    assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 4, &q, why, sizeof why));
    assert_int_equal(q.run_sectors, 5);
    for (int l = 0; l < 32; l++) /* 8 doubles a row, rows 3200 bytes apart */
        addr[l] = 3200 * (l / 8) + 8 * (l % 8);
    assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 8, &q, why, sizeof why));
    assert_int_equal(q.sectors, 8);
    assert_int_equal(q.lines, 4);
    assert_int_equal(q.run_sectors, 16); /* four half lines: half filled */
    for (int l = 0; l < 32; l++)         /* a 16-float tile's two rows, 4096 bytes apart */
        addr[l] = 4096 * (l / 16) + 4 * (l % 16);
    assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 4, &q, why, sizeof why));
    assert_int_equal(q.run_sectors, 8);
    for (int l = 0; l < 32; l++) /* a column walk: a sector a line */
        addr[l] = 128 * l;
    assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 4, &q, why, sizeof why));
    assert_int_equal(q.sectors, 32);
    assert_int_equal(q.run_sectors, 128);
    for (int l = 0; l < 32; l++) /* float4, 512 contiguous bytes */
        addr[l] = 16 * l;
    assert_true(coalesce_request_eval(addr, 0xFFFFFFFFu, 16, &q, why, sizeof why));
    assert_int_equal(q.run_sectors, 16);
}

static void test_unknown_offset(void **state)
{
    (void)state;
    /* in[threadIdx.x + off]: whether it straddles a sector depends on off */
    const int64_t block[3] = {32, 1, 1};
    coalesce_result r =
        analyse(B(OP_MUL, B(OP_ADD, TX(), expr_named("off")), C(4)), 4, block, NULL);
    assert_false(r.analyzed);
    assert_string_equal(r.reason, "index depends on 'off' whose value is unknown");
}

/* The coalescing calculator's questions (gpulint coalesce), worked by hand
 * from the sector rule: a request costs one 32-byte sector per distinct
 * 32-byte span its lanes' bytes touch, the ideal is the same bytes packed. */
static coalesce_result calc(const char *byte_offset, int width, int64_t bx, int64_t by)
{
    cexpr_error err;
    expr *e = cexpr_parse(byte_offset, false, &err);
    assert_non_null(e);
    mem_access m = {0};
    m.space = SPACE_GLOBAL;
    m.width = width;
    m.byte_offset = e;
    m.text = (char *)"";
    int64_t block[3] = {bx, by, 1};
    coalesce_result r;
    assert_true(coalesce_analyze(&m, block, NULL, &r));
    expr_free(e);
    return r;
}

static void test_calculator_answers(void **state)
{
    (void)state;
    /* Stride-2 floats: lanes at bytes 0, 8, ..., 248 span 256 bytes, 8
     * sectors, for 128 bytes asked (4 sectors): half the bytes used. */
    coalesce_result r = calc("threadIdx.x * 2 * 4", 4, 32, 1);
    assert_int_equal(r.worst_sectors, 8);
    assert_int_equal(r.worst_ideal, 4);
    assert_float_equal(r.efficiency, 0.5, 1e-12);
    /* One element in: bytes 4..131 reach a fifth sector (128..159). */
    r = calc("(threadIdx.x + 1) * 4", 4, 32, 1);
    assert_int_equal(r.worst_sectors, 5);
    assert_float_equal(r.efficiency, 128.0 / 160.0, 1e-12);
    /* Stride 32 floats: every lane in a sector of its own. */
    r = calc("threadIdx.x * 32 * 4", 4, 32, 1);
    assert_int_equal(r.worst_sectors, 32);
    assert_float_equal(r.efficiency, 0.125, 1e-12);
    /* float4, contiguous: 512 bytes, 16 sectors, all used. */
    r = calc("threadIdx.x * 16", 16, 128, 1);
    assert_int_equal(r.worst_sectors, 16);
    assert_int_equal(r.worst_ideal, 16);
    assert_int_equal(r.warps, 4);
    /* 16x16 block over rows 4 KiB apart: a warp is two 64-byte half rows,
     * 2 sectors each; 4 sectors, the ideal. */
    r = calc("(threadIdx.y * 1024 + threadIdx.x) * 4", 4, 16, 16);
    assert_int_equal(r.worst_sectors, 4);
    assert_int_equal(r.worst_ideal, 4);
    assert_int_equal(r.requests, 8);
}

/* A loop moving every lane by the same stride each iteration: with a
 * stride of whole 128-byte lines a request repeats the last one's counts
 * (which coalesce takes without evaluating it again); with others it does
 * not. The totals against coalesce_request_eval request by request. */
static void test_loop_strides(void **state)
{
    (void)state;
    static const int64_t strides[] = {128, 256, 4096, 160, 64, 96, 4128};
    /* Lane patterns: dense, every other word from byte 4, pairs, 12 apart. */
    static const int64_t mul[] = {4, 8, 0, 12}, add[] = {0, 4, 0, 0};
    const int64_t block[3] = {64, 1, 1};
    for (size_t si = 0; si < sizeof strides / sizeof strides[0]; si++)
        for (int pi = 0; pi < 4; pi++) {
            expr *lane = pi == 2 ? B(OP_MUL, B(OP_DIV, TX(), C(2)), C(4))
                                 : B(OP_ADD, B(OP_MUL, TX(), C(mul[pi])), C(add[pi]));
            mem_access a = {0};
            a.space = SPACE_GLOBAL;
            a.width = 4;
            a.byte_offset = B(OP_ADD, B(OP_MUL, expr_named("k"), C(strides[si])), lane);
            a.n_loops = 1;
            a.loops[0] = (loop_ctx){.var = "k",
                                    .init = C(0),
                                    .cond = B(OP_LT, expr_named("k"), C(20)),
                                    .next = B(OP_ADD, expr_named("k"), C(1)),
                                    .loc = {.line = 1}};
            coalesce_result r;
            assert_true(coalesce_analyze(&a, block, NULL, &r));
            int64_t sectors = 0, lines = 0, bytes = 0;
            for (int w = 0; w < 2; w++)
                for (int64_t k = 0; k < 20; k++) {
                    int64_t addr[LANES_WARP];
                    for (int l = 0; l < LANES_WARP; l++) {
                        int64_t t = w * 32 + l;
                        addr[l] = k * strides[si] + (pi == 2 ? t / 2 * 4 : t * mul[pi] + add[pi]);
                    }
                    coalesce_request q;
                    char why[128];
                    assert_true(coalesce_request_eval(addr, 0xffffffffu, 4, &q, why, sizeof why));
                    sectors += q.sectors;
                    lines += q.lines;
                    bytes += q.bytes;
                }
            assert_int_equal(r.requests, 40);
            assert_int_equal(r.total_sectors, sectors);
            assert_int_equal(r.total_lines, lines);
            assert_true(near(r.efficiency, (double)bytes / ((double)sectors * 32)));
            expr_free(a.byte_offset);
            expr_free(a.loops[0].init);
            expr_free(a.loops[0].cond);
            expr_free(a.loops[0].next);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contiguous),
        cmocka_unit_test(test_strided),
        cmocka_unit_test(test_struct_field),
        cmocka_unit_test(test_column_walk),
        cmocka_unit_test(test_request_direct),
        cmocka_unit_test(test_unknown_offset),
        cmocka_unit_test(test_run_sectors),
        cmocka_unit_test(test_request_wavefronts),
        cmocka_unit_test(test_request_wavefronts_counters),
        cmocka_unit_test(test_calculator_answers),
        cmocka_unit_test(test_loop_strides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
