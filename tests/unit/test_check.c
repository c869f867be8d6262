/* test_check: the policy of `gpulint check` without nvcc: thresholds
 * (strict limits, the cumulative -rdc stack, occupancy at --block or at the
 * best size), baseline regressions keyed by (arch, mangled name), the
 * baseline reader's acceptance and its error messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/check/check_rules.h"
#include "input/baseline_json.h"

/* A clean kernel: 32 registers, no stack or spills, 100% at its best size. */
static check_kernel kernel(const char *name, const char *demangled, const char *arch)
{
    return (check_kernel){.name = name,
                          .demangled = demangled,
                          .arch = arch,
                          .registers = 32,
                          .cumulative_stack = -1,
                          .has_occupancy = true,
                          .block = 1024,
                          .occupancy = 1.0};
}

static check_result run(const check_kernel *k, size_t n, const check_limits *lim, const baseline *b)
{
    check_result r;
    check_run(k, n, lim, b, false, &r);
    return r;
}

static void test_display_name(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"hungry(float*, float const*, int)", "hungry"},
        {"transpose<32>(float*, float const*)", "transpose<32>"},
        {"void ns::gemm<64>(float*, int)", "ns::gemm<64>"},
        {"void f<unsigned int>(unsigned int)", "f<unsigned int>"},
        {"(anonymous namespace)::k(int)", "(anonymous namespace)::k"},
        {"k<(char)1>(int (*)(int))", "k<(char)1>"},
        {"void cub::Kernel<cub::P<(int)5>, void (*)(int)>(int)",
         "cub::Kernel<cub::P<(int)5>, void (*)(int)>"},
        {"saxpy", "saxpy"},
        {"_Z9transposeILi32EEvPfPK", "_Z9transposeILi32EEvPfPK"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[256];
        check_display_name(cases[i][0], buf, sizeof buf);
        assert_string_equal(buf, cases[i][1]);
    }
    char small[6];
    check_display_name("transpose<32>(float*)", small, sizeof small);
    assert_string_equal(small, "trans");
}

static void test_no_limits_no_violations(void **state)
{
    (void)state;
    check_kernel k = kernel("_Z1kv", "k()", "sm_80");
    k.registers = 255;
    k.spill_stores = 1000;
    k.stack = 1 << 20;
    k.occupancy = 0.01;
    check_limits lim = CHECK_LIMITS_NONE;
    check_result r = run(&k, 1, &lim, NULL);
    assert_int_equal(r.n, 0);
    assert_int_equal(r.n_errors, 0);
    check_result_free(&r);
}

static void test_max_regs_is_strict(void **state)
{
    (void)state;
    check_kernel k[2] = {kernel("_Z1av", "a()", "sm_80"), kernel("_Z1bv", "b()", "sm_80")};
    k[0].registers = 128;
    k[1].registers = 168;
    check_limits lim = CHECK_LIMITS_NONE;
    lim.max_regs = 128;
    check_result r = run(k, 2, &lim, NULL);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.n_errors, 1);
    assert_int_equal(r.v[0].kernel, 1);
    assert_int_equal(r.v[0].kind, CHECK_MAX_REGS);
    assert_string_equal(r.v[0].message, "kernel 'b' uses 168 registers (limit 128)");
    check_result_free(&r);
    /* --max-regs 0 is a real limit, not "off". */
    lim.max_regs = 0;
    r = run(k, 2, &lim, NULL);
    assert_int_equal(r.n_errors, 2);
    check_result_free(&r);
}

static void test_spills_either_direction(void **state)
{
    (void)state;
    check_kernel k[3] = {kernel("_Z1av", "a()", "sm_80"), kernel("_Z1bv", "b()", "sm_80"),
                         kernel("_Z1cv", "c()", "sm_80")};
    k[0].spill_stores = 4;
    k[1].spill_loads = 8;
    check_limits lim = CHECK_LIMITS_NONE;
    lim.no_spills = true;
    check_result r = run(k, 3, &lim, NULL);
    assert_int_equal(r.n_errors, 2);
    assert_int_equal(r.v[0].kind, CHECK_SPILLS);
    assert_string_equal(r.v[0].message, "kernel 'a' spills registers to local memory: 4 bytes "
                                        "stored, 0 bytes loaded (limit: no spills)");
    assert_int_equal(r.v[1].kernel, 1);
    check_result_free(&r);
}

