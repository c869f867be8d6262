/* kernel_roofline: the front end's counts to analysis/timing/kroof; text and JSON. */
#include "report/kernel_roofline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/warp/diverge.h"
#include "analysis/memory/footprint.h"
#include "analysis/memory/l1reuse.h"
#include "analysis/memory/l2share.h"
#include "analysis/timing/roofline.h"
#include "analysis/memory/traffic.h"
#include "analysis/symbolic/cexpr.h"
#include "report/launch_issue.h"
#include "util/jsontext.h"
#include "util/sbuf.h"

static const char *const prec_names[4] = {"fp16", "fp32", "fp64", "tensor"};

/* "flops=2*M*N*K bytes=4*(M*K+K*N+M*N)" -> trees; false when absent/broken. */
static bool parse_annotation(const char *text, expr **flops, expr **bytes)
{
    *flops = *bytes = NULL;
    if (!text)
        return false;
    char *copy = xstrdup(text);
    for (char *save = NULL, *tok = strtok_r(copy, " \t", &save); tok;
         tok = strtok_r(NULL, " \t", &save)) {
        cexpr_error err;
        if (strncmp(tok, "flops=", 6) == 0 && !*flops)
            *flops = cexpr_parse(tok + 6, true, &err);
        else if (strncmp(tok, "bytes=", 6) == 0 && !*bytes)
            *bytes = cexpr_parse(tok + 6, true, &err);
    }
    free(copy);
    if (*flops && *bytes)
        return true;
    expr_free(*flops);
    expr_free(*bytes);
    *flops = *bytes = NULL;
    return false;
}

static expr *launch_threads(const cusrc_launch *l)
{
    const cusrc_value *v[6] = {&l->grid.x,  &l->grid.y,  &l->grid.z,
                               &l->block.x, &l->block.y, &l->block.z};
    expr *prod = NULL;
    for (int i = 0; i < 6; i++) {
        expr *f = v[i]->known ? expr_const(v[i]->value)
                  : v[i]->e   ? expr_clone(v[i]->e)
                              : expr_unknown(v[i]->why ? v[i]->why : "launch size unknown");
        if (!v[i]->present && !v[i]->known) {
            expr_free(f);
            f = expr_const(1);
        }
        prod = prod ? expr_binary(OP_MUL, prod, f) : f;
    }
    return prod;
}

/* The launch's dimensions where each has a value: constants, or
 * expressions the --define values bind (dim3 dimGrid(blocks, 1, 1) with
 * --define blocks=64). dims_of: only where none is 0 or less. */
static bool dims_eval(const cusrc_dim3 *d, const kroof_defines *defs, int64_t out[3])
{
    const cusrc_value *v[3] = {&d->x, &d->y, &d->z};
    expr_env env;
    expr_env_init(&env);
    kroof_defines_bind(defs, &env);
    for (int i = 0; i < 3; i++) {
        if (v[i]->known)
            out[i] = v[i]->value;
        else if (!v[i]->present)
            out[i] = 1;
        else if (!v[i]->e || expr_eval(v[i]->e, &env, &out[i], NULL) != EXPR_OK)
            return false;
    }
    return true;
}

static bool dims_of(const cusrc_dim3 *d, const kroof_defines *defs, int64_t out[3])
{
    return dims_eval(d, defs, out) && out[0] > 0 && out[1] > 0 && out[2] > 0;
}

/* A grid or block with a size of 0 (a field a struct leaves at 0): the
 * launch fails and runs nothing. */
static bool empty_launch(const cusrc_launch *l, const kroof_defines *defs)
{
    int64_t g[3], b[3];
    return (dims_eval(&l->grid, defs, g) && (g[0] <= 0 || g[1] <= 0 || g[2] <= 0)) ||
           (dims_eval(&l->block, defs, b) && (b[0] <= 0 || b[1] <= 0 || b[2] <= 0));
}

/* The loops of the variant's sites, accesses first: the order in which a
 * trip count's loop is looked up by line. */
static const loop_ctx **variant_loops(const cusrc_unit *u, const cusrc_variant *v, size_t *n)
{
    size_t cap = 0;
    for (size_t i = v->first_access; i < v->first_access + v->n_accesses; i++)
        cap += (size_t)u->accesses[i].n_loops;
    for (size_t i = v->first_branch; i < v->first_branch + v->n_branches; i++)
        cap += (size_t)u->branches[i].n_loops;
    const loop_ctx **loops = xcalloc(cap ? cap : 1, sizeof *loops);
    *n = 0;
    for (size_t i = v->first_access; i < v->first_access + v->n_accesses; i++)
        for (int k = 0; k < u->accesses[i].n_loops; k++)
            loops[(*n)++] = &u->accesses[i].loops[k];
    for (size_t i = v->first_branch; i < v->first_branch + v->n_branches; i++)
        for (int k = 0; k < u->branches[i].n_loops; k++)
            loops[(*n)++] = &u->branches[i].loops[k];
    return loops;
}

/* The memory a site addresses: pointer parameters to which the launch
 * passes the same argument are one allocation. */
static const char *array_of(const cusrc_kernel *k, const cusrc_launch *l, const char *base)
{
    for (int p = 0; l && p < k->n_params && p < l->n_args; p++) {
        if (strcmp(k->params[p].name, base) != 0)
            continue;
        for (int q = 0; q < p && l->args[p].text; q++)
            if (l->args[q].text && strcmp(l->args[q].text, l->args[p].text) == 0)
                return k->params[q].name;
        break;
    }
    return base;
}

/* What L1 keeps for a block of the launch (analysis/memory/l1reuse); 0: not
 * known (the arch's L1 size, the block's shared memory). */
static int64_t launch_l1_bytes(const gpu_arch *arch, const gpu_product *product,
                               const cusrc_variant *v, const cusrc_launch *l, const kroof_input *in)
{
    if (v->static_smem < 0 || (l->smem.present && !l->smem.known))
        return 0;
    int64_t dynamic = l->smem.known ? l->smem.value : 0;
    int64_t blocks = in->grid[0] * in->grid[1] * in->grid[2];
    int64_t per_sm =
        product && product->sm_count > 0 ? (blocks + product->sm_count - 1) / product->sm_count : 0;
    return l1reuse_bytes_per_block(arch, in->block[0] * in->block[1] * in->block[2],
                                   v->static_smem + dynamic, per_sm);
}

/* The arrays whose blocks share panels (analysis/memory/l2share), from the grid's
 * and one interior block's footprints; the launch phase counts their
 * re-reads once the occupancy is known (report/launch_share). */
typedef struct share_inputs {
    size_t n;
    l2share_array *arrays;
    const char **names;
} share_inputs;

static void launch_share(const footprint_site *sites, size_t n, const footprint *grid_fp,
                         const footprint *block_fp, bool guards_cut, kroof_input *in,
                         share_inputs *out)
{
    double blocks = (double)in->grid[0] * (double)in->grid[1] * (double)in->grid[2];
    bool any_shared = false;
    out->arrays = xcalloc(block_fp->n_arrays + 1, sizeof *out->arrays);
    out->names = xcalloc(block_fp->n_arrays + 1, sizeof *out->names);
    for (size_t i = 0; i < block_fp->n_arrays; i++) {
        const footprint_array *b = &block_fp->arrays[i], *whole = NULL;
        for (size_t j = 0; j < grid_fp->n_arrays && !whole; j++)
            if (!strcmp(grid_fp->arrays[j].name, b->name))
                whole = &grid_fp->arrays[j];
        unsigned shared =
            whole && !whole->reads_uncertain ? l2share_dims(sites, n, b->name, guards_cut) : 0;
        for (int d = 0; d < 3; d++) /* a dimension of one block shares nothing */
            if (in->grid[d] < 2)
                shared &= ~(1u << d);
        /* Arrays no block shares stay in the list with shared 0: what a
         * wave reads of them also passes through the L2. */
        if (!whole || b->read_blocks64 <= 0)
            continue;
        out->arrays[out->n] =
            (l2share_array){64 * b->read_blocks64, 64 * whole->read_blocks64, shared};
        out->names[out->n++] = whole->name;
        if (!shared)
            continue;
        any_shared = true;
        double again = blocks * (double)b->read_sectors - (double)whole->read_sectors;
        in->share_l2_rereads += again > 0 ? (int64_t)again : 0;
    }
    if (!any_shared)
        out->n = 0;
    in->n_share = out->n;
    in->share = out->arrays;
    in->share_names = out->names;
}

