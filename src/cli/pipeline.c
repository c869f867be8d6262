/* pipeline: compile, parse, locate, evaluate. */
#include "cli/pipeline.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config.h"
#include "input/nvcc.h"
#include "input/nvcc_stage.h"
#include "input/srcscan.h"
#include "util/demangle.h"
#include "util/fileio.h"
#include "util/jsontext.h"
#include "util/sbuf.h"
#include <xxhash.h>

#define LOG_MAX (256u << 20)
#define SOURCE_MAX (64u << 20)

static void add_kernel(report *r, size_t *cap, const ptxas_kernel *k, const char *file,
                       const srcscan_result *scan, const gpu_arch *arch, const pipeline_opts *o)
{
    if (r->n_kernels == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        r->kernels = xrealloc(r->kernels, *cap * sizeof *r->kernels);
    }
    report_kernel *rk = &r->kernels[r->n_kernels++];
    memset(rk, 0, sizeof *rk);
    rk->ptx = *k;
    rk->ptx.name = xstrdup(k->name);
    rk->demangled = demangle(k->name);
    rk->file = file;
    rk->arch = arch;
    if (scan) {
        char simple[512];
        srcscan_simple_name(rk->demangled, simple, sizeof simple);
        const srcscan_kernel *sk = srcscan_find(scan, simple);
        if (sk) {
            rk->line = sk->line;
            rk->column = sk->column;
        }
    }
    if (!arch)
        return;
    occ_kernel res = kernel_resources(k);
    occ_launch defaults = {.threads_per_block = 0,
                           .dynamic_smem = o->dynamic_smem,
                           .carveout_percent = o->carveout_percent};
    occ_launch launch = defaults;
    launch.threads_per_block = o->block[0] * o->block[1] * o->block[2];
    kernel_evaluate(arch, &res, o->has_block ? &launch : NULL, &defaults, &rk->eval);
}

/* The model for a kernel's arch: the target's own (which may be the live
 * device) when the names agree, else the bundled model. */
static const gpu_arch *arch_for(const report *r, const char *arch_name)
{
    char norm[32];
    if (!model_normalise_arch(arch_name, norm, sizeof norm))
        return NULL;
    for (int i = 0; i < r->n_targets; i++)
        if (strcmp(r->targets[i].arch.name, norm) == 0)
            return &r->targets[i].arch;
    return model_find_arch(&r->db, norm);
}

static void take_log(report *r, size_t *cap, const char *log, size_t len, const char *file,
                     const srcscan_result *scan, const pipeline_opts *o)
{
    ptxas_log parsed;
    ptxas_parse(log, len, &parsed);
    for (size_t i = 0; i < parsed.n_kernels; i++) {
        const ptxas_kernel *k = &parsed.kernels[i];
        if (!k->is_entry)
            continue;
        const gpu_arch *a = arch_for(r, k->arch);
        if (!a)
            cli_warn("%s: no model for %s; occupancy of '%s' is not computed", file ? file : "log",
                     k->arch, k->name);
        add_kernel(r, cap, k, file, scan, a, o);
    }
    for (size_t i = 0; i < parsed.n_warnings; i++)
        cli_warn("%s:%d: ptxas log: %s", o->ptxas_log ? o->ptxas_log : "nvcc output",
                 parsed.warnings[i].line, parsed.warnings[i].text);
    ptxas_log_free(&parsed);
}

static bool line_has(const char *line, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(line + i, needle, k) == 0)
            return true;
    return false;
}

/* nvcc's own diagnostics (not the ptxas info lines) go to stderr as they are. */
static void echo_diagnostics(const char *log)
{
    for (const char *p = log; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if (!line_has(p, n, "ptxas info") && !line_has(p, n, "nvlink info") &&
            !line_has(p, n, "bytes stack frame"))
            fwrite(p, 1, n, stderr);
        p += n;
    }
}

/* nvcc's -I/-D/-U/-std/-include/-isystem mean the same to clang; the rest
 * (-Xptxas, --use_fast_math, ...) does not, so only those travel. */
static int clang_args(const pipeline_opts *o, const char **out)
{
    int n = 0;
    for (int i = 0; i < o->n_extra; i++) {
        const char *a = o->extra[i];
        bool takes_next = strcmp(a, "-I") == 0 || strcmp(a, "-D") == 0 || strcmp(a, "-U") == 0 ||
                          strcmp(a, "-isystem") == 0 || strcmp(a, "-include") == 0;
        if (takes_next && i + 1 < o->n_extra) {
            out[n++] = a;
            out[n++] = o->extra[++i];
        } else if (strncmp(a, "-I", 2) == 0 || strncmp(a, "-D", 2) == 0 ||
                   strncmp(a, "-U", 2) == 0 || strncmp(a, "-std=", 5) == 0) {
            out[n++] = a;
        }
    }
    return n;
}

