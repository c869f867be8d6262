/* fuzz_web: libFuzzer harness for the web page's entry point. Whatever a
 * page (or a crafted address) sends must be answered with one JSON object,
 * a refusal or an answer, never a crash; and the shell-word splitter the
 * exercise commands go through must hold any text. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "web/web_api.h"
#include "web/web_words.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* gpulint divergence evaluates its expression for every thread of the grid
 * when it reads blockIdx, up to 2^26 evaluations by design: a minute under
 * the sanitizers, which libFuzzer's per-input timeout would report as a
 * hang. Its inputs keep to numbers of three digits here; the budget itself
 * is the CLI case tests/cli/divergence-budget.test. */
static bool too_much_work(const char *s)
{
    if (!strstr(s, "divergence"))
        return false;
    int run = 0;
    for (; *s; s++) {
        run = (*s >= '0' && *s <= '9') ? run + 1 : 0;
        if (run > 3)
            return true;
    }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0;
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    if (too_much_work(s)) {
        free(s);
        return 0;
    }
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
