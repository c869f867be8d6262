/* mixprec: Amdahl's law over the parts of a mixed-precision workload. */
#include "analysis/calc/mixprec.h"

#include <math.h>
#include <stdio.h>

bool mixprec_speedup(const mixprec_part *parts, int n, double *speedup, char *why, size_t why_size)
{
    double sum = 0, time = 0;
    for (int i = 0; i < n; i++) {
        if (!(parts[i].fraction >= 0 && parts[i].fraction <= 1)) {
            snprintf(why, why_size, "part %d: a fraction is between 0 and 1", i + 1);
            return false;
        }
        if (!(parts[i].rate > 0) || !isfinite(parts[i].rate)) {
            snprintf(why, why_size, "part %d: a rate is a positive number", i + 1);
            return false;
        }
        sum += parts[i].fraction;
        time += parts[i].fraction / parts[i].rate;
    }
    if (n == 0 || fabs(sum - 1) > 1e-6) {
        snprintf(why, why_size, "the fractions add up to %g, not 1", sum);
        return false;
    }
    *speedup = 1 / time;
    return true;
}

bool mixprec_fraction_for(double target, double rate, double *fraction)
{
    if (!(target > 0) || !(rate > 0) || rate == 1)
        return false;
    double x = (1 - 1 / target) / (1 - 1 / rate);
    if (!(x >= 0 && x <= 1))
        return false;
    *fraction = x;
    return true;
}