static void parse_source(const pipeline_opts *o, report *r, cusrc_ctx **ctx, const char *file)
{
    if (o->no_source || !cusrc_available())
        return;
    if (!*ctx)
        *ctx = cusrc_ctx_new();
    source_unit *su = &r->sources[r->n_sources++];
    memset(su, 0, sizeof *su);
    su->file = file;
    const char **args = xcalloc((size_t)o->n_extra + 1, sizeof *args);
    cusrc_options co = {
        .file = file,
        .args = args,
        .n_args = clang_args(o, args),
        .compdb_dir = o->compdb,
        .arch = r->n_targets && !r->targets[0].arch.hypothetical ? r->targets[0].arch.name : NULL};
    su->parsed = cusrc_parse(*ctx, &co, &su->unit, &su->error);
    if (!su->parsed)
        cli_warn("%s: source analysis skipped: %s", file, su->error ? su->error : "unknown error");
    free(args);
}

static int run_one(const pipeline_opts *o, report *r, size_t *cap, const char *nvcc,
                   const char **archs, int n_archs, const char *file, cusrc_ctx **ctx);

static void note_file(report *r, const char *file, const char *text, size_t len)
{
    r->files = xrealloc(r->files, (r->n_files + 1) * sizeof *r->files);
    struct report_file *f = &r->files[r->n_files++];
    f->file = xstrdup(file);
    XXH128_hash_t h = XXH3_128bits(text, len);
    snprintf(f->hash, sizeof f->hash, "%016llx%016llx", (unsigned long long)h.high64,
             (unsigned long long)h.low64);
}

static int run_files(const pipeline_opts *o, report *r, size_t *cap)
{
    char nvcc[PATH_MAX], err[512];
    if (!nvcc_find(o->nvcc, nvcc, sizeof nvcc, err, sizeof err))
        return cli_error(EXIT_TOOL, "%s", err);
    const char *archs[TARGET_MAX];
    for (int i = 0; i < r->n_targets; i++)
        archs[i] = r->targets[i].arch.name;
    /* Hypothetical machines have no real arch to compile for. */
    int n_archs = r->n_targets;
    if (r->n_targets == 1 && r->targets[0].arch.hypothetical)
        n_archs = 0;
    cusrc_ctx *ctx = NULL;
    r->sources = xcalloc((size_t)o->n_files, sizeof *r->sources);
    int rc = EXIT_OK;
    for (int f = 0; f < o->n_files && rc == EXIT_OK; f++)
        rc = run_one(o, r, cap, nvcc, archs, n_archs, o->files[f], &ctx);
    cusrc_ctx_free(ctx);
    return rc;
}

static int run_one(const pipeline_opts *o, report *r, size_t *cap, const char *nvcc,
                   const char **archs, int n_archs, const char *file, cusrc_ctx **ctx)
{
    char err[512];
    char *src;
    size_t src_len;
    fileio_status st = fileio_read(file, SOURCE_MAX, &src, &src_len);
    if (st != FILEIO_OK)
        return cli_error(EXIT_INPUT, "%s: %s", file, fileio_status_text(st));
    note_file(r, file, src, src_len);
    nvstage stage;
    nvstage_status ss = nvstage_prepare(&stage, file, src, src_len, o->extra, o->n_extra,
                                        "nvcc argument", err, sizeof err);
    if (ss != NVSTAGE_OK) {
        free(src);
        return cli_error(ss == NVSTAGE_REFUSED ? EXIT_USAGE : EXIT_TOOL, "%s", err);
    }
    nvcc_job job;
    if (!nvcc_start(nvcc, &stage, archs, n_archs, &job, err, sizeof err)) {
        nvstage_free(&stage);
        free(src);
        return cli_error(EXIT_TOOL, "%s", err);
    }
    srcscan_result scan;
    srcscan_kernels(src, src_len, &scan);
    findings_scan_ignores(file, src, src_len, &r->ignores);
    free(src);
    /* libclang reads the source while nvcc compiles it, and what needs only
     * the source is analysed then too. */
    size_t before_parse = r->n_sources;
    parse_source(o, r, ctx, file);
    if (o->on_source && r->n_sources > before_parse && r->sources[r->n_sources - 1].parsed)
        o->on_source(r, &r->sources[r->n_sources - 1], o->on_source_ctx);
    char *log;
    size_t len;
    int status;
    bool waited = nvcc_finish(&job, &log, &len, &status);
    /* nvcc's messages name the stage; the user knows their own paths. */
    char *shown = nvstage_unmap(&stage, log);
    free(log);
    log = shown;
    len = strlen(log);
    nvstage_free(&stage);
    if (!waited) {
        srcscan_free(&scan);
        free(log);
        return cli_error(EXIT_TOOL, "lost track of nvcc");
    }
    if (status != 0) {
        fputs(log, stderr);
        free(log);
        srcscan_free(&scan);
        return cli_error(EXIT_COMPILE, "%s: nvcc failed (exit status %d)", file, status);
    }
    if (!o->quiet_nvcc)
        echo_diagnostics(log);
    size_t before = r->n_kernels;
    take_log(r, cap, log, len, file, &scan, o);
    /* With one file the "no kernels found" error says it already. */
    if (r->n_kernels == before && !o->allow_no_kernels && o->n_files > 1)
        cli_warn("%s: no __global__ kernels were compiled", file);
    free(log);
    srcscan_free(&scan);
    return EXIT_OK;
}

