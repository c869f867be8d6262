/* test_argrun: the front end's run of a program's option parser against
 * the C library's own. One getopt loop, written to a .cu file, is run by
 * gpulint on each argument list (--run-args) and by this process's glibc
 * getopt on the same list; the sizes the launches get must be what the
 * real loop leaves. Built without libclang, there is nothing to run. */
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

/* The cache directory holds the precompiled wrapper header: removed after. */
int main(void)
{
    char cache[] = "/tmp/gpulint-argrun-cache-XXXXXX";
    if (!mkdtemp(cache))
        return 1;
    setenv("GPULINT_CACHE_DIR", cache, 1);
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_getopt_matches_glibc)};
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
