/* source_report: source-level analyses joined with ptxas's numbers. */
#include "report/source_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bank.h"
#include "analysis/coalesce.h"
#include "analysis/diverge.h"
#include "analysis/gridcls.h"
#include "analysis/occ.h"
#include "report/occ_report.h"
#include "util/jsontext.h"

void source_outputs_init(source_outputs *o)
{
    o->launches = json_object();
    o->shared_accesses = json_array();
    o->global_accesses = json_array();
    o->branches = json_array();
    o->notes = json_array();
    o->roofline = json_array();
    sbuf_init(&o->roofline_text);
}

void source_outputs_free(source_outputs *o)
{
    json_decref(o->launches);
    json_decref(o->shared_accesses);
    json_decref(o->global_accesses);
    json_decref(o->branches);
    json_decref(o->notes);
    json_decref(o->roofline);
    sbuf_free(&o->roofline_text);
    memset(o, 0, sizeof *o);
}

json_t *source_outputs_wire(const source_outputs *o)
{
    return json_pack("{s:O, s:O, s:O, s:O, s:O, s:O, s:o}", "launches", o->launches,
                     "shared_accesses", o->shared_accesses, "global_accesses", o->global_accesses,
                     "branches", o->branches, "notes", o->notes, "roofline", o->roofline,
                     "roofline_text", json_bytes(sbuf_str(&o->roofline_text)));
}

bool source_outputs_merge_wire(source_outputs *o, const json_t *w)
{
    json_t *launches = json_object_get(w, "launches");
    json_t *arrays[5] = {json_object_get(w, "shared_accesses"),
                         json_object_get(w, "global_accesses"), json_object_get(w, "branches"),
                         json_object_get(w, "notes"), json_object_get(w, "roofline")};
    json_t *into[5] = {o->shared_accesses, o->global_accesses, o->branches, o->notes, o->roofline};
    char *text = json_bytes_value(json_object_get(w, "roofline_text"));
    bool ok = json_is_object(launches) && text;
    for (int i = 0; i < 5; i++)
        ok = ok && json_is_array(arrays[i]);
    if (!ok) {
        free(text);
        return false;
    }
    const char *key;
    json_t *list;
    json_object_foreach(launches, key, list)
    {
        json_t *have = json_object_get(o->launches, key);
        if (have)
            json_array_extend(have, list);
        else
            json_object_set(o->launches, key, list);
    }
    for (int i = 0; i < 5; i++)
        json_array_extend(into[i], arrays[i]);
    sbuf_add(&o->roofline_text, text);
    free(text);
    return true;
}

static const char *variant_mangled(const cusrc_unit *u, const cusrc_variant *v)
{
    if (v->mangled)
        return v->mangled;
    return u->kernels[v->kernel].mangled;
}

static kernel_row *row_for(const source_inputs *in, const char *mangled, const gpu_arch *arch)
{
    if (!mangled)
        return NULL;
    for (int i = 0; i < in->n_rows; i++)
        if (strcmp(in->rows[i].ptx->name, mangled) == 0 && (!arch || in->rows[i].arch == arch))
            return &in->rows[i];
    return NULL;
}

static bool dim3_known(const cusrc_dim3 *d, int64_t out[3])
{
    if (!d->present || !d->x.known || !d->y.known || !d->z.known)
        return false;
    out[0] = d->x.value;
    out[1] = d->y.value;
    out[2] = d->z.value;
    return true;
}

static json_t *dim3_json(const cusrc_dim3 *d)
{
    int64_t v[3];
    if (!dim3_known(d, v))
        return json_null();
    return json_pack("[I,I,I]", (json_int_t)v[0], (json_int_t)v[1], (json_int_t)v[2]);
}

static const char *dim3_why(const cusrc_dim3 *d)
{
    if (!d->x.known && d->x.why)
        return d->x.why;
    if (!d->y.known && d->y.why)
        return d->y.why;
    if (!d->z.known && d->z.why)
        return d->z.why;
    return "it is not a compile-time constant";
}

