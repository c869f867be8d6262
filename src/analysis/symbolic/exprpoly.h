/* exprpoly: whether two index expressions differ by a constant, by
 * expanding each into a sum of integer multiples of products of atoms
 * (names, builtins, and any subtree that is not +, -, * or a shift by a
 * constant, compared by its text). The question alias analysis asks of two
 * accesses through one pointer: `p[b + 2 * (n * i + j)]` and the same plus
 * 1 never overlap, whatever b, n, i and j are. Pure: no I/O, no globals. */
#ifndef GPULINT_ANALYSIS_EXPRPOLY_H
#define GPULINT_ANALYSIS_EXPRPOLY_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/symbolic/expr.h"

/* a - b into *d where that difference is the same constant for every
 * value of every name; false where it is not, or cannot be shown (an
 * unknown subtree or a loop sum, too many terms, a coefficient beyond 64
 * bits). */
bool exprpoly_const_difference(const expr *a, const expr *b, int64_t *d);

/* A copy of e where every sum whose polynomial is a constant is that
 * constant, then folded: `min(1, 8 * (i / 64) + 8 - 8 * (i / 64))` is 1,
 * whatever i is. For counts summed over a counter's values, where a term
 * that cancels would otherwise make every value be evaluated. */
expr *exprpoly_fold(const expr *e);

#endif
