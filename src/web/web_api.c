/* web_api: requests from the web page to the analyses, answers as JSON. */
#include "web/web_api.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/littlelaw.h"
#include "analysis/occ.h"
#include "analysis/occ_curves.h"
#include "analysis/occ_explain.h"
#include "util/units.h"
#include "web/web_exercises.h"
#include "web/web_json.h"
#include "web/web_words.h"

#define REQ_MAX 32
#define DEFAULT_GPU "h100-sxm" /* the command line's default target */

typedef struct web_req {
    char *text;
    const char *key[REQ_MAX], *val[REQ_MAX];
    int n;
} web_req;

/* A refusal: the message as the command line words it, and the option at
 * fault so that the page can show it beside its field. */
typedef struct web_err {
    char message[512];
    const char *option;
} web_err;

static bool refuse(web_err *e, const char *option, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool refuse(web_err *e, const char *option, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    e->option = option;
    return false;
}

static bool req_parse(const char *request, web_req *r, web_err *e)
{
    r->text = xstrdup(request);
    r->n = 0;
    for (char *save = NULL, *item = strtok_r(r->text, "&", &save); item;
         item = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(item, '=');
        if (!eq)
            return refuse(e, NULL, "malformed request item '%s' (expected key=value)", item);
        *eq = '\0';
        for (int i = 0; i < r->n; i++)
            if (strcmp(r->key[i], item) == 0)
                return refuse(e, item, "--%s is given twice", item);
        if (r->n == REQ_MAX)
            return refuse(e, NULL, "more than %d request items", REQ_MAX);
        r->key[r->n] = item;
        r->val[r->n++] = eq + 1;
    }
    return true;
}

/* The value of key, NULL when absent; an empty value counts as absent, as
 * an empty field on the page does. */
static const char *req_get(const web_req *r, const char *key)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->key[i], key) == 0)
            return *r->val[i] ? r->val[i] : NULL;
    return NULL;
}

static bool req_known(const web_req *r, const char *const *known, web_err *e)
{
    for (int i = 0; i < r->n; i++) {
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++)
            ok = strcmp(*k, r->key[i]) == 0;
        if (!ok)
            return refuse(e, r->key[i], "unknown option '--%s'", r->key[i]);
    }
    return true;
}

/* Numbers as opt.c reads them, with its words. */
static bool get_int(const web_req *r, const char *key, int *out, bool *seen, web_err *e)
{
    const char *v = req_get(r, key);
    if (seen)
        *seen = v != NULL;
    if (v && !units_parse_int(v, out))
        return refuse(e, key, "invalid value '%s' for --%s: expected a non-negative integer", v,
                      key);
    return true;
}

static bool get_bytes(const web_req *r, const char *key, int64_t *out, bool *seen, web_err *e)
{
    const char *v = req_get(r, key);
    if (seen)
        *seen = v != NULL;
    if (v && !units_parse_bytes(v, out))
        return refuse(e, key,
                      "invalid value '%s' for --%s: expected a size in bytes such as 4096 or 48K",
                      v, key);
    return true;
}

