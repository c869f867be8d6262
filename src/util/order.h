/* order: qsort comparators for plain numbers, ascending. */
#ifndef GPULINT_ORDER_H
#define GPULINT_ORDER_H

int order_i64(const void *a, const void *b);    /* int64_t */
int order_double(const void *a, const void *b); /* double; NaNs compare equal to all */

#endif
