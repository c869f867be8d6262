/* web_models: the compiled-in models, filled through model.c's filler. */
#include "web/web_models.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool load_one(const web_model_file *f, web_models *m, char *err, size_t n)
{
    model_filler filler;
    if (f->product) {
        if (m->n_products >= WEB_MAX_MODELS) {
            snprintf(err, n, "%s: more than %d products", f->path, WEB_MAX_MODELS);
            return false;
        }
        model_filler_product(&filler, &m->products[m->n_products]);
    } else {
        if (m->n_archs >= WEB_MAX_MODELS) {
            snprintf(err, n, "%s: more than %d architectures", f->path, WEB_MAX_MODELS);
            return false;
        }
        model_filler_arch(&filler, &m->archs[m->n_archs]);
    }
    char msg[MODEL_ERR_MAX];
    for (size_t i = 0; i < f->n_entries; i++) {
        const web_model_entry *e = &f->entries[i];
        if (!model_filler_add(&filler, e->section, e->key, e->value, msg, sizeof msg)) {
            snprintf(err, n, "%s: %s", f->path, msg);
            return false;
        }
    }
    model_error me;
    if (!model_filler_finish(&filler, &me)) {
        snprintf(err, n, "%s: %s", f->path, me.message);
        return false;
    }
    if (f->product)
        m->n_products++;
    else
        m->n_archs++;
    return true;
}

/* Ascending compute capability, as model_load lists them (and as the
 * command line's "known:" lists read). */
static int by_cc(const void *a, const void *b)
{
    const gpu_arch *x = a, *y = b;
    int kx = x->cc_major * 10 + x->cc_minor, ky = y->cc_major * 10 + y->cc_minor;
    return (kx > ky) - (kx < ky);
}

bool web_models_load(web_models *m, char *err, size_t n)
{
    m->n_archs = m->n_products = 0;
    for (size_t i = 0; i < web_n_model_files; i++)
        if (!load_one(&web_model_files[i], m, err, n))
            return false;
    qsort(m->archs, m->n_archs, sizeof m->archs[0], by_cc);
    /* A product names its arch; the command line refuses one that names none. */
    for (size_t i = 0; i < m->n_products; i++)
        if (!web_models_arch(m, m->products[i].arch)) {
            snprintf(err, n, "gpu/%s.ini: unknown arch '%s'", m->products[i].id,
                     m->products[i].arch);
            return false;
        }
    return true;
}

const gpu_arch *web_models_arch(const web_models *m, const char *name)
{
    for (size_t i = 0; i < m->n_archs; i++)
        if (strcmp(m->archs[i].name, name) == 0)
            return &m->archs[i];
    return NULL;
}

const gpu_product *web_models_product(const web_models *m, const char *id)
{
    for (size_t i = 0; i < m->n_products; i++)
        if (strcasecmp(m->products[i].id, id) == 0)
            return &m->products[i];
    return NULL;
}
