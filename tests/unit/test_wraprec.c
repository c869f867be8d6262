/* wraprec: how gpulint wrap reads a build's nvcc command (launchers, the
 * ways to ask ptxas for -v, inputs and output), which lines of nvcc's
 * stderr are ptxas -v's, and the record's round trip through a file. The
 * command lines are those CMake, Meson and hand-written Makefiles emit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "input/wraprec.h"
#include "util/fsutil.h"

static void read_cmd(const char *const *argv, wraprec_cmd *cmd)
{
    int n = 0;
    while (argv[n])
        n++;
    wraprec_read_command((char *const *)argv, n, cmd);
}

static void test_cmake_with_ccache(void **state)
{
    (void)state;
    wraprec_cmd c;
    read_cmd((const char *const[]){"ccache", "/usr/local/cuda/bin/nvcc",
                                   "-forward-unknown-to-host-compiler",
                                   "--generate-code=arch=compute_90,code=[compute_90,sm_90]", "-MD",
                                   "-MT", "CMakeFiles/d.dir/src/a.cu.o", "-MF",
                                   "CMakeFiles/d.dir/src/a.cu.o.d", "-x", "cu", "-c", "/src/a.cu",
                                   "-o", "CMakeFiles/d.dir/src/a.cu.o", NULL},
             &c);
    assert_int_equal(c.nvcc, 1);
    assert_false(c.verbose);
    assert_true(c.compile_only);
    assert_int_equal(c.n_sources, 1);
    assert_string_equal(c.sources[0], "/src/a.cu");
    assert_string_equal(c.output, "CMakeFiles/d.dir/src/a.cu.o");
    wraprec_cmd_free(&c);
}

static void test_verbose_spellings(void **state)
{
    (void)state;
    const char *const yes[][4] = {
        {"-Xptxas", "-v"},
        {"-Xptxas", "-O3,-v"},
        {"-Xptxas=-v"},
        {"-Xptxas=--verbose,-O2"},
        {"--ptxas-options", "-v"},
        {"--ptxas-options=-v"},
        {"--resource-usage"},
        {"-res-usage"},
    };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        const char *argv[8] = {"nvcc", "-c", "a.cu", yes[i][0], yes[i][1], NULL};
        wraprec_cmd c;
        read_cmd(argv, &c);
        assert_true(c.verbose);
        wraprec_cmd_free(&c);
    }
    /* -v to nvcc itself, or a ptxas option list without it, is not ptxas -v. */
    const char *const no[][4] = {{"-v"}, {"-Xptxas", "-O3"}, {"-Xptxas=-vv"}, {"-Xcompiler", "-v"}};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        const char *argv[8] = {"nvcc", "-c", "a.cu", no[i][0], no[i][1], NULL};
        wraprec_cmd c;
        read_cmd(argv, &c);
        assert_false(c.verbose);
        wraprec_cmd_free(&c);
    }
}

static void test_inputs_and_outputs(void **state)
{
    (void)state;
    wraprec_cmd c;
    /* Values of file options are not inputs, even when they end in .cu. */
    read_cmd((const char *const[]){"nvcc", "-include", "pre.cu", "-MF", "dep.cu", "-dc", "k.cu",
                                   "--output-file=out/k.o", "kernels.ptx", NULL},
             &c);
    assert_int_equal(c.n_sources, 2);
    assert_string_equal(c.sources[0], "k.cu");
    assert_string_equal(c.sources[1], "kernels.ptx");
    assert_string_equal(c.output, "out/k.o");
    assert_true(c.compile_only);
    wraprec_cmd_free(&c);
    /* A link: no inputs gpulint reads, no -c. */
    read_cmd((const char *const[]){"nvcc", "a.o", "b.o", "-o=app", NULL}, &c);
    assert_int_equal(c.n_sources, 0);
    assert_string_equal(c.output, "app");
    assert_false(c.compile_only);
    wraprec_cmd_free(&c);
    /* Not nvcc at all: g++, or "nvcc" only as an argument. */
    read_cmd((const char *const[]){"g++", "-c", "a.cpp", "-o", "nvcc", NULL}, &c);
    assert_int_equal(c.nvcc, -1);
    wraprec_cmd_free(&c);
    read_cmd((const char *const[]){"g++", "-c", "a.cpp", NULL}, &c);
    assert_int_equal(c.nvcc, -1);
    assert_null(c.sources);
    wraprec_cmd_free(&c);
}

