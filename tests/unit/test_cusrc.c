/* test_cusrc: the libclang front end over the bundled examples and a few
 * test files. Every number asserted here is what the analyses will compute
 * from, so launch configurations, array extents, byte offsets (evaluated
 * with the thread and loop indices bound), guards and loop contexts are
 * checked by value, not by their text. Lines are looked up by the source
 * text they hold, so editing a comment in an example does not break a
 * test. Built without libclang, it checks the "built without libclang"
 * error instead. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "cusrc/cusrc.h"
#include "util/fsutil.h"
#include "input/compdb.h"

#ifndef CUSRC_ROOT
#error "CUSRC_ROOT (the project's source root) must be defined"
#endif

#if GPULINT_HAVE_LIBCLANG

/* ---- parsing, once per file ---- */

typedef struct cached {
    char *rel;
    cusrc_unit u;
} cached;

static cusrc_ctx *ctx;
static cached cache[32];
static int n_cache;

static char *path_of(const char *rel)
{
    size_t n = strlen(CUSRC_ROOT) + strlen(rel) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", CUSRC_ROOT, rel);
    return p;
}

static const cusrc_unit *unit(const char *rel)
{
    for (int i = 0; i < n_cache; i++)
        if (!strcmp(cache[i].rel, rel))
            return &cache[i].u;
    assert_true(n_cache < 32);
    char *path = path_of(rel);
    cusrc_options o = {.file = path, .arch = "sm_90"};
    char *err = NULL;
    cached *c = &cache[n_cache];
    bool ok = cusrc_parse(ctx, &o, &c->u, &err);
    if (!ok)
        fail_msg("%s: %s", rel, err ? err : "?");
    free(path);
    c->rel = strdup(rel);
    n_cache++;
    return &c->u;
}

static char cache_dir[] = "/tmp/gpulint-test-cache-XXXXXX";

static int setup(void **state)
{
    (void)state;
    /* Every test parses with a precompiled wrapper header in a private
     * cache (test_pch_cache checks it changes nothing). */
    if (!mkdtemp(cache_dir))
        return -1;
    setenv("GPULINT_CACHE_DIR", cache_dir, 1);
    ctx = cusrc_ctx_new();
    return ctx ? 0 : -1;
}

static int count_pch(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        n += strstr(e->d_name, ".pch") && !strstr(e->d_name, ".tmp");
    if (d)
        closedir(d);
    return n;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < n_cache; i++) {
        cusrc_unit_free(&cache[i].u);
        free(cache[i].rel);
    }
    cusrc_ctx_free(ctx);
    fsutil_remove_tree(cache_dir);
    return 0;
}

/* The line of the nth (0-based) occurrence of text in a file, outside // comments. */
static int line_of(const char *rel, const char *text, int nth)
{
    char *path = path_of(rel);
    FILE *f = fopen(path, "r");
    free(path);
    assert_non_null(f);
    char buf[4096];
    int line = 0, found = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        const char *hit = strstr(buf, text), *comment = strstr(buf, "//");
        if (hit && (!comment || comment > hit) && found++ == nth) {
            fclose(f);
            return line;
        }
    }
    fclose(f);
    fail_msg("'%s' not found in %s", text, rel);
    return 0;
}

/* ---- lookups ---- */

static const cusrc_variant *variant(const cusrc_unit *u, const char *name)
{
    for (size_t i = 0; i < u->n_variants; i++)
        if (!strcmp(u->variants[i].name, name))
            return &u->variants[i];
    fail_msg("no variant %s", name);
    return NULL;
}

static const mem_access *access_at(const cusrc_unit *u, const cusrc_variant *v, int line,
                                   const char *text, bool store)
{
    for (size_t i = v->first_access; i < v->first_access + v->n_accesses; i++) {
        const mem_access *a = &u->accesses[i];
        if (a->loc.line == line && !strcmp(a->text, text) && a->is_store == store)
            return a;
    }
    fail_msg("no %s of '%s' on line %d in %s", store ? "store" : "load", text, line, v->name);
    return NULL;
}

static int count_accesses(const cusrc_unit *u, const cusrc_variant *v, int line, const char *text)
{
    int n = 0;
    for (size_t i = v->first_access; i < v->first_access + v->n_accesses; i++)
        if (u->accesses[i].loc.line == line && !strcmp(u->accesses[i].text, text))
            n++;
    return n;
}

static const branch_site *branch_at(const cusrc_unit *u, const cusrc_variant *v, int line,
                                    branch_kind kind)
{
    for (size_t i = v->first_branch; i < v->first_branch + v->n_branches; i++)
        if (u->branches[i].loc.line == line && u->branches[i].kind == kind)
            return &u->branches[i];
    fail_msg("no branch of kind %d on line %d in %s", (int)kind, line, v->name);
    return NULL;
}

static const cusrc_launch *launch_at(const cusrc_unit *u, int line, int nth)
{
    for (size_t i = 0; i < u->n_launches; i++)
        if (u->launches[i].loc.line == line && nth-- == 0)
            return &u->launches[i];
    fail_msg("no launch on line %d", line);
    return NULL;
}

static const smem_array *array_of(const cusrc_unit *u, const cusrc_variant *v, const char *name)
{
    for (size_t i = v->first_array; i < v->first_array + v->n_arrays; i++)
        if (!strcmp(u->arrays[i].name, name))
            return &u->arrays[i];
    fail_msg("no array %s in %s", name, v->name);
    return NULL;
}

/* ---- evaluation ---- */

static void env_thread(expr_env *e, int64_t tx, int64_t ty, int64_t bx, int64_t by, int64_t bdx,
                       int64_t bdy)
{
    expr_env_init(e);
    expr_env_set_builtin(e, SYM_TID_X, tx);
    expr_env_set_builtin(e, SYM_TID_Y, ty);
    expr_env_set_builtin(e, SYM_TID_Z, 0);
    expr_env_set_builtin(e, SYM_BID_X, bx);
    expr_env_set_builtin(e, SYM_BID_Y, by);
    expr_env_set_builtin(e, SYM_BID_Z, 0);
    expr_env_set_builtin(e, SYM_BDIM_X, bdx);
    expr_env_set_builtin(e, SYM_BDIM_Y, bdy);
    expr_env_set_builtin(e, SYM_BDIM_Z, 1);
    expr_env_set_builtin(e, SYM_WARP_SIZE, 32);
}

/* Counts weight an if's arms by "taken_A<n>" symbols (cusrc_counts): left
 * unbound they are taken as 1, the count of a thread that takes every arm. */
static int64_t ev(const expr *e, const expr_env *env_in)
{
    assert_non_null(e);
    expr_env all;
    if (env_in)
        all = *env_in;
    else
        expr_env_init(&all);
    expr_env *env = &all;
    for (const char *n; (n = expr_first_unbound(e, env)) && strncmp(n, "taken_A", 7) == 0;)
        assert_true(expr_env_set(env, n, 1));
    int64_t v = 0;
    const char *why = NULL;
    expr_status s = expr_eval(e, env, &v, &why);
    if (s != EXPR_OK) {
        char *t = expr_to_string(e);
        fail_msg("cannot evaluate %s: %s (status %d)", t, why ? why : "?", (int)s);
    }
    return v;
}

static void assert_dim3(const cusrc_dim3 *d, int64_t x, int64_t y, int64_t z)
{
    assert_true(d->present);
    assert_true(d->x.known);
    assert_true(d->y.known);
    assert_true(d->z.known);
    assert_int_equal(d->x.value, x);
    assert_int_equal(d->y.value, y);
    assert_int_equal(d->z.value, z);
}

static void assert_loop(const loop_ctx *l, const char *var, int64_t init_value)
{
    assert_non_null(l->var);
    assert_string_equal(l->var, var);
    assert_non_null(l->init);
    assert_non_null(l->cond);
    assert_non_null(l->next);
    assert_int_equal(ev(l->init, NULL), init_value);
}

/* ---- transpose.cu ---- */

#define TR "examples/transpose.cu"

static void test_transpose_kernels(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(TR);
    assert_int_equal(u->n_errors, 0);
    assert_int_equal(u->n_kernels, 4);
    const cusrc_kernel *k = cusrc_find_kernel(u, "transposeTiled");
    assert_non_null(k);
    assert_true(k->templated);
    assert_int_equal(k->n_tparams, 2);
    assert_string_equal(k->tparams[0], "TILE_DIM");
    assert_string_equal(k->tparams[1], "PAD");
    assert_int_equal(k->n_params, 4);
    assert_string_equal(k->params[1].name, "in");
    assert_int_equal(k->params[1].pointee_size, 4);
    assert_int_equal(k->loc.line, line_of(TR, "__global__ void transposeTiled", 0));
    assert_null(k->mangled);
    assert_int_equal(k->n_variants, 3);

    const cusrc_kernel *naive = cusrc_find_kernel(u, "transposeTileNaive");
    assert_non_null(naive);
    assert_false(naive->templated);
    assert_string_equal(naive->mangled, "_Z18transposeTileNaivePfPKfii");

    const cusrc_variant *v = variant(u, "transposeTiled<32, 1>");
    assert_string_equal(v->mangled, "_Z14transposeTiledILi32ELi1EEvPfPKfii");
    assert_int_equal(v->n_targs, 2);
    assert_string_equal(v->targs[0].param, "TILE_DIM");
    assert_int_equal(v->targs[0].value, 32);
    assert_int_equal(v->targs[1].value, 1);
    assert_false(v->generic);
}

