/* manifest: verify.ini and verify.h into cases (see manifest.h). */
#include "verify/manifest.h"

#include <ctype.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/cexpr.h"
#include "util/iniline.h"
#include "util/sbuf.h"

static const char *const check_names[VCHECK_COUNT] = {"occupancy",  "bank",     "coalescing",
                                                      "divergence", "roofline", "time"};

const char *const vman_timing_constants[] = {"launch_ns",
                                             "block_dispatch_ns",
                                             "block_interval_ns",
                                             "block_serial_ns",
                                             "l1_latency_cycles",
                                             "l2_latency_ns",
                                             "dram_latency_ns",
                                             "dram_read_bandwidth",
                                             "l2_read_bandwidth",
                                             "l2_write_bandwidth",
                                             "l2_partial_write_bandwidth",
                                             "barrier_cycles",
                                             "barrier_warp_cycles",
                                             NULL};

const char *vcheck_name(vcheck c)
{
    return c >= 0 && c < VCHECK_COUNT ? check_names[c] : "?";
}

bool vcheck_from_name(const char *s, vcheck *out)
{
    for (int i = 0; i < VCHECK_COUNT; i++)
        if (strcmp(s, check_names[i]) == 0) {
            *out = (vcheck)i;
            return true;
        }
    return false;
}

static const struct {
    const char *name;
    vtype type;
    size_t size;
} types[] = {
    {"f32", VT_F32, 4}, {"f64", VT_F64, 8}, {"f16", VT_F16, 2},
    {"i32", VT_I32, 4}, {"u64", VT_U64, 8}, {"u8", VT_U8, 1},
};

size_t vtype_size(vtype t)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].type == t)
            return types[i].size;
    return 0;
}

const char *vtype_name(vtype t)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].type == t)
            return types[i].name;
    return "?";
}

static bool type_from_name(const char *s, size_t n, vtype *out)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == n && strncmp(s, types[i].name, n) == 0) {
            *out = types[i].type;
            return true;
        }
    return false;
}

/* ---------------------------------------------------------------- sizes */

bool vman_eval(const vmanifest *m, const char *text, int64_t *out, char *why, size_t why_len)
{
    cexpr_error ce;
    expr *e = cexpr_parse(text, true, &ce);
    if (!e) {
        snprintf(why, why_len, "'%s': %s", text, ce.msg);
        return false;
    }
    expr_env env;
    expr_env_init(&env);
    for (int i = 0; i < m->n_sizes; i++)
        expr_env_set(&env, m->sizes[i].name, m->sizes[i].value);
    const char *unbound = NULL;
    expr_status st = expr_eval(e, &env, out, &unbound);
    if (st == EXPR_UNBOUND) /* the name lives in e: word it before freeing */
        snprintf(why, why_len, "'%s': no size named '%s' in verify.h", text,
                 unbound ? unbound : "?");
    expr_free(e);
    if (st == EXPR_UNBOUND)
        return false;
    if (st != EXPR_OK) {
        snprintf(why, why_len, "'%s' cannot be evaluated (%s)", text,
                 st == EXPR_OVERFLOW   ? "overflow"
                 : st == EXPR_DIV_ZERO ? "division by zero"
                                       : "not an integer expression");
        return false;
    }
    return true;
}

static bool fail(vman_error *err, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool fail(vman_error *err, const char *file, int line, const char *fmt, ...)
{
    err->file = file;
    err->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return false;
}

bool vman_parse_sizes(const char *text, size_t len, vmanifest *m, vman_error *err)
{
    int line = 0;
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        line++;
        char buf[512];
        if (n >= sizeof buf)
            n = sizeof buf - 1;
        memcpy(buf, p, n);
        buf[n] = '\0';
        p += n + (nl ? 1 : 0);
        char name[VMAN_NAME_MAX];
        int used = 0;
        const char *s = buf;
        while (*s == ' ' || *s == '\t')
            s++;
        if (sscanf(s, "#define %63[A-Za-z0-9_]%n", name, &used) != 1)
            continue;
        const char *value = s + used;
        if (*value != ' ' && *value != '\t')
            continue; /* a function-like macro */
        while (*value == ' ' || *value == '\t')
            value++;
        /* Only integer definitions: the rest (helpers, include guards). */
        if (!*value || !(isdigit((unsigned char)*value) || *value == '('))
            continue;
        char *comment = strstr((char *)value, "/*");
        if (comment)
            *comment = '\0';
        comment = strstr((char *)value, "//");
        if (comment)
            *comment = '\0';
        int64_t v;
        char why[200];
        if (!vman_eval(m, value, &v, why, sizeof why))
            return fail(err, "verify.h", line, "%s", why);
        if (m->n_sizes == VMAN_MAX_SIZES)
            return fail(err, "verify.h", line, "more than %d sizes", VMAN_MAX_SIZES);
        snprintf(m->sizes[m->n_sizes].name, VMAN_NAME_MAX, "%s", name);
        m->sizes[m->n_sizes++].value = v;
    }
    return true;
}