static void test_stack_uses_cumulative(void **state)
{
    (void)state;
    check_kernel k[3] = {kernel("_Z1av", "a()", "sm_80"), kernel("_Z1bv", "b()", "sm_80"),
                         kernel("_Z1cv", "c()", "sm_80")};
    k[0].stack = 24; /* -rdc: its callees need more */
    k[0].cumulative_stack = 128;
    k[1].stack = 96; /* not -rdc: no cumulative line */
    k[2].stack = 64; /* exactly at the limit */
    k[2].cumulative_stack = 64;
    check_limits lim = CHECK_LIMITS_NONE;
    lim.max_stack = 64;
    check_result r = run(k, 3, &lim, NULL);
    assert_int_equal(r.n_errors, 2);
    assert_string_equal(r.v[0].message,
                        "kernel 'a' uses 128 bytes of stack including its callees (limit 64)");
    assert_string_equal(r.v[1].message, "kernel 'b' uses 96 bytes of stack (limit 64)");
    check_result_free(&r);
}

static void test_min_occupancy(void **state)
{
    (void)state;
    check_kernel k[5] = {kernel("_Z1av", "a()", "sm_80"), kernel("_Z1bv", "b()", "sm_80"),
                         kernel("_Z1cv", "c()", "sm_80"), kernel("_Z1dv", "d()", "sm_80"),
                         kernel("_Z1ev", "e()", "sm_35")};
    k[0].block = 896; /* best block, not given */
    k[0].occupancy = 0.4375;
    k[1].launch_given = true; /* --block 256 */
    k[1].block = 256;
    k[1].occupancy = 0.375;
    k[2].launch_given = true;
    k[2].block = 2048;
    k[2].occupancy = 0.0;
    k[2].launch_failure = "too many threads";
    k[3].block = 0; /* nothing launches */
    k[3].occupancy = 0.0;
    k[4].has_occupancy = false; /* no model for sm_35 */
    check_limits lim = CHECK_LIMITS_NONE;
    lim.min_occupancy = 50.0;
    check_result r = run(k, 5, &lim, NULL);
    assert_int_equal(r.n, 5);
    assert_int_equal(r.n_errors, 4);
    assert_string_equal(r.v[0].message, "kernel 'a' reaches at most 43.8% occupancy, at its "
                                        "best block size of 896 threads (limit 50%)");
    assert_string_equal(
        r.v[1].message,
        "kernel 'b' reaches 37.5% occupancy with 256 threads per block (limit 50%)");
    assert_string_equal(r.v[2].message, "kernel 'c' cannot launch with 2048 threads per block: "
                                        "too many threads (limit 50% occupancy)");
    assert_string_equal(r.v[3].message,
                        "kernel 'd' cannot launch with any block size (limit 50% occupancy)");
    assert_false(r.v[4].is_error);
    assert_int_equal(r.v[4].kind, CHECK_OCCUPANCY_UNKNOWN);
    check_result_free(&r);
    /* At the limit passes; fractional limits print as given. */
    lim.min_occupancy = 43.75;
    r = run(k, 1, &lim, NULL);
    assert_int_equal(r.n, 0);
    check_result_free(&r);
    lim.min_occupancy = 43.76;
    r = run(k, 1, &lim, NULL);
    assert_int_equal(r.n_errors, 1);
    assert_non_null(strstr(r.v[0].message, "(limit 43.76%)"));
    check_result_free(&r);
}

static void test_arch_named_when_asked(void **state)
{
    (void)state;
    check_kernel k = kernel("_Z1kv", "k()", "sm_90a");
    k.registers = 40;
    check_limits lim = CHECK_LIMITS_NONE;
    lim.max_regs = 32;
    check_result r;
    check_run(&k, 1, &lim, NULL, true, &r);
    assert_string_equal(r.v[0].message, "kernel 'k' on sm_90a uses 40 registers (limit 32)");
    check_result_free(&r);
}

/* A baseline built in memory, as baseline_from_json would. */
static baseline_kernel bk(const char *name, const char *arch, int regs)
{
    return (baseline_kernel){.name = (char *)name,
                             .arch = (char *)arch,
                             .registers = regs,
                             .has_best = true,
                             .best_block = 1024,
                             .best_occupancy = 1.0};
}

