/* test_verify: the parts of `gpulint verify` that need no GPU: residency
 * records to blocks per SM, calibration fits, verdict rules, the manifest
 * (the bundled kernels/verify.ini and broken ones), Nsight Compute's CSV
 * (a file recorded on an H100) and the fp16 conversions of the buffers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "verify/gbuf.h"
#include "util/fileio.h"
#include "verify/judge.h"
#include "verify/manifest.h"
#include "verify/ncu.h"

/* ---------------------------------------------------------------- residency */

static void test_residency_overlap(void **state)
{
    (void)state;
    /* SM 0: blocks [0,10) [0,10) [5,15) -> 3 at t=5..10; [10,20) starts as
     * two end: not overlapping them. SM 1: one block. */
    uint64_t rec[] = {0, 0, 10, 0, 0, 10, 0, 5, 15, 0, 10, 20, 1, 3, 4};
    int at_max;
    assert_int_equal(judge_residency(rec, 5, 2, &at_max), 3);
    assert_int_equal(at_max, 1);
}

static void test_residency_boundaries(void **state)
{
    (void)state;
    /* Back to back on one SM: never two at once. */
    uint64_t rec[] = {0, 0, 10, 0, 10, 20, 0, 20, 30};
    assert_int_equal(judge_residency(rec, 3, 1, NULL), 1);
    /* An SM number out of range and an unfinished record are ignored. */
    uint64_t odd[] = {7, 0, 10, 0, 5, 0, 0, 1, 2};
    assert_int_equal(judge_residency(odd, 3, 2, NULL), 1);
    assert_int_equal(judge_residency(odd, 0, 2, NULL), 0);
}

static void test_residency_many(void **state)
{
    (void)state;
    /* 132 SMs, each running waves of 8 simultaneous blocks. */
    enum { SMS = 132, WAVES = 3, PER = 8 };
    static uint64_t rec[SMS * WAVES * PER * 3];
    size_t n = 0;
    for (int s = 0; s < SMS; s++)
        for (int w = 0; w < WAVES; w++)
            for (int b = 0; b < PER; b++) {
                rec[3 * n] = (uint64_t)s;
                rec[3 * n + 1] = (uint64_t)(1000 * w + b);       /* starts staggered */
                rec[3 * n + 2] = (uint64_t)(1000 * w + 900 + b); /* ends before the next wave */
                n++;
            }
    int at_max;
    assert_int_equal(judge_residency(rec, n, SMS, &at_max), PER);
    assert_int_equal(at_max, SMS);
}

/* ---------------------------------------------------------------- fits, medians */

/* Clusters of two: a cluster runs from its last block's start to its first
 * block's end; a cluster with an unfinished block does not count. */
static void test_clusters(void **state)
{
    (void)state;
    const uint64_t rec[] = {0, 10, 100, 1, 20, 90,  /* cluster 0: 20..90 */
                            2, 30, 120, 3, 25, 95,  /* cluster 1: 30..95 */
                            0, 90, 200, 1, 95, 210, /* cluster 2: 95..200, after 0 ends */
                            2, 40, 0,   3, 40, 80}; /* cluster 3: a block unfinished */
    assert_int_equal(judge_clusters(rec, 8, 2), 2);
    assert_int_equal(judge_clusters(rec, 8, 4), 1);
    assert_int_equal(judge_clusters(rec, 0, 2), 0);
    vmanifest m = {0};
    vman_error e = {0};
    const char *ini = "[occupancy]\nfile = o.cu\nprobe = k block=128 cluster=16 nonportable\n";
    if (!vman_parse(ini, strlen(ini), &m, &e))
        fail_msg("%s:%d: %s", e.file, e.line, e.message);
    assert_int_equal(m.cases[0].cluster, 16);
    assert_true(m.cases[0].nonportable);
    vman_free(&m);
}

static void test_fit(void **state)
{
    (void)state;
    double x[] = {2, 4, 8, 16, 32}, y[5];
    for (int i = 0; i < 5; i++)
        y[i] = 0.25 + 1.5 * x[i];
    double a, b;
    assert_true(judge_fit(x, y, 5, &a, &b));
    assert_true(fabs(a - 0.25) < 1e-12 && fabs(b - 1.5) < 1e-12);
    double same[] = {3, 3};
    assert_false(judge_fit(same, y, 2, &a, &b)); /* x does not vary */
    assert_false(judge_fit(x, y, 1, &a, &b));
    double down[] = {5, 1};
    assert_false(judge_fit(x, down, 2, &a, &b)); /* a falling line is no calibration */
}