/* Whether launch_share found blocks sharing the array's panels (those
 * l2share places). */
static bool panel_shared(const share_inputs *share, const char *name)
{
    for (size_t i = 0; i < share->n; i++)
        if (!strcmp(share->names[i], name))
            return share->arrays[i].shared != 0;
    return false;
}

/* The sectors of each array blocks a and b both read: |A| + |B| - |A u B|,
 * arrays whose panels l2share places left out; -1 where a site was not
 * followed in full. */
static int64_t pair_shared(const footprint_site *sites, size_t n, const expr_env *env,
                           const kroof_input *in, const int64_t first[3], int d,
                           const footprint *at_first, const share_inputs *share)
{
    int64_t span[3] = {1, 1, 1}, next[3] = {first[0], first[1], first[2]};
    span[d] = 2;
    next[d]++;
    footprint f[3] = {{0}};
    if (!at_first)
        footprint_of_block(sites, n, in->grid, in->block, env, first, false, &f[0]);
    footprint_of_block(sites, n, in->grid, in->block, env, next, false, &f[1]);
    footprint_of_blocks(sites, n, in->grid, in->block, env, first, span, &f[2]);
    const footprint *g[3] = {at_first ? at_first : &f[0], &f[1], &f[2]};
    int64_t shared = 0;
    for (int k = 0; k < 3; k++)
        if (g[k]->n_left_out || g[k]->n_partial)
            shared = -1;
    for (size_t i = 0; i < g[2]->n_arrays && shared >= 0; i++) {
        const char *name = g[2]->arrays[i].name;
        if (panel_shared(share, name))
            continue;
        shared -= g[2]->arrays[i].read_sectors;
        for (int k = 0; k < 2; k++)
            for (size_t j = 0; j < g[k]->n_arrays; j++)
                if (!strcmp(g[k]->arrays[j].name, name))
                    shared += g[k]->arrays[j].read_sectors;
    }
    for (int k = 0; k < 3; k++)
        footprint_free(&f[k]);
    return shared;
}

/* What each block shares with its next neighbour along every grid
 * dimension (a stencil's halo rows and columns), taken at the interior
 * block: DRAM supplies it again only where L2 has let it go between the
 * two blocks' reads (kroof). */
static void launch_halo(const footprint_site *sites, size_t n, const expr_env *env,
                        const int64_t mid[3], const footprint *at_mid, const share_inputs *share,
                        kroof_input *in)
{
    for (int d = 0; d < 3; d++) {
        if (in->grid[d] < 2)
            continue;
        int64_t first[3] = {mid[0], mid[1], mid[2]};
        if (first[d] + 1 >= in->grid[d])
            first[d] = in->grid[d] - 2;
        bool from_mid = first[d] == mid[d];
        int64_t shared = pair_shared(sites, n, env, in, first, d, from_mid ? at_mid : NULL, share);
        in->halo_sectors[d] = shared > 0 ? shared : 0;
    }
}

static void launch_footprint(const cusrc_unit *u, const cusrc_variant *v, const cusrc_launch *l,
                             const kroof_defines *defs, const gpu_product *product,
                             const gpu_arch *arch, kroof_input *in, footprint *fp, footprint *cover,
                             l1reuse *reuse, share_inputs *share)
{
    const cusrc_kernel *k = &u->kernels[v->kernel];
    footprint_site *sites = xcalloc(v->n_accesses ? v->n_accesses : 1, sizeof *sites);
    for (size_t i = 0; i < v->n_accesses; i++) {
        const mem_access *a = &u->accesses[v->first_access + i];
        sites[i].access = a;
        sites[i].array = a->base ? array_of(k, l, a->base) : NULL;
    }
    expr_env env;
    expr_env_init(&env);
    kroof_defines_bind(defs, &env);
    footprint_compute(sites, v->n_accesses, in->grid, in->block, &env, fp);
    /* The DRAM estimate counts a site the footprint leaves out by the box
     * around it, where there is one, and a triangle by its bands' cover. */
    if (fp->n_left_out > 0 || fp->n_partial > 0)
        footprint_cover(sites, v->n_accesses, in->grid, in->block, &env, cover);
    /* An interior block stands for every block: the grid's edge blocks may
     * cover less (their guards cut lanes). */
    int64_t mid[3] = {in->grid[0] / 2, in->grid[1] / 2, in->grid[2] / 2};
    footprint one = {0};
    footprint_of_block(sites, v->n_accesses, in->grid, in->block, &env, mid, false, &one);
    /* A site the footprint cannot follow would make the block's sectors
     * too few: the L2 estimate then takes the block as the DRAM estimate
     * places such a site, and the sharing, halo and L1-reuse figures,
     * which need the exact block, are not made. */
    in->has_block_footprint = one.n_left_out == 0 && one.n_partial == 0;
    in->block_read_sectors = one.read_sectors;
    if (!in->has_block_footprint) {
        footprint placed = {0};
        footprint_of_block(sites, v->n_accesses, in->grid, in->block, &env, mid, true, &placed);
        in->has_block_cover = placed.n_left_out == 0 && placed.n_partial == 0;
        in->block_cover_sectors = placed.read_sectors;
        footprint_free(&placed);
    }
    if (in->has_block_footprint && fp->n_left_out == 0 && fp->n_partial == 0)
        launch_share(sites, v->n_accesses, fp, &one,
                     l2share_guards_cut(sites, v->n_accesses, in->grid, in->block, &env, fp), in,
                     share);
    /* A halo's re-read misses only where the bytes read outgrow the L2
     * (its distance is at most them): below, no footprint of neighbours. */
    const footprint *est = cover->n_covered > 0 ? cover : fp;
    if (in->has_block_footprint && product && est->read_bytes > (int64_t)product->l2_bytes &&
        (double)one.read_sectors * (double)in->grid[0] * (double)in->grid[1] * (double)in->grid[2] >
            (double)est->read_sectors)
        launch_halo(sites, v->n_accesses, &env, mid, &one, share, in);
    footprint_free(&one);
    if (in->has_block_footprint) {
        l1reuse_compute(sites, v->n_accesses, in->grid, in->block, &env, mid,
                        launch_l1_bytes(arch, product, v, l, in), reuse);
        in->block_reread_sectors = reuse->reread_sectors;
        in->block_reread_why = reuse->why[0] ? reuse->why : NULL;
    }
    free(sites);
}

/* What a loop's counter adds each iteration, where the launch makes it a
 * constant (`i++`: 1; `i += 4`: 4; a grid-stride loop's step is the
 * launch's threads); 0 where it is not one. */
static double loop_step(const branch_site *b, const expr_env *env)
{
    const loop_ctx *L = b->n_loops ? &b->loops[b->n_loops - 1] : NULL;
    if (!L || !L->var || !L->next)
        return 0;
    expr_env at0 = *env, at1 = *env;
    expr_env_set(&at0, L->var, 0);
    expr_env_set(&at1, L->var, 1);
    int64_t n0, n1;
    const char *why;
    if (expr_eval(L->next, &at0, &n0, &why) != EXPR_OK ||
        expr_eval(L->next, &at1, &n1, &why) != EXPR_OK || n1 - n0 != 1)
        return 0; /* not var + constant: i *= 2, or a step that reads var */
    return (double)n0;
}

