/* web_words: shell words without a shell. */
#include "web/web_words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n';
}

bool web_words_split(const char *s, web_words *w, char *err, size_t n)
{
    w->buf = xmalloc(strlen(s) + 1);
    w->argc = 0;
    char *out = w->buf;
    const char *p = s;
    for (;;) {
        while (is_space(*p))
            p++;
        if (!*p)
            break;
        if (w->argc == WEB_WORDS_MAX) {
            snprintf(err, n, "more than %d words", WEB_WORDS_MAX);
            return false;
        }
        w->argv[w->argc++] = out;
        char quote = 0;
        for (; *p && (quote || !is_space(*p)); p++) {
            if (quote == '\'') {
                if (*p == '\'')
                    quote = 0;
                else
                    *out++ = *p;
            } else if (*p == '\\' && p[1] &&
                       (!quote || strchr("\"\\$`", p[1]))) { /* inside "", only these */
                *out++ = *++p;
            } else if (*p == '"') {
                quote = quote ? 0 : '"';
            } else if (*p == '\'' && !quote) {
                quote = '\'';
            } else {
                *out++ = *p;
            }
        }
        if (quote) {
            snprintf(err, n, "unterminated %c quote", quote);
            return false;
        }
        *out++ = '\0';
    }
    w->argv[w->argc] = NULL;
    return true;
}

void web_words_free(web_words *w)
{
    free(w->buf);
    w->buf = NULL;
    w->argc = 0;
}
