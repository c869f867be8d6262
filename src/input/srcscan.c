/* srcscan: __global__ definitions by token scanning. Comments, strings and
 * character literals are skipped; the kernel's name is the identifier right
 * before the parameter list's '(' that follows __global__ (skipping
 * __launch_bounds__(...) and template argument lists). */
#include "input/srcscan.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

typedef struct cursor {
    const char *s;
    size_t len, i;
    int line, col;
} cursor;

static void advance(cursor *c)
{
    if (c->s[c->i] == '\n') {
        c->line++;
        c->col = 1;
    } else {
        c->col++;
    }
    c->i++;
}

/* Skip whitespace, comments, string and char literals, preprocessor lines. */
static void skip_trivia(cursor *c)
{
    while (c->i < c->len) {
        char ch = c->s[c->i];
        char next = c->i + 1 < c->len ? c->s[c->i + 1] : '\0';
        if (isspace((unsigned char)ch)) {
            advance(c);
        } else if (ch == '/' && next == '/') {
            while (c->i < c->len && c->s[c->i] != '\n')
                advance(c);
        } else if (ch == '/' && next == '*') {
            advance(c);
            advance(c);
            while (c->i < c->len &&
                   !(c->s[c->i] == '*' && c->i + 1 < c->len && c->s[c->i + 1] == '/'))
                advance(c);
            if (c->i < c->len) {
                advance(c);
                advance(c);
            }
        } else if (ch == '"' || ch == '\'') {
            advance(c);
            while (c->i < c->len && c->s[c->i] != ch && c->s[c->i] != '\n') {
                if (c->s[c->i] == '\\' && c->i + 1 < c->len)
                    advance(c);
                advance(c);
            }
            if (c->i < c->len)
                advance(c);
        } else {
            return;
        }
    }
}

static bool ident_start(char ch)
{
    return isalpha((unsigned char)ch) || ch == '_';
}

static bool ident_char(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

/* Skip a balanced (...) or <...> group starting at the current char. */
static void skip_group(cursor *c, char open, char close)
{
    int depth = 0;
    while (c->i < c->len) {
        skip_trivia(c);
        if (c->i >= c->len)
            return;
        char ch = c->s[c->i];
        if (ch == open)
            depth++;
        else if (ch == close && --depth == 0) {
            advance(c);
            return;
        } else if (ch == ';' || ch == '{')
            return;
        advance(c);
    }
}

static void add(srcscan_result *r, size_t *cap, const char *name, size_t n, int line, int col)
{
    if (r->n == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        r->kernels = xrealloc(r->kernels, *cap * sizeof *r->kernels);
    }
    r->kernels[r->n++] = (srcscan_kernel){xstrndup(name, n), line, col};
}

void srcscan_kernels(const char *text, size_t len, srcscan_result *out)
{
    out->kernels = NULL;
    out->n = 0;
    size_t cap = 0;
    cursor c = {text, len, 0, 1, 1};
    while (c.i < c.len) {
        skip_trivia(&c);
        if (c.i >= c.len)
            break;
        if (!ident_start(c.s[c.i])) {
            advance(&c);
            continue;
        }
        size_t start = c.i;
        while (c.i < c.len && ident_char(c.s[c.i]))
            advance(&c);
        size_t n = c.i - start;
        if (n != 10 || memcmp(text + start, "__global__", 10) != 0)
            continue;
        /* Walk to the '(' of the parameter list, remembering the last name. */
        const char *last = NULL;
        size_t last_n = 0;
        int last_line = 0, last_col = 0;
        while (c.i < c.len) {
            skip_trivia(&c);
            if (c.i >= c.len)
                break;
            char ch = c.s[c.i];
            if (ident_start(ch)) {
                size_t s2 = c.i;
                int l2 = c.line, col2 = c.col;
                while (c.i < c.len && ident_char(c.s[c.i]))
                    advance(&c);
                size_t n2 = c.i - s2;
                skip_trivia(&c);
                bool is_attr = (n2 == 17 && memcmp(text + s2, "__launch_bounds__", 17) == 0) ||
                               (n2 == 11 && memcmp(text + s2, "__maxnreg__", 11) == 0) ||
                               (n2 == 13 && memcmp(text + s2, "__attribute__", 13) == 0) ||
                               (n2 == 16 && memcmp(text + s2, "__cluster_dims__", 16) == 0);
                if (is_attr && c.i < c.len && c.s[c.i] == '(') {
                    skip_group(&c, '(', ')');
                    continue;
                }
                last = text + s2;
                last_n = n2;
                last_line = l2;
                last_col = col2;
            } else if (ch == '<') {
                skip_group(&c, '<', '>');
            } else if (ch == '(') {
                if (last)
                    add(out, &cap, last, last_n, last_line, last_col);
                break;
            } else if (ch == ';' || ch == '{' || ch == '}') {
                break;
            } else {
                advance(&c);
            }
        }
    }
}

void srcscan_free(srcscan_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->kernels[i].name);
    free(r->kernels);
    r->kernels = NULL;
    r->n = 0;
}

const srcscan_kernel *srcscan_find(const srcscan_result *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->kernels[i].name, name) == 0)
            return &r->kernels[i];
    return NULL;
}

void srcscan_simple_name(const char *demangled, char *buf, size_t n)
{
    /* Cut at the parameter list: the first '(' at template depth 0. */
    const char *s = demangled;
    size_t end = strlen(s);
    int depth = 0;
    for (size_t i = 0; s[i]; i++) {
        if (s[i] == '<')
            depth++;
        else if (s[i] == '>')
            depth--;
        else if (s[i] == '(' && depth == 0) {
            end = i;
            break;
        }
    }
    /* Drop template arguments at the end, then take the last identifier. */
    size_t stop = end;
    if (stop > 0 && s[stop - 1] == '>') {
        depth = 0;
        while (stop > 0) {
            stop--;
            if (s[stop] == '>')
                depth++;
            else if (s[stop] == '<' && --depth == 0)
                break;
        }
    }
    size_t begin = stop;
    while (begin > 0 && ident_char(s[begin - 1]))
        begin--;
    size_t len = stop - begin;
    if (len >= n)
        len = n - 1;
    memcpy(buf, s + begin, len);
    buf[len] = '\0';
}