static void test_regressions(void **state)
{
    (void)state;
    baseline_kernel bks[3] = {bk("_Z1kv", "sm_90", 16), bk("_Z1kv", "sm_80", 32),
                              bk("_Z1mv", "sm_80", 64)};
    bks[1].spill_stores = 8;
    bks[1].spill_loads = 24;
    bks[1].stack = 16;
    baseline b = {bks, 3};
    check_limits lim = CHECK_LIMITS_NONE;

    /* Same numbers as the sm_80 entry: nothing, although sm_90's has fewer
     * registers (the key includes the arch). */
    check_kernel k = kernel("_Z1kv", "k()", "sm_80");
    k.spill_stores = 8;
    k.spill_loads = 24;
    k.stack = 16;
    check_result r = run(&k, 1, &lim, &b);
    assert_int_equal(r.n, 0);
    check_result_free(&r);

    /* Improvements are not reported. */
    k.registers = 30;
    k.spill_stores = 0;
    k.spill_loads = 0;
    k.stack = 0;
    r = run(&k, 1, &lim, &b);
    assert_int_equal(r.n, 0);
    check_result_free(&r);

    /* Everything worse at once. */
    k.registers = 40;
    k.spill_stores = 16; /* stores grew, loads fell: still a regression */
    k.spill_loads = 16;
    k.stack = 32;
    k.occupancy = 0.5;
    k.block = 512;
    r = run(&k, 1, &lim, &b);
    assert_int_equal(r.n, 4);
    assert_int_equal(r.n_errors, 4);
    assert_int_equal(r.v[0].kind, CHECK_REGRESSED_REGISTERS);
    assert_string_equal(r.v[0].message, "kernel 'k' uses 40 registers, up from 32 in the baseline");
    assert_int_equal(r.v[1].kind, CHECK_REGRESSED_SPILLS);
    assert_string_equal(r.v[1].message, "kernel 'k' spills more: 16 bytes stored, 16 bytes "
                                        "loaded, up from 8 and 24 in the baseline");
    assert_int_equal(r.v[2].kind, CHECK_REGRESSED_STACK);
    assert_string_equal(r.v[2].message,
                        "kernel 'k' has a 32-byte stack frame, up from 16 in the baseline");
    assert_int_equal(r.v[3].kind, CHECK_REGRESSED_OCCUPANCY);
    assert_string_equal(r.v[3].message,
                        "best occupancy of kernel 'k' dropped to 50.0% (at 512 threads per block), "
                        "from 100.0% (at 1024) in the baseline");
    for (size_t i = 0; i < r.n; i++)
        assert_string_equal(check_rule_id(r.v[i].kind), "gpulint-regression");
    check_result_free(&r);

    /* Spills appearing where there were none. */
    check_kernel m = kernel("_Z1mv", "m()", "sm_80");
    m.registers = 64;
    m.spill_loads = 4;
    r = run(&m, 1, &lim, &b);
    assert_int_equal(r.n, 1);
    assert_string_equal(r.v[0].message, "kernel 'm' now spills registers: 0 bytes stored, 4 bytes "
                                        "loaded (none in the baseline)");
    check_result_free(&r);
}

static void test_new_kernel_is_a_note(void **state)
{
    (void)state;
    baseline_kernel bks[1] = {bk("_Z1kv", "sm_80", 32)};
    baseline b = {bks, 1};
    check_kernel k[2] = {kernel("_Z1kv", "k()", "sm_90"), kernel("_Z1nv", "n()", "sm_80")};
    k[0].registers = 255;
    check_limits lim = CHECK_LIMITS_NONE;
    check_result r = run(k, 2, &lim, &b);
    assert_int_equal(r.n, 2);
    assert_int_equal(r.n_errors, 0);
    assert_int_equal(r.v[0].kind, CHECK_NOT_IN_BASELINE);
    assert_false(r.v[0].is_error);
    assert_string_equal(r.v[1].message,
                        "kernel 'n' is not in the baseline; nothing to compare it with");
    check_result_free(&r);
    /* ...but the limits still apply to it. */
    lim.max_regs = 128;
    r = run(k, 1, &lim, &b);
    assert_int_equal(r.n_errors, 1);
    assert_int_equal(r.v[0].kind, CHECK_MAX_REGS);
    check_result_free(&r);
}

