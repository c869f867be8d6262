/* test_argrun: the front end's run of a program's option parser against
 * the C library's own. One getopt loop, written to a .cu file, is run by
 * gpulint on each argument list (--run-args) and by this process's glibc
 * getopt on the same list; the sizes the launches get must be what the
 * real loop leaves. So for a strtol helper, in the parser's unit or in
 * another one. Built without libclang, there is nothing to run. */
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

#include "config.h"
#include "cusrc/cusrc.h"
#include "util/fsutil.h"

#if GPULINT_HAVE_LIBCLANG

#define OPTSTRING "ab:c::q"

/* The parser, as C and as the source gpulint reads: -a counts, -b takes
 * an argument, -c an optional one (attached only), -q sets a flag, and an
 * option not in the string ('?') is counted apart. */
static const char source[] =
    "#include <cstdlib>\n"
    "#include <unistd.h>\n"
    "__global__ void k(int *o) { o[threadIdx.x] = 1; }\n"
    "static void parse(int argc, char **argv, int *a, int *b, int *c, int *q, int *bad)\n"
    "{\n"
    "    int opt;\n"
    "    while ((opt = getopt(argc, argv, \"" OPTSTRING "\")) != -1) {\n"
    "        switch (opt) {\n"
    "        case 'a': *a = *a + 1; break;\n"
    "        case 'b': *b = atoi(optarg); break;\n"
    "        case 'c': *c = optarg ? atoi(optarg) : 99; break;\n"
    "        case 'q': *q = 1; break;\n"
    "        default: *bad = *bad + 1; break;\n"
    "        }\n"
    "    }\n"
    "}\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    int a = 1, b = 2, c = 3, q = 0, bad = 0;\n"
    "    parse(argc, argv, &a, &b, &c, &q, &bad);\n"
    "    int *o;\n"
    "    cudaMalloc(&o, 4096);\n"
    "    k<<<a, b>>>(o);\n"
    "    k<<<c, q + 1>>>(o);\n"
    "    k<<<bad + 1, 32>>>(o);\n"
    "    return 0;\n"
    "}\n";

typedef struct result {
    int a, b, c, q, bad;
} result;

/* glibc's getopt on args, as the program would run. */
static result native(const char *const *args, int n)
{
    result r = {1, 2, 3, 0, 0};
    char *argv[32];
    argv[0] = (char *)"a.out";
    for (int i = 0; i < n; i++)
        argv[i + 1] = strdup(args[i]);
    argv[n + 1] = NULL;
    char **owned = malloc((size_t)(n + 1) * sizeof *owned);
    memcpy(owned, argv, (size_t)(n + 1) * sizeof *owned);
    optind = 0; /* glibc: start over, reinitialising its state */
    opterr = 0;
    int opt;
    while ((opt = getopt(n + 1, argv, OPTSTRING)) != -1) {
        switch (opt) {
        case 'a':
            r.a = r.a + 1;
            break;
        case 'b':
            r.b = atoi(optarg);
            break;
        case 'c':
            r.c = optarg ? atoi(optarg) : 99;
            break;
        case 'q':
            r.q = 1;
            break;
        default:
            r.bad = r.bad + 1;
            break;
        }
    }
    for (int i = 1; i <= n; i++)
        free(owned[i]); /* getopt permutes argv, not the strings */
    free(owned);
    return r;
}

static int64_t grid_x(const cusrc_launch *l)
{
    assert_true(l->grid.x.known);
    return l->grid.x.value;
}

static int64_t block_x(const cusrc_launch *l)
{
    assert_true(l->block.x.known);
    return l->block.x.value;
}