/* The block shape the accesses of a variant run with: the first launch of
 * that variant whose block is constant, else --block. */
static bool block_for_variant(const source_inputs *in, size_t variant, int64_t block[3],
                              const char **origin)
{
    const cusrc_unit *u = in->unit;
    for (size_t i = 0; i < u->n_launches; i++)
        if (u->launches[i].variant == (long)variant && dim3_known(&u->launches[i].block, block)) {
            *origin = "launch";
            return true;
        }
    /* --block stands in where no launch of this kernel has a constant block. */
    if (in->has_block) {
        for (int i = 0; i < 3; i++)
            block[i] = in->block[i];
        *origin = "--block";
        return true;
    }
    return false;
}

static void check_launch(const source_inputs *in, const cusrc_launch *l, const cusrc_variant *v,
                         const source_target *t, kernel_row *row, json_t *list,
                         finding_list *findings)
{
    const gpu_arch *a = t->arch;
    const char *file = l->loc.file ? l->loc.file : in->file;
    json_t *o = json_object();
    json_object_set_new(o, "file", json_text(file));
    json_object_set_new(o, "line", json_integer(l->loc.line));
    json_object_set_new(o, "column", json_integer(l->loc.column));
    json_object_set_new(o, "arch", json_text(a->name));
    json_object_set_new(o, "kernel", json_text(v->name));
    json_object_set_new(o, "kind", json_text(cusrc_launch_kind_name(l->kind)));
    json_object_set_new(o, "text", l->text ? json_text(l->text) : json_null());
    json_object_set_new(o, "block", dim3_json(&l->block));
    json_object_set_new(o, "grid", dim3_json(&l->grid));
    json_object_set_new(o, "dynamic_smem",
                        l->smem.known ? json_integer(l->smem.value) : json_null());
    json_object_set_new(o, "smem_optin", json_boolean(l->smem_optin));
    json_array_append_new(list, o);

    int64_t block[3], grid[3];
    if (!dim3_known(&l->block, block)) {
        json_object_set_new(o, "occupancy", json_null());
        json_object_set_new(o, "reason", json_text(dim3_why(&l->block)));
        findings_add(findings, "gpulint-launch-config", SEV_NOTE, file, l->loc.line, l->loc.column,
                     NULL,
                     "block size of this launch of '%s' is not constant (%s); "
                     "pass --block to choose one",
                     v->name, dim3_why(&l->block));
        return;
    }
    int64_t threads = block[0] * block[1] * block[2];
    for (int d = 0; d < 3; d++)
        if (a->max_block_dim[d] > 0 && block[d] > a->max_block_dim[d])
            findings_add(findings, "gpulint-launch", SEV_ERROR, file, l->loc.line, l->loc.column,
                         NULL, "block dimension %c = %lld exceeds %s's limit of %d", "xyz"[d],
                         (long long)block[d], a -> name, a -> max_block_dim[d]);
    if (threads % a->warp_size)
        findings_add(findings, "gpulint-launch", SEV_WARNING, file, l->loc.line, l->loc.column,
                     json_pack("{s:I}", "threads", (json_int_t)threads),
                     "%s %lld-thread block is %lld warp%s; the last warp has %lld idle lanes "
                     "(use a multiple of %d)",
                     (threads == 8 || threads == 11 || threads == 18) ? "an" : "a",
                     (long long)threads, (long long)((threads + a->warp_size - 1) / a->warp_size),
                     threads > a->warp_size ? "s" : "",
                     (long long)(a->warp_size - threads % a->warp_size), a->warp_size);
    if (!row) {
        json_object_set_new(o, "occupancy", json_null());
        json_object_set_new(o, "reason", json_text("no compiled kernel for this launch"));
        return;
    }
    int64_t dyn = l->smem.known ? l->smem.value : 0;
    occ_launch launch = {.threads_per_block = threads > 0x7fffffff ? 0x7fffffff : (int)threads,
                         .dynamic_smem = dyn,
                         .carveout_percent = -1,
                         .smem_optin = l->smem_optin,
                         .max_dynamic_smem = l->smem_optin && l->optin_bytes.known
                                                 ? l->optin_bytes.value
                                                 : a->smem_per_block_optin - row->ptx->static_smem};
    occ_kernel k = kernel_resources(row->ptx);
    occ_result r;
    occ_compute(a, &k, &launch, &r);
    json_object_set_new(o, "occupancy", occ_json(a, &k, &launch, &r));
    int64_t smem_total = row->ptx->static_smem + dyn;
    if (r.failure == OCC_FAIL_SMEM_PER_BLOCK && !l->smem_optin &&
        smem_total <= a->smem_per_block_optin)
        findings_add(findings, "gpulint-launch", SEV_ERROR, file, l->loc.line, l->loc.column, NULL,
                     "'%s' needs %lld bytes of shared memory (%lld static + %lld dynamic), above "
                     "the %lld-byte default; call cudaFuncSetAttribute(%s, "
                     "cudaFuncAttributeMaxDynamicSharedMemorySize, %lld) first",
                     v->name, (long long)smem_total, (long long)row->ptx->static_smem,
                     (long long)dyn, (long long)a->smem_per_block, l->kernel_name, (long long)dyn);
    else if (r.failure != OCC_OK)
        findings_add(findings, "gpulint-launch", SEV_ERROR, file, l->loc.line, l->loc.column, NULL,
                     "this launch of '%s' (%lld threads, %lld B dynamic shared memory) "
                     "will fail on %s: %s",
                     v->name, (long long)threads, (long long)dyn, a->name,
                     occ_failure_reason(r.failure));
    if (r.failure != OCC_OK)
        return;
    occ_advice adv[4];
    int n_adv = occ_advise(a, &k, &launch, &r, adv, 4);
    if (n_adv > 0) {
        sbuf m;
        sbuf_init(&m);
        sbuf_addf(&m,
                  "this launch of '%s' (%lld threads) reaches %.1f%% occupancy on %s, limited "
                  "by ",
                  v->name, (long long)threads, r.occupancy * 100.0, a->name);
        occ_limiters_text(&m, r.limiters);
        sbuf_add(&m, "; ");
        occ_advice_text(&m, &adv[0], &launch);
        findings_add(findings, "gpulint-occupancy", SEV_NOTE, file, l->loc.line, l->loc.column,
                     json_pack("{s:f}", "occupancy", r.occupancy), "%s", sbuf_str(&m));
        sbuf_free(&m);
    }
    if (t->product && dim3_known(&l->grid, grid)) {
        int64_t blocks = grid[0] * grid[1] * grid[2];
        int64_t wave = (int64_t)t->product->sm_count * r.blocks_per_sm;
        /* Fewer blocks than SMs leaves SMs idle: a warning. Short of one full
         * wave the last SMs wait on a partial one: a note. */
        if (blocks < wave)
            findings_add(
                findings, "gpulint-grid-size",
                blocks < t->product->sm_count ? SEV_WARNING : SEV_NOTE, file, l->loc.line,
                l->loc.column,
                json_pack("{s:I, s:I}", "blocks", (json_int_t)blocks, "one_wave", (json_int_t)wave),
                "grid of %lld blocks cannot fill %s once (%d SMs x %d resident blocks "
                "= %lld)",
                (long long)blocks, t->product->name, t->product->sm_count, r.blocks_per_sm,
                (long long)wave);
    }
}