/* A branch's condition's line, and its arms as lines the compiled code's
 * blocks run as often as: an
 * if's then and else paths by their warp executions over the grid (unknown
 * where the if cannot be counted, as a switch's), a loop's whole statement
 * apart (its blocks are the loop's, whatever if holds it). */
static void arm_sites(const cusrc_unit *u, const branch_site *b, const kroof_input *in,
                      const expr_env *local, icount_site *out, size_t *n_out)
{
    int64_t runs[2] = {-1, -1};
    bool exact;
    char why[LANES_WHY_MAX];
    /* A count that assumed a guard or sampled a bound may be far off. */
    if (b->kind == BRANCH_IF && !b->why_not &&
        (!diverge_grid_arms(b, in->block, local, in->grid, runs, &exact, why, sizeof why) ||
         !exact))
        runs[0] = runs[1] = -1;
    out[(*n_out)++] = (icount_site){.file = b->loc.file ? b->loc.file : u->file,
                                    .line = b->loc.line,
                                    .kind = ICOUNT_BRANCH_LINE,
                                    .merged = 1};
    for (int arm = 0; arm < 2; arm++)
        if (b->arm_first[arm] > 0)
            out[(*n_out)++] =
                (icount_site){.file = b->loc.file ? b->loc.file : u->file,
                              .line = b->arm_first[arm],
                              .kind = b->kind == BRANCH_LOOP ? ICOUNT_LOOP_LINES : ICOUNT_ARM,
                              .execs = b->kind == BRANCH_IF ? (double)runs[arm] : -1,
                              .merged = 1,
                              .last_line = b->arm_last[arm]};
}

/* What the compiled code's instruction count is tied to (analysis/timing/icount):
 * every access site's warp requests and every loop's iterations summed
 * over the grid's warps. A site or loop that cannot be counted is left
 * out: the code's flow or a guess places its block instead. */
static void issue_sites(const cusrc_unit *u, const cusrc_variant *v, const mem_access **sites,
                        const kroof_input *in, const expr_env *env, traffic_memo *memo,
                        icount_site **out, size_t *n_out)
{
    /* Bound as traffic_compute binds them, so that its memo serves. */
    expr_env local;
    expr_env_bind_launch(&local, env, in->grid, in->block);
    *out = xcalloc(v->n_accesses + 4 * v->n_branches + 1, sizeof **out);
    *n_out = 0;
    char why[LANES_WHY_MAX];
    for (size_t i = 0; i < v->n_accesses; i++) {
        const mem_access *a = sites[i];
        traffic_site_total t;
        if ((a->atomic && !a->is_store) || a->why_not ||
            !traffic_site_memo(memo, a, in->block, &local, in->grid, &t, why, sizeof why))
            continue;
        icount_kind k = a->space == SPACE_SHARED
                            ? (a->is_store ? ICOUNT_STORE_SHARED : ICOUNT_LOAD_SHARED)
                        : a->atomic   ? ICOUNT_ATOMIC_GLOBAL
                        : a->is_store ? ICOUNT_STORE_GLOBAL
                                      : ICOUNT_LOAD_GLOBAL;
        (*out)[(*n_out)++] = (icount_site){a->loc.file ? a->loc.file : u->file,
                                           a->loc.line,
                                           k,
                                           (double)t.requests,
                                           t.merged,
                                           0,
                                           0,
                                           0};
    }
    for (size_t i = 0; i < v->n_branches; i++)
        arm_sites(u, &u->branches[v->first_branch + i], in, &local, *out, n_out);
    for (size_t i = 0; i < v->n_branches; i++) {
        const branch_site *b = &u->branches[v->first_branch + i];
        int64_t runs;
        bool exact;
        if (b->kind != BRANCH_LOOP || b->why_not ||
            !diverge_grid_runs(b, in->block, &local, in->grid, &runs, &exact, why, sizeof why))
            continue;
        (*out)[(*n_out)++] = (icount_site){b->loc.file ? b->loc.file : u->file,
                                           b->loc.line,
                                           ICOUNT_LOOP,
                                           (double)runs,
                                           1,
                                           (double)b->iter_flops,
                                           loop_step(b, &local),
                                           0};
    }
}

static void launch_traffic(const cusrc_unit *u, const cusrc_variant *v, const kroof_defines *defs,
                           const kroof_input *in, traffic_memo *memo, traffic *tr, loadlat *lat,
                           icount_site **issue, size_t *n_issue)
{
    const mem_access **sites = xcalloc(v->n_accesses ? v->n_accesses : 1, sizeof *sites);
    for (size_t i = 0; i < v->n_accesses; i++)
        sites[i] = &u->accesses[v->first_access + i];
    expr_env env;
    expr_env_init(&env);
    kroof_defines_bind(defs, &env);
    traffic_compute(sites, v->n_accesses, in->grid, in->block, &env, memo, tr);
    if (tr->n_left_out == 0)
        loadlat_compute(sites, v->n_accesses, in->grid, in->block, &env, memo, lat);
    issue_sites(u, v, sites, in, &env, memo, issue, n_issue);
    free(sites);
}

void kroof_of_source(const cusrc_unit *u, const cusrc_variant *v, const cusrc_launch *launch,
                     const kroof_defines *defs, const gpu_product *product, const gpu_arch *arch,
                     kroof_branches branches, traffic_memo *memo, kroof *out)
{
    const cusrc_kernel *kern = &u->kernels[v->kernel];
    const cusrc_counts *c = &v->counts;
    kroof_input in = {
        .kernel = v->name,
        .file = launch ? (launch->loc.file ? launch->loc.file : u->file)
                       : (kern->loc.file ? kern->loc.file : u->file),
        .line = launch ? launch->loc.line : kern->loc.line,
        .counts = {.flops = {c->flops_fp16, c->flops_fp32, c->flops_fp64, c->tensor_flops},
                   .load_bytes = c->gmem_load_bytes,
                   .store_bytes = c->gmem_store_bytes,
                   .transcendental_fp32 = c->transcendental_fp32,
                   .transcendental_fp64 = c->transcendental_fp64,
                   .accesses = c->gmem_accesses,
                   .n_arms = c->n_arms,
                   .n_unweighted_arms = c->n_unweighted_arms,
                   .n_trips_at_most = c->n_trips_at_most,
                   .arm_names = c->arm_names,
                   .arm_conds = c->arm_conds},
        .has_launch = launch != NULL,
        .incomplete = kern->note,
        .flops_estimate = c->flops_estimate,
        .shared_missing = c->shared_missing,
    };
    /* Code the front end saw but could not count (calls it does not follow,
     * memory it cannot place): the counts are lower bounds. */
    sbuf missed;
    sbuf_init(&missed);
    if (!kern->note && c->incomplete) {
        sbuf_add(&missed, c->incomplete);
        if (c->n_incomplete > 1)
            sbuf_addf(&missed, "; and %d more", c->n_incomplete - 1);
        in.incomplete = sbuf_str(&missed);
    }
    expr *af = NULL, *ab = NULL;
    if (parse_annotation(kern->annotation, &af, &ab)) {
        in.annotated_flops = af;
        in.annotated_bytes = ab;
    }
    expr *threads = launch ? launch_threads(launch) : NULL;
    in.threads = threads;
    in.dims_known =
        launch && dims_of(&launch->grid, defs, in.grid) && dims_of(&launch->block, defs, in.block);
    const loop_ctx **loops = variant_loops(u, v, &in.n_loops);
    in.loops = loops;
    footprint fp = {0}, cover = {0};
    l1reuse reuse = {0};
    share_inputs share = {0};
    traffic tr = {0};
    loadlat lat = {0};
    icount_site *issue = NULL;
    size_t n_issue = 0;
    if (in.dims_known && !kern->note) {
        launch_traffic(u, v, defs, &in, memo, &tr, &lat, &issue, &n_issue);
        in.traffic = &tr;
        launch_footprint(u, v, launch, defs, product, arch, &in, &fp, &cover, &reuse, &share);
        in.has_footprint = true;
        in.footprint_read = fp.read_bytes;
        in.footprint_write = fp.write_bytes;
        in.footprint_read_sectors = fp.read_sectors;
        /* Sites cover what the kernel touches only when the counts miss
         * nothing and every global byte counted has a site. */
        const char *unsited = in.incomplete ? in.incomplete : c->unsited_global;
        in.footprint_why = fp.why ? fp.why : unsited;
        const footprint *est = cover.n_covered > 0 ? &cover : &fp;
        in.estimate_read = est->read_bytes;
        in.estimate_read_sectors = est->read_sectors;
        in.estimate_read_blocks64 = est->read_blocks64;
        in.estimate_write_sectors = est->write_sectors;
        in.estimate_write = est->write_bytes;
        in.estimate_partial_write_sectors = est->partial_write_sectors;
        in.estimate_partial_write_lines = est->partial_write_lines;
        in.estimate_covered = est->covered;
        in.estimate_missed = est->n_left_out > 0 || est->n_partial > 0 || unsited;
        in.estimate_why = est->why ? est->why : unsited;
        in.estimate_sites = est->n_sites;
        in.estimate_left_out = est->n_left_out;
    } else {
        in.why_no_footprint = kern->note ? "the kernel could not be parsed in full"
                              : !launch  ? "no launch"
                              : empty_launch(launch, defs)
                                  ? "the launch has a grid or block of 0: it fails and runs nothing"
                                  : "the launch's grid or block is not constant";
    }
    kroof_compute(&in, defs, product, branches, out);
    out->lat = lat; /* kroof_free frees these */
    out->issue_sites = issue;
    out->n_issue_sites = n_issue;
    footprint_free(&fp);
    footprint_free(&cover);
    free(share.arrays);
    free(share.names);
    traffic_free(&tr);
    sbuf_free(&missed);
    free(loops);
    expr_free(threads);
    expr_free(af);
    expr_free(ab);
}