static void test_median(void **state)
{
    (void)state;
    double v[] = {3, 1, 2, 10, 4}, spread;
    assert_true(judge_median(v, 5, &spread) == 3);
    assert_true(fabs(spread - 3.0) < 1e-12); /* (10 - 1) / 3 */
    double w[] = {4, 2};
    assert_true(judge_median(w, 2, NULL) == 3);
    assert_true(v[0] == 3); /* the input is not sorted in place */
}

static void test_verdicts(void **state)
{
    (void)state;
    assert_int_equal(judge_count(32, 32.4, 0.5, 0.05), VV_AGREES);
    assert_int_equal(judge_count(1, 1.6, 0.5, 0.05), VV_DIFFERS);
    assert_int_equal(judge_count(32, 33.5, 0.5, 0.05), VV_AGREES); /* 5% of 32 = 1.6 */
    assert_int_equal(judge_count(NAN, 1, 0.5, 0.05), VV_NOT_COMPARABLE);
    assert_int_equal(judge_count(8, 8, 0, 0), VV_AGREES);
    assert_int_equal(judge_count(8, 9, 0, 0), VV_DIFFERS);
    /* slower than the bound: fine; faster beyond the slack: a wrong count */
    assert_int_equal(judge_bound(1e-3, 2e-3, 0.02), VV_AGREES);
    assert_int_equal(judge_bound(1e-3, 0.985e-3, 0.02), VV_AGREES);
    assert_int_equal(judge_bound(1e-3, 0.9e-3, 0.02), VV_DIFFERS);
    assert_int_equal(judge_bound(0, 1e-3, 0.02), VV_NOT_COMPARABLE);
    bool predicated;
    assert_int_equal(judge_twins(0.5, 2.0, 1.04, 0.10, 0.05, &predicated), VV_AGREES);
    assert_false(predicated);
    assert_int_equal(judge_twins(0.5, 1.0, 0.98, 0.10, 0.05, &predicated), VV_NOT_COMPARABLE);
    assert_true(predicated);
    assert_int_equal(judge_twins(0.5, 1.0, 1.08, 0.10, 0.05, &predicated), VV_NOT_COMPARABLE);
    assert_true(predicated);
    assert_int_equal(judge_twins(0.5, 1.0, 0.75, 0.10, 0.05, &predicated), VV_DIFFERS);
    assert_int_equal(judge_twins(1.0, 1.0, 0.99, 0.10, 0.05, &predicated), VV_AGREES);
    assert_false(predicated); /* a convergent prediction is checked, not excused */
    assert_string_equal(vverdict_name(VV_NOT_COMPARABLE), "not_comparable");
}

/* ---------------------------------------------------------------- manifest */

static char *slurp(const char *path, size_t *len)
{
    char *s;
    assert_int_equal(fileio_read(path, 1 << 22, &s, len), FILEIO_OK);
    return s;
}

static void test_manifest_bundled(void **state)
{
    (void)state;
    vmanifest m = {0};
    vman_error e = {0};
    size_t len;
    char *h = slurp(KERNELS_DIR "/verify.h", &len);
    assert_true(vman_parse_sizes(h, len, &m, &e));
    free(h);
    int64_t v;
    char why[200];
    assert_true(vman_eval(&m, "COAL_BYTES", &v, why, sizeof why));
    assert_true(v == 2147483648LL);
    assert_true(vman_eval(&m, "BANK_REQUESTS", &v, why, sizeof why));
    assert_true(v == 1024 / 32 * 256 * 4);
    char *ini = slurp(KERNELS_DIR "/verify.ini", &len);
    if (!vman_parse(ini, len, &m, &e))
        fail_msg("%s:%d: %s", e.file, e.line, e.message);
    free(ini);
    int kinds[8] = {0}, calibrations = 0, floors = 0;
    for (int i = 0; i < m.n_cases; i++) {
        kinds[m.cases[i].kind]++;
        calibrations += m.cases[i].calibrate;
        floors += m.cases[i].floor;
        assert_true(m.cases[i].kernel[0] != '\0');
    }
    assert_true(kinds[VK_RESIDENCY] >= 30);
    assert_true(kinds[VK_CYCLES] >= 25);
    assert_true(kinds[VK_SECTORS] >= 12);
    assert_int_equal(kinds[VK_CEILING], 5);
    assert_true(calibrations >= 12);
    assert_int_equal(floors, 3); /* a broadcast per access width */
    /* --calibrate: every constant it can measure has its probe, and those
     * read as a slope have two runs of different work */
    for (int k = 0; vman_timing_constants[k]; k++) {
        int runs = 0;
        int64_t first = -1;
        bool differ = false;
        for (int i = 0; i < m.n_cases; i++) {
            const vcase *c = &m.cases[i];
            if (c->kind != VK_TIMING || strcmp(c->constant, vman_timing_constants[k]) != 0)
                continue;
            runs++;
            differ = differ || (first >= 0 && c->work != first);
            first = c->work;
        }
        if (strcmp(vman_timing_constants[k], "launch_ns") == 0)
            assert_int_equal(runs, 1);
        else if (runs < 2 || !differ)
            fail_msg("%s: %d runs of one work", vman_timing_constants[k], runs);
    }
    /* every ladder step of the reduction checks its result */
    for (int i = 0; i < m.n_cases; i++)
        if (strcmp(m.groups[m.cases[i].group].ladder, "reduction") == 0)
            assert_int_equal(m.cases[i].result.fn, VR_REDUCE);
    vman_free(&m);
}