/* ---------------------------------------------------------------- verify.ini */

typedef struct ini_ctx {
    vmanifest *m;
    const char *pos, *end;
    int line, next_line;
    int group; /* current group, -1 before the first section */
    bool failed;
    vman_error *err;
} ini_ctx;

static char *read_line(char *str, int num, void *stream)
{
    ini_ctx *c = stream;
    if (c->pos >= c->end)
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

static bool bad(ini_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool bad(ini_ctx *c, const char *fmt, ...)
{
    if (c->failed)
        return false;
    c->failed = true;
    c->err->file = "verify.ini";
    c->err->line = c->line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err->message, sizeof c->err->message, fmt, ap);
    va_end(ap);
    return false;
}

/* Words separated by blanks; a "..." word keeps its blanks (quotes dropped). */
static int split_words(const char *s, char words[][256], int max)
{
    int n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        if (n == max)
            return -1;
        char *w = words[n++];
        size_t k = 0;
        bool quoted = false;
        while (*s && (quoted || (*s != ' ' && *s != '\t'))) {
            if (*s == '"') {
                quoted = !quoted;
                s++;
                continue;
            }
            if (k + 1 < 256)
                w[k++] = *s;
            s++;
        }
        w[k] = '\0';
        if (quoted)
            return -2;
    }
    return n;
}

static int find_buffer(const vgroup *g, const char *name, size_t n)
{
    for (int i = 0; i < g->n_buffers; i++)
        if (strlen(g->buffers[i].name) == n && strncmp(g->buffers[i].name, name, n) == 0)
            return i;
    return -1;
}

/* buffers = NAME:TYPE[COUNT]=INIT ... */
static bool parse_buffers(ini_ctx *c, vgroup *g, const char *value)
{
    char words[VMAN_MAX_BUFFERS + 1][256];
    int n = split_words(value, words, VMAN_MAX_BUFFERS + 1);
    if (n < 0 || n > VMAN_MAX_BUFFERS)
        return bad(c, "buffers: at most %d buffers", VMAN_MAX_BUFFERS);
    for (int i = 0; i < n; i++) {
        vbuffer *b = &g->buffers[g->n_buffers];
        const char *w = words[i];
        const char *colon = strchr(w, ':'), *open = strchr(w, '['), *close = strrchr(w, ']');
        if (!colon || !open || !close || colon > open || open > close)
            return bad(c, "buffers: '%s' is not NAME:TYPE[COUNT]", w);
        if ((size_t)(colon - w) >= VMAN_NAME_MAX || colon == w)
            return bad(c, "buffers: bad name in '%s'", w);
        memcpy(b->name, w, (size_t)(colon - w));
        b->name[colon - w] = '\0';
        if (find_buffer(g, b->name, strlen(b->name)) >= 0)
            return bad(c, "buffers: '%s' is named twice", b->name);
        if (!type_from_name(colon + 1, (size_t)(open - colon - 1), &b->type))
            return bad(c, "buffers: unknown type in '%s' (f32 f64 f16 i32 u64 u8)", w);
        char count[200];
        snprintf(count, sizeof count, "%.*s", (int)(close - open - 1), open + 1);
        char why[200];
        if (!vman_eval(c->m, count, &b->count, why, sizeof why))
            return bad(c, "buffers: %s", why);
        if (b->count <= 0)
            return bad(c, "buffers: '%s' has no elements", b->name);
        b->init = VI_ZERO;
        if (close[1] == '=') {
            const char *init = close + 2;
            if (strcmp(init, "zero") == 0)
                b->init = VI_ZERO;
            else if (strcmp(init, "rand") == 0)
                b->init = VI_RAND;
            else if (strcmp(init, "small") == 0)
                b->init = VI_SMALL;
            else if (strcmp(init, "matrix") == 0)
                b->init = VI_MATRIX;
            else if (strcmp(init, "cycle") == 0)
                b->init = VI_CYCLE;
            else
                return bad(c, "buffers: unknown initial value '%s' (zero rand small matrix cycle)",
                           init);
            if (b->init == VI_CYCLE && (b->type != VT_I32 || b->count % 32 || b->count < 64 ||
                                        b->count > (int64_t)1 << 31))
                return bad(c,
                           "buffers: a cycle is i32, whole 128-byte lines (at least two), "
                           "below 2^31 words; '%s' is not",
                           b->name);
        } else if (close[1]) {
            return bad(c, "buffers: '%s' has text after ']'", w);
        }
        g->n_buffers++;
    }
    return true;
}

