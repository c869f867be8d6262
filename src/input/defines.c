/* defines: the values the user binds to names the source leaves without
 * one: `--define NAME=VALUE` and the lines of a `--defines FILE` (the
 * template `gpulint sizes` prints). One NAME=VALUE a line, '#' to the end
 * of the line a comment, blank lines ignored; a NAME is what gpulint
 * prints (`n`, `model->config.channels`, `cfg.dims[0]`), a VALUE an
 * integer (decimal, 0x hex). */
#include "input/defines.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/exitcode.h"
#include "util/fileio.h"
#include "util/sbuf.h"

/* A --defines file is a list of names, not data: a megabyte is plenty. */
#define DEFINES_FILE_MAX (1u << 20)

void defines_free(defines *d)
{
    for (int i = 0; i < d->n; i++)
        free(d->names[i]);
    free(d->file);
    memset(d, 0, sizeof *d);
}

static int fail(char *err, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

/* Text of the file shown in a message: one line of printable
 * characters, cut at 60. */
static const char *shown(const char *s, size_t len, char *buf, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i < len && s[i] && n + 4 < size; i++) {
        if (n == 60) {
            memcpy(buf + n, "...", 3);
            n += 3;
            break;
        }
        buf[n++] = isprint((unsigned char)s[i]) ? s[i] : '?';
    }
    buf[n] = '\0';
    return buf;
}

static bool name_ok(const char *s, size_t len)
{
    if (!len || isdigit((unsigned char)s[0]))
        return false;
    for (size_t i = 0; i < len; i++)
        if (isspace((unsigned char)s[i]) || s[i] == '=' || s[i] == '#' || s[i] == '\'' ||
            s[i] == '"' || !isprint((unsigned char)s[i]))
            return false;
    return true;
}

static int find(const defines *d, const char *name, size_t len)
{
    for (int i = 0; i < d->n; i++)
        if (strlen(d->names[i]) == len && !strncmp(d->names[i], name, len))
            return i;
    return -1;
}

/* Sets name (len bytes) to the integer in value; where: "" for --define,
 * "FILE:LINE: " for a line of a file. A name given again replaces the old
 * value only when replace (the command line over the file). */
static int set(defines *d, const char *name, size_t len, const char *value, int line, bool replace,
               const char *where, char *err, size_t size)
{
    char nb[80], vb[80];
    if (!name_ok(name, len))
        return fail(err, size,
                    "%s'%s' is not a name (a name is what gpulint prints, e.g. n "
                    "or model->config.channels)",
                    where, shown(name, len, nb, sizeof nb));
    shown(name, len, nb, sizeof nb);
    while (isspace((unsigned char)*value))
        value++;
    if (!*value)
        return fail(err, size, "%s'%s' has no value (write an integer after '=')", where, nb);
    char *end;
    errno = 0;
    long long v = strtoll(value, &end, 0);
    while (isspace((unsigned char)*end))
        end++;
    if (end == value || *end || errno == ERANGE)
        return fail(err, size, "%s'%s' is not an integer (the value of '%s')", where,
                    shown(value, strlen(value), vb, sizeof vb), nb);
    int at = find(d, name, len);
    if (at >= 0 && !replace)
        return fail(err, size, "%s'%s' is given twice (first at line %d)", where, nb, d->lines[at]);
    if (at < 0) {
        if (d->n == DEFINES_MAX)
            return fail(err, size, "%smore than %d names", where, DEFINES_MAX);
        at = d->n++;
        d->names[at] = xstrndup(name, len);
    }
    d->values[at] = v;
    d->lines[at] = line;
    return EXIT_OK;
}

int defines_add_arg(defines *d, const char *arg, char *err, size_t size)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return fail(err, size, "invalid --define '%s': expected NAME=INTEGER", arg);
    char where[64];
    snprintf(where, sizeof where, "invalid --define: ");
    return set(d, arg, (size_t)(eq - arg), eq + 1, 0, true, where, err, size);
}

int defines_parse_text(defines *d, const char *path, const char *text, size_t len, char *err,
                       size_t size)
{
    int line = 0;
    for (size_t at = 0; at < len;) {
        const char *start = text + at;
        const char *nl = memchr(start, '\n', len - at);
        size_t n = nl ? (size_t)(nl - start) : len - at;
        at += n + (nl != NULL);
        line++;
        char *buf = xstrndup(start, n);
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *s = buf, *e = buf + strlen(buf);
        while (isspace((unsigned char)*s))
            s++;
        while (e > s && isspace((unsigned char)e[-1]))
            *--e = '\0';
        int rc = EXIT_OK;
        char where[1100];
        snprintf(where, sizeof where, "%s:%d: ", path, line);
        if (*s) {
            char *eq = strchr(s, '=');
            char lb[80];
            if (!eq)
                rc = fail(err, size, "%sexpected NAME=VALUE, not '%s'", where,
                          shown(s, strlen(s), lb, sizeof lb));
            else {
                char *ne = eq;
                while (ne > s && isspace((unsigned char)ne[-1]))
                    ne--;
                rc = set(d, s, (size_t)(ne - s), eq + 1, line, false, where, err, size);
            }
        }
        free(buf);
        if (rc != EXIT_OK)
            return rc;
    }
    return EXIT_OK;
}

int defines_read_file(defines *d, const char *path, char *err, size_t size)
{
    char *text = NULL;
    size_t len = 0;
    fileio_status st = fileio_read(path, DEFINES_FILE_MAX, &text, &len);
    if (st != FILEIO_OK)
        return fail(err, size, "--defines %s: %s", path, fileio_status_text(st));
    free(d->file);
    d->file = xstrdup(path);
    int rc = defines_parse_text(d, path, text, len, err, size);
    free(text);
    return rc;
}
