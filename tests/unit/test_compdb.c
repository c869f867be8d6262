/* compdb: shell-word splitting, the allowlist of nvcc arguments a
 * compilation database passes on, and the errors for bad databases. The
 * expected argv are written out by hand from the shell's and nvcc's rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "input/compdb.h"

static void expect_argv(char **got, int n, const char *const *want)
{
    int w = 0;
    while (want[w])
        w++;
    for (int i = 0; i < n && i < w; i++)
        assert_string_equal(got[i], want[i]);
    assert_int_equal(n, w);
    assert_null(got[n]);
}

static void split_is(const char *cmd, const char *const *want)
{
    char **v;
    int n;
    assert_true(compdb_split(cmd, &v, &n));
    expect_argv(v, n, want);
    compdb_argv_free(v);
}

static void test_split(void **state)
{
    (void)state;
    split_is("nvcc  -c\ta.cu", (const char *const[]){"nvcc", "-c", "a.cu", NULL});
    /* '...' is literal, "..." keeps \" \\ \$ \` and nothing else. */
    split_is("cc -D'A=$(x) \"q\"' \"-DB=\\\"s\\\" \\n\" c\\ d",
             (const char *const[]){"cc", "-DA=$(x) \"q\"", "-DB=\"s\" \\n", "c d", NULL});
    split_is("a'b'\"c\"d", (const char *const[]){"abcd", NULL});
    split_is("x ''", (const char *const[]){"x", "", NULL});
    split_is("", (const char *const[]){NULL});
    char **v;
    int n;
    assert_false(compdb_split("cc 'open", &v, &n));
    assert_false(compdb_split("cc \"open\\\"", &v, &n));
}

static void translate_is(const char *cmd, const char *dir, const char *file, bool cuda,
                         const char *const *want)
{
    char **v, **out;
    int n, n_out;
    assert_true(compdb_split(cmd, &v, &n));
    assert_int_equal(compdb_translate(v, n, dir, file, &out, &n_out), cuda);
    expect_argv(out, n_out, want);
    compdb_argv_free(out);
    compdb_argv_free(v);
}

static void test_translate_cmake(void **state)
{
    (void)state;
    /* CMake 3.2x's CUDA rule: one -gencode per code of the bracket list,
     * -I made absolute against "directory", the object and the
     * dependency file dropped. */
    translate_is("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DTILE=32 "
                 "-I../include -isystem /opt/x/include -O3 -std=c++17 "
                 "\"--generate-code=arch=compute_80,code=[compute_80,sm_80]\" "
                 "--expt-relaxed-constexpr -MD -MT a.o -MF a.o.d -x cu -c /src/k/a.cu -o a.o",
                 "/src/build", "/src/k/a.cu", true,
                 (const char *const[]){
                     "-D", "TILE=32", "-I", "/src/include", "-isystem", "/opt/x/include",
                     "-std=c++17", "-gencode", "arch=compute_80,code=compute_80", "-gencode",
                     "arch=compute_80,code=sm_80", "--expt-relaxed-constexpr", "-x", "cu", NULL});
}

static void test_translate_meson_make(void **state)
{
    (void)state;
    /* Meson: relative file, -I joined to ./; -ccbin names a program and is
     * never passed; -dc means relocatable device code. */
    translate_is("nvcc -Isrc/lib.p -I../src -ccbin /evil/gcc -arch=sm_90 -dc -o x.o -c ../src/k.cu",
                 "/p/build", "../src/k.cu", true,
                 (const char *const[]){"-I", "/p/build/src/lib.p", "-I", "/p/src", "-arch=sm_90",
                                       "-rdc=true", NULL});
    /* -Xcompiler: macros and include paths travel, the rest stays behind. */
    translate_is("nvcc -Xcompiler -fPIC,-DFOO=1,-Iinc,-fplugin=x.so -maxrregcount 64 "
                 "-Xptxas -O3 --use_fast_math -G -c a.cu",
                 "/w", "a.cu", true,
                 (const char *const[]){"-D", "FOO=1", "-I", "/w/inc", "-maxrregcount=64", "-Xptxas",
                                       "-O3", "--use_fast_math", "-G", NULL});
}

