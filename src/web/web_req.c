/* web_req: the web page's requests and the readers of their values. */
#include "web/web_req.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

bool web_refuse(web_err *e, const char *option, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    e->option = option;
    return false;
}

bool web_req_parse(const char *request, web_req *r, web_err *e)
{
    r->text = xstrdup(request);
    r->n = 0;
    for (char *save = NULL, *item = strtok_r(r->text, "&", &save); item;
         item = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(item, '=');
        if (!eq)
            return web_refuse(e, NULL, "malformed request item '%s' (expected key=value)", item);
        *eq = '\0';
        for (int i = 0; i < r->n; i++)
            if (strcmp(r->key[i], item) == 0)
                return web_refuse(e, item, "--%s is given twice", item);
        if (r->n == REQ_MAX)
            return web_refuse(e, NULL, "more than %d request items", REQ_MAX);
        r->key[r->n] = item;
        r->val[r->n++] = eq + 1;
    }
    return true;
}

void web_req_free(web_req *r)
{
    free(r->text);
    for (int i = 0; i < r->n_joined; i++)
        free(r->joined[i]);
    r->text = NULL;
    r->n_joined = 0;
}

bool web_req_join(web_req *r, int i, const char *more)
{
    if (r->n_joined == REQ_MAX)
        return false;
    size_t a = strlen(r->val[i]), b = strlen(more);
    char *j = xmalloc(a + b + 2);
    memcpy(j, r->val[i], a);
    j[a] = ',';
    memcpy(j + a + 1, more, b + 1);
    r->joined[r->n_joined++] = j;
    r->val[i] = j;
    return true;
}

/* The value of key, NULL when absent; an empty value counts as absent, as
 * an empty field on the page does. */
const char *web_req_get(const web_req *r, const char *key)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->key[i], key) == 0)
            return *r->val[i] ? r->val[i] : NULL;
    return NULL;
}

bool web_req_known(const web_req *r, const char *const *known, web_err *e)
{
    for (int i = 0; i < r->n; i++) {
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++)
            ok = strcmp(*k, r->key[i]) == 0;
        if (!ok)
            return web_refuse(e, r->key[i], "unknown option '--%s'", r->key[i]);
    }
    return true;
}

/* Numbers as opt.c reads them, with its words. */
bool web_get_int(const web_req *r, const char *key, int *out, bool *seen, web_err *e)
{
    const char *v = web_req_get(r, key);
    if (seen)
        *seen = v != NULL;
    if (v && !units_parse_int(v, out))
        return web_refuse(e, key, "invalid value '%s' for --%s: expected a non-negative integer", v,
                          key);
    return true;
}

bool web_get_bytes(const web_req *r, const char *key, int64_t *out, bool *seen, web_err *e)
{
    const char *v = web_req_get(r, key);
    if (seen)
        *seen = v != NULL;
    if (v && !units_parse_bytes(v, out))
        return web_refuse(
            e, key, "invalid value '%s' for --%s: expected a size in bytes such as 4096 or 48K", v,
            key);
    return true;
}

bool web_get_percent(const web_req *r, const char *key, double *out, bool *seen, web_err *e)
{
    const char *v = web_req_get(r, key);
    *seen = v != NULL;
    if (v && !units_parse_percent(v, out))
        return web_refuse(
            e, key, "invalid value '%s' for --%s: expected a percentage between 0 and 100", v, key);
    return true;
}

bool web_get_si(const web_req *r, const char *key, double *out, bool *seen, web_err *e)
{
    const char *v = web_req_get(r, key);
    *seen = v != NULL;
    if (v && !units_parse_si(v, out))
        return web_refuse(e, key,
                          "invalid value '%s' for --%s: expected a non-negative number, optionally "
                          "with K/M/G/T/P",
                          v, key);
    return true;
}

/* explain=yes (from --explain): the text is the worked steps. */
bool web_get_flag(const web_req *r, const char *key, bool *out, web_err *e)
{
    const char *v = web_req_get(r, key);
    *out = v && strcmp(v, "yes") == 0;
    if (v && !*out && strcmp(v, "no") != 0)
        return web_refuse(e, key, "%s takes yes or no, got '%s'", key, v);
    return true;
}