static void test_transpose_launches(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(TR);
    assert_int_equal(u->n_launches, 6);
    const cusrc_launch *l = launch_at(u, line_of(TR, "transposeTileNaive<<<", 0), 0);
    assert_int_equal(l->kind, CUSRC_LAUNCH_CHEVRON);
    assert_string_equal(l->kernel_name, "transposeTileNaive");
    assert_string_equal(l->function, "main");
    assert_dim3(&l->grid, 32, 32, 1);
    assert_dim3(&l->block, 32, 8, 1);
    assert_true(l->smem.known);
    assert_int_equal(l->smem.value, 0);
    assert_false(l->smem_optin);
    assert_string_equal(u->variants[l->variant].name, "transposeTileNaive");
    /* The kernel's arguments: pointers are not constants, the sizes are. */
    assert_int_equal(l->n_args, 4);
    assert_false(l->args[0].known);
    assert_string_equal(l->args[0].text, "out");
    assert_true(l->args[2].known);
    assert_int_equal(l->args[2].value, 1024);
    assert_true(l->args[3].known);
    assert_int_equal(l->args[3].value, 1024);

    l = launch_at(u, line_of(TR, "transposeTiled<16, 1><<<", 0), 0);
    assert_dim3(&l->grid, 64, 64, 1);
    assert_dim3(&l->block, 16, 4, 1);
    assert_int_equal(l->n_targs, 2);
    assert_int_equal(l->targs[0].value, 16);
    assert_int_equal(l->targs[1].value, 1);
    assert_string_equal(l->targs_text, "16, 1");
    assert_string_equal(l->mangled, "_Z14transposeTiledILi16ELi1EEvPfPKfii");
    const cusrc_variant *v = cusrc_launch_variant(u, l);
    assert_non_null(v);
    assert_string_equal(v->name, "transposeTiled<16, 1>");
    assert_string_equal(l->block.x.text, "16");
}

static void test_transpose_tiles(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(TR);
    const smem_array *a = array_of(u, variant(u, "transposeTileNaive"), "tile");
    assert_int_equal(a->n_dims, 2);
    assert_int_equal(a->dims[0], 32);
    assert_int_equal(a->dims[1], 32);
    assert_int_equal(a->elem_size, 4);
    assert_false(a->dynamic);
    a = array_of(u, variant(u, "transposeTilePadded"), "tile");
    assert_int_equal(a->dims[1], 33);
    a = array_of(u, variant(u, "transposeTiled<32, 0>"), "tile");
    assert_int_equal(a->dims[1], 32);
    a = array_of(u, variant(u, "transposeTiled<16, 1>"), "tile");
    assert_int_equal(a->dims[0], 16);
    assert_int_equal(a->dims[1], 17);
    assert_int_equal(variant(u, "transposeTilePadded")->static_smem, 32 * 33 * 4);
    assert_int_equal(variant(u, "transposeTiled<16, 1>")->static_smem, 16 * 17 * 4);
}

static void test_transpose_offsets(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(TR);
    int read = line_of(TR, "= tile[threadIdx.x][threadIdx.y + j];", 1); /* the padded kernel's */
    const cusrc_variant *v = variant(u, "transposeTilePadded");
    const mem_access *a = access_at(u, v, read, "tile[threadIdx.x][threadIdx.y + j]", false);
    assert_int_equal(a->space, SPACE_SHARED);
    assert_string_equal(a->base, "tile");
    assert_string_equal(u->arrays[a->array].name, "tile");
    assert_int_equal(u->arrays[a->array].dims[1], 33);
    assert_int_equal(a->width, 4);
    assert_null(a->why_not);
    assert_string_equal(a->kernel, "transposeTilePadded");
    expr_env env;
    env_thread(&env, 3, 2, 0, 0, 32, 8);
    expr_env_set(&env, "j", 8);
    assert_int_equal(ev(a->byte_offset, &env), 3 * 33 * 4 + (2 + 8) * 4);

    /* The naive tile: 32 floats a row. */
    v = variant(u, "transposeTileNaive");
    a = access_at(u, v, line_of(TR, "= tile[threadIdx.x][threadIdx.y + j];", 0),
                  "tile[threadIdx.x][threadIdx.y + j]", false);
    assert_int_equal(ev(a->byte_offset, &env), 3 * 32 * 4 + 10 * 4);

    /* The row write. */
    a = access_at(u, v, line_of(TR, "tile[threadIdx.y + j][threadIdx.x] = in", 0),
                  "tile[threadIdx.y + j][threadIdx.x]", true);
    assert_int_equal(ev(a->byte_offset, &env), 10 * 32 * 4 + 3 * 4);

    /* x and y are reassigned after __syncthreads(): the store uses the
     * swapped block indices. */
    a = access_at(u, v, line_of(TR, "out[(y + j) * height + x] = tile", 0),
                  "out[(y + j) * height + x]", true);
    assert_int_equal(a->space, SPACE_GLOBAL);
    assert_string_equal(a->base, "out");
    expr_env g;
    env_thread(&g, 0, 0, 0, 1, 32, 8);
    expr_env_set(&g, "j", 0);
    expr_env_set(&g, "height", 1024);
    expr_env_set(&g, "width", 1024);
    assert_int_equal(ev(a->byte_offset, &g), (0 * 1024 + 32) * 4);

    /* Template instantiation: TILE_DIM + PAD folded. */
    v = variant(u, "transposeTiled<32, 1>");
    a = access_at(u, v, line_of(TR, "tile[threadIdx.x][threadIdx.y + j];", 2),
                  "tile[threadIdx.x][threadIdx.y + j]", false);
    assert_int_equal(ev(a->byte_offset, &env), 3 * 33 * 4 + 10 * 4);
}

static void test_transpose_guards_loops(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(TR);
    const cusrc_variant *v = variant(u, "transposeTileNaive");
    const mem_access *a = access_at(u, v, line_of(TR, "tile[threadIdx.y + j][threadIdx.x] = in", 0),
                                    "tile[threadIdx.y + j][threadIdx.x]", true);
    assert_int_equal(a->n_loops, 1);
    assert_loop(&a->loops[0], "j", 0);
    assert_int_equal(a->loops[0].loc.line, line_of(TR, "for (int j = 0; j < TILE;", 1));
    assert_false(a->loops[0].barrier); /* the barrier comes after the loop */
    expr_env env;
    expr_env_init(&env);
    expr_env_set(&env, "j", 8);
    assert_int_equal(ev(a->loops[0].next, &env), 16);
    assert_int_equal(ev(a->loops[0].cond, &env), 1);
    expr_env_set(&env, "j", 32);
    assert_int_equal(ev(a->loops[0].cond, &env), 0);

    assert_non_null(a->guard);
    expr_env g;
    env_thread(&g, 1, 1, 0, 0, 32, 8);
    expr_env_set(&g, "j", 0);
    expr_env_set(&g, "width", 1024);
    expr_env_set(&g, "height", 1024);
    assert_int_equal(ev(a->guard, &g), 1);
    expr_env_set(&g, "width", 1);
    assert_int_equal(ev(a->guard, &g), 0);

    /* The loop is a branch site too, with its own context last. */
    const branch_site *b =
        branch_at(u, v, line_of(TR, "for (int j = 0; j < TILE;", 1), BRANCH_LOOP);
    assert_int_equal(b->n_loops, 1);
    assert_string_equal(b->loops[0].var, "j");
    assert_int_equal(ev(b->cond, &env), 0);
}

/* ---- reduction.cu ---- */

#define RD "examples/reduction.cu"