static bool get_percent(const web_req *r, const char *key, double *out, bool *seen, web_err *e)
{
    const char *v = req_get(r, key);
    *seen = v != NULL;
    if (v && !units_parse_percent(v, out))
        return refuse(
            e, key, "invalid value '%s' for --%s: expected a percentage between 0 and 100", v, key);
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
static bool resolve_target(const web_api *api, const web_req *r, gpu_arch *arch, char *label,
                           size_t n, web_err *e)
{
    const char *gpu = req_get(r, "gpu"), *name = req_get(r, "arch"),
               *machine = req_get(r, "machine");
    if ((gpu != NULL) + (name != NULL) + (machine != NULL) > 1)
        return refuse(e, gpu ? "gpu" : "arch", "give only one of --arch, --gpu and --machine");
    char known[1024];
    if (machine) {
        model_error me;
        if (!model_parse_machine_spec(machine, arch, &me))
            return refuse(e, "machine", "%s", me.message);
        snprintf(label, n, "%s (hypothetical)", arch->name);
        return true;
    }
    if (name) {
        const gpu_arch *a = web_models_arch(api->models, name);
        if (!a) {
            known_list(known, sizeof known, api->models, false);
            return refuse(e, "arch", "unknown architecture '%s' (known: %s)", name, known);
        }
        *arch = *a;
        snprintf(label, n, "%s (%s)", a->name, a->family);
        return true;
    }
    const gpu_product *p = web_models_product(api->models, gpu ? gpu : DEFAULT_GPU);
    if (!p) {
        known_list(known, sizeof known, api->models, true);
        return refuse(e, "gpu", "unknown GPU '%s' (known: %s)", gpu, known);
    }
    *arch = *web_models_arch(api->models, p->arch);
    snprintf(label, n, "%s (%s)", p->arch, p->name);
    return true;
}

static void json_models(web_api *api)
{
    sbuf *o = &api->out;
    const web_models *m = api->models;
    sbuf_add(o, "{\"archs\":[");
    for (size_t i = 0; i < m->n_archs; i++) {
        const gpu_arch *a = &m->archs[i];
        sbuf_add(o, i ? ",{\"name\":" : "{\"name\":");
        wj_str(o, a->name);
        sbuf_add(o, ",\"family\":");
        wj_str(o, a->family);
        sbuf_addf(o, ",\"cc\":\"%d.%d\"}", a->cc_major, a->cc_minor);
    }
    sbuf_add(o, "],\"products\":[");
    for (size_t i = 0; i < m->n_products; i++) {
        const gpu_product *p = &m->products[i];
        sbuf_add(o, i ? ",{\"id\":" : "{\"id\":");
        wj_str(o, p->id);
        sbuf_add(o, ",\"name\":");
        wj_str(o, p->name);
        sbuf_add(o, ",\"arch\":");
        wj_str(o, p->arch);
        sbuf_addc(o, '}');
    }
    sbuf_add(o, "],\"default_gpu\":\"" DEFAULT_GPU "\"}");
}

static void json_limit(sbuf *o, const char *key, int v, int *count)
{
    wj_key(o, key, count);
    if (v == OCC_UNLIMITED)
        sbuf_add(o, "null");
    else
        wj_int(o, v);
}

/* The fields of `gpulint occupancy --format json`, under the same names. */
static void json_occ_contract(sbuf *o, const occ_kernel *k, const occ_launch *l,
                              const occ_result *r, int *c)
{
    wj_key(o, "threads_per_block", c);
    wj_int(o, l->threads_per_block);
    wj_key(o, "registers_per_thread", c);
    wj_int(o, k->regs_per_thread);
    wj_key(o, "static_smem", c);
    wj_int(o, k->static_smem);
    wj_key(o, "dynamic_smem", c);
    wj_int(o, l->dynamic_smem);
    wj_key(o, "barriers", c);
    wj_int(o, k->barriers);
    wj_key(o, "carveout_percent", c);
    if (l->carveout_percent < 0)
        sbuf_add(o, "null");
    else
        wj_int(o, l->carveout_percent);
    wj_key(o, "blocks_per_sm", c);
    wj_int(o, r->blocks_per_sm);
    wj_key(o, "warps_per_sm", c);
    wj_int(o, r->warps_per_sm);
    wj_key(o, "max_warps_per_sm", c);
    wj_int(o, r->max_warps_per_sm);
    wj_key(o, "occupancy", c);
    wj_num(o, r->occupancy);
    wj_key(o, "limiters", c);
    sbuf_addc(o, '[');
    int nl = 0;
    for (unsigned bit = 1; bit <= OCC_LIM_BARRIERS; bit <<= 1)
        if (r->limiters & bit) {
            if (nl++)
                sbuf_addc(o, ',');
            wj_str(o, occ_limiter_name((occ_limiter)bit));
        }
    sbuf_add(o, "]");
    wj_key(o, "limits", c);
    int lc = 0;
    sbuf_addc(o, '{');
    json_limit(o, "warps", r->limit_warps, &lc);
    json_limit(o, "registers", r->limit_registers, &lc);
    json_limit(o, "shared_memory", r->limit_smem, &lc);
    json_limit(o, "blocks", r->limit_blocks, &lc);
    json_limit(o, "barriers", r->limit_barriers, &lc);
    sbuf_addc(o, '}');
    wj_key(o, "allocated_registers_per_block", c);
    wj_int(o, r->regs_per_block_allocated);
    wj_key(o, "allocated_smem_per_block", c);
    wj_int(o, r->smem_per_block_allocated);
    wj_key(o, "smem_per_sm_used", c);
    wj_int(o, r->smem_per_sm_used);
    if (r->failure != OCC_OK) {
        wj_key(o, "reason", c);
        wj_str(o, occ_failure_reason(r->failure));
    }
}

static void json_curve(sbuf *o, const char *key, const occ_curve *cv, int *c)
{
    wj_key(o, key, c);
    sbuf_add(o, "{\"x\":[");
    for (int i = 0; i < cv->n; i++) {
        if (i)
            sbuf_addc(o, ',');
        wj_num(o, cv->x[i]);
    }
    sbuf_add(o, "],\"y\":[");
    for (int i = 0; i < cv->n; i++) {
        if (i)
            sbuf_addc(o, ',');
        wj_num(o, cv->y[i]);
    }
    sbuf_add(o, "]}");
}

static void json_curves(sbuf *o, const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                        int *c)
{
    double *buf = xcalloc(2 * OCC_MAX_SAMPLES, sizeof *buf);
    wj_key(o, "curves", c);
    sbuf_addc(o, '{');
    int cc = 0;
    occ_curve cv = {buf, buf + OCC_MAX_SAMPLES, 0};
    occ_curve_threads(a, k, l, &cv);
    json_curve(o, "threads", &cv, &cc);
    cv.n = 0;
    occ_curve_registers(a, k, l, &cv);
    json_curve(o, "registers", &cv, &cc);
    cv.n = 0;
    occ_curve_smem(a, k, l, &cv);
    json_curve(o, "shared_memory", &cv, &cc);
    sbuf_addc(o, '}');
    free(buf);
}

/* The words: worked steps, advice, and the command line's refusal when the
 * block cannot launch. */
static void json_occ_words(sbuf *o, const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                           const occ_result *r, const char *not_given, int *c)
{
    sbuf t;
    sbuf_init(&t);
    if (not_given)
        sbuf_addf(&t, "not given: %s, taken as 0 so that %s not limit\n", not_given,
                  strstr(not_given, " and ") ? "they do" : "it does");
    occ_explain(&t, a, k, l, r);
    wj_key(o, "explain", c);
    wj_str(o, sbuf_str(&t));
    occ_advice adv[4];
    int n = r->failure == OCC_OK ? occ_advise(a, k, l, r, adv, 4) : 0;
    wj_key(o, "advice", c);
    sbuf_addc(o, '[');
    for (int i = 0; i < n; i++) {
        sbuf_init(&t);
        occ_advice_text(&t, &adv[i], l);
        if (i)
            sbuf_addc(o, ',');
        wj_str(o, sbuf_str(&t));
        sbuf_free(&t);
    }
    sbuf_addc(o, ']');
    sbuf_free(&t);
    if (r->failure != OCC_OK) {
        sbuf_init(&t);
        sbuf_addf(&t,
                  "%s: cannot launch %d threads with %d registers and %lld B of shared memory: "
                  "%s",
                  a->name, l->threads_per_block, k->regs_per_thread,
                  (long long)(k->static_smem + l->dynamic_smem), occ_failure_reason(r->failure));
        wj_key(o, "launch_error", c);
        wj_str(o, sbuf_str(&t));
        sbuf_free(&t);
    }
}

static const char *const occ_keys[] = {
    "cmd",     "gpu",          "arch",       "machine",  "threads",          "regs",
    "smem",    "dynamic-smem", "carveout",   "barriers", "max-dynamic-smem", "curves",
    "explain", "latency",      "throughput", "per-warp", "format",           NULL,
};

/* explain=yes (from --explain): the text is the worked steps. */
static bool get_flag(const web_req *r, const char *key, bool *out, web_err *e)
{
    const char *v = req_get(r, key);
    *out = v && strcmp(v, "yes") == 0;
    if (v && !*out && strcmp(v, "no") != 0)
        return refuse(e, key, "%s takes yes or no, got '%s'", key, v);
    return true;
}

static bool get_si(const web_req *r, const char *key, double *out, bool *seen, web_err *e)
{
    const char *v = req_get(r, key);
    *seen = v != NULL;
    if (v && !units_parse_si(v, out))
        return refuse(e, key,
                      "invalid value '%s' for --%s: expected a non-negative number, optionally "
                      "with K/M/G/T/P",
                      v, key);
    return true;
}

/* --latency --throughput [--per-warp]: Little's law against the target. */
static bool occupancy_latency(web_api *api, const web_req *r, bool explain, web_err *e)
{
    double latency = 0, throughput = 0, per_warp = 1;
    bool seen_l, seen_t, seen_p;
    if (!get_si(r, "latency", &latency, &seen_l, e) ||
        !get_si(r, "throughput", &throughput, &seen_t, e) ||
        !get_si(r, "per-warp", &per_warp, &seen_p, e))
        return false;
    if (!seen_l || !seen_t)
        return refuse(e, seen_l ? "throughput" : "latency",
                      "--latency and --throughput go together");
    if (req_get(r, "threads"))
        return refuse(e, "threads", "--latency takes no --threads, --block or --plot");
    if (!seen_p)
        per_warp = 1;
    gpu_arch arch;
    char label[256], why[128];
    if (!resolve_target(api, r, &arch, label, sizeof label, e))
        return false;
    littlelaw ll;
    if (!littlelaw_solve(latency, throughput, per_warp, &ll, why, sizeof why))
        return refuse(e, "latency", "--latency/--throughput: %s", why);
    sbuf t;
    sbuf_init(&t);
    littlelaw_text(&t, latency, throughput, per_warp, &ll, explain);
    int max_warps = arch.max_threads_per_sm / 32;
    littlelaw_target_text(&t, label, max_warps, &ll);
    sbuf *o = &api->out;
    int c = 0;
    sbuf_addc(o, '{');
    wj_key(o, "target", &c);
    wj_str(o, label);
    wj_key(o, "in_flight", &c);
    wj_num(o, ll.in_flight);
    wj_key(o, "warps", &c);
    wj_num(o, ll.warps);
    wj_key(o, "warps_needed", &c);
    wj_int(o, ll.warps_whole);
    wj_key(o, "max_warps_per_sm", &c);
    wj_int(o, max_warps);
    wj_key(o, "text", &c);
    wj_str(o, sbuf_str(&t));
    sbuf_addc(o, '}');
    sbuf_free(&t);
    return true;
}

static bool occupancy(web_api *api, const web_req *r, web_err *e)
{
    bool explain;
    if (!req_known(r, occ_keys, e) || !get_flag(r, "explain", &explain, e))
        return false;
    const char *format = req_get(r, "format");
    if (format && strcmp(format, "text") != 0)
        return refuse(e, "format", "the page answers in text and JSON at once; got --format %s",
                      format);
    if (req_get(r, "latency") || req_get(r, "throughput") || req_get(r, "per-warp"))
        return occupancy_latency(api, r, explain, e);
    int threads = 0, regs = 0, barriers = 0;
    int64_t smem = 0, dsmem = 0, maxd = 0;
    double carveout = 0;
    bool seen_threads, seen_regs, seen_smem, seen_carveout, seen_optin;
    if (!req_known(r, occ_keys, e) || !get_int(r, "threads", &threads, &seen_threads, e) ||
        !get_int(r, "regs", &regs, &seen_regs, e) || !get_bytes(r, "smem", &smem, &seen_smem, e) ||
        !get_bytes(r, "dynamic-smem", &dsmem, NULL, e) ||
        !get_percent(r, "carveout", &carveout, &seen_carveout, e) ||
        !get_int(r, "barriers", &barriers, NULL, e) ||
        !get_bytes(r, "max-dynamic-smem", &maxd, &seen_optin, e))
        return false;
    if (!seen_threads)
        return refuse(e, "threads", "--threads N (or --block XxY) is required");
    if (threads == 0)
        return refuse(e, "threads", "--threads must be at least 1");
    /* curves=no: the answer without the three curves (a sweep's many calls). */
    const char *curves = req_get(r, "curves");
    if (curves && strcmp(curves, "no") != 0)
        return refuse(e, "curves", "curves takes 'no' (the default draws them), got '%s'", curves);
    gpu_arch arch;
    char label[256];
    if (!resolve_target(api, r, &arch, label, sizeof label, e))
        return false;
    bool real_gpu = req_get(r, "machine") == NULL;
    const char *not_given = !seen_regs && !seen_smem
                                ? "registers per thread (--regs) and static shared memory (--smem)"
                            : !seen_regs ? "registers per thread (--regs)"
                            : !seen_smem ? "static shared memory (--smem)"
                                         : NULL;
    occ_kernel k = {.regs_per_thread = regs, .static_smem = smem, .barriers = barriers};
    occ_launch l = {.threads_per_block = threads,
                    .dynamic_smem = dsmem,
                    .carveout_percent = seen_carveout ? (int)(carveout + 0.5) : -1,
                    .smem_optin = seen_optin,
                    .max_dynamic_smem = maxd};
    occ_result res;
    occ_compute(&arch, &k, &l, &res);
    sbuf *o = &api->out;
    int c = 0;
    sbuf_addc(o, '{');
    wj_key(o, "target", &c);
    wj_str(o, label);
    wj_key(o, "arch", &c);
    wj_str(o, arch.name);
    json_occ_contract(o, &k, &l, &res, &c);
    wj_key(o, "not_given", &c);
    sbuf_add(o, !seen_regs && !seen_smem ? "[\"registers_per_thread\",\"static_smem\"]"
                : !seen_regs             ? "[\"registers_per_thread\"]"
                : !seen_smem             ? "[\"static_smem\"]"
                                         : "[]");
    json_occ_words(o, &arch, &k, &l, &res, not_given, &c);
    sbuf t;
    sbuf_init(&t);
    /* What the command line prints; a block that cannot launch gets its
     * refusal (launch_error) instead, unless the steps were asked for. */
    if (explain || res.failure == OCC_OK)
        occ_answer_text(&t, &(occ_answer){.arch = &arch,
                                          .label = label,
                                          .real_gpu = real_gpu,
                                          .k = &k,
                                          .l = &l,
                                          .r = &res,
                                          .not_given = not_given,
                                          .regs_given = seen_regs,
                                          .explain = explain});
    wj_key(o, "text", &c);
    wj_str(o, sbuf_str(&t));
    sbuf_free(&t);
    if (res.failure == OCC_OK && !curves)
        json_curves(o, &arch, &k, &l, &c);
    sbuf_addc(o, '}');
    return true;
}

void web_api_init(web_api *api)
{
    api->models = xcalloc(1, sizeof *api->models);
    api->load_error[0] = '\0';
    sbuf_init(&api->out);
    if (!web_models_load(api->models, api->load_error, sizeof api->load_error) &&
        !api->load_error[0])
        snprintf(api->load_error, sizeof api->load_error, "the compiled-in models are refused");
}

void web_api_free(web_api *api)
{
    free(api->models);
    sbuf_free(&api->out);
}

static void json_error(sbuf *o, const web_err *e)
{
    int c = 0;
    sbuf_addc(o, '{');
    wj_key(o, "error", &c);
    wj_str(o, e->message);
    if (e->option) {
        wj_key(o, "option", &c);
        wj_str(o, e->option);
    }
    sbuf_addc(o, '}');
}

/* A command line's words as a request: "occupancy --threads 256 --explain"
 * is cmd=occupancy&threads=256&explain=yes. Values point into argv. */
static bool req_from_argv(int argc, char **argv, web_req *r, web_err *e)
{
    r->text = NULL;
    r->n = 0;
    r->key[r->n] = "cmd";
    r->val[r->n++] = argv[0];
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (strcmp(a, "-e") == 0)
            a = "--explain";
        if (strncmp(a, "--", 2) != 0)
            return refuse(e, NULL, "'%s': the page reads long options (--name value) only", a);
        if (r->n == REQ_MAX)
            return refuse(e, NULL, "more than %d options", REQ_MAX);
        char *eq = strchr(a, '=');
        if (eq) {
            *eq = '\0';
            r->key[r->n] = a + 2;
            r->val[r->n++] = eq + 1;
        } else if (strcmp(a, "--explain") == 0) {
            r->key[r->n] = "explain";
            r->val[r->n++] = "yes";
        } else if (i + 1 < argc) {
            r->key[r->n] = a + 2;
            r->val[r->n++] = argv[++i];
        } else {
            return refuse(e, a + 2, "%s needs a value", a);
        }
    }
    return true;
}

