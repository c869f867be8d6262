/* web_words: split a command as a POSIX shell reads its words (quotes and
 * backslashes; nothing is expanded or run), so that the page can answer an
 * exercise's `command` as the command line does. */
#ifndef GPULINT_WEB_WORDS_H
#define GPULINT_WEB_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#define WEB_WORDS_MAX 64

typedef struct web_words {
    char *buf; /* the words, each NUL-terminated */
    char *argv[WEB_WORDS_MAX + 1];
    int argc;
} web_words;

/* False with the reason in err (an open quote, too many words). */
bool web_words_split(const char *s, web_words *w, char *err, size_t n);
void web_words_free(web_words *w);

#endif
