/* web_api: the calculators behind the web page. A request in the form of a
 * URL's query ("cmd=occupancy&gpu=h100-sxm&threads=256&regs=40"; keys are
 * the command line's long option names) goes in, JSON comes out: the same
 * analyses as `gpulint occupancy`, with its names and its error messages. */
#ifndef GPULINT_WEB_API_H
#define GPULINT_WEB_API_H

#include <stdbool.h>

#include "util/sbuf.h"
#include "web/web_models.h"

typedef struct web_api {
    web_models *models;
    char load_error[512]; /* set when the compiled-in models were refused */
    sbuf out;
} web_api;

void web_api_init(web_api *api);
void web_api_free(web_api *api);
/* The answer to one request, valid until the next call. Every answer is a
 * JSON object; a refused request is {"error": "...", "option": "..."}. */
const char *web_api_call(web_api *api, const char *request);

/* The same, for a calculator command as the command line takes it
 * ("bank --stride 2 --explain"; words split as a shell would, never run). */
const char *web_api_command(web_api *api, const char *line);

#endif
