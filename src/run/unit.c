/* unit: compile, parse, analyse one file in a worker; its record to the parent. */
#include "run/unit.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/diag.h"
#include "util/exitcode.h"
#include "input/nvcc.h"
#include "input/nvcc_stage.h"
#include "input/srcscan.h"
#include "report/code_report.h"
#include "report/source_report.h"
#include "input/compdb.h"
#include "run/compiled.h"
#include "run/pool.h"
#include "run/siblings.h"
#include "run/unitcache.h"
#include "util/demangle.h"
#include "util/fileio.h"
#include "util/spawn.h"
#include "util/jsontext.h"
#include "util/sbuf.h"
#include <xxhash.h>

#define SOURCE_MAX (64u << 20)

/* ---- kernels of a log ---- */

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
    rk->declared_smem = -1;
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
    occ_kernel res = ptxas_occ_kernel(k);
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

static void take_log(report *r, const pipeline_opts *o, const char *log, size_t len,
                     const char *file, const srcscan_result *scan, bool warn)
{
    size_t cap = r->n_kernels;
    ptxas_log parsed;
    ptxas_parse(log, len, &parsed);
    for (size_t i = 0; i < parsed.n_kernels; i++) {
        ptxas_kernel *k = &parsed.kernels[i];
        if (!k->is_entry)
            continue;
        /* nvlink's log names no arch: the one the run targets, where it
         * targets one. */
        if (!k->arch[0] && r->n_targets == 1)
            snprintf(k->arch, sizeof k->arch, "%.15s", r->targets[0].arch.name);
        const gpu_arch *a = arch_for(r, k->arch);
        const char *where = file ? file : o->ptxas_log ? o->ptxas_log : "log";
        if (!a && warn && !k->arch[0])
            diag_warn("%s: the log names no GPU architecture for '%s' (nvlink's does not): pass "
                      "one --gpu or --arch; its occupancy is not computed",
                      where, k->name);
        else if (!a && warn)
            diag_warn("%s: no model for %s; occupancy of '%s' is not computed", where, k->arch,
                      k->name);
        add_kernel(r, &cap, k, file, scan, a, o);
    }
    for (size_t i = 0; warn && i < parsed.n_warnings; i++)
        diag_warn("%s:%d: ptxas log: %s", o->ptxas_log ? o->ptxas_log : "nvcc output",
                  parsed.warnings[i].line, parsed.warnings[i].text);
    ptxas_log_free(&parsed);
}

void unit_take_log(report *r, const pipeline_opts *o, const char *log, size_t len, const char *file,
                   const srcscan_result *scan, bool warn)
{
    take_log(r, o, log, len, file, scan, warn);
}

/* ---- nvcc ---- */

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

/* ---- source ---- */

/* GPULINT_TEST_LIBCLANG=crash|hang stands in for a libclang that dies or
 * never returns, so the tests can prove a worker's fall-back. */
static void test_fault(void)
{
    const char *f = getenv("GPULINT_TEST_LIBCLANG");
    if (!f)
        return;
    if (strcmp(f, "crash") == 0) {
        signal(SIGBUS, SIG_DFL); /* past a sanitizer's handler, as a real crash may be */
        raise(SIGBUS);
    }
    if (strcmp(f, "hang") == 0)
        for (;;)
            pause();
}

