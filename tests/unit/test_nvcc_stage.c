/* test_nvcc_stage: what reaches nvcc (and so its shell) is only ever the
 * stage's own names: the copy and its #line, -D values moved into defs.h,
 * unsafe paths behind links, refusals, the way back to the user's paths in
 * nvcc's messages, and that removing a stage never follows its links. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "input/nvcc_stage.h"
#include "util/fileio.h"

static const char *SRC = "__global__ void k() {}\n";

static char *read_all(const char *path)
{
    char *s;
    size_t n;
    assert_int_equal(fileio_read(path, 1 << 20, &s, &n), FILEIO_OK);
    return s;
}

static void assert_all_inert(const nvstage *st)
{
    assert_true(nvstage_inert(st->dir));
    assert_true(nvstage_inert(st->source));
    assert_true(nvstage_inert(st->output));
    for (int i = 0; i < st->n_args; i++) {
        if (!nvstage_inert(st->args[i]))
            fail_msg("argument %d '%s' is not inert", i, st->args[i]);
    }
}

static nvstage_status prepare(nvstage *st, const char *path, const char **extra, int n, char *err)
{
    return nvstage_prepare(st, path, SRC, strlen(SRC), (char *const *)extra, n, "nvcc argument",
                           err, 512);
}

static void test_inert(void **state)
{
    (void)state;
    assert_true(nvstage_inert("-DTILE=32"));
    assert_true(nvstage_inert("--gpu-architecture=sm_90,compute_90"));
    assert_true(nvstage_inert("/usr/local/cuda-13.0/include"));
    assert_true(nvstage_inert("caf\xc3\xa9")); /* UTF-8 */
    assert_true(nvstage_inert(""));
    const char *bad[] = {"a b",  "$(x)", "`x`", "a;b", "a|b", "a&b", "a>b", "a<b",
                         "\"",   "'",    "\\",  "*",   "?",   "[a]", "~",   "#x",
                         "a\nb", "a\tb", "!",   "{a}", "(a)", "^"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (nvstage_inert(bad[i]))
            fail_msg("'%s' counted as inert", bad[i]);
}

static void test_copy_and_line(void **state)
{
    (void)state;
    nvstage st;
    char err[512];
    const char *name = "dir $(x)/k \"1\"\\\n\xc3\xa9.cu";
    assert_int_equal(prepare(&st, name, NULL, 0, err), NVSTAGE_OK);
    assert_all_inert(&st);
    char *copy = read_all(st.source);
    assert_string_equal(copy, "#line 1 \"dir $(x)/k \\\"1\\\"\\\\\\n\xc3\xa9.cu\"\n"
                              "__global__ void k() {}\n");
    free(copy);
    /* the source's directory, for quoted includes */
    char inc[4096], target[4096];
    snprintf(inc, sizeof inc, "%s/inc", st.dir);
    ssize_t n = readlink(inc, target, sizeof target - 1);
    assert_true(n > 0);
    target[n] = '\0';
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    char want[4200];
    snprintf(want, sizeof want, "%s/dir $(x)", cwd);
    assert_string_equal(target, want);
    /* the only arguments are the stage's own */
    assert_int_equal(st.n_args, 2);
    assert_string_equal(st.args[0], "-Xcompiler");
    nvstage_free(&st);
}

static void test_extension_kept_when_plain(void **state)
{
    (void)state;
    nvstage st;
    char err[512];
    assert_int_equal(prepare(&st, "k.cpp", NULL, 0, err), NVSTAGE_OK);
    assert_non_null(strstr(st.source, "/gpulint.cpp"));
    nvstage_free(&st);
    assert_int_equal(prepare(&st, "k.c$u", NULL, 0, err), NVSTAGE_OK);
    assert_non_null(strstr(st.source, "/gpulint.cu"));
    nvstage_free(&st);
}

static void test_defines(void **state)
{
    (void)state;
    nvstage st;
    char err[512];
    const char *extra[] = {
        "-DSAFE=1", "-DA=$(x)", "-D",    "B=\"b c\",C", "--define-macro=F(a)=`a`",
        "-UA",      "-USAFE",   "-DA=2", "-DN=x\ny"};
    assert_int_equal(prepare(&st, "k.cu", extra, 9, err), NVSTAGE_OK);
    assert_all_inert(&st);
    /* SAFE stays on the command line; the rest, in order, in defs.h */
    int i = 0;
    assert_string_equal(st.args[i++], "-Xcompiler");
    i++;
    assert_string_equal(st.args[i++], "-include");
    char *defs_path = st.args[i++];
    assert_string_equal(st.args[i++], "-DSAFE=1");
    assert_string_equal(st.args[i++], "-USAFE");
    assert_int_equal(st.n_args, i);
    char *defs = read_all(defs_path);
    assert_string_equal(defs, "#define A $(x)\n"
                              "#define B \"b c\"\n"
                              "#define C 1\n"
                              "#define F(a) `a`\n"
                              "#undef A\n"
                              "#define A 2\n"
                              "#define N x\n");
    free(defs);
    nvstage_free(&st);
}

static void test_option_values_stay_values(void **state)
{
    (void)state;
    nvstage st;
    char err[512];
    /* "-DHOST=1" is -Xcompiler's value, not an nvcc -D to move */
    const char *extra[] = {"-Xcompiler", "-DHOST=1", "-DDEV=2", "-Xptxas", "-I"};
    assert_int_equal(prepare(&st, "k.cu", extra, 5, err), NVSTAGE_OK);
    assert_int_equal(st.n_args, 7);
    for (int i = 0; i < 5; i++)
        assert_string_equal(st.args[2 + i], extra[i]);
    nvstage_free(&st);
}

