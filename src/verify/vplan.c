/* vplan: what a verify run does before anything runs: the manifest read,
 * the cases selected (with the calibration probes and ceilings they need),
 * the target chosen (the GPU, or a model for a dry run), the kernels built
 * and gpulint's predictions made or read. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "config.h"
#include "input/devquery.h"
#include "input/nvcc.h"
#include "target/target.h"
#include "util/exitcode.h"
#include "util/fileio.h"
#include "util/sbuf.h"
#include "verify/vrun.h"

#define TEXT_MAX (4u << 20)

static bool wanted(const verify_opts *o, const vmanifest *m, const vcase *c)
{
    const vgroup *g = &m->groups[c->group];
    if (c->kind == VK_TIMING)
        return o->calibrate;
    if (o->ladder)
        return strcmp(g->ladder, o->ladder) == 0;
    /* The time rows come from the roofline kernels' runs. */
    unsigned mask = o->checks & (1u << VCHECK_TIME) ? o->checks | 1u << VCHECK_ROOFLINE : o->checks;
    if (mask && !(mask & (1u << g->check)))
        return false;
    if (o->only && fnmatch(o->only, c->kernel, 0) != 0)
        return false;
    return true;
}

int vplan_manifest(vrun *x, const char *dir)
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
        int rc = vrun_fail(x, EXIT_INPUT,
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
            int rc = vrun_fail(x, EXIT_INPUT, "%s: %s", sbuf_str(&p), fileio_status_text(st));
            sbuf_free(&p);
            return rc;
        }
        ok = vman_parse(text, len, m, &e);
        free(text);
        sbuf_free(&p);
    }
    if (!ok)
        return vrun_fail(x, EXIT_INPUT, "%s/%s:%d: %s", dir, e.file, e.line, e.message);
    return EXIT_OK;
}

int vplan_select(vrun *x)
{
    const verify_opts *o = x->o;
    const vmanifest *m = &x->r->manifest;
    x->selected = xcalloc((size_t)m->n_cases + 1, sizeof *x->selected);
    bool timed = false;
    for (int i = 0; i < m->n_cases; i++) {
        if (m->cases[i].kind == VK_CEILING)
            continue;
        x->selected[i] = wanted(o, m, &m->cases[i]);
        x->n_selected += x->selected[i];
        timed = timed || (x->selected[i] && m->cases[i].kind == VK_TIME);
    }
    /* A probe is read through its group's calibration (and floor) probes:
     * they come along. */
    for (int i = 0; i < m->n_cases; i++) {
        const vcase *c = &m->cases[i];
        if (x->selected[i] || !(c->calibrate || c->floor))
            continue;
        for (int j = 0; j < m->n_cases && !x->selected[i]; j++)
            if (x->selected[j] && m->cases[j].group == c->group) {
                x->selected[i] = true;
                x->n_selected++;
            }
    }
    /* The ceilings when a roofline row reads them, or the roofline is asked
     * for as a whole. */
    bool roofline_asked =
        !o->only && (!o->checks || (o->checks & (1u << VCHECK_ROOFLINE | 1u << VCHECK_TIME)));
    for (int i = 0; x->n_selected > 0 && i < m->n_cases; i++)
        if (m->cases[i].kind == VK_CEILING && (timed || roofline_asked || o->ladder)) {
            x->selected[i] = true;
            x->n_selected++;
        }
    if (o->ladder) {
        bool found = false;
        for (int i = 0; i < m->n_groups; i++)
            found = found || strcmp(m->groups[i].ladder, o->ladder) == 0;
        if (!found)
            return vrun_fail(x, EXIT_USAGE, "no ladder named '%s' (reduction, transpose, gemm)",
                             o->ladder);
    }
    if (x->n_selected == 0)
        return vrun_fail(x, EXIT_USAGE, "nothing to verify: --only and --check select no kernel");
    return EXIT_OK;
}

static const gpu_arch *base_for_cc(int major, int minor, void *ctx)
{
    return model_find_cc(ctx, major, minor);
}