static void test_translate_language(void **state)
{
    (void)state;
    /* A .cpp built as CUDA counts; a .cu built as C++ does not; clang's
     * CUDA targets become -gencode. */
    translate_is("nvcc -x cu -c k.cpp", "/w", "k.cpp", true,
                 (const char *const[]){"-x", "cu", NULL});
    translate_is("g++ -c m.cpp -o m.o", "/w", "m.cpp", false, (const char *const[]){NULL});
    translate_is("clang++ -x cuda --cuda-gpu-arch=sm_86 -fgpu-rdc -c k.cu", "/w", "k.cu", true,
                 (const char *const[]){"-x", "cu", "-gencode", "arch=compute_86,code=sm_86",
                                       "-rdc=true", NULL});
}

static char *write_db(const char *json)
{
    char templ[] = "/tmp/gpulint-compdb-XXXXXX";
    char *dir = mkdtemp(templ);
    assert_non_null(dir);
    char path[512];
    snprintf(path, sizeof path, "%s/compile_commands.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(json, f);
    fclose(f);
    return strdup(dir);
}

static void remove_db(char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/compile_commands.json", dir);
    unlink(path);
    rmdir(dir);
    free(dir);
}

static void test_load(void **state)
{
    (void)state;
    char *dir = write_db(
        "[{\"directory\": \"/p/b\", \"command\": \"nvcc -c ../a.cu -DX\", \"file\": \"../a.cu\"},"
        " {\"directory\": \"/p/b\", \"arguments\": [\"c++\", \"-c\", \"m.cpp\"], \"file\": "
        "\"m.cpp\"},"
        " {\"directory\": \"/p\", \"arguments\": [\"nvcc\", \"-c\", \"a.cu\"], \"file\": \"a.cu\"},"
        " {\"directory\": \"/p\", \"arguments\": [\"nvcc\", \"-c\", \"k/b.cu\"], \"file\": "
        "\"k/b.cu\"}]");
    compdb db;
    char err[512];
    assert_int_equal(compdb_load(dir, &db, err, sizeof err), COMPDB_OK);
    assert_int_equal(db.n_units, 2);
    assert_int_equal(db.n_not_cuda, 1);
    /* The C++ unit is kept for the sizes it passes (run/xcalls). */
    assert_int_equal(db.n_host, 1);
    assert_string_equal(db.host[0].file, "/p/b/m.cpp");
    assert_int_equal(db.host[0].entry, 1);
    assert_int_equal(db.n_duplicates, 1); /* /p/a.cu twice: the first entry wins */
    assert_string_equal(db.units[0].file, "/p/a.cu");
    assert_int_equal(db.units[0].n_args, 2);
    assert_string_equal(db.units[0].args[1], "X");
    assert_string_equal(db.units[1].file, "/p/k/b.cu");
    assert_int_equal(db.units[1].entry, 3);
    assert_ptr_equal(compdb_find(&db, "/p/k/../k/b.cu"), &db.units[1]);
    assert_null(compdb_find(&db, "/p/c.cu"));
    compdb_free(&db);
    remove_db(dir);
}

static void load_fails(const char *json, compdb_status want, const char *needle)
{
    char *dir = write_db(json);
    compdb db;
    char err[512] = "";
    assert_int_equal(compdb_load(dir, &db, err, sizeof err), want);
    if (!strstr(err, needle))
        fail_msg("error '%s' lacks '%s'", err, needle);
    assert_non_null(strstr(err, "compile_commands.json"));
    compdb_free(&db);
    remove_db(dir);
}

static void test_load_errors(void **state)
{
    (void)state;
    load_fails("[{\"directory\": \"/p\"", COMPDB_MALFORMED, "not JSON");
    load_fails("{}", COMPDB_MALFORMED, "expected an array");
    load_fails(
        "[{\"directory\": \"/p\", \"file\": \"a.cu\", \"command\": \"nvcc\"}, {\"file\": 1}]",
        COMPDB_MALFORMED, "entry 1");
    load_fails("[{\"directory\": \"/p\", \"file\": \"a.cu\", \"command\": \"nvcc 'a.cu\"}]",
               COMPDB_MALFORMED, "entry 0: unterminated quote");
    load_fails("[{\"directory\": \"/p\", \"file\": \"a.cu\", \"arguments\": [\"nvcc\", 3]}]",
               COMPDB_MALFORMED, "non-string");
    compdb db;
    char err[512];
    assert_int_equal(compdb_load("/nonexistent-gpulint", &db, err, sizeof err), COMPDB_MISSING);
    assert_non_null(strstr(err, "/nonexistent-gpulint/compile_commands.json"));
    compdb_free(&db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_translate_cmake),
        cmocka_unit_test(test_translate_meson_make),
        cmocka_unit_test(test_translate_language),
        cmocka_unit_test(test_load),
        cmocka_unit_test(test_load_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
