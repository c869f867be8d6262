/* cusrc_explicit: explicit instantiations made visible. libclang's cursors
 * never show `template void reduce<int>(int, int *, int *);` (nor can a
 * location inside one be looked up), so a launch in a host function
 * template that only such a line instantiates — cuda-samples' reduction,
 * whose .cpp calls reduce<T> in another translation unit — and the kernel
 * instantiations it names were out of reach. The main file is handed to
 * libclang with a function appended that takes the address of every
 * explicitly instantiated function; its references lead to the
 * instantiated bodies, which libclang does show. */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "cusrc/cusrc_explicit.h"
#include "util/sbuf.h"

/* Skips a comment, string or character literal at p; returns p when there
 * is none. */
static const char *skip_literal(const char *p, const char *e)
{
    if (p + 1 < e && p[0] == '/' && p[1] == '/') {
        while (p < e && *p != '\n')
            p++;
        return p;
    }
    if (p + 1 < e && p[0] == '/' && p[1] == '*') {
        p += 2;
        while (p + 1 < e && !(p[0] == '*' && p[1] == '/'))
            p++;
        return p + 1 < e ? p + 2 : e;
    }
    if (*p == '"' || *p == '\'') {
        char q = *p++;
        while (p < e && *p != q && *p != '\n')
            p += (*p == '\\' && p + 1 < e) ? 2 : 1;
        return p < e ? p + 1 : e;
    }
    return p;
}

static bool is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Specifiers that a function type cannot carry. */
static const char *const dropped[] = {"__global__", "__host__",   "__device__",      "static",
                                      "inline",     "__inline__", "__forceinline__", "__noinline__",
                                      "constexpr",  "extern",     "template"};

static void add_return_type(sbuf *b, const char *p, const char *e)
{
    while (p < e) {
        while (p < e && isspace((unsigned char)*p))
            p++;
        const char *w = p;
        while (p < e && !isspace((unsigned char)*p))
            p++;
        bool drop = false;
        for (size_t i = 0; i < sizeof dropped / sizeof *dropped; i++)
            drop |=
                strlen(dropped[i]) == (size_t)(p - w) && !strncmp(w, dropped[i], (size_t)(p - w));
        if (!drop && p > w)
            sbuf_addf(b, "%.*s ", (int)(p - w), w);
    }
}

/* One declaration `[specifiers] RET NAME[<ARGS>](PARAMS) [quals]`, the
 * text after `template`: a statement naming it, or false when it is not a
 * free function (a class, a member: their pointers have other types). */
static bool add_reference(sbuf *b, const char *d, const char *e)
{
    while (d < e && isspace((unsigned char)*d))
        d++;
    static const char *const classes[] = {"class", "struct", "union"};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(classes[i]);
        if ((size_t)(e - d) > n && !strncmp(d, classes[i], n) && !is_ident(d[n]))
            return false;
    }
    /* The parameter list: the first '(' outside template arguments. */
    const char *open = NULL;
    int angle = 0;
    for (const char *p = d; p < e && !open; p++) {
        if (*p == '<')
            angle++;
        else if (*p == '>' && angle > 0)
            angle--;
        else if (*p == '(' && angle == 0)
            open = p;
    }
    if (!open)
        return false;
    const char *close = NULL;
    int depth = 0;
    for (const char *p = open; p < e && !close; p++) {
        depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
        if (depth == 0)
            close = p;
    }
    if (!close)
        return false;
    /* The name, with its template arguments, ends right before '('. */
    const char *n_end = open;
    while (n_end > d && isspace((unsigned char)n_end[-1]))
        n_end--;
    const char *n_start = n_end;
    if (n_start > d && n_start[-1] == '>') {
        int a = 0;
        do {
            n_start--;
            a += *n_start == '>' ? 1 : *n_start == '<' ? -1 : 0;
        } while (n_start > d && a > 0);
    }
    while (n_start > d && (is_ident(n_start[-1]) || n_start[-1] == ':'))
        n_start--;
    if (n_start == n_end || !is_ident(*n_start))
        return false;
    for (const char *p = n_start; p + 1 < n_end; p++)
        if (p[0] == ':' && p[1] == ':' && memchr(n_start, '<', (size_t)(p - n_start)))
            return false; /* C<int>::f: a member */
    for (const char *p = d; p < e; p++)
        if (*p == '{' || *p == '}' || *p == '#')
            return false;
    sbuf_add(b, "  (void)static_cast<");
    add_return_type(b, d, n_start);
    sbuf_addf(b, "(*)(%.*s)>(&%.*s);\n", (int)(close - open - 1), open + 1, (int)(n_end - n_start),
              n_start);
    return true;
}

char *cusrc_explicit_refs(const char *buf, size_t size)
{
    const char *p = buf, *e = buf + size;
    char last = ';'; /* the last significant character: statements start after ; { } */
    const char *prev_word = NULL;
    size_t prev_len = 0;
    bool line_start = true;
    sbuf b;
    sbuf_init(&b);
    int n = 0;
    while (p < e) {
        if (line_start && *p == '#') { /* a directive, with its continuations */
            while (p < e && *p != '\n')
                p += (*p == '\\' && p + 1 < e) ? 2 : 1;
            continue;
        }
        const char *q = skip_literal(p, e);
        if (q != p) {
            p = q;
            continue;
        }
        if (*p == '\n' || isspace((unsigned char)*p)) {
            line_start = *p == '\n' || line_start;
            p++;
            continue;
        }
        line_start = false;
        if (!is_ident(*p)) {
            last = *p++;
            prev_word = NULL;
            continue;
        }
        const char *w = p;
        while (p < e && is_ident(*p))
            p++;
        bool extern_before = prev_word && prev_len == 6 && !strncmp(prev_word, "extern", 6);
        if ((size_t)(p - w) == 8 && !strncmp(w, "template", 8) && !extern_before &&
            (last == ';' || last == '{' || last == '}')) {
            const char *d = p;
            while (d < e && isspace((unsigned char)*d))
                d++;
            if (d < e && *d != '<') {
                const char *end = d;
                int depth = 0;
                while (end < e && !(*end == ';' && depth == 0)) {
                    depth += (*end == '(') - (*end == ')');
                    end++;
                }
                if (end < e && add_reference(&b, d, end))
                    n++;
                p = end;
                continue;
            }
        }
        prev_word = w;
        prev_len = (size_t)(p - w);
        last = 'a';
    }
    if (!n) {
        sbuf_free(&b);
        return NULL;
    }
    sbuf out;
    sbuf_init(&out);
    sbuf_addf(&out, "\nstatic void %s(void)\n{\n%s}\n", CUSRC_EXPLICIT_FN, sbuf_str(&b));
    sbuf_free(&b);
    return sbuf_take(&out);
}
