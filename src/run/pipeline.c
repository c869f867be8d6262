/* pipeline: files to workers, their records into one report, in file order. */
#include "run/pipeline.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/diag.h"
#include "util/exitcode.h"
#include "config.h"
#include "input/nvcc.h"
#include "input/sass.h"
#include "run/fromdir.h"
#include "run/pool.h"
#include "run/project.h"
#include "run/unitcache.h"
#include "run/xcalls.h"
#include "util/cachedir.h"
#include "run/unit.h"
#include "util/fileio.h"
#include "util/jsontext.h"
#include "util/sbuf.h"

#define LOG_MAX (256u << 20)

typedef struct run_ctx {
    const pipeline_opts *o;
    report *r;
    unit_env env;
    char **skip; /* per file: why libclang is left out of its next attempt */
    int rc;      /* the first failure's exit code */
    double timeout_s;
} run_ctx;

static const char *job_file(const run_ctx *c, size_t job)
{
    if (c->o->ptxas_log)
        return c->o->n_files ? c->o->files[0] : NULL;
    return c->o->files[job];
}

static int work(void *ctx, size_t job, int attempt, int fd)
{
    (void)attempt;
    run_ctx *c = ctx;
    bool per_file = c->o->file_args != NULL;
    return unit_run(&c->env, job_file(c, job), per_file ? c->o->file_args[job] : NULL,
                    per_file ? c->o->n_file_args[job] : 0, c->skip[job], fd);
}

