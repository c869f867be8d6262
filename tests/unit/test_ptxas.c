/* test_ptxas: the ptxas log parser against real logs (tests/data/ptxas, see
 * SOURCES.md there). Every expected number below is one ptxas, nvlink or
 * NVRTC printed in those logs; the synthetic inputs only check that odd
 * input is survived and reported, never believed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "input/ptxas.h"
#include "util/sbuf.h"

#ifndef PTXAS_DATA
#error "PTXAS_DATA (the tests/data/ptxas directory) must be defined by the build"
#endif

static char *slurp(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", PTXAS_DATA, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    sbuf b;
    sbuf_init(&b);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sbuf_addn(&b, chunk, n);
    fclose(f);
    *len = b.len;
    char *s = sbuf_take(&b);
    return s ? s : xstrdup("");
}

static void parse_file(const char *name, ptxas_log *log)
{
    size_t len;
    char *text = slurp(name, &len);
    assert_true(ptxas_parse(text, len, log));
    free(text);
}

static void parse_str(const char *text, ptxas_log *log)
{
    assert_true(ptxas_parse(text, strlen(text), log));
}

static const ptxas_kernel *get(const ptxas_log *log, const char *name, const char *arch)
{
    const ptxas_kernel *k = ptxas_find(log, name, arch);
    if (!k)
        fail_msg("no record for %s / %s", name, arch ? arch : "(any)");
    return k;
}

static void no_warnings(const ptxas_log *log)
{
    for (size_t i = 0; i < log->n_warnings; i++)
        print_message("unexpected warning, line %d: %s\n", log->warnings[i].line,
                      log->warnings[i].text);
    assert_int_equal(log->n_warnings, 0);
}

static bool has_warning(const ptxas_log *log, int line, const char *needle)
{
    for (size_t i = 0; i < log->n_warnings; i++)
        if (log->warnings[i].line == line && strstr(log->warnings[i].text, needle))
            return true;
    return false;
}

/* ---- CUDA 13.0 nvcc, five -gencode arches ------------------------------ */

static void test_multiarch(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda13_multiarch.log", &log);
    no_warnings(&log);
    assert_int_equal(log.n_lines, 180);
    assert_int_equal(log.n_kernels, 35); /* 7 kernels x 5 arches */

    /* Same kernel, different arch, different register count. */
    assert_int_equal(get(&log, "_Z12stack_kernelPfPKi", "sm_75")->registers, 61);
    assert_int_equal(get(&log, "_Z12stack_kernelPfPKi", "sm_80")->registers, 30);
    assert_int_equal(get(&log, "_Z12stack_kernelPfPKi", "sm_100")->registers, 30);
    assert_int_equal(get(&log, "_Z12stack_kernelPfPKi", "sm_120")->registers, 38);

    const ptxas_kernel *k = get(&log, "_Z14named_barriersPf", "sm_75");
    assert_true(k->is_entry);
    assert_int_equal(k->registers, 10);
    assert_int_equal(k->barriers, 3);
    assert_int_equal(k->static_smem, 1024);
    assert_int_equal(k->cmem[0], 360);
    assert_int_equal(get(&log, "_Z14named_barriersPf", "sm_90")->registers, 12);
    assert_int_equal(get(&log, "_Z14named_barriersPf", "sm_120")->barriers, 3);

    k = get(&log, "_Z4coopPf", "sm_100");
    assert_int_equal(k->registers, 11);
    assert_int_equal(k->barriers, 1);

    k = get(&log, "_Z9transposeILi32EEvPfPKf", "sm_80");
    assert_int_equal(k->registers, 15);
    assert_int_equal(k->static_smem, 4224);
    assert_int_equal(k->barriers, 1);
    assert_int_equal(get(&log, "_Z9transposeILi16EEvPfPKf", "sm_80")->static_smem, 1088);

    /* extern "C": plain name. The module line `260 bytes gmem, 64 bytes
     * cmem[3], 16 bytes cmem[4]` is shared by every kernel of the module. */
    k = get(&log, "saxpy", "sm_75");
    assert_string_equal(k->name, "saxpy");
    assert_int_equal(k->registers, 10);
    assert_int_equal(k->cmem[0], 376);
    assert_int_equal(k->cmem[3], 64);
    assert_int_equal(k->cmem[4], 16);
    assert_int_equal(k->cmem[2], -1);
    assert_int_equal(k->gmem, 260);
    assert_int_equal(k->line, 22);
    assert_int_equal(k->stack, 0);
    assert_int_equal(k->spill_stores, 0);
    assert_int_equal(k->spill_loads, 0);
    assert_int_equal(k->cumulative_stack, -1);
    assert_int_equal(k->lmem, -1);
    assert_false(k->from_nvlink);

    /* sm_90 and later print no cmem at all, and a bare gmem module line. */
    k = get(&log, "saxpy", "sm_90");
    assert_int_equal(k->registers, 12);
    for (int b = 0; b < 32; b++)
        assert_int_equal(k->cmem[b], -1);
    assert_int_equal(k->gmem, 260);

    /* Bindless textures are not counted by ptxas. */
    k = get(&log, "_Z10tex_kernelPfyy", "sm_75");
    assert_int_equal(k->registers, 11);
    assert_int_equal(k->textures, 0);
    assert_int_equal(k->surfaces, 0);
    ptxas_log_free(&log);
}