static bool parse_source(const unit_env *env, const char *file, char *const *extra, int n_extra,
                         const char *skip, cusrc_unit *unit)
{
    const pipeline_opts *o = env->o;
    if (o->no_source || !cusrc_available())
        return false;
    if (skip) {
        diag_warn("%s: source analysis skipped: %s", file, skip);
        return false;
    }
    pool_phase(UNIT_PHASE_LIBCLANG);
    test_fault();
    cusrc_ctx *ctx = cusrc_ctx_new();
    /* extra: the unit's compile_commands.json arguments (run/project), then
     * the user's "--" ones; libclang takes the build's arch, else the first
     * target's. */
    const char **args = xcalloc((size_t)n_extra + 2, sizeof *args);
    char arch[32];
    const report *r = env->r;
    int n_siblings;
    cusrc_sibling *siblings = siblings_of(o, o->db, file, &n_siblings);
    cusrc_options co = {.file = file,
                        .args = args,
                        .n_args = cusrc_clang_args(extra, n_extra, args),
                        .math = cusrc_math_mode(extra, n_extra),
                        .run_args = (const char *const *)o->run_args,
                        .n_run_args = o->n_run_args,
                        .calls = o->calls,
                        .siblings = siblings,
                        .n_siblings = n_siblings,
                        .arch = cusrc_arch_of(extra, n_extra, arch) ? arch
                                : r->n_targets && !r->targets[0].arch.hypothetical
                                    ? r->targets[0].arch.name
                                    : NULL};
    char *error = NULL;
    bool parsed = cusrc_parse(ctx, &co, unit, &error);
    if (!parsed)
        diag_warn("%s: source analysis skipped: %s", file, error ? error : "unknown error");
    free(error);
    free(args);
    siblings_free(siblings, n_siblings);
    cusrc_ctx_free(ctx);
    return parsed;
}

static int source_targets(const report *r, source_target targets[TARGET_MAX],
                          const gpu_product **product)
{
    *product = NULL;
    for (int t = 0; t < r->n_targets; t++) {
        targets[t] = (source_target){&r->targets[t].arch,
                                     r->targets[t].has_product ? &r->targets[t].product : NULL};
        if (!*product && r->targets[t].has_product)
            *product = &r->targets[t].product;
    }
    return r->n_targets;
}

/* Launches the if or switch around them shows never run, with the
 * --define values, are not launches. */
static void drop_unreached(const pipeline_opts *o, cusrc_unit *u)
{
    expr_env env;
    expr_env_init(&env);
    kroof_defines_bind(o->defines, &env);
    cusrc_drop_unreached(u, &env);
}

/* --define's bindings, then the cudaDeviceProp fields the first target's
 * model gives (a --define of the same name wins), into defs. */
static const kroof_defines *with_device_props(const pipeline_opts *o, const source_target *targets,
                                              int n_targets, kroof_defines *defs)
{
    *defs = o->defines ? *o->defines : (kroof_defines){0};
    if (n_targets < 1 || !targets[0].arch)
        return defs;
    const char *names[MODEL_DEVICE_PROPS];
    int64_t values[MODEL_DEVICE_PROPS];
    int n =
        model_device_props(targets[0].arch, targets[0].product, names, values, MODEL_DEVICE_PROPS);
    for (int i = 0; i < n && defs->n < EXPR_MAX_BINDINGS; i++) {
        bool given = false;
        for (int k = 0; k < defs->n && !given; k++)
            given = !strcmp(defs->names[k], names[i]);
        if (!given) {
            defs->names[defs->n] = names[i];
            defs->values[defs->n++] = values[i];
        }
    }
    return defs;
}

static source_inputs inputs_for(const pipeline_opts *o, const cusrc_unit *u, const char *file,
                                const source_target *targets, int n_targets,
                                const gpu_product *product, kernel_row *rows, int n_rows,
                                kroof_defines *defs)
{
    return (source_inputs){u,
                           file,
                           rows,
                           n_rows,
                           targets,
                           n_targets,
                           o->has_block,
                           {o->block[0], o->block[1], o->block[2]},
                           with_device_props(o, targets, n_targets, defs),
                           o->defines,
                           product,
                           o->base_clock,
                           NULL,
                           NULL};
}

/* The launch checks need the compiled kernels; they also refine the
 * kernels' lines and columns. */