/* Which calculators the page has: an exercise whose command needs another
 * says so rather than answering. */
static bool page_answers(const char *command)
{
    return strncmp(command, "occupancy ", 10) == 0;
}

static void json_exercise_fields(sbuf *o, const web_exercise *x, int *c)
{
    const char *keys[] = {"id",      "title",      "source", "question", "command", "book",
                          "differs", "simplifies", "covers", "notes",    "erratum"};
    const char *vals[] = {x->id,      x->title,      x->source, x->question, x->command, x->book,
                          x->differs, x->simplifies, x->covers, x->notes,    x->erratum};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (!vals[i])
            continue;
        wj_key(o, keys[i], c);
        wj_str(o, vals[i]);
    }
    wj_key(o, "in_page", c);
    sbuf_add(o, page_answers(x->command) ? "true" : "false");
}

static void json_exercises(web_api *api)
{
    sbuf *o = &api->out;
    sbuf_add(o, "{\"exercises\":[");
    for (size_t i = 0; i < web_n_exercises; i++) {
        int c = 0;
        sbuf_add(o, i ? ",{" : "{");
        json_exercise_fields(o, &web_exercises[i], &c);
        sbuf_addc(o, '}');
    }
    sbuf_add(o, "]}");
}

static bool dispatch(web_api *api, const web_req *r, web_err *e);