static int run_log(const pipeline_opts *o, report *r, size_t *cap)
{
    char *log;
    size_t len;
    fileio_status st = fileio_read(o->ptxas_log, LOG_MAX, &log, &len);
    if (st != FILEIO_OK)
        return cli_error(EXIT_INPUT, "%s: %s", strcmp(o->ptxas_log, "-") ? o->ptxas_log : "stdin",
                         fileio_status_text(st));
    const char *name = strcmp(o->ptxas_log, "-") ? o->ptxas_log : "stdin";
    if (len == 0) {
        free(log);
        return cli_error(EXIT_INPUT, "%s: empty log", name);
    }
    /* With a source file alongside, kernels get their lines from it. */
    srcscan_result scan = {0};
    const char *file = NULL;
    if (o->n_files == 1) {
        char *src;
        size_t src_len;
        st = fileio_read(o->files[0], SOURCE_MAX, &src, &src_len);
        if (st != FILEIO_OK) {
            free(log);
            return cli_error(EXIT_INPUT, "%s: %s", o->files[0], fileio_status_text(st));
        }
        note_file(r, o->files[0], src, src_len);
        srcscan_kernels(src, src_len, &scan);
        findings_scan_ignores(o->files[0], src, src_len, &r->ignores);
        free(src);
        file = o->files[0];
        cusrc_ctx *ctx = NULL;
        r->sources = xcalloc(1, sizeof *r->sources);
        parse_source(o, r, &ctx, file);
        cusrc_ctx_free(ctx);
    }
    take_log(r, cap, log, len, file, file ? &scan : NULL, o);
    free(log);
    srcscan_free(&scan);
    if (r->n_kernels == 0)
        return cli_error(EXIT_INPUT,
                         "%s: no kernel resource usage found (expected ptxas -v "
                         "output: 'ptxas info : Used N registers ...')",
                         name);
    return EXIT_OK;
}

int pipeline_run(const pipeline_opts *o, report *r)
{
    memset(r, 0, sizeof *r);
    int rc = target_resolve(&o->target, &r->db, r->targets, TARGET_MAX, &r->n_targets);
    if (rc != EXIT_OK)
        return rc;
    size_t cap = 0;
    if (o->ptxas_log)
        return run_log(o, r, &cap);
    if (o->n_files == 0)
        return cli_error(EXIT_USAGE, "no input: give FILE.cu or --ptxas-log LOG");
    rc = run_files(o, r, &cap);
    if (rc == EXIT_OK && r->n_kernels == 0 && !o->allow_no_kernels)
        return cli_error(EXIT_INPUT, "no kernels found in %s%s", o->files[0],
                         o->n_files > 1 ? " and the other files" : "");
    return rc;
}

void report_free(report *r)
{
    for (size_t i = 0; i < r->n_kernels; i++) {
        free(r->kernels[i].ptx.name);
        free(r->kernels[i].demangled);
    }
    free(r->kernels);
    for (size_t i = 0; i < r->n_sources; i++) {
        if (r->sources[i].parsed)
            cusrc_unit_free(&r->sources[i].unit);
        free(r->sources[i].error);
    }
    free(r->sources);
    for (size_t i = 0; i < r->n_files; i++)
        free(r->files[i].file);
    free(r->files);
    findings_ignores_free(&r->ignores);
    model_db_free(&r->db);
    memset(r, 0, sizeof *r);
}

kernel_row report_row(const report_kernel *k)
{
    return (kernel_row){&k->ptx, k->demangled, k->file, k->line, k->column, k->arch, &k->eval};
}

json_t *report_json(const report *r)
{
    json_t *root = json_object();
    json_object_set_new(root, "tool", json_text("gpulint"));
    json_object_set_new(root, "version", json_text(GPULINT_VERSION));
    json_t *targets = json_array();
    for (int i = 0; i < r->n_targets; i++) {
        const target *t = &r->targets[i];
        json_t *o = json_object();
        json_object_set_new(o, "arch", json_text(t->arch.name));
        json_object_set_new(o, "label", json_text(t->label));
        json_object_set_new(o, "origin", json_text(t->origin));
        json_object_set_new(o, "gpu", t->has_product ? json_text(t->product.id) : json_null());
        json_array_append_new(targets, o);
    }
    json_object_set_new(root, "targets", targets);
    json_t *kernels = json_array();
    for (size_t i = 0; i < r->n_kernels; i++) {
        kernel_row row = report_row(&r->kernels[i]);
        json_array_append_new(kernels, kernel_report_json(&row));
    }
    json_object_set_new(root, "kernels", kernels);
    json_t *files = json_array();
    for (size_t i = 0; i < r->n_files; i++)
        json_array_append_new(files, json_pack("{s:o, s:s}", "file", json_text(r->files[i].file),
                                               "xxh3_128", r->files[i].hash));
    json_object_set_new(root, "sources", files);
    return root;
}
