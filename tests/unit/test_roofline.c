/* test_roofline: the roofline arithmetic against answers worked by hand
 * (exercises 13.2 and 13.4 of the seed chapter), and the bundled H100 SXM
 * model against NVIDIA's datasheet figures, which are typed in here from
 * the datasheet rather than read from the model so they check it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/timing/roofline.h"
#include "config.h"
#include "model/model_load.h"
#include "util/sbuf.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))
/* Relative: |a - b| <= rel * |b|. */
#define assert_rel(a, b, rel) assert_true(fabs((a) - (b)) <= (rel)*fabs((double)(b)))

/* Exercise 13.4: 10 TFLOP/s FP32, 900 GB/s. Ridge = 10000 / 900. */
static void ex134_ridge(void **state)
{
    (void)state;
    assert_near(roofline_ridge(10e12, 900e9), 11.111, 0.001);
    char buf[32];
    assert_string_equal(roofline_fmt_num(roofline_ridge(10e12, 900e9), buf, sizeof buf), "11.1");
}

static void ex134_points(void **state)
{
    (void)state;
    roof_point p;
    /* GEMM, AI 50: right of the ridge, capped at the peak. */
    assert_true(roofline_point(10e12, 900e9, 50, &p));
    assert_int_equal(p.bound, ROOF_BOUND_COMPUTE);
    assert_near(p.attainable, 10e12, 1);
    assert_near(p.ridge_ratio, 4.5, 1e-9);
    /* Convolution, AI 20: still right of 11.1. */
    assert_true(roofline_point(10e12, 900e9, 20, &p));
    assert_int_equal(p.bound, ROOF_BOUND_COMPUTE);
    assert_near(p.attainable, 10e12, 1);
    assert_near(p.ridge_ratio, 1.8, 1e-9);
    /* Element-wise add, AI 0.125: 0.125 x 900 GB/s = 112.5 GFLOP/s. */
    assert_true(roofline_point(10e12, 900e9, 0.125, &p));
    assert_int_equal(p.bound, ROOF_BOUND_MEMORY);
    assert_near(p.attainable, 112.5e9, 1);
    assert_near(1 / p.ridge_ratio, 88.889, 0.001);
    char buf[64];
    assert_string_equal(roofline_fmt_si(p.attainable, "FLOP/s", buf, sizeof buf), "112.5 GFLOP/s");
    assert_string_equal(roofline_fmt_si(10e12, "FLOP/s", buf, sizeof buf), "10 TFLOP/s");
    assert_string_equal(roofline_fmt_si(900e9, "B/s", buf, sizeof buf), "900 GB/s");
}

/* At the ridge both roofs meet; either bound is right, we say compute. */
static void ridge_exactly(void **state)
{
    (void)state;
    roof_point p;
    assert_true(roofline_point(8e12, 1e12, 8, &p));
    assert_int_equal(p.bound, ROOF_BOUND_COMPUTE);
    assert_near(p.attainable, 8e12, 1);
    assert_near(p.ridge_ratio, 1.0, 1e-12);
    assert_true(roofline_point(8e12, 1e12, 7.999, &p));
    assert_int_equal(p.bound, ROOF_BOUND_MEMORY);
}

/* --flops 2.1e9 --bytes 4.5e6 on the exercise 13.4 machine: compute
 * 2.1e9 / 1e13 = 210 us, memory 4.5e6 / 9e11 = 5 us. */
static void kernel_min_time(void **state)
{
    (void)state;
    roof_kernel k;
    assert_true(roofline_kernel(10e12, 900e9, 2.1e9, 4.5e6, &k));
    assert_near(k.point.ai, 466.667, 0.001);
    assert_near(k.compute_time, 210e-6, 1e-12);
    assert_near(k.memory_time, 5e-6, 1e-12);
    assert_near(k.min_time, 210e-6, 1e-12);
    assert_int_equal(k.point.bound, ROOF_BOUND_COMPUTE);
    assert_near(roofline_min_time(10e12, 900e9, 2.1e9, 4.5e6), 210e-6, 1e-12);
    /* Element-wise add of 1M floats: 1M FLOPs, 12 MB; 13.3 us of memory. */
    assert_true(roofline_kernel(10e12, 900e9, 1e6, 12e6, &k));
    assert_int_equal(k.point.bound, ROOF_BOUND_MEMORY);
    assert_near(k.min_time, 12e6 / 900e9, 1e-15);
    char buf[32];
    assert_string_equal(roofline_fmt_time(210e-6, buf, sizeof buf), "210 \xc2\xb5s");
    assert_string_equal(roofline_fmt_time(1.5e-3, buf, sizeof buf), "1.5 ms");
}