static void test_spill(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda13_spill_maxrreg16.log", &log);
    no_warnings(&log); /* `ptxas warning` and `Overriding ...` lines are not resources */
    assert_int_equal(log.n_kernels, 2);
    const ptxas_kernel *k = get(&log, "_Z6hungryPfPKfi", "sm_80");
    assert_int_equal(k->registers, 24);
    assert_int_equal(k->stack, 248);
    assert_int_equal(k->spill_stores, 480);
    assert_int_equal(k->spill_loads, 532);
    assert_int_equal(k->cumulative_stack, 248);
    assert_int_equal(k->cmem[0], 372);
    k = get(&log, "_Z6hungryPfPKfi", "sm_90");
    assert_int_equal(k->spill_loads, 536);
    assert_int_equal(k->cmem[0], -1);
    ptxas_log_free(&log);
}

/* -rdc=true -Xnvlink -v: device functions come before the module's first
 * entry, and nvlink's per-target numbers replace ptxas's. */
static void test_rdc_nvlink(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda13_rdc_nvlink.log", &log);
    no_warnings(&log);
    assert_int_equal(log.n_kernels, 8);

    const ptxas_kernel *k = get(&log, "_Z10rdc_kernelPfi", "sm_80");
    assert_true(k->is_entry);
    assert_true(k->from_nvlink);
    assert_int_equal(k->registers, 46); /* ptxas said 24 */
    assert_int_equal(k->stack, 0);
    assert_int_equal(k->static_smem, 0);
    assert_int_equal(k->cmem[0], 364);
    assert_int_equal(k->lmem, 0);
    assert_int_equal(k->gmem, 128);
    assert_int_equal(get(&log, "_Z10rdc_kernelPfi", "sm_90")->cmem[0], 540);

    k = get(&log, "rdc_other", "sm_80");
    assert_int_equal(k->registers, 46);
    assert_int_equal(k->stack, 136); /* ptxas: 0 bytes stack frame; nvlink adds the callee */
    assert_int_equal(k->cmem[0], 360);
    assert_int_equal(get(&log, "rdc_other", "sm_90")->cmem[0], 536);

    k = get(&log, "_Z7recursefi", "sm_80");
    assert_false(k->is_entry);
    assert_false(k->from_nvlink);
    assert_int_equal(k->stack, 104);
    assert_int_equal(k->spill_stores, 32);
    assert_int_equal(k->spill_loads, 32);
    assert_int_equal(k->line, 2);
    assert_non_null(ptxas_find(&log, "_Z7recursefi", "sm_90"));
    assert_int_equal(get(&log, "_Z6helperfi", "sm_90")->stack, 136);
    ptxas_log_free(&log);
}