static void analyse_launches(const pipeline_opts *o, report *r, const cusrc_unit *u,
                             const char *file, const code_listing *code, source_outputs *src,
                             finding_list *findings)
{
    source_target targets[TARGET_MAX];
    const gpu_product *product;
    int n_targets = source_targets(r, targets, &product);
    kernel_row *rows = xcalloc(r->n_kernels ? r->n_kernels : 1, sizeof *rows);
    for (size_t i = 0; i < r->n_kernels; i++)
        rows[i] = report_row(&r->kernels[i]);
    kroof_defines defs;
    source_inputs in =
        inputs_for(o, u, file, targets, n_targets, product, rows, (int)r->n_kernels, &defs);
    in.code = code;
    source_analyse_launches(&in, src, findings);
    for (size_t k = 0; k < r->n_kernels; k++) {
        r->kernels[k].line = rows[k].line;
        r->kernels[k].column = rows[k].column;
        r->kernels[k].declared_smem = rows[k].has_declared_smem ? rows[k].declared_smem : -1;
        if (rows[k].def_file)
            r->kernels[k].def_file = xstrdup(rows[k].def_file);
    }
    free(rows);
}

/* ---- the compiled code ---- */

static void note_problem(json_t *notes, const char *file, const char *what, int line,
                         const char *problem)
{
    if (!line)
        return;
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b,
              "%s: the %s did not read at its line %d (%s); kernels there may lack their "
              "instruction mix",
              file ? file : "log", what, line, problem);
    json_array_append_new(notes, json_text(sbuf_str(&b)));
    sbuf_free(&b);
}

/* Each kernel's compiled code, checked against the source's per-thread
 * FLOPs when libclang read the file (u non-NULL). */
static void check_code(const pipeline_opts *o, report *r, const cusrc_unit *u, const char *file,
                       const code_listing *c, source_outputs *src)
{
    for (size_t i = 0; i < c->n_ptx; i++)
        note_problem(src->notes, file, "kept PTX", c->ptx[i].problem_line, c->ptx[i].problem);
    if (c->has_sass)
        note_problem(src->notes, file, "SASS listing", c->sass.problem_line, c->sass.problem);
    source_target targets[TARGET_MAX];
    const gpu_product *product;
    int n_targets = source_targets(r, targets, &product);
    kroof_defines defs;
    source_inputs in = inputs_for(o, u, file, targets, n_targets, product, NULL, 0, &defs);
    for (size_t k = 0; k < r->n_kernels; k++) {
        report_kernel *rk = &r->kernels[k];
        char simple[512];
        srcscan_simple_name(rk->demangled, simple, sizeof simple);
        double flops[3];
        bool counted = u && source_per_thread_flops(&in, rk->ptx.name, flops);
        rk->code = code_kernel_json(c, rk->ptx.name, simple, rk->ptx.arch, counted ? flops : NULL,
                                    src->notes);
    }
}

/* ---- the record ---- */

static void note_file(report *r, const char *file, const char *text, size_t len)
{
    r->files = xrealloc(r->files, (r->n_files + 1) * sizeof *r->files);
    struct report_file *f = &r->files[r->n_files++];
    f->file = xstrdup(file);
    XXH128_hash_t h = XXH3_128bits(text, len);
    snprintf(f->hash, sizeof f->hash, "%016llx%016llx", (unsigned long long)h.high64,
             (unsigned long long)h.low64);
}

/* The record as text (caller frees), also what the cache keeps. */
static char *record_text(const report *r, const char *log, const source_outputs *src,
                         bool has_source, const finding_list *findings)
{
    json_t *kernels = json_array(), *files = json_array(), *ignores = json_array();
    for (size_t i = 0; i < r->n_kernels; i++)
        json_array_append_new(kernels,
                              json_pack("[i, i, o, I, O]", r->kernels[i].line, r->kernels[i].column,
                                        json_bytes(r->kernels[i].def_file),
                                        (json_int_t)r->kernels[i].declared_smem,
                                        r->kernels[i].code ? r->kernels[i].code : json_null()));
    for (size_t i = 0; i < r->n_files; i++)
        json_array_append_new(files, json_pack("[s]", r->files[i].hash));
    for (size_t i = 0; i < r->ignores.n; i++)
        json_array_append_new(ignores, json_pack("[i, o]", r->ignores.items[i].line,
                                                 json_bytes(r->ignores.items[i].checks)));
    json_t *rec = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "log", json_bytes(log), "kernels",
                            kernels, "files", files, "ignores", ignores, "source",
                            has_source ? source_outputs_wire(src) : json_null(), "findings",
                            findings_wire(findings));
    char *text = rec ? json_dumps(rec, JSON_COMPACT) : NULL;
    json_decref(rec);
    return text;
}