/* Marks in the roofline text where a launch's DRAM estimate goes once the
 * launch phase has counted its shared panels (kroof_text_resolve). */
#define SHARE_MARK '\x1e'
#define SHARE_SEP '\x1f'

/* A name in a mark, the mark's own bytes (a file may be named anything)
 * made '?'; kroof_text_resolve compares names made so too. */
static void add_marked(sbuf *out, const char *name)
{
    for (const char *p = name; *p; p++)
        sbuf_addc(out, *p == SHARE_MARK || *p == SHARE_SEP ? '?' : *p);
}

static bool same_marked(const char *name, const char *marked)
{
    for (; *name && *marked; name++, marked++)
        if ((*name == SHARE_MARK || *name == SHARE_SEP ? '?' : *name) != *marked)
            return false;
    return !*name && !*marked;
}

static json_t *count_json(const expr *e, bool known, double v)
{
    /* Counts are whole numbers; keep every digit. */
    if (known)
        return json_integer((json_int_t)v);
    char *s = expr_to_string(e);
    json_t *j = json_text(s);
    free(s);
    return j;
}

/* The panels blocks share, for report/launch_share to count with the
 * launch's occupancy: until it does, dram_bytes counts their re-reads by
 * the 1 - L2 / footprint rule. */
static json_t *share_json(const kroof *k)
{
    json_t *arrays = json_array();
    for (size_t i = 0; i < k->n_share; i++) {
        char along[4] = "";
        for (int d = 0, n = 0; d < 3; d++)
            if (k->share[i].shared & (1u << d))
                along[n++] = "xyz"[d];
        json_array_append_new(arrays, json_pack("{s:s, s:I, s:I, s:s}", "array", k->share_names[i],
                                                "block_bytes", (json_int_t)k->share[i].block_bytes,
                                                "grid_bytes", (json_int_t)k->share[i].grid_bytes,
                                                "shared_along", along));
    }
    return json_pack("{s:o, s:I, s:I}", "arrays", arrays, "read_without",
                     (json_int_t)k->share_read_without, "rereads_without",
                     (json_int_t)k->share_rereads_without);
}

static json_t *dram_estimate_json(const kroof *k)
{
    json_t *c = json_object();
    if (!k->has_dram_estimate) {
        json_object_set_new(c, "label", json_text("unknown"));
        json_object_set_new(c, "why",
                            json_text(!k->has_compulsory ? k->why_no_compulsory
                                      : k->incomplete    ? "the counts may miss code that could "
                                                           "not be analysed"
                                                         : "no product model (use --gpu)"));
        return c;
    }
    json_object_set_new(c, "bytes",
                        json_integer((json_int_t)(k->dram_estimate_read + k->dram_estimate_write)));
    json_object_set_new(c, "read", json_integer((json_int_t)k->dram_estimate_read));
    json_object_set_new(c, "write", json_integer((json_int_t)k->dram_estimate_write));
    if (k->dram_estimate_partial_fill > 0)
        json_object_set_new(c, "partial_fill",
                            json_integer((json_int_t)k->dram_estimate_partial_fill));
    json_object_set_new(c, "label", json_text(k->dram_estimate_low ? "lower_bound" : "estimate"));
    if (k->dram_estimate_low && k->dram_estimate_why)
        json_object_set_new(c, "why", json_text(k->dram_estimate_why));
    if (k->dram_estimate_covered)
        json_object_set_new(c, "covered", json_text(k->dram_estimate_covered));
    static const char requested[] =
        "no global site's footprint could be followed (see dram_compulsory_bytes.why): every "
        "byte the threads request read or written once, in 32-byte sectors, no reuse between "
        "threads; dirty sectors past what the L2 holds at the end of a launch reach DRAM "
        "during it";
    json_object_set_new(
        c, "assumes",
        json_text(k->estimate_from_requested ? requested
                  : k->n_share > 0
                      ? "every byte read comes from DRAM once, in 64-byte blocks; a panel blocks "
                        "share (l2_sharing) comes again for each wave of blocks in lockstep that "
                        "reads it, or for each drifting block whose reader before it is further "
                        "back than the L2 holds; a halo neighbouring blocks share comes again "
                        "with the chance that it was evicted between their reads (1 - L2 size / "
                        "bytes read in between), another sector L2 serves again with the chance "
                        "1 - L2 size / bytes read; dirty 32-byte sectors past what the L2 holds "
                        "at the end of a launch reach DRAM during it"
                      : "every byte read comes from DRAM once, in 64-byte blocks; a halo "
                        "neighbouring blocks share comes again with the chance that it was "
                        "evicted between their reads (1 - L2 size / bytes read in between), "
                        "another sector L2 serves again with the chance 1 - L2 size / bytes "
                        "read; dirty 32-byte sectors past what the L2 holds at the end of a "
                        "launch reach DRAM during it"));
    if (k->dram_estimate_rereads > 0)
        json_object_set_new(c, "rereads", json_integer((json_int_t)k->dram_estimate_rereads));
    if (k->n_share > 0)
        json_object_set_new(c, "l2_sharing", share_json(k));
    return c;
}