static bool parse_args(ini_ctx *c, const vgroup *g, vcase *k, const char *value)
{
    k->n_args = 0;
    for (const char *p = value; *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (k->n_args == VMAN_MAX_ARGS)
            return bad(c, "args: at most %d arguments", VMAN_MAX_ARGS);
        varg *a = &k->args[k->n_args++];
        const char *colon = memchr(p, ':', n);
        if (colon) {
            a->buffer = -1;
            if (!type_from_name(p, (size_t)(colon - p), &a->type) || a->type == VT_F16 ||
                a->type == VT_U8)
                return bad(c, "args: bad scalar '%.*s' (f32:V f64:V i32:V u64:V)", (int)n, p);
            char num[64];
            snprintf(num, sizeof num, "%.*s", (int)(n - (size_t)(colon - p) - 1), colon + 1);
            char *endp;
            a->value = strtod(num, &endp);
            int64_t sized;
            char why[200];
            if (num[0] && *endp && (a->type == VT_I32 || a->type == VT_U64) &&
                vman_eval(c->m, num, &sized, why, sizeof why)) {
                if (a->type == VT_I32 && sized > INT32_MAX)
                    return bad(c, "args: %s is %lld, beyond i32", num, (long long)sized);
                a->value = (double)sized;
            } else if (!num[0] || *endp) {
                return bad(c, "args: '%s' is not a number", num);
            }
        } else {
            a->buffer = find_buffer(g, p, n);
            if (a->buffer < 0)
                return bad(c, "args: no buffer named '%.*s' in [%s]", (int)n, p, g->name);
        }
        p += n + (comma ? 1 : 0);
        if (comma && !*p)
            return bad(c, "args: empty argument at the end");
    }
    return true;
}

static bool parse_result(ini_ctx *c, const vgroup *g, vcase *k, const char *value)
{
    static const struct {
        const char *name;
        vresult fn;
        int n_bufs;
        bool has_n;
    } fns[] = {
        {"add", VR_ADD, 3, false},
        {"copy", VR_COPY, 2, false},
        {"transpose", VR_TRANSPOSE, 2, true},
        {"reduce", VR_REDUCE, 2, true},
        {"gemm", VR_GEMM, 3, true},
        {"gemm16", VR_GEMM16, 3, true},
    };
    const char *open = strchr(value, '('), *close = strrchr(value, ')');
    if (!open || !close || close < open || close[1])
        return bad(c, "check: expected FN(ARGS), got '%s'", value);
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        if (strlen(fns[i].name) != (size_t)(open - value) ||
            strncmp(value, fns[i].name, (size_t)(open - value)) != 0)
            continue;
        k->result.fn = fns[i].fn;
        char inner[256];
        snprintf(inner, sizeof inner, "%.*s", (int)(close - open - 1), open + 1);
        char *save = NULL;
        int nb = 0;
        for (char *tok = strtok_r(inner, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (nb < fns[i].n_bufs) {
                int b = find_buffer(g, tok, strlen(tok));
                if (b < 0)
                    return bad(c, "check: no buffer named '%s'", tok);
                k->result.buf[nb++] = b;
            } else if (fns[i].has_n && nb == fns[i].n_bufs) {
                char why[200];
                if (!vman_eval(c->m, tok, &k->result.n, why, sizeof why))
                    return bad(c, "check: %s", why);
                nb++;
            } else {
                return bad(c, "check: too many arguments to %s", fns[i].name);
            }
        }
        if (nb != fns[i].n_bufs + (fns[i].has_n ? 1 : 0))
            return bad(c, "check: %s takes %d arguments", fns[i].name,
                       fns[i].n_bufs + (fns[i].has_n ? 1 : 0));
        return true;
    }
    return bad(c, "check: unknown function in '%s' (add copy transpose reduce gemm gemm16)", value);
}