bool web_get_list(const web_req *r, const char *key, web_list *l, web_err *e)
{
    const char *v = web_req_get(r, key);
    l->buf = NULL;
    l->n = 0;
    if (!v)
        return true;
    l->buf = xstrdup(v);
    for (char *p = l->buf;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (!*p || l->n == WEB_LIST_MAX)
            return web_refuse(e, key, "invalid value '%s' for --%s: expected %s", v, key,
                              *p ? "fewer values" : "non-empty comma-separated values");
        l->v[l->n++] = p;
        if (!comma)
            return true;
        p = comma + 1;
    }
}

void web_list_free(web_list *l)
{
    free(l->buf);
    l->buf = NULL;
    l->n = 0;
}

bool web_get_dim3(const web_req *r, const char *key, const char *dflt, int64_t out[3], web_err *e)
{
    const char *v = web_req_get(r, key);
    int d[3];
    if (!v)
        v = dflt;
    if (!v)
        return web_refuse(e, key, "--%s XxYxZ is required", key);
    if (!units_parse_dim3(v, d))
        return web_refuse(e, key, "invalid --%s '%s': expected N, XxY or XxYxZ", key, v);
    for (int i = 0; i < 3; i++)
        out[i] = d[i];
    return true;
}

bool web_text_format(const web_req *r, web_err *e)
{
    const char *format = web_req_get(r, "format");
    if (format && strcmp(format, "text") != 0)
        return web_refuse(e, "format", "the page answers in text and JSON at once; got --format %s",
                          format);
    return true;
}

static void known_list(char *buf, size_t n, const web_models *m, bool products)
{
    size_t used = 0, count = products ? m->n_products : m->n_archs;
    buf[0] = '\0';
    for (size_t i = 0; i < count && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "",
                                 products ? m->products[i].id : m->archs[i].name);
}

/* --gpu, --arch or --machine (the default GPU when none), as the command
 * line resolves them. */
bool web_resolve_target(const web_api *api, const web_req *r, gpu_arch *arch, char *label, size_t n,
                        web_err *e)
{
    const char *gpu = web_req_get(r, "gpu"), *name = web_req_get(r, "arch"),
               *machine = web_req_get(r, "machine");
    if ((gpu != NULL) + (name != NULL) + (machine != NULL) > 1)
        return web_refuse(e, gpu ? "gpu" : "arch", "give only one of --arch, --gpu and --machine");
    char known[1024];
    if (machine) {
        model_error me;
        if (!model_parse_machine_spec(machine, arch, &me))
            return web_refuse(e, "machine", "%s", me.message);
        snprintf(label, n, "%s (hypothetical)", arch->name);
        return true;
    }
    if (name) {
        const gpu_arch *a = web_models_arch(api->models, name);
        if (!a) {
            known_list(known, sizeof known, api->models, false);
            return web_refuse(e, "arch", "unknown architecture '%s' (known: %s)", name, known);
        }
        *arch = *a;
        snprintf(label, n, "%s (%s)", a->name, a->family);
        return true;
    }
    const gpu_product *p = web_models_product(api->models, gpu ? gpu : DEFAULT_GPU);
    if (!p) {
        known_list(known, sizeof known, api->models, true);
        return web_refuse(e, "gpu", "unknown GPU '%s' (known: %s)", gpu, known);
    }
    *arch = *web_models_arch(api->models, p->arch);
    snprintf(label, n, "%s (%s)", p->arch, p->name);
    return true;
}

const gpu_product *web_target_product(const web_api *api, const web_req *r)
{
    if (web_req_get(r, "arch") || web_req_get(r, "machine"))
        return NULL;
    const char *gpu = web_req_get(r, "gpu");
    return web_models_product(api->models, gpu ? gpu : DEFAULT_GPU);
}

const gpu_product *web_find_product(const web_api *api, const char *id, web_err *e)
{
    const gpu_product *p = web_models_product(api->models, id);
    if (!p) {
        char known[1024];
        known_list(known, sizeof known, api->models, true);
        web_refuse(e, "gpu", "unknown GPU '%s' (known: %s)", id, known);
    }
    return p;
}