static void test_log_lines(void **state)
{
    (void)state;
    const char *const log[] = {
        "ptxas info    : 0 bytes gmem\n",
        "ptxas info    : Compiling entry function '_Z1kv' for 'sm_90'\n",
        "ptxas info    : Function properties for _Z1kv\n",
        "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n",
        "ptxas info    : Used 8 registers, used 0 barriers\n",
        "ptxas info    : Compile time = 2.234 ms\n",
    };
    for (size_t i = 0; i < sizeof log / sizeof log[0]; i++)
        assert_true(wraprec_is_log_line(log[i], strlen(log[i])));
    const char *const other[] = {
        "a.cu(3): warning #177-D: variable \"x\" was declared but never referenced\n",
        "ptxas warning : Registers are spilled to local memory in function '_Z1kv'\n",
        "ptxas fatal   : Unresolved extern function '_Z1fv'\n",
        "16 bytes stack frame\n", /* not indented: not ptxas's line */
        "    bytes stack frame\n",
        "",
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        assert_false(wraprec_is_log_line(other[i], strlen(other[i])));
}

static void test_paths(void **state)
{
    (void)state;
    char *src[] = {"/p/src/a.cu"};
    wraprec w = {.sources = src, .n_sources = 1, .output = "/p/build/t1/a.cu.o"};
    char *beside = wraprec_path_for(&w, NULL);
    assert_string_equal(beside, "/p/build/t1/a.cu.o.gpulint.json");
    char *in1 = wraprec_path_for(&w, "/rec");
    w.output = "/p/build/t2/a.cu.o";
    char *in2 = wraprec_path_for(&w, "/rec");
    /* Same object name in two targets: two records. */
    assert_int_equal(strncmp(in1, "/rec/a.cu.o-", 12), 0);
    assert_string_not_equal(in1, in2);
    w.output = NULL;
    w.n_sources = 0;
    assert_null(wraprec_path_for(&w, NULL));
    free(beside);
    free(in1);
    free(in2);
}

static void test_round_trip_and_tree(void **state)
{
    (void)state;
    char dir[] = "/tmp/gpulint-wraprec-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[512], path[600], err[512];
    snprintf(sub, sizeof sub, "%s/obj", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    /* A name that is not UTF-8 survives the JSON. */
    char *src[] = {"/p/src/b\xe9.cu", "/p/src/a.cu"};
    wraprec w = {.directory = "/p/build",
                 .sources = src,
                 .n_sources = 2,
                 .output = "/p/build/obj/both.o",
                 .log = "ptxas info    : Used 8 registers\n"};
    snprintf(path, sizeof path, "%s/both.o.gpulint.json", sub);
    assert_true(wraprec_write(path, &w, err, sizeof err));
    wraprec one = {.directory = "/p/build",
                   .sources = src + 1,
                   .n_sources = 1,
                   .output = "/p/build/a.o",
                   .log = ""};
    snprintf(path, sizeof path, "%s/a.o.gpulint.json", dir);
    assert_true(wraprec_write(path, &one, err, sizeof err));
    snprintf(path, sizeof path, "%s/junk.gpulint.json", dir);
    FILE *f = fopen(path, "w");
    fputs("{\"format\": \"gpulint-wrap-2\"}", f);
    fclose(f);
    /* Not a record by name: ignored. */
    snprintf(path, sizeof path, "%s/notes.json", dir);
    f = fopen(path, "w");
    fputs("{}", f);
    fclose(f);

    wraprec_set set;
    assert_true(wraprec_load_tree(dir, &set, err, sizeof err));
    assert_int_equal(set.n, 2);
    assert_int_equal(set.n_bad, 1);
    /* Sorted by first source: /p/src/a.cu before /p/src/b\xe9.cu. */
    assert_string_equal(set.recs[0].sources[0], "/p/src/a.cu");
    assert_string_equal(set.recs[0].log, "");
    assert_int_equal(set.recs[1].n_sources, 2);
    assert_string_equal(set.recs[1].sources[0], "/p/src/b\xe9.cu");
    assert_string_equal(set.recs[1].output, "/p/build/obj/both.o");
    assert_string_equal(set.recs[1].log, w.log);
    assert_string_equal(set.recs[1].directory, "/p/build");
    wraprec_set_free(&set);

    assert_false(wraprec_load_tree("/nonexistent/gpulint", &set, err, sizeof err));
    assert_non_null(strstr(err, "No such file"));
    fsutil_remove_tree(dir);
}

static void test_parse_rejects(void **state)
{
    (void)state;
    const char *const bad[] = {
        "",
        "[]",
        "{\"format\": \"gpulint-wrap-1\"}",
        "{\"format\": \"gpulint-wrap-1\", \"directory\": \"/\", \"sources\": [], \"log\": \"\"}",
        "{\"format\": \"gpulint-wrap-1\", \"directory\": \"/\", \"sources\": [1], \"output\": "
        "null, \"log\": \"\"}",
        "{\"format\": \"gpulint-wrap-1\", \"directory\": 5, \"sources\": [], \"output\": null, "
        "\"log\": \"\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wraprec w;
        assert_false(wraprec_parse(bad[i], strlen(bad[i]), &w));
    }
    const char *good = "{\"format\": \"gpulint-wrap-1\", \"directory\": \"/\", \"sources\": [], "
                       "\"output\": null, \"log\": \"x\"}";
    wraprec w;
    assert_true(wraprec_parse(good, strlen(good), &w));
    assert_null(w.output);
    assert_int_equal(w.n_sources, 0);
    wraprec_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cmake_with_ccache),
        cmocka_unit_test(test_verbose_spellings),
        cmocka_unit_test(test_inputs_and_outputs),
        cmocka_unit_test(test_log_lines),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_round_trip_and_tree),
        cmocka_unit_test(test_parse_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