static void bad_input(void **state)
{
    (void)state;
    roof_point p;
    roof_kernel k;
    roof_gemm g;
    assert_false(roofline_point(0, 900e9, 1, &p));
    assert_false(roofline_point(10e12, 0, 1, &p));
    assert_false(roofline_point(10e12, 900e9, -1, &p));
    assert_false(roofline_point(10e12, 900e9, NAN, &p));
    assert_false(roofline_kernel(10e12, 900e9, 0, 0, &k));
    assert_false(roofline_kernel(10e12, 900e9, -1, 10, &k));
    assert_true(roofline_min_time(0, 1, 1, 1) < 0);
    assert_near(roofline_ridge(0, 1), 0, 0);
    assert_false(roofline_gemm_tiled(0, 1, 1, 1, 4, &g));
    assert_false(roofline_gemm_tiled(64, 64, 64, 0, 4, &g));
    /* No DRAM bytes at all: infinitely intense, compute-bound. */
    assert_true(roofline_kernel(10e12, 900e9, 1e9, 0, &k));
    assert_true(isinf(k.point.ai));
    assert_int_equal(k.point.bound, ROOF_BOUND_COMPUTE);
}

/* Exercise 13.2: per T x T output tile 2T^2K FLOPs and 8TK + 4T^2 bytes
 * (float), so AI = 2T^2K / (8TK + 4T^2), which tends to T/4 for K >> T. */
static void ex132_tiled_gemm(void **state)
{
    (void)state;
    roof_gemm g;
    const double T = 32, K = 4096;
    assert_true(roofline_gemm_tiled(1024, 1024, K, T, 4, &g));
    double book = 2 * T * T * K / (8 * T * K + 4 * T * T);
    assert_rel(g.ai, book, 1e-12);
    assert_near(g.ai_limit, T / 4, 0);
    assert_near(g.blocks, (1024 / T) * (1024 / T), 0);
    assert_near(g.bytes_per_block, 8 * T * K + 4 * T * T, 0);
    /* The whole-matrix count is the per-block count times the blocks. */
    assert_rel(g.bytes, g.blocks * g.bytes_per_block, 1e-12);
    assert_rel(g.flops, 2.0 * 1024 * 1024 * K, 1e-12);
    assert_false(g.partial_tiles);
    /* K >> T: within 0.1% of T/4 once K is 10^4 T. */
    for (double t = 8; t <= 256; t *= 2) {
        assert_true(roofline_gemm_tiled(4096, 4096, t * 1e4, t, 4, &g));
        assert_rel(g.ai, t / 4, 1e-3);
        assert_true(g.ai < t / 4); /* approached from below */
    }
    /* Half-precision elements: the limit is T/2. */
    assert_true(roofline_gemm_tiled(4096, 4096, 1e7, 64, 2, &g));
    assert_rel(g.ai, 32, 1e-3);
    /* A tile that does not divide M is flagged. */
    assert_true(roofline_gemm_tiled(1000, 1024, 1024, 32, 4, &g));
    assert_true(g.partial_tiles);

    sbuf b;
    sbuf_init(&b);
    assert_true(roofline_gemm_tiled(4096, 4096, 4096, 32, 4, &g));
    roofline_explain_gemm(&g, &b);
    assert_non_null(strstr(sbuf_str(&b), "T / elem = 32 / 4 = 8 FLOP/B (T/4 for float)"));
    sbuf_free(&b);
}

/* A made-up product, so the formula and the choices are checked without
 * depending on a model file. */
static gpu_product toy(void)
{
    gpu_product p;
    memset(&p, 0, sizeof p);
    strcpy(p.id, "toy");
    strcpy(p.name, "Toy GPU");
    p.sm_count = 100;
    p.base_clock_mhz = 1000;
    p.boost_clock_mhz = 2000;
    p.mem_clock_mhz = 1000;
    p.mem_bus_width_bits = 4096;
    p.mem_data_rate = 2;
    p.flops_per_clock_per_sm[PREC_FP32] = 256;
    p.datasheet_flops[PREC_FP32] = 51.2e12; /* = 100 x 256 x 2 GHz */
    p.flops_per_clock_per_sm[PREC_FP16_TENSOR] = 4096;
    p.datasheet_flops[PREC_FP16_TENSOR] = 700e12; /* below 819.2 computed */
    p.datasheet_bandwidth = 1.0e12;               /* formula: 1.024e12 */
    return p;
}