static void expect_error(const char *ini, int line, const char *needle)
{
    vmanifest m = {0};
    vman_error e = {0};
    const char *sizes = "#define N 1024\n#define H (N / 2)\n";
    assert_true(vman_parse_sizes(sizes, strlen(sizes), &m, &e));
    if (vman_parse(ini, strlen(ini), &m, &e))
        fail_msg("accepted: %s", ini);
    if (!strstr(e.message, needle) || e.line != line)
        fail_msg("'%s' at line %d, expected '%s' at line %d", e.message, e.line, needle, line);
    vman_free(&m);
}

static void test_manifest_errors(void **state)
{
    (void)state;
    expect_error("[bank]\nfile = b.cu\nprobe = k colour=red\n", 3, "unknown option 'colour'");
    expect_error("[bank]\nprobe = k\n", 2, "file must come before");
    expect_error("[nonsense]\nfile = b.cu\n", 2, "unknown section [nonsense]");
    expect_error("[time]\nfile = t.cu\n", 2, "[time] takes no cases");
    expect_error("[coalescing]\nfile = c.cu\nprobe = k\n", 3, "requests=EXPR is required");
    expect_error("[occupancy]\nfile = o.cu\nprobe = k\n", 3, "block=N is required");
    expect_error("[roofline]\nfile = r.cu\nbuffers = a:f99[N]\n", 3, "unknown type");
    expect_error("[roofline]\nfile = r.cu\nbuffers = a:f32[M]\n", 3, "no size named 'M'");
    expect_error("[roofline]\nfile = r.cu\nbuffers = a:f32[N]\nkernel = k args=b\n", 4,
                 "no buffer named 'b'");
    expect_error("[roofline]\nfile = r.cu\nbuffers = a:f32[N]\nkernel = k check=sum(a)\n", 4,
                 "unknown function");
    expect_error("[bank]\nfile = b.cu\nprobe = k calibrate=-2\n", 3, "positive count");
    expect_error("[divergence]\nfile = d.cu\ntiming = k\n", 3, "reference=KERNEL");
    expect_error("[bank]\nfile = ../b.cu\n", 2, "a name in the kernels directory");
    expect_error("[calibration]\nfile = c.cu\nwarp_ns = k grid=1 threads=1 work=0\n", 3,
                 "'warp_ns' is not a [timing] constant");
    expect_error("[calibration]\nfile = c.cu\nlaunch_ns = k grid=1 threads=1\n", 3,
                 "work=EXPR is required");
    expect_error("[calibration]\nfile = c.cu\nlaunch_ns = k work=0\n", 3, "grid= (or");
    expect_error("[calibration]\nfile = c.cu\nbuffers = c:f32[N]=cycle\n", 3, "a cycle is i32");
    expect_error("[calibration]\nfile = c.cu\nbuffers = c:i32[33]=cycle\n", 3, "whole 128-byte");
    expect_error("[roofline]\nfile = r.cu\nkernel = k alone\n", 3, "unknown option 'alone'");
    expect_error("[occupancy]\nfile = o.cu\nprobe = k block=32 cluster=0\n", 3, "cluster: 1 to 64");
    expect_error("[bank]\nfile = b.cu\nprobe = k nonportable\n", 3, "unknown option 'nonportable'");
    expect_error("[roofline]\nfile = r.cu\nkernel = k args=i32:N*N*N*N\n", 3, "beyond i32");
    char longline[400];
    snprintf(longline, sizeof longline, "[bank]\nfile = b.cu\nprobe = k step=\"%0250d\"\n", 0);
    expect_error(longline, 3, "longer than 198");
    /* sizes: an undefined name */
    vmanifest m = {0};
    vman_error e = {0};
    const char *bad = "#define A 4\n#define B (A * C)\n";
    assert_false(vman_parse_sizes(bad, strlen(bad), &m, &e));
    assert_int_equal(e.line, 2);
    assert_non_null(strstr(e.message, "'C'"));
}