static bool size_option(ini_ctx *c, const char *key, const char *v, int64_t *out)
{
    char why[200];
    if (!vman_eval(c->m, v, out, why, sizeof why))
        return bad(c, "%s: %s", key, why);
    if (*out < 0)
        return bad(c, "%s: negative", key);
    return true;
}

/* The kernel line: NAME then options. */
static bool parse_case(ini_ctx *c, vgroup *g, vkind kind, const char *ceiling, const char *value)
{
    char words[24][256];
    int n = split_words(value, words, 24);
    if (n == -2)
        return bad(c, "unbalanced quotes");
    if (n <= 0 || !words[0][0]) /* `kernel = ""`: quotes around nothing */
        return bad(c, "expected a kernel name");
    vmanifest *m = c->m;
    m->cases = xrealloc(m->cases, (size_t)(m->n_cases + 1) * sizeof *m->cases);
    vcase *k = &m->cases[m->n_cases];
    memset(k, 0, sizeof *k);
    k->group = (int)(g - m->groups);
    k->line = c->line;
    k->kind = kind;
    k->carveout = -1;
    k->restore = -1;
    if (ceiling)
        snprintf(k->ceiling, sizeof k->ceiling, "%s", ceiling);
    if (strlen(words[0]) >= VMAN_NAME_MAX)
        return bad(c, "kernel name too long");
    snprintf(k->kernel, sizeof k->kernel, "%.*s", (int)sizeof k->kernel - 1, words[0]);
    for (int i = 1; i < n; i++) {
        char *w = words[i];
        char *eq = strchr(w, '=');
        if (!eq) {
            if (strcmp(w, "sparse") == 0)
                k->sparse = true;
            else if (strcmp(w, "scattered") == 0)
                k->scattered = true;
            else if (strcmp(w, "straddles") == 0)
                k->straddles = true;
            else if (strcmp(w, "floor") == 0)
                k->floor = true;
            else if (strcmp(w, "alone") == 0 && kind == VK_TIMING)
                k->alone = true;
            else if (strcmp(w, "nonportable") == 0 && kind == VK_RESIDENCY)
                k->nonportable = true;
            else
                return bad(c, "unknown option '%s'", w);
            continue;
        }
        *eq = '\0';
        const char *v = eq + 1;
        int64_t x;
        if (strcmp(w, "args") == 0) {
            if (!parse_args(c, g, k, v))
                return false;
        } else if (strcmp(w, "block") == 0) {
            if (!size_option(c, w, v, &x))
                return false;
            if (x < 1 || x > 4096)
                return bad(c, "block: %lld threads", (long long)x);
            k->block = (int)x;
        } else if (strcmp(w, "cluster") == 0 && kind == VK_RESIDENCY) {
            if (!size_option(c, w, v, &x))
                return false;
            if (x < 1 || x > 64)
                return bad(c, "cluster: 1 to 64 blocks, got %lld", (long long)x);
            k->cluster = (int)x;
        } else if (strcmp(w, "dynamic") == 0) {
            if (!size_option(c, w, v, &k->dynamic_smem))
                return false;
        } else if (strcmp(w, "carveout") == 0) {
            if (!size_option(c, w, v, &x))
                return false;
            if (x > 100)
                return bad(c, "carveout: %lld%% is above 100%%", (long long)x);
            k->carveout = (int)x;
        } else if (strcmp(w, "requests") == 0) {
            if (!size_option(c, w, v, &k->requests))
                return false;
        } else if (strcmp(w, "compulsory") == 0) {
            if (!size_option(c, w, v, &k->compulsory))
                return false;
        } else if (strcmp(w, "bytes") == 0 || strcmp(w, "flops") == 0) {
            if (!size_option(c, w, v, &k->work))
                return false;
        } else if (strcmp(w, "work") == 0 && kind == VK_TIMING) {
            if (!size_option(c, w, v, &k->work))
                return false;
            k->has_work = true;
        } else if (strcmp(w, "blocks_per_sm") == 0 && kind == VK_TIMING) {
            if (!size_option(c, w, v, &x))
                return false;
            if (x < 1 || x > 65536)
                return bad(c, "blocks_per_sm: 1 to 65536, got %lld", (long long)x);
            k->blocks_per_sm = (int)x;
        } else if (strcmp(w, "calibrate") == 0) {
            char *endp;
            k->calibrate_value = strtod(v, &endp);
            if (!*v || *endp || !(k->calibrate_value > 0))
                return bad(c, "calibrate: a positive count, got '%s'", v);
            k->calibrate = true;
        } else if (strcmp(w, "min_cc") == 0) {
            if (!size_option(c, w, v, &x))
                return false;
            if (x < 10 || x > 200)
                return bad(c, "min_cc: 10 x major + minor, e.g. 70, got %lld", (long long)x);
            k->min_cc = (int)x;
        } else if (strcmp(w, "grid") == 0) {
            if (!size_option(c, w, v, &k->grid))
                return false;
        } else if (strcmp(w, "threads") == 0) {
            if (!size_option(c, w, v, &k->threads))
                return false;
        } else if (strcmp(w, "book") == 0) {
            char *endp;
            k->book_ms = strtod(v, &endp);
            if (!*v || *endp || !(k->book_ms > 0))
                return bad(c, "book: a time in ms, got '%s'", v);
        } else if (strcmp(w, "reference") == 0) {
            snprintf(k->reference, sizeof k->reference, "%s", v);
        } else if (strcmp(w, "restore") == 0) {
            k->restore = find_buffer(g, v, strlen(v));
            if (k->restore < 0)
                return bad(c, "restore: no buffer named '%s'", v);
        } else if (strcmp(w, "check") == 0) {
            if (!parse_result(c, g, k, v))
                return false;
        } else if (strcmp(w, "step") == 0) {
            snprintf(k->step, sizeof k->step, "%s", v);
        } else {
            return bad(c, "unknown option '%s'", w);
        }
    }
    /* What each kind cannot do without. */
    if (kind == VK_RESIDENCY && k->block == 0)
        return bad(c, "%s: block=N is required", k->kernel);
    if (kind == VK_SECTORS && k->requests <= 0)
        return bad(c, "%s: requests=EXPR is required", k->kernel);
    if (kind == VK_TWINS && !k->reference[0])
        return bad(c, "%s: reference=KERNEL is required", k->kernel);
    if (kind == VK_CEILING && k->work <= 0)
        return bad(c, "%s: bytes= or flops= is required", k->kernel);
    if (kind == VK_TIMING && !k->has_work)
        return bad(c, "%s: work=EXPR is required", k->kernel);
    if (kind == VK_TIMING && !k->blocks_per_sm && !(k->grid > 0 && k->threads > 0))
        return bad(c, "%s: grid= (or blocks_per_sm=) and threads= are required", k->kernel);
    if (kind == VK_TIMING && k->blocks_per_sm && !(k->threads > 0))
        return bad(c, "%s: threads= is required", k->kernel);
    m->n_cases++;
    return true;
}