static void add_access_json(json_t *arr, const mem_access *a, const char *file, bool analyzed,
                            const char *reason)
{
    json_t *o = json_object();
    json_object_set_new(o, "file", json_text(a->loc.file ? a->loc.file : file));
    json_object_set_new(o, "line", json_integer(a->loc.line));
    json_object_set_new(o, "column", json_integer(a->loc.column));
    json_object_set_new(o, "kernel", json_text(a->kernel ? a->kernel : ""));
    json_object_set_new(o, "array", json_text(a->base ? a->base : ""));
    json_object_set_new(o, "kind", json_text(a->is_store ? "store" : "load"));
    json_object_set_new(o, "width", json_integer(a->width));
    json_object_set_new(o, "text", a->text ? json_text(a->text) : json_null());
    json_object_set_new(o, "analyzed", json_boolean(analyzed));
    if (!analyzed)
        json_object_set_new(o, "reason", json_text(reason));
    json_array_append_new(arr, o);
}

/* A padding hint when a row of a 2-D array spans a multiple of the 32 banks. */
static void bank_hint(const cusrc_unit *u, const mem_access *a, char *buf, size_t n)
{
    buf[0] = '\0';
    if (a->array < 0 || (size_t)a->array >= u->n_arrays)
        return;
    const smem_array *arr = &u->arrays[a->array];
    if (arr->n_dims < 2 || arr->dims[arr->n_dims - 1] <= 0)
        return;
    int64_t row_bytes = arr->dims[arr->n_dims - 1] * arr->elem_size;
    if (row_bytes % 128 == 0)
        snprintf(buf, n, "; pad the row to %lld elements ([%lld] -> [%lld])",
                 (long long)(arr->dims[arr->n_dims - 1] +
                             (a->width > 4 ? a->width / arr->elem_size : 1)),
                 (long long)arr->dims[arr->n_dims - 1],
                 (long long)(arr->dims[arr->n_dims - 1] +
                             (a->width > 4 ? a->width / arr->elem_size : 1)));
}

