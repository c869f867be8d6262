/* web_api: requests from the web page to the calculators, answers as JSON;
 * the model list and the exercise catalogue with the page's answers. */
#include "web/web_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/web_exercises.h"
#include "web/web_json.h"
#include "web/web_req.h"
#include "web/web_words.h"

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
        sbuf_add(o, ",\"sm_count\":");
        wj_int(o, p->sm_count);
        sbuf_addc(o, '}');
    }
    sbuf_add(o, "],\"default_gpu\":\"" DEFAULT_GPU "\",\"version\":\"" GPULINT_WEB_VERSION "\"}");
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

/* The options the command line collects into a list (opt.c's OPT_LIST):
 * given twice, their values join; any other option given twice keeps the
 * last, as the command line does. */
static bool is_list_option(const char *cmd, const char *key)
{
    static const char *const lists[] = {"precision", "ai", "label", "gemm", "mix", NULL};
    if (strcmp(key, "block") == 0)
        return strcmp(cmd, "launch") == 0;
    for (const char *const *l = lists; *l; l++)
        if (strcmp(*l, key) == 0)
            return true;
    return false;
}

/* -e is --elem where a calculator has an element size (and -x its
 * --explain), --explain elsewhere, as their option tables say. */
static bool e_is_elem(const char *cmd)
{
    return strcmp(cmd, "bank") == 0 || strcmp(cmd, "coalesce") == 0 || strcmp(cmd, "launch") == 0;
}

static bool req_add(web_req *r, const char *key, const char *val, web_err *e)
{
    for (int i = 1; i < r->n; i++) {
        if (strcmp(r->key[i], key) != 0)
            continue;
        if (!is_list_option(r->val[0], key)) {
            r->val[i] = val;
            return true;
        }
        if (!*val || !*r->val[i])
            return web_refuse(e, key,
                              "invalid value '' for --%s: expected non-empty "
                              "comma-separated values",
                              key);
        return web_req_join(r, i, val) || web_refuse(e, NULL, "more than %d options", REQ_MAX);
    }
    if (r->n == REQ_MAX)
        return web_refuse(e, NULL, "more than %d options", REQ_MAX);
    r->key[r->n] = key;
    r->val[r->n++] = val;
    return true;
}

/* A command line's words as a request: "occupancy --threads 256 --explain"
 * is cmd=occupancy&threads=256&explain=yes. Values point into argv. */
static bool req_from_argv(int argc, char **argv, web_req *r, web_err *e)
{
    memset(r, 0, sizeof *r);
    r->key[r->n] = "cmd";
    r->val[r->n++] = argv[0];
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (strcmp(a, "-x") == 0 || (strcmp(a, "-e") == 0 && !e_is_elem(argv[0])))
            a = "--explain";
        else if (strcmp(a, "-e") == 0)
            a = "--elem";
        if (strncmp(a, "--", 2) != 0)
            return web_refuse(e, NULL, "'%s': the page reads long options (--name value) only", a);
        char *eq = strchr(a, '=');
        bool ok;
        if (eq) {
            *eq = '\0';
            ok = req_add(r, a + 2, eq + 1, e);
        } else if (strcmp(a, "--explain") == 0 || strcmp(a, "--non-portable") == 0) {
            ok = req_add(r, a + 2, "yes", e); /* the flags: no value follows */
        } else if (i + 1 < argc) {
            ok = req_add(r, a + 2, argv[i + 1], e);
            i++;
        } else {
            return web_refuse(e, a + 2, "option '%s' needs a value", a);
        }
        if (!ok)
            return false;
    }
    return true;
}

/* Which calculators the page has: an exercise whose command needs another
 * says so rather than answering. */
static bool page_answers(const char *command)
{
    static const char *const in_page[] = {"occupancy ",  "warps ",  "bank ",     "coalesce ",
                                          "divergence ", "launch ", "roofline ", NULL};
    for (const char *const *p = in_page; *p; p++)
        if (strncmp(command, *p, strlen(*p)) == 0)
            return true;
    return false;
}