static void test_rdc_device_only(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda13_rdc_devonly.log", &log);
    no_warnings(&log);
    assert_int_equal(log.n_kernels, 1);
    /* No entry, so ptxas never names the arch. */
    const ptxas_kernel *k = get(&log, "_Z8only_devPfi", "");
    assert_false(k->is_entry);
    assert_int_equal(k->stack, 40);
    ptxas_log_free(&log);
}

static void test_arch_suffixes(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda13_arch_suffix.log", &log);
    no_warnings(&log);
    assert_int_equal(log.n_kernels, 3);
    assert_int_equal(get(&log, "_Z6kern_aPf", "sm_90a")->registers, 8);
    assert_int_equal(get(&log, "_Z6kern_aPf", "sm_100f")->registers, 8);
    assert_int_equal(get(&log, "_Z6kern_aPf", "sm_120a")->line, 14);
    assert_null(ptxas_find(&log, "_Z6kern_aPf", "sm_90"));
    ptxas_log_free(&log);
}

static void test_textures_surfaces_samplers(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda13_texref_ptx.log", &log);
    no_warnings(&log);
    const ptxas_kernel *k = get(&log, "tex_indep", "sm_75");
    assert_int_equal(k->textures, 1);
    assert_int_equal(k->surfaces, 1);
    assert_int_equal(k->samplers, 1);
    k = get(&log, "tex_unified", "sm_75");
    assert_int_equal(k->textures, 1);
    assert_int_equal(k->surfaces, 1);
    assert_int_equal(k->samplers, 0);
    k = get(&log, "tex_two", "sm_75");
    assert_int_equal(k->registers, 12);
    assert_int_equal(k->cmem[0], 372);
    assert_int_equal(k->textures, 2);
    assert_int_equal(k->surfaces, 1);
    assert_int_equal(k->samplers, 2);
    k = get(&log, "tex_two", "sm_90"); /* sm_90 ptxas prints no counts */
    assert_int_equal(k->registers, 14);
    assert_int_equal(k->textures, 0);
    ptxas_log_free(&log);
}

/* NVRTC program log: the stack-frame line is prefixed `ptxas .`. */
static void test_nvrtc(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda13_nvrtc_sm80.log", &log);
    no_warnings(&log);
    assert_int_equal(log.n_kernels, 4);
    const ptxas_kernel *k = get(&log, "_Z5scaleILi64EEvPff", "sm_80");
    assert_int_equal(k->registers, 10);
    assert_int_equal(k->static_smem, 256);
    assert_int_equal(k->barriers, 1);
    assert_int_equal(k->cmem[0], 364);
    k = get(&log, "uses_helper", "sm_80");
    assert_int_equal(k->registers, 32);
    assert_int_equal(k->stack, 128);
    assert_int_equal(k->cumulative_stack, 128);
    k = get(&log, "_Z10dev_helperPii", "sm_80");
    assert_false(k->is_entry);
    assert_int_equal(k->line, 12);
    assert_int_equal(get(&log, "add_one", "sm_80")->registers, 8);
    ptxas_log_free(&log);
}

/* nvJitLink's info log: bare `info :` link lines without any arch. */
static void test_nvjitlink(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda13_nvjitlink.log", &log);
    no_warnings(&log);
    assert_int_equal(log.n_lines, 24); /* no newline after the last line */
    assert_int_equal(log.n_kernels, 4);
    const ptxas_kernel *k = get(&log, "rdc_other", "sm_80");
    assert_true(k->from_nvlink);
    assert_int_equal(k->registers, 46);
    assert_int_equal(k->stack, 136);
    assert_int_equal(k->gmem, 128);
    k = get(&log, "_Z10rdc_kernelPfi", "sm_80");
    assert_int_equal(k->registers, 46);
    assert_int_equal(k->cmem[0], 364);
    ptxas_log_free(&log);
}

