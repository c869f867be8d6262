/* target: resolve the GPU a command reasons about. */
#include "target/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/devquery.h"
#include "util/diag.h"
#include "util/exitcode.h"
#include "util/sbuf.h"

int target_load_db(const char *models_dir, model_db *db)
{
    model_load_error err = {0};
    const char *dir = models_dir ? models_dir : model_default_dir();
    if (model_db_load(dir, db, &err)) {
        return EXIT_OK;
    }
    model_db_free(db);
    if (err.err.line > 0)
        return diag_error(EXIT_MODEL, "%s:%d: %s", err.path, err.err.line, err.err.message);
    return diag_error(EXIT_MODEL, "%s: %s", err.path, err.err.message);
}

static void list_names(sbuf *b, const model_db *db, bool products)
{
    size_t n = products ? db->n_products : db->n_archs;
    for (size_t i = 0; i < n; i++)
        sbuf_addf(b, "%s%s", i ? ", " : "", products ? db->products[i].id : db->archs[i].name);
}

static void set_product_target(target *t, const gpu_arch *a, const gpu_product *p,
                               const char *origin)
{
    memset(t, 0, sizeof *t);
    t->arch = *a;
    t->product = *p;
    t->has_product = true;
    t->origin = origin;
    snprintf(t->label, sizeof t->label, "%s (%s)", a->name, p->name);
}

static const gpu_arch *base_for_cc(int major, int minor, void *ctx)
{
    return model_find_cc(ctx, major, minor);
}

/* The local GPU, unless GPULINT_NO_DEVICE is set (tests want the default). */
static bool local_target(model_db *db, target *t)
{
    const char *skip = getenv("GPULINT_NO_DEVICE");
    if (skip && *skip && strcmp(skip, "0") != 0)
        return false;
    devquery_device d;
    int n = 0;
    char msg[256];
    if (devquery_all(&d, 1, &n, base_for_cc, db, msg, sizeof msg) != DEVQ_OK || n == 0)
        return false;
    if (!model_find_cc(db, d.arch.cc_major, d.arch.cc_minor))
        diag_warn("no bundled model for compute capability %d.%d; allocation rules are assumed",
                  d.arch.cc_major, d.arch.cc_minor);
    /* cudaDeviceProp has no throughput per SM: the bundled product this card
     * is lends it, at the card's own clocks. */
    const gpu_product *twin = model_find_twin(db, d.product.name, d.arch.name, d.product.sm_count);
    gpu_product p = twin ? model_twin_at_device(twin, &d.product) : d.product;
    if (twin)
        snprintf(p.name, sizeof p.name, "%s", d.product.name);
    set_product_target(t, &d.arch, &p, "local GPU");
    return true;
}

static int resolve_machine(const target_request *o, target *t)
{
    memset(t, 0, sizeof *t);
    model_error err = {0};
    if (strchr(o->machine, '=')) {
        if (!model_parse_machine_spec(o->machine, &t->arch, &err))
            return diag_error(EXIT_MODEL, "%s", err.message);
    } else {
        model_load_error lerr = {0};
        if (!model_load_arch_file(o->machine, &t->arch, &lerr)) {
            if (lerr.err.line > 0)
                return diag_error(EXIT_MODEL, "%s:%d: %s", lerr.path, lerr.err.line,
                                  lerr.err.message);
            return diag_error(EXIT_MODEL, "%s: %s", lerr.path, lerr.err.message);
        }
    }
    t->origin = "--machine";
    snprintf(t->label, sizeof t->label, "%s (hypothetical)", t->arch.name);
    return EXIT_OK;
}

bool target_is_product_file(const char *gpu)
{
    return strchr(gpu, '/') || strstr(gpu, ".ini");
}