static int on_entry(void *user, const char *section, const char *name, const char *value)
{
    ini_ctx *c = user;
    if (c->failed)
        return 0;
    vmanifest *m = c->m;
    if (c->group < 0 || strcmp(m->groups[c->group].name, section) != 0) {
        /* inih calls with the section of each entry: a new one starts here. */
        for (int i = 0; i < m->n_groups; i++)
            if (strcmp(m->groups[i].name, section) == 0)
                return bad(c, "section [%s] appears twice", section);
        m->groups = xrealloc(m->groups, (size_t)(m->n_groups + 1) * sizeof *m->groups);
        vgroup *g = &m->groups[m->n_groups];
        memset(g, 0, sizeof *g);
        snprintf(g->name, sizeof g->name, "%s", section);
        if (strncmp(section, "ladder ", 7) == 0) {
            snprintf(g->ladder, sizeof g->ladder, "%s", section + 7);
            g->check = VCHECK_ROOFLINE;
        } else if (strcmp(section, "ceilings") == 0) {
            g->check = VCHECK_ROOFLINE;
        } else if (strcmp(section, "calibration") == 0) {
            g->check = VCHECK_TIME;
        } else if (strcmp(section, "time") == 0) {
            return bad(c, "[time] takes no cases: the time rows judge the [roofline] and ladder "
                          "kernels");
        } else if (!vcheck_from_name(section, &g->check)) {
            return bad(c,
                       "unknown section [%s] (occupancy bank coalescing divergence ceilings "
                       "roofline calibration, ladder NAME)",
                       section);
        }
        c->group = m->n_groups++;
    }
    vgroup *g = &m->groups[c->group];
    if (strcmp(name, "file") == 0) {
        if (g->file[0])
            return bad(c, "file is given twice");
        if (strlen(value) >= sizeof g->file || strchr(value, '/'))
            return bad(c, "file: a name in the kernels directory, got '%s'", value);
        snprintf(g->file, sizeof g->file, "%s", value);
        return 1;
    }
    if (strcmp(name, "book") == 0 && g->ladder[0]) {
        snprintf(g->book, sizeof g->book, "%s", value);
        return 1;
    }
    if (strcmp(name, "nvcc") == 0) {
        snprintf(g->nvcc, sizeof g->nvcc, "%s", value);
        return 1;
    }
    if (strcmp(name, "buffers") == 0)
        return g->n_buffers == 0 ? parse_buffers(c, g, value) : bad(c, "buffers is given twice");
    static const char *const ceilings[] = {"dram", "fp32", "fp64", "fp16_tensor", "bf16_tensor"};
    bool is_ceiling = false;
    for (size_t i = 0; i < sizeof ceilings / sizeof ceilings[0]; i++)
        is_ceiling = is_ceiling || strcmp(name, ceilings[i]) == 0;
    const char *section_kind = g->ladder[0] ? "ladder" : g->name;
    struct {
        const char *section, *key;
        vkind kind;
    } kinds[] = {
        {"occupancy", "probe", VK_RESIDENCY}, {"bank", "probe", VK_CYCLES},
        {"coalescing", "probe", VK_SECTORS},  {"divergence", "lanes", VK_LANES},
        {"divergence", "timing", VK_TWINS},   {"roofline", "kernel", VK_TIME},
        {"ladder", "step", VK_TIME},
    };
    if (strcmp(section_kind, "calibration") == 0) {
        bool known = false;
        for (int i = 0; vman_timing_constants[i]; i++)
            known = known || strcmp(name, vman_timing_constants[i]) == 0;
        if (!known)
            return bad(c, "[calibration]: '%s' is not a [timing] constant it can measure", name);
        if (!g->file[0])
            return bad(c, "file must come before the kernels");
        if (!parse_case(c, g, VK_TIMING, NULL, value))
            return false;
        snprintf(m->cases[m->n_cases - 1].constant, VMAN_NAME_MAX, "%s", name);
        return true;
    }
    if (strcmp(section_kind, "ceilings") == 0 && is_ceiling) {
        if (!g->file[0])
            return bad(c, "file must come before the kernels");
        return parse_case(c, g, VK_CEILING, name, value);
    }
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].section, section_kind) == 0 && strcmp(kinds[i].key, name) == 0) {
            if (!g->file[0])
                return bad(c, "file must come before the kernels");
            return parse_case(c, g, kinds[i].kind, NULL, value);
        }
    return bad(c, "unknown key '%s' in [%s]", name, section);
}

bool vman_parse(const char *text, size_t len, vmanifest *m, vman_error *err)
{
    int line = iniline_too_long(text, len);
    if (line)
        return fail(err, "verify.ini", line, "line longer than %d characters", INILINE_MAX);
    ini_ctx c = {.m = m,
                 .pos = text,
                 .end = text + strnlen(text, len),
                 .next_line = 1,
                 .group = -1,
                 .err = err};
    int rc = ini_parse_stream(read_line, &c, on_entry, &c);
    if (c.failed)
        return false;
    if (rc != 0)
        return fail(err, "verify.ini", rc > 0 ? rc : 0,
                    "malformed line (expected [section] or key = value)");
    for (int i = 0; i < m->n_groups; i++)
        if (!m->groups[i].file[0])
            return fail(err, "verify.ini", 0, "[%s] has no file", m->groups[i].name);
    return true;
}

void vman_free(vmanifest *m)
{
    free(m->groups);
    free(m->cases);
    memset(m, 0, sizeof *m);
}
