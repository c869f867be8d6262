/* fuzz_web: libFuzzer harness for the web page's entry point. Whatever a
 * page (or a crafted address) sends must be answered with one JSON object,
 * a refusal or an answer, never a crash; and the shell-word splitter the
 * exercise commands go through must hold any text. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "web/web_api.h"
#include "web/web_words.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0;
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    web_api api;
    web_api_init(&api);
    const char *out = web_api_call(&api, s);
    size_t n = strlen(out);
    if (n < 2 || out[0] != '{' || out[n - 1] != '}')
        abort();
    web_api_free(&api);
    web_words w;
    char err[128];
    if (web_words_split(s, &w, err, sizeof err))
        for (int i = 0; i < w.argc; i++)
            if (!w.argv[i])
                abort();
    web_words_free(&w);
    free(s);
    return 0;
}