static void test_paths_through_links(void **state)
{
    (void)state;
    nvstage st;
    char err[512];
    const char *extra[] = {"-Iinclude",          "-I",       "my dir/inc,plain",
                           "-isystem=/opt/$(x)", "-include", "hdr $(x)/pre.h"};
    assert_int_equal(prepare(&st, "k.cu", extra, 6, err), NVSTAGE_OK);
    assert_all_inert(&st);
    assert_string_equal(st.args[2], "-Iinclude");
    assert_string_equal(st.args[3], "-I");
    char want[4200];
    snprintf(want, sizeof want, "%s/p0,plain", st.dir);
    assert_string_equal(st.args[4], want);
    assert_string_equal(st.args[5], "-isystem");
    snprintf(want, sizeof want, "%s/p1", st.dir);
    assert_string_equal(st.args[6], want);
    char target[4096];
    ssize_t n = readlink(want, target, sizeof target - 1);
    assert_true(n > 0);
    target[n] = '\0';
    assert_string_equal(target, "/opt/$(x)");
    assert_string_equal(st.args[7], "-include");
    snprintf(want, sizeof want, "%s/p2/pre.h", st.dir);
    assert_string_equal(st.args[8], want);
    /* nvcc's messages come back with the user's names */
    char full[16384];
    snprintf(full, sizeof full,
             "%s(3): error: x\n%s/inc/h.h(1): warning\n%s/p0/a.h: note\n%s/p2/pre.h:1: e\n"
             "1 error detected in the compilation of \"%s\".\n",
             st.source, st.dir, st.dir, st.dir, st.source);
    char *shown = nvstage_unmap(&st, full);
    assert_string_equal(shown, "k.cu(3): error: x\nh.h(1): warning\nmy dir/inc/a.h: note\n"
                               "hdr $(x)/pre.h:1: e\n"
                               "1 error detected in the compilation of \"k.cu\".\n");
    free(shown);
    nvstage_free(&st);
}

static void test_refusals(void **state)
{
    (void)state;
    nvstage st;
    char err[512];
    const char *cases[][2] = {
        {"-Xcompiler", "-DX=$(x)"},
        {"--options-file", "flags.txt"},
        {"-Xptxas", "-v;x"},
        {"-D", "1X=$(y)"},
        {"-U", "$(x)"},
    };
    const char *why[] = {"holds '$'", "file of further arguments", "holds ';'",
                         "does not define a macro name", "does not name a macro"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *extra[2] = {cases[i][0], cases[i][1]};
        assert_int_equal(prepare(&st, "k.cu", extra, 2, err), NVSTAGE_REFUSED);
        if (!strstr(err, why[i]))
            fail_msg("case %zu: '%s' does not say '%s'", i, err, why[i]);
        assert_null(strchr(err, '\n')); /* one line */
        assert_null(st.dir);
    }
    const char *nl[] = {"-Xcompiler", "a\nb"};
    assert_int_equal(prepare(&st, "k.cu", nl, 2, err), NVSTAGE_REFUSED);
    assert_non_null(strstr(err, "'a\\nb' holds a newline"));
}

static void test_free_never_follows_links(void **state)
{
    (void)state;
    char outside[] = "/tmp/gpulint-test-XXXXXX";
    assert_non_null(mkdtemp(outside));
    char keep[256];
    snprintf(keep, sizeof keep, "%s/keep.h", outside);
    FILE *f = fopen(keep, "w");
    assert_non_null(f);
    fputs("#define KEEP 1\n", f);
    fclose(f);
    char src[256];
    snprintf(src, sizeof src, "%s/k $(x).cu", outside);
    char idir[256];
    snprintf(idir, sizeof idir, "%s/", outside);
    const char *extra[] = {"-I", "/tmp/../tmp/x y", "-I", idir};
    char with_space[300];
    snprintf(with_space, sizeof with_space, "%s dir", outside);
    extra[1] = with_space;
    nvstage st;
    char err[512];
    assert_int_equal(nvstage_prepare(&st, src, SRC, strlen(SRC), (char *const *)extra, 4,
                                     "nvcc argument", err, sizeof err),
                     NVSTAGE_OK);
    char dir[256];
    snprintf(dir, sizeof dir, "%s", st.dir);
    nvstage_free(&st);
    struct stat sb;
    assert_int_equal(stat(dir, &sb), -1); /* the stage is gone */
    assert_int_equal(stat(keep, &sb), 0); /* what it linked to is not */
    assert_int_equal(stat(outside, &sb), 0);
    unlink(keep);
    rmdir(outside);
}

static void test_env_sets_tmpdir(void **state)
{
    (void)state;
    setenv("TMPDIR", "/tmp/$(x)", 1); /* not used for the stage: not inert */
    nvstage st;
    char err[512];
    assert_int_equal(prepare(&st, "k.cu", NULL, 0, err), NVSTAGE_OK);
    assert_int_equal(strncmp(st.dir, "/tmp/gpulint-", 13), 0);
    char **env = nvstage_env(&st);
    int tmpdirs = 0;
    for (char **e = env; *e; e++)
        if (strncmp(*e, "TMPDIR=", 7) == 0) {
            tmpdirs++;
            assert_string_equal(*e + 7, st.tmpdir);
        }
    assert_int_equal(tmpdirs, 1);
    nvstage_env_free(env);
    nvstage_free(&st);
    unsetenv("TMPDIR");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inert),
        cmocka_unit_test(test_copy_and_line),
        cmocka_unit_test(test_extension_kept_when_plain),
        cmocka_unit_test(test_defines),
        cmocka_unit_test(test_option_values_stay_values),
        cmocka_unit_test(test_paths_through_links),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_free_never_follows_links),
        cmocka_unit_test(test_env_sets_tmpdir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