static json_t *compulsory_json(const kroof *k)
{
    json_t *c = json_object();
    if (!k->has_compulsory) {
        json_object_set_new(c, "label", json_text("unknown"));
        json_object_set_new(c, "why", json_text(k->why_no_compulsory));
        return c;
    }
    json_object_set_new(c, "read", json_integer((json_int_t)k->compulsory_read));
    json_object_set_new(c, "read_sectors", json_integer((json_int_t)k->compulsory_read_sectors));
    json_object_set_new(c, "write", json_integer((json_int_t)k->compulsory_write));
    json_object_set_new(c, "label", json_text(k->compulsory_why ? "lower_bound" : "exact"));
    if (k->compulsory_why)
        json_object_set_new(c, "why", json_text(k->compulsory_why));
    if (k->time_read_sectors != k->compulsory_read_sectors || k->time_write != k->compulsory_write)
        json_object_set_new(
            c, "estimate",
            json_pack("{s:I, s:I, s:s}", "read_sectors", (json_int_t)k->time_read_sectors, "write",
                      (json_int_t)k->time_write, "from",
                      k->estimate_from_requested ? "requested_bytes" : "estimate_footprint"));
    json_object_set_new(c, "assumes",
                        json_text("a cold L2: every byte read comes from DRAM once, in 32-byte "
                                  "sectors; written bytes past the L2's capacity reach DRAM "
                                  "during the launch"));
    return c;
}

/* What the launch asks of L1: the counts Nsight Compute reports as
 * l1tex__t_requests/sectors (global) and shared wavefronts. */
static json_t *traffic_json(const kroof *k)
{
    static const char *const kinds[TRAFFIC_KINDS] = {"global_load", "global_store", "shared",
                                                     "global_atomic"};
    json_t *t = json_object();
    for (int i = 0; i < TRAFFIC_KINDS; i++) {
        if (i == TRAFFIC_ATOMIC && k->requests[i] == 0)
            continue; /* written where there are any */
        json_t *o =
            json_pack("{s:I, s:I}", "requests", (json_int_t)k->requests[i],
                      i == TRAFFIC_SHARED ? "wavefronts" : "sectors", (json_int_t)k->units[i]);
        if (i != TRAFFIC_SHARED) {
            json_object_set_new(o, "lines", json_integer((json_int_t)k->lines[i]));
            json_object_set_new(o, "run_sectors", json_integer((json_int_t)k->run_sectors[i]));
            json_object_set_new(o, "wavefronts", json_integer((json_int_t)k->wavefronts[i]));
        }
        if (i == TRAFFIC_LOAD)
            json_object_set_new(o, "busiest_warp_requests",
                                json_integer((json_int_t)k->busiest_requests[i]));
        if (i == TRAFFIC_ATOMIC) {
            json_object_set_new(o, "one_address", json_integer((json_int_t)k->one_address_atomics));
            json_object_set_new(o, "one_address_float",
                                json_integer((json_int_t)k->one_address_float_atomics));
        }
        json_object_set_new(t, kinds[i], o);
    }
    json_object_set_new(t, "label",
                        json_text(!k->traffic_why        ? "exact"
                                  : k->traffic_estimated ? "estimate"
                                                         : "lower_bound"));
    if (k->traffic_why)
        json_object_set_new(t, "why", json_text(k->traffic_why));
    return t;
}

/* What reaches L2 (kroof.h): an estimate whatever the sites. */
static json_t *l2_json(const kroof *k)
{
    json_t *t = json_object();
    json_object_set_new(t, "read", json_integer((json_int_t)(32 * k->l2_read_sectors)));
    json_object_set_new(t, "read_sectors", json_integer((json_int_t)k->l2_read_sectors));
    json_object_set_new(t, "write", json_integer((json_int_t)(32 * k->l2_write_sectors)));
    json_object_set_new(t, "write_sectors", json_integer((json_int_t)k->l2_write_sectors));
    json_object_set_new(t, "partial_write_sectors",
                        json_integer((json_int_t)k->l2_partial_write_sectors));
    json_object_set_new(t, "shared_partial_write_sectors",
                        json_integer((json_int_t)k->l2_shared_partial_write_sectors));
    json_object_set_new(t, "label", json_text("estimate"));
    json_object_set_new(
        t, "assumes",
        json_text(k->l2_reads_unfollowed
                      ? "L1 writes stores through; each block's load sectors come from L2 once "
                        "per block, a site whose index is read from memory taken to step one "
                        "element from lane to lane, at least the compulsory DRAM sectors and "
                        "at most the load sectors L1 serves"
                      : "L1 writes stores through; each block's load sectors come "
                        "from L2 once per block, and again where a later loop reads "
                        "what the loop before swept out of L1 (no reuse between "
                        "blocks, no other eviction before reuse), at least the "
                        "compulsory DRAM sectors and at most the load sectors L1 "
                        "serves"));
    if (k->l2_reread_why) {
        json_object_set_new(t, "reread_sectors", json_integer((json_int_t)k->l2_reread_sectors));
        json_object_set_new(t, "reread_why", json_text(k->l2_reread_why));
    }
    return t;
}

/* The global loads by phase (analysis/timing/loadlat): what the time model's
 * latency term waits on. */
static json_t *load_phases_json(const loadlat *l)
{
    json_t *phases = json_array();
    for (int p = 0; p < l->n_phases; p++) {
        json_t *loads = json_array();
        for (size_t i = 0; i < l->n; i++) {
            const loadlat_load *d = &l->loads[i];
            if (d->phase != p)
                continue;
            json_t *o = json_pack("{s:o, s:i, s:I, s:f, s:f}", "access",
                                  json_text(d->access->text ? d->access->text : "?"), "line",
                                  d->access->loc.line, "requests", (json_int_t)d->requests,
                                  "new_share", d->new_share, "first_share", d->first_share);
            json_object_set_new(o, "busiest_warp_requests",
                                json_integer((json_int_t)d->busiest_requests));
            json_object_set_new(o, "lines", json_integer((json_int_t)d->lines));
            if (d->together > 1)
                json_object_set_new(o, "together", json_real(d->together));
            /* Where the code shows how far nvcc unrolled the loop
             * (report/launch_issue adds "unrolled"). */
            if (d->free_body) {
                json_object_set_new(o, "free_body", json_true());
                if (d->access->loc.file) /* else the unit's: the issue sites say */
                    json_object_set_new(o, "file", json_text(d->access->loc.file));
            }
            if (d->seen_share > 0)
                json_object_set_new(o, "seen_share", json_real(d->seen_share));
            if (d->lockstep > 0) {
                json_object_set_new(o, "lockstep", json_real(d->lockstep));
                json_object_set_new(o, "restored_share", json_real(d->restored_share));
            }
            json_array_append_new(loads, o);
        }
        json_array_append_new(phases, loads);
    }
    return phases;
}
/* Which lower count sets the floor: "launch", "l1", "dram" or "compute". */
static const char *floor_term_key(const kroof *k)
{
    if (k->launch_time >= k->min_time && k->launch_time > 0)
        return "launch";
    if (k->l1_time >= k->min_time && k->l1_time > 0)
        return "l1";
    if (k->memory_time >= k->min_time && k->memory_time > 0)
        return "dram";
    return "compute";
}

/* The floor's terms (the complete bound's also with its compute time). */
static void floor_json(json_t *o, const kroof *k, bool with_compute)
{
    json_object_set_new(o, "min_time_s", json_real(k->min_time));
    if (with_compute)
        json_object_set_new(o, "compute_time_s", json_real(k->compute_time));
    json_object_set_new(o, "compute_time_lower_s", json_real(k->compute_time_lower));
    json_object_set_new(o, "min_time_term", json_text(floor_term_key(k)));
    json_object_set_new(o, "memory_time_s", json_real(k->memory_time));
    json_object_set_new(o, "l1_time_s", json_real(k->l1_time));
    json_object_set_new(o, "launch_time_s", json_real(k->launch_time));
}

/* Counts that take an arm as run by every thread: every branch arm
 * (upper_bound), or checks whose sizes have no value taken as passing. */
static bool over_counted(const kroof *k)
{
    return k->upper_bound || k->trips_at_most || (k->assumed && !k->incomplete);
}

