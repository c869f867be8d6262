/* ptxop: opcodes split at their dots, and PTX's type words (see ptxop.h).
 * The types are the PTX ISA's fundamental types (PTX ISA 8.x, 5.2.1) and
 * the packed ones its arithmetic instructions take. */
#include "analysis/timing/ptxop.h"

#include <stdio.h>
#include <string.h>

void ptxop_split(const char *op, ptxop *s)
{
    snprintf(s->buf, sizeof s->buf, "%s", op);
    s->n = 0;
    char *c = s->buf;
    for (;;) {
        s->p[s->n++] = c;
        char *dot = s->n < PTXOP_MAX_PARTS ? strchr(c, '.') : NULL;
        if (!dot)
            break;
        *dot = '\0';
        c = dot + 1;
    }
}

bool ptxop_has(const ptxop *s, const char *part)
{
    for (int i = 1; i < s->n; i++)
        if (strcmp(s->p[i], part) == 0)
            return true;
    return false;
}

bool ptxop_is(const ptxop *s, const char *mnemonic)
{
    return strcmp(s->p[0], mnemonic) == 0;
}

static const struct {
    const char *name;
    int bits;
    ptxop_kind kind;
} types[] = {
    {"b8", 8, PTXOP_INT},       {"u8", 8, PTXOP_INT},        {"s8", 8, PTXOP_INT},
    {"b16", 16, PTXOP_INT},     {"u16", 16, PTXOP_INT},      {"s16", 16, PTXOP_INT},
    {"f16", 16, PTXOP_FLOAT},   {"bf16", 16, PTXOP_FLOAT},   {"b32", 32, PTXOP_INT},
    {"u32", 32, PTXOP_INT},     {"s32", 32, PTXOP_INT},      {"f32", 32, PTXOP_FLOAT},
    {"f16x2", 32, PTXOP_FLOAT}, {"bf16x2", 32, PTXOP_FLOAT}, {"tf32", 32, PTXOP_FLOAT},
    {"b64", 64, PTXOP_INT},     {"u64", 64, PTXOP_INT},      {"s64", 64, PTXOP_INT},
    {"f64", 64, PTXOP_F64},     {"b128", 128, PTXOP_NONE},   {"pred", 0, PTXOP_INT},
};

static int type_index(const char *t)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(t, types[i].name) == 0)
            return (int)i;
    return -1;
}

int ptxop_type_bits(const char *t)
{
    int i = type_index(t);
    return i < 0 ? 0 : types[i].bits;
}

ptxop_kind ptxop_type_kind(const char *t)
{
    int i = type_index(t);
    return i < 0 ? PTXOP_NONE : types[i].kind;
}
