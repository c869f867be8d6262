/* judge: what verify's raw measurements mean, and whether they agree with
 * the predictions. Pure: no I/O, no GPU, so every rule is unit-tested.
 *   - residency records -> the most blocks one SM held at once;
 *   - calibration: a straight line through the measurements of patterns
 *     whose count is not in doubt, inverted for the rest;
 *   - tolerances and verdicts per check. */
#ifndef GPULINT_JUDGE_H
#define GPULINT_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum vverdict {
    VV_AGREES,
    VV_DIFFERS,
    VV_NOT_COMPARABLE,
} vverdict;

const char *vverdict_name(vverdict v); /* "agrees", "differs", "not_comparable" */

/* records: (smid, start, end) per block, as the residency kernels write
 * them. Returns the largest number of blocks whose [start, end) intervals
 * overlap on one SM; *sms_at_max (may be NULL) counts the SMs that reached
 * it. A block that starts when another ends (equal timestamps) does not
 * overlap it: the SM freed the slot first. */
int judge_residency(const uint64_t *records, size_t n_blocks, int n_sms, int *sms_at_max);
/* The same records of a cluster launch (blocks c*size .. c*size+size-1 are
 * cluster c): the most clusters with every block running at one instant,
 * a cluster running from its last block's start to its first block's end. */
int judge_clusters(const uint64_t *records, size_t n_blocks, int size);

/* Least-squares line y = a + b x through n >= 2 points with distinct x.
 * False when it is not determined. */
bool judge_fit(const double *x, const double *y, int n, double *a, double *b);

/* The median of n values (sorts a copy); spread = (max - min) / median. */
double judge_median(const double *v, int n, double *spread);

/* A measured count against a predicted one: agrees within
 * max(abs_tol, rel_tol x predicted). */
vverdict judge_count(double predicted, double measured, double abs_tol, double rel_tol);

/* A measured time against the roofline's lower bound: a kernel may be slower
 * than its bound, never faster (beyond `slack`, the timer's share). */
vverdict judge_bound(double bound_s, double measured_s, double slack);

/* Divergence twins: the efficiency the divergent kernel's time implies
 * (converged / divergent) against the predicted one. When the prediction
 * says the warp splits but the divergent twin lost no time (it is at most
 * `same_time` slower, or faster), the compiler predicated the branch: not
 * comparable (the caller confirms it in the SASS where it can). */
vverdict judge_twins(double predicted, double t_divergent, double t_converged, double rel_tol,
                     double same_time, bool *predicated);

#endif