/* ---- older formats -------------------------------------------------------- */

static void test_cuda10_nvlink_without_target(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda10_clang_openmp_nvlink.log", &log);
    no_warnings(&log); /* the ptxas/nvlink command lines are noise */
    assert_int_equal(log.n_kernels, 1);
    const ptxas_kernel *k = get(&log, "__omp_offloading_10305_40788d_main_l23", "sm_60");
    assert_true(k->from_nvlink);
    assert_int_equal(k->registers, 32);
    assert_int_equal(k->static_smem, 1142); /* nvlink's; ptxas printed no smem */
    assert_int_equal(k->gmem, 674280665);
    assert_int_equal(k->cmem[0], 352);
    assert_int_equal(k->cmem[2], 4);
    assert_int_equal(k->lmem, 0);
    assert_int_equal(k->line, 7);
    ptxas_log_free(&log);
}

static void test_cuda11_nvlink_targets(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda11_nvlink_targets.log", &log);
    no_warnings(&log);
    assert_int_equal(log.n_kernels, 4);
    const ptxas_kernel *k = get(&log, "_Z21convolution_kernel_v3PfS_S_iii", "sm_75");
    assert_true(k->is_entry);
    assert_true(k->from_nvlink);
    assert_int_equal(k->registers, 38);
    assert_int_equal(k->cmem[0], 388);
    assert_int_equal(k->cmem[3], 65536);
    assert_int_equal(k->gmem, 144);
    assert_int_equal(get(&log, "_Z21convolution_kernel_v3PfS_S_iii", "sm_52")->registers, 29);
    assert_int_equal(get(&log, "_Z21convolution_kernel_v1PfS_S_iii", "sm_52")->cmem[0], 356);
    ptxas_log_free(&log);
}

static void test_cuda5_lmem_textures(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda5_sm30_lmem_textures.log", &log);
    no_warnings(&log);
    assert_int_equal(log.n_kernels, 4);
    const ptxas_kernel *k = get(&log, "_Z20kepler_blake256_hashPmjPjb", "sm_30");
    assert_int_equal(k->registers, 55);
    assert_int_equal(k->cmem[0], 345);
    assert_int_equal(k->cmem[2], 4);
    assert_int_equal(k->lmem, -1);
    assert_int_equal(get(&log, "_Z22nv_scrypt_core_kernelAILi1EEvPjii", "sm_30")->lmem, 84);
    k = get(&log, "_Z25nv_scrypt_core_kernelB_LGILi0ELi2EEvPjiij", "sm_30");
    assert_int_equal(k->registers, 63);
    assert_int_equal(k->lmem, 104);
    assert_int_equal(k->textures, 1);
    assert_int_equal(k->cmem[2], 4);
    ptxas_log_free(&log);
}

static void test_indented_module_cmem(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda11_sm80_indented_textures.log", &log);
    no_warnings(&log);
    assert_int_equal(log.n_kernels, 3);
    const ptxas_kernel *k = get(&log, "_Z28fermi_scrypt_core_kernelB_LGILi0EEvPjjj", "sm_80");
    assert_int_equal(k->stack, 176);
    assert_int_equal(k->spill_stores, 452);
    assert_int_equal(k->spill_loads, 456);
    assert_int_equal(k->cmem[3], 32768);
    assert_int_equal(k->gmem, 0);
    k = get(&log, "_Z32fermi_scrypt_core_kernelB_LG_texILi1ELi2EEvPjjj", "sm_80");
    assert_int_equal(k->textures, 1);
    assert_int_equal(k->cmem[0], 372);
    ptxas_log_free(&log);
}

static void test_cuda4_bank16(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda4_sm20_cmem16.log", &log);
    no_warnings(&log);
    const ptxas_kernel *k = get(&log, "_Z17kArgMaxColumnwisePfS_jj", "sm_20");
    assert_int_equal(k->registers, 20);
    assert_int_equal(k->static_smem, 256);
    assert_int_equal(k->cmem[16], 4);
    assert_int_equal(get(&log, "_Z5kSignPfS_j", "sm_20")->cmem[0], 52);
    ptxas_log_free(&log);
}