static void test_occupancy_like_for_like(void **state)
{
    (void)state;
    baseline_kernel one = bk("_Z1kv", "sm_80", 32);
    one.n_at = 2;
    one.at[0] = (baseline_occ_at){256, 0.75};
    one.at[1] = (baseline_occ_at){192, 2.0 / 3.0};
    baseline b = {&one, 1};
    check_limits lim = CHECK_LIMITS_NONE;
    check_kernel k = kernel("_Z1kv", "k()", "sm_80");
    k.launch_given = true;

    k.block = 256;
    k.occupancy = 0.5;
    check_result r = run(&k, 1, &lim, &b);
    assert_int_equal(r.n_errors, 1);
    assert_string_equal(r.v[0].message, "occupancy of kernel 'k' with 256 threads per block "
                                        "dropped to 50.0%, from 75.0% in the baseline");
    check_result_free(&r);

    /* A size the baseline never recorded is not compared (not with the
     * best either: that is a different question). */
    k.block = 128;
    k.occupancy = 0.1;
    r = run(&k, 1, &lim, &b);
    assert_int_equal(r.n, 0);
    check_result_free(&r);

    /* 2/3 was stored as 0.666667; the recomputed value must not regress. */
    one.at[1].occupancy = 0.666667;
    k.block = 192;
    k.occupancy = 2.0 / 3.0;
    r = run(&k, 1, &lim, &b);
    assert_int_equal(r.n, 0);
    check_result_free(&r);

    k.block = 256;
    k.occupancy = 0.0;
    k.launch_failure = "too many resources requested for launch";
    r = run(&k, 1, &lim, &b);
    assert_int_equal(r.n_errors, 1);
    assert_string_equal(r.v[0].message,
                        "kernel 'k' can no longer launch with 256 threads per block (too many "
                        "resources requested for launch); the baseline reached 75.0%");
    check_result_free(&r);

    /* No model today, or none when the baseline was written: no comparison. */
    k.has_occupancy = false;
    r = run(&k, 1, &lim, &b);
    assert_int_equal(r.n, 0);
    check_result_free(&r);
    check_kernel best = kernel("_Z1kv", "k()", "sm_80");
    best.occupancy = 0.25;
    one.has_best = false;
    r = run(&best, 1, &lim, &b);
    assert_int_equal(r.n, 0);
    check_result_free(&r);
}

static bool parse(const char *text, baseline *b, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *root = json_loads(text, 0, &jerr);
    assert_non_null(root);
    bool ok = baseline_from_json(root, b, err, errlen);
    json_decref(root);
    return ok;
}

static void test_baseline_from_json(void **state)
{
    (void)state;
    char err[256];
    baseline b;
    assert_true(parse("{\"kernels\": [{\"name\": \"_Z1kv\", \"arch\": \"sm_80\", \"registers\": 40,"
                      " \"stack\": 8, \"spill_stores\": 0, \"spill_loads\": 4,"
                      " \"occupancy\": {\"threads_per_block\": 256, \"occupancy\": 0.5},"
                      " \"best_block\": {\"threads_per_block\": 768, \"occupancy\": 0.75},"
                      " \"occupancy_by_block\": {\"128\": 0.75, \"256\": 0.75, \"1024\": 1}},"
                      " {\"name\": \"saxpy\", \"arch\": \"sm_90\", \"registers\": 10, \"stack\": 0,"
                      " \"spill_stores\": 0, \"spill_loads\": 0, \"occupancy\": null,"
                      " \"best_block\": null}]}",
                      &b, err, sizeof err));
    assert_int_equal(b.n, 2);
    const baseline_kernel *k = baseline_find(&b, "sm_80", "_Z1kv");
    assert_non_null(k);
    assert_int_equal(k->registers, 40);
    assert_int_equal(k->stack, 8);
    assert_int_equal(k->spill_loads, 4);
    assert_true(k->has_best);
    assert_int_equal(k->best_block, 768);
    double occ;
    /* The block in use wins over occupancy_by_block for the same size. */
    assert_true(baseline_occupancy_at(k, 256, &occ));
    assert_true(occ == 0.5);
    assert_true(baseline_occupancy_at(k, 1024, &occ));
    assert_true(occ == 1.0);
    assert_false(baseline_occupancy_at(k, 512, &occ));
    assert_null(baseline_find(&b, "sm_90", "_Z1kv"));
    const baseline_kernel *s = baseline_find(&b, "sm_90", "saxpy");
    assert_non_null(s);
    assert_false(s->has_best);
    assert_int_equal(s->n_at, 0);
    baseline_free(&b);

    assert_true(parse("{\"kernels\": []}", &b, err, sizeof err));
    assert_int_equal(b.n, 0);
    baseline_free(&b);
}

