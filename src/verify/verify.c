/* verify: plan, build, predict, run, judge (see verify.h). */
#include "verify/verify.h"

#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/occ.h"
#include "analysis/roofline.h"
#include "util/exitcode.h"
#include "config.h"
#include "verify/gbuf.h"
#include "gpu/gpurt.h"
#include "gpu/probe.h"
#include "input/devquery.h"
#include "model/model_load.h"
#include "input/nvcc.h"
#include "input/ptxas.h"
#include "util/fileio.h"
#include "util/sbuf.h"
#include "util/spawn.h"
#include "verify/kbuild.h"
#include "verify/ncu.h"
#include "verify/predict.h"
#include <xxhash.h>

#define TEXT_MAX (4u << 20)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

const char *verify_kernels_dir(const char *models_dir)
{
    static char buf[4096];
    const char *env = getenv("GPULINT_KERNELS");
    if (env && *env)
        return env;
    const char *m = models_dir ? models_dir : model_default_dir();
    snprintf(buf, sizeof buf, "%s/../kernels", m);
    return buf;
}

/* ---------------------------------------------------------------- the run state */

typedef struct unit_info {
    const char *file;
    kbuild_unit build;
    ptxas_log ptx;
    char stale[320]; /* why --predictions does not describe this build */
} unit_info;

typedef struct run {
    const verify_opts *o;
    verify_result *r;
    model_db db;
    gpu_arch arch;       /* the device's limits (or the bundled model for a dry run) */
    gpu_product product; /* the twin at the device's clocks */
    bool have_product;
    unit_info *units;
    int n_units;
    vpred pred;
    bool *selected; /* per case */
    int n_selected, done;
    double started;
    char nvcc[4096];
    char *err;
    size_t errlen;
    /* calibration measurements, filled while running */
    double *raw;  /* per case: cycles per request, ns per request, ms ... */
    double *raw2; /* per case: a second number (twins: the reference's time) */
    double *spread;
    char **why;     /* per case: why it could not run (owned) */
    json_t **extra; /* per case: measurement details */
} run;

static int fail(run *x, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(run *x, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err, x->errlen, fmt, ap);
    va_end(ap);
    return code;
}

static const vgroup *group_of(const run *x, const vcase *c)
{
    return &x->r->manifest.groups[c->group];
}

static unit_info *unit_for(run *x, const char *file)
{
    for (int i = 0; i < x->n_units; i++)
        if (strcmp(x->units[i].file, file) == 0)
            return &x->units[i];
    return NULL;
}

static const ptxas_kernel *ptx_kernel(const unit_info *u, const char *name)
{
    for (size_t i = 0; u && i < u->ptx.n_kernels; i++)
        if (u->ptx.kernels[i].is_entry && strcmp(u->ptx.kernels[i].name, name) == 0)
            return &u->ptx.kernels[i];
    return NULL;
}