/* ---- the cache ---- */

/* A file's key: what every file's result or compile depends on (env's
 * run_key or compile_key), then the file's name, text and nvcc arguments. */
static void file_key(const char *tag, const char *base, const char *file, const char *text,
                     size_t len, char *const *extra, int n_extra, char key[33])
{
    unitcache_key k;
    unitcache_key_init(&k);
    unitcache_key_str(&k, tag, base);
    unitcache_key_str(&k, "file", file);
    unitcache_key_add(&k, "text", text, len);
    for (int i = 0; i < n_extra; i++)
        unitcache_key_str(&k, "arg", extra[i]);
    unitcache_key_end(&k, key);
}

/* What this worker printed so far: the pool sends its stderr to a file of
 * the run's own, which a hit must print again. */
static char *own_output(size_t *len)
{
    fflush(stderr);
    int fd = open("/proc/self/fd/2", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    sbuf b;
    sbuf_init(&b);
    char buf[65536];
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) > 0)
        sbuf_addn(&b, buf, (size_t)r);
    close(fd);
    *len = b.len;
    return sbuf_take(&b);
}

static void add_dep(sbuf *deps, const char *path)
{
    sbuf_addc(deps, ' ');
    for (const char *p = path; *p; p++) {
        if (*p == ' ') /* a make rule's escapes (unitcache's dep_paths) */
            sbuf_addc(deps, '\\');
        else if (*p == '$')
            sbuf_addc(deps, '$');
        sbuf_addc(deps, *p);
    }
}

/* nvcc's dependencies, and the files the source analysis read (cu, NULL:
 * none): the program's other units and what libclang included. The
 * result holds while they are unchanged. */
static void cache_store(const unit_env *env, const char *key, const compiled *comp,
                        const cusrc_unit *cu, const char *record)
{
    size_t olen = 0;
    char *output = own_output(&olen);
    sbuf deps;
    sbuf_init(&deps);
    if (comp->deps)
        sbuf_add(&deps, comp->deps);
    for (size_t i = 0; cu && comp->deps && i < cu->n_siblings_read; i++)
        add_dep(&deps, cu->siblings_read[i]);
    for (size_t i = 0; cu && comp->deps && i < cu->n_includes_read; i++)
        add_dep(&deps, cu->includes_read[i]);
    if (comp->deps && output)
        unitcache_store(env->cache_dir, key, sbuf_str(&deps), comp->stage_dir, record,
                        strlen(record), output, olen);
    sbuf_free(&deps);
    free(output);
}

/* ---- the worker's side ---- */

/* What the worker's report owns (not the parent's models it borrows). */
static void free_own_report(report *r)
{
    for (size_t i = 0; i < r->n_kernels; i++) {
        free(r->kernels[i].ptx.name);
        free(r->kernels[i].demangled);
        free(r->kernels[i].def_file);
        json_decref(r->kernels[i].code);
    }
    free(r->kernels);
    for (size_t i = 0; i < r->n_files; i++)
        free(r->files[i].file);
    free(r->files);
    findings_ignores_free(&r->ignores);
}

/* A whole result from the cache: printed again and sent on. */
static bool unit_hit(const unit_env *env, const char *file, const char *key, int fd, int *rc)
{
    char *record, *out;
    size_t rlen, olen;
    if (!unitcache_lookup(env->cache_dir, key, &record, &rlen, &out, &olen))
        return false;
    fwrite(out, 1, olen, stderr);
    free(out);
    if (!fileio_write_all(fd, record, rlen))
        *rc = diag_error(EXIT_INTERNAL, "%s: cannot write the worker's result", file);
    free(record);
    return true;
}