static void test_reduction(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(RD);
    assert_int_equal(u->n_errors, 0); /* cooperative_groups.h parses */
    assert_int_equal(u->n_launches, 3);
    assert_dim3(&launch_at(u, line_of(RD, "reduceInterleaved<<<", 0), 0)->grid, 65536, 1, 1);

    /* Neighbored: the divergent condition. */
    const cusrc_variant *v = variant(u, "reduceNeighbored");
    const branch_site *b =
        branch_at(u, v, line_of(RD, "if (tid % (2 * stride) == 0)", 0), BRANCH_IF);
    expr_env env;
    env_thread(&env, 2, 0, 0, 0, 256, 1);
    expr_env_set(&env, "stride", 1);
    assert_int_equal(ev(b->cond, &env), 1);
    expr_env_set_builtin(&env, SYM_TID_X, 3);
    assert_int_equal(ev(b->cond, &env), 0);
    assert_int_equal(b->n_loops, 1);
    assert_loop(&b->loops[0], "stride", 1);
    expr_env_set(&env, "stride", 4);
    assert_int_equal(ev(b->loops[0].next, &env), 8);

    int line = line_of(RD, "sdata[tid] += sdata[tid + stride];", 0);
    const mem_access *a = access_at(u, v, line, "sdata[tid + stride]", false);
    assert_int_equal(ev(a->byte_offset, &env), (3 + 4) * 4);
    /* The loop's body calls __syncthreads: its warps go in lockstep. */
    assert_true(a->loops[0].barrier);
    /* += loads and stores the target. */
    assert_int_equal(count_accesses(u, v, line, "sdata[tid]"), 2);
    access_at(u, v, line, "sdata[tid]", true);
    access_at(u, v, line, "sdata[tid]", false);

    /* NeighboredLess: index = 2 * stride * tid. */
    v = variant(u, "reduceNeighboredLess");
    a = access_at(u, v, line_of(RD, "sdata[index] += sdata[index + stride];", 0), "sdata[index]",
                  true);
    env_thread(&env, 3, 0, 0, 0, 256, 1);
    expr_env_set(&env, "stride", 2);
    assert_int_equal(ev(a->byte_offset, &env), 2 * 2 * 3 * 4);
    assert_int_equal(ev(a->guard, &env), 1);

    /* Interleaved: the stride halves from blockDim.x / 2. */
    v = variant(u, "reduceInterleaved");
    a = access_at(u, v, line_of(RD, "sdata[tid] += sdata[tid + stride];", 1), "sdata[tid + stride]",
                  false);
    assert_int_equal(a->n_loops, 1);
    env_thread(&env, 5, 0, 0, 0, 256, 1);
    assert_int_equal(ev(a->loops[0].init, &env), 128);
    expr_env_set(&env, "stride", 64);
    assert_int_equal(ev(a->loops[0].next, &env), 32);
    assert_int_equal(ev(a->guard, &env), 1);
    assert_int_equal(ev(a->byte_offset, &env), (5 + 64) * 4);
    expr_env_set_builtin(&env, SYM_TID_X, 64);
    assert_int_equal(ev(a->guard, &env), 0);

    /* The halving loop has no closed form: its count is the loop itself,
     * run for the launch's block (log2 of it passes). */
    assert_int_equal(v->counts.n_unknown_trips, 0);
    env_thread(&env, 0, 0, 0, 0, 256, 1);
    assert_int_equal(ev(v->counts.flops_fp32, &env), 8);
    assert_int_equal(ev(v->counts.gmem_load_bytes, &env), 4);
    env_thread(&env, 0, 0, 0, 0, 1024, 1);
    assert_int_equal(ev(v->counts.flops_fp32, &env), 10);
}

/* ---- divergence.cu ---- */

#define DV "examples/divergence.cu"

static void test_divergence(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(DV);
    expr_env env;
    env_thread(&env, 0, 0, 0, 0, 64, 1);

    const branch_site *b =
        branch_at(u, variant(u, "mathKernel1"), line_of(DV, "if (tid % 2 == 0)", 0), BRANCH_IF);
    assert_null(b->why_not);
    for (int t = 0; t < 4; t++) {
        expr_env_set_builtin(&env, SYM_TID_X, t);
        assert_int_equal(ev(b->cond, &env), t % 2 == 0);
    }
    /* warpSize stays a builtin. */
    b = branch_at(u, variant(u, "mathKernel2"), line_of(DV, "if ((tid / warpSize) % 2 == 0)", 0),
                  BRANCH_IF);
    assert_true(expr_uses_builtin(b->cond, SYM_WARP_SIZE));
    expr_env_set_builtin(&env, SYM_TID_X, 31);
    assert_int_equal(ev(b->cond, &env), 1);
    expr_env_set_builtin(&env, SYM_TID_X, 32);
    assert_int_equal(ev(b->cond, &env), 0);
    /* A predicate kept in a local is followed to threadIdx. */
    b = branch_at(u, variant(u, "mathKernel3"), line_of(DV, "if (!ipred)", 0), BRANCH_IF);
    expr_env_set_builtin(&env, SYM_TID_X, 1);
    assert_int_equal(ev(b->cond, &env), 1);
    /* Per-lane trip count: the loop bound and the flop count per thread. */
    const cusrc_variant *v = variant(u, "laneLoop");
    b = branch_at(u, v, line_of(DV, "for (int i = 0; i < lane; i++)", 0), BRANCH_LOOP);
    assert_true(expr_uses_builtin(b->loops[0].cond, SYM_TID_X));
    expr_env_set_builtin(&env, SYM_TID_X, 37);
    assert_int_equal(ev(v->counts.flops_fp32, &env), 5);
    assert_int_equal(ev(v->counts.gmem_load_bytes, &env), 20);
}

/* ---- coalescing.cu ---- */

#define CO "examples/coalescing.cu"

static void test_coalescing(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(CO);
    expr_env env;
    env_thread(&env, 3, 0, 0, 0, 256, 1);
    expr_env_set(&env, "stride", 2);
    expr_env_set(&env, "n", 1 << 20);

    const mem_access *a =
        access_at(u, variant(u, "copyStrided"), line_of(CO, "out[i] = in[i * stride];", 0),
                  "in[i * stride]", false);
    assert_int_equal(ev(a->byte_offset, &env), 3 * 2 * 4);
    assert_int_equal(ev(a->guard, &env), 1);

    /* Array of structs: element size 16, field y at 4. */
    a = access_at(u, variant(u, "aosField"), line_of(CO, "out[i] = p[i].y;", 0), "p[i].y", false);
    assert_int_equal(a->width, 4);
    assert_string_equal(a->base, "p");
    assert_int_equal(ev(a->byte_offset, &env), 3 * 16 + 4);

    /* A pointer field of a struct parameter is a global base of its own. */
    a = access_at(u, variant(u, "soaField"), line_of(CO, "out[i] = p.y[i];", 0), "p.y[i]", false);
    assert_string_equal(a->base, "p.y");
    assert_int_equal(ev(a->byte_offset, &env), 12);

    a = access_at(u, variant(u, "copyFloat4"), line_of(CO, "out[i] = in[i];", 1), "in[i]", false);
    assert_int_equal(a->width, 16);
    assert_int_equal(ev(a->byte_offset, &env), 48);
    a = access_at(u, variant(u, "copyFloat4"), line_of(CO, "out[i] = in[i];", 1), "out[i]", true);
    assert_int_equal(a->width, 16);

    /* After `if (col >= cols) return;` the rest of the kernel is guarded. */
    const cusrc_variant *v = variant(u, "columnRead");
    a = access_at(u, v, line_of(CO, "float first = m[col * cols];", 0), "m[col * cols]", false);
    expr_env_set(&env, "cols", 2048);
    assert_int_equal(ev(a->guard, &env), 1);
    assert_int_equal(ev(a->byte_offset, &env), 3 * 2048 * 4);
    expr_env_set(&env, "cols", 2);
    assert_int_equal(ev(a->guard, &env), 0);
    expr_env_set(&env, "rows", 100);
    /* `colSum[col] += first` reads what the statement before stored: nvcc
     * loads nothing for it. */
    assert_int_equal(ev(v->counts.gmem_load_bytes, &env), 100 * 4 + 4);
    assert_int_equal(ev(v->counts.flops_fp32, &env), 101);
}

/* ---- gemm_tiled.cu ---- */

#define GM "examples/gemm_tiled.cu"

static void test_gemm_instantiations(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(GM);
    const cusrc_kernel *k = cusrc_find_kernel(u, "sgemmTiled");
    assert_int_equal(k->n_variants, 3);
    assert_string_equal(k->annotation, "flops=2*M*N*K bytes=4*(M*K+K*N+2*M*N)");
    assert_true(k->launch_bounds.present);
    assert_int_equal(k->launch_bounds.max_threads, -1); /* depends on the instantiation */
    const cusrc_variant *v = variant(u, "sgemmTiled<64, 64, 8, 8>");
    assert_int_equal(v->launch_bounds.max_threads, 512);
    assert_int_equal(variant(u, "sgemmTiled<32, 32, 32, 1>")->launch_bounds.max_threads, 1024);
    const cusrc_variant *big = variant(u, "sgemmTiled<128, 64, 8, 16>");
    assert_int_equal(big->static_smem, (128 * 8 + 8 * 64) * 4);
    assert_int_equal(array_of(u, big, "As")->dims[0], 128);
    assert_int_equal(array_of(u, big, "Bs")->dims[1], 64);

    /* Direct launches... */
    const cusrc_launch *l = launch_at(u, line_of(GM, "sgemmTiled<64, 64, 8, 8><<<", 0), 0);
    assert_dim3(&l->grid, 16, 16, 1);
    assert_dim3(&l->block, 512, 1, 1);
    assert_ptr_equal(cusrc_launch_variant(u, l), v);
    /* ...and the one inside the templated helper, seen from main's call
     * with M, N bound to main's constants. */
    l = launch_at(u, line_of(GM, "sgemmTiled<BM, BN, BK, TM><<<", 0), 0);
    assert_string_equal(l->function, "launchSgemm");
    assert_dim3(&l->grid, 16, 8, 1);
    assert_dim3(&l->block, 512, 1, 1);
    assert_ptr_equal(cusrc_launch_variant(u, l), big);
    assert_int_equal(l->targs[3].value, 16);
    assert_string_equal(l->targs[3].param, "TM");
}