static void test_getopt_matches_glibc(void **state)
{
    (void)state;
    static const char *const cases[][8] = {
        {NULL},
        {"-a", NULL},
        {"-aaa", NULL},
        {"-b", "64", NULL},
        {"-b64", "-a", NULL},
        {"file", "-b", "128", "more", "-q", NULL},
        {"-qab", "40", NULL},
        {"-c", "7", NULL},
        {"-c7", NULL},
        {"-x", "-a", "-y", NULL},
        {"-a", "--", "-b", "9", NULL},
        {"-b", NULL},
        {"-", "-a", NULL},
        {"-b", "-a", NULL},
        {"-ab", NULL},
        {"-c", "-c5", "x", "-qq", NULL},
    };
    char dir[] = "/tmp/gpulint-argrun-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/parse.cu", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(source, f);
    fclose(f);
    cusrc_ctx *ctx = cusrc_ctx_new();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n = 0;
        while (cases[i][n])
            n++;
        result want = native(cases[i], n);
        cusrc_options o = {.file = path, .arch = "sm_90", .run_args = cases[i], .n_run_args = n};
        cusrc_unit u;
        char *err = NULL;
        assert_true(cusrc_parse(ctx, &o, &u, &err));
        assert_int_equal(u.n_launches, 3);
        print_message("case %zu: a %d b %d c %d q %d bad %d\n", i, want.a, want.b, want.c, want.q,
                      want.bad);
        assert_int_equal(grid_x(&u.launches[0]), want.a);
        assert_int_equal(block_x(&u.launches[0]), want.b);
        assert_int_equal(grid_x(&u.launches[1]), want.c);
        assert_int_equal(block_x(&u.launches[1]), want.q + 1);
        assert_int_equal(grid_x(&u.launches[2]), want.bad + 1);
        cusrc_unit_free(&u);
    }
    cusrc_ctx_free(ctx);
    unlink(path);
    rmdir(dir);
}

/* A helper of the program's own that converts with strtol and checks its
 * end pointer (LULESH's StrToInt), defined in the parser's file or in
 * another unit of the program (cusrc_sibling): what the same C function,
 * compiled here, leaves. */
#define TO_INT_BODY                                                                                \
    "{\n"                                                                                          \
    "    char *end;\n"                                                                             \
    "    if (t == NULL)\n"                                                                         \
    "        return 0;\n"                                                                          \
    "    *v = (int)strtol(t, &end, 10);\n"                                                         \
    "    return end != t && *end == '\\0';\n"                                                      \
    "}\n"

static int to_int(const char *t, int *v)
{
    char *end;
    if (t == NULL)
        return 0;
    *v = (int)strtol(t, &end, 10);
    return end != t && *end == '\0';
}

static const char helper_decls[] = "#include <cstdlib>\n"
                                   "#include <cstring>\n"
                                   "struct opts { int n; int bad; };\n"
                                   "int to_int(const char *t, int *v);\n"
                                   "void parse(int argc, char **argv, opts *o);\n";

static const char helper_def[] = "int to_int(const char *t, int *v)\n" TO_INT_BODY;

static const char parse_def[] =
    "void parse(int argc, char **argv, opts *o)\n"
    "{\n"
    "    for (int i = 1; i + 1 < argc; i += 2)\n"
    "        if (strcmp(argv[i], \"-n\") == 0 && !to_int(argv[i + 1], &(o->n)))\n"
    "            o->bad = 1;\n"
    "}\n";

static const char helper_main[] = "__global__ void k(int *p) { p[threadIdx.x] = 1; }\n"
                                  "int main(int argc, char **argv)\n"
                                  "{\n"
                                  "    opts o;\n"
                                  "    o.n = 5;\n"
                                  "    o.bad = 0;\n"
                                  "    parse(argc, argv, &o);\n"
                                  "    int *p;\n"
                                  "    cudaMalloc(&p, 4096);\n"
                                  "    k<<<o.n + 100, o.bad + 1>>>(p);\n"
                                  "    return 0;\n"
                                  "}\n";

static void write_file(const char *path, const char *const *parts)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; parts[i]; i++)
        fputs(parts[i], f);
    fclose(f);
}

