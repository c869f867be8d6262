/* roof_plot: the hierarchical roofline of a report's launches, as Nsight
 * Compute draws it: each launch is a point per memory level (L1, L2, DRAM)
 * at its FLOPs over that level's bytes, all at the FLOP rate of its
 * predicted time, under the product's compute roofs and one bandwidth roof
 * per level. A point near its own level's roof is limited by that level. */
#ifndef GPULINT_ROOF_PLOT_H
#define GPULINT_ROOF_PLOT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"
#include "report/chart.h"

enum { ROOF_PLOT_DRAM, ROOF_PLOT_L2, ROOF_PLOT_L1, ROOF_PLOT_LEVELS };

typedef struct roof_plot {
    chart_roofline chart; /* borrows everything below */
    chart_roof compute[3], memory[ROOF_PLOT_LEVELS];
    chart_point *points;
    char (*labels)[112];
    char title[160];
    int launches; /* launches with at least one point */
} roof_plot;

/* The chart of the report's roofline entries (the JSON array "roofline")
 * on product p at its boost clock. False, with why, when p has no FP32
 * rate or no DRAM bandwidth. A launch gets a point at a level whose bytes
 * are known; at the rate of its predicted time, else of its bound (the
 * label says which). */
bool roof_plot_build(const json_t *roofline, const gpu_product *p, roof_plot *out, char *why,
                     size_t why_size);
void roof_plot_free(roof_plot *r);

#endif