static void test_cuda3_plus_sums(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda3_sm13_plus_smem.log", &log);
    no_warnings(&log);
    const ptxas_kernel *k = get(&log, "_Z22calc_benchmark_func_f1PdS_", "sm_13");
    assert_int_equal(k->static_smem, 8 + 16);
    assert_int_equal(k->cmem[14], 8);
    k = get(&log, "_Z7initRNGj", "sm_13");
    assert_int_equal(k->registers, 18);
    assert_int_equal(k->lmem, 6440);
    assert_int_equal(k->static_smem, 4 + 16);
    assert_int_equal(k->cmem[0], 64928);
    assert_int_equal(k->cmem[1], 40);
    ptxas_log_free(&log);
}

static void test_cuda2_no_arch(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda2_noarch_tab.log", &log);
    no_warnings(&log);
    assert_int_equal(log.n_kernels, 1);
    const ptxas_kernel *k = get(&log, "_Z5tT_1DPfS_S_j", "");
    assert_true(k->is_entry);
    assert_int_equal(k->registers, 47);
    assert_int_equal(k->lmem, 60);
    assert_int_equal(k->static_smem, 28 + 16);
    assert_int_equal(k->cmem[1], 352);
    ptxas_log_free(&log);
}

static void test_msvc_prefix(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda91_msvc_sm50.log", &log);
    no_warnings(&log);
    assert_int_equal(log.n_kernels, 4);
    const ptxas_kernel *k =
        get(&log,
            "_Z14digit_last_wdcILj9ELj1248ELi9ELj2E13packer_cantorLj64ELj8ELj4EEvP4equiIXT_EXT0_EE",
            "sm_50");
    assert_int_equal(k->registers, 255);
    assert_int_equal(k->stack, 296);
    assert_int_equal(k->spill_stores, 176);
    assert_int_equal(k->spill_loads, 312);
    assert_int_equal(k->cumulative_stack, 312);
    assert_int_equal(k->static_smem, 8192);
    assert_int_equal(k->cmem[2], 4);
    k = get(&log, "cudaMalloc", "sm_50");
    assert_false(k->is_entry);
    assert_int_equal(k->stack, 8);
    assert_int_equal(k->registers, 0);
    k = get(&log, "_Z7digit_4ILj9ELj1248ELi12E13packer_cantorLj2048ELj640EEvP4equiIXT_EXT0_EE",
            "sm_50");
    assert_int_equal(k->registers, 55);
    assert_int_equal(k->cumulative_stack, 168);
    assert_int_equal(k->static_smem, 41480);
    ptxas_log_free(&log);
}

/* ---- build-log noise and line endings ----------------------------------- */

static void assert_same(const ptxas_log *a, const ptxas_log *b)
{
    assert_int_equal(a->n_kernels, b->n_kernels);
    for (size_t i = 0; i < a->n_kernels; i++) {
        const ptxas_kernel *x = &a->kernels[i], *y = &b->kernels[i];
        assert_string_equal(x->name, y->name);
        assert_string_equal(x->arch, y->arch);
        assert_int_equal(x->is_entry, y->is_entry);
        assert_int_equal(x->registers, y->registers);
        assert_int_equal(x->static_smem, y->static_smem);
        assert_int_equal(x->stack, y->stack);
        assert_int_equal(x->cumulative_stack, y->cumulative_stack);
        assert_int_equal(x->spill_stores, y->spill_stores);
        assert_int_equal(x->spill_loads, y->spill_loads);
        assert_int_equal(x->lmem, y->lmem);
        assert_int_equal(x->barriers, y->barriers);
        assert_int_equal(x->textures, y->textures);
        assert_int_equal(x->surfaces, y->surfaces);
        assert_int_equal(x->samplers, y->samplers);
        assert_memory_equal(x->cmem, y->cmem, sizeof x->cmem);
        assert_int_equal(x->gmem, y->gmem);
        assert_int_equal(x->from_nvlink, y->from_nvlink);
        assert_int_equal(x->line, y->line);
    }
}

