/* web_req: a request of the web page (key=value items, named as the
 * command line's long options) and the readers of its values, which web_refuse
 * bad input with the command line's own words. Internal to web/. */
#ifndef GPULINT_WEB_REQ_H
#define GPULINT_WEB_REQ_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "web/web_api.h"

#define REQ_MAX 32
#define DEFAULT_GPU "h100-sxm" /* the command line's default target */

typedef struct web_req {
    char *text;
    const char *key[REQ_MAX], *val[REQ_MAX];
    int n;
    char *joined[REQ_MAX]; /* values of a list option given more than once */
    int n_joined;
} web_req;

/* A list option's values ("32x32,16x16"), split as the command line splits
 * them. */
#define WEB_LIST_MAX 64
typedef struct web_list {
    char *buf;
    const char *v[WEB_LIST_MAX];
    int n;
} web_list;

/* A refusal: the message as the command line words it, and the option at
 * fault so that the page can show it beside its field. */
typedef struct web_err {
    char message[512];
    const char *option;
} web_err;

bool web_refuse(web_err *e, const char *option, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "cmd=occupancy&threads=256": items split on '&', each at its first '='. */
bool web_req_parse(const char *request, web_req *r, web_err *e);
void web_req_free(web_req *r);
/* Joins a repeated list option's values with a comma, as opt.c collects
 * them; false past REQ_MAX. */
bool web_req_join(web_req *r, int i, const char *more);
/* The value of key; NULL when absent or empty (an empty field on the page). */
const char *web_req_get(const web_req *r, const char *key);
/* Refuses a key not in the NULL-terminated list, as opt.c refuses an option. */
bool web_req_known(const web_req *r, const char *const *known, web_err *e);
bool web_get_int(const web_req *r, const char *key, int *out, bool *seen, web_err *e);
bool web_get_bytes(const web_req *r, const char *key, int64_t *out, bool *seen, web_err *e);
bool web_get_percent(const web_req *r, const char *key, double *out, bool *seen, web_err *e);
bool web_get_si(const web_req *r, const char *key, double *out, bool *seen, web_err *e);
/* Comma-separated values, none empty; an absent key is an empty list. */
bool web_get_list(const web_req *r, const char *key, web_list *out, web_err *e);
void web_list_free(web_list *l);
/* yes/no (explain=yes is --explain). */
bool web_get_flag(const web_req *r, const char *key, bool *out, web_err *e);
/* XxYxZ; dflt when absent (NULL: required). */
bool web_get_dim3(const web_req *r, const char *key, const char *dflt, int64_t out[3], web_err *e);
/* format, when given, must be text: every answer carries its text and its fields. */
bool web_text_format(const web_req *r, web_err *e);
/* --gpu, --arch or --machine (the default GPU when none), as target/ resolves
 * them; label as the command line prints it. */
bool web_resolve_target(const web_api *api, const web_req *r, gpu_arch *arch, char *label, size_t n,
                        web_err *e);
/* A product by id, refused with the command line's words when unknown. */
const gpu_product *web_find_product(const web_api *api, const char *id, web_err *e);
/* The product a request names (--gpu, or the default when no --arch or
 * --machine is given); NULL otherwise. Call after web_resolve_target. */
const gpu_product *web_target_product(const web_api *api, const web_req *r);

/* The calculators (web_occ.c, web_calc.c): their answer goes to api->out. */
bool web_occupancy(web_api *api, const web_req *r, web_err *e);
bool web_warps(web_api *api, const web_req *r, web_err *e);
bool web_roof(web_api *api, const web_req *r, web_err *e);
bool web_bank(web_api *api, const web_req *r, web_err *e);
bool web_coalesce(web_api *api, const web_req *r, web_err *e);
bool web_divergence(web_api *api, const web_req *r, web_err *e);
bool web_launch(web_api *api, const web_req *r, web_err *e);
bool web_roofline(web_api *api, const web_req *r, web_err *e);

#endif
