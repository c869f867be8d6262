/* bank_calc: `gpulint bank` as a calculator (a stride, or a declaration and
 * an access, over a block): the analysis and its words, for the command line
 * and the web page alike. */
#ifndef GPULINT_BANK_CALC_H
#define GPULINT_BANK_CALC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/warp/bank.h"
#include "analysis/symbolic/cexpr.h"
#include "util/sbuf.h"

/* What is being analysed, in the user's terms. */
typedef struct bank_case {
    bool stride_mode;
    int64_t stride;
    int elem;
    cexpr_decl decl;
    const char *access_text;
    int64_t block[3];
    int warps;
    expr *offset;
} bank_case;

typedef struct bank_calc_in {
    bool seen_stride, seen_elem;
    int64_t stride;
    int elem;                  /* bytes, with --stride (default 4) */
    const char *decl, *access; /* NULL unless given */
    const char *block;         /* "32x8"; NULL = one warp */
} bank_calc_in;

typedef struct bank_calc {
    bank_case c;
    bank_result r;
    cexpr_access acc;
} bank_calc;

/* False with the command line's one-line message in err (a usage error). */
bool bank_calc_run(const bank_calc_in *in, bank_calc *out, char *err, size_t n);
/* What `gpulint bank` prints; explain adds every lane of the worst warp. */
void bank_calc_text(sbuf *out, const bank_calc *bc, bool explain);
void bank_calc_free(bank_calc *bc);

#endif