/* The compile of a staged file: from the cache, or nvcc started (it runs
 * while libclang reads the source). */
typedef struct unit_compile {
    nvstage stage;
    bool staged, started, done; /* done: comp holds nvcc's output */
    nvcc_job job;
    compiled comp;
    char key[33];
    char callee[256]; /* a __device__ function of another file it calls */
} unit_compile;

static int compile_start(const unit_env *env, const char *file, const char *text, size_t len,
                         char *const *extra, int n_extra, bool from_db, unit_compile *uc)
{
    char err[512];
    nvstage_status ss = nvstage_prepare(
        &uc->stage, file, text, len, extra, n_extra,
        from_db ? "nvcc argument (from compile_commands.json or after --)" : "nvcc argument", err,
        sizeof err);
    if (ss != NVSTAGE_OK)
        return diag_error(ss == NVSTAGE_REFUSED ? EXIT_USAGE : EXIT_TOOL, "%s", err);
    uc->staged = true;
    if (env->compile_dir) {
        file_key("compile", env->compile_key, file, text, len, extra, n_extra, uc->key);
        if ((uc->done = compiled_lookup(env->compile_dir, uc->key, &uc->comp)))
            return EXIT_OK;
    }
    if (!nvcc_start(env->nvcc, &uc->stage, env->archs, env->n_archs, &uc->job, err, sizeof err))
        return diag_error(EXIT_TOOL, "%s", err);
    uc->started = true;
    return EXIT_OK;
}

/* compile_finish's answer where the file calls a __device__ function of
 * another file and was compiled whole: compile it again with -rdc=true. */
enum { UNIT_RETRY_RDC = -1 };

/* Waits for nvcc; its output (in the user's paths), the PTX it kept and the
 * SASS into uc->comp, kept in the cache for the next run. */
static int compile_finish(const unit_env *env, const char *file, char *const *extra, int n_extra,
                          unit_compile *uc)
{
    pool_phase(UNIT_PHASE_NVCC);
    int status;
    char *log;
    size_t len;
    bool waited = nvcc_finish(&uc->job, &log, &len, &status);
    uc->started = false;
    /* nvcc's messages name the stage; the user knows their own paths. */
    char *shown = nvstage_unmap(&uc->stage, log);
    free(log);
    if (!waited) {
        free(shown);
        return diag_error(EXIT_TOOL, "lost track of nvcc");
    }
    if (status != 0 && nvcc_needs_rdc(shown, extra, n_extra, uc->callee, sizeof uc->callee)) {
        free(shown);
        return UNIT_RETRY_RDC;
    }
    if (status != 0) {
        fputs(shown, stderr);
        free(shown);
        return diag_error(EXIT_COMPILE, "%s: nvcc failed (exit status %d)", file, status);
    }
    char tool[PATH_MAX];
    nvcc_sibling(env->nvcc, "cuobjdump", tool, sizeof tool);
    compiled_from_stage(&uc->comp, &uc->stage, shown, nvcc_keeps_ptx(extra, n_extra),
                        env->sass ? NULL : tool);
    uc->done = true;
    if (env->compile_dir)
        compiled_store(env->compile_dir, uc->key, &uc->comp);
    return EXIT_OK;
}

static void compile_free(unit_compile *uc)
{
    if (uc->started) {
        char *l;
        size_t n;
        int status;
        nvcc_finish(&uc->job, &l, &n, &status);
        free(l);
    }
    if (uc->staged)
        nvstage_free(&uc->stage);
    compiled_free(&uc->comp);
}