static void test_gemm_offsets_counts(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(GM);
    const cusrc_variant *v = variant(u, "sgemmTiled<64, 64, 8, 8>");
    int line = line_of(GM, "acc[t] += As[threadRow * TM + t][k] * bv;", 0);
    const mem_access *a = access_at(u, v, line, "As[threadRow * TM + t][k]", false);
    assert_int_equal(a->n_loops, 3);
    assert_string_equal(a->loops[0].var, "k0");
    assert_string_equal(a->loops[1].var, "k");
    assert_string_equal(a->loops[2].var, "t");
    expr_env env;
    env_thread(&env, 65, 0, 0, 0, 512, 1);
    expr_env_set(&env, "t", 2);
    expr_env_set(&env, "k", 3);
    /* threadRow = 65 / 64 = 1; row 1 * 8 + 2 of an [64][8] float tile. */
    assert_int_equal(ev(a->byte_offset, &env), (1 * 8 + 2) * 8 * 4 + 3 * 4);

    /* The pointer `a = A + blockIdx.y * BM * K` is followed. */
    a = access_at(u, v, line_of(GM, "As[innerRowA][innerColA] = a[", 0),
                  "a[innerRowA * K + innerColA + k0]", false);
    assert_string_equal(a->base, "A");
    env_thread(&env, 9, 0, 0, 2, 512, 1);
    expr_env_set(&env, "K", 1024);
    expr_env_set(&env, "k0", 16);
    assert_int_equal(ev(a->byte_offset, &env), (2 * 64 * 1024 + 1 * 1024 + 1 + 16) * 4);

    /* Per thread: K/8 steps of BK * TM multiply-adds, then TM epilogues
     * of 3 flops; loads of one A and one B element per step plus C. */
    expr_env_set(&env, "K", 1024);
    assert_int_equal(ev(v->counts.flops_fp32, &env), 128 * 8 * 8 * 2 + 8 * 3);
    assert_int_equal(ev(v->counts.gmem_load_bytes, &env), 128 * 8 + 8 * 4);
    assert_int_equal(ev(v->counts.gmem_store_bytes, &env), 8 * 4);
}

/* ---- small examples ---- */

static void test_vector_add(void **state)
{
    (void)state;
    const char *f = "examples/vector_add.cu";
    const cusrc_unit *u = unit(f);
    const cusrc_variant *v = variant(u, "vectorAdd");
    assert_string_equal(u->kernels[v->kernel].annotation, "flops=n bytes=12*n");
    const mem_access *a = access_at(u, v, line_of(f, "c[i] = a[i] + b[i];", 0), "c[i]", true);
    /* Grid-stride loop: i starts at the global index and steps by the grid. */
    assert_int_equal(a->n_loops, 1);
    expr_env env;
    env_thread(&env, 5, 0, 2, 0, 256, 1);
    expr_env_set_builtin(&env, SYM_GDIM_X, 100);
    assert_int_equal(ev(a->loops[0].init, &env), 2 * 256 + 5);
    expr_env_set(&env, "i", 7);
    assert_int_equal(ev(a->loops[0].next, &env), 7 + 25600);
    assert_int_equal(ev(a->byte_offset, &env), 28);
    /* Trip count per thread: n = 51200 + 517 covers thread 517 three times. */
    expr_env_set(&env, "n", 2 * 25600 + 518);
    assert_int_equal(ev(v->counts.flops_fp32, &env), 3);
    assert_int_equal(ev(v->counts.gmem_load_bytes, &env), 24);
    assert_int_equal(ev(v->counts.gmem_store_bytes, &env), 12);
    const cusrc_launch *l = launch_at(u, line_of(f, "vectorAdd<<<", 0), 0);
    assert_dim3(&l->grid, 65536, 1, 1);
    assert_dim3(&l->block, 256, 1, 1);
}

static void test_relu(void **state)
{
    (void)state;
    const char *f = "examples/relu.cu";
    const cusrc_unit *u = unit(f);
    const cusrc_variant *v = variant(u, "reluFloat4");
    const mem_access *a = access_at(u, v, line_of(f, "float4 v = x[i];", 0), "x[i]", false);
    assert_int_equal(a->width, 16);
    expr_env env;
    env_thread(&env, 1, 0, 1, 0, 256, 1);
    expr_env_set(&env, "n4", 1000);
    assert_int_equal(ev(a->guard, &env), 1);
    assert_int_equal(ev(a->byte_offset, &env), 257 * 16);
    expr_env_set(&env, "n4", 257);
    assert_int_equal(ev(a->guard, &env), 0);
    a = access_at(u, v, line_of(f, "y[i] = v;", 0), "y[i]", true);
    assert_int_equal(a->width, 16);
    assert_dim3(&launch_at(u, line_of(f, "reluFloat4<<<", 0), 0)->grid, 16384, 1, 1);
}

static void test_argv_launch(void **state)
{
    (void)state;
    const char *f = "examples/argv_launch.cu";
    const cusrc_unit *u = unit(f);
    for (int nth = 0; nth < 2; nth++) {
        const cusrc_launch *l = launch_at(
            u, line_of(f, nth ? "scale<<<grid, block>>>" : "scale<<<blocks, threads>>>", 0), 0);
        assert_false(l->block.x.known);
        assert_true(l->block.y.known);
        assert_non_null(l->block.x.why);
        assert_non_null(strstr(l->block.x.why, "block size comes from the command line"));
        assert_non_null(strstr(l->block.x.why, "--run-args"));
        assert_non_null(strstr(l->block.x.why, "'threads'"));
        assert_false(l->grid.x.known);
        assert_non_null(strstr(l->grid.x.why, "grid size comes from the command line"));
        /* (n + threads - 1) / threads stays an expression to bind later. */
        expr_env env;
        expr_env_init(&env);
        expr_env_set(&env, "threads", 256);
        expr_env_set(&env, "n", 1000000);
        assert_int_equal(ev(l->grid.x.e, &env), 3907);
        assert_int_equal(ev(l->block.x.e, &env), 256);
    }
}

static void test_small_blocks(void **state)
{
    (void)state;
    const char *f = "examples/small_blocks.cu";
    const cusrc_unit *u = unit(f);
    const cusrc_launch *l = launch_at(u, line_of(f, "saxpy<<<(n + odd - 1) / odd, odd>>>", 0), 0);
    assert_dim3(&l->block, 40, 1, 1);
    assert_dim3(&l->grid, ((1 << 20) + 39) / 40, 1, 1);
    l = launch_at(u, line_of(f, "saxpy<<<(n + tiny - 1) / tiny, tiny>>>", 0), 0);
    assert_dim3(&l->block, 8, 1, 1);
    assert_dim3(&l->grid, (1 << 20) / 8, 1, 1);
    /* a * x[i] + y[i]: a multiply and an add. */
    expr_env env;
    env_thread(&env, 0, 0, 0, 0, 40, 1);
    assert_int_equal(ev(variant(u, "saxpy")->counts.flops_fp32, &env), 2);
}

static void test_dynamic_smem(void **state)
{
    (void)state;
    const char *f = "examples/dynamic_smem.cu";
    const cusrc_unit *u = unit(f);
    const cusrc_launch *l = launch_at(u, line_of(f, "blockSum<<<", 0), 0);
    assert_true(l->smem.known);
    assert_int_equal(l->smem.value, 65536);
    assert_false(l->smem_optin);
    l = launch_at(u, line_of(f, "twoBuffers<<<", 0), 0);
    assert_int_equal(l->smem.value, 65536);
    assert_true(l->smem_optin);
    assert_true(l->optin_bytes.known);
    assert_int_equal(l->optin_bytes.value, 65536);

    const cusrc_variant *v = variant(u, "twoBuffers");
    const smem_array *arr = array_of(u, v, "smem");
    assert_true(arr->dynamic);
    assert_int_equal(arr->n_dims, 0);
    assert_int_equal(arr->elem_size, 4);
    assert_int_equal(v->static_smem, 0);
    expr_env env;
    env_thread(&env, 5, 0, 0, 0, 256, 1);
    const mem_access *a = access_at(u, v, line_of(f, "b[threadIdx.x] = 2.0f * a[threadIdx.x];", 0),
                                    "b[threadIdx.x]", true);
    assert_string_equal(a->base, "smem"); /* b = smem + kThreads */
    assert_int_equal(ev(a->byte_offset, &env), 256 * 4 + 5 * 4);

    v = variant(u, "blockSum");
    a = access_at(u, v, line_of(f, "mine[k] = src[", 0), "mine[k]", true);
    assert_string_equal(a->base, "buf");
    expr_env_set(&env, "per_thread", 16);
    expr_env_set(&env, "k", 3);
    assert_int_equal(ev(a->byte_offset, &env), (5 * 16 + 3) * 4);
}

static void test_stencil_halo(void **state)
{
    (void)state;
    const char *f = "examples/stencil.cu";
    const cusrc_unit *u = unit(f);
    const cusrc_variant *v = variant(u, "stencil5");
    const smem_array *t = array_of(u, v, "tile");
    assert_int_equal(t->dims[0], 10);
    assert_int_equal(t->dims[1], 34);
    expr_env env;
    env_thread(&env, 4, 7, 1, 1, 32, 8);
    expr_env_set(&env, "nx", 4096);
    expr_env_set(&env, "ny", 4096);
    const mem_access *a =
        access_at(u, v, line_of(f, "tile[BY + 1][lx] = in", 0), "tile[BY + 1][lx]", true);
    assert_int_equal(ev(a->byte_offset, &env), 9 * 34 * 4 + 5 * 4);
    /* Guarded by the early return and by the halo condition. */
    assert_int_equal(ev(a->guard, &env), 1);
    expr_env_set_builtin(&env, SYM_TID_Y, 6);
    assert_int_equal(ev(a->guard, &env), 0);
    a = access_at(u, v, line_of(f, "tile[ly][lx - 1]", 0), "tile[ly][lx - 1]", false);
    assert_int_equal(ev(a->byte_offset, &env), 7 * 34 * 4 + 4 * 4);
    const cusrc_launch *l = launch_at(u, line_of(f, "stencil5<<<", 0), 0);
    assert_dim3(&l->grid, 128, 512, 1);
    assert_dim3(&l->block, 32, 8, 1);
}

