/* web_native: the web entry points as a native program, one request per
 * line on stdin, one JSON answer per line on stdout. The test that compares
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
        puts(web_api_call(&api, line));
    }
    web_api_free(&api);
    return 0;
}