int unit_run(const unit_env *env, const char *file, char *const *file_args, int n_file_args,
             const char *skip_source, int fd)
{
    const pipeline_opts *o = env->o;
    /* The build's own arguments first; the user's "--" ones may add to them. */
    int n_extra = n_file_args + o->n_extra;
    /* Room for -rdc=true, should the file need it (compile_finish). */
    char **extra = xcalloc((size_t)n_extra + 2, sizeof *extra);
    for (int i = 0; i < n_file_args; i++)
        extra[i] = file_args[i];
    for (int i = 0; i < o->n_extra; i++)
        extra[n_file_args + i] = o->extra[i];
    /* The worker's own report: the parent's targets and models, no kernels. */
    report r = {.db = env->r->db, .n_targets = env->r->n_targets};
    memcpy(r.targets, env->r->targets, sizeof r.targets);
    source_outputs src;
    source_outputs_init(&src);
    finding_list findings;
    findings_init(&findings);
    srcscan_result scan = {0};
    cusrc_unit cu;
    bool parsed = false;
    unit_compile uc = {0};
    char *text = NULL, *log = NULL;
    size_t text_len = 0, len = 0;
    int rc = EXIT_OK;
    char key[33] = "", *record = NULL;

    pool_phase(UNIT_PHASE_READ);
    if (file) {
        fileio_status st = fileio_read(file, SOURCE_MAX, &text, &text_len);
        if (st != FILEIO_OK) {
            rc = diag_error(EXIT_INPUT, "%s: %s", file, fileio_status_text(st));
            goto out;
        }
        note_file(&r, file, text, text_len);
        /* A retry (skip_source) is never cached: its result is a fall-back. */
        if (env->cache_dir && !env->log && !skip_source) {
            file_key("run", env->run_key, file, text, text_len, extra, n_extra, key);
            if (unit_hit(env, file, key, fd, &rc))
                goto out;
        }
        if (!env->log &&
            (rc = compile_start(env, file, text, text_len, extra, n_extra, n_file_args > 0, &uc)))
            goto out;
        srcscan_kernels(text, text_len, &scan);
        findings_scan_ignores(file, text, text_len, &r.ignores);
        /* libclang reads the source while nvcc compiles it, and what needs
         * only the source is analysed then too. */
        parsed = parse_source(env, file, extra, n_extra, skip_source, &cu);
        if (parsed)
            drop_unreached(o, &cu);
        if (parsed) {
            pool_phase(UNIT_PHASE_ANALYSE);
            source_target targets[TARGET_MAX];
            const gpu_product *product;
            int n = source_targets(&r, targets, &product);
            kroof_defines defs;
            source_inputs in = inputs_for(o, &cu, file, targets, n, product, NULL, 0, &defs);
            source_analyse_source(&in, &src, &findings);
        }
    }
    if (uc.started && (rc = compile_finish(env, file, extra, n_extra, &uc)) == UNIT_RETRY_RDC) {
        /* As the program's own build must compile it: each file apart, its
         * calls to the others' functions left to the device linker. */
        char *callee = demangle(uc.callee);
        compile_free(&uc);
        memset(&uc, 0, sizeof uc);
        extra[n_extra++] = "-rdc=true";
        /* ptxas sizes each function alone there; nvlink adds the callees'. */
        diag_note("%s: calls '%s', a __device__ function of another file: compiled with "
                  "-rdc=true, as the program's build must; a kernel's registers, stack and "
                  "occupancy are its own, before the device link adds its callees' "
                  "(`nvcc -dlink -Xnvlink -v` prints them; --ptxas-log reads that log)",
                  file, callee);
        free(callee);
        rc = compile_start(env, file, text, text_len, extra, n_extra, n_file_args > 0, &uc);
        if (!rc && uc.started)
            rc = compile_finish(env, file, extra, n_extra, &uc);
    }
    if (rc)
        goto out;
    if (uc.done) {
        log = xstrdup(uc.comp.log);
        len = strlen(log);
        if (!o->quiet_nvcc)
            echo_diagnostics(log);
    } else if (env->log) {
        log = xstrndup(env->log, env->log_len);
        len = env->log_len;
    }
    pool_phase(UNIT_PHASE_KERNELS);
    if (log)
        take_log(&r, o, log, len, file, file ? &scan : NULL, true);
    /* The code first: the launches' instruction counts read it. */
    code_listing code = {0};
    if (uc.done)
        compiled_listing(&uc.comp, env->sass, env->sass_len, o->sass, &code);
    if (parsed) {
        pool_phase(UNIT_PHASE_ANALYSE);
        analyse_launches(o, &r, &cu, file, &code, &src, &findings);
    }
    if (uc.done)
        check_code(env->o, &r, parsed ? &cu : NULL, file, &code, &src);
    code_listing_free(&code);
    /* One file of many without kernels is no error: host code is. */
    if (file && !env->log && r.n_kernels == 0 && !o->allow_no_kernels && o->n_files > 1)
        diag_note("%s: no __global__ kernels (host code only)", file);
    record = record_text(&r, log ? log : "", &src, parsed, &findings);
    if (!record || !fileio_write_all(fd, record, strlen(record)))
        rc = diag_error(EXIT_INTERNAL, "%s: cannot write the worker's result", file ? file : "log");
    else if (key[0] && uc.done)
        cache_store(env, key, &uc.comp, parsed ? &cu : NULL, record);
out:
    compile_free(&uc);
    if (parsed)
        cusrc_unit_free(&cu);
    free(text);
    free(log);
    free(extra);
    free(record);
    srcscan_free(&scan);
    free_own_report(&r);
    findings_free(&findings);
    source_outputs_free(&src);
    return rc;
}