static void test_baseline_rejects(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"[]", "not a gpulint report: no 'kernels' array (write one with 'gpulint FILE.cu "
               "--format json')"},
        {"{\"kernels\": {}}", "not a gpulint report: no 'kernels' array (write one with "
                              "'gpulint FILE.cu --format json')"},
        {"{\"kernels\": [3]}", "kernels[0]: not an object"},
        {"{\"kernels\": [{\"arch\": \"sm_80\"}]}",
         "kernels[0]: 'name' is missing or not a non-empty string"},
        {"{\"kernels\": [{\"name\": \"k\", \"arch\": \"\"}]}",
         "kernels[0]: 'arch' is missing or not a non-empty string"},
        {"{\"kernels\": [{\"name\": \"k\", \"arch\": \"sm_80\", \"registers\": -1}]}",
         "kernels[0]: 'registers' is missing or not a non-negative integer"},
        {"{\"kernels\": [{\"name\": \"k\", \"arch\": \"sm_80\", \"registers\": 1.5}]}",
         "kernels[0]: 'registers' is missing or not a non-negative integer"},
        {"{\"kernels\": [{\"name\": \"k\", \"arch\": \"sm_80\", \"registers\": 8, \"stack\": 0,"
         " \"spill_stores\": 0}]}",
         "kernels[0]: 'spill_loads' is missing or not a non-negative integer"},
        {"{\"kernels\": [{\"name\": \"k\", \"arch\": \"sm_80\", \"registers\": 8, \"stack\": 0,"
         " \"spill_stores\": 0, \"spill_loads\": 0, \"occupancy\": {\"occupancy\": 1.5,"
         " \"threads_per_block\": 256}}]}",
         "kernels[0]: 'occupancy' is malformed"},
        {"{\"kernels\": [{\"name\": \"k\", \"arch\": \"sm_80\", \"registers\": 8, \"stack\": 0,"
         " \"spill_stores\": 0, \"spill_loads\": 0, \"occupancy_by_block\": {\"x\": 1}}]}",
         "kernels[0]: 'occupancy_by_block' is malformed"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256] = "";
        baseline b;
        assert_false(parse(cases[i][0], &b, err, sizeof err));
        assert_string_equal(err, cases[i][1]);
        assert_int_equal(b.n, 0);
        assert_null(b.kernels);
    }
}

static void test_baseline_load_errors(void **state)
{
    (void)state;
    char path[] = "/tmp/gpulint-test-check-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "{\n  \"kernels\": [\n    {\"name\": \"k\",}\n  ]\n}\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char err[512], want[512];
    baseline b;
    assert_false(baseline_load(path, &b, err, sizeof err));
    /* Line 3, column 18: the '}' after the trailing comma. */
    snprintf(want, sizeof want, "%s:3:18: invalid JSON: string or '}' expected near '}'", path);
    assert_string_equal(err, want);
    unlink(path);
    assert_false(baseline_load(path, &b, err, sizeof err));
    snprintf(want, sizeof want, "%s: no such file", path);
    assert_string_equal(err, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_display_name),
        cmocka_unit_test(test_no_limits_no_violations),
        cmocka_unit_test(test_max_regs_is_strict),
        cmocka_unit_test(test_spills_either_direction),
        cmocka_unit_test(test_stack_uses_cumulative),
        cmocka_unit_test(test_min_occupancy),
        cmocka_unit_test(test_arch_named_when_asked),
        cmocka_unit_test(test_regressions),
        cmocka_unit_test(test_new_kernel_is_a_note),
        cmocka_unit_test(test_occupancy_like_for_like),
        cmocka_unit_test(test_baseline_from_json),
        cmocka_unit_test(test_baseline_rejects),
        cmocka_unit_test(test_baseline_load_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
