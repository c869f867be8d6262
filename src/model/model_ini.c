/* model_ini: read architecture and product files (INI, through inih) into
 * a gpu_arch or gpu_product; each entry goes through model.c's filler, which
 * knows the keys. */
#include <ini.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "util/iniline.h"

typedef struct parse_ctx {
    model_filler *filler;
    char message[MODEL_ERR_MAX];
    int message_line; /* line of the first entry the filler refused */
    /* The reader feeds inih line by line and knows which line it is on. */
    const char *text, *end, *pos;
    int line, next_line;
} parse_ctx;

/* fgets over the text; a line longer than inih's buffer arrives in pieces,
 * and only a piece that starts a line advances the line number. */
static char *read_line(char *str, int num, void *stream)
{
    parse_ctx *c = stream;
    if (c->pos >= c->end || num < 2)
        return NULL;
    c->line = c->next_line;
    int n = 0;
    while (c->pos < c->end && n < num - 1) {
        char ch = *c->pos++;
        str[n++] = ch;
        if (ch == '\n') {
            c->next_line++;
            break;
        }
    }
    str[n] = '\0';
    return str;
}

static int on_entry(void *user, const char *section, const char *name, const char *value)
{
    parse_ctx *c = user;
    if (c->message_line)
        return 0;
    if (model_filler_add(c->filler, section, name, value, c->message, sizeof c->message))
        return 1;
    /* inih goes on after an error; keep the first refusal's words and line. */
    c->message_line = c->line;
    return 0;
}

static bool parse_file(const char *text, size_t len, model_filler *filler, model_error *err)
{
    parse_ctx c = {.filler = filler};
    /* NUL ends the text as it would for a C string. */
    size_t n = strnlen(text, len);
    int long_line = iniline_too_long(text, n);
    if (long_line) {
        err->line = long_line;
        snprintf(err->message, sizeof err->message, "line longer than %d characters", INILINE_MAX);
        return false;
    }
    c.text = c.pos = text;
    c.end = text + n;
    c.next_line = 1;
    int rc = ini_parse_stream(read_line, &c, on_entry, &c);
    if (rc != 0) {
        /* The earliest problem wins: a malformed line inih found by itself,
         * or an entry the filler refused. */
        bool handler_first = c.message_line && (rc < 0 || c.message_line <= rc);
        err->line = handler_first ? c.message_line : (rc > 0 ? rc : 0);
        snprintf(err->message, sizeof err->message, "%s",
                 handler_first ? c.message : "malformed line (expected [section] or key = value)");
        return false;
    }
    return model_filler_finish(filler, err);
}

bool model_parse_arch(const char *text, size_t len, gpu_arch *out, model_error *err)
{
    model_filler f;
    model_filler_arch(&f, out);
    return parse_file(text, len, &f, err);
}

bool model_parse_product(const char *text, size_t len, gpu_product *out, model_error *err)
{
    model_filler f;
    model_filler_product(&f, out);
    return parse_file(text, len, &f, err);
}