/* ---- the parent's side ---- */

bool unit_merge(report *r, const pipeline_opts *o, const char *file, const char *record, size_t len)
{
    json_t *rec = json_loadb(record, len, 0, NULL);
    json_t *kernels = json_object_get(rec, "kernels"), *files = json_object_get(rec, "files");
    json_t *ignores = json_object_get(rec, "ignores"), *source = json_object_get(rec, "source");
    char *log = json_bytes_value(json_object_get(rec, "log"));
    bool ok = log && json_is_array(kernels) && json_is_array(files) && json_is_array(ignores) &&
              (json_is_null(source) || json_is_object(source)) &&
              json_array_size(files) <= (file ? 1u : 0u);
    size_t before = r->n_kernels;
    if (ok) {
        take_log(r, o, log, strlen(log), file, NULL, false);
        ok = r->n_kernels - before == json_array_size(kernels);
    }
    for (size_t i = 0; ok && i < json_array_size(kernels); i++) {
        int line, column;
        json_t *def;
        json_int_t declared;
        json_t *code;
        ok = json_unpack(json_array_get(kernels, i), "[i, i, o, I, o]", &line, &column, &def,
                         &declared, &code) == 0 &&
             (json_is_object(code) || json_is_null(code));
        if (!ok)
            break;
        if (json_is_object(code))
            r->kernels[before + i].code = json_incref(code);
        r->kernels[before + i].line = line;
        r->kernels[before + i].column = column;
        r->kernels[before + i].declared_smem = declared;
        if (!json_is_null(def))
            ok = (r->kernels[before + i].def_file = json_bytes_value(def)) != NULL;
    }
    for (size_t i = 0; ok && i < json_array_size(files); i++) {
        const char *hash;
        ok = json_unpack(json_array_get(files, i), "[s]", &hash) == 0 && strlen(hash) == 32;
        if (ok) {
            r->files = xrealloc(r->files, (r->n_files + 1) * sizeof *r->files);
            struct report_file *f = &r->files[r->n_files++];
            f->file = xstrdup(file);
            memcpy(f->hash, hash, 33);
        }
    }
    for (size_t i = 0; ok && i < json_array_size(ignores); i++) {
        int line;
        json_t *checks;
        ok = json_unpack(json_array_get(ignores, i), "[i, o]", &line, &checks) == 0;
        char *c = ok ? json_bytes_value(checks) : NULL;
        ok = ok && c && file;
        if (ok)
            findings_ignore_add(&r->ignores, file, line, c, strlen(c));
        free(c);
    }
    if (ok && json_is_object(source))
        ok = source_outputs_merge_wire(&r->src, source);
    if (ok)
        ok = findings_from_wire(json_object_get(rec, "findings"), &r->findings);
    free(log);
    json_decref(rec);
    return ok;
}