static void set_why(run *x, int i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void set_why(run *x, int i, const char *fmt, ...)
{
    if (x->why[i])
        return;
    sbuf b;
    sbuf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sbuf_vaddf(&b, fmt, ap);
    va_end(ap);
    x->why[i] = sbuf_take(&b);
}

static void progress(run *x, const char *kernel)
{
    x->done++;
    if (!x->o->progress)
        return;
    fprintf(stderr, "\r\033[Kverify: %d/%d %s (%.1f s)", x->done, x->n_selected, kernel,
            now() - x->started);
    if (x->done == x->n_selected)
        fputc('\n', stderr);
    fflush(stderr);
}

/* ---------------------------------------------------------------- planning */

static bool wanted(const verify_opts *o, const vmanifest *m, const vcase *c)
{
    const vgroup *g = &m->groups[c->group];
    if (o->ladder)
        return strcmp(g->ladder, o->ladder) == 0;
    if (o->checks && !(o->checks & (1u << g->check)))
        return false;
    if (o->only && fnmatch(o->only, c->kernel, 0) != 0)
        return false;
    return true;
}

static int load_manifest(run *x, const char *dir)
{
    vmanifest *m = &x->r->manifest;
    vman_error e = {0};
    char *text;
    size_t len;
    sbuf p;
    sbuf_init(&p);
    sbuf_addf(&p, "%s/verify.h", dir);
    fileio_status st = fileio_read(sbuf_str(&p), TEXT_MAX, &text, &len);
    if (st != FILEIO_OK) {
        int rc = fail(x, EXIT_INPUT,
                      "%s: %s (the reference kernels are missing: set "
                      "GPULINT_KERNELS or reinstall)",
                      sbuf_str(&p), fileio_status_text(st));
        sbuf_free(&p);
        return rc;
    }
    bool ok = vman_parse_sizes(text, len, m, &e);
    free(text);
    sbuf_free(&p);
    if (ok) {
        sbuf_addf(&p, "%s/verify.ini", dir);
        st = fileio_read(sbuf_str(&p), TEXT_MAX, &text, &len);
        if (st != FILEIO_OK) {
            int rc = fail(x, EXIT_INPUT, "%s: %s", sbuf_str(&p), fileio_status_text(st));
            sbuf_free(&p);
            return rc;
        }
        ok = vman_parse(text, len, m, &e);
        free(text);
        sbuf_free(&p);
    }
    if (!ok)
        return fail(x, EXIT_INPUT, "%s/%s:%d: %s", dir, e.file, e.line, e.message);
    return EXIT_OK;
}

static const gpu_arch *base_for_cc(int major, int minor, void *ctx)
{
    return model_find_cc(ctx, major, minor);
}

static int choose_target(run *x)
{
    verify_result *r = x->r;
    devquery_device d;
    int n = 0;
    char msg[256] = "";
    const char *skip = getenv("GPULINT_NO_DEVICE");
    bool use_device =
        !(skip && *skip && strcmp(skip, "0") != 0) && !(x->o->dry_run && (x->o->arch || x->o->gpu));
    devquery_status st =
        use_device ? devquery_all(&d, 1, &n, base_for_cc, &x->db, msg, sizeof msg) : DEVQ_NO_DEVICE;
    if (st == DEVQ_OK && n > 0) {
        r->have_device = true;
        x->arch = d.arch;
        snprintf(r->device_name, sizeof r->device_name, "%s", d.product.name);
        snprintf(r->driver, sizeof r->driver, "%s", d.driver);
        snprintf(r->runtime, sizeof r->runtime, "%s", d.runtime);
        const gpu_product *twin =
            model_find_twin(&x->db, d.product.name, d.arch.name, d.product.sm_count);
        if (twin) {
            x->product = model_twin_at_device(twin, &d.product);
            x->have_product = true;
            snprintf(r->product_id, sizeof r->product_id, "%s", twin->id);
        } else {
            x->product = d.product;
        }
        r->sms = d.product.sm_count;
        r->sm_clock_mhz = d.product.boost_clock_mhz;
        r->mem_clock_mhz = d.product.mem_clock_mhz;
        r->mem_bus_bits = d.product.mem_bus_width_bits;
    } else if (!x->o->dry_run) {
        if (st == DEVQ_NO_RUNTIME)
            return fail(x, EXIT_NO_DEVICE,
                        "no GPU to verify on: %s (gpulint verify --dry-run shows what would run)",
                        msg);
        return fail(x, EXIT_NO_DEVICE,
                    "no GPU to verify on: %s (gpulint verify --dry-run shows what would run)",
                    use_device ? msg : "GPULINT_NO_DEVICE is set");
    } else {
        /* A dry run without a GPU: the given product or arch, or the
         * default product. */
        const gpu_product *p = model_find_product(&x->db, x->o->gpu ? x->o->gpu : "h100-sxm");
        if (x->o->gpu && !p)
            return fail(x, EXIT_MODEL, "unknown GPU '%s' ('gpulint models' lists them)", x->o->gpu);
        const gpu_arch *a = x->o->arch ? model_find_arch(&x->db, x->o->arch)
                                       : (p ? model_find_arch(&x->db, p->arch) : NULL);
        if (!a)
            return fail(x, EXIT_MODEL, "unknown architecture '%s'",
                        x->o->arch ? x->o->arch : "sm_90");
        x->arch = *a;
        if (p && strcmp(p->arch, a->name) == 0) {
            x->product = *p;
            x->have_product = true;
            snprintf(r->product_id, sizeof r->product_id, "%s", p->id);
            snprintf(r->device_name, sizeof r->device_name, "%s (model, dry run)", p->name);
            r->sms = p->sm_count;
            r->sm_clock_mhz = p->boost_clock_mhz;
            r->mem_clock_mhz = p->mem_clock_mhz;
            r->mem_bus_bits = p->mem_bus_width_bits;
        } else {
            snprintf(r->device_name, sizeof r->device_name, "%s (model, dry run)", a->name);
        }
    }
    snprintf(r->arch, sizeof r->arch, "%s", x->arch.name);
    r->cc_major = x->arch.cc_major;
    r->cc_minor = x->arch.cc_minor;
    return EXIT_OK;
}

/* ---------------------------------------------------------------- build and predict */

static int build(run *x)
{
    verify_result *r = x->r;
    const vmanifest *m = &r->manifest;
    char msg[512];
    char *nvcc = x->nvcc;
    if (!nvcc_find(x->o->nvcc, nvcc, sizeof x->nvcc, msg, sizeof msg))
        return fail(x, EXIT_TOOL, "%s", msg);
    /* The files the selected cases need, once each. */
    x->units = xcalloc((size_t)m->n_groups, sizeof *x->units);
    for (int i = 0; i < m->n_cases; i++) {
        if (!x->selected[i])
            continue;
        const vgroup *g = &m->groups[m->cases[i].group];
        unit_info *u = unit_for(x, g->file);
        if (!u) {
            u = &x->units[x->n_units++];
            u->file = g->file;
            u->build.file = g->file;
            u->build.extra = g->nvcc;
        } else if (strcmp(u->build.extra, g->nvcc) != 0) {
            return fail(x, EXIT_INPUT, "%s: groups that share it give different nvcc arguments",
                        g->file);
        }
    }
    kbuild_unit *units = xcalloc((size_t)x->n_units + 1, sizeof *units);
    for (int i = 0; i < x->n_units; i++)
        units[i] = x->units[i].build;
    kbuild kb;
    char *failed_log = NULL;
    double t0 = now();
    if (x->o->progress)
        fprintf(stderr, "verify: building %d kernel files for %s...", x->n_units, x->arch.name);
    kbuild_status st = kbuild_run(nvcc, r->kernels_dir, x->arch.name, x->o->jobs, units, x->n_units,
                                  &kb, &failed_log, msg, sizeof msg);
    if (x->o->progress)
        fprintf(stderr, "\r\033[K");
    r->build_seconds = now() - t0;
    snprintf(r->nvcc_version, sizeof r->nvcc_version, "%s", kb.nvcc_version);
    for (int i = 0; i < x->n_units; i++) {
        x->units[i].build = units[i];
        if (units[i].log)
            ptxas_parse(units[i].log, strlen(units[i].log), &x->units[i].ptx);
        r->cached += units[i].from_cache;
        r->built += units[i].log && !units[i].from_cache;
    }
    free(units);
    int rc = EXIT_OK;
    if (st != KBUILD_OK) {
        if (failed_log)
            fputs(failed_log, stderr);
        rc = fail(x,
                  st == KBUILD_COMPILE   ? EXIT_COMPILE
                  : st == KBUILD_TOOL    ? EXIT_TOOL
                  : st == KBUILD_REFUSED ? EXIT_USAGE
                                         : EXIT_INPUT,
                  "%s", msg);
    }
    free(failed_log);
    kbuild_free(&kb);
    return rc;
}

/* Predictions read from a file describe some build of the kernels; when
 * its ptxas numbers differ from this build's, they were made from other
 * sources (or another nvcc) and their launches and counts cannot be used. */
static void check_staleness(run *x)
{
    const json_t *kernels = json_object_get(x->pred.report, "kernels");
    const json_t *sources = json_object_get(x->pred.report, "sources");
    for (int u = 0; u < x->n_units; u++) {
        unit_info *ui = &x->units[u];
        /* The source's own text first: any edit shows. */
        char *text;
        size_t len;
        const json_t *s;
        size_t si;
        if (ui->build.source && fileio_read(ui->build.source, TEXT_MAX, &text, &len) == FILEIO_OK) {
            XXH128_hash_t h = XXH3_128bits(text, len);
            free(text);
            char hex[33];
            snprintf(hex, sizeof hex, "%016llx%016llx", (unsigned long long)h.high64,
                     (unsigned long long)h.low64);
            json_array_foreach(sources, si, s)
            {
                const char *f = json_string_value(json_object_get(s, "file"));
                const char *base = f ? strrchr(f, '/') : NULL;
                const char *hash = json_string_value(json_object_get(s, "xxh3_128"));
                if (f && strcmp(base ? base + 1 : f, ui->file) == 0 && hash &&
                    strcmp(hash, hex) != 0)
                    snprintf(ui->stale, sizeof ui->stale,
                             "%s has changed since the predictions were made; make them again "
                             "(scripts/verify-predictions.sh)",
                             ui->file);
            }
        }
        for (size_t i = 0; i < ui->ptx.n_kernels && !ui->stale[0]; i++) {
            const ptxas_kernel *pk = &ui->ptx.kernels[i];
            if (!pk->is_entry)
                continue;
            const json_t *found = NULL, *k;
            size_t j;
            json_array_foreach(kernels, j, k)
            {
                const char *name = json_string_value(json_object_get(k, "name"));
                if (name && strcmp(name, pk->name) == 0)
                    found = k;
            }
            if (!found)
                snprintf(ui->stale, sizeof ui->stale,
                         "the predictions have no kernel %s of %s: they were made from other "
                         "sources; make them again (scripts/verify-predictions.sh)",
                         pk->name, ui->file);
            else if (json_integer_value(json_object_get(found, "registers")) != pk->registers ||
                     json_integer_value(json_object_get(found, "static_smem")) != pk->static_smem)
                snprintf(ui->stale, sizeof ui->stale,
                         "the predictions say %s uses %lld registers and %lld B of shared memory, "
                         "this build %d and %lld: they were made from other sources or another "
                         "nvcc; make them again (scripts/verify-predictions.sh)",
                         pk->name,
                         (long long)json_integer_value(json_object_get(found, "registers")),
                         (long long)json_integer_value(json_object_get(found, "static_smem")),
                         pk->registers, (long long)pk->static_smem);
        }
        if (ui->stale[0])
            fprintf(stderr, "gpulint: warning: %s\n", ui->stale);
    }
}

static int predict(run *x)
{
    verify_result *r = x->r;
    char msg[512];
    if (x->o->predictions) {
        if (!vpred_load(x->o->predictions, x->arch.name, &x->pred, msg, sizeof msg))
            return fail(x, EXIT_INPUT, "%s", msg);
    } else if (!GPULINT_HAVE_LIBCLANG) {
        vpred_none(&x->pred,
                   "this gpulint was built without libclang, so it cannot predict the bank, "
                   "coalescing, divergence and roofline rows from the source; make the "
                   "predictions where libclang is ('gpulint kernels/*.cu --arch ARCH --format "
                   "json > predictions.json') and pass --predictions predictions.json");
    } else {
        kbuild_unit *units = xcalloc((size_t)x->n_units + 1, sizeof *units);
        for (int i = 0; i < x->n_units; i++)
            units[i] = x->units[i].build;
        bool ok = vpred_run(x->o->self, units, x->n_units, x->arch.name, x->o->jobs, &x->pred, msg,
                            sizeof msg);
        free(units);
        if (!ok)
            return fail(x, EXIT_TOOL, "%s", msg);
    }
    if (x->o->predictions)
        check_staleness(x);
    snprintf(r->predictions, sizeof r->predictions, "%s",
             x->pred.origin[0] ? x->pred.origin : "none");
    snprintf(r->predictions_note, sizeof r->predictions_note, "%s", x->pred.why_none);
    return EXIT_OK;
}

/* ---------------------------------------------------------------- launches */

static bool json_dims(const json_t *a, int out[3])
{
    if (!json_is_array(a) || json_array_size(a) != 3)
        return false;
    for (int i = 0; i < 3; i++) {
        json_int_t v = json_integer_value(json_array_get(a, (size_t)i));
        if (v <= 0 || v > 0x7fffffff)
            return false;
        out[i] = (int)v;
    }
    return true;
}

/* From the source's launch site, else the manifest's grid=/threads=. */
static bool launch_of(run *x, const vcase *c, const char *kernel, probe_launch *l)
{
    memset(l, 0, sizeof *l);
    const unit_info *u = unit_for(x, group_of(x, c)->file);
    const json_t *j = u && u->stale[0] ? NULL : vpred_launch(&x->pred, kernel);
    if (j && json_dims(json_object_get(j, "grid"), l->grid) &&
        json_dims(json_object_get(j, "block"), l->block)) {
        l->dynamic_smem = json_integer_value(json_object_get(j, "dynamic_smem"));
        return true;
    }
    if (c->grid > 0 && c->threads > 0) {
        l->grid[0] = (int)c->grid;
        l->grid[1] = l->grid[2] = 1;
        l->block[0] = (int)c->threads;
        l->block[1] = l->block[2] = 1;
        return true;
    }
    return false;
}

static void launch_text(const probe_launch *l, char *buf, size_t n)
{
    char g[48], b[48];
    if (l->grid[1] == 1 && l->grid[2] == 1)
        snprintf(g, sizeof g, "%d", l->grid[0]);
    else
        snprintf(g, sizeof g, "%dx%dx%d", l->grid[0], l->grid[1], l->grid[2]);
    if (l->block[1] == 1 && l->block[2] == 1)
        snprintf(b, sizeof b, "%d", l->block[0]);
    else
        snprintf(b, sizeof b, "%dx%dx%d", l->block[0], l->block[1], l->block[2]);
    snprintf(buf, n, "<<<%s, %s>>>", g, b);
}

/* ---------------------------------------------------------------- running */

/* Set in the child that runs under Nsight Compute (see counters()). */
static bool once(void)
{
    const char *v = getenv("GPULINT_VERIFY_ONCE");
    return v && strcmp(v, "1") == 0;
}

typedef struct scalar_store {
    float f;
    double d;
    int32_t i;
    uint64_t u;
} scalar_store;

static void build_args(const vcase *c, gbuf *bufs, scalar_store *ss, void **args)
{
    for (int i = 0; i < c->n_args; i++) {
        const varg *a = &c->args[i];
        if (a->buffer >= 0) {
            args[i] = &bufs[a->buffer].dev;
            continue;
        }
        switch (a->type) {
        case VT_F64:
            ss[i].d = a->value;
            args[i] = &ss[i].d;
            break;
        case VT_I32:
            ss[i].i = (int32_t)a->value;
            args[i] = &ss[i].i;
            break;
        case VT_U64:
            ss[i].u = (uint64_t)a->value;
            args[i] = &ss[i].u;
            break;
        default:
            ss[i].f = (float)a->value;
            args[i] = &ss[i].f;
            break;
        }
    }
}

static int64_t size_of(const vmanifest *m, const char *name, int64_t fallback)
{
    for (int i = 0; i < m->n_sizes; i++)
        if (strcmp(m->sizes[i].name, name) == 0)
            return m->sizes[i].value;
    return fallback;
}

/* Runs one case; what it measured goes to raw/raw2/extra, or why it could
 * not to why. Returns false only when the GPU is no longer usable. */
static bool run_case(run *x, int ci, gpurt_module *mod, gbuf *bufs, const vgroup *g)
{
    const vmanifest *m = &x->r->manifest;
    const vcase *c = &m->cases[ci];
    char err[GPURT_ERR_MAX];
    gpurt_kernel k;
    if (!gpurt_kernel_get(mod, c->kernel, &k, err, sizeof err)) {
        set_why(x, ci, "%s", err);
        return true;
    }
    int repeat = x->o->repeat > 0 ? x->o->repeat : 5;
    /* Under Nsight Compute every probe launches exactly once. */
    int warmup = once() ? 0 : 1;
    if (once())
        repeat = 1;
    probe_launch l;
    bool have_launch = launch_of(x, c, c->kernel, &l);
    int cc = x->arch.cc_major * 10 + x->arch.cc_minor;
    if (c->min_cc && cc < c->min_cc) {
        set_why(x, ci, "needs compute capability %d.%d (%s); this GPU is %d.%d", c->min_cc / 10,
                c->min_cc % 10, c->min_cc >= 80 ? "bf16 tensor cores" : "tensor cores",
                x->arch.cc_major, x->arch.cc_minor);
        return true;
    }
    const unit_info *ui = unit_for(x, g->file);
    if (c->kind != VK_RESIDENCY && c->kind != VK_CEILING && ui && ui->stale[0]) {
        set_why(x, ci, "%s", ui->stale);
        return true;
    }
    if (c->kind != VK_RESIDENCY && !have_launch) {
        set_why(x, ci, "no constant launch of %s in the predictions%s%s", c->kernel,
                x->pred.why_none[0] ? ": " : "", x->pred.why_none);
        return true;
    }
    scalar_store ss[VMAN_MAX_ARGS];
    void *args[VMAN_MAX_ARGS];
    build_args(c, bufs, ss, args);
    json_t *extra = json_object();
    x->extra[ci] = extra;
    bool ok = true;
    switch (c->kind) {
    case VK_RESIDENCY: {
        const ptxas_kernel *pk = ptx_kernel(unit_for(x, g->file), c->kernel);
        occ_kernel ok_res = {pk ? pk->registers : 0, pk ? pk->static_smem : 0,
                             pk ? pk->barriers : 0};
        occ_launch ol = {.threads_per_block = c->block,
                         .dynamic_smem = c->dynamic_smem,
                         .carveout_percent = c->carveout,
                         .smem_optin = c->dynamic_smem > 49152 - ok_res.static_smem,
                         .max_dynamic_smem = c->dynamic_smem};
        occ_result occ;
        occ_compute(&x->arch, &ok_res, &ol, &occ);
        probe_residency pr;
        ok = probe_residency_run(k, c->block, c->dynamic_smem, c->carveout, occ.blocks_per_sm,
                                 x->r->sms, (uint64_t)size_of(m, "RESIDENCY_SPIN_NS", 20000), &pr,
                                 err, sizeof err);
        if (ok) {
            int sms_at_max = 0;
            x->raw[ci] = judge_residency(pr.records, (size_t)pr.grid, x->r->sms, &sms_at_max);
            x->raw2[ci] = pr.api;
            json_object_set_new(extra, "api", json_integer(pr.api));
            json_object_set_new(extra, "grid", json_integer(pr.grid));
            json_object_set_new(extra, "sms_at_max", json_integer(sms_at_max));
            json_object_set_new(extra, "runtime_registers", json_integer(pr.registers));
            free(pr.records);
        }
        break;
    }
    case VK_CYCLES: {
        int threads = l.block[0] * l.block[1] * l.block[2];
        int64_t requests = (int64_t)(threads / 32) * size_of(m, "BANK_ITERS", 256) * 4;
        double *per = xcalloc((size_t)repeat + 1, sizeof *per);
        ok = probe_cycles_run(k, &l, repeat, !once(), per, err, sizeof err);
        if (ok) {
            for (int r = 0; r < repeat; r++)
                per[r] /= (double)requests;
            x->raw[ci] = judge_median(per, repeat, &x->spread[ci]);
            json_object_set_new(extra, "cycles_per_request", json_real(x->raw[ci]));
        }
        free(per);
        break;
    }
    case VK_SECTORS:
    case VK_CEILING:
    case VK_TIME: {
        gbuf *restore[VMAN_MAX_BUFFERS];
        probe_copy copies[VMAN_MAX_BUFFERS];
        int n_restore = 0;
        if (c->restore >= 0) {
            gbuf *b = &bufs[c->restore];
            ok = gbuf_keep(b, err, sizeof err);
            copies[n_restore] = (probe_copy){b->dev, b->pristine, b->bytes};
            restore[n_restore++] = b;
        }
        double *ms = xcalloc((size_t)repeat, sizeof *ms);
        ok = ok && probe_times(k, &l, args, warmup, repeat, copies, n_restore, ms, err, sizeof err);
        if (ok) {
            double med = judge_median(ms, repeat, &x->spread[ci]);
            /* Coalescing compares ns per warp request; the rest, ms. */
            x->raw[ci] = c->kind == VK_SECTORS ? med * 1e6 / (double)c->requests : med;
            json_object_set_new(extra, "ms", json_real(med));
            json_object_set_new(extra, "spread", json_real(x->spread[ci]));
            if (c->result.fn != VR_NONE) {
                char why[256];
                if (!gbuf_check(&c->result, bufs, why, sizeof why)) {
                    json_object_set_new(extra, "result", json_string(why));
                    set_why(x, ci, "%s", why);
                } else {
                    json_object_set_new(extra, "result", json_string("ok"));
                }
            }
        }
        /* An in-place kernel leaves its input changed: put it back for the
         * next case that reads the buffer. */
        for (int i = 0; ok && i < n_restore; i++)
            ok = gbuf_restore(restore[i], err, sizeof err);
        free(ms);
        break;
    }
    case VK_LANES: {
        gbuf *counters = c->n_args > 0 && c->args[0].buffer >= 0 ? &bufs[c->args[0].buffer] : NULL;
        if (!counters || counters->spec->type != VT_U64) {
            set_why(x, ci, "the first argument must be the u64 lane counters");
            break;
        }
        size_t n = counters->bytes / sizeof(uint64_t);
        uint64_t *counts = xcalloc(n, sizeof *counts);
        ok = probe_lanes_run(k, &l, args, counters->dev, counters->bytes, counts, n, err,
                             sizeof err);
        const json_t *b = vpred_branch(&x->pred, c->kernel, 0);
        json_int_t line = b ? json_integer_value(json_object_get(b, "line")) : 0;
        if (ok && line > 0 && (size_t)(2 * line + 1) < n) {
            uint64_t lanes = counts[2 * line], runs = counts[2 * line + 1];
            x->raw[ci] = runs ? (double)lanes / (32.0 * (double)runs) : NAN;
            json_object_set_new(extra, "lanes", json_integer((json_int_t)lanes));
            json_object_set_new(extra, "executions", json_integer((json_int_t)runs));
            json_object_set_new(extra, "line", json_integer(line));
            if (!runs)
                set_why(x, ci, "the counters of line %lld stayed at zero", (long long)line);
        } else if (ok) {
            set_why(x, ci, "no predicted branch to read the counters of");
        }
        free(counts);
        break;
    }
    case VK_TWINS: {
        gpurt_kernel ref;
        probe_launch lr;
        if (!gpurt_kernel_get(mod, c->reference, &ref, err, sizeof err)) {
            set_why(x, ci, "%s", err);
            break;
        }
        if (!launch_of(x, c, c->reference, &lr)) {
            set_why(x, ci, "no constant launch of %s in the predictions", c->reference);
            break;
        }
        /* Alternately, so that a clock change hits both alike. */
        double *ms = xcalloc((size_t)repeat, sizeof *ms),
               *ms2 = xcalloc((size_t)repeat, sizeof *ms2);
        double s2;
        for (int rr = -warmup; ok && rr < repeat; rr++) {
            double t1, t2;
            ok = probe_times(k, &l, args, 0, 1, NULL, 0, &t1, err, sizeof err) &&
                 probe_times(ref, &lr, args, 0, 1, NULL, 0, &t2, err, sizeof err);
            if (ok && rr >= 0) {
                ms[rr] = t1;
                ms2[rr] = t2;
            }
        }
        if (ok) {
            x->raw[ci] = judge_median(ms, repeat, &x->spread[ci]);
            x->raw2[ci] = judge_median(ms2, repeat, &s2);
            json_object_set_new(extra, "divergent_ms", json_real(x->raw[ci]));
            json_object_set_new(extra, "converged_ms", json_real(x->raw2[ci]));
            json_object_set_new(extra, "spread", json_real(fmax(x->spread[ci], s2)));
        }
        free(ms);
        free(ms2);
        break;
    }
    }
    if (!ok) {
        set_why(x, ci, "%s", err);
        /* A kernel fault leaves the context unusable: stop the run. */
        return strstr(err, "illegal") == NULL && strstr(err, "misaligned") == NULL &&
               strstr(err, "unspecified launch failure") == NULL;
    }
    return true;
}

static bool run_group(run *x, int gi)
{
    const vmanifest *m = &x->r->manifest;
    const vgroup *g = &m->groups[gi];
    bool any = false;
    for (int i = 0; i < m->n_cases; i++)
        any = any || (x->selected[i] && m->cases[i].group == gi);
    if (!any)
        return true;
    char err[GPURT_ERR_MAX];
    unit_info *u = unit_for(x, g->file);
    gpurt_module *mod = NULL;
    if (!u || !u->build.fatbin || !gpurt_load(u->build.fatbin, &mod, err, sizeof err)) {
        for (int i = 0; i < m->n_cases; i++)
            if (x->selected[i] && m->cases[i].group == gi)
                set_why(x, i, "%s", u && u->build.fatbin ? err : "not built");
        return true;
    }
    gbuf bufs[VMAN_MAX_BUFFERS];
    memset(bufs, 0, sizeof bufs);
    bool ok = true;
    for (int b = 0; b < g->n_buffers && ok; b++) {
        ok = gbuf_create(&bufs[b], &g->buffers[b], 0x5eed0000u + (uint64_t)(gi * 16 + b), err,
                         sizeof err);
        if (!ok)
            for (int i = 0; i < m->n_cases; i++)
                if (x->selected[i] && m->cases[i].group == gi)
                    set_why(x, i, "buffer %s: %s", g->buffers[b].name, err);
    }
    /* Coalescing reads DRAM traffic as 32-byte sectors: no neighbour fetched along. */
    bool granularity = false;
    if (ok && g->check == VCHECK_COALESCING) {
        granularity = gpurt_set_l2_fetch_granularity(32, err, sizeof err);
        if (!granularity)
            fprintf(stderr, "gpulint: warning: %s; sectors may read high\n", err);
    }
    bool usable = true;
    for (int i = 0; ok && usable && i < m->n_cases; i++) {
        if (!x->selected[i] || m->cases[i].group != gi)
            continue;
        usable = run_case(x, i, mod, bufs, g);
        progress(x, m->cases[i].kernel);
    }
    if (granularity)
        gpurt_set_l2_fetch_granularity(64, err, sizeof err);
    for (int b = 0; b < g->n_buffers; b++)
        gbuf_free(&bufs[b]);
    gpurt_unload(mod);
    return usable;
}

/* ---------------------------------------------------------------- judging */

static vrow *new_row(run *x, const vcase *c)
{
    verify_result *r = x->r;
    r->rows = xrealloc(r->rows, (size_t)(r->n_rows + 1) * sizeof *r->rows);
    vrow *row = &r->rows[r->n_rows++];
    memset(row, 0, sizeof *row);
    row->check = group_of(x, c)->check;
    row->vc = c;
    static const char *const kinds[] = {"residency", "cycles",  "sectors", "lanes",
                                        "timing",    "ceiling", "time"};
    snprintf(row->group, sizeof row->group, "%s", group_of(x, c)->name);
    snprintf(row->kind, sizeof row->kind, "%s", kinds[c->kind]);
    snprintf(row->cls, sizeof row->cls, "%s",
             c->scattered ? "scattered"
             : c->sparse  ? "sparse"
                          : "dense");
    row->calibration = c->calibrate;
    snprintf(row->kernel, sizeof row->kernel, "%s", c->kernel);
    row->predicted = row->measured = NAN;
    row->verdict = VV_NOT_COMPARABLE;
    row->detail = json_object();
    return row;
}

static double jnum(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void finish_row(run *x, vrow *row, int ci)
{
    if (x->extra[ci]) {
        json_object_update(row->detail, x->extra[ci]);
    }
    if (x->why[ci] && row->verdict == VV_AGREES) {
        row->verdict = VV_DIFFERS; /* e.g. a wrong result */
        snprintf(row->reason, sizeof row->reason, "%s", x->why[ci]);
    } else if (x->why[ci] && !row->reason[0]) {
        row->verdict =
            strncmp(x->why[ci], "wrong result", 12) == 0 ? VV_DIFFERS : VV_NOT_COMPARABLE;
        snprintf(row->reason, sizeof row->reason, "%s", x->why[ci]);
    }
    if (x->r->dry_run) {
        row->verdict = VV_NOT_COMPARABLE;
        row->measured = NAN;
        snprintf(row->reason, sizeof row->reason, "dry run: not measured");
    }
}

static void judge_occupancy(run *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    vrow *row = new_row(x, c);
    const ptxas_kernel *pk = ptx_kernel(unit_for(x, group_of(x, c)->file), c->kernel);
    snprintf(row->unit, sizeof row->unit, "blocks/SM");
    snprintf(row->method, sizeof row->method, "residency records (%%smid, %%globaltimer)");
    snprintf(row->tolerance, sizeof row->tolerance, "exact");
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "block %d", c->block);
    if (c->dynamic_smem)
        sbuf_addf(&b, ", dynamic %lld B", (long long)c->dynamic_smem);
    if (c->carveout >= 0)
        sbuf_addf(&b, ", carveout %d%%", c->carveout);
    snprintf(row->launch, sizeof row->launch, "%s", sbuf_str(&b));
    sbuf_free(&b);
    if (!pk) {
        snprintf(row->reason, sizeof row->reason, "ptxas reported no resources for %s", c->kernel);
        finish_row(x, row, ci);
        return;
    }
    occ_kernel k = {pk->registers, pk->static_smem, pk->barriers};
    occ_launch l = {.threads_per_block = c->block,
                    .dynamic_smem = c->dynamic_smem,
                    .carveout_percent = c->carveout,
                    .smem_optin = c->dynamic_smem > 49152 - k.static_smem,
                    .max_dynamic_smem = c->dynamic_smem};
    occ_result occ;
    occ_compute(&x->arch, &k, &l, &occ);
    row->predicted = occ.blocks_per_sm;
    json_object_set_new(row->detail, "registers", json_integer(pk->registers));
    json_object_set_new(row->detail, "static_smem", json_integer(pk->static_smem));
    json_object_set_new(row->detail, "barriers", json_integer(pk->barriers));
    json_t *lims = json_array();
    for (unsigned bit = 1; bit <= OCC_LIM_BARRIERS; bit <<= 1)
        if (occ.limiters & bit)
            json_array_append_new(lims, json_string(occ_limiter_name((occ_limiter)bit)));
    json_object_set_new(row->detail, "limiters", lims);
    if (!x->r->dry_run && !x->why[ci]) {
        row->measured = x->raw[ci];
        row->verdict = judge_count(row->predicted, row->measured, 0, 0);
        if (x->raw2[ci] != row->predicted)
            snprintf(row->reason, sizeof row->reason,
                     "cudaOccupancyMaxActiveBlocksPerMultiprocessor says %.0f", x->raw2[ci]);
    }
    finish_row(x, row, ci);
}

/* Calibration lines per access width (bank) or per class (coalescing). */
typedef struct fitline {
    double a, b;
    int n;
    bool ok;
} fitline;

static fitline fit_where(run *x, vkind kind, bool (*match)(run *, int, int), int key)
{
    const vmanifest *m = &x->r->manifest;
    double xs[64], ys[64];
    int n = 0;
    for (int i = 0; i < m->n_cases && n < 64; i++) {
        const vcase *c = &m->cases[i];
        if (!x->selected[i] || c->kind != kind || !c->calibrate || x->why[i] || !(x->raw[i] > 0))
            continue;
        if (!match(x, i, key))
            continue;
        xs[n] = c->calibrate_value;
        ys[n] = x->raw[i];
        n++;
    }
    fitline f = {0, 0, n, false};
    if (n >= 2)
        f.ok = judge_fit(xs, ys, n, &f.a, &f.b);
    else if (n == 1) { /* one point: a line through the origin */
        f.a = 0;
        f.b = ys[0] / xs[0];
        f.ok = f.b > 0;
    }
    return f;
}

static int access_width(run *x, int ci)
{
    const json_t *a = vpred_access(&x->pred, "shared_accesses", x->r->manifest.cases[ci].kernel);
    return a ? (int)json_integer_value(json_object_get(a, "width")) : 0;
}

static bool same_width(run *x, int ci, int width)
{
    return access_width(x, ci) == width;
}

static bool same_class(run *x, int ci, int sparse)
{
    return x->r->manifest.cases[ci].sparse == (sparse != 0);
}

/* Cycles of the width's floor probe (a broadcast), 0 when none ran. */
static double bank_floor(run *x, int width)
{
    const vmanifest *m = &x->r->manifest;
    for (int i = 0; i < m->n_cases; i++)
        if (x->selected[i] && m->cases[i].kind == VK_CYCLES && m->cases[i].floor && !x->why[i] &&
            x->raw[i] > 0 && access_width(x, i) == width)
            return x->raw[i];
    return 0;
}

static void judge_bank(run *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    vrow *row = new_row(x, c);
    snprintf(row->unit, sizeof row->unit, "wavefronts");
    snprintf(row->tolerance, sizeof row->tolerance, "0.5 or 5%%");
    const json_t *a = vpred_access(&x->pred, "shared_accesses", c->kernel);
    probe_launch l;
    if (launch_of(x, c, c->kernel, &l))
        launch_text(&l, row->launch, sizeof row->launch);
    if (!a || !json_is_true(json_object_get(a, "analyzed"))) {
        snprintf(row->reason, sizeof row->reason, "no prediction: %s",
                 a ? json_string_value(json_object_get(a, "reason"))
                   : (x->pred.why_none[0] ? x->pred.why_none : "the load was not found"));
        snprintf(row->method, sizeof row->method, "clock64");
        finish_row(x, row, ci);
        return;
    }
    int width = (int)json_integer_value(json_object_get(a, "width"));
    row->predicted = jnum(a, "average_wavefronts");
    json_object_set_new(row->detail, "width", json_integer(width));
    json_object_set_new(row->detail, "text",
                        json_string(json_string_value(json_object_get(a, "text"))));
    fitline f = fit_where(x, VK_CYCLES, same_width, width);
    snprintf(row->method, sizeof row->method, "clock64, %d-byte fit: %.2f + %.3f cycles/wavefront",
             width, f.a, f.b);
    if (!x->r->dry_run && !x->why[ci]) {
        double floor_cycles = bank_floor(x, width);
        if (!f.ok) {
            snprintf(row->reason, sizeof row->reason,
                     "no calibration for %d-byte accesses on this run", width);
        } else if (floor_cycles > 0 && f.a + f.b * row->predicted < floor_cycles - 0.5 * f.b) {
            /* The prediction asks for less time than the cheapest request of
             * this width takes: timing cannot see it. */
            row->measured = (x->raw[ci] - f.a) / f.b;
            snprintf(row->reason, sizeof row->reason,
                     "below what timing resolves for %d-byte requests: even a broadcast (every "
                     "lane on one address) takes %.2f cycles, %.2f wavefront-times, and this "
                     "request is predicted at %.2f; the hardware's wavefront counter is the "
                     "measure here (--counters)",
                     width, floor_cycles, (floor_cycles - f.a) / f.b, row->predicted);
            json_object_set_new(row->detail, "floor_cycles", json_real(floor_cycles));
        } else {
            row->measured = (x->raw[ci] - f.a) / f.b;
            row->verdict = judge_count(row->predicted, row->measured, 0.5, 0.05);
            json_object_set_new(row->detail, "fit_intercept", json_real(f.a));
            json_object_set_new(row->detail, "fit_slope", json_real(f.b));
            if (c->calibrate)
                json_object_set_new(row->detail, "calibration", json_true());
        }
    }
    finish_row(x, row, ci);
}

static void judge_coalescing(run *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    vrow *row = new_row(x, c);
    snprintf(row->unit, sizeof row->unit, "sectors");
    snprintf(row->tolerance, sizeof row->tolerance, "0.5 or 10%%");
    const json_t *a = vpred_access(&x->pred, "global_accesses", c->kernel);
    probe_launch l;
    if (launch_of(x, c, c->kernel, &l))
        launch_text(&l, row->launch, sizeof row->launch);
    fitline dense = fit_where(x, VK_SECTORS, same_class, 0);
    fitline sparse = fit_where(x, VK_SECTORS, same_class, 1);
    /* The sparse class keeps the dense intercept (launch and tail cost) and
     * gets its own cost per sector from its calibration pattern. */
    double slope = dense.b;
    bool ok = dense.ok;
    if (c->sparse) {
        ok = ok && sparse.ok;
        slope = 0;
        for (int i = 0; ok && i < x->r->manifest.n_cases; i++) {
            const vcase *s = &x->r->manifest.cases[i];
            if (x->selected[i] && s->kind == VK_SECTORS && s->sparse && s->calibrate &&
                x->raw[i] > 0 && !x->why[i]) {
                slope = (x->raw[i] - dense.a) / s->calibrate_value;
                break;
            }
        }
    }
    snprintf(row->method, sizeof row->method,
             "DRAM time x calibrated bandwidth (%s), L2 fetch granularity 32 B",
             c->sparse ? "sparse: one sector per 128-byte line" : "dense");
    if (!a || !json_is_true(json_object_get(a, "analyzed"))) {
        snprintf(row->reason, sizeof row->reason, "no prediction: %s",
                 a ? json_string_value(json_object_get(a, "reason"))
                   : (x->pred.why_none[0] ? x->pred.why_none : "the load was not found"));
        finish_row(x, row, ci);
        return;
    }
    row->predicted = jnum(a, "average_sectors");
    json_object_set_new(row->detail, "width",
                        json_object_get(a, "width") ? json_incref(json_object_get(a, "width"))
                                                    : json_null());
    json_object_set_new(row->detail, "requests", json_integer(c->requests));
    if (!x->r->dry_run && !x->why[ci] && x->raw[ci] > 0) {
        double ns = x->raw[ci];
        json_object_set_new(row->detail, "ns_per_request", json_real(ns));
        json_object_set_new(row->detail, "sector_gbps", json_real(row->predicted * 32.0 / ns));
        if (!ok || !(slope > 0)) {
            snprintf(row->reason, sizeof row->reason, "no %s calibration on this run",
                     c->sparse ? "sparse" : "dense");
        } else {
            row->measured = (ns - dense.a) / slope;
            json_object_set_new(row->detail, "fit_intercept_ns", json_real(dense.a));
            json_object_set_new(row->detail, "fit_ns_per_sector", json_real(slope));
            row->verdict = judge_count(row->predicted, row->measured, 0.5, 0.10);
            if ((c->scattered || c->straddles) && row->measured >= 0.9 * row->predicted) {
                /* Time that is not sectors: an upper bound only. */
                row->verdict = VV_NOT_COMPARABLE;
                snprintf(row->reason, sizeof row->reason,
                         "%s: the time (%.1f sector-times) bounds the sectors from above and is "
                         "consistent with the predicted %.0f; the sector counter is the measure "
                         "here (--counters)",
                         c->scattered
                             ? "its lanes are far apart in memory, so each sector also costs a "
                               "DRAM row activation the calibration pattern does not pay"
                             : "each request spans two 128-byte lines for five sectors, and the "
                               "L2's work per line adds time the calibration patterns (a line "
                               "per four sectors) do not have",
                         row->measured, row->predicted);
            }
            if (c->calibrate)
                json_object_set_new(row->detail, "calibration", json_true());
        }
    }
    finish_row(x, row, ci);
}

/* Divergent-branch reconvergence points (BSSY) in a kernel's SASS, from
 * cuobjdump beside nvcc; -1 when it cannot be read. A branch the compiler
 * predicated leaves none. */
static int sass_bssy(run *x, const char *file, const char *kernel)
{
    unit_info *u = unit_for(x, file);
    if (!u || !u->build.fatbin || !x->nvcc[0])
        return -1;
    char tool[4200];
    snprintf(tool, sizeof tool, "%s", x->nvcc);
    char *slash = strrchr(tool, '/');
    if (!slash)
        return -1;
    snprintf(slash + 1, sizeof tool - (size_t)(slash + 1 - tool), "cuobjdump");
    if (access(tool, X_OK) != 0)
        return -1;
    const char *argv[] = {tool, "-sass", "-fun", kernel, u->build.fatbin, NULL};
    spawn_result r;
    char err[256];
    if (!spawn_run(argv, NULL, &r, err, sizeof err))
        return -1;
    int n = -1;
    if (r.status == 0 && strstr(r.out, "Function")) {
        n = 0;
        for (const char *p = r.out; (p = strstr(p, "BSSY")); p += 4)
            n++;
    }
    spawn_result_free(&r);
    return n;
}

static void judge_divergence(run *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    vrow *row = new_row(x, c);
    snprintf(row->unit, sizeof row->unit, "SIMT efficiency");
    const json_t *b = vpred_branch(&x->pred, c->kernel, 0);
    probe_launch l;
    if (launch_of(x, c, c->kernel, &l))
        launch_text(&l, row->launch, sizeof row->launch);
    if (c->kind == VK_LANES) {
        snprintf(row->method, sizeof row->method, "lane counters (__activemask, __popc)");
        snprintf(row->tolerance, sizeof row->tolerance, "0.005");
    } else {
        snprintf(row->method, sizeof row->method, "time of the warp-aligned twin / this time");
        snprintf(row->tolerance, sizeof row->tolerance, "10%%");
    }
    if (!b) {
        snprintf(row->reason, sizeof row->reason, "no prediction: %s",
                 x->pred.why_none[0] ? x->pred.why_none : "no branch found");
        finish_row(x, row, ci);
        return;
    }
    row->predicted = jnum(b, "efficiency");
    json_object_set_new(row->detail, "text",
                        json_string(json_string_value(json_object_get(b, "text"))));
    json_object_set_new(row->detail, "line", json_incref(json_object_get(b, "line")));
    if (!x->r->dry_run && !x->why[ci]) {
        if (c->kind == VK_LANES) {
            row->measured = x->raw[ci];
            row->verdict = judge_count(row->predicted, row->measured, 0.005, 0);
        } else {
            bool predicated;
            row->measured = x->raw2[ci] / x->raw[ci];
            row->verdict =
                judge_twins(row->predicted, x->raw[ci], x->raw2[ci], 0.10, 0.05, &predicated);
            int bssy = predicated ? sass_bssy(x, group_of(x, c)->file, c->kernel) : -1;
            json_object_set_new(row->detail, "sass_bssy",
                                bssy >= 0 ? json_integer(bssy) : json_null());
            if (predicated && bssy > 0) {
                /* The SASS has a real branch, yet no time was lost: that is
                 * a disagreement, not predication. */
                row->verdict = VV_DIFFERS;
                snprintf(row->reason, sizeof row->reason,
                         "the twins took the same time (%.4f and %.4f ms) although the SASS "
                         "keeps %d divergent branch(es) (BSSY)",
                         x->raw[ci], x->raw2[ci], bssy);
            } else if (predicated) {
                snprintf(row->reason, sizeof row->reason,
                         "the compiler predicated this short branch: both sides ran for every "
                         "lane, so the divergent and converged twins took the same time (%.4f "
                         "and %.4f ms)%s; the lane counters measure branches as written",
                         x->raw[ci], x->raw2[ci],
                         bssy == 0 ? " and its SASS has no divergent branch (no BSSY, "
                                     "cuobjdump)"
                                   : " (cuobjdump not found to show the SASS)");
            }
        }
    }
    finish_row(x, row, ci);
}

/* ---------------------------------------------------------------- roofline */

static const struct {
    const char *name;
    model_precision prec;
    bool bandwidth;
} ceiling_kinds[] = {
    {"dram", PREC_FP32, true},
    {"fp32", PREC_FP32, false},
    {"fp64", PREC_FP64, false},
    {"fp16_tensor", PREC_FP16_TENSOR, false},
    {"bf16_tensor", PREC_BF16_TENSOR, false},
};

static vceiling *ceiling(verify_result *r, const char *name)
{
    for (int i = 0; i < r->n_ceilings; i++)
        if (strcmp(r->ceilings[i].name, name) == 0)
            return &r->ceilings[i];
    return NULL;
}

static void spec_ceilings(run *x)
{
    verify_result *r = x->r;
    for (size_t i = 0; i < sizeof ceiling_kinds / sizeof ceiling_kinds[0]; i++) {
        vceiling *v = &r->ceilings[r->n_ceilings++];
        memset(v, 0, sizeof *v);
        snprintf(v->name, sizeof v->name, "%s", ceiling_kinds[i].name);
        v->bandwidth = ceiling_kinds[i].bandwidth;
        v->precision = ceiling_kinds[i].prec;
        roof_ceilings rc;
        const char *why = NULL;
        if (x->have_product && roofline_ceilings(&x->product, v->precision, ROOF_CLOCK_BOOST,
                                                 ROOF_PREFER_COMPUTED, &rc, &why)) {
            v->spec = v->bandwidth ? rc.bandwidth.computed : rc.flops.computed;
            v->datasheet = v->bandwidth ? rc.bandwidth.datasheet : rc.flops.datasheet;
        }
    }
}

static void judge_ceiling(run *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    vceiling *v = ceiling(x->r, c->ceiling);
    if (!v)
        return;
    snprintf(v->kernel, sizeof v->kernel, "%s", c->kernel);
    if (x->r->dry_run || x->why[ci] || !(x->raw[ci] > 0)) {
        if (x->why[ci])
            snprintf(v->note, sizeof v->note, "not measured: %s", x->why[ci]);
        return;
    }
    v->measured = (double)c->work / (x->raw[ci] * 1e-3);
    if (strstr(v->name, "tensor"))
        snprintf(v->note, sizeof v->note,
                 "mma.sync (wmma 16x16x16); Hopper's datasheet rate needs wgmma (sm_90a), "
                 "which this kernel does not use");
    /* gpulint's own count of the same kernel, where it has one. */
    const json_t *p = vpred_roofline(&x->pred, c->kernel);
    if (p) {
        double counted = v->bandwidth ? jnum(p, "dram_bytes")
                                      : (strstr(v->name, "tensor")
                                             ? jnum(json_object_get(p, "flops"), "tensor")
                                             : jnum(json_object_get(p, "flops"),
                                                    v->precision == PREC_FP64 ? "fp64" : "fp32"));
        if (counted > 0 && fabs(counted - (double)c->work) > 0.01 * (double)c->work) {
            size_t len = strlen(v->note);
            snprintf(v->note + len, sizeof v->note - len,
                     "%sgpulint counts %.4g %s in this kernel, verify.ini %.4g", len ? "; " : "",
                     counted, v->bandwidth ? "bytes" : "FLOPs", (double)c->work);
        }
    }
}

static double peak_for(run *x, const char *prec_key, bool measured)
{
    const char *name = strcmp(prec_key, "fp64") == 0     ? "fp64"
                       : strcmp(prec_key, "tensor") == 0 ? "fp16_tensor"
                                                         : "fp32";
    vceiling *v = ceiling(x->r, name);
    if (!v)
        return 0;
    return measured ? v->measured : v->spec;
}

static void judge_time(run *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    vrow *row = new_row(x, c);
    snprintf(row->unit, sizeof row->unit, "ms");
    snprintf(row->method, sizeof row->method, "CUDA events, median of %d runs",
             x->o->repeat > 0 ? x->o->repeat : 5);
    snprintf(row->tolerance, sizeof row->tolerance, "not below the bound (2%% timer slack)");
    probe_launch l;
    if (launch_of(x, c, c->kernel, &l))
        launch_text(&l, row->launch, sizeof row->launch);
    const json_t *p = vpred_roofline(&x->pred, c->kernel);
    vceiling *dram = ceiling(x->r, "dram");
    if (!p || !dram || !(dram->spec > 0)) {
        snprintf(row->reason, sizeof row->reason, "no prediction: %s",
                 !p ? (x->pred.why_none[0] ? x->pred.why_none : "no roofline entry")
                    : "no bandwidth for this GPU");
        finish_row(x, row, ci);
        return;
    }
    const json_t *flops = json_object_get(p, "flops");
    double bytes = jnum(p, "dram_bytes");
    bool symbolic = !(bytes >= 0);
    double compute_s = 0, total_flops = 0;
    const char *keys[] = {"fp32", "fp64", "fp16", "tensor"};
    const char *dominant = "fp32";
    double dominant_s = 0;
    for (size_t i = 0; i < 4; i++) {
        double f = jnum(flops, keys[i]);
        if (isnan(f)) {
            if (json_object_get(flops, keys[i]))
                symbolic = true;
            continue;
        }
        double peak = peak_for(x, strcmp(keys[i], "fp16") == 0 ? "fp32" : keys[i], false);
        if (f > 0 && peak > 0) {
            double t = f / (strcmp(keys[i], "fp16") == 0 ? 2 * peak : peak);
            if (t > dominant_s) {
                dominant_s = t;
                dominant = keys[i];
            }
            if (t > compute_s)
                compute_s = t;
        }
        total_flops += f > 0 ? f : 0;
    }
    if (symbolic) {
        snprintf(row->reason, sizeof row->reason,
                 "gpulint's counts for %s are symbolic (not every size is constant)", c->kernel);
        finish_row(x, row, ci);
        return;
    }
    bool upper = json_is_true(json_object_get(p, "upper_bound"));
    double bw = dram->spec;
    double bound = fmax(upper ? 0 : compute_s, bytes / bw);
    row->predicted = bound * 1e3;
    /* The floor a correct kernel cannot beat: compulsory bytes when the
     * requested ones include re-reads the caches may serve. */
    double floor_bytes =
        c->compulsory > 0 && bytes > (double)c->compulsory ? (double)c->compulsory : bytes;
    double floor_s = fmax(upper ? 0 : compute_s, floor_bytes / bw);
    bool memory_bound = floor_bytes / bw >= (upper ? 0 : compute_s);
    json_object_set_new(row->detail, "flops", json_real(total_flops));
    json_object_set_new(row->detail, "dram_bytes", json_real(bytes));
    if (c->compulsory > 0)
        json_object_set_new(row->detail, "compulsory_bytes", json_integer(c->compulsory));
    json_object_set_new(row->detail, "bound_s", json_real(bound));
    json_object_set_new(row->detail, "floor_s", json_real(floor_s));
    json_object_set_new(row->detail, "bound", json_string(memory_bound ? "memory" : "compute"));
    if (upper)
        json_object_set_new(row->detail, "flops_upper_bound", json_true());
    if (c->compulsory > 0 && bytes < 0.99 * (double)c->compulsory) {
        row->verdict = VV_DIFFERS;
        snprintf(row->reason, sizeof row->reason,
                 "gpulint counts %.4g DRAM bytes, but the kernel must move %.4g", bytes,
                 (double)c->compulsory);
    } else if (!x->r->dry_run && !x->why[ci] && x->raw[ci] > 0) {
        double t = x->raw[ci] * 1e-3;
        row->measured = x->raw[ci];
        row->verdict = judge_bound(floor_s, t, 0.02);
        double achieved_bw = floor_bytes / t;
        double achieved_fl = total_flops / t;
        double frac = memory_bound ? (dram->measured > 0 ? achieved_bw / dram->measured : NAN)
                                   : (peak_for(x, dominant, true) > 0
                                          ? achieved_fl / peak_for(x, dominant, true)
                                          : NAN);
        json_object_set_new(row->detail, "achieved_bytes_per_s", json_real(achieved_bw));
        json_object_set_new(row->detail, "achieved_flops_per_s", json_real(achieved_fl));
        if (!isnan(frac))
            json_object_set_new(row->detail, "fraction_of_measured_ceiling", json_real(frac));
        if (row->verdict == VV_DIFFERS)
            snprintf(row->reason, sizeof row->reason,
                     "%.4g ms is below the floor of %.4g ms: a FLOP or byte count is wrong",
                     x->raw[ci], floor_s * 1e3);
        else if (floor_s < bound * 0.99 && t < bound)
            snprintf(row->reason, sizeof row->reason,
                     "faster than the requested-bytes bound (%.4g ms): gpulint counts %.4g bytes "
                     "as requested, and the L1/L2 served re-reads; the floor uses the %.4g bytes "
                     "the kernel must move",
                     bound * 1e3, bytes, floor_bytes);
        else if (upper)
            snprintf(row->reason, sizeof row->reason,
                     "the FLOP count is an upper bound (branches), so only bytes set the floor");
    }
    finish_row(x, row, ci);
}

/* ---------------------------------------------------------------- ladders */

static double ladder_prediction(const vpred *p, const char *kernel, json_t *out)
{
    double worst_div = 1.0, bank = 1.0, sectors = 1.0;
    json_t *all = vpred_all(p, "branches", kernel);
    size_t i;
    json_t *e;
    json_array_foreach(all, i, e)
    {
        const char *v = json_string_value(json_object_get(e, "verdict"));
        double eff = jnum(e, "efficiency");
        if (v && strcmp(v, "divergent") == 0 && eff < worst_div)
            worst_div = eff;
    }
    json_decref(all);
    all = vpred_all(p, "shared_accesses", kernel);
    json_array_foreach(all, i, e)
    {
        double w = jnum(e, "wavefronts"), ideal = jnum(e, "ideal_wavefronts");
        if (w > 0 && ideal > 0 && w / ideal > bank)
            bank = w / ideal;
    }
    json_decref(all);
    all = vpred_all(p, "global_accesses", kernel);
    json_array_foreach(all, i, e)
    {
        double s = jnum(e, "sectors"), ideal = jnum(e, "ideal_sectors");
        if (s > 0 && ideal > 0 && s / ideal > sectors)
            sectors = s / ideal;
    }
    json_decref(all);
    json_object_set_new(out, "divergence_efficiency", json_real(worst_div));
    json_object_set_new(out, "bank_degree", json_real(bank));
    json_object_set_new(out, "sectors_over_ideal", json_real(sectors));
    const json_t *l = vpred_launch(p, kernel);
    const json_t *occ = l ? json_object_get(l, "occupancy") : NULL;
    json_object_set_new(out, "occupancy",
                        occ ? json_incref(json_object_get(occ, "occupancy")) : json_null());
    return worst_div;
}

static void build_ladders(run *x)
{
    verify_result *r = x->r;
    const vmanifest *m = &r->manifest;
    for (int gi = 0; gi < m->n_groups && r->n_ladders < 4; gi++) {
        const vgroup *g = &m->groups[gi];
        if (!g->ladder[0])
            continue;
        vladder *ld = NULL;
        for (int ri = 0; ri < r->n_rows; ri++) {
            const vrow *row = &r->rows[ri];
            if (row->vc->group != gi)
                continue;
            if (!ld) {
                ld = &r->ladders[r->n_ladders++];
                memset(ld, 0, sizeof *ld);
                snprintf(ld->name, sizeof ld->name, "%s", g->ladder);
                snprintf(ld->book, sizeof ld->book, "%s", g->book);
            }
            ld->steps = xrealloc(ld->steps, (size_t)(ld->n_steps + 1) * sizeof *ld->steps);
            vladder_step *s = &ld->steps[ld->n_steps++];
            memset(s, 0, sizeof *s);
            snprintf(s->kernel, sizeof s->kernel, "%s", row->vc->kernel);
            snprintf(s->step, sizeof s->step, "%s", row->vc->step);
            s->book_ms = row->vc->book_ms;
            s->row = ri;
            s->ms = row->measured;
            s->spread = jnum(row->detail, "spread");
            s->bytes = (double)row->vc->compulsory;
            s->flops = jnum(row->detail, "flops");
            s->pct_ceiling = jnum(row->detail, "fraction_of_measured_ceiling");
            s->predicted = json_object();
            ladder_prediction(&x->pred, s->kernel, s->predicted);
            const char *bound = json_string_value(json_object_get(row->detail, "bound"));
            json_object_set_new(s->predicted, "bound", json_string(bound ? bound : "?"));
            const char *res = json_string_value(json_object_get(row->detail, "result"));
            snprintf(s->result, sizeof s->result, "%s",
                     res ? res : (r->dry_run ? "-" : "unchecked"));
        }
        if (!ld || r->dry_run)
            continue;
        /* Where the book and this GPU disagree on the direction of a step. */
        for (int i = 1; i < ld->n_steps && ld->n_notes < 4; i++) {
            const vladder_step *a = &ld->steps[i - 1], *b = &ld->steps[i];
            if (!(a->book_ms > 0) || !(b->book_ms > 0) || isnan(a->ms) || isnan(b->ms))
                continue;
            bool book_slower = b->book_ms > a->book_ms * 1.05;
            bool here_slower = b->ms > a->ms * 1.05;
            if (book_slower == here_slower)
                continue;
            probe_launch l;
            const vcase *bc = r->rows[b->row].vc;
            int blocks = launch_of(x, bc, b->kernel, &l) ? l.grid[0] * l.grid[1] * l.grid[2] : 0;
            snprintf(ld->notes[ld->n_notes++], sizeof ld->notes[0],
                     "%s: the book has it %s than %s (%.3f against %.3f ms on its GPU); here it is "
                     "%s (%.4g against %.4g ms, %.2fx) with %d blocks, %.0f per SM",
                     b->kernel, book_slower ? "slower" : "faster", a->kernel, b->book_ms,
                     a->book_ms, here_slower ? "slower" : "faster", b->ms, a->ms, a->ms / b->ms,
                     blocks, r->sms ? (double)blocks / r->sms : 0.0);
        }
        if (strcmp(ld->name, "reduction") == 0 && ld->n_notes < 4) {
            /* The seed credits interleaved pairing with avoiding shared-memory
             * bank conflicts; its kernels (like these) reduce in global memory. */
            int shared = 0;
            for (int i = 0; i < ld->n_steps; i++) {
                json_t *s = vpred_all(&x->pred, "shared_accesses", ld->steps[i].kernel);
                if (strstr(ld->steps[i].kernel, "interleaved") ||
                    strstr(ld->steps[i].kernel, "neighbored"))
                    shared += (int)json_array_size(s);
                json_decref(s);
            }
            if (shared == 0)
                snprintf(ld->notes[ld->n_notes++], sizeof ld->notes[0],
                         "the book explains the interleaved step by shared-memory bank conflicts, "
                         "but these steps reduce in place in global memory, which has no banks "
                         "(gpulint finds no shared access in them); what changes is how many "
                         "lanes of each warp work and how many sectors each request touches");
        }
    }
}

/* ---------------------------------------------------------------- counters */

/* The selected cases before ci with the same kernel: its launch's rank
 * under Nsight Compute (the child runs the cases in this order, each
 * kernel once per case). */
static int launch_rank(const run *x, int ci, const char *kernel)
{
    const vmanifest *m = &x->r->manifest;
    int rank = 0;
    for (int i = 0; i < ci; i++)
        if (x->selected[i] && strcmp(m->cases[i].kernel, kernel) == 0)
            rank++;
        else if (x->selected[i] && m->cases[i].kind == VK_TWINS &&
                 strcmp(m->cases[i].reference, kernel) == 0)
            rank++;
    return rank;
}

/* Folds a counter into a row: the counter measures what gpulint predicts
 * (wavefronts, sectors), so it decides where timing could not, and a
 * disagreement of the counter is a disagreement of the row. */
static void counter_verdict(vrow *row, double value, const char *what)
{
    json_object_set_new(row->detail, "counter", json_real(value));
    json_object_set_new(row->detail, "counter_metric", json_string(what));
    vverdict cv = judge_count(row->predicted, value, 0.1, 0.02);
    json_object_set_new(row->detail, "counter_verdict", json_string(vverdict_name(cv)));
    if (cv == VV_DIFFERS && row->verdict != VV_DIFFERS) {
        row->verdict = VV_DIFFERS;
        snprintf(row->reason, sizeof row->reason, "the hardware counter reads %.3f, predicted %.3f",
                 value, row->predicted);
    } else if (cv == VV_AGREES && row->verdict == VV_NOT_COMPARABLE && !isnan(row->predicted)) {
        row->verdict = VV_AGREES;
        size_t len = strlen(row->reason);
        snprintf(row->reason + len, sizeof row->reason - len, "%sthe counter reads %.3f: agrees",
                 len ? "; " : "", value);
    }
}

static void counters(run *x)
{
    verify_result *r = x->r;
    const vmanifest *m = &r->manifest;
    bool any = false;
    for (int i = 0; i < m->n_cases; i++)
        any = any ||
              (x->selected[i] && m->cases[i].kind != VK_TIME && m->cases[i].kind != VK_CEILING);
    if (!any)
        return;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", x->nvcc);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    char *ncu = ncu_find(slash ? dir : NULL);
    if (!ncu) {
        snprintf(r->counters, sizeof r->counters, "unavailable");
        snprintf(r->counters_note, sizeof r->counters_note,
                 "Nsight Compute (ncu) not found; the rows are timing-only");
        return;
    }
    const char *argv[32];
    int n = 0;
    argv[n++] = x->o->self;
    argv[n++] = "verify";
    argv[n++] = "--counters";
    argv[n++] = "off";
    argv[n++] = "--check";
    argv[n++] = "occupancy,bank,coalescing,divergence";
    argv[n++] = "--format";
    argv[n++] = "json";
    argv[n++] = "--kernels";
    argv[n++] = r->kernels_dir;
    argv[n++] = "--nvcc";
    argv[n++] = x->nvcc;
    if (x->o->predictions) {
        argv[n++] = "--predictions";
        argv[n++] = x->o->predictions;
    }
    if (x->o->models_dir) {
        argv[n++] = "--models";
        argv[n++] = x->o->models_dir;
    }
    if (x->o->only) {
        argv[n++] = "--only";
        argv[n++] = x->o->only;
    }
    argv[n] = NULL;
    if (x->o->progress)
        fprintf(stderr, "verify: reading the hardware counters with %s...", ncu);
    setenv("GPULINT_VERIFY_ONCE", "1", 1);
    ncu_result nr;
    ncu_status st = ncu_run(ncu, "^(occ_|bank_|coal_|div_)", argv, &nr, r->counters_note,
                            sizeof r->counters_note);
    unsetenv("GPULINT_VERIFY_ONCE");
    if (x->o->progress)
        fprintf(stderr, "\r\033[K");
    snprintf(r->counters, sizeof r->counters, "%s",
             st == NCU_USED      ? "used"
             : st == NCU_REFUSED ? "refused"
                                 : "unavailable");
    if (st == NCU_USED) {
        snprintf(r->counters_note, sizeof r->counters_note, "%s, %d launches profiled", ncu, nr.n);
        for (int ri = 0; ri < r->n_rows; ri++) {
            vrow *row = &r->rows[ri];
            int ci = (int)(row->vc - m->cases);
            const ncu_launch *l =
                ncu_find_launch(&nr, row->kernel, launch_rank(x, ci, row->kernel));
            if (!l)
                continue;
            if (row->check == VCHECK_BANK && l->shared_loads > 0 && l->shared_wavefronts >= 0)
                counter_verdict(row, l->shared_wavefronts / l->shared_loads,
                                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld / "
                                "smsp__inst_executed_op_shared_ld");
            else if (row->check == VCHECK_COALESCING && l->global_requests > 0 &&
                     l->global_sectors >= 0)
                counter_verdict(row, l->global_sectors / l->global_requests,
                                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld / "
                                "l1tex__t_requests_pipe_lsu_mem_global_op_ld");
            else if (row->check == VCHECK_DIVERGENCE && l->threads_per_inst >= 0)
                /* Whole-kernel, so shown, not judged: the branch is one part. */
                json_object_set_new(row->detail, "counter_threads_per_instruction",
                                    json_real(l->threads_per_inst));
            else if (row->check == VCHECK_OCCUPANCY && l->achieved_occupancy_pct >= 0)
                json_object_set_new(row->detail, "counter_achieved_occupancy",
                                    json_real(l->achieved_occupancy_pct / 100.0));
        }
    }
    ncu_result_free(&nr);
    free(ncu);
}

/* ---------------------------------------------------------------- entry */

static void count(verify_result *r)
{
    r->agrees = r->differs = r->not_comparable = 0;
    for (int i = 0; i < r->n_rows; i++) {
        if (r->rows[i].verdict == VV_AGREES)
            r->agrees++;
        else if (r->rows[i].verdict == VV_DIFFERS)
            r->differs++;
        else
            r->not_comparable++;
    }
}

int verify_run(const verify_opts *o, verify_result *r)
{
    memset(r, 0, sizeof *r);
    static char errbuf[1024];
    errbuf[0] = '\0';
    run x = {.o = o, .r = r, .err = errbuf, .errlen = sizeof errbuf, .started = now()};
    r->dry_run = o->dry_run;
    snprintf(r->counters, sizeof r->counters, "%s",
             o->counters == VCOUNTERS_OFF ? "off" : "unavailable");
    const char *kdir = o->kernels_dir ? o->kernels_dir : verify_kernels_dir(o->models_dir);
    char *real = realpath(kdir, NULL);
    snprintf(r->kernels_dir, sizeof r->kernels_dir, "%s", real ? real : kdir);
    free(real);
    model_load_error le = {0};
    const char *mdir = o->models_dir ? o->models_dir : model_default_dir();
    int rc = EXIT_OK;
    if (!model_db_load(mdir, &x.db, &le)) {
        rc = fail(&x, EXIT_MODEL, "%s:%d: %s", le.path, le.err.line, le.err.message);
        goto out;
    }
    rc = load_manifest(&x, r->kernels_dir);
    if (rc != EXIT_OK)
        goto out;
    const vmanifest *m = &r->manifest;
    x.selected = xcalloc((size_t)m->n_cases + 1, sizeof *x.selected);
    bool timed = false;
    for (int i = 0; i < m->n_cases; i++) {
        if (m->cases[i].kind == VK_CEILING)
            continue;
        x.selected[i] = wanted(o, m, &m->cases[i]);
        x.n_selected += x.selected[i];
        timed = timed || (x.selected[i] && m->cases[i].kind == VK_TIME);
    }
    /* A probe is read through its group's calibration (and floor) probes:
     * they come along. */
    for (int i = 0; i < m->n_cases; i++) {
        const vcase *c = &m->cases[i];
        if (x.selected[i] || !(c->calibrate || c->floor))
            continue;
        for (int j = 0; j < m->n_cases && !x.selected[i]; j++)
            if (x.selected[j] && m->cases[j].group == c->group) {
                x.selected[i] = true;
                x.n_selected++;
            }
    }
    /* The ceilings when a roofline row reads them, or the roofline is asked
     * for as a whole. */
    bool roofline_asked = !o->only && (!o->checks || (o->checks & (1u << VCHECK_ROOFLINE)));
    for (int i = 0; x.n_selected > 0 && i < m->n_cases; i++)
        if (m->cases[i].kind == VK_CEILING && (timed || roofline_asked || o->ladder)) {
            x.selected[i] = true;
            x.n_selected++;
        }
    if (o->ladder) {
        bool found = false;
        for (int i = 0; i < m->n_groups; i++)
            found = found || strcmp(m->groups[i].ladder, o->ladder) == 0;
        if (!found) {
            rc = fail(&x, EXIT_USAGE, "no ladder named '%s' (reduction, transpose, gemm)",
                      o->ladder);
            goto out;
        }
    }
    if (x.n_selected == 0) {
        rc = fail(&x, EXIT_USAGE, "nothing to verify: --only and --check select no kernel");
        goto out;
    }
    rc = choose_target(&x);
    if (rc != EXIT_OK)
        goto out;
    rc = build(&x);
    if (rc != EXIT_OK)
        goto out;
    rc = predict(&x);
    if (rc != EXIT_OK)
        goto out;
    spec_ceilings(&x);
    x.raw = xcalloc((size_t)m->n_cases + 1, sizeof *x.raw);
    x.raw2 = xcalloc((size_t)m->n_cases + 1, sizeof *x.raw2);
    x.spread = xcalloc((size_t)m->n_cases + 1, sizeof *x.spread);
    x.why = xcalloc((size_t)m->n_cases + 1, sizeof *x.why);
    x.extra = xcalloc((size_t)m->n_cases + 1, sizeof *x.extra);
    if (!o->dry_run) {
        double t0 = now();
        char err[GPURT_ERR_MAX];
        if (!gpurt_open(0, err, sizeof err)) {
            rc = fail(&x, EXIT_NO_DEVICE, "%s", err);
            goto out;
        }
        /* Ceilings first: the roofline rows and ladders read them. */
        bool usable = true;
        for (int gi = 0; gi < m->n_groups && usable; gi++)
            if (strcmp(m->groups[gi].name, "ceilings") == 0)
                usable = run_group(&x, gi);
        for (int gi = 0; gi < m->n_groups && usable; gi++)
            if (strcmp(m->groups[gi].name, "ceilings") != 0)
                usable = run_group(&x, gi);
        if (!usable)
            fprintf(stderr, "gpulint: warning: a kernel fault left the GPU context unusable; "
                            "the remaining kernels were not run\n");
        gpurt_close();
        r->run_seconds = now() - t0;
    }
    for (int i = 0; i < m->n_cases; i++) {
        if (!x.selected[i])
            continue;
        switch (m->cases[i].kind) {
        case VK_RESIDENCY:
            judge_occupancy(&x, i);
            break;
        case VK_CYCLES:
            judge_bank(&x, i);
            break;
        case VK_SECTORS:
            judge_coalescing(&x, i);
            break;
        case VK_LANES:
        case VK_TWINS:
            judge_divergence(&x, i);
            break;
        case VK_CEILING:
            judge_ceiling(&x, i);
            break;
        case VK_TIME:
            break;
        }
    }
    /* After the ceilings are known. */
    for (int i = 0; i < m->n_cases; i++)
        if (x.selected[i] && m->cases[i].kind == VK_TIME)
            judge_time(&x, i);
    if (!o->dry_run && o->counters != VCOUNTERS_OFF && !once()) {
        counters(&x);
        if (o->counters == VCOUNTERS_ON && strcmp(r->counters, "used") != 0) {
            rc = fail(&x, EXIT_TOOL, "--counters on: %s", r->counters_note);
            goto out;
        }
    }
    build_ladders(&x);
    count(r);
    rc = r->differs ? EXIT_CHECK_FAILED : EXIT_OK;
out:
    r->seconds = now() - x.started;
    if (rc != EXIT_OK && rc != EXIT_CHECK_FAILED && errbuf[0])
        fprintf(stderr, "gpulint: error: %s\n", errbuf);
    for (int i = 0; i < x.n_units; i++) {
        kbuild_unit_free(&x.units[i].build);
        ptxas_log_free(&x.units[i].ptx);
    }
    free(x.units);
    if (x.why)
        for (int i = 0; i < r->manifest.n_cases; i++) {
            free(x.why[i]);
            json_decref(x.extra[i]);
        }
    free(x.why);
    free(x.extra);
    free(x.raw);
    free(x.raw2);
    free(x.spread);
    free(x.selected);
    if (x.pred.report)
        vpred_free(&x.pred);
    model_db_free(&x.db);
    return rc;
}

void verify_result_free(verify_result *r)
{
    for (int i = 0; i < r->n_rows; i++)
        json_decref(r->rows[i].detail);
    free(r->rows);
    for (int i = 0; i < r->n_ladders; i++) {
        for (int s = 0; s < r->ladders[i].n_steps; s++)
            json_decref(r->ladders[i].steps[s].predicted);
        free(r->ladders[i].steps);
    }
    vman_free(&r->manifest);
    memset(r, 0, sizeof *r);
}