/* Rewrites every line of a real log with a prefix and a line ending. */
static char *decorate(const char *text, const char *prefix, const char *eol)
{
    sbuf b;
    sbuf_init(&b);
    const char *s = text;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        sbuf_add(&b, prefix);
        sbuf_addn(&b, s, n);
        sbuf_add(&b, eol);
        s += n + (nl ? 1 : 0);
    }
    return sbuf_take(&b);
}

static void check_decorated(const char *file, const char *prefix, const char *eol)
{
    size_t len;
    char *text = slurp(file, &len);
    char *noisy = decorate(text, prefix, eol);
    ptxas_log clean, dirty;
    assert_true(ptxas_parse(text, len, &clean));
    assert_true(ptxas_parse(noisy, strlen(noisy), &dirty));
    no_warnings(&dirty);
    assert_int_equal(clean.n_lines, dirty.n_lines);
    assert_same(&clean, &dirty);
    ptxas_log_free(&clean);
    ptxas_log_free(&dirty);
    free(text);
    free(noisy);
}

static void test_noise_and_line_endings(void **state)
{
    (void)state;
    static const char *files[] = {"cuda13_multiarch.log", "cuda13_rdc_nvlink.log",
                                  "cuda13_nvrtc_sm80.log", "cuda10_clang_openmp_nvlink.log"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        check_decorated(files[i], "", "\r\n");
        check_decorated(files[i], "", "\r");
        check_decorated(files[i], "2024-05-01T12:00:00.1234567Z ", "\r\n");
        check_decorated(files[i], "[ 50%] ", "\n");
        check_decorated(files[i], "/src/kernels/k1.cu(12): ", "\n");
    }
}

/* A build log is often several compilations of the same TU back to back. */
static void test_repeated_compilation(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp("cuda13_spill_maxrreg16.log", &len);
    sbuf b;
    sbuf_init(&b);
    sbuf_addn(&b, text, len);
    sbuf_addn(&b, text, len);
    ptxas_log log;
    assert_true(ptxas_parse(b.data, b.len, &log));
    no_warnings(&log);
    assert_int_equal(log.n_kernels, 2);
    const ptxas_kernel *k = get(&log, "_Z6hungryPfPKfi", "sm_80");
    assert_int_equal(k->spill_loads, 532);
    assert_int_equal(k->line, 16 + 4);
    ptxas_log_free(&log);
    sbuf_free(&b);
    free(text);
}

static void test_find(void **state)
{
    (void)state;
    ptxas_log log;
    parse_file("cuda13_multiarch.log", &log);
    const ptxas_kernel *k = ptxas_find(&log, "saxpy", NULL);
    assert_non_null(k);
    assert_string_equal(k->arch, "sm_75"); /* first in the log */
    assert_null(ptxas_find(&log, "saxpy", "sm_61"));
    assert_null(ptxas_find(&log, "no_such_kernel", NULL));
    assert_null(ptxas_find(&log, "_Z9transposeILi32EEvPfPKf", "sm_8"));
    ptxas_log_free(&log);
}

/* ---- what the parser must report instead of believing -------------------- */

static void test_unknown_token_warns(void **state)
{
    (void)state;
    ptxas_log log;
    /* A real sm_75 line with a made-up item spliced in. */
    parse_str("ptxas info    : Compiling entry function 'saxpy' for 'sm_75'\n"
              "ptxas info    : Used 10 registers, 3 widgets, used 0 barriers, 376 bytes cmem[0]\n",
              &log);
    assert_int_equal(log.n_kernels, 1);
    assert_int_equal(log.n_warnings, 1);
    assert_true(has_warning(&log, 2, "widgets"));
    const ptxas_kernel *k = get(&log, "saxpy", "sm_75");
    assert_int_equal(k->registers, 10);
    assert_int_equal(k->cmem[0], 376);
    ptxas_log_free(&log);
}