/* One exercise with the page's answer to its command (explain=yes: with the
 * worked steps, as `gpulint exercises ID --explain`). */
static bool one_exercise(web_api *api, const web_req *r, web_err *e)
{
    static const char *const keys[] = {"cmd", "id", "explain", NULL};
    bool explain;
    if (!req_known(r, keys, e) || !get_flag(r, "explain", &explain, e))
        return false;
    const char *id = req_get(r, "id");
    const web_exercise *x = NULL;
    for (size_t i = 0; id && i < web_n_exercises && !x; i++)
        if (strcmp(web_exercises[i].id, id) == 0)
            x = &web_exercises[i];
    if (!x)
        return refuse(e, "id", "no exercise '%s' (gpulint exercises lists them)", id ? id : "");
    sbuf *o = &api->out;
    int c = 0;
    sbuf_add(o, "{\"exercise\":{");
    json_exercise_fields(o, x, &c);
    sbuf_add(o, "},\"answer\":");
    web_words w = {0};
    web_req ar = {0};
    web_err ae = {{0}, NULL};
    char err[128];
    size_t mark = o->len;
    bool ok;
    if (!page_answers(x->command))
        ok = refuse(&ae, NULL, "the page does not answer this kind of exercise yet: run gpulint %s",
                    x->command);
    else if (!web_words_split(x->command, &w, err, sizeof err))
        ok = refuse(&ae, NULL, "%s", err);
    else if ((ok = req_from_argv(w.argc, w.argv, &ar, &ae))) {
        if (explain && !req_get(&ar, "explain") && ar.n < REQ_MAX) {
            ar.key[ar.n] = "explain";
            ar.val[ar.n++] = "yes";
        }
        ok = dispatch(api, &ar, &ae);
    }
    if (!ok) {
        sbuf_truncate(o, mark);
        json_error(o, &ae);
    } else {
        /* The command as the page's form fields, for "open in the calculator". */
        sbuf_add(o, ",\"request\":{");
        for (int i = 0; i < ar.n; i++) {
            if (i)
                sbuf_addc(o, ',');
            wj_str(o, ar.key[i]);
            sbuf_addc(o, ':');
            wj_str(o, ar.val[i]);
        }
        sbuf_addc(o, '}');
    }
    web_words_free(&w);
    sbuf_addc(o, '}');
    return true;
}