static const char *signal_name(int sig)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {{SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGABRT, "SIGABRT"},
                 {SIGFPE, "SIGFPE"},   {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"},
                 {SIGTERM, "SIGTERM"}, {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    return "a signal";
}

static const char *phase_text(char phase)
{
    switch (phase) {
    case UNIT_PHASE_READ:
        return "while reading the source";
    case UNIT_PHASE_LIBCLANG:
        return "in libclang";
    case UNIT_PHASE_ANALYSE:
        return "in the source analysis";
    case UNIT_PHASE_NVCC:
        return "waiting for nvcc";
    case UNIT_PHASE_KERNELS:
        return "evaluating the kernels";
    default:
        return "while starting";
    }
}

/* A worker that crashed or hung while reading the source is run again
 * without it: the ptxas-based report does not need libclang. */
static pool_verdict ended(void *ctx, size_t job, int attempt, const pool_outcome *po)
{
    (void)attempt;
    run_ctx *c = ctx;
    if (po->end == POOL_EXITED)
        return po->status == 0 ? POOL_OK : POOL_FAILED;
    bool in_source = po->phase == UNIT_PHASE_LIBCLANG || po->phase == UNIT_PHASE_ANALYSE;
    if (!in_source || c->skip[job])
        return POOL_FAILED;
    sbuf why;
    sbuf_init(&why);
    if (po->end == POOL_TIMED_OUT)
        sbuf_addf(&why, "%s took longer than %.0f s (--timeout)",
                  po->phase == UNIT_PHASE_LIBCLANG ? "libclang" : "the source analysis",
                  c->timeout_s);
    else if (po->phase == UNIT_PHASE_LIBCLANG)
        sbuf_addf(&why, "libclang crashed (%s)", signal_name(po->signal));
    else
        sbuf_addf(&why, "gpulint's source analysis crashed (%s); please report it",
                  signal_name(po->signal));
    c->skip[job] = sbuf_take(&why);
    return POOL_RETRY;
}

static void deliver(void *ctx, size_t job, pool_outcome *po)
{
    run_ctx *c = ctx;
    const char *file = job_file(c, job);
    const char *name = file ? file : c->o->ptxas_log;
    fwrite(po->output, 1, po->output_len, stderr);
    int rc = EXIT_OK;
    if (po->end == POOL_CRASHED)
        rc = diag_error(EXIT_INTERNAL, "%s: gpulint's worker died of %s %s; please report it", name,
                        signal_name(po->signal), phase_text(po->phase));
    else if (po->end == POOL_TIMED_OUT)
        rc = diag_error(EXIT_TIMEOUT, "%s: stopped after %.0f s %s (--timeout)", name, c->timeout_s,
                        phase_text(po->phase));
    else if (po->status != 0)
        rc = po->status;
    else if (!unit_merge(c->r, c->o, file, po->result, po->result_len))
        rc = diag_error(EXIT_INTERNAL, "%s: the worker's result is malformed", name);
    if (rc != EXIT_OK) {
        c->r->n_failed++;
        if (c->rc == EXIT_OK)
            c->rc = rc;
    }
}

static int run_pool(const pipeline_opts *o, report *r, const unit_env *env, size_t n_jobs)
{
    double timeout = o->seen_timeout ? o->timeout_s : PIPELINE_TIMEOUT_DEFAULT;
    run_ctx c = {.o = o, .r = r, .env = *env, .timeout_s = timeout};
    c.skip = xcalloc(n_jobs, sizeof *c.skip);
    pool_spec spec = {.n_jobs = n_jobs,
                      .parallel = o->jobs > 0 ? o->jobs : pool_cores(),
                      .timeout_s = timeout,
                      .progress = isatty(STDERR_FILENO),
                      .ctx = &c,
                      .work = work,
                      .ended = ended,
                      .deliver = deliver};
    char err[512];
    if (!pool_run(&spec, err, sizeof err) && c.rc == EXIT_OK)
        c.rc = diag_error(EXIT_TOOL, "%s", err);
    for (size_t i = 0; i < n_jobs; i++)
        free(c.skip[i]);
    free(c.skip);
    if (n_jobs > 1 && r->n_failed)
        diag_note("%zu of %zu files failed; the report covers the other %zu", r->n_failed, n_jobs,
                  n_jobs - r->n_failed);
    return c.rc;
}

static void key_stat(unitcache_key *k, const char *tag, const char *path)
{
    char real[PATH_MAX];
    struct stat st;
    unitcache_key_str(k, tag, realpath(path, real) ? real : path);
    if (stat(path, &st) == 0) {
        int64_t v[3] = {(int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
                        (int64_t)st.st_mtim.tv_nsec};
        unitcache_key_add(k, "stat", v, sizeof v);
    }
}

/* Starts a key with the tools: this gpulint (its binary, so a rebuild is a
 * new cache), nvcc, and cuobjdump beside it (SASS comes from it or from
 * --sass). */
static void key_tools(unitcache_key *k, const char *nvcc)
{
    unitcache_key_init(k);
    unitcache_key_str(k, "version", GPULINT_VERSION);
    key_stat(k, "gpulint", "/proc/self/exe");
    key_stat(k, "nvcc", nvcc);
    char tool[PATH_MAX];
    nvcc_sibling(nvcc, "cuobjdump", tool, sizeof tool);
    key_stat(k, "cuobjdump", tool);
}

/* Everything a file's result depends on besides the file, its arguments
 * and what it includes: this gpulint (its binary, so a rebuild is a new
 * cache), nvcc, the models, targets and options, the working directory. */
static void identity(const pipeline_opts *o, const report *r, const char *nvcc, char key[33])
{
    unitcache_key k;
    key_tools(&k, nvcc);
    if (o->sass)
        key_stat(&k, "sass", o->sass);
    unitcache_key_tree(&k, r->db.dir);
    for (int i = 0; i < r->n_targets; i++) {
        const target *t = &r->targets[i];
        unitcache_key_str(&k, "arch", t->arch.name);
        unitcache_key_str(&k, "label", t->label);
        unitcache_key_str(&k, "origin", t->origin);
        unitcache_key_str(&k, "gpu", t->has_product ? t->product.id : "");
    }
    unitcache_key_str(&k, "machine", o->target.machine);
    /* A --gpu file lies outside the models' tree: an edited constant must
     * not get the old report. */
    if (o->target.gpu && target_is_product_file(o->target.gpu))
        key_stat(&k, "gpu_file", o->target.gpu);
    int64_t opts[] = {o->has_block,   o->block[0],       o->block[1],
                      o->block[2],    o->dynamic_smem,   o->carveout_percent,
                      o->no_source,   o->quiet_nvcc,     o->allow_no_kernels,
                      o->n_files > 1, cusrc_available(), o->defines ? o->defines->n : 0,
                      o->base_clock};
    unitcache_key_add(&k, "options", opts, sizeof opts);
    for (int i = 0; o->defines && i < o->defines->n; i++) {
        unitcache_key_str(&k, "define", o->defines->names[i]);
        unitcache_key_add(&k, "value", &o->defines->values[i], sizeof o->defines->values[i]);
    }
    unitcache_key_str(&k, "calls", o->calls_text ? o->calls_text : "");
    unitcache_key_str(&k, "args", o->run_args ? "given" : "none");
    for (int i = 0; o->run_args && i < o->n_run_args; i++)
        unitcache_key_str(&k, "arg", o->run_args[i]);
    char cwd[PATH_MAX];
    unitcache_key_str(&k, "cwd", getcwd(cwd, sizeof cwd) ? cwd : "");
    unitcache_key_end(&k, key);
}

/* What a file's compile depends on besides the file, its arguments and
 * what it includes: nvcc, the archs, the working directory (relative -I),
 * whether cuobjdump lists the SASS, and this gpulint (what it keeps of a
 * compile). Not the models or the analysis options: another --gpu or
 * --define on the same code reuses the compile. */
static void compile_identity(const pipeline_opts *o, const char *nvcc, const char *const *archs,
                             int n_archs, char key[33])
{
    unitcache_key k;
    key_tools(&k, nvcc);
    unitcache_key_str(&k, "sass", o->sass ? "given" : "cuobjdump");
    for (int i = 0; i < n_archs; i++)
        unitcache_key_str(&k, "arch", archs[i]);
    char cwd[PATH_MAX];
    unitcache_key_str(&k, "cwd", getcwd(cwd, sizeof cwd) ? cwd : "");
    unitcache_key_end(&k, key);
}

static int run_files(const pipeline_opts *o, report *r)
{
    char nvcc[PATH_MAX], err[512];
    if (!nvcc_find(o->nvcc, nvcc, sizeof nvcc, err, sizeof err))
        return diag_error(EXIT_TOOL, "%s", err);
    const char *archs[TARGET_MAX];
    for (int i = 0; i < r->n_targets; i++)
        archs[i] =
            r->targets[i].compile_arch[0] ? r->targets[i].compile_arch : r->targets[i].arch.name;
    /* Hypothetical machines have no real arch to compile for. */
    int n_archs = r->n_targets;
    if (r->n_targets == 1 && r->targets[0].arch.hypothetical)
        n_archs = 0;
    unit_env env = {.o = o, .r = r, .nvcc = nvcc, .archs = archs, .n_archs = n_archs};
    char *sass = NULL;
    if (o->sass) {
        fileio_status st = fileio_read(o->sass, LOG_MAX, &sass, &env.sass_len);
        if (st != FILEIO_OK)
            return diag_error(EXIT_INPUT, "%s: %s", o->sass, fileio_status_text(st));
        sass_listing l;
        sass_parse(sass, env.sass_len, &l);
        size_t n = l.n_functions;
        sass_listing_free(&l);
        if (n == 0) {
            free(sass);
            return diag_error(EXIT_INPUT,
                              "%s: no SASS functions in it (expected the output of cuobjdump -sass "
                              "or nvdisasm)",
                              o->sass);
        }
        env.sass = sass;
    }
    char *cache = NULL, *compiles = NULL, run_key[33], compile_key[33];
    if (!o->no_cache && !getenv("GPULINT_TEST_LIBCLANG")) {
        char why[512];
        cache = unitcache_dir(why, sizeof why);
        if (!cache && why[0])
            diag_warn("cache: %s; running without it", why);
    }
    if (cache) {
        identity(o, r, nvcc, run_key);
        compile_identity(o, nvcc, archs, n_archs, compile_key);
        env.cache_dir = cache;
        env.run_key = run_key;
        env.compile_key = compile_key;
        /* Compiles beside the results: other options on the same code. */
        compiles = cachedir_path("compiles");
        env.compile_dir = compiles;
    }
    int rc = run_pool(o, r, &env, (size_t)o->n_files);
    if (cache)
        unitcache_trim(cache, unitcache_cap());
    if (compiles)
        unitcache_trim(compiles, unitcache_cap());
    free(cache);
    free(compiles);
    free(sass);
    return rc;
}

static int run_log(const pipeline_opts *o, report *r)
{
    char *log;
    size_t len;
    fileio_status st = fileio_read(o->ptxas_log, LOG_MAX, &log, &len);
    if (st != FILEIO_OK)
        return diag_error(EXIT_INPUT, "%s: %s", strcmp(o->ptxas_log, "-") ? o->ptxas_log : "stdin",
                          fileio_status_text(st));
    const char *name = strcmp(o->ptxas_log, "-") ? o->ptxas_log : "stdin";
    if (len == 0) {
        free(log);
        return diag_error(EXIT_INPUT, "%s: empty log", name);
    }
    /* With a source file alongside, kernels get their lines from it. */
    unit_env env = {.o = o, .r = r, .log = log, .log_len = len};
    int rc = run_pool(o, r, &env, 1);
    free(log);
    if (rc == EXIT_OK && r->n_kernels == 0)
        return diag_error(EXIT_INPUT,
                          "%s: no kernel resource usage found (expected ptxas -v "
                          "output: 'ptxas info : Used N registers ...')",
                          name);
    return rc;
}

int pipeline_run(const pipeline_opts *o, report *r)
{
    memset(r, 0, sizeof *r);
    source_outputs_init(&r->src);
    findings_init(&r->findings);
    if (o->seen_jobs && o->jobs < 1)
        return diag_error(EXIT_USAGE, "-j/--jobs must be at least 1");
    int rc = target_resolve(&o->target, &r->db, r->targets, TARGET_MAX, &r->n_targets);
    if (rc != EXIT_OK)
        return rc;
    if (o->from_dir && (o->ptxas_log || o->compdb || o->shard))
        return diag_error(EXIT_USAGE, "--from reads a build's records; it does not combine with %s",
                          o->ptxas_log ? "--ptxas-log"
                          : o->compdb  ? "-p"
                                       : "--shard");
    if (o->from_dir) {
        rc = fromdir_run(o, r);
        if (rc == EXIT_OK && r->n_kernels == 0 && !o->allow_no_kernels)
            return diag_error(EXIT_INPUT, "%s: the records hold no kernels", o->from_dir);
        return rc;
    }
    if (o->ptxas_log && o->shard)
        return diag_error(EXIT_USAGE, "--shard splits files; it does not apply to --ptxas-log");
    if (o->ptxas_log && !(o->compdb && o->n_files))
        return run_log(o, r);
    if (o->n_files == 0 && !o->compdb)
        return diag_error(EXIT_USAGE,
                          "no input: give FILE.cu, -p BUILD_DIR, --from DIR or --ptxas-log LOG");
    r->project = xcalloc(1, sizeof *r->project);
    rc = project_files(o->compdb, o->files, o->n_files, o->shard, r->project);
    if (rc != EXIT_OK)
        return rc;
    pipeline_opts *run = r->run_opts = xmalloc(sizeof *run);
    *run = *o;
    run->files = r->project->files;
    run->n_files = r->project->n;
    run->file_args = r->project->args;
    run->n_file_args = r->project->n_args;
    r->n_units = (size_t)run->n_files;
    run->db = &r->project->db;
    if (o->ptxas_log) /* the source beside the log parses with its build's flags */
        return run_log(run, r);
    if (run->n_files == 0) {
        diag_note("shard %s holds none of the files", o->shard);
        return EXIT_OK;
    }
    project_command_line_units(r->project, o->files, o->n_files, o->extra, o->n_extra);
    /* The host units' calls into the CUDA units: sizes set in main.cpp. */
    if ((r->project->db.n_host || r->project->db.n_units > 1) && !o->no_source &&
        cusrc_available()) {
        xcalls_collect(o, &r->project->db, &r->project->calls, &r->project->calls_text);
        run->calls = &r->project->calls;
        run->calls_text = r->project->calls_text;
    }
    rc = run_files(run, r);
    if (rc == EXIT_OK && r->n_kernels == 0 && !o->allow_no_kernels)
        return diag_error(EXIT_INPUT, "no kernels found in %s%s", run->files[0],
                          run->n_files > 1 ? " and the other files" : "");
    return rc;
}
