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
    {"vector add", 1.0 / 12, 3.35e12 / 12, CHART_POINT_PREDICTED},
    {"tiled GEMM", 8, 26.8e12, CHART_POINT_PREDICTED},
    {"tiled GEMM", 8, 20e12, CHART_POINT_MEASURED},
};

static void roofline_files(void **state)
{
    (void)state;
    char path[256], err[CHART_ERR_MAX] = "";
    chart_roofline c = {"Roofline: test", "ceilings as given", compute, 2, memory, 1, points, 3};
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
    chart_roofline c = {"t", NULL, compute, 2, memory, 1, points, 1};
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(roofline_files),
        cmocka_unit_test(refuses),
        cmocka_unit_test(occupancy_files),
    };
    return cmocka_run_group_tests_name("chart", tests, make_dir, remove_dir);
}
