/* test_model: the model parsers' behaviour on good and broken input, and
 * the loader's name lookups. The values themselves are checked against
 * cuda_occupancy.h (test_occ_nvidia) and the GPU (tests/gpu). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"
#include "model/model_load.h"
#include "util/sbuf.h"

static const char good[] = "[arch]\nname = sm_99\nfamily = Test\ncompute_capability = 9.9\n"
                           "[threads]\nwarp_size = 32\nmax_threads_per_block = 1024\n"
                           "max_threads_per_sm = 2048 ; comment\nmax_blocks_per_sm = 32\n"
                           "max_block_dim = 1024 1024 64\nmax_grid_dim = 2147483647 65535 65535\n"
                           "[registers]\nper_sm = 64K\nper_block = 65536\nmax_per_thread = 255\n"
                           "alloc_unit = 256\nsub_partitions = 4\nlaunch_check_sub_partitions = 4\n"
                           "[shared_memory]\nper_sm = 228K\nper_block = 48K\n"
                           "per_block_optin = 227K\nreserved_per_block = 1K\nalloc_unit = 128\n"
                           "carveouts_kb = 0 8 16 32 64 100 132 164 196 228\n"
                           "[barriers]\nslots_per_block = 2\nmax_per_block = 16\n";

static bool parse_with(const char *from, const char *to, model_error *err);

static void test_good_arch(void **state)
{
    (void)state;
    gpu_arch a;
    model_error err;
    assert_true(model_parse_arch(good, strlen(good), &a, &err));
    assert_string_equal(a.name, "sm_99");
    assert_int_equal(a.cc_major, 9);
    assert_int_equal(a.cc_minor, 9);
    assert_int_equal(a.regs_per_sm, 65536);
    assert_int_equal(a.smem_per_sm, 228 * 1024);
    assert_int_equal(a.n_carveouts, 10);
    assert_int_equal(a.carveouts[9], 228 * 1024);
    assert_int_equal(a.max_block_dim[2], 64);
    assert_int_equal(a.unified_l1_per_sm, 0); /* optional, left out */
    model_error e2;
    assert_true(parse_with("carveouts_kb = 0 8 16 32 64 100 132 164 196 228\n",
                           "carveouts_kb = 0 8 16 32 64 100 132 164 196 228\n"
                           "unified_per_sm = 256K\n",
                           &e2));
}

/* Replace the first occurrence of `from` in the good file. */
static bool parse_with(const char *from, const char *to, model_error *err)
{
    char buf[4096];
    const char *at = strstr(good, from);
    assert_non_null(at);
    size_t head = (size_t)(at - good);
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)head, good, to, at + strlen(from));
    gpu_arch a;
    return model_parse_arch(buf, strlen(buf), &a, err);
}

static void test_errors_name_the_line(void **state)
{
    (void)state;
    model_error err;
    assert_false(parse_with("warp_size = 32", "warp_size = lots", &err));
    assert_int_equal(err.line, 6);
    assert_non_null(strstr(err.message, "warp_size"));
    assert_false(parse_with("alloc_unit = 256", "alloc_unt = 256", &err));
    assert_int_equal(err.line, 16);
    assert_non_null(strstr(err.message, "unknown key 'alloc_unt'"));
    assert_false(parse_with("[barriers]", "[barrier]", &err));
    assert_non_null(strstr(err.message, "unknown key"));
    assert_false(parse_with("family = Test\n", "family = Test\nfamily = Again\n", &err));
    assert_int_equal(err.line, 4);
    assert_non_null(strstr(err.message, "twice"));
    assert_false(parse_with("per_block = 65536\n", "", &err));
    assert_int_equal(err.line, 0);
    assert_non_null(strstr(err.message, "missing key 'per_block' in section [registers]"));
}