static void ceilings_formula(void **state)
{
    (void)state;
    gpu_product p = toy();
    roof_ceilings c;
    const char *why;
    assert_true(roofline_ceilings(&p, PREC_FP32, ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &c, &why));
    assert_rel(c.flops.computed, 51.2e12, 1e-12);
    assert_false(c.flops.disagrees);
    assert_int_equal(c.flops.source, ROOF_SRC_DATASHEET);
    assert_rel(c.bandwidth.computed, 2 * 1e9 * 4096 / 8, 1e-12);
    /* 1.024 against 1.0 TB/s is 2.4% apart: flagged, datasheet used. */
    assert_true(c.bandwidth.disagrees);
    assert_int_equal(c.bandwidth.source, ROOF_SRC_DATASHEET);
    assert_rel(c.bandwidth.used, 1.0e12, 1e-12);

    /* Computed 819.2 T against a 700 T datasheet: flagged, both kept. */
    assert_true(
        roofline_ceilings(&p, PREC_FP16_TENSOR, ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &c, &why));
    assert_rel(c.flops.computed, 819.2e12, 1e-12);
    assert_true(c.flops.disagrees);
    assert_rel(c.flops.difference, 819.2 / 700 - 1, 1e-12);
    assert_rel(c.flops.used, 700e12, 1e-12);
    assert_rel(c.datasheet_clock_mhz, 700e12 / (100 * 4096) / 1e6, 1e-12);
    assert_true(
        roofline_ceilings(&p, PREC_FP16_TENSOR, ROOF_CLOCK_BOOST, ROOF_PREFER_COMPUTED, &c, &why));
    assert_rel(c.flops.used, 819.2e12, 1e-12);
    assert_int_equal(c.flops.source, ROOF_SRC_COMPUTED);
    assert_rel(c.bandwidth.used, 1.024e12, 1e-12);

    /* Base clock: the datasheet (a boost figure) is not comparable. */
    assert_true(roofline_ceilings(&p, PREC_FP32, ROOF_CLOCK_BASE, ROOF_PREFER_AUTO, &c, &why));
    assert_rel(c.flops.used, 25.6e12, 1e-12);
    assert_int_equal(c.flops.source, ROOF_SRC_COMPUTED);
    assert_false(c.flops.disagrees);

    /* Unsupported precision, unknown base clock, missing datasheet. */
    assert_false(roofline_ceilings(&p, PREC_FP64, ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &c, &why));
    assert_non_null(strstr(why, "no throughput"));
    p.base_clock_mhz = 0;
    assert_false(roofline_ceilings(&p, PREC_FP32, ROOF_CLOCK_BASE, ROOF_PREFER_AUTO, &c, &why));
    assert_non_null(strstr(why, "base clock"));
    p = toy();
    p.datasheet_bandwidth = 0;
    assert_false(
        roofline_ceilings(&p, PREC_FP32, ROOF_CLOCK_BOOST, ROOF_PREFER_DATASHEET, &c, &why));
    assert_true(roofline_ceilings(&p, PREC_FP32, ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &c, &why));
    assert_int_equal(c.bandwidth.source, ROOF_SRC_COMPUTED);

    /* A measured figure (gpulint verify, later) wins under AUTO. */
    p = toy();
    p.measured_bandwidth = 0.9e12;
    assert_true(roofline_ceilings(&p, PREC_FP32, ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &c, &why));
    assert_int_equal(c.bandwidth.source, ROOF_SRC_MEASURED);
    assert_rel(c.bandwidth.used, 0.9e12, 1e-12);
}

