/* sbuf: a growable string buffer, so pure modules can render text without
 * doing I/O. Allocation failure aborts (there is no sensible recovery for a
 * command-line tool that ran out of memory mid-report). */
#ifndef GPULINT_SBUF_H
#define GPULINT_SBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct sbuf {
    char *data; /* always NUL-terminated once anything was added */
    size_t len;
    size_t cap;
} sbuf;

void sbuf_init(sbuf *b);
void sbuf_free(sbuf *b);
void sbuf_add(sbuf *b, const char *s);
void sbuf_addn(sbuf *b, const char *s, size_t n);
void sbuf_addf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_vaddf(sbuf *b, const char *fmt, va_list ap);
void sbuf_addc(sbuf *b, char c);
void sbuf_truncate(sbuf *b, size_t len); /* drop what was added after len bytes */
const char *sbuf_str(const sbuf *b);     /* "" when empty */
char *sbuf_take(sbuf *b);                /* caller frees; buffer is reset */

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrdup_null(const char *s); /* NULL stays NULL */
char *xstrndup(const char *s, size_t n);

#endif