static void test_manifest_values(void **state)
{
    (void)state;
    vmanifest m = {0};
    vman_error e = {0};
    const char *sizes = "#define N 1024\n";
    vman_parse_sizes(sizes, strlen(sizes), &m, &e);
    const char *ini = "[ladder demo]\nfile = d.cu\nbook = a book\n"
                      "buffers = in:i32[N]=small out:i32[N/2] s:f32[4]=rand\n"
                      "step = k args=in,out,f32:0.5,i32:7 restore=in compulsory=4*N "
                      "check=reduce(in,out,N/2) book=0.5 step=\"two words\"\n";
    if (!vman_parse(ini, strlen(ini), &m, &e))
        fail_msg("%s:%d: %s", e.file, e.line, e.message);
    assert_int_equal(m.n_cases, 1);
    const vcase *c = &m.cases[0];
    assert_int_equal(c->kind, VK_TIME);
    assert_string_equal(m.groups[0].ladder, "demo");
    assert_string_equal(m.groups[0].book, "a book");
    assert_int_equal(m.groups[0].buffers[1].count, 512);
    assert_int_equal(m.groups[0].buffers[0].init, VI_SMALL);
    assert_int_equal(c->n_args, 4);
    assert_int_equal(c->args[1].buffer, 1);
    assert_int_equal(c->args[2].buffer, -1);
    assert_true(c->args[2].value == 0.5 && c->args[2].type == VT_F32);
    assert_int_equal(c->args[3].type, VT_I32);
    assert_int_equal(c->restore, 0);
    assert_int_equal(c->compulsory, 4096);
    assert_int_equal(c->result.fn, VR_REDUCE);
    assert_int_equal(c->result.n, 512);
    assert_true(c->book_ms == 0.5);
    assert_string_equal(c->step, "two words");
    vman_free(&m);
    /* a calibration run: sizes in scalar arguments, a grid per SM */
    vman_parse_sizes(sizes, strlen(sizes), &m, &e);
    const char *cal = "[calibration]\nfile = c.cu\nbuffers = ring:i32[N]=cycle\n"
                      "l2_latency_ns = chase args=ring,i32:N/4,u64:3*N blocks_per_sm=2 "
                      "threads=64 alone work=N/4\n";
    if (!vman_parse(cal, strlen(cal), &m, &e))
        fail_msg("%s:%d: %s", e.file, e.line, e.message);
    c = &m.cases[0];
    assert_int_equal(c->kind, VK_TIMING);
    assert_string_equal(c->constant, "l2_latency_ns");
    assert_int_equal(m.groups[0].buffers[0].init, VI_CYCLE);
    assert_true(c->args[1].value == 256 && c->args[2].value == 3072);
    assert_int_equal(c->blocks_per_sm, 2);
    assert_true(c->alone && c->has_work && c->work == 256);
    vman_free(&m);
}

/* A calibration chain must visit every line once before it returns, or
 * the latency probes would time a shorter cycle the caches hold. */
static void test_cycle(void **state)
{
    (void)state;
    for (int64_t lines = 2; lines <= 4096; lines = lines * 3 + 1) {
        int64_t words = lines * 32;
        uint32_t *next = malloc((size_t)words * sizeof *next);
        gbuf_cycle_fill(next, words, 0x5eedull + (uint64_t)lines);
        bool *seen = calloc((size_t)lines, sizeof *seen);
        uint32_t p = 0;
        for (int64_t step = 0; step < lines; step++) {
            assert_true(p % 32 == 0 && p < words);
            assert_false(seen[p / 32]);
            seen[p / 32] = true;
            p = next[p];
        }
        assert_int_equal(p, 0); /* back where it started, after every line */
        for (int64_t w = 0; w < words; w++)
            if (w % 32)
                assert_int_equal(next[w], 0);
        free(seen);
        free(next);
    }
}

/* ---------------------------------------------------------------- ncu */