static void explain_text(void **state)
{
    (void)state;
    gpu_product p = toy();
    roof_ceilings c;
    const char *why;
    assert_true(
        roofline_ceilings(&p, PREC_FP16_TENSOR, ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &c, &why));
    sbuf b;
    sbuf_init(&b);
    roofline_explain_ceilings(&p, &c, &b);
    const char *s = sbuf_str(&b);
    assert_non_null(strstr(s, "100 x 4096 x 2000 MHz = 819.2 TFLOP/s"));
    assert_non_null(strstr(s, "DISAGREES"));
    assert_non_null(strstr(s, "using the datasheet figure: 700 TFLOP/s"));
    assert_non_null(strstr(s, "2 x 1000 MHz x 4096 bit / 8 = 1.024 TB/s"));
    sbuf_free(&b);

    roof_point pt;
    sbuf_init(&b);
    roofline_point(10e12, 900e9, 0.125, &pt);
    roofline_explain_point(10e12, 900e9, &pt, &b);
    assert_non_null(strstr(sbuf_str(&b), "0.125 x 900 GB/s = 112.5 GFLOP/s"));
    assert_non_null(strstr(sbuf_str(&b), "memory-bound"));
    sbuf_free(&b);
}

/* ---- against the bundled models ---------------------------------------- */

static model_db db;
static bool db_loaded;

static int load_models(void **state)
{
    (void)state;
    model_load_error err;
    memset(&err, 0, sizeof err);
    db_loaded = model_db_load(GPULINT_SOURCE_MODELS, &db, &err);
    if (!db_loaded)
        fprintf(stderr, "models: %s: %s\n", err.path, err.err.message);
    return 0;
}

static int free_models(void **state)
{
    (void)state;
    if (db_loaded)
        model_db_free(&db);
    return 0;
}

static const gpu_product *product(const char *id)
{
    if (!db_loaded)
        return NULL;
    return model_find_product(&db, id);
}

static double ceiling(const gpu_product *p, model_precision prec, roof_prefer prefer,
                      roof_ceilings *c)
{
    const char *why;
    assert_true(roofline_ceilings(p, prec, ROOF_CLOCK_BOOST, prefer, c, &why));
    return c->flops.used;
}

/* NVIDIA H100 datasheet, SXM column (dense = half the sparse figures):
 * FP64 34 TF, FP32 67 TF, FP16/BF16 Tensor 1979/2 = 989.5 TF, 3.35 TB/s. */
static void h100_sxm_datasheet(void **state)
{
    (void)state;
    const gpu_product *p = product("h100-sxm");
    assert_non_null(p);
    roof_ceilings c;
    /* The vector rates and the bandwidth follow from SMs x rate x clock
     * (1980 MHz) and 2 x 2619 MHz x 5120 bit within 2%. */
    ceiling(p, PREC_FP32, ROOF_PREFER_COMPUTED, &c);
    assert_rel(c.flops.computed, 67e12, 0.02);
    assert_false(c.flops.disagrees);
    ceiling(p, PREC_FP64, ROOF_PREFER_COMPUTED, &c);
    assert_rel(c.flops.computed, 34e12, 0.02);
    assert_rel(c.bandwidth.computed, 3.35e12, 0.02);
    assert_false(c.bandwidth.disagrees);
    /* What the roofline uses by default. */
    assert_rel(ceiling(p, PREC_FP32, ROOF_PREFER_AUTO, &c), 67e12, 0.02);
    assert_rel(ceiling(p, PREC_FP64, ROOF_PREFER_AUTO, &c), 34e12, 0.02);
    assert_rel(ceiling(p, PREC_FP16_TENSOR, ROOF_PREFER_AUTO, &c), 989.5e12, 0.02);
    assert_rel(ceiling(p, PREC_BF16_TENSOR, ROOF_PREFER_AUTO, &c), 989.5e12, 0.02);
    assert_rel(c.bandwidth.used, 3.35e12, 0.02);
    /* NVIDIA quotes the tensor rates at 1830 MHz, not the 1980 MHz boost
     * clock, so the formula at boost lands 8.2% high and must be flagged. */
    ceiling(p, PREC_FP16_TENSOR, ROOF_PREFER_COMPUTED, &c);
    assert_rel(c.flops.computed, 132 * 4096 * 1980e6, 1e-9);
    assert_true(c.flops.disagrees);
    assert_rel(c.datasheet_clock_mhz, 1830, 0.002);
}

/* The chapter says the ridge ("AI_critical") is about 74 FLOP/B for A100
 * and 132 for H100, both "FP16". With FP16 Tensor Core (dense) peaks and
 * DRAM bandwidth from NVIDIA's datasheets the ridges are 153 (A100 SXM4
 * 80GB), 201 (A100 40GB) and 295 (H100 SXM); docs/roofline.md says why the
 * book's figures cannot be reproduced. This pins what the models give. */