/* Values the per-lane analyses may use: --define bindings, and the block
 * index of one interior block (gridcls_interior), so bounds checks against
 * known sizes evaluate as they do in the bulk of the grid. Sets grid to the
 * first launch's constant grid, if any (grid totals then cover the edge
 * blocks too). */
static bool analysis_env(const source_inputs *in, size_t vi, expr_env *env, int64_t grid[3])
{
    expr_env_init(env);
    for (int i = 0; in->defines && i < in->defines->n; i++)
        expr_env_set(env, in->defines->names[i], in->defines->values[i]);
    const cusrc_unit *u = in->unit;
    for (size_t i = 0; i < u->n_launches; i++) {
        if (u->launches[i].variant != (long)vi || !dim3_known(&u->launches[i].grid, grid))
            continue;
        const expr_builtin bid[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
        const expr_builtin gdim[3] = {SYM_GDIM_X, SYM_GDIM_Y, SYM_GDIM_Z};
        for (int d = 0; d < 3; d++) {
            expr_env_set_builtin(env, gdim[d], grid[d]);
            expr_env_set_builtin(env, bid[d], gridcls_interior(grid[d]));
        }
        return true;
    }
    return false;
}

typedef struct grid_ctx {
    const mem_access *access;
    const int64_t *block;
    const expr_env *env;
    bool assumed; /* some block rested on an assumption (see bank_result) */
} grid_ctx;

/* One block of the grid: its requests and wavefronts for the access. */
static bool grid_block(const int64_t bid[3], int64_t m[GRIDCLS_METRICS], char *why, size_t why_size,
                       void *p)
{
    grid_ctx *g = p;
    expr_env env = *g->env;
    const expr_builtin b[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    for (int d = 0; d < 3; d++)
        expr_env_set_builtin(&env, b[d], bid[d]);
    bank_result br;
    if (!bank_analyze(g->access, g->block, &env, &br)) {
        if (!br.unreached) {
            snprintf(why, why_size, "%s", br.reason);
            return false;
        }
        m[0] = m[1] = 0;
        return true;
    }
    g->assumed = g->assumed || br.guard_assumed || br.bound_sampled || br.capped;
    m[0] = br.requests;
    m[1] = br.total;
    return true;
}

/* "grid_totals": requests and wavefronts over every block of the launch's
 * grid, edge blocks included, for comparison with whole-kernel counters. */
static void add_grid_totals(json_t *o, const mem_access *a, const int64_t block[3],
                            const expr_env *env, const int64_t grid[3], const bank_result *interior)
{
    bool used[3];
    gridcls_uses_block_index(a, used);
    grid_ctx g = {.access = a, .block = block, .env = env};
    gridcls_result gr;
    char why[LANES_WHY_MAX];
    json_t *t = json_object();
    json_object_set_new(
        t, "grid",
        json_pack("[I,I,I]", (json_int_t)grid[0], (json_int_t)grid[1], (json_int_t)grid[2]));
    if ((!used[0] && !used[1] && !used[2]) || interior->guard_assumed) {
        /* Every block is the interior block (or the guard is not known, so
         * no block can be told apart from it). */
        int64_t blocks = grid[0] * grid[1] * grid[2];
        json_object_set_new(t, "requests", json_integer(interior->requests * blocks));
        json_object_set_new(t, "wavefronts", json_integer(interior->total * blocks));
        json_object_set_new(t, "exact",
                            json_boolean(!interior->guard_assumed && !interior->bound_sampled &&
                                         !interior->capped));
    } else if (gridcls_sum(grid, used, grid_block, &g, &gr, why, sizeof why)) {
        json_object_set_new(t, "requests", json_integer(gr.sum[0]));
        json_object_set_new(t, "wavefronts", json_integer(gr.sum[1]));
        json_object_set_new(t, "exact", json_boolean(gr.uniform && !g.assumed));
        json_object_set_new(t, "blocks_evaluated", json_integer(gr.classes));
        if (!gr.uniform)
            json_object_set_new(t, "note", json_text(gr.note));
    } else {
        json_decref(t);
        return;
    }
    json_object_set_new(o, "grid_totals", t);
}

static void analyse_accesses(const source_inputs *in, size_t vi, source_outputs *out,
                             finding_list *findings)
{
    const cusrc_unit *u = in->unit;
    const cusrc_variant *v = &u->variants[vi];
    int64_t block[3];
    const char *origin = NULL;
    bool have_block = block_for_variant(in, vi, block, &origin);
    expr_env env;
    int64_t grid[3];
    bool have_grid = analysis_env(in, vi, &env, grid);
    for (size_t i = v->first_access; i < v->first_access + v->n_accesses; i++) {
        const mem_access *a = &u->accesses[i];
        const char *file = a->loc.file ? a->loc.file : in->file;
        /* Name the instantiation when a template has several. */
        char inst[160] = "";
        if (strchr(v->name, '<'))
            snprintf(inst, sizeof inst, " in '%s'", v->name);
        json_t *arr = a->space == SPACE_SHARED ? out->shared_accesses : out->global_accesses;
        if (a->why_not) {
            add_access_json(arr, a, in->file, false, a->why_not);
            continue;
        }
        if (!have_block) {
            add_access_json(arr, a, in->file, false,
                            "no launch of this kernel has a constant block size; pass --block");
            continue;
        }
        if (a->space == SPACE_SHARED) {
            bank_result br;
            bank_analyze(a, block, &env, &br);
            add_access_json(arr, a, in->file, br.analyzed, br.reason);
            json_t *o = json_array_get(arr, json_array_size(arr) - 1);
            if (!br.analyzed)
                continue;
            json_object_set_new(o, "wavefronts", json_integer(br.worst));
            json_object_set_new(o, "ideal_wavefronts", json_integer(br.ideal));
            json_object_set_new(o, "degree", json_real(br.degree));
            json_object_set_new(o, "average_wavefronts", json_real(br.average));
            /* Warp-wide requests per block: weights for kernel-level averages
             * (what Nsight Compute's counters measure). */
            json_object_set_new(o, "requests_per_block", json_integer(br.requests));
            json_object_set_new(o, "wavefronts_per_block", json_integer(br.total));
            /* Exact only when every guard and loop bound was evaluated. */
            json_object_set_new(o, "exact",
                                json_boolean(!br.guard_assumed && !br.bound_sampled && !br.capped));
            json_object_set_new(o, "block",
                                json_pack("[I,I,I]", (json_int_t)block[0], (json_int_t)block[1],
                                          (json_int_t)block[2]));
            if (br.note[0])
                json_object_set_new(o, "note", json_text(br.note));
            if (have_grid)
                add_grid_totals(o, a, block, &env, grid, &br);
            if (br.worst > br.ideal) {
                char hint[128];
                bank_hint(u, a, hint, sizeof hint);
                findings_add(findings, "gpulint-bank-conflict", SEV_WARNING, file, a->loc.line,
                             a->loc.column,
                             json_pack("{s:i, s:i, s:f, s:f}", "wavefronts", br.worst,
                                       "ideal_wavefronts", br.ideal, "degree", br.degree,
                                       "average_wavefronts", br.average),
                             "%g-way bank conflict %s '%s'%s (%d wavefronts per request, ideal %d; "
                             "average %.2f) with %lldx%lldx%lld blocks%s",
                             br.degree, a->is_store ? "writing" : "reading",
                             a->text ? a->text : a->base, inst, br.worst, br.ideal, br.average,
                             (long long)block[0], (long long)block[1], (long long)block[2], hint);
            }
        } else {
            coalesce_result cr;
            coalesce_analyze(a, block, &env, &cr);
            add_access_json(arr, a, in->file, cr.analyzed, cr.reason);
            json_t *o = json_array_get(arr, json_array_size(arr) - 1);
            if (!cr.analyzed)
                continue;
            json_object_set_new(o, "sectors", json_integer(cr.worst_sectors));
            json_object_set_new(o, "ideal_sectors", json_integer(cr.worst_ideal));
            json_object_set_new(o, "average_sectors", json_real(cr.average_sectors));
            json_object_set_new(o, "efficiency", json_real(cr.efficiency));
            /* A request that touches more sectors than its bytes need; a single
             * lane's 4-byte store (one sector) is not uncoalesced. */
            if (cr.worst_sectors > cr.worst_ideal)
                findings_add(
                    findings, "gpulint-coalescing", SEV_WARNING, file, a->loc.line, a->loc.column,
                    json_pack("{s:i, s:i, s:f}", "sectors", cr.worst_sectors, "ideal_sectors",
                              cr.worst_ideal, "efficiency", cr.efficiency),
                    "uncoalesced %s '%s'%s: %d sectors of 32 bytes per warp request, "
                    "ideal %d (%.0f%% of the bytes moved are used)",
                    a->is_store ? "store to" : "load from", a->text ? a->text : a->base, inst,
                    cr.worst_sectors, cr.worst_ideal, cr.efficiency * 100.0);
        }
    }
    for (size_t i = v->first_branch; i < v->first_branch + v->n_branches; i++) {
        const branch_site *b = &u->branches[i];
        const char *file = b->loc.file ? b->loc.file : in->file;
        if (b->why_not || !have_block)
            continue;
        diverge_result dr;
        diverge_analyze(b, block, &env, &dr);
        json_t *o = json_pack("{s:o, s:i, s:i, s:s, s:o, s:s}", "file", json_text(file), "line",
                              b->loc.line, "column", b->loc.column, "kernel",
                              b->kernel ? b->kernel : "", "text", json_text(b->text ? b->text : ""),
                              "verdict", diverge_verdict_name(dr.verdict));
        json_object_set_new(o, "efficiency", json_real(dr.efficiency));
        json_array_append_new(out->branches, o);
        if (dr.flagged)
            findings_add(findings, "gpulint-divergence", SEV_WARNING, file, b->loc.line,
                         b->loc.column, json_pack("{s:f}", "simt_efficiency", dr.efficiency),
                         "'%s' depends on the thread index within a warp: lanes of one warp "
                         "take different paths (predicted SIMT efficiency %.0f%%)",
                         b->text ? b->text : "condition", dr.efficiency * 100.0);
    }
}

/* True when every branch of the variant is a bounds check or takes the same
 * way in the whole block (for the launch's block shape). */
static bool branches_uniform(const source_inputs *in, const cusrc_variant *v, const cusrc_launch *l)
{
    int64_t block[3] = {256, 1, 1};
    if (v->n_branches == 0)
        return true;
    /* Without a launch the verdict needs some block shape; bounds checks
     * and warp-uniform conditions are recognised whatever it is. */
    if (l && !dim3_known(&l->block, block))
        return false;
    if (!l && in->has_block)
        for (int i = 0; i < 3; i++)
            block[i] = in->block[i];
    expr_env env;
    expr_env_init(&env);
    for (size_t i = v->first_branch; i < v->first_branch + v->n_branches; i++) {
        const branch_site *b = &in->unit->branches[i];
        /* Loops are not arms: their trip counts multiply the counts (run per
         * thread when they differ by lane), so only ifs, ?: and switches
         * make the counts upper bounds. */
        if (b->kind == BRANCH_LOOP)
            continue;
        diverge_result dr;
        diverge_analyze(b, block, &env, &dr);
        if (dr.verdict != DIVERGE_BOUNDS_CHECK && dr.verdict != DIVERGE_WARP_UNIFORM)
            return false;
    }
    return true;
}

static void add_roofline(const source_inputs *in, const cusrc_variant *v, const cusrc_launch *l,
                         source_outputs *out)
{
    kroof k;
    kroof_compute(in->unit, v, l, in->defines, in->product, branches_uniform(in, v, l), &k);
    json_array_append_new(out->roofline, kroof_json(&k));
    kroof_text(&out->roofline_text, &k);
    kroof_free(&k);
}

/* One estimate per launch; kernels never launched in the file get their
 * per-thread counts. */
static void roofline_sites(const source_inputs *in, source_outputs *out)
{
    const cusrc_unit *u = in->unit;
    for (size_t li = 0; li < u->n_launches; li++) {
        const cusrc_variant *v = cusrc_launch_variant(u, &u->launches[li]);
        if (v)
            add_roofline(in, v, &u->launches[li], out);
    }
    for (size_t vi = 0; vi < u->n_variants; vi++) {
        bool launched = false;
        for (size_t li = 0; li < u->n_launches && !launched; li++)
            launched = u->launches[li].variant == (long)vi;
        if (!launched)
            add_roofline(in, &u->variants[vi], NULL, out);
    }
}

void source_analyse_source(const source_inputs *in, source_outputs *out, finding_list *findings)
{
    const cusrc_unit *u = in->unit;
    for (size_t i = 0; i < u->n_notes; i++)
        json_array_append_new(out->notes, json_text(u->notes[i]));
    for (size_t vi = 0; vi < u->n_variants; vi++)
        analyse_accesses(in, vi, out, findings);
    roofline_sites(in, out);
}

void source_analyse_launches(const source_inputs *in, source_outputs *out, finding_list *findings)
{
    const cusrc_unit *u = in->unit;
    /* Definition lines from the front end are exact; prefer them. */
    for (size_t vi = 0; vi < u->n_variants; vi++) {
        const cusrc_variant *v = &u->variants[vi];
        const char *m = variant_mangled(u, v);
        for (int r = 0; m && r < in->n_rows; r++)
            if (strcmp(in->rows[r].ptx->name, m) == 0) {
                const src_loc *loc = &u->kernels[v->kernel].loc;
                in->rows[r].line = loc->line;
                in->rows[r].column = loc->column;
                in->rows[r].def_file =
                    loc->file && in->file && strcmp(loc->file, in->file) ? loc->file : NULL;
            }
    }
    for (size_t li = 0; li < u->n_launches; li++) {
        const cusrc_launch *l = &u->launches[li];
        const cusrc_variant *v = cusrc_launch_variant(u, l);
        if (!v)
            continue;
        const char *m = variant_mangled(u, v);
        json_t *list = json_object_get(out->launches, m ? m : v->name);
        if (!list) {
            list = json_array();
            json_object_set_new(out->launches, m ? m : v->name, list);
        }
        for (int t = 0; t < in->n_targets; t++)
            check_launch(in, l, v, &in->targets[t], row_for(in, m, in->targets[t].arch), list,
                         findings);
    }
}

void source_analyse(const source_inputs *in, source_outputs *out, finding_list *findings)
{
    source_analyse_source(in, out, findings);
    source_analyse_launches(in, out, findings);
}

static int cmp_launch(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    int c = strcmp(json_string_value(json_object_get(x, "file")),
                   json_string_value(json_object_get(y, "file")));
    if (c)
        return c;
    json_int_t lx = json_integer_value(json_object_get(x, "line"));
    json_int_t ly = json_integer_value(json_object_get(y, "line"));
    if (lx != ly)
        return (lx > ly) - (lx < ly);
    return strcmp(json_string_value(json_object_get(x, "arch")),
                  json_string_value(json_object_get(y, "arch")));
}

static void launch_cells(json_t *l, char cells[5][160])
{
    json_t *occ = json_object_get(l, "occupancy");
    json_t *blk = json_object_get(l, "block");
    snprintf(cells[0], 160, "%s:%lld", json_string_value(json_object_get(l, "file")),
             (long long)json_integer_value(json_object_get(l, "line")));
    snprintf(cells[1], 160, "%s", json_string_value(json_object_get(l, "kernel")));
    snprintf(cells[2], 160, "%s", json_string_value(json_object_get(l, "arch")));
    if (json_is_array(blk))
        snprintf(cells[3], 160, "%lldx%lldx%lld",
                 (long long)json_integer_value(json_array_get(blk, 0)),
                 (long long)json_integer_value(json_array_get(blk, 1)),
                 (long long)json_integer_value(json_array_get(blk, 2)));
    else
        snprintf(cells[3], 160, "?");
    if (!json_is_object(occ))
        snprintf(cells[4], 160, "-");
    else if (json_object_get(occ, "reason"))
        snprintf(cells[4], 160, "cannot launch");
    else
        snprintf(cells[4], 160, "%lld blocks/SM, %.1f%%",
                 (long long)json_integer_value(json_object_get(occ, "blocks_per_sm")),
                 json_real_value(json_object_get(occ, "occupancy")) * 100.0);
}

void source_launch_text(sbuf *out, const source_outputs *o, bool color)
{
    (void)color;
    const char *key;
    json_t *list;
    size_t n = 0;
    json_object_foreach(o->launches, key, list) n += json_array_size(list);
    if (n == 0)
        return;
    json_t **all = xcalloc(n, sizeof *all);
    n = 0;
    json_object_foreach(o->launches, key, list)
    {
        size_t i;
        json_t *l;
        json_array_foreach(list, i, l) all[n++] = l;
    }
    qsort(all, n, sizeof *all, cmp_launch);
    static const char *const head[5] = {"launch", "kernel", "arch", "block", "occupancy"};
    int width[5];
    for (int c = 0; c < 5; c++)
        width[c] = (int)strlen(head[c]);
    char cells[5][160];
    for (size_t i = 0; i < n; i++) {
        launch_cells(all[i], cells);
        for (int c = 0; c < 5; c++)
            if ((int)strlen(cells[c]) > width[c])
                width[c] = (int)strlen(cells[c]);
    }
    sbuf_addf(out, "\n%-*s  %-*s  %-*s  %-*s  %s\n", width[0], head[0], width[1], head[1], width[2],
              head[2], width[3], head[3], head[4]);
    for (size_t i = 0; i < n; i++) {
        launch_cells(all[i], cells);
        sbuf_addf(out, "%-*s  %-*s  %-*s  %-*s  %s\n", width[0], cells[0], width[1], cells[1],
                  width[2], cells[2], width[3], cells[3], cells[4]);
    }
    free(all);
}