static void test_overflow_warns(void **state)
{
    (void)state;
    ptxas_log log;
    parse_str("ptxas info    : Compiling entry function 'saxpy' for 'sm_75'\n"
              "ptxas info    : Function properties for saxpy\n"
              "    99999999999999999999 bytes stack frame, 0 bytes spill stores, 0 bytes spill "
              "loads\n"
              "ptxas info    : Used 99999999999999999999 registers, 4294967296 barriers, "
              "1024 bytes smem, 376 bytes cmem[0], 8 bytes cmem[99], 9+9223372036854775807 "
              "bytes lmem\n",
              &log);
    assert_int_equal(log.n_kernels, 1);
    const ptxas_kernel *k = get(&log, "saxpy", "sm_75");
    assert_int_equal(k->registers, 0);
    assert_int_equal(k->barriers, 0);
    assert_int_equal(k->stack, 0);
    assert_int_equal(k->lmem, -1);
    assert_int_equal(k->static_smem, 1024);
    assert_int_equal(k->cmem[0], 376);
    assert_true(has_warning(&log, 3, "out of range"));
    assert_true(has_warning(&log, 4, "99999999999999999999 registers"));
    assert_true(has_warning(&log, 4, "4294967296 barriers"));
    assert_true(has_warning(&log, 4, "cmem[99]"));
    assert_true(has_warning(&log, 4, "lmem"));
    assert_int_equal(log.n_warnings, 5);
    ptxas_log_free(&log);
}

static void test_orphan_lines_warn(void **state)
{
    (void)state;
    ptxas_log log;
    parse_str("ptxas info    : Used 10 registers, 376 bytes cmem[0]\n"
              "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
              "nvlink info    : used 46 registers, 0 stack, 0 bytes smem, 360 bytes cmem[0], 0 "
              "bytes lmem (target: sm_80)\n",
              &log);
    assert_int_equal(log.n_kernels, 0);
    assert_int_equal(log.n_warnings, 3);
    assert_true(has_warning(&log, 1, "without a function"));
    assert_true(has_warning(&log, 2, "without a function"));
    assert_true(has_warning(&log, 3, "without a function"));
    ptxas_log_free(&log);
}

static void test_empty_and_junk(void **state)
{
    (void)state;
    ptxas_log log;
    assert_true(ptxas_parse(NULL, 0, &log));
    assert_int_equal(log.n_kernels, 0);
    assert_int_equal(log.n_lines, 0);
    ptxas_log_free(&log);
    parse_str("", &log);
    assert_int_equal(log.n_lines, 0);
    ptxas_log_free(&log);
    parse_str("\n\n\r\n", &log);
    assert_int_equal(log.n_lines, 3);
    assert_int_equal(log.n_kernels, 0);
    ptxas_log_free(&log);

    /* Marker fragments, NULs and high bytes, cut mid-line. */
    static const char junk[] = "ptxas info    : Compiling entry function '\0\xff' for '\n"
                               "ptxas info :\n info: \x01 Used , , ,\n"
                               "ptxas info    : Function properties for \n"
                               "nvlink info : Function properties for '':\n"
                               "ptxas info    : Used 1 registers, 2";
    assert_true(ptxas_parse(junk, sizeof junk - 1, &log));
    ptxas_log_free(&log);

    unsigned char bytes[65536];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof bytes; i++) {
        x = x * 1103515245u + 12345u;
        bytes[i] = (unsigned char)(x >> 16);
    }
    assert_true(ptxas_parse((const char *)bytes, sizeof bytes, &log));
    ptxas_log_free(&log);
}