static bool dispatch(web_api *api, const web_req *r, web_err *e)
{
    const char *cmd = req_get(r, "cmd");
    if (!cmd)
        return refuse(e, "cmd", "no command (cmd=models, occupancy, exercises or exercise)");
    if (strcmp(cmd, "models") == 0) {
        json_models(api);
        return true;
    }
    if (strcmp(cmd, "exercises") == 0) {
        json_exercises(api);
        return true;
    }
    if (strcmp(cmd, "exercise") == 0)
        return one_exercise(api, r, e);
    if (strcmp(cmd, "occupancy") == 0)
        return occupancy(api, r, e);
    return refuse(e, "cmd", "unknown command '%s' (known: models, occupancy, exercises, exercise)",
                  cmd);
}

const char *web_api_call(web_api *api, const char *request)
{
    sbuf_free(&api->out);
    sbuf_init(&api->out);
    web_req r = {0};
    web_err e = {{0}, NULL};
    bool ok;
    if (api->load_error[0])
        ok = refuse(&e, NULL, "%s", api->load_error);
    else
        ok = req_parse(request, &r, &e) && dispatch(api, &r, &e);
    if (!ok) {
        sbuf_free(&api->out);
        sbuf_init(&api->out);
        json_error(&api->out, &e);
    }
    free(r.text); /* after the refusal: its option points into the text */
    return sbuf_str(&api->out);
}