/* The first word of a command: a calculator the page has. */
static bool page_answers_word(const char *word)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, "%s ", word);
    return page_answers(cmd);
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
    if (!web_req_known(r, keys, e) || !web_get_flag(r, "explain", &explain, e))
        return false;
    const char *id = web_req_get(r, "id");
    const web_exercise *x = NULL;
    for (size_t i = 0; id && i < web_n_exercises && !x; i++)
        if (strcmp(web_exercises[i].id, id) == 0)
            x = &web_exercises[i];
    if (!x)
        return web_refuse(e, "id", "no exercise '%s' (gpulint exercises lists them)", id ? id : "");
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
        ok = web_refuse(&ae, NULL,
                        "the page does not answer this kind of exercise yet: run gpulint %s",
                        x->command);
    else if (!web_words_split(x->command, &w, err, sizeof err))
        ok = web_refuse(&ae, NULL, "%s", err);
    else if ((ok = req_from_argv(w.argc, w.argv, &ar, &ae))) {
        if (explain && !web_req_get(&ar, "explain") && ar.n < REQ_MAX) {
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
    web_req_free(&ar);
    web_words_free(&w);
    sbuf_addc(o, '}');
    return true;
}

static bool dispatch(web_api *api, const web_req *r, web_err *e)
{
    const char *cmd = web_req_get(r, "cmd");
    if (!cmd)
        return web_refuse(e, "cmd",
                          "no command (cmd=models, occupancy, warps, exercises or exercise)");
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
        return web_occupancy(api, r, e);
    if (strcmp(cmd, "warps") == 0)
        return web_warps(api, r, e);
    if (strcmp(cmd, "roof") == 0)
        return web_roof(api, r, e);
    if (strcmp(cmd, "bank") == 0)
        return web_bank(api, r, e);
    if (strcmp(cmd, "coalesce") == 0)
        return web_coalesce(api, r, e);
    if (strcmp(cmd, "divergence") == 0)
        return web_divergence(api, r, e);
    if (strcmp(cmd, "launch") == 0)
        return web_launch(api, r, e);
    if (strcmp(cmd, "roofline") == 0)
        return web_roofline(api, r, e);
    return web_refuse(e, "cmd",
                      "unknown command '%s' (known: models, occupancy, warps, bank, coalesce, "
                      "divergence, launch, roofline, roof, exercises, exercise)",
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
        ok = web_refuse(&e, NULL, "%s", api->load_error);
    else
        ok = web_req_parse(request, &r, &e) && dispatch(api, &r, &e);
    if (!ok) {
        sbuf_free(&api->out);
        sbuf_init(&api->out);
        json_error(&api->out, &e);
    }
    web_req_free(&r); /* after the refusal: its option points into the text */
    return sbuf_str(&api->out);
}

const char *web_api_command(web_api *api, const char *line)
{
    sbuf_free(&api->out);
    sbuf_init(&api->out);
    web_words w = {0};
    web_req r = {0};
    web_err e = {{0}, NULL};
    char err[128];
    bool ok;
    if (api->load_error[0])
        ok = web_refuse(&e, NULL, "%s", api->load_error);
    else if (!web_words_split(line, &w, err, sizeof err))
        ok = web_refuse(&e, NULL, "%s", err);
    else if (w.argc == 0)
        ok = web_refuse(&e, NULL,
                        "no command: try occupancy, warps, bank, coalesce, divergence, "
                        "launch or roofline");
    else if (!page_answers_word(w.argv[0]))
        ok = web_refuse(&e, NULL,
                        "the page runs occupancy, warps, bank, coalesce, divergence, launch and "
                        "roofline; '%s' "
                        "needs the command line",
                        w.argv[0]);
    else
        ok = req_from_argv(w.argc, w.argv, &r, &e) && dispatch(api, &r, &e);
    if (!ok) {
        sbuf_free(&api->out);
        sbuf_init(&api->out);
        json_error(&api->out, &e);
    }
    web_req_free(&r);
    web_words_free(&w); /* after the refusal: its option points into the words */
    return sbuf_str(&api->out);
}