json_t *kroof_json(const kroof *k)
{
    json_t *o = json_object();
    json_object_set_new(o, "kernel", json_text(k->kernel));
    json_object_set_new(o, "file", k->file ? json_text(k->file) : json_null());
    json_object_set_new(o, "line", json_integer(k->line));
    json_object_set_new(o, "per_thread", json_boolean(k->per_thread));
    json_object_set_new(o, "annotated", json_boolean(k->annotated));
    json_object_set_new(o, "upper_bound", json_boolean(k->upper_bound));
    /* What flops, transcendentals, requested_bytes and global_accesses are. */
    json_object_set_new(o, "counts_label",
                        json_text(k->annotated      ? "annotated"
                                  : k->also_over    ? "unknown"
                                  : k->incomplete   ? "lower_bound"
                                  : over_counted(k) ? "upper_bound"
                                                    : "exact"));
    if (k->incomplete || (over_counted(k) && !k->annotated))
        json_object_set_new(o, "counts_why",
                            json_text(k->incomplete    ? k->incomplete
                                      : k->upper_bound ? "a branch that is not a bounds check "
                                                         "guards counted work: every arm is counted"
                                      : k->trips_at_most
                                          ? "a binary search's loop is counted at its most "
                                            "passes, one more than its least"
                                          : "a check against a size with no value is "
                                            "counted as passing for every thread"));
    json_t *fl = json_object();
    for (int i = 0; i < 4; i++)
        json_object_set_new(fl, prec_names[i],
                            count_json(k->flops[i], k->known, k->flops_value[i]));
    json_object_set_new(o, "flops", fl);
    /* Lower, estimate, upper (docs/roofline.md): the estimate is flops. */
    json_t *fi = json_object();
    for (int i = 0; i < 4; i++) {
        bool lower = k->annotated || k->flops_lower_known;
        double lo = k->annotated ? k->flops_value[i] : k->flops_lower_value[i];
        json_object_set_new(
            fi, prec_names[i],
            json_pack("{s:o, s:o, s:o}", "lower", k->known && lower ? json_real(lo) : json_null(),
                      "estimate", k->known ? json_real(k->flops_value[i]) : json_null(), "upper",
                      k->known && !k->incomplete ? json_real(k->flops_value[i]) : json_null()));
    }
    json_object_set_new(o, "flops_interval", fi);
    json_object_set_new(o, "flops_counted_as",
                        json_text("the floating-point instructions nvcc compiles the source into: "
                                  "a division or a math call counts the FADD/FMUL (1) and FFMA (2) "
                                  "it becomes, measured per call"));
    if (k->flops_estimate)
        json_object_set_new(o, "flops_estimate", json_text(k->flops_estimate));
    json_object_set_new(o, "transcendentals",
                        count_json(k->transcendental, k->known, k->transcendental_value));
    json_object_set_new(o, "requested_bytes", count_json(k->bytes, k->known, k->bytes_value));
    json_object_set_new(o, "bytes_assumption",
                        json_text("requested global-memory traffic: what the threads load and "
                                  "store, before any cache serves a re-read"));
    json_object_set_new(o, "dram_bytes", dram_estimate_json(k));
    /* Until this release dram_bytes held the requested bytes. */
    json_object_set_new(o, "dram_bytes_note",
                        json_text("dram_bytes is the DRAM estimate now (an object); the "
                                  "requested bytes it held before are requested_bytes"));
    json_object_set_new(o, "dram_compulsory_bytes", compulsory_json(k));
    if (k->has_traffic)
        json_object_set_new(o, "l1_traffic", traffic_json(k));
    if (k->has_l2)
        json_object_set_new(o, "l2_bytes", l2_json(k));
    if (k->lat.ok)
        json_object_set_new(o, "load_phases", load_phases_json(&k->lat));
    else if (k->lat.why[0])
        json_object_set_new(o, "load_phases_why", json_text(k->lat.why));
    if (!k->known)
        json_object_set_new(o, "unknown", json_text(k->unbound));
    if (k->accesses_known)
        json_object_set_new(o, "global_accesses", json_integer((json_int_t)k->accesses_value));
    if (k->known && k->threads_known) {
        double t = k->threads_value;
        json_object_set_new(o, "threads", json_real(t));
        json_t *pt = json_object();
        json_object_set_new(pt, "flops", json_real(kroof_total_flops(k) / t));
        json_object_set_new(pt, "dram_bytes", json_real(k->bytes_value / t));
        json_object_set_new(pt, "global_accesses",
                            k->accesses_known ? json_real(k->accesses_value / t) : json_null());
        json_object_set_new(o, "per_thread_counts", pt);
    }
    if (k->has_bound) {
        json_object_set_new(o, "ai", isfinite(k->ai) ? json_real(k->ai) : json_null());
        /* As the text: compute ahead of bytes that are a lower bound is
         * not known to be the limit. */
        bool unknown = (k->compulsory_why && !k->memory_bound && !k->l1_bound) || k->incomplete;
        json_object_set_new(
            o, "bound", unknown ? json_null() : json_text(k->memory_bound ? "memory" : "compute"));
        json_object_set_new(o, "limiter",
                            unknown           ? json_null()
                            : k->l1_bound     ? json_text("l1")
                            : k->memory_bound ? json_text("dram")
                                              : json_text("compute"));
        json_object_set_new(o, "attainable_flops", json_real(k->attainable));
        floor_json(o, k, true);
    } else if (k->floor_only) {
        /* A floor from the counts that are known; no estimate, no limiter. */
        floor_json(o, k, false);
        json_object_set_new(o, "floor_only", json_true());
    } else if (k->why_no_bound) {
        json_object_set_new(o, "reason", json_text(k->why_no_bound));
    }
    if (k->incomplete) {
        json_object_set_new(o, "counts", json_text("incomplete"));
        json_object_set_new(o, "incomplete_reason", json_text(k->incomplete));
    }
    if (k->n_issue_sites)
        json_object_set_new(o, LAUNCH_ISSUE_SITES, launch_issue_sites_json(k));
    return o;
}

static void add_count(sbuf *out, const expr *e, bool known, double v, const char *unit)
{
    char buf[64];
    if (known) {
        sbuf_add(out, roofline_fmt_si(v, unit, buf, sizeof buf));
        return;
    }
    char *s = expr_to_string(e);
    sbuf_addf(out, "%s %s", s, unit);
    free(s);
}

/* 0, or a product with a 0 factor: a precision the kernel never uses, times
 * a symbolic thread count (the evaluator keeps x * 0 unfolded so that an
 * unbound x is still reported, but a listing need not show it). */
static bool zero_count(const expr *e)
{
    if (!e)
        return false;
    if (e->kind == EX_CONST)
        return e->value == 0;
    return e->kind == EX_BINARY && e->op == OP_MUL && (zero_count(e->a) || zero_count(e->b));
}

/* "L1: 1.05M load sectors in 32.8k requests, 131k shared wavefronts". */
static void traffic_text(sbuf *out, const kroof *k)
{
    static const char *const what[TRAFFIC_KINDS] = {"load sectors", "store sectors",
                                                    "shared wavefronts", "atomic sectors"};
    bool any = false;
    for (int i = 0; i < TRAFFIC_KINDS; i++) {
        if (k->units[i] == 0)
            continue;
        char u[48], r[48];
        sbuf_addf(out, "%s%s %s",
                  any ? ", " : "\n      L1: ", roofline_fmt_num((double)k->units[i], u, sizeof u),
                  what[i]);
        if (i != TRAFFIC_SHARED)
            sbuf_addf(out, " in %s requests",
                      roofline_fmt_num((double)k->requests[i], r, sizeof r));
        any = true;
    }
    if (any && k->traffic_why)
        sbuf_addf(out, " (%s: %s)", k->traffic_estimated ? "estimated" : "at least",
                  k->traffic_why);
}

/* Text from the source (a file name, a kernel, code) turned '?' where it
 * holds a mark's bytes, from byte `from` on: only kroof_text's own marks
 * stay marks. */
