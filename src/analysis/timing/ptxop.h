/* ptxop: an opcode split at its dots ("fma.rn.f32" is fma, rn, f32;
 * "LDG.E.128" is LDG, E, 128) and what PTX's type words say, shared by
 * the instruction mix (imix) and the pipes (pipes). Pure. */
#ifndef GPULINT_PTXOP_H
#define GPULINT_PTXOP_H

#include <stdbool.h>

enum { PTXOP_MAX_PARTS = 12 };

typedef struct ptxop {
    char buf[64];
    const char *p[PTXOP_MAX_PARTS]; /* p[0]: the mnemonic */
    int n;
} ptxop;

/* An opcode longer than 63 characters is cut; more than PTXOP_MAX_PARTS
 * parts leave the rest in the last. */
void ptxop_split(const char *op, ptxop *s);
/* Whether a part after the mnemonic is `part`. */
bool ptxop_has(const ptxop *s, const char *part);
bool ptxop_is(const ptxop *s, const char *mnemonic);

typedef enum ptxop_kind { PTXOP_NONE, PTXOP_INT, PTXOP_FLOAT, PTXOP_F64 } ptxop_kind;

/* A type word's width in bits ("f16x2": 32); 0 for a word that is not a
 * type and for .pred, which has no width in memory. */
int ptxop_type_bits(const char *t);
/* A type word's kind: .pred is an integer, .b128 none (it moves bits). */
ptxop_kind ptxop_type_kind(const char *t);

#endif
