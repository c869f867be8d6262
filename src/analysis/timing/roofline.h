/* roofline: compute and memory ceilings of a GPU product, the ridge point,
 * and where a kernel (FLOPs, bytes) or an arithmetic intensity sits under
 * the roof. Pure: no I/O, no globals; the worked steps go into an sbuf so
 * that --explain, JSON and charts all show the same numbers. */
#ifndef GPULINT_ROOFLINE_H
#define GPULINT_ROOFLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"
#include "util/sbuf.h"

/* Computed and datasheet figures further apart than this are flagged. */
#define ROOF_DISAGREE_TOL 0.02

typedef enum roof_clock {
    ROOF_CLOCK_BOOST, /* what NVIDIA's datasheet rates are quoted at */
    ROOF_CLOCK_BASE,
} roof_clock;

/* Where a ceiling's value came from. */
typedef enum roof_source {
    ROOF_SRC_NONE = 0, /* not known: the product gives neither figure */
    ROOF_SRC_COMPUTED, /* from the formula (units x clock) */
    ROOF_SRC_DATASHEET,
    ROOF_SRC_MEASURED, /* gpulint verify (later) */
    ROOF_SRC_USER,     /* --peak / --bw */
} roof_source;

/* Which figure the caller wants as the ceiling. AUTO: measured when
 * present, else the datasheet figure when given and comparable (boost
 * clock), else the computed one. */
typedef enum roof_prefer {
    ROOF_PREFER_AUTO,
    ROOF_PREFER_COMPUTED,
    ROOF_PREFER_DATASHEET,
    ROOF_PREFER_MEASURED,
} roof_prefer;

/* One ceiling with every figure we have for it, so reports can show both. */
typedef struct roof_value {
    double computed;  /* 0 = cannot be derived */
    double datasheet; /* 0 = not given */
    double measured;  /* 0 = none yet */
    /* (computed - datasheet) / datasheet; 0 when either is missing or the
     * two are not comparable (base clock against a boost-clock datasheet). */
    double difference;
    bool disagrees; /* |difference| > ROOF_DISAGREE_TOL */
    double used;    /* the ceiling the roofline uses */
    roof_source source;
} roof_value;

typedef struct roof_ceilings {
    model_precision precision;
    roof_clock clock;
    /* Inputs of the compute formula: sm_count x per_sm_per_clock x clock. */
    int sm_count;
    double flops_per_clock_per_sm;
    double clock_mhz;
    /* Inputs of the bandwidth formula: data_rate x mem clock x bus / 8. */
    int mem_data_rate;
    double mem_clock_mhz;
    int mem_bus_width_bits;
    /* The SM clock at which the formula gives the datasheet rate; 0 when
     * either is missing. H100 SXM's dense tensor rates imply 1830 MHz,
     * below its 1980 MHz boost clock. */
    double datasheet_clock_mhz;
    roof_value flops;     /* FLOP/s (OP/s for integer precisions) */
    roof_value bandwidth; /* bytes/s, DRAM */
} roof_ceilings;

/* Ceilings of one product at one precision. Returns false when the product
 * gives no usable compute or bandwidth figure for the choice (the precision
 * is unsupported, the base clock is unknown, or the preferred source is
 * missing); *why then names the reason (a static string). */
bool roofline_ceilings(const gpu_product *p, model_precision prec, roof_clock clock,
                       roof_prefer prefer, roof_ceilings *out, const char **why);

typedef enum roof_bound {
    ROOF_BOUND_MEMORY,
    ROOF_BOUND_COMPUTE, /* also at the ridge itself, where both limit */
} roof_bound;

typedef struct roof_point {
    double ai;         /* FLOP/byte */
    double attainable; /* min(peak, ai x bandwidth), FLOP/s */
    roof_bound bound;
    /* ai / ridge: > 1 how far right of the ridge (compute side), < 1 its
     * inverse says how far left (memory side). */
    double ridge_ratio;
} roof_point;