static void test_wmma(void **state)
{
    (void)state;
    const char *f = "examples/wmma_gemm.cu";
    const cusrc_unit *u = unit(f);
    assert_int_equal(u->n_errors, 0); /* mma.h parses */
    const cusrc_variant *v = variant(u, "wmmaGemm");
    expr_env env;
    env_thread(&env, 0, 0, 0, 0, 128, 1);
    expr_env_set(&env, "K", 1024);
    /* 64 mma_sync of 16x16x16 per warp: 2*16*16*16/32 = 256 flops per thread each. */
    assert_int_equal(ev(v->counts.tensor_flops, &env), 64 * 256);
    /* Per step a 16x16 half tile of A and of B: 2 * 512 bytes / 32 lanes. */
    assert_int_equal(ev(v->counts.gmem_load_bytes, &env), 64 * 32);
    assert_int_equal(ev(v->counts.gmem_store_bytes, &env), 16 * 16 * 4 / 32);
    assert_dim3(&launch_at(u, line_of(f, "wmmaGemm<<<", 0), 0)->grid, 16, 64, 1);
}

static void test_launch_api(void **state)
{
    (void)state;
    const char *f = "examples/launch_api.cu";
    const cusrc_unit *u = unit(f);
    assert_int_equal(u->n_launches, 3);
    const cusrc_launch *l = launch_at(u, line_of(f, "cudaLaunchKernel((const void *)fill", 0), 0);
    assert_int_equal(l->kind, CUSRC_LAUNCH_API);
    assert_string_equal(l->kernel_name, "fill");
    assert_int_equal(l->variant, 0);
    /* n's address goes into the args array, which only reads it. */
    assert_dim3(&l->grid, 4096, 1, 1);
    assert_dim3(&l->block, 256, 1, 1);
    l = launch_at(u, line_of(f, "cudaLaunchCooperativeKernel(", 0), 0);
    assert_int_equal(l->kind, CUSRC_LAUNCH_COOPERATIVE);
    assert_dim3(&l->grid, 132, 1, 1);
    assert_dim3(&l->block, 1024, 1, 1);
    l = launch_at(u, line_of(f, "cudaLaunchKernelEx(&cfg", 0), 0);
    assert_int_equal(l->kind, CUSRC_LAUNCH_API_EX);
    assert_null(l->why_not);
    assert_dim3(&l->grid, 2048, 1, 1);
    assert_dim3(&l->block, 512, 1, 1);
    assert_int_equal(l->smem.value, 0);
    /* cudaLaunchKernelEx's arguments follow the kernel: (data, 2.0f, n) */
    assert_int_equal(l->n_args, 3);
    assert_true(l->args[2].known);
    assert_int_equal(l->args[2].value, 1 << 20);
}

/* ---- features.cu: one of each construct ---- */

#define FE "tests/data/cusrc/features.cu"

static void test_features_arrays_pointers(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(FE);
    assert_int_equal(u->n_errors, 0);
    const cusrc_variant *v = variant(u, "features");
    /* Extents from an enumerator, a constexpr and macros. */
    const smem_array *t = array_of(u, v, "tile");
    assert_int_equal(t->dims[0], 4);
    assert_int_equal(t->dims[1], 33);
    assert_int_equal(array_of(u, v, "counts")->dims[0], 64);
    const smem_array *total = array_of(u, v, "total");
    assert_int_equal(total->n_dims, 0);
    assert_false(total->dynamic);
    assert_int_equal(v->static_smem, 4 * 33 * 4 + 64 * 4 + 4);

    expr_env env;
    env_thread(&env, 37, 0, 1, 0, 128, 1);
    /* float *row = &tile[warp][0]; row[lane] */
    const mem_access *a = access_at(u, v, line_of(FE, "row[lane] = in[", 0), "row[lane]", true);
    assert_string_equal(a->base, "tile");
    assert_int_equal(ev(a->byte_offset, &env), 1 * 33 * 4 + 5 * 4);
    /* The shared scalar. */
    a = access_at(u, v, line_of(FE, "total = 0.0f;", 0), "total", true);
    assert_int_equal(ev(a->byte_offset, &env), 0);
    assert_int_equal(a->width, 4);
    /* atomicAdd on shared memory reads and writes. */
    int line = line_of(FE, "atomicAdd(&counts[tid % HALF], 1)", 0);
    assert_int_equal(count_accesses(u, v, line, "counts[tid % HALF]"), 2);
    assert_int_equal(ev(access_at(u, v, line, "counts[tid % HALF]", true)->byte_offset, &env),
                     37 * 4);
    /* __ldg(&in[rowMajor(warp, lane)]): a load, with the helper inlined. */
    a = access_at(u, v, line_of(FE, "__ldg(&in[rowMajor(warp, lane)])", 0),
                  "in[rowMajor(warp, lane)]", false);
    assert_int_equal(ev(a->byte_offset, &env), (1 * 32 + 5) * 4);
    /* A pointer field of a struct parameter, with a struct field in the index. */
    line = line_of(FE, "p.data[i * p.stride] += 1.0f;", 0);
    a = access_at(u, v, line, "p.data[i * p.stride]", true);
    assert_string_equal(a->base, "p.data");
    expr_env_set(&env, "i", 10);
    expr_env_set(&env, "p.stride", 2);
    assert_int_equal(ev(a->byte_offset, &env), 80);
    /* while (i < p.n) { ...; i += blockDim.x * gridDim.x; } */
    assert_int_equal(a->n_loops, 1);
    assert_string_equal(a->loops[0].var, "i");
    expr_env_set_builtin(&env, SYM_GDIM_X, 10);
    assert_int_equal(ev(a->loops[0].init, &env), 128 + 37);
    assert_int_equal(ev(a->loops[0].next, &env), 10 + 1280);
    /* do { ... k += 16; } while (k < HALF); */
    a = access_at(u, v, line_of(FE, "hist[k * BLOCK + tid] = counts[k];", 0), "counts[k]", false);
    assert_loop(&a->loops[0], "k", 0);
    expr_env_set(&env, "k", 48);
    assert_int_equal(ev(a->loops[0].next, &env), 64);
    assert_int_equal(ev(a->loops[0].cond, &env), 1);
    /* offset += 8 in the loop: the same in every lane, kept as a name. */
    a = access_at(u, v, line_of(FE, "tile[0][offset + lane] = tile[1][lane];", 0),
                  "tile[0][offset + lane]", true);
    assert_null(a->why_not);
    assert_true(expr_uses_name(a->byte_offset, "offset"));
}

static void test_features_launches(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(FE);
    const cusrc_kernel *k = cusrc_find_kernel(u, "features");
    assert_true(k->launch_bounds.present);
    assert_int_equal(k->launch_bounds.max_threads, 128); /* through the macro */
    assert_int_equal(k->launch_bounds.min_blocks, 2);
    assert_string_equal(k->annotation, "flops=2*n bytes=8*n");
    /* The wrapper is followed from both of main's calls. */
    int line = line_of(FE, "features<<<grid, block, 0, 0>>>", 0);
    const cusrc_launch *l = launch_at(u, line, 0);
    assert_string_equal(l->function, "launchFeatures");
    assert_dim3(&l->grid, (1 << 20) / 128, 1, 1); /* ceilDiv inlined */
    assert_dim3(&l->block, 128, 1, 1);            /* dim3 block; block.x = BLOCK; */
    assert_string_equal(l->stream, "0");
    l = launch_at(u, line, 1);
    assert_dim3(&l->grid, 8, 1, 1);
    /* Designated initialisers of a cudaLaunchConfig_t. */
    l = launch_at(u, line_of(FE, "cudaLaunchKernelEx(&cfg", 0), 0);
    assert_dim3(&l->grid, 16, 1, 1); /* sizeof(Params) */
    assert_dim3(&l->block, 128, 1, 1);
}