static void test_helper_matches_libc(void **state)
{
    (void)state;
    static const char *const cases[][3] = {
        {"-n", "12", NULL}, {"-n", "-7", NULL},   {"-n", "12abc", NULL},
        {"-n", "", NULL},   {"-n", "0x1f", NULL}, {"-m", "3", NULL},
    };
    char dir[] = "/tmp/gpulint-argrun-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char one[64], two[64], util[64];
    snprintf(one, sizeof one, "%s/one.cu", dir);
    snprintf(two, sizeof two, "%s/main.cu", dir);
    snprintf(util, sizeof util, "%s/util.cu", dir);
    write_file(one, (const char *const[]){helper_decls, helper_def, parse_def, helper_main, NULL});
    write_file(two, (const char *const[]){helper_decls, helper_main, NULL});
    write_file(util, (const char *const[]){helper_decls, helper_def, parse_def, NULL});
    cusrc_sibling sib = {util, NULL, 0};
    cusrc_ctx *ctx = cusrc_ctx_new();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n = 0, want_n = 5, want_bad = 0;
        while (n < 2 && cases[i][n])
            n++;
        if (!strcmp(cases[i][0], "-n") && !to_int(cases[i][1], &want_n))
            want_bad = 1;
        for (int split = 0; split < 2; split++) {
            cusrc_options o = {.file = split ? two : one,
                               .arch = "sm_90",
                               .run_args = cases[i],
                               .n_run_args = n,
                               .siblings = split ? &sib : NULL,
                               .n_siblings = split};
            cusrc_unit u;
            char *err = NULL;
            assert_true(cusrc_parse(ctx, &o, &u, &err));
            assert_int_equal(u.n_launches, 1);
            print_message("case %zu (%s): n %d bad %d\n", i, split ? "two units" : "one unit",
                          want_n, want_bad);
            assert_int_equal(grid_x(&u.launches[0]), want_n + 100);
            assert_int_equal(block_x(&u.launches[0]), want_bad + 1);
            assert_int_equal(u.n_siblings_read, (size_t)split);
            cusrc_unit_free(&u);
        }
    }
    cusrc_ctx_free(ctx);
    unlink(one);
    unlink(two);
    unlink(util);
    rmdir(dir);
}

/* A large program: of 70 other units, 69 in another directory, the one
 * beside main.cu that defines the parser is read first, and no more than
 * 64 units' text is read in all. */
static void test_sibling_cap(void **state)
{
    (void)state;
    char dir[] = "/tmp/gpulint-argrun-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char two[64], util[64], other[64];
    snprintf(two, sizeof two, "%s/main.cu", dir);
    snprintf(util, sizeof util, "%s/util.cu", dir);
    snprintf(other, sizeof other, "%s/other", dir);
    assert_int_equal(mkdir(other, 0700), 0);
    write_file(two, (const char *const[]){helper_decls, helper_main, NULL});
    write_file(util, (const char *const[]){helper_decls, helper_def, parse_def, NULL});
    cusrc_sibling sib[70];
    char names[69][80];
    for (int i = 0; i < 69; i++) {
        snprintf(names[i], sizeof names[i], "%s/u%02d.cu", other, i);
        write_file(names[i], (const char *const[]){"void parse_unrelated(void) {}\n", NULL});
        sib[i] = (cusrc_sibling){names[i], NULL, 0};
    }
    sib[69] = (cusrc_sibling){util, NULL, 0};
    static const char *const args[] = {"-n", "12"};
    cusrc_options o = {.file = two,
                       .arch = "sm_90",
                       .run_args = args,
                       .n_run_args = 2,
                       .siblings = sib,
                       .n_siblings = 70};
    cusrc_ctx *ctx = cusrc_ctx_new();
    cusrc_unit u;
    char *err = NULL;
    assert_true(cusrc_parse(ctx, &o, &u, &err));
    assert_int_equal(u.n_launches, 1);
    assert_int_equal(grid_x(&u.launches[0]), 112);
    assert_true(u.n_siblings_read >= 1 && u.n_siblings_read <= 64);
    cusrc_unit_free(&u);
    cusrc_ctx_free(ctx);
    for (int i = 0; i < 69; i++)
        unlink(names[i]);
    rmdir(other);
    unlink(two);
    unlink(util);
    rmdir(dir);
}

/* The cache directory holds the precompiled wrapper header: removed after. */
int main(void)
{
    char cache[] = "/tmp/gpulint-argrun-cache-XXXXXX";
    if (!mkdtemp(cache))
        return 1;
    setenv("GPULINT_CACHE_DIR", cache, 1);
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_getopt_matches_glibc),
                                       cmocka_unit_test(test_helper_matches_libc),
                                       cmocka_unit_test(test_sibling_cap)};
    int rc = cmocka_run_group_tests_name("argrun", tests, NULL, NULL);
    fsutil_remove_tree(cache);
    return rc;
}

#else /* built without libclang */

int main(void)
{
    printf("skipped: built without libclang\n");
    return 77;
}

#endif
