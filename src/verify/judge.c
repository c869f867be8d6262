/* judge: measurements into verdicts (see judge.h). */
#include "verify/judge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

const char *vverdict_name(vverdict v)
{
    switch (v) {
    case VV_AGREES:
        return "agrees";
    case VV_DIFFERS:
        return "differs";
    case VV_NOT_COMPARABLE:
        break;
    }
    return "not_comparable";
}

typedef struct event {
    uint64_t t;
    int delta; /* +1 start, -1 end */
} event;

static int by_time(const void *pa, const void *pb)
{
    const event *a = pa, *b = pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->delta - b->delta; /* ends before starts at the same time */
}

int judge_residency(const uint64_t *records, size_t n_blocks, int n_sms, int *sms_at_max)
{
    if (sms_at_max)
        *sms_at_max = 0;
    if (n_sms <= 0 || n_blocks == 0)
        return 0;
    /* Group block indices by SM: count, then place (a counting sort). */
    size_t *count = xcalloc((size_t)n_sms + 1, sizeof *count);
    for (size_t i = 0; i < n_blocks; i++)
        if (records[3 * i] < (uint64_t)n_sms)
            count[records[3 * i] + 1]++;
    for (int s = 0; s < n_sms; s++)
        count[s + 1] += count[s];
    size_t *order = xcalloc(n_blocks, sizeof *order);
    size_t *fill = xcalloc((size_t)n_sms, sizeof *fill);
    for (size_t i = 0; i < n_blocks; i++) {
        uint64_t s = records[3 * i];
        if (s < (uint64_t)n_sms)
            order[count[s] + fill[s]++] = i;
    }
    event *ev = xcalloc(2 * n_blocks, sizeof *ev);
    int best = 0;
    int *per_sm = xcalloc((size_t)n_sms, sizeof *per_sm);
    for (int s = 0; s < n_sms; s++) {
        size_t n = 0;
        for (size_t k = count[s]; k < count[s + 1]; k++) {
            const uint64_t *r = &records[3 * order[k]];
            if (r[2] < r[1])
                continue; /* a record the kernel did not finish */
            ev[n++] = (event){r[1], +1};
            ev[n++] = (event){r[2], -1};
        }
        qsort(ev, n, sizeof *ev, by_time);
        int cur = 0;
        for (size_t k = 0; k < n; k++) {
            cur += ev[k].delta;
            if (cur > per_sm[s])
                per_sm[s] = cur;
        }
        if (per_sm[s] > best)
            best = per_sm[s];
    }
    if (sms_at_max)
        for (int s = 0; s < n_sms; s++)
            *sms_at_max += per_sm[s] == best;
    free(per_sm);
    free(ev);
    free(fill);
    free(order);
    free(count);
    return best;
}

int judge_clusters(const uint64_t *records, size_t n_blocks, int size)
{
    if (size <= 0 || n_blocks == 0)
        return 0;
    size_t n_clusters = n_blocks / (size_t)size, n = 0;
    event *ev = xcalloc(2 * n_clusters, sizeof *ev);
    for (size_t c = 0; c < n_clusters; c++) {
        uint64_t start = 0, end = UINT64_MAX;
        for (size_t b = c * (size_t)size; b < (c + 1) * (size_t)size; b++) {
            const uint64_t *r = &records[3 * b];
            if (r[2] < r[1]) { /* a record the kernel did not finish */
                start = end;
                break;
            }
            start = r[1] > start ? r[1] : start;
            end = r[2] < end ? r[2] : end;
        }
        if (start < end) {
            ev[n++] = (event){start, +1};
            ev[n++] = (event){end, -1};
        }
    }
    qsort(ev, n, sizeof *ev, by_time);
    int cur = 0, best = 0;
    for (size_t k = 0; k < n; k++) {
        cur += ev[k].delta;
        best = cur > best ? cur : best;
    }
    free(ev);
    return best;
}

bool judge_fit(const double *x, const double *y, int n, double *a, double *b)
{
    if (n < 2)
        return false;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    double d = n * sxx - sx * sx;
    if (fabs(d) < 1e-12 * (sxx > 1 ? sxx : 1))
        return false;
    *b = (n * sxy - sx * sy) / d;
    *a = (sy - *b * sx) / n;
    return *b > 0;
}

static int by_value(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b;
}

double judge_median(const double *v, int n, double *spread)
{
    if (n <= 0) {
        if (spread)
            *spread = 0;
        return 0;
    }
    double *c = xcalloc((size_t)n, sizeof *c);
    memcpy(c, v, (size_t)n * sizeof *c);
    qsort(c, (size_t)n, sizeof *c, by_value);
    double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
    if (spread)
        *spread = m > 0 ? (c[n - 1] - c[0]) / m : 0;
    free(c);
    return m;
}

vverdict judge_count(double predicted, double measured, double abs_tol, double rel_tol)
{
    if (isnan(predicted) || isnan(measured))
        return VV_NOT_COMPARABLE;
    double tol = fmax(abs_tol, rel_tol * fabs(predicted));
    return fabs(measured - predicted) <= tol ? VV_AGREES : VV_DIFFERS;
}

vverdict judge_bound(double bound_s, double measured_s, double slack)
{
    if (!(bound_s > 0) || !(measured_s > 0))
        return VV_NOT_COMPARABLE;
    return measured_s >= bound_s * (1.0 - slack) ? VV_AGREES : VV_DIFFERS;
}

vverdict judge_twins(double predicted, double t_divergent, double t_converged, double rel_tol,
                     double same_time, bool *predicated)
{
    *predicated = false;
    if (!(t_divergent > 0) || !(t_converged > 0) || isnan(predicted))
        return VV_NOT_COMPARABLE;
    double measured = t_converged / t_divergent;
    /* Divergence can only cost time: a divergent twin as fast as (or,
     * within noise, faster than) the converged one lost nothing. */
    if (predicted < 1.0 - rel_tol && measured >= 1.0 - same_time) {
        *predicated = true;
        return VV_NOT_COMPARABLE;
    }
    return judge_count(predicted, measured, 0.0, rel_tol);
}