static void test_features_generic_and_comments(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(FE);
    /* Never instantiated: one generic variant, parameters left symbolic. */
    const cusrc_variant *v = variant(u, "genericTile");
    assert_true(v->generic);
    assert_null(v->mangled);
    assert_int_equal(v->static_smem, -1);
    const smem_array *b = array_of(u, v, "buf");
    assert_int_equal(b->dims[0], -1);
    const cusrc_array_info *info = &u->array_info[b - u->arrays];
    expr_env env;
    env_thread(&env, 3, 2, 0, 0, 16, 16);
    expr_env_set(&env, "TILE", 16);
    assert_int_equal(ev(info->dims[1], &env), 17);
    const mem_access *a = access_at(u, v, line_of(FE, "out[threadIdx.y] = buf[", 1),
                                    "buf[threadIdx.x][threadIdx.y]", false);
    assert_int_equal(a->width, 4);
    assert_int_equal(ev(a->byte_offset, &env), 3 * 17 * 4 + 2 * 4);
    /* With a type parameter the element size is unknown: said, not guessed. */
    v = variant(u, "generic");
    a = access_at(u, v, line_of(FE, "out[threadIdx.y] = buf[", 0), "buf[threadIdx.x][threadIdx.y]",
                  false);
    assert_non_null(a->why_not);

    /* gpulint: ignore comments. */
    int line = line_of(FE, "atomicAdd(&counts", 0);
    assert_true(cusrc_is_ignored(u, u->file, line, "gpulint-bank-conflict"));
    assert_false(cusrc_is_ignored(u, u->file, line, "gpulint-divergence"));
    int next = line_of(FE, "float v = __ldg", 0);
    assert_true(cusrc_is_ignored(u, u->file, next, "divergence"));
    assert_true(cusrc_is_ignored(u, u->file, next, "gpulint-coalescing"));
    assert_false(cusrc_is_ignored(u, u->file, next - 1, "gpulint-coalescing"));
}

static void test_features_arms_counts_optin(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(FE);
    const cusrc_kernel *k = cusrc_find_kernel(u, "integrate");
    assert_non_null(k);
    assert_string_equal(k->qualified, "physics::integrate");
    assert_string_equal(k->mangled, "_ZN7physics9integrateEPfPKfPdi");
    const cusrc_variant *v = variant(u, "integrate");
    expr_env env;
    env_thread(&env, 20, 0, 0, 0, 32, 1);
    /* The else arm is guarded by the negated condition. */
    const mem_access *a =
        access_at(u, v, line_of(FE, "buf[1][lane] = pos[lane];", 0), "buf[1][lane]", true);
    assert_int_equal(ev(a->guard, &env), 1);
    assert_int_equal(ev(a->byte_offset, &env), 128 + 20 * 4);
    expr_env_set_builtin(&env, SYM_TID_X, 3);
    assert_int_equal(ev(a->guard, &env), 0);
    /* `if (s % 4 == 3) continue;` guards the rest of the loop body. */
    a = access_at(u, v, line_of(FE, "pos[threadIdx.x] = fmaf(", 0), "pos[threadIdx.x]", true);
    expr_env_set(&env, "s", 3);
    assert_int_equal(ev(a->guard, &env), 0);
    expr_env_set(&env, "s", 4);
    assert_int_equal(ev(a->guard, &env), 1);
    /* fmaf = 2 flops, + = 1, expf a transcendental whose compiled code is
     * 10 FP32 FLOPs (4 FFMA, FADD, FMUL: tests/data/mathprobe); the double
     * line is 3 fp64 flops; double += loads and stores 8 bytes. */
    expr_env_set(&env, "steps", 10);
    assert_int_equal(ev(v->counts.flops_fp32, &env), 10 * (3 + 10));
    assert_int_equal(ev(v->counts.transcendental_fp32, &env), 10);
    assert_int_equal(ev(v->counts.flops_fp64, &env), 3);
    /* Both arms of the if count: 2 * 4 bytes of pos; vel[threadIdx.x]
     * twice in the last statement is one load. */
    assert_int_equal(ev(v->counts.gmem_load_bytes, &env), 2 * 4 + 10 * 8 + 8 + 4);
    /* Each arm carries its condition: lane 3 takes the then arm only (one
     * 4-byte load of pos); the `continue` arm reads s, unbound here, and
     * stays counted. */
    expr_env arms = env;
    for (int i = 0; i < v->counts.n_arms; i++) {
        int64_t taken;
        if (expr_eval(v->counts.arm_conds[i], &env, &taken, NULL) == EXPR_OK)
            expr_env_set(&arms, v->counts.arm_names[i], taken != 0);
    }
    assert_int_equal(v->counts.n_unweighted_arms, 0);
    assert_int_equal(ev(v->counts.gmem_load_bytes, &arms), 4 + 10 * 8 + 8 + 4);
    assert_int_equal(ev(v->counts.gmem_store_bytes, &env), 10 * 4 + 8);
    assert_int_equal(
        access_at(u, v, line_of(FE, "energy[threadIdx.x] +=", 0), "energy[threadIdx.x]", true)
            ->width,
        8);

    /* cudaFuncSetAttribute names one instantiation: only its launch opts in. */
    const cusrc_launch *l1 = launch_at(u, line_of(FE, "optinTemplate<1><<<", 0), 0);
    const cusrc_launch *l2 = launch_at(u, line_of(FE, "optinTemplate<2><<<", 0), 0);
    assert_false(l1->smem_optin);
    assert_true(l2->smem_optin);
    assert_int_equal(l2->optin_bytes.value, 96 * 1024);
    assert_int_equal(l1->smem.value, 96 * 1024);
    v = cusrc_launch_variant(u, l2);
    a = access_at(u, v, line_of(FE, "dyn[threadIdx.x * N] = 0.0f;", 0), "dyn[threadIdx.x * N]",
                  true);
    env_thread(&env, 5, 0, 0, 0, 256, 1);
    assert_int_equal(ev(a->byte_offset, &env), 5 * 2 * 4);
}

static void test_features_unfollowed_loop(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(FE);
    const cusrc_variant *v = variant(u, "stepTwice");
    const mem_access *a =
        access_at(u, v, line_of(FE, "out[i * blockDim.x + threadIdx.x] = 0.0f;", 0),
                  "out[i * blockDim.x + threadIdx.x]", true);
    assert_int_equal(a->n_loops, 1);
    assert_string_equal(a->loops[0].var, "i");
    assert_non_null(a->loops[0].cond);
    assert_null(a->loops[0].next);
    assert_true(v->counts.n_unknown_trips >= 1);
}

/* ---- robustness ---- */

static void test_cub(void **state)
{
    (void)state;
    const char *f = "examples/cub_block_reduce.cu";
    const cusrc_unit *u = unit(f);
    assert_int_equal(u->n_errors, 0);
    const cusrc_variant *v = variant(u, "blockSum<128, 4>");
    const mem_access *a = access_at(u, v, line_of(f, "items[i] = in[", 0),
                                    "in[base + i * BLOCK_THREADS + threadIdx.x]", false);
    expr_env env;
    env_thread(&env, 3, 0, 2, 0, 128, 1);
    expr_env_set(&env, "i", 1);
    assert_int_equal(ev(a->byte_offset, &env), (2 * 512 + 128 + 3) * 4);
    assert_dim3(&launch_at(u, line_of(f, "blockSum<128, 4><<<", 0), 0)->block, 128, 1, 1);
}

static void test_broken_file(void **state)
{
    (void)state;
    const char *f = "tests/data/cusrc/broken.cu";
    const cusrc_unit *u = unit(f);
    assert_true(u->n_errors >= 2);
    assert_true(u->n_notes >= 1);
    assert_non_null(strstr(u->notes[0], "could not analyse: "));
    assert_non_null(strstr(u->notes[0], "no_such_header.h"));
    /* The kernel defined through a macro is found at the macro's use. */
    const cusrc_kernel *k = cusrc_find_kernel(u, "hidden");
    assert_non_null(k);
    assert_int_equal(k->loc.line, line_of(f, "KERNEL(hidden)", 0));
    const cusrc_kernel *bad = cusrc_find_kernel(u, "usesUndeclared");
    assert_non_null(bad);
    assert_non_null(bad->note);
    assert_non_null(strstr(bad->note, "undeclared_function"));
    const cusrc_variant *v = variant(u, "fine");
    const mem_access *a = access_at(u, v, line_of(f, "a[threadIdx.x] = s[63 - threadIdx.x];", 0),
                                    "s[63 - threadIdx.x]", false);
    expr_env env;
    env_thread(&env, 3, 0, 0, 0, 64, 1);
    assert_int_equal(ev(a->byte_offset, &env), 60 * 4);
    assert_dim3(&launch_at(u, line_of(f, "hidden<<<", 0), 0)->block, 128, 1, 1);
}