static void test_ncu_parse_recorded(void **state)
{
    (void)state;
    size_t len;
    char *csv = slurp(NCU_CSV, &len);
    ncu_result r;
    assert_true(ncu_parse(csv, &r));
    free(csv);
    /* examples/coalescing.cu's columnRead, as Nsight Compute printed it on
     * an H100: 131,136 requests and 526,336 sectors. */
    const ncu_launch *l = ncu_find_launch(&r, "columnRead", 0);
    assert_non_null(l);
    assert_true(l->global_requests == 131136);
    assert_true(l->global_sectors == 526336);
    assert_true(l->shared_wavefronts == 0);
    assert_null(ncu_find_launch(&r, "columnRead", 5));
    assert_null(ncu_find_launch(&r, "noSuchKernel", 0));
    ncu_result_free(&r);
}

static void test_ncu_parse_quotes(void **state)
{
    (void)state;
    const char *csv =
        "program output line\n==PROF== Connected\n"
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"k(int, "
        "\"\"q\"\")\",\"smsp__thread_inst_executed_per_inst_executed.ratio\",\"\",\"16.5\"\n"
        "\"0\",\"k(int, "
        "\"\"q\"\")\",\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"%\",\"93.25\"\n"
        "\"1\",\"bank_x\",\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\",\"\",\"1,048,"
        "576\"\n"
        "\"1\",\"bank_x\",\"smsp__inst_executed_op_shared_ld.sum\",\"\",\"32,768\"\n"
        "\"2\",\"rf_vector_add\",\"dram__bytes_read.sum\",\"byte\",\"536,870,912\"\n"
        "\"2\",\"rf_vector_add\",\"dram__bytes_write.sum\",\"byte\",\"245,366,784\"\n"
        "\"2\",\"rf_vector_add\",\"smsp__inst_executed.sum\",\"inst\",\"35,651,584\"\n";
    ncu_result r;
    assert_true(ncu_parse(csv, &r));
    assert_int_equal(r.n, 3);
    /* The H200 record's rf_vector_add (tests/data/verify/h200-insts). */
    assert_true(r.launches[2].warp_insts == 35651584);
    assert_true(r.launches[0].warp_insts == -1);
    assert_string_equal(r.launches[0].kernel, "k");
    assert_true(r.launches[0].dram_read == -1);
    assert_true(r.launches[2].dram_read == 536870912 && r.launches[2].dram_write == 245366784);
    assert_true(r.launches[0].threads_per_inst == 16.5);
    assert_true(r.launches[0].achieved_occupancy_pct == 93.25);
    assert_true(r.launches[1].shared_wavefronts / r.launches[1].shared_loads == 32);
    assert_true(r.launches[1].global_sectors == -1); /* not reported */
    ncu_result_free(&r);
    assert_false(ncu_parse("no csv at all\n", &r));
    /* An empty ID on the first row (found by fuzz_verify) is a launch too. */
    const char *empty = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n"
                        "\"\",\"k\",\"smsp__thread_inst_executed_per_inst_executed.ratio\",\"2\"\n";
    assert_true(ncu_parse(empty, &r));
    assert_int_equal(r.n, 1);
    assert_true(r.launches[0].threads_per_inst == 2);
    ncu_result_free(&r);
}

/* ---------------------------------------------------------------- fp16 */

static void test_half_round_trip(void **state)
{
    (void)state;
    /* Every finite half converts to float and back unchanged. */
    for (uint32_t h = 0; h < 0x10000u; h++) {
        if ((h & 0x7c00u) == 0x7c00u)
            continue; /* inf, nan */
        float f = gbuf_half_to_float((uint16_t)h);
        if (gbuf_float_to_half(f) != h)
            fail_msg("half 0x%04x -> %g -> 0x%04x", h, (double)f, gbuf_float_to_half(f));
    }
    assert_true(gbuf_half_to_float(0x3c00) == 1.0f);
    assert_true(gbuf_half_to_float(0xc000) == -2.0f);
    assert_int_equal(gbuf_float_to_half(65504.0f), 0x7bff);
    assert_int_equal(gbuf_float_to_half(1e6f), 0x7c00);               /* overflow: inf */
    assert_int_equal(gbuf_float_to_half(1.0f + 1.0f / 2048), 0x3c00); /* tie to even */
    assert_int_equal(gbuf_float_to_half(1.0f + 3.0f / 2048), 0x3c02);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_residency_overlap),
        cmocka_unit_test(test_residency_boundaries),
        cmocka_unit_test(test_residency_many),
        cmocka_unit_test(test_clusters),
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_median),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_manifest_bundled),
        cmocka_unit_test(test_manifest_errors),
        cmocka_unit_test(test_manifest_values),
        cmocka_unit_test(test_cycle),
        cmocka_unit_test(test_ncu_parse_recorded),
        cmocka_unit_test(test_ncu_parse_quotes),
        cmocka_unit_test(test_half_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
