/* chart: roofline and occupancy charts as SVG or PNG (picked by the file
 * extension), drawn with cairo. Built without cairo, every function fails
 * with "built without cairo" so callers need no #if. */
#ifndef GPULINT_CHART_H
#define GPULINT_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/occupancy/occ.h"
#include "model/model.h"

#define CHART_ERR_MAX 256

typedef enum chart_format {
    CHART_SVG,
    CHART_PNG,
} chart_format;

/* ".svg" / ".png" (any case); false for anything else. */
bool chart_format_from_path(const char *path, chart_format *out);
/* False when gpulint was built without cairo. */
bool chart_available(void);
/* cairo's version ("1.16.0") into buf; false without cairo. */
bool chart_backend_version(char *buf, size_t n);

/* A horizontal compute roof ("FP32", 66.9e12) or a slanted memory roof
 * ("HBM3", 3.35e12 B/s). */
typedef struct chart_roof {
    const char *label;
    double value;     /* FLOP/s for compute roofs, bytes/s for memory roofs */
    const char *unit; /* compute roofs: NULL = "FLOP/s"; "OP/s" for integers */
} chart_roof;

/* Predicted points come from static analysis (filled marker); measured
 * ones from profiling (hollow marker), drawn next to their prediction. */
typedef enum chart_point_style {
    CHART_POINT_PREDICTED,
    CHART_POINT_MEASURED,
} chart_point_style;

typedef struct chart_point {
    const char *label;
    double ai;    /* FLOP/byte */
    double flops; /* FLOP/s achieved or attainable */
    chart_point_style style;
    /* 0: drawn in ink; k > 0: a point of memory level k - 1 (a
     * hierarchical roofline), drawn in that memory roof's colour. */
    int level;
    bool joins_previous; /* the same launch as the point before: a line joins them */
} chart_point;

typedef struct chart_roofline {
    const char *title;
    const char *subtitle; /* optional: source of the ceilings */
    /* The first compute roof and the first memory roof set the ridge that
     * is marked; the others are drawn as lower ceilings. */
    const chart_roof *compute;
    int n_compute;
    const chart_roof *memory;
    int n_memory;
    const chart_point *points;
    int n_points;
    const char *point_legend; /* what the filled points are; NULL: attainable bounds */
    /* Several points a launch (one per memory level): labels as given,
     * without "(AI x, y FLOP/s)", and the legend beside the plot. */
    bool hierarchical;
} chart_roofline;

/* Draw a log-log roofline chart to path. On failure fills err. */
bool chart_roofline_write(const chart_roofline *c, const char *path, char *err, size_t errlen);

/* Occupancy against threads per block, registers per thread and shared
 * memory per block (the three panels of Nsight Compute's occupancy
 * calculator), each computed with occ_compute and with the kernel's own
 * configuration marked. title may be NULL. */
bool chart_occupancy(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l,
                     const char *title, const char *path, char *err, size_t errlen);

#endif
