/* test_chart: the charts render to real SVG and PNG files of plausible
 * size, the file extension picks the format, and anything else is refused.
 * Whether they look right is checked by eye (docs/img). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "model/model_load.h"
#include "report/chart.h"
#include "report/roof_plot.h"

static char dir[] = "/tmp/gpulint-chart-XXXXXX";

static int make_dir(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    return rmdir(dir);
}

/* Reads the file into a malloc'd buffer; *n = its size. */
static char *slurp(const char *path, long *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)*n + 1);
    if (fread(buf, 1, (size_t)*n, f) != (size_t)*n) {
        free(buf);
        buf = NULL;
    } else {
        buf[*n] = '\0';
    }
    fclose(f);
    return buf;
}

static void check_png(const char *path, long min_size)
{
    long n = 0;
    char *b = slurp(path, &n);
    assert_non_null(b);
    assert_true(n >= min_size);
    assert_memory_equal(b, "\x89PNG\r\n\x1a\n", 8);
    assert_memory_equal(b + 12, "IHDR", 4);
    /* 2x rendering: width and height in the header are big-endian. */
    unsigned w = (unsigned char)b[16] << 24 | (unsigned char)b[17] << 16 |
                 (unsigned char)b[18] << 8 | (unsigned char)b[19];
    assert_true(w >= 1000);
    assert_non_null(memmem(b, (size_t)n, "IEND", 4));
    free(b);
    unlink(path);
}

static void check_svg(const char *path, long min_size)
{
    long n = 0;
    char *b = slurp(path, &n);
    assert_non_null(b);
    assert_true(n >= min_size);
    assert_non_null(strstr(b, "<svg"));
    assert_non_null(strstr(b, "</svg>"));
    free(b);
    unlink(path);
}

static const chart_roof compute[] = {{"FP32", 67e12, NULL}, {"FP16 Tensor Core", 989.5e12, NULL}};
static const chart_roof memory[] = {{"HBM3", 3.35e12, "B/s"}};
static const chart_point points[] = {
    {"vector add", 1.0 / 12, 3.35e12 / 12, CHART_POINT_PREDICTED, 0, false},
    {"tiled GEMM", 8, 26.8e12, CHART_POINT_PREDICTED, 0, false},
    {"tiled GEMM", 8, 20e12, CHART_POINT_MEASURED, 0, false},
};

static void roofline_files(void **state)
{
    (void)state;
    char path[256], err[CHART_ERR_MAX] = "";
    chart_roofline c = {
        "Roofline: test", "ceilings as given", compute, 2, memory, 1, points, 3, NULL, false};
    if (!chart_available()) {
        snprintf(path, sizeof path, "%s/r.png", dir);
        assert_false(chart_roofline_write(&c, path, err, sizeof err));
        assert_non_null(strstr(err, "without cairo"));
        skip();
    }
    snprintf(path, sizeof path, "%s/r.png", dir);
    assert_true(chart_roofline_write(&c, path, err, sizeof err));
    check_png(path, 20000);
    snprintf(path, sizeof path, "%s/r.SVG", dir);
    assert_true(chart_roofline_write(&c, path, err, sizeof err));
    check_svg(path, 5000);
}

static void refuses(void **state)
{
    (void)state;
    char path[256], err[CHART_ERR_MAX] = "";
    chart_format f;
    assert_true(chart_format_from_path("a.svg", &f) && f == CHART_SVG);
    assert_true(chart_format_from_path("dir.x/a.PNG", &f) && f == CHART_PNG);
    assert_false(chart_format_from_path("a.pdf", &f));
    assert_false(chart_format_from_path("a.svg/", &f));
    assert_false(chart_format_from_path("noext", &f));
    chart_roofline c = {"t", NULL, compute, 2, memory, 1, points, 1, NULL, false};
    snprintf(path, sizeof path, "%s/r.jpg", dir);
    assert_false(chart_roofline_write(&c, path, err, sizeof err));
    assert_true(strlen(err) > 0);
    if (!chart_available())
        return;
    assert_non_null(strstr(err, ".svg or .png"));
    assert_int_equal(access(path, F_OK), -1);
    /* A directory that does not exist. */
    snprintf(path, sizeof path, "%s/no/such/dir/r.png", dir);
    assert_false(chart_roofline_write(&c, path, err, sizeof err));
    assert_non_null(strstr(err, "cannot"));
    /* No memory roof. */
    c.n_memory = 0;
    snprintf(path, sizeof path, "%s/r.png", dir);
    assert_false(chart_roofline_write(&c, path, err, sizeof err));
}

