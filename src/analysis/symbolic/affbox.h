/* affbox: where one access site goes, over every thread of a launch and
 * every iteration of the loops around it, as the images of integer boxes
 * under an affine map: the site's byte offset is a sum of multiples of the
 * thread, block and loop-step indices (after splitting an index at the
 * divisions and remainders that cut it: tid / 32 and tid % 32), and its
 * guard and loop bounds, in disjunctive form, bound one index each (a
 * bound on two at once is cut in bands: a subset, or for the cover a
 * superset, said so). What does not fit this form is refused with the
 * reason; nothing is guessed.
 * Pure: no I/O, no globals. */
#ifndef GPULINT_ANALYSIS_AFFBOX_H
#define GPULINT_ANALYSIS_AFFBOX_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"
#include "analysis/symbolic/expr.h"

#define AFFBOX_MAX_TERMS 32 /* indices of one image */
#define AFFBOX_MAX_BOXES 48 /* disjuncts of a guard, and the boxes cut from them */

/* {base + sum coef[i] * x_i : 0 <= x_i < count[i]}, each address the start
 * of width bytes; coef > 0, count > 1. */
typedef struct affbox_image {
    int64_t base;
    int n;
    int64_t coef[AFFBOX_MAX_TERMS], count[AFFBOX_MAX_TERMS];
    int64_t span; /* base + span: one past the last byte */
    int width;
} affbox_image;

/* The site's addresses as the union of *n images (0 when no thread reaches
 * it). The site's expressions must have every name but the loop counters
 * bound (expr_bind), the launch's dimensions included. A loop whose step is
 * not a constant added to its counter (stride *= 2) is followed iteration
 * by iteration where its counter alone decides them and the images fit;
 * else through its first iteration only: *partial, the images a subset,
 * with *why saying so. False, with *why, when the site is not of this
 * form. */
bool affbox_images(const mem_access *a, const int64_t grid[3], const int64_t block[3],
                   affbox_image out[AFFBOX_MAX_BOXES], int *n, bool *partial, const char **why);

/* affbox_images' reason where a condition bounds two indices at once (k
 * <= j: a triangle): the images are the rows it holds for over whole
 * bands of the index whose term spans least, a subset; affbox_cover then
 * gives the bands' superset. */
#define AFFBOX_BANDED                                                                              \
    "a condition around it bounds two indices at once: counted in bands of one of them, the "      \
    "rows that hold over a whole band (a subset)"

/* The same, where a condition bounds two indices at once (j2 > j1, a
 * bounds check on blockIdx.x * B + threadIdx.x - halo) and cannot be cut
 * into boxes, or compares a value read from memory: the box without that
 * condition, a superset of the site's addresses, for an estimate
 * (affbox_images fails there). */
bool affbox_cover(const mem_access *a, const int64_t grid[3], const int64_t block[3],
                  affbox_image out[AFFBOX_MAX_BOXES], int *n, bool *partial, const char **why);

/* A loop whose counter alone (with names, which may be NULL, binding the
 * rest) decides its iterations: how many, at most max, with the counter's
 * values into values (NULL: not kept); 0 when they depend on anything
 * else (a thread index, an outer counter) or exceed max. */
int affbox_loop_values(const loop_ctx *l, const expr_env *names, int64_t *values, int max);
/* The same count without the values: in closed form where the counter
 * steps by a constant against a bound it does not change (i < n, i += s),
 * else as affbox_loop_values; 0 when unknown or above max. */
int64_t affbox_loop_trips(const loop_ctx *l, const expr_env *names, int64_t max);

#endif
