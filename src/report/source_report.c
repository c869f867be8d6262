/* source_report: source-level analyses joined with ptxas's numbers. */
#include "report/source_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/warp/bank.h"
#include "analysis/warp/coalesce.h"
#include "analysis/warp/diverge.h"
#include "analysis/symbolic/gridcls.h"
#include "analysis/occupancy/occ.h"
#include "analysis/memory/traffic.h"
#include "analysis/timing/roofline.h"
#include "analysis/warp/vecmerge.h"
#include "report/launch_args.h"
#include "report/launch_cluster.h"
#include "report/launch_maxnreg.h"
#include "report/launch_issue.h"
#include "report/launch_local.h"
#include "report/launch_share.h"
#include "report/launch_time.h"
#include "report/launch_values.h"
#include "report/occ_report.h"
#include "report/launch_names.h"
#include "report/warp_iters.h"
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

static json_t *dim3_json(const cusrc_dim3 *d, const kroof_defines *defines)
{
    int64_t v[3];
    if (!dim3_with_defines(d, defines, v))
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

static void launch_defines(const source_inputs *in, const cusrc_variant *v, const cusrc_launch *l,
                           kroof_defines *defs);

/* The kernel's arguments as this launch passes them: the value where it
 * is known (a constant, or bound by --define), else the expression in the
 * launching code's names. */
static json_t *args_json(const cusrc_kernel *k, const cusrc_launch *l, const kroof_defines *defs)
{
    json_t *arr = json_array();
    for (int a = 0; a < l->n_args; a++) {
        const cusrc_value *v = &l->args[a];
        json_t *o = json_object();
        json_object_set_new(o, "param", json_text(a < k->n_params ? k->params[a].name : ""));
        int64_t val;
        bool integer = a < k->n_params && param_bindable(&k->params[a]);
        if (integer && launch_value(v, defs, &val)) {
            json_object_set_new(o, "value", json_integer(val));
        } else {
            char *e = v->e && !v->known ? expr_to_string(v->e) : NULL;
            json_object_set_new(o, "expr", json_text(e ? e : v->text ? v->text : "?"));
            free(e);
        }
        json_array_append_new(arr, o);
    }
    return arr;
}

/* Each call path to the launch: the functions and how many times each
 * makes the next call per call of it, a number where the values (and
 * --define) give one, else the expression ("model->config.layers"). */
static json_t *paths_json(const cusrc_launch *l, const kroof_defines *defs)
{
    json_t *arr = json_array();
    expr_env env;
    expr_env_init(&env);
    kroof_defines_bind(defs, &env);
    for (int p = 0; l->paths && p < l->call_paths; p++) {
        const cusrc_path *path = &l->paths[p];
        json_t *via = json_array(), *runs = json_array();
        for (int i = 0; i < path->n; i++) {
            json_array_append_new(via, json_text(path->fn[i]));
            int64_t n;
            const char *why = NULL;
            if (expr_eval(path->runs[i], &env, &n, &why) == EXPR_OK) {
                json_array_append_new(runs, json_integer(n));
            } else {
                char *e = expr_to_string(path->runs[i]);
                json_array_append_new(runs, json_text(e));
                free(e);
            }
        }
        json_array_append_new(arr, json_pack("{s:o, s:o}", "via", via, "runs", runs));
    }
    return arr;
}

/* Thread-block clusters (lowering r to the blocks an SM a cluster launch
 * holds) and setmaxnreg at one launch. True when occupancy advice does not
 * apply: registers or shared memory do not set what the launch holds. */
static bool hopper_checks(const source_inputs *in, const cusrc_launch *l, const cusrc_variant *v,
                          const source_target *t, const kernel_row *row, const kroof_defines *defs,
                          int threads, occ_result *r, json_t *o, finding_list *findings)
{
    const char *file = l->loc.file ? l->loc.file : in->file;
    int64_t grid[3];
    bool capped = launch_cluster_apply(
        &(launch_cluster_in){t->arch, t->product, l, v->name, file, r,
                             dim3_with_defines(&l->grid, defs, grid) ? grid : NULL},
        r, o, findings);
    bool maxnreg =
        launch_maxnreg_check(&(launch_maxnreg_in){t->arch, in->code, variant_mangled(in->unit, v),
                                                  v->name, row->ptx->registers, threads, l, file},
                             o, findings);
    return capped || maxnreg;
}

/* The constants the launch's values were followed to, then the device's
 * fields it read. */
static json_t *sizes_from_json(const source_inputs *in, const cusrc_launch *l, const char *file)
{
    json_t *from = json_array();
    for (int i = 0; i < l->n_sizes_from; i++) {
        const cusrc_size_from *sf = &l->sizes_from[i];
        json_array_append_new(
            from, json_pack("{s:s, s:I, s:s, s:o, s:i}", "name", sf->name, "value",
                            (json_int_t)sf->value, "function", sf->function, "file",
                            json_text(sf->loc.file ? sf->loc.file : file), "line", sf->loc.line));
    }
    const source_target *t0 = &in->targets[0]; /* whose model gave the device's fields */
    launch_device_props_json(from, l, in->defines, in->user_defines,
                             t0->product ? t0->product->name : t0->arch->name);
    return from;
}

/* No block at all is an invalid configuration: the launch fails
 * (cudaErrorInvalidConfiguration) and runs nothing. Fewer blocks than SMs
 * leaves SMs idle: a warning. Short of one full wave the last SMs wait on
 * a partial one: a note. */
static void grid_findings(finding_list *findings, const char *file, const cusrc_launch *l,
                          const char *kernel, const gpu_product *product, const int64_t grid[3],
                          int blocks_per_sm)
{
    int64_t blocks = grid[0] * grid[1] * grid[2];
    int64_t wave = (int64_t)product->sm_count * blocks_per_sm;
    if (blocks <= 0)
        findings_add(findings, "gpulint-launch", SEV_ERROR, file, l->loc.line, l->loc.column, NULL,
                     "grid of %lld x %lld x %lld blocks: this launch of '%s' fails "
                     "(cudaErrorInvalidConfiguration) and runs nothing",
                     (long long)grid[0], (long long)grid[1], (long long)grid[2], kernel);
    else if (blocks < wave)
        findings_add(
            findings, "gpulint-grid-size", blocks < product->sm_count ? SEV_WARNING : SEV_NOTE,
            file, l->loc.line, l->loc.column,
            json_pack("{s:I, s:I}", "blocks", (json_int_t)blocks, "one_wave", (json_int_t)wave),
            "grid of %lld blocks cannot fill %s once (%d SMs x %d resident blocks = %lld)",
            (long long)blocks, product->name, product->sm_count, blocks_per_sm, (long long)wave);
}

/* The figures a launch's entry gets once its grid and occupancy are known:
 * executed instructions, the DRAM re-reads of shared panels and the local
 * memory that reaches DRAM. */
static void launch_counts(const source_inputs *in, const cusrc_launch *l, const cusrc_variant *v,
                          const gpu_product *product, const int64_t grid[3], const int64_t block[3],
                          int64_t frame_bytes, const occ_result *r, json_t *roof,
                          finding_list *findings)
{
    const gpu_arch *a = in->targets[0].arch;
    int64_t threads = block[0] * block[1] * block[2];
    double warps = (double)(grid[0] * grid[1] * grid[2]) * (double)((threads + 31) / 32);
    launch_issue_add(roof, in->code, variant_mangled(in->unit, v), a->name, warps, block);
    launch_share_apply(roof, product, grid, r->blocks_per_sm, r->warps_per_sm, r->max_warps_per_sm);
    launch_local_apply(roof, product, grid[0] * grid[1] * grid[2], threads, r->blocks_per_sm,
                       frame_bytes);
    launch_local_note(findings, l->loc.file ? l->loc.file : in->file, l->loc.line, l->loc.column,
                      v->name, product, roof);
}

static void check_launch(const source_inputs *in, const cusrc_launch *l, const cusrc_variant *v,
                         const source_target *t, kernel_row *row, json_t *list, json_t *roof,
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
    if (l->pointer) /* one of the kernels the pointer may hold */
        json_object_set_new(o, "through_pointer", json_text(l->pointer));
    json_object_set_new(o, "call_paths", json_integer(l->call_paths > 0 ? l->call_paths : 1));
    if (l->between.var)
        json_object_set_new(o, "between",
                            json_pack("{s:s, s:I, s:I, s:I}", "var", l->between.var, "from",
                                      (json_int_t)l->between.from, "to", (json_int_t)l->between.to,
                                      "launches", (json_int_t)l->between.launches));
    if (l->via)
        json_object_set_new(o, "via", json_text(l->via));
    kroof_defines defs;
    launch_defines(in, v, l, &defs);
    json_object_set_new(o, "args", args_json(&in->unit->kernels[v->kernel], l, &defs));
    json_object_set_new(o, "sizes_from", sizes_from_json(in, l, file));
    json_t *conflicts =
        launch_define_conflicts(&in->unit->kernels[v->kernel], l, in->user_defines, file);
    if (conflicts)
        json_object_set_new(o, "define_conflicts", conflicts);
    json_object_set_new(o, "paths", paths_json(l, &defs));
    json_object_set_new(o, "block", dim3_json(&l->block, &defs));
    json_object_set_new(o, "grid", dim3_json(&l->grid, &defs));
    int64_t dyn = 0;
    bool dyn_known = launch_value(&l->smem, &defs, &dyn);
    json_object_set_new(o, "dynamic_smem", dyn_known ? json_integer(dyn) : json_null());
    json_object_set_new(o, "smem_optin", json_boolean(l->smem_optin));
    int64_t block[3], grid[3];
    /* A runtime value the user bound with --define is theirs, not a constant. */
    if (!dim3_known(&l->block, block) && dim3_with_defines(&l->block, in->user_defines, block))
        json_object_set_new(o, "block_from_define", json_true());
    json_array_append_new(list, o);

    if (!dim3_with_defines(&l->block, &defs, block)) {
        json_object_set_new(o, "occupancy", json_null());
        json_object_set_new(o, "reason", json_text(dim3_why(&l->block)));
        findings_add(findings, "gpulint-launch-config", SEV_NOTE, file, l->loc.line, l->loc.column,
                     NULL,
                     "block size of this launch of '%s' is not constant (%s); "
                     "pass --block to choose one, or --define to bind the names it depends on",
                     v->name, dim3_why(&l->block));
        if (t->product)
            json_object_set_new(
                o, "time", json_pack("{s:s}", "reason", "the block size has no value (see sizes)"));
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
    occ_launch launch = {.threads_per_block = threads > 0x7fffffff ? 0x7fffffff : (int)threads,
                         .dynamic_smem = dyn,
                         .carveout_percent = -1,
                         .smem_optin = l->smem_optin,
                         .max_dynamic_smem = l->smem_optin && l->optin_bytes.known
                                                 ? l->optin_bytes.value
                                                 : a->smem_per_block_optin - row->ptx->static_smem};
    occ_kernel k = ptxas_occ_kernel(row->ptx);
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
    bool no_advice =
        hopper_checks(in, l, v, t, row, &defs, launch.threads_per_block, &r, o, findings);
    occ_advice adv[4];
    int n_adv = no_advice ? 0 : occ_advise(a, &k, &launch, &r, adv, 4);
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
    if (t->product && dim3_with_defines(&l->grid, &defs, grid)) {
        /* The roofline entry holds the first target's product's figures. */
        bool first =
            in->product && !strcmp(in->product->id, t->product->id) && t == &in->targets[0];
        if (first && roof)
            launch_counts(in, l, v, t->product, grid, block, row->ptx->stack, &r, roof, findings);
        launch_time_add(o, roof, first, t->product, in->base_clock, grid, block, r.blocks_per_sm);
        grid_findings(findings, file, l, v->name, t->product, grid, r.blocks_per_sm);
    } else if (t->product) {
        json_object_set_new(o, "time",
                            json_pack("{s:s}", "reason", "the grid size has no value (see sizes)"));
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
    if (a->via)
        json_object_set_new(o, "via", json_text(a->via));
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

/* What one analysis of a variant runs with: the block, the grid, and the
 * kernel arguments a launch passes as compile-time constants. Launches that
 * agree share one analysis; launches that differ get one each. */
typedef struct run_config {
    bool have_block, have_grid;
    int64_t block[3], grid[3];
    kroof_defines binds;        /* the launch's constant integer arguments */
    const cusrc_launch *launch; /* the first launch with this configuration; NULL = none */
} run_config;

/* What a launch's values are evaluated with: its constant integer
 * arguments by parameter name, then --define (which wins); the roofline of
 * the launch and its row in the launch table see the same. */
static void launch_defines(const source_inputs *in, const cusrc_variant *v, const cusrc_launch *l,
                           kroof_defines *defs)
{
    launch_constants(&in->unit->kernels[v->kernel], l, in->defines, defs);
    for (int i = 0; in->defines && i < in->defines->n; i++) {
        int j = 0;
        while (j < defs->n && strcmp(defs->names[j], in->defines->names[i]))
            j++;
        if (j == defs->n && defs->n == EXPR_MAX_BINDINGS)
            continue;
        defs->names[j] = in->defines->names[i];
        defs->values[j] = in->defines->values[i];
        defs->n += j == defs->n;
    }
}

static bool config_equal(const run_config *a, const run_config *b)
{
    if (a->have_block != b->have_block || a->have_grid != b->have_grid || a->binds.n != b->binds.n)
        return false;
    for (int d = 0; d < 3; d++)
        if ((a->have_block && a->block[d] != b->block[d]) ||
            (a->have_grid && a->grid[d] != b->grid[d]))
            return false;
    for (int i = 0; i < a->binds.n; i++)
        if (strcmp(a->binds.names[i], b->binds.names[i]) ||
            a->binds.values[i] != b->binds.values[i])
            return false;
    return true;
}

/* The configurations of a variant, one per distinct launch (at least one).
 * A launch's block is its own, else --block; a launch with neither is left
 * out (its sizes are another launch's guess, not its own). A launch's grid
 * is its own or none: counts then cover one block and say so. With no
 * launch left, the sole configuration takes the first constant block among
 * the variant's launches (or --block) and no grid. */
static size_t variant_configs(const source_inputs *in, size_t vi, run_config **out)
{
    const cusrc_unit *u = in->unit;
    const cusrc_kernel *k = &u->kernels[u->variants[vi].kernel];
    run_config fallback = {0};
    if (in->has_block) {
        fallback.have_block = true;
        for (int d = 0; d < 3; d++)
            fallback.block[d] = in->block[d];
    }
    for (size_t i = 0; i < u->n_launches && !fallback.have_block; i++)
        if (u->launches[i].variant == (long)vi)
            fallback.have_block =
                dim3_with_defines(&u->launches[i].block, in->defines, fallback.block);
    run_config *c = xcalloc(u->n_launches + 1, sizeof *c);
    size_t n = 0;
    for (size_t i = 0; i < u->n_launches; i++) {
        const cusrc_launch *l = &u->launches[i];
        if (l->variant != (long)vi)
            continue;
        run_config r = {0};
        int64_t d3[3];
        if (dim3_with_defines(&l->block, in->defines, d3)) {
            memcpy(r.block, d3, sizeof d3);
            r.have_block = true;
        } else if (in->has_block) {
            memcpy(r.block, in->block, sizeof r.block);
            r.have_block = true;
        } else {
            continue;
        }
        if (dim3_with_defines(&l->grid, in->defines, d3)) {
            memcpy(r.grid, d3, sizeof d3);
            r.have_grid = true;
        }
        launch_constants(k, l, in->defines, &r.binds);
        r.launch = l;
        size_t j = 0;
        while (j < n && !config_equal(&c[j], &r))
            j++;
        if (j == n)
            c[n++] = r;
    }
    if (n == 0)
        c[n++] = fallback;
    *out = c;
    return n;
}

/* Values the per-lane analyses may use: the launch's constant arguments,
 * then --define (which wins), and the block index of one interior block
 * (gridcls_interior), so bounds checks against known sizes evaluate as they
 * do in the bulk of the grid (grid totals cover the edge blocks too). */
static void config_env(const source_inputs *in, const run_config *c, expr_env *env)
{
    expr_env_init(env);
    for (int i = 0; i < c->binds.n; i++)
        expr_env_set(env, c->binds.names[i], c->binds.values[i]);
    kroof_defines_bind(in->defines, env);
    if (!c->have_grid)
        return;
    const expr_builtin bid[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    const expr_builtin gdim[3] = {SYM_GDIM_X, SYM_GDIM_Y, SYM_GDIM_Z};
    for (int d = 0; d < 3; d++) {
        expr_env_set_builtin(env, gdim[d], c->grid[d]);
        expr_env_set_builtin(env, bid[d], gridcls_interior(c->grid[d]));
    }
}

/* With several configurations, each result names the launch it is for and
 * the constants it bound. */
static void tag_config(json_t *o, const run_config *c, bool several)
{
    if (several && c->launch)
        json_object_set_new(
            o, "launch",
            json_pack("{s:i, s:i}", "line", c->launch->loc.line, "column", c->launch->loc.column));
    if (c->binds.n > 0) {
        json_t *b = json_object();
        for (int i = 0; i < c->binds.n; i++)
            json_object_set_new(b, c->binds.names[i], json_integer(c->binds.values[i]));
        json_object_set_new(o, "launch_constants", b);
    }
}

/* env with blockIdx set to bid. */
static void env_at_block(const expr_env *env, const int64_t bid[3], expr_env *out)
{
    *out = *env;
    const expr_builtin b[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    for (int d = 0; d < 3; d++)
        expr_env_set_builtin(out, b[d], bid[d]);
}

/* "grid_totals" of a shared site: requests and wavefronts over every block
 * of the launch's grid, edge blocks included, for comparison with
 * whole-kernel counters (a global site's are summed into the roofline's
 * l1_traffic instead). */
static void add_grid_totals(json_t *o, traffic_memo *memo, const mem_access *a,
                            const int64_t block[3], const expr_env *env, const int64_t grid[3])
{
    traffic_site_total t;
    char why[LANES_WHY_MAX];
    if (!traffic_site_memo(memo, a, block, env, grid, &t, why, sizeof why))
        return;
    json_t *g = json_object();
    json_object_set_new(
        g, "grid",
        json_pack("[I,I,I]", (json_int_t)grid[0], (json_int_t)grid[1], (json_int_t)grid[2]));
    json_object_set_new(g, "requests", json_integer(t.requests));
    json_object_set_new(g, "wavefronts", json_integer(t.units));
    json_object_set_new(g, "exact", json_boolean(t.exact));
    if (t.blocks_evaluated)
        json_object_set_new(g, "blocks_evaluated", json_integer(t.blocks_evaluated));
    if (t.merged > 1) /* ptxas's wide load (analysis/warp/vecmerge) */
        json_object_set_new(g, "merged_iterations", json_integer(t.merged));
    if (t.note[0])
        json_object_set_new(g, "note", json_text(t.note));
    json_object_set_new(o, "grid_totals", g);
}

/* " in 'k<float>'" when a template has several instantiations, and " for
 * the launch at line N" when a kernel's launches are analysed apart. */
static void instance_words(const cusrc_variant *v, const run_config *cfg, bool several, char *buf,
                           size_t n)
{
    int used = 0;
    buf[0] = '\0';
    if (strchr(v->name, '<'))
        used = snprintf(buf, n, " in '%s'", v->name);
    if (several && cfg->launch && used >= 0 && (size_t)used < n)
        snprintf(buf + used, n - (size_t)used, " for the launch at line %d", cfg->launch->loc.line);
}

/* One block of the grid: the branch's counts (gridcls metrics: warps
 * entering, diverging, lane-executions, warp-executions, uniform and
 * divergent loop iterations). */
typedef struct branch_grid_ctx {
    const branch_site *branch;
    const int64_t *block;
    const expr_env *env;
    bool inexact;
    divcount_classes per_warp; /* loops: iterations per warp, block by block */
} branch_grid_ctx;

static bool branch_grid_block(const int64_t bid[3], int64_t m[GRIDCLS_METRICS], char *why,
                              size_t why_size, void *p)
{
    branch_grid_ctx *g = p;
    expr_env env;
    env_at_block(g->env, bid, &env);
    diverge_counts c;
    if (!diverge_count(g->branch, g->block, &env, &c)) {
        snprintf(why, why_size, "%s", c.why);
        return false;
    }
    g->inexact |= !c.exact;
    m[0] = c.warps_entering;
    m[1] = c.warps_divergent;
    m[2] = c.lanes_on;
    m[3] = c.runs;
    m[4] = c.iterations_uniform;
    m[5] = c.iterations_divergent;
    if (g->branch->kind == BRANCH_LOOP)
        for (int w = 0; w < c.warps && w < LANES_MAX_THREADS / LANES_WARP; w++)
            divcount_class_add(&g->per_warp, c.warp_uniform[w], c.warp_divergent[w], 1, bid, w);
    return true;
}

/* The textbook counts of a branch (README: branches), over the grid when
 * the launch's grid is known, else over one block. A grid is counted block
 * by block while that stays within these many blocks and warp requests (a
 * branch inside a long loop costs a request per iteration, a loop whose
 * trip count is not in closed form a step per iteration of each lane);
 * beyond, by block class (gridcls). */
#define BRANCH_EVERY_BLOCK_MAX 4096
#define BRANCH_EVERY_VISIT_MAX (int64_t)(1 << 18)
static void add_branch_counts(json_t *o, const branch_site *b, const int64_t block[3],
                              const expr_env *env, bool have_grid, const int64_t grid[3])
{
    const int64_t block0[3] = {0, 0, 0};
    expr_env first;
    env_at_block(env, block0, &first);
    diverge_counts c;
    if (!diverge_count(b, block, &first, &c)) {
        json_object_set_new(o, "counts_reason", json_text(c.why));
        return;
    }
    int64_t one[3] = {1, 1, 1};
    const int64_t *g = have_grid ? grid : one;
    bool uses[3];
    diverge_uses_block_index(b, uses);
    gridcls_result gr;
    char why[LANES_WHY_MAX];
    branch_grid_ctx ctx = {.branch = b, .block = block, .env = &first, .inexact = !c.exact};
    int64_t blocks = g[0] * g[1] * g[2];
    bool ok, walked = false;
    if ((uses[0] || uses[1] || uses[2]) && blocks <= BRANCH_EVERY_BLOCK_MAX &&
        blocks * (c.visits > 0 ? c.visits : 1) <= BRANCH_EVERY_VISIT_MAX) {
        walked = true;
        /* Small enough to count block by block: exact whatever the
         * condition singles out. */
        memset(&gr, 0, sizeof gr);
        gr.uniform = true;
        ok = true;
        for (int64_t i = 0; ok && i < blocks; i++) {
            int64_t bidx[3] = {i % g[0], i / g[0] % g[1], i / (g[0] * g[1])};
            int64_t m[GRIDCLS_METRICS] = {0};
            ok = branch_grid_block(bidx, m, why, sizeof why, &ctx);
            for (int k = 0; k < GRIDCLS_METRICS; k++)
                gr.sum[k] += m[k];
            gr.classes++;
        }
    } else {
        ok = gridcls_sum(g, uses, GRIDCLS_METRICS, branch_grid_block, &ctx, &gr, why, sizeof why);
    }
    if (!ok) {
        json_object_set_new(o, "counts_reason", json_text(why));
        return;
    }
    json_object_set_new(o, "counts_over", json_string(have_grid ? "grid" : "one block"));
    json_object_set_new(o, "warps_per_block", json_integer(c.warps));
    json_object_set_new(o, "warps_in_grid",
                        have_grid ? json_integer(c.warps * g[0] * g[1] * g[2]) : json_null());
    json_object_set_new(o, "warps_entering", json_integer(gr.sum[0]));
    json_object_set_new(o, "warps_divergent", json_integer(gr.sum[1]));
    json_t *we = json_array();
    for (int w = 0; w < c.warps && w < LANES_MAX_THREADS / LANES_WARP; w++)
        json_array_append_new(we, c.warp_efficiency[w] < 0 ? json_null()
                                                           : json_real(c.warp_efficiency[w]));
    json_object_set_new(o, "warp_efficiency", we);
    json_object_set_new(
        o, "simd_efficiency",
        gr.sum[3] > 0 ? json_real((double)gr.sum[2] / ((double)LANES_WARP * (double)gr.sum[3]))
                      : json_null());
    if (b->kind == BRANCH_LOOP) {
        json_object_set_new(o, "iterations_uniform", json_integer(gr.sum[4]));
        json_object_set_new(o, "iterations_divergent", json_integer(gr.sum[5]));
        /* Block 0 stands for every block when the branch reads no block
         * index: its warps' counts are each block's. */
        bool any_block = uses[0] || uses[1] || uses[2];
        if (!walked && !any_block)
            for (int i = 0; i < ctx.per_warp.n; i++) {
                ctx.per_warp.c[i].warps *= blocks;
                memset(ctx.per_warp.c[i].block, 0, sizeof ctx.per_warp.c[i].block);
            }
        /* Sampled by block class, the warps of each pair are not counted. */
        warp_iters_json(o, &ctx.per_warp, walked || !any_block);
    }
    json_object_set_new(o, "counts_exact", json_boolean(!ctx.inexact && gr.uniform));
    if (!gr.uniform)
        json_object_set_new(o, "counts_note", json_text(gr.note));
}

/* A site inside a helper walked at its call site names how the kernel
 * reaches it: the line alone would point at code shared by many callers. */
static void add_via(const char *via, char *buf, size_t n)
{
    size_t len = strlen(buf);
    if (via && len < n)
        snprintf(buf + len, n - len, " via %s", via);
}

/* The worst request and the average are two numbers: a message that puts
 * one's sectors beside the other's efficiency misleads (a bounds-checked
 * last warp is worse than the rest). */
static void coalescing_finding(finding_list *findings, const char *file, const mem_access *a,
                               const char *inst, const coalesce_result *cr)
{
    const char *what = a->is_store ? "store to" : "load from";
    const char *text = a->text ? a->text : a->base;
    json_t *data = json_pack("{s:i, s:i, s:f}", "sectors", cr->worst_sectors, "ideal_sectors",
                             cr->worst_ideal, "efficiency", cr->efficiency);
    if (fabs(cr->average_sectors - cr->worst_sectors) < 0.005 &&
        fabs(cr->efficiency - cr->worst_efficiency) < 0.005)
        findings_add(findings, "gpulint-coalescing", SEV_WARNING, file, a->loc.line, a->loc.column,
                     data,
                     "uncoalesced %s '%s'%s: %d sectors of 32 bytes per warp request, ideal %d, "
                     "in every request (%.0f%% of the bytes moved are used)",
                     what, text, inst, cr->worst_sectors, cr->worst_ideal, cr->efficiency * 100.0);
    else
        findings_add(findings, "gpulint-coalescing", SEV_WARNING, file, a->loc.line, a->loc.column,
                     data,
                     "uncoalesced %s '%s'%s: the worst warp request touches %d sectors of 32 "
                     "bytes, ideal %d (%.0f%% of its bytes used); on average %.2f sectors per "
                     "request, %.0f%% of the bytes moved used",
                     what, text, inst, cr->worst_sectors, cr->worst_ideal,
                     cr->worst_efficiency * 100.0, cr->average_sectors, cr->efficiency * 100.0);
}

/* Never silence: a kernel whose block shape no launch fixes has analyses
 * that could not run; say which, and how to run them. */
static void note_no_block(const cusrc_unit *u, const cusrc_variant *v, source_outputs *out)
{
    int shared = 0, global = 0, branches = 0;
    for (size_t i = v->first_access; i < v->first_access + v->n_accesses; i++)
        if (!u->accesses[i].why_not)
            *(u->accesses[i].space == SPACE_SHARED ? &shared : &global) += 1;
    for (size_t i = v->first_branch; i < v->first_branch + v->n_branches; i++)
        branches += !u->branches[i].why_not;
    if (!shared && !global && !branches)
        return;
    /* Launched only where --define values show it never runs: the note of
     * cusrc_drop_unreached says so once for all of them. */
    if (v->n_unreached) {
        bool launched = false;
        for (size_t i = 0; i < u->n_launches && !launched; i++)
            launched = u->launches[i].variant == (long)(v - u->variants);
        if (!launched)
            return;
    }
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "'%s': no launch in this file gives it a constant block size, so ", v->name);
    char parts[3][64];
    int n = 0;
    if (shared)
        snprintf(parts[n++], sizeof parts[0], "%d shared-memory access%s (bank conflicts)", shared,
                 shared == 1 ? "" : "es");
    if (global)
        snprintf(parts[n++], sizeof parts[0], "%d global access%s (coalescing)", global,
                 global == 1 ? "" : "es");
    if (branches)
        snprintf(parts[n++], sizeof parts[0], "%d branch%s (divergence)", branches,
                 branches == 1 ? "" : "es");
    for (int k = 0; k < n; k++)
        sbuf_addf(&b, "%s%s", k == 0 ? "" : k == n - 1 ? " and " : ", ", parts[k]);
    sbuf_addf(&b,
              " %s not analysed; pass --block XxYxZ, the block it is launched with, to analyse "
              "%s",
              shared + global + branches == 1 ? "was" : "were",
              shared + global + branches == 1 ? "it" : "them");
    json_array_append_new(out->notes, json_text(sbuf_str(&b)));
    sbuf_free(&b);
}

/* Accesses no analysis could judge: counted, and the first one's reason
 * said, so that an empty findings list is never mistaken for a clean one. */
typedef struct skipped_sites {
    int n;
    int line;
    const char *text;
    char reason[256]; /* the analyses' reasons live in their result records */
} skipped_sites;

static void skipped_add(skipped_sites *s, const mem_access *a, const char *reason)
{
    if (s->n++ == 0) {
        s->line = a->loc.line;
        s->text = a->text ? a->text : a->base;
        snprintf(s->reason, sizeof s->reason, "%s",
                 reason && reason[0] ? reason : "not understood");
    }
}

static void note_skipped(const cusrc_variant *v, const skipped_sites *s, source_outputs *out)
{
    if (!s->n)
        return;
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b,
              "'%s': %d memory access%s not analysed for bank conflicts or coalescing; the "
              "first, '%s' on line %d: %s",
              v->name, s->n, s->n == 1 ? " was" : "es were", s->text, s->line, s->reason);
    if (strstr(s->reason, "value is unknown"))
        sbuf_add(&b, " (bind it with --define NAME=VALUE)");
    json_array_append_new(out->notes, json_text(sbuf_str(&b)));
    sbuf_free(&b);
}

/* The reason add_access_json recorded for the last site of arr. */
static const char *last_reason(const json_t *arr)
{
    return json_string_value(
        json_object_get(json_array_get(arr, json_array_size(arr) - 1), "reason"));
}

/* One shared site's bank conflicts, as ptxas issues it: a thread's loads of
 * neighbouring words it merges into one LDS.64 or LDS.128
 * (analysis/warp/vecmerge) are judged as that wide load, whose padding advice
 * keeps the alignment the merge needs. False when it cannot be analysed. */
static bool shared_site(const source_inputs *in, const mem_access *a, const run_config *cfg,
                        const expr_env *env, const char *inst, json_t *arr, finding_list *findings)
{
    const int64_t *block = cfg->block;
    const char *file = a->loc.file ? a->loc.file : in->file;
    int level, group = vecmerge_group(a, &level);
    mem_access wide;
    const mem_access *issued = a;
    if (group > 1) {
        vecmerge_site(a, group, level, &wide);
        issued = &wide;
    }
    bank_result br;
    bank_analyze(issued, block, env, &br);
    if (group > 1)
        vecmerge_free(&wide, level);
    add_access_json(arr, a, in->file, br.analyzed, br.reason);
    json_t *o = json_array_get(arr, json_array_size(arr) - 1);
    if (!br.analyzed)
        return false;
    json_object_set_new(o, "wavefronts", json_integer(br.worst));
    json_object_set_new(o, "ideal_wavefronts", json_integer(br.ideal));
    json_object_set_new(o, "degree", json_real(br.degree));
    json_object_set_new(o, "average_wavefronts", json_real(br.average));
    /* Warp-wide requests per block: weights for kernel-level averages
     * (what Nsight Compute's counters measure). */
    json_object_set_new(o, "requests_per_block", json_integer(br.requests));
    json_object_set_new(o, "wavefronts_per_block", json_integer(br.total));
    if (group > 1)
        json_object_set_new(o, "merged_iterations", json_integer(group));
    /* Exact only when every guard and loop bound was evaluated. */
    json_object_set_new(o, "exact",
                        json_boolean(!br.guard_assumed && !br.bound_sampled && !br.capped));
    json_object_set_new(
        o, "block",
        json_pack("[I,I,I]", (json_int_t)block[0], (json_int_t)block[1], (json_int_t)block[2]));
    if (br.note[0])
        json_object_set_new(o, "note", json_text(br.note));
    if (cfg->have_grid)
        add_grid_totals(o, in->memo, a, block, env, cfg->grid);
    if (br.worst > br.ideal) {
        char hint[128], as_issued[96] = "";
        bank_hint(in->unit, issued, hint, sizeof hint);
        if (group > 1)
            snprintf(as_issued, sizeof as_issued,
                     " as ptxas issues it (%d iterations a %d-byte load)", group, issued->width);
        findings_add(findings, "gpulint-bank-conflict", SEV_WARNING, file, a->loc.line,
                     a->loc.column,
                     json_pack("{s:i, s:i, s:f, s:f}", "wavefronts", br.worst, "ideal_wavefronts",
                               br.ideal, "degree", br.degree, "average_wavefronts", br.average),
                     "%g-way bank conflict %s '%s'%s%s (%d wavefronts per request, ideal %d; "
                     "average %.2f) with %lldx%lldx%lld blocks%s",
                     br.degree, a->is_store ? "writing" : "reading", a->text ? a->text : a->base,
                     inst, as_issued, br.worst, br.ideal, br.average, (long long)block[0],
                     (long long)block[1], (long long)block[2], hint);
    }
    return true;
}

static void analyse_config(const source_inputs *in, size_t vi, const run_config *cfg, bool several,
                           const run_config *first_config, source_outputs *out,
                           finding_list *findings)
{
    const cusrc_unit *u = in->unit;
    const cusrc_variant *v = &u->variants[vi];
    const int64_t *block = cfg->block, *grid = cfg->grid;
    bool have_block = cfg->have_block, have_grid = cfg->have_grid;
    expr_env env;
    config_env(in, cfg, &env);
    size_t first_shared = json_array_size(out->shared_accesses);
    size_t first_global = json_array_size(out->global_accesses);
    size_t first_branch = json_array_size(out->branches);
    if (!have_block)
        note_no_block(u, v, out);
    skipped_sites skipped = {0};
    for (size_t i = v->first_access; i < v->first_access + v->n_accesses; i++) {
        const mem_access *a = &u->accesses[i];
        const char *file = a->loc.file ? a->loc.file : in->file;
        /* Name the instantiation when a template has several. */
        char inst[600] = "";
        instance_words(v, cfg, several, inst, sizeof inst);
        add_via(a->via, inst, sizeof inst);
        json_t *arr = a->space == SPACE_SHARED ? out->shared_accesses : out->global_accesses;
        if (a->why_not) {
            add_access_json(arr, a, in->file, false, a->why_not);
            skipped_add(&skipped, a, a->why_not);
            continue;
        }
        if (!have_block) {
            add_access_json(arr, a, in->file, false,
                            "no launch of this kernel has a constant block size; pass --block");
            continue;
        }
        if (a->space == SPACE_SHARED) {
            if (!shared_site(in, a, cfg, &env, inst, arr, findings))
                skipped_add(&skipped, a, last_reason(arr));
        } else {
            coalesce_result cr;
            coalesce_analyze_reached(a, block, have_grid ? grid : NULL, &env, &cr);
            add_access_json(arr, a, in->file, cr.analyzed, cr.reason);
            json_t *o = json_array_get(arr, json_array_size(arr) - 1);
            if (!cr.analyzed) {
                skipped_add(&skipped, a, cr.reason);
                continue;
            }
            json_object_set_new(o, "sectors", json_integer(cr.worst_sectors));
            json_object_set_new(o, "ideal_sectors", json_integer(cr.worst_ideal));
            json_object_set_new(o, "average_sectors", json_real(cr.average_sectors));
            json_object_set_new(o, "efficiency", json_real(cr.efficiency));
            json_object_set_new(o, "requests_per_block", json_integer(cr.requests));
            json_object_set_new(o, "sectors_per_block", json_integer(cr.total_sectors));
            /* A request that touches more sectors than its bytes need; a single
             * lane's 4-byte store (one sector) is not uncoalesced. */
            if (cr.worst_sectors > cr.worst_ideal)
                coalescing_finding(findings, file, a, inst, &cr);
        }
    }
    if (!several || cfg == first_config)
        note_skipped(v, &skipped, out);
    for (size_t i = v->first_branch; i < v->first_branch + v->n_branches; i++) {
        const branch_site *b = &u->branches[i];
        const char *file = b->loc.file ? b->loc.file : in->file;
        if (b->why_not || !have_block)
            continue;
        char inst[600] = "";
        instance_words(v, cfg, several, inst, sizeof inst);
        add_via(b->via, inst, sizeof inst);
        diverge_result dr;
        diverge_analyze(b, block, &env, &dr);
        json_t *o = json_pack("{s:o, s:i, s:i, s:s, s:o, s:s}", "file", json_text(file), "line",
                              b->loc.line, "column", b->loc.column, "kernel",
                              b->kernel ? b->kernel : "", "text", json_text(b->text ? b->text : ""),
                              "verdict", diverge_verdict_name(dr.verdict));
        json_object_set_new(o, "efficiency", json_real(dr.efficiency));
        if (b->via)
            json_object_set_new(o, "via", json_text(b->via));
        if (dr.reason[0])
            json_object_set_new(o, "reason", json_text(dr.reason));
        add_branch_counts(o, b, block, &env, have_grid, grid);
        json_array_append_new(out->branches, o);
        if (dr.flagged)
            findings_add(findings, "gpulint-divergence", SEV_WARNING, file, b->loc.line,
                         b->loc.column, json_pack("{s:f}", "simt_efficiency", dr.efficiency),
                         "'%s'%s depends on the thread index within a warp: lanes of one warp "
                         "take different paths (predicted SIMT efficiency %.0f%%)",
                         b->text ? b->text : "condition", inst, dr.efficiency * 100.0);
    }
    json_t *arrays[3] = {out->shared_accesses, out->global_accesses, out->branches};
    size_t firsts[3] = {first_shared, first_global, first_branch};
    for (int k = 0; k < 3; k++)
        for (size_t i = firsts[k]; i < json_array_size(arrays[k]); i++)
            tag_config(json_array_get(arrays[k], i), cfg, several);
}

static void analyse_variant(const source_inputs *in, size_t vi, source_outputs *out,
                            finding_list *findings)
{
    run_config *c;
    size_t n = variant_configs(in, vi, &c);
    for (size_t i = 0; i < n; i++)
        analyse_config(in, vi, &c[i], n > 1, &c[0], out, findings);
    free(c);
}

/* Which kinds of the variant's branches with work are all bounds checks or
 * take the same way in the whole block (for the launch's block shape). */
static kroof_branches branches_uniform(const source_inputs *in, const cusrc_variant *v,
                                       const cusrc_launch *l)
{
    kroof_branches r = {true, true};
    int64_t block[3] = {256, 1, 1};
    if (v->n_branches == 0)
        return r;
    /* Without a launch the verdict needs some block shape; bounds checks
     * and warp-uniform conditions are recognised whatever it is. */
    bool block_known = !l || dim3_with_defines(&l->block, in->defines, block);
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
        if (b->kind == BRANCH_LOOP || b->no_work)
            continue;
        bool *uniform =
            b->kind == BRANCH_IF || b->kind == BRANCH_TERNARY ? &r.ifs_uniform : &r.others_uniform;
        if (!block_known) {
            *uniform = false;
            continue;
        }
        diverge_result dr;
        diverge_analyze(b, block, &env, &dr);
        if (dr.verdict != DIVERGE_BOUNDS_CHECK && dr.verdict != DIVERGE_WARP_UNIFORM)
            *uniform = false;
    }
    return r;
}

/* A kernel parameter without a value is a name of the launching code
 * without one: `C` is `model->config.channels` at this launch, and that is
 * what --define must bind. */
static void name_unbound_at_launch(const source_inputs *in, const cusrc_variant *v,
                                   const cusrc_launch *l, kroof *k)
{
    if (!l || k->known || !k->unbound)
        return;
    const cusrc_kernel *kn = &in->unit->kernels[v->kernel];
    for (int a = 0; a < l->n_args && a < kn->n_params; a++) {
        const cusrc_value *arg = &l->args[a];
        if (!kn->params[a].name || strcmp(kn->params[a].name, k->unbound) || arg->known || !arg->e)
            continue;
        expr_env env;
        expr_env_init(&env);
        if (in->defines)
            kroof_defines_bind(in->defines, &env);
        const char *name = expr_first_unbound(arg->e, &env);
        if (name && strcmp(name, k->unbound)) {
            char *n = xstrdup(name);
            free(k->unbound);
            k->unbound = n;
        }
        return;
    }
}

static void add_roofline(const source_inputs *in, const cusrc_variant *v, const cusrc_launch *l,
                         source_outputs *out)
{
    kroof_defines defs;
    launch_defines(in, v, l, &defs);
    kroof k;
    const gpu_arch *arch = NULL;
    for (int t = 0; t < in->n_targets && !arch; t++)
        if (in->product && in->targets[t].product &&
            !strcmp(in->targets[t].product->id, in->product->id))
            arch = in->targets[t].arch;
    kroof_of_source(in->unit, v, l, &defs, in->product, arch, branches_uniform(in, v, l), in->memo,
                    &k);
    name_unbound_at_launch(in, v, l, &k);
    json_t *entry = kroof_json(&k);
    json_object_set_new(entry, "names",
                        launch_names_json(&in->unit->kernels[v->kernel], l, &k, in->defines));
    json_array_append_new(out->roofline, entry);
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

bool source_per_thread_flops(const source_inputs *in, const char *mangled, double flops[3])
{
    const cusrc_unit *u = in->unit;
    for (size_t vi = 0; vi < u->n_variants; vi++) {
        const cusrc_variant *v = &u->variants[vi];
        const char *m = variant_mangled(u, v);
        if (!m || strcmp(m, mangled) != 0)
            continue;
        kroof k;
        kroof_of_source(u, v, NULL, in->defines, NULL, NULL, branches_uniform(in, v, NULL),
                        in->memo, &k);
        /* A count that may miss code says nothing against the code. */
        for (int p = 0; p < 3; p++)
            flops[p] = k.known && !k.incomplete && !k.annotated ? k.flops_value[p] : NAN;
        kroof_free(&k);
        return true;
    }
    return false;
}

void source_analyse_source(const source_inputs *given, source_outputs *out, finding_list *findings)
{
    source_inputs own = *given;
    own.memo = traffic_memo_new();
    const source_inputs *in = &own;
    const cusrc_unit *u = in->unit;
    for (size_t i = 0; i < u->n_notes; i++)
        json_array_append_new(out->notes, json_text(u->notes[i]));
    for (size_t vi = 0; vi < u->n_variants; vi++)
        analyse_variant(in, vi, out, findings);
    roofline_sites(in, out);
    traffic_memo_free(own.memo);
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
                in->rows[r].has_declared_smem = v->static_smem >= 0;
                in->rows[r].declared_smem = v->static_smem;
            }
    }
    size_t n_roof = 0;
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
        /* roofline_sites made one entry per launch, in this order; a site
         * launched with several sizes has one for each. */
        json_t *roof = json_array_get(out->roofline, n_roof++);
        const char *file = l->loc.file ? l->loc.file : in->file;
        if (!roof || json_integer_value(json_object_get(roof, "line")) != l->loc.line ||
            strcmp(json_string_value(json_object_get(roof, "kernel")), v->name))
            roof = launch_time_roofline_entry(out->roofline, v->name, file, l->loc.line);
        for (int t = 0; t < in->n_targets; t++)
            check_launch(in, l, v, &in->targets[t], row_for(in, m, in->targets[t].arch), list, roof,
                         findings);
    }
    launch_issue_strip(out->roofline);
}

void source_analyse(const source_inputs *in, source_outputs *out, finding_list *findings)
{
    source_analyse_source(in, out, findings);
    source_analyse_launches(in, out, findings);
}

typedef struct launch_row {
    json_t *l;
    size_t order; /* as found: the order of the calls */
} launch_row;

static bool same_site(const json_t *x, const json_t *y)
{
    return !strcmp(json_string_value(json_object_get(x, "file")),
                   json_string_value(json_object_get(y, "file"))) &&
           json_integer_value(json_object_get(x, "line")) ==
               json_integer_value(json_object_get(y, "line"));
}

static int cmp_launch(const void *a, const void *b)
{
    const launch_row *rx = a, *ry = b;
    json_t *x = rx->l, *y = ry->l;
    int c = strcmp(json_string_value(json_object_get(x, "file")),
                   json_string_value(json_object_get(y, "file")));
    if (c)
        return c;
    json_int_t lx = json_integer_value(json_object_get(x, "line"));
    json_int_t ly = json_integer_value(json_object_get(y, "line"));
    if (lx != ly)
        return (lx > ly) - (lx < ly);
    c = strcmp(json_string_value(json_object_get(x, "arch")),
               json_string_value(json_object_get(y, "arch")));
    return c ? c : (rx->order > ry->order) - (rx->order < ry->order);
}

struct site_span {
    const launch_row *rows;
    size_t first, last;
};

/* Whether the site's launches pass this argument different values. */
static bool differs_in_site(const json_t *arg, size_t index, const void *ctx)
{
    const struct site_span *span = ctx;
    char mine[160], other[160];
    launch_arg_text(arg, mine, sizeof mine);
    for (size_t j = span->first; j <= span->last; j++) {
        const json_t *o = json_array_get(json_object_get(span->rows[j].l, "args"), index);
        if (!o)
            continue;
        launch_arg_text(o, other, sizeof other);
        if (strcmp(mine, other) != 0)
            return true;
    }
    return false;
}

/* What tells the launches of one site apart: the arguments whose values
 * differ between them ("OC=3 * C"), then the grid where the arguments do
 * not. Empty for a site launched one way. */
static void differs_cell(launch_row *rows, size_t n, size_t i, char *buf, size_t size)
{
    buf[0] = 0;
    size_t first = i, last = i;
    while (first > 0 && same_site(rows[first - 1].l, rows[i].l))
        first--;
    while (last + 1 < n && same_site(rows[last + 1].l, rows[i].l))
        last++;
    if (first == last)
        return;
    const json_t *between = json_object_get(rows[i].l, "between");
    if (between) {
        snprintf(buf, size, "%s=%lld..%lld", json_string_value(json_object_get(between, "var")),
                 (long long)json_integer_value(json_object_get(between, "from")),
                 (long long)json_integer_value(json_object_get(between, "to")));
        return;
    }
    struct site_span span = {rows, first, last};
    size_t used =
        launch_args_join(json_object_get(rows[i].l, "args"), differs_in_site, &span, buf, size);
    const json_t *grid = json_object_get(rows[i].l, "grid");
    bool grid_differs = false;
    for (size_t j = first; j <= last && !used && !grid_differs; j++)
        grid_differs = !json_equal(grid, json_object_get(rows[j].l, "grid"));
    if (grid_differs) {
        char *g = json_dumps(grid, JSON_COMPACT);
        snprintf(buf, size, "grid %s", g ? g : "?");
        free(g);
    }
}

static void launch_cells(const launch_row *rows, size_t i, char cells[8][160])
{
    json_t *l = rows[i].l;
    json_t *occ = json_object_get(l, "occupancy");
    json_t *blk = json_object_get(l, "block");
    json_int_t paths = json_integer_value(json_object_get(l, "call_paths"));
    /* A site's later launches sit under its first. */
    if (i > 0 && same_site(rows[i - 1].l, l))
        cells[0][0] = 0;
    else
        snprintf(cells[0], 160, "%s:%lld", json_string_value(json_object_get(l, "file")),
                 (long long)json_integer_value(json_object_get(l, "line")));
    if (paths > 1)
        snprintf(cells[1], 160, "x%lld", (long long)paths);
    else
        cells[1][0] = '\0';
    snprintf(cells[2], 160, "%s", json_string_value(json_object_get(l, "kernel")));
    snprintf(cells[3], 160, "%s", json_string_value(json_object_get(l, "arch")));
    if (json_is_array(blk))
        snprintf(cells[4], 160, "%lldx%lldx%lld",
                 (long long)json_integer_value(json_array_get(blk, 0)),
                 (long long)json_integer_value(json_array_get(blk, 1)),
                 (long long)json_integer_value(json_array_get(blk, 2)));
    else
        snprintf(cells[4], 160, "?");
    if (!json_is_object(occ))
        snprintf(cells[5], 160, "-");
    else if (json_object_get(occ, "reason"))
        snprintf(cells[5], 160, "cannot launch");
    else
        launch_cluster_occupancy_cell(occ, json_object_get(l, "cluster"), cells[5], 160);
    launch_time_cell(l, cells[6], 160);
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
    launch_row *all = xcalloc(n, sizeof *all);
    n = 0;
    json_object_foreach(o->launches, key, list)
    {
        size_t i;
        json_t *l;
        json_array_foreach(list, i, l)
        {
            all[n].l = l;
            all[n].order = n;
            n++;
        }
    }
    qsort(all, n, sizeof *all, cmp_launch);
    /* The columns: where, paths (x9: call paths that launch it alike),
     * kernel, arch, block, occupancy, what tells a site's launches apart,
     * the predicted time; paths, differs and time only where some row
     * has one. */
    enum { C_AT, C_PATHS, C_KERNEL, C_ARCH, C_BLOCK, C_OCC, C_TIME, C_DIFFERS, C_N };
    static const char *const head[C_N] = {"launch", "paths",     "kernel",         "arch",
                                          "block",  "occupancy", "predicted time", "differs"};
    int width[C_N];
    bool shown[C_N];
    for (int c = 0; c < C_N; c++) {
        width[c] = (int)strlen(head[c]);
        shown[c] = c != C_PATHS && c != C_TIME && c != C_DIFFERS;
    }
    char cells[C_N][160];
    for (size_t i = 0; i < n; i++) {
        launch_cells(all, i, cells);
        differs_cell(all, n, i, cells[C_DIFFERS], 160);
        shown[C_PATHS] = shown[C_PATHS] || cells[C_PATHS][0];
        shown[C_TIME] = shown[C_TIME] || strcmp(cells[C_TIME], "-") != 0;
        shown[C_DIFFERS] = shown[C_DIFFERS] || cells[C_DIFFERS][0];
        for (int c = 0; c < C_N; c++)
            if ((int)strlen(cells[c]) > width[c])
                width[c] = (int)strlen(cells[c]);
    }
    int last = C_N - 1;
    while (!shown[last])
        last--;
    for (size_t i = 0; i <= n; i++) {
        const char *const *row = head;
        const char *r[C_N];
        if (i > 0) {
            launch_cells(all, i - 1, cells);
            differs_cell(all, n, i - 1, cells[C_DIFFERS], 160);
            for (int c = 0; c < C_N; c++)
                r[c] = cells[c];
            row = r;
        }
        sbuf_add(out, i == 0 ? "\n" : "");
        bool first = true;
        for (int c = 0; c <= last; c++) {
            if (!shown[c])
                continue;
            sbuf_addf(out, "%s%-*s", first ? "" : "  ", c == last ? 0 : width[c], row[c]);
            first = false;
        }
        while (out->len > 0 && out->data[out->len - 1] == ' ')
            out->len--;
        sbuf_addc(out, '\n');
    }
    free(all);
}

/* One row per branch that depends on the thread index and was counted. */
void source_branch_text(sbuf *out, const source_outputs *o)
{
    size_t i, n = 0;
    json_t *b;
    json_array_foreach(o->branches, i, b)
    {
        const char *verdict = json_string_value(json_object_get(b, "verdict"));
        if (!json_object_get(b, "warps_entering") || !verdict || !strcmp(verdict, "warp-uniform"))
            continue;
        if (n++ == 0)
            sbuf_add(out, "\ndivergence (branches on the thread index; warps of the grid, or of "
                          "one block when its grid is not known)\n");
        json_t *launch = json_object_get(b, "launch");
        json_t *grid_warps = json_object_get(b, "warps_in_grid");
        json_int_t warps = json_is_integer(grid_warps)
                               ? json_integer_value(grid_warps)
                               : json_integer_value(json_object_get(b, "warps_per_block"));
        json_t *simd = json_object_get(b, "simd_efficiency");
        sbuf_addf(out, "  %s:%lld  %s  '%s'", json_string_value(json_object_get(b, "file")),
                  (long long)json_integer_value(json_object_get(b, "line")),
                  json_string_value(json_object_get(b, "kernel")),
                  json_string_value(json_object_get(b, "text")));
        json_t *via = json_object_get(b, "via");
        if (json_is_string(via))
            sbuf_addf(out, " via %s", json_string_value(via));
        if (launch)
            sbuf_addf(out, " (launch at line %lld)",
                      (long long)json_integer_value(json_object_get(launch, "line")));
        sbuf_addf(out, ": %s; %lld of %lld warps enter, %lld diverge", verdict,
                  (long long)json_integer_value(json_object_get(b, "warps_entering")),
                  (long long)warps,
                  (long long)json_integer_value(json_object_get(b, "warps_divergent")));
        if (json_is_number(simd))
            sbuf_addf(out, ", SIMD efficiency %.1f%%", json_number_value(simd) * 100.0);
        json_t *iu = json_object_get(b, "iterations_uniform");
        if (iu && json_is_integer(json_object_get(b, "iterations_uniform_per_warp"))) {
            sbuf_add(out, "; iterations ");
            warp_iters_text(out, b, (long long)warps);
            if (warps > 1)
                sbuf_addf(
                    out, " (%lld and %lld in all)", (long long)json_integer_value(iu),
                    (long long)json_integer_value(json_object_get(b, "iterations_divergent")));
        } else if (iu) {
            sbuf_addf(out, "; iterations %lld uniform, %lld divergent in all",
                      (long long)json_integer_value(iu),
                      (long long)json_integer_value(json_object_get(b, "iterations_divergent")));
            if (json_object_get(b, "iterations_per_warp")) {
                sbuf_add(out, "; ");
                warp_iters_text(out, b, (long long)warps);
            }
        }
        if (!json_is_true(json_object_get(b, "counts_exact")))
            sbuf_add(out, " (estimate)");
        sbuf_addc(out, '\n');
    }
}