static void occupancy_files(void **state)
{
    (void)state;
    model_db db;
    model_load_error lerr;
    memset(&lerr, 0, sizeof lerr);
    assert_true(model_db_load(GPULINT_SOURCE_MODELS, &db, &lerr));
    const gpu_arch *a = model_find_arch(&db, "sm_90");
    assert_non_null(a);
    occ_kernel k = {.regs_per_thread = 40, .static_smem = 16384, .barriers = 0};
    occ_launch l = {.threads_per_block = 256, .carveout_percent = -1};
    char path[256], err[CHART_ERR_MAX] = "";
    snprintf(path, sizeof path, "%s/o.png", dir);
    if (!chart_available()) {
        assert_false(chart_occupancy(a, &k, &l, NULL, path, err, sizeof err));
        model_db_free(&db);
        skip();
    }
    assert_true(chart_occupancy(a, &k, &l, NULL, path, err, sizeof err));
    check_png(path, 20000);
    snprintf(path, sizeof path, "%s/o.svg", dir);
    assert_true(chart_occupancy(a, &k, &l, "sm_90 (test)", path, err, sizeof err));
    check_svg(path, 5000);
    /* A launch that cannot run still draws the curves. */
    k.regs_per_thread = 255;
    l.threads_per_block = 1024;
    snprintf(path, sizeof path, "%s/o2.png", dir);
    assert_true(chart_occupancy(a, &k, &l, NULL, path, err, sizeof err));
    check_png(path, 20000);
    model_db_free(&db);
}

/* The hierarchical roofline of a launch worked by hand: 1e9 FLOPs in
 * 0.5 ms (2 TFLOP/s); DRAM the estimate's 1.25e8 B (AI 8), not the
 * compulsory 1e8; L2 4e8 + 1e8 B (AI 2); L1 (3e7 + 1e6) sectors = 9.92e8 B
 * (AI 1.008). The H100 SXM's L1 roof is 128 B a clock on 132 SMs at
 * 1980 MHz. A launch with the old numeric dram_bytes takes the compulsory
 * sector (6400 FLOPs / 32 B = AI 200) and has no L1 or L2 point; a launch
 * whose FLOPs are an expression gets no point. */
static void hierarchical(void **state)
{
    (void)state;
    model_db db;
    model_load_error lerr;
    memset(&lerr, 0, sizeof lerr);
    assert_true(model_db_load(GPULINT_SOURCE_MODELS, &db, &lerr));
    const gpu_product *p = model_find_product(&db, "h100-sxm");
    assert_non_null(p);
    json_error_t je;
    json_t *roof = json_loads(
        "[{\"kernel\": \"k\", \"line\": 7, \"predicted_time_s\": 5e-4,"
        "  \"flops\": {\"fp16\": 0, \"fp32\": 1000000000, \"fp64\": 0, \"tensor\": 0},"
        "  \"dram_compulsory_bytes\": {\"read_sectors\": 2500000, \"write\": 20000000},"
        "  \"dram_bytes\": {\"bytes\": 125000000, \"label\": \"estimate\"},"
        "  \"l2_bytes\": {\"read\": 400000000, \"write\": 100000000},"
        "  \"l1_traffic\": {\"global_load\": {\"sectors\": 30000000},"
        "                   \"global_store\": {\"sectors\": 1000000}}},"
        " {\"kernel\": \"old\", \"line\": 8, \"predicted_time_s\": 1e-3, \"dram_bytes\": 64,"
        "  \"flops\": {\"fp16\": 0, \"fp32\": 6400, \"fp64\": 0, \"tensor\": 0},"
        "  \"dram_compulsory_bytes\": {\"read_sectors\": 1, \"write\": 0}},"
        " {\"kernel\": \"sym\", \"line\": 9, \"predicted_time_s\": 1e-3,"
        "  \"flops\": {\"fp16\": 0, \"fp32\": \"2 * n\", \"fp64\": 0, \"tensor\": 0}}]",
        0, &je);
    assert_non_null(roof);
    roof_plot rp;
    char why[160] = "";
    assert_true(roof_plot_build(roof, p, &rp, why, sizeof why));
    assert_int_equal(rp.launches, 2);
    assert_int_equal(rp.chart.n_points, 4);
    assert_float_equal(rp.chart.points[3].ai, 200, 1e-9);
    assert_int_equal(rp.chart.points[3].level, 1);
    assert_false(rp.chart.points[3].joins_previous);
    const double ai[3] = {8, 2, 1e9 / 9.92e8};
    for (int i = 0; i < 3; i++) {
        assert_float_equal(rp.chart.points[i].ai, ai[i], 1e-9 * ai[i]);
        assert_float_equal(rp.chart.points[i].flops, 2e12, 1);
        assert_int_equal(rp.chart.points[i].level, i + 1);
        assert_int_equal(rp.chart.points[i].joins_previous, i > 0);
    }
    assert_string_equal(rp.chart.points[0].label, "k:7 DRAM, 2 TFLOP/s");
    assert_string_equal(rp.chart.points[2].label, "L1");
    assert_float_equal(rp.chart.memory[ROOF_PLOT_L1].value, 128.0 * 132 * 1980e6, 1);
    assert_float_equal(rp.chart.memory[ROOF_PLOT_L2].value, p->l2_read_bandwidth, 1);
    char path[256], err[CHART_ERR_MAX] = "";
    snprintf(path, sizeof path, "%s/h.svg", dir);
    if (chart_available()) {
        assert_true(chart_roofline_write(&rp.chart, path, err, sizeof err));
        check_svg(path, 5000);
    }
    roof_plot_free(&rp);
    json_decref(roof);
    model_db_free(&db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(roofline_files),
        cmocka_unit_test(refuses),
        cmocka_unit_test(occupancy_files),
        cmocka_unit_test(hierarchical),
    };
    return cmocka_run_group_tests_name("chart", tests, make_dir, remove_dir);
}