static void chapter_ridges(void **state)
{
    (void)state;
    roof_ceilings c;
    const gpu_product *a80 = product("a100-sxm4-80gb"), *a40 = product("a100-pcie-40gb");
    const gpu_product *h = product("h100-sxm");
    assert_non_null(a80);
    assert_non_null(a40);
    assert_non_null(h);
    double peak = ceiling(a80, PREC_FP16_TENSOR, ROOF_PREFER_AUTO, &c);
    double r = roofline_ridge(peak, c.bandwidth.used);
    assert_rel(r, 312e12 / 2039e9, 0.001); /* 153 */
    peak = ceiling(a40, PREC_FP16_TENSOR, ROOF_PREFER_AUTO, &c);
    r = roofline_ridge(peak, c.bandwidth.used);
    assert_rel(r, 312e12 / 1555e9, 0.001); /* 200.6 */
    peak = ceiling(h, PREC_FP16_TENSOR, ROOF_PREFER_AUTO, &c);
    r = roofline_ridge(peak, c.bandwidth.used);
    assert_rel(r, 989.5e12 / 3.35e12, 0.001); /* 295.4 */
    /* Neither book figure is within 10% of the FLOP/byte ridge. */
    assert_true(fabs(r - 132) / r > 0.10);
    /* Non-tensor FP16 gives 38.3 (A100 80GB) and 39.9 (H100): not it
     * either. */
    peak = ceiling(a80, PREC_FP16, ROOF_PREFER_AUTO, &c);
    r = roofline_ridge(peak, c.bandwidth.used);
    assert_rel(r, 78e12 / 2039e9, 0.001);
    peak = ceiling(h, PREC_FP16, ROOF_PREFER_AUTO, &c);
    r = roofline_ridge(peak, c.bandwidth.used);
    assert_rel(r, 133.8e12 / 3.35e12, 0.001);
}

/* Rectangular (or coarsened) tiles, worked by hand: 4096^3 with 32 x 128
 * tiles reads A once per column of tiles (MNK/TN) and B once per row
 * (MNK/TM): 4 x (2^36/128 + 2^36/32 + 2^24) = 10,804,527,104 B, AI =
 * 2^37 / that = 12.72, tending to 2 x 32 x 128 / (4 x 160) = 12.8. A square
 * tile given as TM = TN is the square formula. */
static void rect_tiled_gemm(void **state)
{
    (void)state;
    roof_gemm g;
    assert_true(roofline_gemm_rect(4096, 4096, 4096, 32, 128, 4, &g));
    assert_float_equal(g.bytes, 10804527104.0, 0.5);
    assert_float_equal(g.flops, 137438953472.0, 0.5);
    assert_float_equal(g.ai, 137438953472.0 / 10804527104.0, 1e-12);
    assert_float_equal(g.ai_limit, 12.8, 1e-12);
    assert_float_equal(g.blocks, 4096, 1e-12);
    assert_float_equal(g.bytes_per_block, 4.0 * (32 * 4096 + 4096 * 128 + 32 * 128), 0.5);
    assert_true(g.tile == 0);
    roof_gemm sq, r;
    assert_true(roofline_gemm_tiled(1024, 1024, 1024, 32, 4, &sq));
    assert_true(roofline_gemm_rect(1024, 1024, 1024, 32, 32, 4, &r));
    assert_float_equal(sq.bytes, r.bytes, 0);
    assert_float_equal(sq.ai_limit, r.ai_limit, 0);
    assert_false(roofline_gemm_rect(64, 64, 64, 32, 0, 4, &r));
}

int main(void)
{
    const struct CMUnitTest pure[] = {
        cmocka_unit_test(ex134_ridge),     cmocka_unit_test(ex134_points),
        cmocka_unit_test(ridge_exactly),   cmocka_unit_test(kernel_min_time),
        cmocka_unit_test(bad_input),       cmocka_unit_test(ex132_tiled_gemm),
        cmocka_unit_test(rect_tiled_gemm), cmocka_unit_test(ceilings_formula),
        cmocka_unit_test(explain_text),
    };
    const struct CMUnitTest models[] = {
        cmocka_unit_test(h100_sxm_datasheet),
        cmocka_unit_test(chapter_ridges),
    };
    int failed = cmocka_run_group_tests_name("roofline", pure, NULL, NULL);
    failed += cmocka_run_group_tests_name("roofline_models", models, load_models, free_models);
    return failed;
}