int target_product_file(const model_db *db, const char *path, gpu_product *out)
{
    model_load_error lerr = {0};
    if (!model_load_product_file(path, out, &lerr)) {
        if (lerr.err.line > 0)
            return diag_error(EXIT_MODEL, "%s:%d: %s", lerr.path, lerr.err.line, lerr.err.message);
        return diag_error(EXIT_MODEL, "%s: %s", lerr.path, lerr.err.message);
    }
    if (!model_find_arch(db, out->arch))
        return diag_error(EXIT_MODEL, "%s: no bundled model for its arch '%s'", path, out->arch);
    return EXIT_OK;
}

static int resolve(const target_request *o, model_db *db, target *out, int max, int *n);

/* On failure the database is freed here, so callers just return. */
int target_resolve(const target_request *o, model_db *db, target *out, int max, int *n)
{
    memset(db, 0, sizeof *db);
    int rc = resolve(o, db, out, max, n);
    if (rc != EXIT_OK)
        model_db_free(db);
    return rc;
}

static int resolve(const target_request *o, model_db *db, target *out, int max, int *n)
{
    *n = 0;
    int given = (o->n_archs > 0) + (o->gpu != NULL) + (o->machine != NULL);
    if (given > 1)
        return diag_error(EXIT_USAGE, "give only one of --arch, --gpu and --machine");
    int rc = target_load_db(o->models_dir, db);
    if (rc != EXIT_OK)
        return rc;
    if (o->machine) {
        rc = resolve_machine(o, &out[0]);
        if (rc == EXIT_OK)
            *n = 1;
        return rc;
    }
    if (o->n_archs > 0) {
        for (int i = 0; i < o->n_archs && *n < max; i++) {
            const gpu_arch *a = model_find_arch(db, o->archs[i]);
            if (!a) {
                sbuf b;
                sbuf_init(&b);
                list_names(&b, db, false);
                rc = diag_error(EXIT_MODEL, "unknown architecture '%s' (known: %s)", o->archs[i],
                                sbuf_str(&b));
                sbuf_free(&b);
                return rc;
            }
            target *t = &out[(*n)++];
            memset(t, 0, sizeof *t);
            t->arch = *a;
            t->origin = "--arch";
            snprintf(t->label, sizeof t->label, "%s (%s)", a->name, a->family);
            /* "sm_90a", "90a", "100f": the same model, compiled for the
             * arch-specific features the suffix names. */
            size_t len = strlen(o->archs[i]);
            char last = len ? o->archs[i][len - 1] : '\0';
            if (last == 'a' || last == 'f' || last == 'A' || last == 'F')
                snprintf(t->compile_arch, sizeof t->compile_arch, "%s%c", a->name, last | 0x20);
        }
        return EXIT_OK;
    }
    if (o->gpu && target_is_product_file(o->gpu)) {
        gpu_product p;
        rc = target_product_file(db, o->gpu, &p);
        if (rc != EXIT_OK)
            return rc;
        set_product_target(&out[0], model_find_arch(db, p.arch), &p, "--gpu");
        *n = 1;
        return EXIT_OK;
    }
    if (o->gpu) {
        const gpu_product *p = model_find_product(db, o->gpu);
        if (!p) {
            sbuf b;
            sbuf_init(&b);
            list_names(&b, db, true);
            rc = diag_error(EXIT_MODEL, "unknown GPU '%s' (known: %s)", o->gpu, sbuf_str(&b));
            sbuf_free(&b);
            return rc;
        }
        set_product_target(&out[0], model_find_arch(db, p->arch), p, "--gpu");
        *n = 1;
        return EXIT_OK;
    }
    if (local_target(db, &out[0])) {
        *n = 1;
        return EXIT_OK;
    }
    const gpu_product *p = model_find_product(db, TARGET_DEFAULT_GPU);
    if (!p)
        return diag_error(EXIT_MODEL, "the default GPU model '%s' is missing from %s",
                          TARGET_DEFAULT_GPU, db->dir);
    set_product_target(&out[0], model_find_arch(db, p->arch), p, "default");
    *n = 1;
    return EXIT_OK;
}