/* A kernel's work: FLOPs and DRAM bytes, and what they imply. */
typedef struct roof_kernel {
    double flops, bytes;
    roof_point point;
    double compute_time; /* flops / peak, seconds */
    double memory_time;  /* bytes / bandwidth */
    double min_time;     /* max of the two: the roofline's lower bound */
} roof_kernel;

/* peak / bandwidth, FLOP/byte. Both must be positive. */
double roofline_ridge(double peak, double bandwidth);
/* False for non-positive peak or bandwidth, or negative / NaN ai. An
 * infinite ai (no bytes) is compute-bound. */
bool roofline_point(double peak, double bandwidth, double ai, roof_point *out);
/* max(flops / peak, bytes / bandwidth); negative for bad input. */
double roofline_min_time(double peak, double bandwidth, double flops, double bytes);
/* False for bad input or when both flops and bytes are 0. */
bool roofline_kernel(double peak, double bandwidth, double flops, double bytes, roof_kernel *out);

/* Exercise 13.2's tiled GEMM: C (MxN) = A (MxK) x B (KxN), one TxT output
 * tile per block, each block streaming a TxK panel of A and a KxT panel of
 * B from DRAM and writing its TxT tile once. */
/* A GEMM whose blocks each compute a TM x TN tile of C, reading TM x K of
 * A and K x TN of B once (through shared memory), no reuse between blocks.
 * A square T x T tile is TM = TN = T; a rectangular one is also PMPP's
 * thread coarsening (a block computing several tiles along N keeps its A
 * tile: TM x (c TN)). */
typedef struct roof_gemm {
    double m, n, k, tile, elem; /* tile: T when square (tile_m == tile_n), else 0 */
    double tile_m, tile_n;
    double blocks;          /* (M/TM)(N/TN), fractional when a tile does not divide */
    double bytes_per_block; /* elem (TM K + K TN + TM TN) */
    double flops;           /* 2MNK */
    double bytes;           /* elem (MNK/TN + MNK/TM + MN) = elem (2MNK/T + MN) square */
    double ai;              /* flops / bytes */
    double ai_limit;        /* K >> T: 2 TM TN / (elem (TM + TN)) = T / elem square */
    bool partial_tiles;     /* a tile does not divide M or N */
} roof_gemm;

bool roofline_gemm_tiled(double m, double n, double k, double tile, double elem, roof_gemm *out);
bool roofline_gemm_rect(double m, double n, double k, double tile_m, double tile_n, double elem,
                        roof_gemm *out);

/* The worked steps, appended to b. _ceilings is _compute then _bandwidth. */
void roofline_explain_ceilings(const gpu_product *p, const roof_ceilings *c, sbuf *b);
void roofline_explain_compute(const gpu_product *p, const roof_ceilings *c, sbuf *b);
void roofline_explain_bandwidth(const gpu_product *p, const roof_ceilings *c, sbuf *b);
void roofline_explain_point(double peak, double bandwidth, const roof_point *pt, sbuf *b);
void roofline_explain_kernel(double peak, double bandwidth, const roof_kernel *k, sbuf *b);
void roofline_explain_gemm(const roof_gemm *g, sbuf *b);

const char *roofline_bound_name(roof_bound b);   /* "memory", "compute" */
const char *roofline_source_name(roof_source s); /* "computed", "datasheet", ... */
const char *roofline_clock_name(roof_clock c);   /* "boost", "base" */

/* Number formatting shared by the report, JSON-free text and charts:
 * 4 significant digits, trailing zeros dropped ("112.5 GFLOP/s", "10
 * TFLOP/s", "3.35 TB/s"). */
const char *roofline_fmt_si(double v, const char *unit, char *buf, size_t n);
/* "210 µs", "1.5 ms", "3.2 s". */
const char *roofline_fmt_time(double seconds, char *buf, size_t n);
/* Plain number, 3 significant digits ("11.1", "0.125", "295"). */
const char *roofline_fmt_num(double v, char *buf, size_t n);

#endif