static void test_compile_commands(void **state)
{
    (void)state;
    char dir[] = "/tmp/cusrc_compdbXXXXXX";
    assert_non_null(mkdtemp(dir));
    char json[512], *src = path_of("tests/data/cusrc/compdb/kernel.cu");
    char *cdir = path_of("tests/data/cusrc/compdb");
    snprintf(json, sizeof json, "%s/compile_commands.json", dir);
    FILE *f = fopen(json, "w");
    assert_non_null(f);
    fprintf(f,
            "[{\"directory\": \"%s\", \"command\": \"/usr/local/cuda/bin/nvcc "
            "-forward-unknown-to-host-compiler -DTILE_FROM_BUILD=64 -I include "
            "--generate-code=arch=compute_80,code=[compute_80,sm_80] -Xcompiler=-fPIC -x cu -c "
            "%s -o kernel.o\", \"file\": \"%s\"}]\n",
            cdir, src, src);
    fclose(f);

    /* The way a -p run reaches the front end: input/compdb keeps the
     * entry's arguments, cusrc_clang_args and cusrc_arch_of translate. */
    compdb db;
    char dberr[512];
    assert_int_equal(compdb_load(dir, &db, dberr, sizeof dberr), COMPDB_OK);
    const compdb_unit *unit = compdb_find(&db, src);
    assert_non_null(unit);
    const char **args = calloc((size_t)unit->n_args + 2, sizeof *args);
    char arch[32];
    assert_true(cusrc_arch_of(unit->args, unit->n_args, arch));
    assert_string_equal(arch, "sm_80");
    cusrc_options o = {.file = src,
                       .args = args,
                       .n_args = cusrc_clang_args(unit->args, unit->n_args, args),
                       .arch = arch};
    cusrc_unit u;
    char *err = NULL;
    assert_true(cusrc_parse(ctx, &o, &u, &err));
    assert_int_equal(u.n_errors, 0);
    bool arch80 = false;
    for (int i = 0; i < u.n_args; i++)
        arch80 |= !strcmp(u.args[i], "--cuda-gpu-arch=sm_80");
    assert_true(arch80);
    assert_int_equal(u.n_launches, 1);
    assert_dim3(&u.launches[0].block, 64, 1, 1);
    assert_int_equal(u.arrays[0].dims[0], 64);
    cusrc_unit_free(&u);
    free(args);
    compdb_free(&db);

    /* Without the database the header is missing: errors, but the kernel is there. */
    cusrc_options plain = {.file = src};
    assert_true(cusrc_parse(ctx, &plain, &u, &err));
    assert_true(u.n_errors > 0);
    assert_non_null(cusrc_find_kernel(&u, "copyTile"));
    cusrc_unit_free(&u);

    unlink(json);
    rmdir(dir);
    free(src);
    free(cdir);
}

static void test_refused_files(void **state)
{
    (void)state;
    cusrc_options o = {.file = "/nonexistent/kernel.cu"};
    cusrc_unit u;
    char *err = NULL;
    assert_false(cusrc_parse(ctx, &o, &u, &err));
    assert_non_null(strstr(err, "cannot read"));
    free(err);
    /* Freeing an empty unit is fine. */
    cusrc_unit_free(&u);

    /* Brackets nested deeper than libclang's parser can recurse: refused
     * before libclang sees the file. */
    char path[] = "/tmp/cusrc_deepXXXXXX.cu";
    int fd = mkstemps(path, 3);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("__global__ void deep(float *a) { a[", f);
    for (int i = 0; i < 3000; i++)
        fputc('(', f);
    fputs("threadIdx.x", f);
    for (int i = 0; i < 3000; i++)
        fputs(" + 1)", f);
    fputs("] = 0; }\n", f);
    fclose(f);
    o.file = path;
    assert_false(cusrc_parse(ctx, &o, &u, &err));
    assert_non_null(strstr(err, "nests brackets 3002 deep"));
    free(err);
    unlink(path);
}

/* The whole listing of a parse of rel, with the cache directory given
 * ("" turns the precompiled header off). */
static char *dump_with_cache(const char *rel, const char *dir)
{
    setenv("GPULINT_CACHE_DIR", dir, 1);
    char *path = path_of(rel);
    cusrc_options o = {.file = path, .arch = "sm_90"};
    cusrc_unit u;
    char *err = NULL;
    if (!cusrc_parse(ctx, &o, &u, &err))
        fail_msg("%s: %s", rel, err ? err : "?");
    sbuf b;
    sbuf_init(&b);
    cusrc_dump(&u, &b);
    cusrc_unit_free(&u);
    free(path);
    setenv("GPULINT_CACHE_DIR", cache_dir, 1);
    /* Drop the timings ("(parse 0.41s, analysis 0.00s, 0 errors)"). */
    char *text = sbuf_take(&b);
    char *p = strstr(text, "(parse "), *q = p ? strstr(p, " errors)") : NULL;
    if (p && q) {
        while (q > p && q[-1] != ' ')
            q--;
        memmove(p + 1, q, strlen(q) + 1);
    }
    return text;
}

/* The program's arguments given (--run-args): main's atoi(argv[K]) and
 * argc are those values, and so are the launches built from them; an
 * argument past those given stays unknown. */
static void test_run_args(void **state)
{
    (void)state;
    char *path = path_of("examples/argv_launch.cu");
    const char *both[] = {"256", "1000000"}, *one[] = {"64"};
    for (int given = 1; given <= 2; given++) {
        cusrc_options o = {.file = path,
                           .arch = "sm_90",
                           .run_args = given == 2 ? both : one,
                           .n_run_args = given};
        cusrc_unit u;
        char *err = NULL;
        if (!cusrc_parse(ctx, &o, &u, &err))
            fail_msg("argv_launch.cu: %s", err ? err : "?");
        const char *f = "examples/argv_launch.cu";
        const cusrc_launch *l = launch_at(&u, line_of(f, "scale<<<blocks, threads>>>", 0), 0);
        assert_true(l->block.x.known);
        assert_int_equal(l->block.x.value, given == 2 ? 256 : 64);
        if (given == 2) {
            /* blocks = (n + threads - 1) / threads with n = 10^6 */
            assert_true(l->grid.x.known);
            assert_int_equal(l->grid.x.value, (1000000 + 255) / 256);
        } else {
            /* argc is 2: n takes its default, 1 << 20 */
            assert_true(l->grid.x.known);
            assert_int_equal(l->grid.x.value, (1 << 20) / 64);
        }
        cusrc_unit_free(&u);
    }
    free(path);
}

/* A bool template argument is true or false, 1 or 0: libclang reports
 * true as -1 (a one-bit signed value), which made the variant
 * "stsWithLoads<-1>" and put -1 into any arithmetic on the parameter. */
static void test_bool_template_argument(void **state)
{
    (void)state;
    const cusrc_unit *u = unit("kernels/smem_contention.cu");
    const cusrc_variant *t = variant(u, "stsWithLoads<true>");
    const cusrc_variant *f = variant(u, "stsWithLoads<false>");
    assert_int_equal(t->n_targs, 1);
    assert_int_equal(t->targs[0].value, 1);
    assert_string_equal(t->targs[0].text, "true");
    assert_int_equal(f->targs[0].value, 0);
    assert_string_equal(f->targs[0].text, "false");
    assert_non_null(t->mangled);
}

/* A method named through a kernel's pointer (in[i].bits()) has a
 * placeholder type libclang cannot size (libclang-22 crashed on it); it is
 * not an access of its own, and the loads around it are still found. */
static void test_method_member(void **state)
{
    (void)state;
    const char *rel = "tests/data/cusrc/method_member.cu";
    const cusrc_unit *u = unit(rel);
    const cusrc_variant *v = variant(u, "copy_quads");
    int call = line_of(rel, "in[i].bits()", 0);
    assert_int_equal(count_accesses(u, v, call, "in[i].bits"), 0);
    /* Passed by value, the quad is copied: a 16-byte load per thread. */
    int copy = line_of(rel, "store_quad(out", 0);
    const mem_access *a = access_at(u, v, copy, "in[i]", false);
    assert_non_null(a);
    assert_int_equal(a->width, 16);
    int add = line_of(rel, "out[4 * i] +=", 0);
    assert_non_null(access_at(u, v, add, "out[4 * i]", true));
}

/* A launch's cluster from each of the three places CUDA takes it, and
 * the non-portable opt-in. */
static void test_clusters(void **state)
{
    (void)state;
    const char *rel = "tests/data/cusrc/clusters.cu";
    const cusrc_unit *u = unit(rel);
    static const struct {
        const char *text, *from;
        int x;
        bool nonportable;
    } want[] = {
        {"pairs<<<", "__cluster_dims__", 2, false},
        {"cudaLaunchKernelEx(&cfg, quads", "cudaLaunchAttributeClusterDimension", 4, false},
        /* the same function's second configuration: its own attrs */
        {"cudaLaunchKernelEx(&cfg2, quads", "cudaLaunchAttributeClusterDimension", 2, false},
        {"required<<<", "cudaFuncAttributeRequiredClusterWidth", 8, false},
        {"wide<<<", "cudaFuncAttributeRequiredClusterWidth", 16, true},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const cusrc_launch *l = launch_at(u, line_of(rel, want[i].text, 0), 0);
        assert_non_null(l);
        assert_true(l->cluster.present);
        assert_string_equal(l->cluster_from, want[i].from);
        assert_true(l->cluster.x.known && l->cluster.y.known && l->cluster.z.known);
        assert_int_equal(l->cluster.x.value, want[i].x);
        assert_int_equal(l->cluster.y.value * l->cluster.z.value, 1);
        assert_int_equal(l->cluster_nonportable, want[i].nonportable);
    }
    /* clusterDim = {3, 1, 1} assigned whole */
    const char *bad = "tests/data/cusrc/clusters_bad.cu";
    const cusrc_launch *l = launch_at(unit(bad), line_of(bad, "cudaLaunchKernelEx", 0), 0);
    assert_non_null(l);
    assert_int_equal(l->cluster.x.value, 3);
    /* copies the hardware makes for the threads (cp.async, a group's
     * memcpy_async) read global memory no access names: incomplete */
    const char *ac = "tests/data/cusrc/async_copy.cu";
    const cusrc_unit *acu = unit(ac);
    assert_non_null(strstr(variant(acu, "stage_pipeline")->counts.incomplete,
                           "'__pipeline_memcpy_async' copies global memory"));
    assert_non_null(strstr(variant(acu, "stage_group")->counts.incomplete,
                           "'memcpy_async' copies global memory"));
    /* inline PTX that loads or stores is work the counts miss, and they
     * say so; setmaxnreg is not */
    const cusrc_unit *cal = unit("kernels/calibrate.cu");
    const cusrc_variant *rd = variant(cal, "cal_read_l2");
    assert_non_null(rd->counts.incomplete);
    assert_non_null(strstr(rd->counts.incomplete, "inline PTX 'ld.global.cg.v4.f32'"));
    const cusrc_unit *ws = unit("tests/data/cusrc/setmaxnreg.cu");
    assert_null(variant(ws, "pingpong")->counts.incomplete);
    /* a launch without clusters has none */
    const cusrc_unit *plain = unit("examples/transpose.cu");
    for (size_t i = 0; i < plain->n_launches; i++)
        assert_false(plain->launches[i].cluster.present);
}