int vplan_target(vrun *x)
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
            return vrun_fail(
                x, EXIT_NO_DEVICE,
                "no GPU to verify on: %s (gpulint verify --dry-run shows what would run)", msg);
        return vrun_fail(x, EXIT_NO_DEVICE,
                         "no GPU to verify on: %s (gpulint verify --dry-run shows what would run)",
                         use_device ? msg : "GPULINT_NO_DEVICE is set");
    } else {
        /* A dry run without a GPU: the given product (a bundled one, or a
         * product file: a card's own measured constants), or arch, or the
         * default product. */
        gpu_product from_file;
        const gpu_product *p = NULL;
        if (x->o->gpu && target_is_product_file(x->o->gpu)) {
            int rc = target_product_file(&x->db, x->o->gpu, &from_file);
            if (rc != EXIT_OK)
                return rc; /* target_product_file said why */
            p = &from_file;
            x->product_file = x->o->gpu;
        } else {
            p = model_find_product(&x->db, x->o->gpu ? x->o->gpu : "h100-sxm");
        }
        if (x->o->gpu && !p)
            return vrun_fail(x, EXIT_MODEL, "unknown GPU '%s' ('gpulint models' lists them)",
                             x->o->gpu);
        const gpu_arch *a = x->o->arch ? model_find_arch(&x->db, x->o->arch)
                                       : (p ? model_find_arch(&x->db, p->arch) : NULL);
        if (!a)
            return vrun_fail(x, EXIT_MODEL, "unknown architecture '%s'",
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

int vplan_build(vrun *x)
{
    verify_result *r = x->r;
    const vmanifest *m = &r->manifest;
    char msg[512];
    char *nvcc = x->nvcc;
    if (!nvcc_find(x->o->nvcc, nvcc, sizeof x->nvcc, msg, sizeof msg))
        return vrun_fail(x, EXIT_TOOL, "%s", msg);
    /* The files the selected cases need, once each. */
    x->units = xcalloc((size_t)m->n_groups, sizeof *x->units);
    for (int i = 0; i < m->n_cases; i++) {
        if (!x->selected[i])
            continue;
        const vgroup *g = &m->groups[m->cases[i].group];
        unit_info *u = vrun_unit_for(x, g->file);
        if (!u) {
            u = &x->units[x->n_units++];
            u->file = g->file;
            u->build.file = g->file;
            u->build.extra = g->nvcc;
        } else if (strcmp(u->build.extra, g->nvcc) != 0) {
            return vrun_fail(x, EXIT_INPUT,
                             "%s: groups that share it give different nvcc arguments", g->file);
        }
    }
    kbuild_unit *units = xcalloc((size_t)x->n_units + 1, sizeof *units);
    for (int i = 0; i < x->n_units; i++)
        units[i] = x->units[i].build;
    kbuild kb;
    char *failed_log = NULL;
    double t0 = vrun_now();
    if (x->o->progress)
        fprintf(stderr, "verify: building %d kernel files for %s...", x->n_units, x->arch.name);
    kbuild_status st = kbuild_run(nvcc, r->kernels_dir, x->arch.name, x->o->jobs, units, x->n_units,
                                  &kb, &failed_log, msg, sizeof msg);
    if (x->o->progress)
        fprintf(stderr, "\r\033[K");
    r->build_seconds = vrun_now() - t0;
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
        rc = vrun_fail(x,
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
static void check_staleness(vrun *x)
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

int vplan_predict(vrun *x)
{
    verify_result *r = x->r;
    char msg[512];
    if (x->o->predictions) {
        if (!vpred_load(x->o->predictions, x->arch.name, &x->pred, msg, sizeof msg))
            return vrun_fail(x, EXIT_INPUT, "%s", msg);
    } else if (!GPULINT_HAVE_LIBCLANG) {
        vpred_none(&x->pred,
                   "this gpulint was built without libclang, so it cannot predict the bank, "
                   "coalescing, divergence and roofline rows from the source; make the "
                   "predictions where libclang is ('gpulint kernels/*.cu --gpu MODEL --format "
                   "json > predictions.json') and pass --predictions predictions.json");
    } else {
        kbuild_unit *units = xcalloc((size_t)x->n_units + 1, sizeof *units);
        for (int i = 0; i < x->n_units; i++)
            units[i] = x->units[i].build;
        bool ok = vpred_run(x->o->self, units, x->n_units, x->arch.name,
                            x->have_product ? r->product_id : NULL, x->product_file, x->o->jobs,
                            &x->pred, msg, sizeof msg);
        free(units);
        if (!ok)
            return vrun_fail(x, EXIT_TOOL, "%s", msg);
    }
    if (x->o->predictions)
        check_staleness(x);
    snprintf(r->predictions, sizeof r->predictions, "%s",
             x->pred.origin[0] ? x->pred.origin : "none");
    snprintf(r->predictions_note, sizeof r->predictions_note, "%s", x->pred.why_none);
    return EXIT_OK;
}