static void test_long_lines(void **state)
{
    (void)state;
    size_t n = 1u << 20;
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "ptxas info    : Compiling entry function '");
    for (size_t i = 0; i < n; i++)
        sbuf_addc(&b, 'k');
    sbuf_add(&b, "' for 'sm_80'\nptxas info    : Used 10 registers");
    for (size_t i = 0; i < n / 16; i++)
        sbuf_add(&b, ", 1 bytes smem");
    sbuf_add(&b, "\nptxas info    : Used ");
    for (size_t i = 0; i < n; i++)
        sbuf_addc(&b, '9');
    sbuf_add(&b, " registers\n");
    ptxas_log log;
    assert_true(ptxas_parse(b.data, b.len, &log));
    assert_int_equal(log.n_kernels, 1);
    assert_int_equal(strlen(log.kernels[0].name), n);
    assert_int_equal(log.kernels[0].registers, 10);
    assert_int_equal(log.kernels[0].static_smem, 1);
    assert_int_equal(log.n_warnings, 1);
    assert_true(strlen(log.warnings[0].text) < 200); /* excerpts are bounded */
    ptxas_log_free(&log);
    sbuf_free(&b);
}

static void test_warning_cap(void **state)
{
    (void)state;
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "ptxas info    : Compiling entry function 'saxpy' for 'sm_75'\n");
    for (int i = 0; i < 5000; i++)
        sbuf_add(&b, "ptxas info    : Used 10 registers, 3 widgets\n");
    ptxas_log log;
    assert_true(ptxas_parse(b.data, b.len, &log));
    assert_int_equal(log.n_warnings, 1001);
    assert_non_null(strstr(log.warnings[1000].text, "too many"));
    ptxas_log_free(&log);
    sbuf_free(&b);
}

/* ---- speed ------------------------------------------------------------------ */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 10 MB of real output with names made unique per copy, so every copy adds
 * records instead of merging into the first. */
static void test_ten_megabytes(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp("cuda13_multiarch.log", &len);
    sbuf b;
    sbuf_init(&b);
    for (int copy = 0; b.len < 10u * 1000 * 1000; copy++) {
        for (const char *s = text; *s; s++) {
            if (s > text && (s[-1] == '\'' || s[-1] == ' ') && s[0] == '_' && s[1] == 'Z')
                sbuf_addf(&b, "_Z%dc", copy); /* _Z.. -> _Z<n>c_Z.. */
            sbuf_addc(&b, *s);
        }
    }
    double t0 = now();
    ptxas_log log;
    assert_true(ptxas_parse(b.data, b.len, &log));
    double dt = now() - t0;
    print_message("parsed %zu bytes, %zu kernels in %.3f s\n", b.len, log.n_kernels, dt);
    no_warnings(&log);
    assert_true(log.n_kernels > 10000);
    /* No time limit here: a timed unit test fails on a loaded or sanitized
     * machine (1.4 s under ASan beside another suite); the parser's speed
     * is measured in benchmarks/. */
    ptxas_log_free(&log);
    sbuf_free(&b);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_multiarch),
        cmocka_unit_test(test_spill),
        cmocka_unit_test(test_rdc_nvlink),
        cmocka_unit_test(test_rdc_device_only),
        cmocka_unit_test(test_arch_suffixes),
        cmocka_unit_test(test_textures_surfaces_samplers),
        cmocka_unit_test(test_nvrtc),
        cmocka_unit_test(test_nvjitlink),
        cmocka_unit_test(test_cuda10_nvlink_without_target),
        cmocka_unit_test(test_cuda11_nvlink_targets),
        cmocka_unit_test(test_cuda5_lmem_textures),
        cmocka_unit_test(test_indented_module_cmem),
        cmocka_unit_test(test_cuda4_bank16),
        cmocka_unit_test(test_cuda3_plus_sums),
        cmocka_unit_test(test_cuda2_no_arch),
        cmocka_unit_test(test_msvc_prefix),
        cmocka_unit_test(test_noise_and_line_endings),
        cmocka_unit_test(test_repeated_compilation),
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_unknown_token_warns),
        cmocka_unit_test(test_overflow_warns),
        cmocka_unit_test(test_orphan_lines_warn),
        cmocka_unit_test(test_empty_and_junk),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_warning_cap),
        cmocka_unit_test(test_ten_megabytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