/* Calls walked at their call sites, intrinsics clang's headers lack,
 * cooperative groups, and the calls that cannot be followed saying so. */
static void test_calls(void **state)
{
    (void)state;
    const char *rel = "tests/data/cusrc/calls.cu";
    const cusrc_unit *u = unit(rel);
    assert_int_equal(u->n_errors, 0); /* __stcs, __ldlu are declared for libclang */

    const cusrc_variant *sc = variant(u, "stream_copy");
    int st = line_of(rel, "__stcs(out + i", 0);
    const mem_access *store = access_at(u, sc, st, "out + i", true);
    const mem_access *load = access_at(u, sc, st, "in + i", false);
    assert_non_null(store);
    assert_non_null(load);
    assert_int_equal(store->width, 4);
    assert_int_equal(load->width, 4);
    assert_null(sc->counts.incomplete);

    /* warp_sums: thread 37 of block 2 (256 threads) is lane 5 of warp 1,
     * the block's warps 8 apart: w = 2 * 8 + 1 = 17. */
    const cusrc_variant *ws = variant(u, "warp_sums");
    const mem_access *in = access_at(u, ws, line_of(rel, "cg::reduce(warp", 0),
                                     "in[w * 32 + warp.thread_rank()]", false);
    assert_non_null(in);
    assert_null(in->why_not);
    expr_env env;
    env_thread(&env, 37, 0, 2, 0, 256, 1);
    assert_int_equal(ev(in->byte_offset, &env), (17 * 32 + 5) * 4);
    assert_int_equal(ev(ws->counts.flops_fp32, NULL), 5); /* log2(32) additions */
    const branch_site *lane0 =
        branch_at(u, ws, line_of(rel, "warp.thread_rank() == 0", 0), BRANCH_IF);
    assert_non_null(lane0);
    assert_null(lane0->why_not);

    /* norms: the helper's i is its own loop inside the kernel's i. */
    const cusrc_variant *nv = variant(u, "norms");
    const mem_access *row = access_at(u, nv, line_of(rel, "s += sq(row[i])", 0), "row[i]", false);
    assert_non_null(row);
    assert_non_null(row->via);
    assert_string_equal(row->via, "row_norm (called at line 39)");
    assert_int_equal(row->n_loops, 2);
    assert_string_equal(row->loops[0].var, "i");
    assert_string_equal(row->loops[1].var, "row_norm::i");
    expr_env ne;
    env_thread(&ne, 3, 0, 1, 0, 256, 1);
    assert_true(expr_env_set(&ne, "i", 259));
    assert_true(expr_env_set(&ne, "row_norm::i", 7));
    assert_true(expr_env_set(&ne, "n", 128));
    assert_int_equal(ev(row->byte_offset, &ne), (259 * 128 + 7) * 4);

    /* Not followed: the counts say so. */
    const cusrc_variant *op = variant(u, "opaque");
    assert_non_null(op->counts.incomplete);
    assert_non_null(strstr(op->counts.incomplete, "recursive call to 'depth'"));
    assert_int_equal(op->counts.n_incomplete, 2); /* and elsewhere(), which has no body here */
    const cusrc_variant *ga = variant(u, "gather");
    assert_non_null(ga->counts.incomplete);
    assert_non_null(strstr(ga->counts.incomplete, "pointer loaded from memory"));
    /* A pointer to a local array is registers: counted, and complete. */
    const cusrc_variant *ls = variant(u, "local_sum");
    assert_null(ls->counts.incomplete);
    assert_int_equal(ev(ls->counts.flops_fp32, NULL), 3);
}

/* The precompiled wrapper header changes nothing in what is found, is
 * built once and reused, and a damaged one is dropped, not trusted. */
static void test_pch_cache(void **state)
{
    (void)state;
    char dir[] = "/tmp/gpulint-pch-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *files[] = {"examples/gemm_tiled.cu", "tests/data/cusrc/broken.cu",
                           "examples/cub_block_reduce.cu"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *plain = dump_with_cache(files[i], "");
        char *built = dump_with_cache(files[i], dir);
        char *reused = dump_with_cache(files[i], dir);
        assert_string_equal(plain, built);
        assert_string_equal(plain, reused);
        free(plain);
        free(built);
        free(reused);
    }
    assert_int_equal(count_pch(dir), 1); /* same arguments: one file */

    /* Overwrite it with garbage: the parse falls back and drops it. */
    DIR *d = opendir(dir);
    struct dirent *e;
    char pch[512] = "";
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".pch"))
            snprintf(pch, sizeof pch, "%s/%s", dir, e->d_name);
    closedir(d);
    FILE *f = fopen(pch, "wb");
    assert_non_null(f);
    fputs("not a precompiled header", f);
    fclose(f);
    char *plain = dump_with_cache("examples/transpose.cu", "");
    char *damaged = dump_with_cache("examples/transpose.cu", dir);
    assert_string_equal(plain, damaged);
    assert_int_equal(count_pch(dir), 0);
    char *rebuilt = dump_with_cache("examples/transpose.cu", dir);
    assert_string_equal(plain, rebuilt);
    assert_int_equal(count_pch(dir), 1);
    free(plain);
    free(damaged);
    free(rebuilt);
    fsutil_remove_tree(dir);
}

static void test_dump_and_timing(void **state)
{
    (void)state;
    const cusrc_unit *u = unit(TR);
    sbuf b;
    sbuf_init(&b);
    cusrc_dump(u, &b);
    assert_non_null(strstr(sbuf_str(&b), "variant transposeTiled<32, 1>"));
    assert_non_null(strstr(sbuf_str(&b), "launch <<<>>> transposeTiled<16, 1>"));
    sbuf_free(&b);
    /* The walk over the AST is cheap next to libclang's parse. */
    assert_true(u->analyse_seconds < 0.5);
    assert_true(cusrc_available());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transpose_kernels),
        cmocka_unit_test(test_transpose_launches),
        cmocka_unit_test(test_transpose_tiles),
        cmocka_unit_test(test_transpose_offsets),
        cmocka_unit_test(test_transpose_guards_loops),
        cmocka_unit_test(test_reduction),
        cmocka_unit_test(test_divergence),
        cmocka_unit_test(test_coalescing),
        cmocka_unit_test(test_gemm_instantiations),
        cmocka_unit_test(test_gemm_offsets_counts),
        cmocka_unit_test(test_vector_add),
        cmocka_unit_test(test_relu),
        cmocka_unit_test(test_argv_launch),
        cmocka_unit_test(test_run_args),
        cmocka_unit_test(test_small_blocks),
        cmocka_unit_test(test_dynamic_smem),
        cmocka_unit_test(test_stencil_halo),
        cmocka_unit_test(test_wmma),
        cmocka_unit_test(test_launch_api),
        cmocka_unit_test(test_features_arrays_pointers),
        cmocka_unit_test(test_features_launches),
        cmocka_unit_test(test_features_generic_and_comments),
        cmocka_unit_test(test_features_arms_counts_optin),
        cmocka_unit_test(test_features_unfollowed_loop),
        cmocka_unit_test(test_cub),
        cmocka_unit_test(test_broken_file),
        cmocka_unit_test(test_compile_commands),
        cmocka_unit_test(test_refused_files),
        cmocka_unit_test(test_dump_and_timing),
        cmocka_unit_test(test_pch_cache),
        cmocka_unit_test(test_bool_template_argument),
        cmocka_unit_test(test_method_member),
        cmocka_unit_test(test_clusters),
        cmocka_unit_test(test_calls),
    };
    return cmocka_run_group_tests_name("cusrc", tests, setup, teardown);
}

#else /* built without libclang */

static void test_without_libclang(void **state)
{
    (void)state;
    assert_false(cusrc_available());
    assert_null(cusrc_ctx_new());
    cusrc_options o = {.file = CUSRC_ROOT "/examples/vector_add.cu"};
    cusrc_unit u;
    char *err = NULL;
    assert_false(cusrc_parse(NULL, &o, &u, &err));
    assert_non_null(strstr(err, "built without libclang"));
    free(err);
    cusrc_unit_free(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_without_libclang)};
    return cmocka_run_group_tests_name("cusrc", tests, NULL, NULL);
}

#endif
