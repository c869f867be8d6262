/* test_demangle: kernel names from real ptxas logs (tests/data/ptxas) must
 * read as the signatures c++filt gives, less the `void ` return type that
 * template kernels carry (every kernel returns void), and anything that is
 * not an Itanium name must come back unchanged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "util/demangle.h"

static void check(const char *mangled, const char *want)
{
    char *got = demangle(mangled);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

static void test_templates(void **state)
{
    (void)state;
    check("_Z9transposeILi32EEvPfPKf", "transpose<32>(float*, float const*)");
    check("_Z9transposeILi16EEvPfPKf", "transpose<16>(float*, float const*)");
    check("_Z5scaleILi64EEvPff", "scale<64>(float*, float)");
    check("_Z32fermi_scrypt_core_kernelB_LG_texILi1ELi2EEvPjjj",
          "fermi_scrypt_core_kernelB_LG_tex<1, 2>(unsigned int*, unsigned int, unsigned int)");
}

static void test_plain_functions(void **state)
{
    (void)state;
    check("_Z6hungryPfPKfi", "hungry(float*, float const*, int)");
    check("_Z10tex_kernelPfyy", "tex_kernel(float*, unsigned long long, unsigned long long)");
    check("_ZN50_INTERNAL_28_cuda_equi_compute_30_cpp1_ii_1f510c1d11__shfl_syncEjiii",
          "_INTERNAL_28_cuda_equi_compute_30_cpp1_ii_1f510c1d::__shfl_sync(unsigned int, int, "
          "int, int)");
}

static void test_extern_c_unchanged(void **state)
{
    (void)state;
    check("saxpy", "saxpy");
    check("rdc_other", "rdc_other");
    check("__omp_offloading_10305_40788d_main_l23", "__omp_offloading_10305_40788d_main_l23");
    check("", "");
}

static void test_garbage_unchanged(void **state)
{
    (void)state;
    check("_Z", "_Z");
    check("_Zgarbage", "_Zgarbage");
    check("_Z9transposeILi32EEvPfPK", "_Z9transposeILi32EEvPfPK"); /* truncated */
    check("_Z999999999999999999999x", "_Z999999999999999999999x");
    check("\xff\xfe_Z3fooPf", "\xff\xfe_Z3fooPf");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_templates),
        cmocka_unit_test(test_plain_functions),
        cmocka_unit_test(test_extern_c_unchanged),
        cmocka_unit_test(test_garbage_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