static void test_inconsistent_values_are_refused(void **state)
{
    (void)state;
    model_error err;
    /* Opt-in plus the reserved bytes cannot exceed the SM's shared memory. */
    assert_false(parse_with("per_block_optin = 227K", "per_block_optin = 228K", &err));
    assert_non_null(strstr(err.message, "exceed"));
    /* The largest carveout is the SM's shared memory. */
    assert_false(parse_with("164 196 228", "164 196", &err));
    /* Carveouts ascend. */
    assert_false(parse_with("0 8 16", "0 16 8", &err));
    assert_false(parse_with("compute_capability = 9.9", "compute_capability = nine", &err));
    assert_false(parse_with("per_sm = 64K", "per_sm = 99999999999999999999", &err));
    assert_false(parse_with("per_sm = 64K", "per_sm = -4", &err));
    /* The optional unified L1/shared size holds the largest carveout. */
    assert_false(parse_with("carveouts_kb = 0 8 16 32 64 100 132 164 196 228\n",
                            "carveouts_kb = 0 8 16 32 64 100 132 164 196 228\n"
                            "unified_per_sm = 200K\n",
                            &err));
    assert_non_null(strstr(err.message, "unified_per_sm"));
}

static void test_binary_and_empty_input(void **state)
{
    (void)state;
    gpu_arch a;
    model_error err;
    assert_false(model_parse_arch("", 0, &a, &err));
    const char junk[] = "\x01\x02[\xff\xfe]\n=\n";
    assert_false(model_parse_arch(junk, sizeof junk - 1, &a, &err));
}

static void test_machine_spec(void **state)
{
    (void)state;
    gpu_arch a;
    model_error err;
    assert_true(model_parse_machine_spec(
        "threads/sm=2048,regs/sm=65536,smem/sm=48K,blocks/sm=32,granularity=none", &a, &err));
    assert_int_equal(a.reg_alloc_unit, 0);
    assert_int_equal(a.smem_alloc_unit, 0);
    assert_int_equal(a.sub_partitions, 1);
    assert_int_equal(a.smem_per_block, 48 * 1024);
    assert_int_equal(a.regs_per_block, 65536);
    assert_true(a.hypothetical);
    assert_false(model_parse_machine_spec("threads/sm=lots", &a, &err));
    assert_false(model_parse_machine_spec("speed=9", &a, &err));
    assert_non_null(strstr(err.message, "unknown key 'speed'"));
    assert_false(model_parse_machine_spec("granularity=some", &a, &err));
    assert_false(model_parse_machine_spec("threads/sm", &a, &err));
    /* Per-block registers above the SM's register file make no sense. */
    assert_false(model_parse_machine_spec("regs/sm=1000,regs/block=2000", &a, &err));
}

static void test_arch_names(void **state)
{
    (void)state;
    char buf[32];
    static const char *const same[] = {"sm_90", "90", "9.0", "sm_90a", "compute_90", "sm90"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        assert_true(model_normalise_arch(same[i], buf, sizeof buf));
        assert_string_equal(buf, "sm_90");
    }
    assert_true(model_normalise_arch("sm_100f", buf, sizeof buf));
    assert_string_equal(buf, "sm_100");
    assert_true(model_normalise_arch("sm_101", buf, sizeof buf));
    assert_string_equal(buf, "sm_110");
    assert_false(model_normalise_arch("hopper", buf, sizeof buf));
    assert_false(model_normalise_arch("sm_9", buf, sizeof buf));
    assert_false(model_normalise_arch("9.x", buf, sizeof buf));
}

static const char product[] = "[product]\nid = x\nname = X\narch = sm_90\nsm_count = 6\n"
                              "base_clock_mhz = 1000\nboost_clock_mhz = 1500\nl2_bytes = 1M\n"
                              "%s\n[memory]\ntype = HBM\nclock_mhz = 1000\nbus_width_bits = 64\n"
                              "data_rate = 2\ndatasheet_bandwidth = 1T\n[throughput]\n"
                              "fp64 = 0\nfp32 = 0\nfp16 = 0\nbf16 = 0\nfp64_tensor = 0\n"
                              "tf32_tensor = 0\nfp16_tensor = 0\nbf16_tensor = 0\n"
                              "fp8_tensor = 0\nint8_tensor = 0\n[datasheet]\nfp64 = 0\n"
                              "fp32 = 0\nfp16 = 0\nbf16 = 0\nfp64_tensor = 0\ntf32_tensor = 0\n"
                              "fp16_tensor = 0\nbf16_tensor = 0\nfp8_tensor = 0\n"
                              "int8_tensor = 0\n";