static void unmark(sbuf *out, size_t from)
{
    for (size_t i = from; i < out->len; i++)
        if (out->data[i] == SHARE_MARK || out->data[i] == SHARE_SEP)
            out->data[i] = '?';
}

/* The FLOPs are the same counted with the arms whose condition is not known
 * in and out: only other counts (bytes an unknown arm stores) are upper. */
static bool flops_exact(const kroof *k)
{
    if (!over_counted(k))
        return true;
    if (!k->known || !k->flops_lower_known)
        return false;
    for (int i = 0; i < 4; i++)
        if (k->flops_lower_value[i] != k->flops_value[i])
            return false;
    return true;
}

/* Which lower count sets the floor, in words. */
static const char *floor_term(const kroof *k)
{
    const char *key = floor_term_key(k);
    return !strcmp(key, "launch") ? "the launch: no kernel on such a card took less"
           : !strcmp(key, "l1")   ? "L1's load sectors"
           : !strcmp(key, "dram") ? "the DRAM bytes alone, cold L2"
                                  : "the FLOPs every run does";
}

/* Why the bound was not computed, and the floor the counts that are
 * known still give. The sizes block after the roofline names each unbound
 * name once, with the launches it leaves unsized and how to bind it; an
 * entry of one thread (no launch) is not among them. */
static void unbound_text(sbuf *out, const kroof *k)
{
    if (strchr(k->unbound, ' '))
        /* Not a name but why a value cannot be known (read from
         * memory, floating point): nothing to bind. */
        sbuf_addf(out, "\n      bound not computed: a size is not known (%s)", k->unbound);
    else if (k->per_thread)
        sbuf_addf(out,
                  "\n      bound not computed: '%s' has no value (no analysed launch of this "
                  "kernel gives it one; --define %s=VALUE binds it)",
                  k->unbound, k->unbound);
    else
        sbuf_addf(out, "\n      bound not computed: '%s' has no value (see sizes, below)",
                  k->unbound);
    if (k->floor_only) {
        char b[48];
        sbuf_addf(out, "\n      at least %s (%s%s)", roofline_fmt_time(k->min_time, b, sizeof b),
                  floor_term(k),
                  !strcmp(floor_term_key(k), "launch") ? "" : ", from the counts that are known");
    }
}

/* The floor and what sets it, or why there is none: the last line of a
 * launch's roofline entry. */
static void bound_text(sbuf *out, const kroof *k, double total, bool flops_upper)
{
    if (k->incomplete && (k->has_bound || k->floor_only)) {
        char b[48];
        sbuf_addf(out,
                  "\n      at least %s (%s, from what was counted): the kernel could not be "
                  "analysed in full (%s), so the counts may miss code",
                  roofline_fmt_time(k->min_time, b, sizeof b), floor_term(k), k->incomplete);
    } else if (k->incomplete) {
        sbuf_addf(out,
                  "\n      no bound: the kernel could not be analysed in full (%s), so the counts "
                  "may miss code",
                  k->incomplete);
    } else if (k->has_bound && !strcmp(floor_term_key(k), "launch")) {
        /* The work alone would take less than any launch does. */
        char b[48], w[48];
        double work = fmax(fmax(k->compute_time_lower, k->memory_time), k->l1_time);
        sbuf_add(out, "\n      ");
        /* A footprint that is a lower bound, or FLOPs that are upper
         * bounds, leave the intensity an upper bound. */
        if (k->has_compulsory && isfinite(k->ai) && total > 0)
            sbuf_addf(out, "AI %s%.3g FLOP per DRAM byte; ",
                      k->compulsory_why || flops_upper ? "at most " : "", k->ai);
        sbuf_addf(out, "at least %s (%s", roofline_fmt_time(k->min_time, b, sizeof b),
                  floor_term(k));
        if (work > 0)
            sbuf_addf(out, "; the counted work alone, %s", roofline_fmt_time(work, w, sizeof w));
        sbuf_addc(out, ')');
    } else if (k->has_bound && k->l1_bound) {
        char b[48];
        sbuf_addf(out,
                  "\n      L1-bound: at least %s (the load sectors at 128 bytes per SM per "
                  "clock)",
                  roofline_fmt_time(k->min_time, b, sizeof b));
    } else if (k->has_bound && flops_upper) {
        char b[48];
        sbuf_addf(out,
                  "\n      AI at most %.3g FLOP per DRAM byte (the FLOP counts are upper bounds); "
                  "at least %s (%s)",
                  k->ai, roofline_fmt_time(k->min_time, b, sizeof b), floor_term(k));
    } else if (k->has_bound && total == 0) {
        char b[48];
        sbuf_addf(out, "\n      no floating-point work: memory-bound, at least %s (cold L2)",
                  roofline_fmt_time(k->min_time, b, sizeof b));
    } else if (k->has_bound && !k->has_compulsory) {
        char b[48];
        sbuf_addf(out, "\n      at least %s from the FLOPs alone (DRAM footprint not known: %s)",
                  roofline_fmt_time(k->min_time, b, sizeof b), k->why_no_compulsory);
    } else if (k->has_bound && k->compulsory_why && !k->memory_bound) {
        /* More bytes than counted could make it memory-bound. */
        char b[48];
        if (isfinite(k->ai))
            sbuf_addf(out, "\n      AI at most %.3g FLOP per DRAM byte", k->ai);
        else
            sbuf_addf(out, "\n      no DRAM byte counted");
        sbuf_addf(out, " (the footprint is a lower bound): the limiter is not known; at least %s",
                  roofline_fmt_time(k->min_time, b, sizeof b));
    } else if (k->has_bound) {
        char a[48], b[48];
        sbuf_addf(out, "\n      AI %.3g FLOP per DRAM byte, %s-bound: at most %s, at least %s%s",
                  k->ai, k->memory_bound ? "memory" : "compute",
                  roofline_fmt_si(k->attainable, "FLOP/s", a, sizeof a),
                  roofline_fmt_time(k->min_time, b, sizeof b), k->memory_bound ? " (cold L2)" : "");
    } else if (!k->known) {
        unbound_text(out, k);
    } else if (!k->per_thread && !k->no_product && k->why_no_bound) {
        sbuf_addf(out, "\n      no time bound: %s", k->why_no_bound);
    }
}

/* kroof's partial_fill, said where there is one. */
static void partial_fill_text(sbuf *out, double fill)
{
    char f[48];
    if (fill > 0)
        sbuf_addf(out, "; %s of each: the rest of sectors stored in part, read and written back",
                  roofline_fmt_si(fill, "B", f, sizeof f));
}

