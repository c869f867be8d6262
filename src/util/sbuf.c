/* sbuf: growable strings and checked allocation. */
#include "util/sbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
    fputs("gpulint: error: out of memory\n", stderr);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrdup_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

char *xstrndup(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void sbuf_init(sbuf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
}

void sbuf_free(sbuf *b)
{
    free(b->data);
    sbuf_init(b);
}

static void reserve(sbuf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

void sbuf_addn(sbuf *b, const char *s, size_t n)
{
    reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void sbuf_add(sbuf *b, const char *s)
{
    sbuf_addn(b, s, strlen(s));
}

void sbuf_addc(sbuf *b, char c)
{
    sbuf_addn(b, &c, 1);
}

void sbuf_vaddf(sbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sbuf_addf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sbuf_vaddf(b, fmt, ap);
    va_end(ap);
}

void sbuf_truncate(sbuf *b, size_t len)
{
    if (b->data && len < b->len) {
        b->len = len;
        b->data[len] = '\0';
    }
}

const char *sbuf_str(const sbuf *b)
{
    return b->data ? b->data : "";
}

char *sbuf_take(sbuf *b)
{
    char *s = b->data ? b->data : xstrdup("");
    sbuf_init(b);
    return s;
}