static bool parse_product_with(const char *line, gpu_product *p, model_error *err)
{
    char text[2048];
    snprintf(text, sizeof text, product, line);
    return model_parse_product(text, strlen(text), p, err);
}

static void test_gpc_layout(void **state)
{
    (void)state;
    gpu_product p;
    model_error err;
    assert_true(parse_product_with("gpc_sms = 4 2", &p, &err));
    assert_int_equal(p.n_gpcs, 2);
    assert_int_equal(p.gpc_sms[1], 2);
    assert_true(parse_product_with("", &p, &err));
    assert_int_equal(p.n_gpcs, 0);
    assert_false(parse_product_with("gpc_sms = 4 4", &p, &err));
    assert_non_null(strstr(err.message, "not sm_count"));
    assert_false(parse_product_with("gpc_sms = 4 x", &p, &err));
    assert_non_null(strstr(err.message, "gpc_sms"));
    assert_false(parse_product_with("gpc_sms = 6 0", &p, &err));
    sbuf out;
    sbuf_init(&out);
    assert_true(parse_product_with("gpc_sms = 2 2 2", &p, &err));
    model_product_ini(&p, "product", &out);
    assert_non_null(strstr(sbuf_str(&out), "gpc_sms = 2 2 2\n"));
    sbuf_free(&out);
}

/* l1_store_merge: the k-th ratio lies between 1 (merged whole) and k (none
 * merged); a value outside, a word or more than MODEL_MAX_STORE_MERGE are
 * refused with the key named; the list is written back as read. */
static void test_store_merge(void **state)
{
    (void)state;
    gpu_product p;
    model_error err;
    assert_true(parse_product_with("[timing]\nl1_store_merge = 1 1.045 1.055 2.006", &p, &err));
    assert_int_equal(p.n_store_merge, 4);
    assert_true(p.l1_store_merge[3] > 2.005 && p.l1_store_merge[3] < 2.007);
    sbuf out;
    sbuf_init(&out);
    model_product_ini(&p, "timing", &out);
    assert_non_null(strstr(sbuf_str(&out), "l1_store_merge = 1 1.045 1.055 2.006\n"));
    sbuf_free(&out);
    assert_true(parse_product_with("", &p, &err));
    assert_int_equal(p.n_store_merge, 0);
    const char *bad[] = {"[timing]\nl1_store_merge = 1 2.5", "[timing]\nl1_store_merge = 0.9",
                         "[timing]\nl1_store_merge = 1 x",
                         "[timing]\nl1_store_merge = 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_false(parse_product_with(bad[i], &p, &err));
        assert_non_null(strstr(err.message, "l1_store_merge"));
    }
}

