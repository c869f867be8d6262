/* web_native: the web entry points as a native program, one request per
 * line on stdin ("$ " before a command line), one JSON answer per line on
 * stdout. The test that compares
 * the WebAssembly build with the native one feeds both the same lines. */
#include <stdio.h>
#include <string.h>

#include "web/web_api.h"

int main(void)
{
    web_api api;
    web_api_init(&api);
    char line[8192];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        /* "$ bank --stride 2": a command line rather than a request. */
        puts(line[0] == '$' && line[1] == ' ' ? web_api_command(&api, line + 2)
                                              : web_api_call(&api, line));
    }
    web_api_free(&api);
    return 0;
}
