/* cexpr: recursive-descent parsing of command-line C integer expressions,
 * declarations and subscripts into expr trees. Precedence and
 * associativity follow C; values are int64 (so a cast only documents the
 * user's intent, and threadIdx.x - 1 is -1 rather than 4294967295 as in
 * CUDA's unsigned arithmetic). Every error names a column. */
#include "analysis/symbolic/cexpr.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

typedef struct parser {
    const char *s;
    size_t pos;
    bool allow_names;
    int depth;
    bool failed;
    cexpr_error *err;
} parser;

static void error_at(parser *p, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void error_at(parser *p, size_t pos, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    if (!p->err)
        return;
    p->err->column = (int)pos + 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
    va_end(ap);
}

static void skip_space(parser *p)
{
    while (p->s[p->pos] && isspace((unsigned char)p->s[p->pos]))
        p->pos++;
}

static bool is_ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static bool is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Consumes `tok` if it comes next (after blanks) and is not the start of a
 * longer operator (so "<" does not match "<<" or "<="). */
static bool accept(parser *p, const char *tok)
{
    skip_space(p);
    size_t n = strlen(tok);
    if (strncmp(p->s + p->pos, tok, n) != 0)
        return false;
    char next = p->s[p->pos + n];
    static const char *const longer[][2] = {
        {"<", "<="}, {"<", "<<"}, {">", ">="}, {">", ">>"}, {"&", "&&"},
        {"|", "||"}, {"!", "!="}, {"=", "=="}, {"-", "--"}, {"+", "++"},
    };
    for (size_t i = 0; i < sizeof longer / sizeof longer[0]; i++)
        if (strcmp(tok, longer[i][0]) == 0 && next == longer[i][1][1])
            return false;
    p->pos += n;
    return true;
}

static void expect(parser *p, const char *tok)
{
    if (p->failed)
        return;
    if (!accept(p, tok)) {
        skip_space(p);
        if (p->s[p->pos])
            error_at(p, p->pos, "expected '%s' before '%c'", tok, p->s[p->pos]);
        else
            error_at(p, p->pos, "expected '%s' at the end", tok);
    }
}

/* Reads an identifier into buf (truncation is an error); false if none. */
static bool read_ident(parser *p, char *buf, size_t size)
{
    skip_space(p);
    size_t start = p->pos;
    if (!is_ident_start(p->s[p->pos]))
        return false;
    while (is_ident_char(p->s[p->pos]))
        p->pos++;
    size_t n = p->pos - start;
    if (n >= size) {
        error_at(p, start, "name too long");
        return false;
    }
    memcpy(buf, p->s + start, n);
    buf[n] = '\0';
    return true;
}

static expr *parse_cond(parser *p);

static expr *parse_number(parser *p)
{
    size_t start = p->pos;
    const char *s = p->s;
    int base = 10;
    if (s[p->pos] == '0' && (s[p->pos + 1] == 'x' || s[p->pos + 1] == 'X')) {
        base = 16;
        p->pos += 2;
        if (!isxdigit((unsigned char)s[p->pos])) {
            error_at(p, start, "malformed hexadecimal number");
            return NULL;
        }
    } else if (s[p->pos] == '0') {
        base = 8;
    }
    uint64_t v = 0;
    bool overflow = false;
    for (;; p->pos++) {
        char c = s[p->pos];
        int d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (base == 16 && c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (base == 16 && c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            break;
        if (d >= base) {
            error_at(p, start, "digit '%c' in an octal number", c);
            return NULL;
        }
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            overflow = true;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    while (s[p->pos] == 'u' || s[p->pos] == 'U' || s[p->pos] == 'l' || s[p->pos] == 'L')
        p->pos++;
    if (s[p->pos] == '.' || is_ident_char(s[p->pos])) {
        error_at(p, start, "not an integer constant");
        return NULL;
    }
    if (overflow || v > (uint64_t)INT64_MAX) {
        error_at(p, start, "integer constant too large");
        return NULL;
    }
    return expr_const((int64_t)v);
}

static bool is_type_word(const char *w)
{
    static const char *const words[] = {
        "int",      "unsigned", "signed",   "long",      "short",    "char",
        "size_t",   "int8_t",   "uint8_t",  "int16_t",   "uint16_t", "int32_t",
        "uint32_t", "int64_t",  "uint64_t", "ptrdiff_t", "intptr_t", "uintptr_t",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(w, words[i]) == 0)
            return true;
    return false;
}

/* After '(' : a parenthesised list of integer type words followed by ')'
 * is a cast; consume it and return true. Otherwise leave pos alone. */
static bool skip_cast(parser *p)
{
    size_t save = p->pos, end = p->pos;
    char w[CEXPR_NAME_MAX];
    int words = 0;
    for (;;) {
        size_t before = p->pos;
        if (!read_ident(p, w, sizeof w))
            break;
        if (!is_type_word(w)) {
            p->pos = before;
            break;
        }
        words++;
        end = p->pos;
    }
    if (p->failed)
        return false;
    if (words > 0) {
        p->pos = end;
        skip_space(p);
        if (p->s[p->pos] == ')') {
            p->pos++;
            return true;
        }
    }
    p->pos = save;
    return false;
}

static expr *parse_primary(parser *p)
{
    skip_space(p);
    size_t start = p->pos;
    char c = p->s[p->pos];
    if (isdigit((unsigned char)c))
        return parse_number(p);
    if (accept(p, "(")) {
        expr *e = parse_cond(p);
        expect(p, ")");
        if (p->failed) {
            expr_free(e);
            return NULL;
        }
        return e;
    }
    char name[CEXPR_NAME_MAX];
    if (!read_ident(p, name, sizeof name)) {
        if (p->failed)
            return NULL;
        if (c)
            error_at(p, start, "unexpected '%c'", c);
        else
            error_at(p, start, "expression ends too early");
        return NULL;
    }
    if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) {
        skip_space(p);
        if (p->s[p->pos] == '(') {
            p->pos++;
            expr *a = parse_cond(p);
            expect(p, ",");
            expr *b = p->failed ? NULL : parse_cond(p);
            expect(p, ")");
            if (p->failed) {
                expr_free(a);
                expr_free(b);
                return NULL;
            }
            return expr_binary(name[1] == 'i' ? OP_MIN : OP_MAX, a, b);
        }
    }
    skip_space(p);
    if (p->s[p->pos] == '.') {
        p->pos++;
        char member[CEXPR_NAME_MAX];
        if (!read_ident(p, member, sizeof member)) {
            error_at(p, p->pos, "expected a member name after '%s.'", name);
            return NULL;
        }
        char full[2 * CEXPR_NAME_MAX + 2];
        snprintf(full, sizeof full, "%s.%s", name, member);
        expr_builtin b;
        if (!expr_builtin_from_name(full, &b)) {
            error_at(p, start, "unknown identifier '%s'", full);
            return NULL;
        }
        return expr_builtin_sym(b);
    }
    expr_builtin b;
    if (expr_builtin_from_name(name, &b))
        return expr_builtin_sym(b);
    if (!p->allow_names) {
        error_at(p, start, "unknown identifier '%s'", name);
        return NULL;
    }
    return expr_named(name);
}

static expr *parse_unary(parser *p)
{
    if (++p->depth > CEXPR_MAX_DEPTH) {
        error_at(p, p->pos, "expression nested too deeply");
        return NULL;
    }
    expr *e = NULL;
    skip_space(p);
    size_t at = p->pos;
    if (accept(p, "-")) {
        expr *a = parse_unary(p);
        e = a ? expr_unary(OP_NEG, a) : NULL;
    } else if (accept(p, "+")) {
        e = parse_unary(p);
    } else if (accept(p, "!")) {
        expr *a = parse_unary(p);
        e = a ? expr_unary(OP_NOT, a) : NULL;
    } else if (accept(p, "~")) {
        expr *a = parse_unary(p);
        e = a ? expr_unary(OP_BNOT, a) : NULL;
    } else if (p->s[p->pos] == '-' || p->s[p->pos] == '+') {
        error_at(p, at, "'%c%c' is not an integer expression operator", p->s[at], p->s[at]);
    } else if (p->s[p->pos] == '(') {
        p->pos++;
        if (skip_cast(p)) {
            e = parse_unary(p);
        } else {
            p->pos = at;
            e = parse_primary(p);
        }
    } else {
        e = parse_primary(p);
    }
    p->depth--;
    return e;
}

typedef struct binop {
    const char *tok;
    expr_op op;
    int prec;
} binop;

/* C's binary operators, longest spellings first so "<<" wins over "<". */
static const binop binops[] = {
    {"||", OP_LOR, 4}, {"&&", OP_LAND, 5}, {"<<", OP_SHL, 11}, {">>", OP_SHR, 11},
    {"<=", OP_LE, 10}, {">=", OP_GE, 10},  {"==", OP_EQ, 9},   {"!=", OP_NE, 9},
    {"|", OP_OR, 6},   {"^", OP_XOR, 7},   {"&", OP_AND, 8},   {"<", OP_LT, 10},
    {">", OP_GT, 10},  {"+", OP_ADD, 12},  {"-", OP_SUB, 12},  {"*", OP_MUL, 13},
    {"/", OP_DIV, 13}, {"%", OP_MOD, 13},
};

static const binop *peek_binop(parser *p, int min_prec)
{
    size_t save = p->pos;
    for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++) {
        if (binops[i].prec < min_prec)
            continue;
        if (accept(p, binops[i].tok)) {
            p->pos = save;
            return &binops[i];
        }
    }
    return NULL;
}

static expr *parse_binary(parser *p, int min_prec)
{
    expr *left = parse_unary(p);
    while (left && !p->failed) {
        const binop *op = peek_binop(p, min_prec);
        if (!op)
            break;
        accept(p, op->tok);
        expr *right = parse_binary(p, op->prec + 1);
        if (!right) {
            expr_free(left);
            return NULL;
        }
        left = expr_binary(op->op, left, right);
    }
    if (p->failed) {
        expr_free(left);
        return NULL;
    }
    return left;
}

static expr *parse_cond(parser *p)
{
    if (++p->depth > CEXPR_MAX_DEPTH) {
        error_at(p, p->pos, "expression nested too deeply");
        return NULL;
    }
    expr *c = parse_binary(p, 4);
    if (c && accept(p, "?")) {
        expr *t = parse_cond(p);
        expect(p, ":");
        expr *f = p->failed ? NULL : parse_cond(p);
        if (p->failed) {
            expr_free(c);
            expr_free(t);
            expr_free(f);
            p->depth--;
            return NULL;
        }
        c = expr_cond(c, t, f);
    }
    p->depth--;
    return c;
}

static bool init_parser(parser *p, const char *s, bool allow_names, cexpr_error *err)
{
    memset(p, 0, sizeof *p);
    p->s = s ? s : "";
    p->allow_names = allow_names;
    p->err = err;
    if (err) {
        err->column = 0;
        err->msg[0] = '\0';
    }
    if (strlen(p->s) > CEXPR_MAX_LEN) {
        error_at(p, 0, "longer than %d characters", CEXPR_MAX_LEN);
        return false;
    }
    return true;
}

static bool at_end(parser *p)
{
    skip_space(p);
    if (p->failed)
        return false;
    if (p->s[p->pos]) {
        error_at(p, p->pos, "unexpected '%c'", p->s[p->pos]);
        return false;
    }
    return true;
}

expr *cexpr_parse(const char *s, bool allow_names, cexpr_error *err)
{
    parser p;
    if (!init_parser(&p, s, allow_names, err))
        return NULL;
    skip_space(&p);
    if (!p.s[p.pos]) {
        error_at(&p, p.pos, "empty expression");
        return NULL;
    }
    expr *e = parse_cond(&p);
    if (!e || !at_end(&p)) {
        expr_free(e);
        return NULL;
    }
    return e;
}

/* ---- declarations and subscripts ---- */

int cexpr_type_size(const char *type)
{
    static const struct {
        const char *name;
        int size;
    } types[] = {
        {"char", 1},
        {"signed char", 1},
        {"unsigned char", 1},
        {"int8_t", 1},
        {"uint8_t", 1},
        {"char2", 2},
        {"uchar2", 2},
        {"char4", 4},
        {"uchar4", 4},
        {"short", 2},
        {"unsigned short", 2},
        {"int16_t", 2},
        {"uint16_t", 2},
        {"half", 2},
        {"__half", 2},
        {"__nv_bfloat16", 2},
        {"short2", 4},
        {"ushort2", 4},
        {"half2", 4},
        {"__half2", 4},
        {"__nv_bfloat162", 4},
        {"short4", 8},
        {"ushort4", 8},
        {"int", 4},
        {"signed", 4},
        {"signed int", 4},
        {"unsigned", 4},
        {"unsigned int", 4},
        {"int32_t", 4},
        {"uint32_t", 4},
        {"float", 4},
        {"long", 8},
        {"unsigned long", 8},
        {"long long", 8},
        {"unsigned long long", 8},
        {"int64_t", 8},
        {"uint64_t", 8},
        {"size_t", 8},
        {"double", 8},
        {"float2", 8},
        {"int2", 8},
        {"uint2", 8},
        {"float4", 16},
        {"int4", 16},
        {"uint4", 16},
        {"double2", 16},
        {"longlong2", 16},
        {"ulonglong2", 16},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(type, types[i].name) == 0)
            return types[i].size;
    return 0;
}

static bool is_qualifier(const char *w)
{
    return strcmp(w, "__shared__") == 0 || strcmp(w, "extern") == 0 || strcmp(w, "static") == 0 ||
           strcmp(w, "volatile") == 0 || strcmp(w, "const") == 0 || strcmp(w, "__align__") == 0;
}

bool cexpr_parse_decl(const char *s, cexpr_decl *out, cexpr_error *err)
{
    memset(out, 0, sizeof *out);
    parser p;
    if (!init_parser(&p, s, false, err))
        return false;
    char words[8][CEXPR_NAME_MAX];
    size_t word_pos[8];
    int n = 0;
    for (;;) {
        skip_space(&p);
        size_t at = p.pos;
        char w[CEXPR_NAME_MAX];
        if (!read_ident(&p, w, sizeof w))
            break;
        if (strcmp(w, "__align__") == 0) {
            /* __align__(16): alignment does not move elements */
            expect(&p, "(");
            expr *a = p.failed ? NULL : parse_cond(&p);
            expr_free(a);
            expect(&p, ")");
            if (p.failed)
                return false;
            continue;
        }
        if (is_qualifier(w))
            continue;
        if (n >= 8) {
            error_at(&p, at, "too many words in the declaration");
            return false;
        }
        word_pos[n] = at;
        snprintf(words[n++], sizeof words[0], "%s", w);
    }
    if (p.failed)
        return false;
    if (n < 2) {
        skip_space(&p);
        error_at(&p, p.pos,
                 n == 0 ? "expected a type, e.g. 'float tile[32][33]'"
                        : "expected a type and a name, e.g. 'float tile[32][33]'");
        return false;
    }
    char type[64] = "";
    for (int i = 0; i < n - 1; i++) {
        size_t len = strlen(type);
        snprintf(type + len, sizeof type - len, "%s%s", i ? " " : "", words[i]);
    }
    out->elem_size = cexpr_type_size(type);
    if (!out->elem_size) {
        error_at(&p, word_pos[0], "unknown element type '%s'", type);
        return false;
    }
    snprintf(out->type, sizeof out->type, "%s", type);
    snprintf(out->name, sizeof out->name, "%s", words[n - 1]);
    while (accept(&p, "[")) {
        size_t at = p.pos;
        if (out->n_dims >= ACCESS_MAX_DIMS) {
            error_at(&p, at, "more than %d dimensions", ACCESS_MAX_DIMS);
            return false;
        }
        if (out->n_dims == 0 && accept(&p, "]")) {
            out->dims[out->n_dims++] = 0; /* extern __shared__ T s[]: extent unknown */
            continue;
        }
        expr *e = parse_cond(&p);
        expect(&p, "]");
        if (p.failed) {
            expr_free(e);
            return false;
        }
        int64_t v;
        expr_status st = expr_eval(e, NULL, &v, NULL);
        expr_free(e);
        if (st != EXPR_OK || v < 1 || v > (int64_t)1 << 31) {
            error_at(&p, at, "array extent must be a positive integer constant");
            return false;
        }
        out->dims[out->n_dims++] = v;
    }
    if (p.failed)
        return false;
    if (out->n_dims == 0) {
        skip_space(&p);
        error_at(&p, p.pos, "expected '[' after '%s': the declaration of an array", out->name);
        return false;
    }
    accept(&p, ";");
    return at_end(&p);
}

void cexpr_access_free(cexpr_access *a)
{
    for (int i = 0; i < a->n_idx; i++)
        expr_free(a->idx[i]);
    a->n_idx = 0;
}

bool cexpr_parse_access(const char *s, bool allow_names, cexpr_access *out, cexpr_error *err)
{
    memset(out, 0, sizeof *out);
    parser p;
    if (!init_parser(&p, s, allow_names, err))
        return false;
    skip_space(&p);
    if (!read_ident(&p, out->name, sizeof out->name)) {
        if (!p.failed)
            error_at(&p, p.pos, "expected an array name, e.g. 'tile[threadIdx.x]'");
        return false;
    }
    while (accept(&p, "[")) {
        if (out->n_idx >= ACCESS_MAX_DIMS) {
            error_at(&p, p.pos, "more than %d subscripts", ACCESS_MAX_DIMS);
            break;
        }
        expr *e = parse_cond(&p);
        expect(&p, "]");
        if (p.failed) {
            expr_free(e);
            break;
        }
        out->idx[out->n_idx++] = e;
    }
    if (!p.failed && out->n_idx == 0) {
        skip_space(&p);
        error_at(&p, p.pos, "expected '[' after '%s'", out->name);
    }
    if (p.failed || !at_end(&p)) {
        cexpr_access_free(out);
        return false;
    }
    return true;
}

expr *cexpr_byte_offset(const cexpr_decl *d, const cexpr_access *a, char *why, size_t why_size)
{
    if (strcmp(d->name, a->name) != 0) {
        snprintf(why, why_size, "the access reads '%s' but the declaration declares '%s'", a->name,
                 d->name);
        return NULL;
    }
    if (a->n_idx != d->n_dims) {
        snprintf(why, why_size,
                 "'%s' has %d dimension%s but the access has %d subscript%s: it must name one "
                 "element",
                 d->name, d->n_dims, d->n_dims == 1 ? "" : "s", a->n_idx, a->n_idx == 1 ? "" : "s");
        return NULL;
    }
    expr *off = expr_clone(a->idx[0]);
    for (int k = 1; k < a->n_idx; k++)
        off = expr_binary(OP_ADD, expr_binary(OP_MUL, off, expr_const(d->dims[k])),
                          expr_clone(a->idx[k]));
    return expr_binary(OP_MUL, off, expr_const(d->elem_size));
}
