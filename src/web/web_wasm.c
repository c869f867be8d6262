/* web_wasm: the exports of gpulint.wasm. The page writes a request into the
 * buffer web_request returns and calls web_run, which answers with the
 * address of a NUL-terminated JSON text (valid until the next call). */
#include <stdbool.h>

#include "web/web_api.h"

#define EXPORT(name) __attribute__((export_name(name)))

static char request[16384];
static web_api api;
static bool ready;

EXPORT("web_request") char *web_request(void)
{
    return request;
}

EXPORT("web_request_size") int web_request_size(void)
{
    return (int)sizeof request;
}

static void ready_api(void)
{
    if (!ready) {
        web_api_init(&api);
        ready = true;
    }
    request[sizeof request - 1] = '\0';
}

/* The buffer as a command line ("bank --stride 2"). */
EXPORT("web_command") const char *web_command(void)
{
    ready_api();
    return web_api_command(&api, request);
}

EXPORT("web_run") const char *web_run(void)
{
    if (!ready) {
        web_api_init(&api);
        ready = true;
    }
    request[sizeof request - 1] = '\0';
    return web_api_call(&api, request);
}