void kroof_text(sbuf *out, const kroof *k)
{
    size_t clean_from = out->len;
    sbuf_addf(out, "  %s:%d  %s%s: ", k->file ? k->file : "?", k->line, k->kernel,
              k->annotated ? " (annotated)" : "");
    bool any = false;
    /* No FLOPs counted are none at most: "at most" then goes to the bytes. */
    bool no_flops = true;
    for (int i = 0; i < 4; i++)
        no_flops &= k->known ? k->flops_value[i] == 0 : zero_count(k->flops[i]);
    bool flops_upper = over_counted(k) && !flops_exact(k) && !no_flops;
    if (flops_upper)
        sbuf_add(out, "at most ");
    for (int i = 0; i < 4; i++) {
        bool zero = k->known && k->flops_value[i] == 0;
        if (zero || (!k->known && zero_count(k->flops[i])))
            continue;
        sbuf_add(out, any ? " + " : "");
        add_count(out, k->flops[i], k->known, k->flops_value[i], "FLOP");
        sbuf_addf(out, " %s", prec_names[i]);
        any = true;
    }
    if (!any)
        sbuf_add(out, "0 FLOP");
    sbuf_add(out, over_counted(k) && !flops_upper ? ", at most " : ", ");
    add_count(out, k->bytes, k->known, k->bytes_value, "B");
    sbuf_add(out, " requested");
    if (k->per_thread)
        sbuf_add(out, " per thread");
    bool one_thread = !k->known && !k->per_thread && expr_uses_thread_index(k->bytes);
    for (int i = 0; i < 4 && !k->known && !k->per_thread; i++)
        one_thread |= expr_uses_thread_index(k->flops[i]);
    if (one_thread)
        sbuf_add(out, " (one thread's counts: their sum over the launch was not taken)");
    if (k->has_compulsory) {
        char r[48], w[48];
        sbuf_addf(out, ", compulsory DRAM %s%s read + %s written",
                  k->compulsory_why ? "at least " : "",
                  roofline_fmt_si(32 * k->compulsory_read_sectors, "B", r, sizeof r),
                  roofline_fmt_si(k->compulsory_write, "B", w, sizeof w));
    }
    if (k->upper_bound)
        sbuf_add(out, " (every branch arm counted)");
    else if (k->trips_at_most)
        sbuf_add(out, " (a binary search's passes counted at their most)");
    else if (over_counted(k))
        sbuf_add(out, " (checks against sizes with no value counted as passing)");
    if (k->known && k->transcendental_value > 0)
        sbuf_addf(out, ", %.0f math-library calls", k->transcendental_value);
    if (k->known && k->threads_known) {
        /* What a book asks per thread, beside the launch's totals. */
        double t = k->threads_value;
        sbuf_addf(out, "; per launched thread %.4g FLOP, %.4g B requested",
                  kroof_total_flops(k) / t, k->bytes_value / t);
        if (k->accesses_known)
            sbuf_addf(out, ", %.4g global access%s", k->accesses_value / t,
                      k->accesses_value == t ? "" : "es");
    }
    double total = k->flops_value[0] + k->flops_value[1] + k->flops_value[2] + k->flops_value[3];
    if (k->has_traffic && !k->incomplete)
        traffic_text(out, k);
    if (k->has_l2 && !k->incomplete && k->l2_read_sectors + k->l2_write_sectors > 0) {
        char r[48], w[48];
        sbuf_addf(out, "\n      L2 (estimate): %s read, %s written",
                  roofline_fmt_si(32 * k->l2_read_sectors, "B", r, sizeof r),
                  roofline_fmt_si(32 * k->l2_write_sectors, "B", w, sizeof w));
        if (k->l2_reread_why)
            sbuf_addf(out, " (%s of the reads again: %s)",
                      roofline_fmt_si(32 * k->l2_reread_sectors, "B", r, sizeof r),
                      k->l2_reread_why);
    }
    if (k->has_dram_estimate && !k->incomplete &&
        (k->dram_estimate_read + k->dram_estimate_write > 0 || k->estimate_from_requested)) {
        /* Where blocks share panels the launch phase counts their re-reads
         * (report/launch_share): the numbers come from the entry then. */
        if (k->n_share > 0) {
            unmark(out, clean_from);
            sbuf_addf(out, "\n      DRAM (estimate): %c", SHARE_MARK);
            add_marked(out, k->file ? k->file : "?");
            sbuf_addf(out, "%c%d%c", SHARE_SEP, k->line, SHARE_SEP);
            add_marked(out, k->kernel);
            sbuf_addc(out, SHARE_MARK);
            clean_from = out->len;
        } else {
            char r[48], w[48];
            sbuf_addf(out, "\n      DRAM (estimate): %s%s read, %s written during the launch",
                      k->dram_estimate_low ? "at least " : "",
                      roofline_fmt_si(k->dram_estimate_read, "B", r, sizeof r),
                      roofline_fmt_si(k->dram_estimate_write, "B", w, sizeof w));
            if (k->estimate_from_requested)
                sbuf_add(out, " (the bytes requested, each moved once: no site's footprint "
                              "could be followed)");
            partial_fill_text(out, k->dram_estimate_partial_fill);
        }
    }
    if (k->has_compulsory && k->compulsory_why && !k->incomplete)
        sbuf_addf(out, "\n      DRAM footprint is a lower bound: %s", k->compulsory_why);
    if (k->flops_estimate && !k->incomplete)
        sbuf_addf(out, "\n      FLOPs partly estimated: %s", k->flops_estimate);
    bound_text(out, k, total, flops_upper);
    sbuf_addc(out, '\n');
    unmark(out, clean_from);
}

/* The DRAM estimate of a marked launch, from its roofline entry. */
static void dram_line(sbuf *out, const json_t *e)
{
    const json_t *d = json_object_get(e, "dram_bytes");
    const json_t *sh = json_object_get(d, "l2_sharing");
    char r[48], w[48];
    sbuf_addf(
        out, "%s%s read, %s written during the launch",
        json_is_string(json_object_get(d, "label")) &&
                !strcmp(json_string_value(json_object_get(d, "label")), "lower_bound")
            ? "at least "
            : "",
        roofline_fmt_si((double)json_integer_value(json_object_get(d, "read")), "B", r, sizeof r),
        roofline_fmt_si((double)json_integer_value(json_object_get(d, "write")), "B", w, sizeof w));
    const json_t *local = json_object_get(d, "local");
    json_int_t lr = json_integer_value(json_object_get(local, "read")),
               lw = json_integer_value(json_object_get(local, "write"));
    if (lr + lw > 0) {
        char a[48], b[48];
        sbuf_addf(out,
                  "; of it local memory (a %lld-byte stack frame a thread, %s of frames "
                  "resident with a wave's traffic, past the L2): %s read, %s written",
                  (long long)json_integer_value(json_object_get(local, "frame_bytes")),
                  roofline_fmt_si((double)json_integer_value(json_object_get(local, "working_set")),
                                  "B", r, sizeof r),
                  roofline_fmt_si((double)lr, "B", a, sizeof a),
                  roofline_fmt_si((double)lw, "B", b, sizeof b));
    }
    partial_fill_text(out, (double)json_integer_value(json_object_get(d, "partial_fill")));
    /* Said where it moves the figure: the re-reads of shared panels. */
    const char *regime = json_string_value(json_object_get(sh, "regime"));
    json_int_t again = json_integer_value(json_object_get(sh, "again"));
    if (regime && again > 0) {
        char a[48];
        sbuf_addf(out, "; %s of it re-reads of panels blocks share (%lld blocks at a time, %s)",
                  roofline_fmt_si((double)again, "B", a, sizeof a),
                  (long long)json_integer_value(json_object_get(sh, "resident_blocks")),
                  !strcmp(regime, "lockstep") ? "in lockstep" : "drifting apart");
    }
}

void kroof_text_resolve(sbuf *out, const char *text, const json_t *roofline)
{
    for (const char *p = text; *p;) {
        const char *m = strchr(p, SHARE_MARK);
        const char *end = m ? strchr(m + 1, SHARE_MARK) : NULL;
        if (!end) {
            sbuf_add(out, p);
            return;
        }
        sbuf_addn(out, p, (size_t)(m - p));
        char *key = xstrndup(m + 1, (size_t)(end - m - 1));
        char *s1 = strchr(key, SHARE_SEP), *s2 = s1 ? strchr(s1 + 1, SHARE_SEP) : NULL;
        const json_t *e = NULL, *x;
        size_t i;
        if (s2) {
            *s1 = *s2 = 0;
            json_array_foreach(roofline, i, x)
            {
                const char *f = json_string_value(json_object_get(x, "file"));
                const char *k = json_string_value(json_object_get(x, "kernel"));
                if (f && k && same_marked(f, key) && same_marked(k, s2 + 1) &&
                    json_integer_value(json_object_get(x, "line")) == atoi(s1 + 1))
                    e = x;
            }
        }
        if (e)
            dram_line(out, e);
        else
            sbuf_add(out, "?");
        free(key);
        p = end + 1;
    }
}