static void test_bundled_models_load(void **state)
{
    (void)state;
    model_db db;
    model_load_error err;
    assert_true(model_db_load(model_default_dir(), &db, &err));
    assert_int_equal(db.n_archs, 19);
    assert_true(db.n_products >= 14);
    /* Sorted by compute capability. */
    for (size_t i = 1; i < db.n_archs; i++)
        assert_true(db.archs[i - 1].cc_major * 10 + db.archs[i - 1].cc_minor <
                    db.archs[i].cc_major * 10 + db.archs[i].cc_minor);
    assert_non_null(model_find_product(&db, "H100-SXM"));
    assert_null(model_find_product(&db, "h100"));
    /* The optional L2 read bandwidth: the A100 whitepaper's 5120 B/clk
     * (V100 2048); absent elsewhere. */
    assert_int_equal(model_find_product(&db, "a100-sxm4-80gb")->l2_read_bytes_per_clock, 5120);
    assert_int_equal(model_find_product(&db, "v100-sxm2-16gb")->l2_read_bytes_per_clock, 2048);
    assert_int_equal(model_find_product(&db, "h100-sxm")->l2_read_bytes_per_clock, 0);
    /* Table 32's unified L1/shared memory: 256 KB on Hopper, 192 KB on
     * GA100, none given where shared memory is its own (Pascal). */
    assert_int_equal(model_find_cc(&db, 9, 0)->unified_l1_per_sm, 256 * 1024);
    assert_int_equal(model_find_cc(&db, 8, 0)->unified_l1_per_sm, 192 * 1024);
    assert_int_equal(model_find_cc(&db, 6, 1)->unified_l1_per_sm, 0);
    assert_ptr_equal(model_find_arch(&db, "9.0"), model_find_cc(&db, 9, 0));
    /* Clusters: sm_90's limits, the H200's measured GPC layout adding up
     * to its 132 SMs; none where nothing was measured. */
    assert_int_equal(model_find_cc(&db, 9, 0)->cluster_max_nonportable, 16);
    assert_int_equal(model_find_cc(&db, 8, 0)->cluster_max_portable, 0);
    const gpu_product *h200 = model_find_product(&db, "h200");
    assert_int_equal(h200->n_gpcs, 12);
    assert_int_equal(h200->gpc_sms[0], 18);
    assert_int_equal(model_find_product(&db, "a100-sxm4-80gb")->n_gpcs, 0);
    /* cudaDeviceProp as an H200 reported it (models/gpu/h200.ini's [2]:
     * 132 SMs, l2CacheSize 62914560, memoryBusWidth 6016; sm_90: 1024
     * threads a block, 227 KiB of opt-in shared memory a block; the grid's
     * and the block's largest dimensions, models/arch/sm_90.ini). */
    const char *names[MODEL_DEVICE_PROPS];
    int64_t values[MODEL_DEVICE_PROPS];
    int n = model_device_props(model_find_cc(&db, 9, 0), h200, names, values, MODEL_DEVICE_PROPS);
    const struct {
        const char *name;
        int64_t value;
    } want[] = {{"cudaDeviceProp.multiProcessorCount", 132},
                {"cudaDeviceProp.l2CacheSize", 62914560},
                {"cudaDeviceProp.memoryBusWidth", 6016},
                {"cudaDeviceProp.maxThreadsPerBlock", 1024},
                {"cudaDeviceProp.sharedMemPerBlockOptin", 232448},
                {"cudaDeviceProp.major", 9},
                {"cudaDeviceProp.maxGridSize[0]", 2147483647},
                {"cudaDeviceProp.maxGridSize[1]", 65535},
                {"cudaDeviceProp.maxThreadsDim[2]", 64}};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        int i = 0;
        while (i < n && strcmp(names[i], want[w].name))
            i++;
        assert_true(i < n);
        assert_int_equal(values[i], want[w].value);
    }
    /* Without a product the SM count is not known, and not made up. */
    n = model_device_props(model_find_cc(&db, 9, 0), NULL, names, values, MODEL_DEVICE_PROPS);
    for (int i = 0; i < n; i++)
        assert_string_not_equal(names[i], "cudaDeviceProp.multiProcessorCount");
    model_db_free(&db);
    assert_false(model_db_load("/nonexistent", &db, &err));
    model_db_free(&db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_arch),
        cmocka_unit_test(test_errors_name_the_line),
        cmocka_unit_test(test_inconsistent_values_are_refused),
        cmocka_unit_test(test_binary_and_empty_input),
        cmocka_unit_test(test_machine_spec),
        cmocka_unit_test(test_arch_names),
        cmocka_unit_test(test_gpc_layout),
        cmocka_unit_test(test_store_merge),
        cmocka_unit_test(test_bundled_models_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
