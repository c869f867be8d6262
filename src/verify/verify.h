/* verify: `gpulint verify` from plan to verdicts. Reads the manifest,
 * builds the reference kernels for the target (cached), gets gpulint's
 * predictions for them (predict.h), runs every selected case on the GPU
 * (probe.h) and turns the measurements into rows (judge.h); the report
 * module prints them. With dry_run nothing runs: rows carry predictions
 * only. */
#ifndef GPULINT_VERIFY_H
#define GPULINT_VERIFY_H

#include <jansson.h>
#include <stdbool.h>

#include "model/model.h"
#include "verify/judge.h"
#include "verify/manifest.h"

typedef enum vcounters {
    VCOUNTERS_AUTO,
    VCOUNTERS_ON,
    VCOUNTERS_OFF,
} vcounters;

typedef struct verify_opts {
    const char *kernels_dir; /* NULL: found beside the models */
    const char *models_dir;
    const char *nvcc;
    const char *predictions; /* --predictions FILE */
    const char *only;        /* fnmatch pattern on kernel names */
    unsigned checks;         /* bit per vcheck; 0 = all */
    const char *ladder;      /* run only this ladder (and the ceilings) */
    const char *arch;        /* --arch for a dry run without a GPU */
    const char *gpu;         /* --gpu ID: a product model for a dry run */
    int repeat;              /* timed runs per kernel */
    int jobs;                /* nvcc and prediction processes at once */
    bool dry_run;
    bool calibrate; /* measure the [timing] constants and judge times with them too */
    vcounters counters;
    const char *self; /* this executable, for the prediction children */
    bool progress;    /* on stderr */
} verify_opts;

typedef struct vrow {
    vcheck check;
    const vcase *vc;           /* NULL for a report read back from JSON */
    char group[VMAN_NAME_MAX]; /* the manifest group: "bank", "ladder gemm" */
    char kind[16];             /* residency cycles sectors lanes timing time */
    char cls[24];              /* coalescing: dense, sparse, scattered */
    bool calibration;
    char kernel[VMAN_NAME_MAX];
    char launch[128];
    char unit[32];
    double predicted, measured; /* NAN when there is none */
    char method[160];
    char tolerance[64];
    vverdict verdict;
    char reason[400];
    json_t *detail; /* check-specific numbers, merged into the JSON row */
} vrow;

typedef struct vceiling {
    char name[24]; /* "dram", "fp32", "fp16_tensor" ... */
    bool bandwidth;
    model_precision precision;
    double measured;  /* per second; 0 = not measured */
    double spec;      /* computed from the device's clocks and the product model */
    double datasheet; /* NVIDIA's figure for the bundled product, 0 = none */
    char kernel[VMAN_NAME_MAX];
    char note[256];
} vceiling;

typedef struct vladder_step {
    char kernel[VMAN_NAME_MAX];
    char step[192]; /* what the step changes */
    double book_ms; /* the book's time, 0 = none */
    int row;        /* index of its roofline row */
    double ms, spread;
    double predicted_ms; /* gpulint's predicted time; NAN or 0: none */
    double bytes, flops; /* compulsory bytes, predicted FLOPs */
    double pct_ceiling;  /* share of the measured roof, 0..1 */
    json_t *predicted;   /* divergence, bank_degree, sectors_ratio, occupancy, bound */
    char result[160];    /* "ok" or why not */
} vladder_step;

typedef struct vladder {
    char name[VMAN_NAME_MAX];
    char book[160];
    vladder_step *steps;
    int n_steps;
    char notes[4][400];
    int n_notes;
} vladder;

typedef struct verify_errors {
    int rows, within;
    double median_error, mean_error;
} verify_errors;

typedef struct verify_result {
    bool dry_run;
    bool have_device;
    char device_name[128];
    char arch[MODEL_NAME_MAX];
    int cc_major, cc_minor;
    int sms;
    double sm_clock_mhz, mem_clock_mhz;
    int mem_bus_bits;
    char driver[32], runtime[32];
    char product_id[64]; /* the bundled model borrowed for per-SM rates */
    char counters[16];   /* "used", "off", "refused", "unavailable" */
    char counters_note[256];
    char nvcc_version[128];
    char kernels_dir[1024];
    char predictions[512];
    char predictions_note[512];
    int built, cached;
    double build_seconds;
    vceiling ceilings[8];
    int n_ceilings;
    vrow *rows;
    int n_rows;
    vladder ladders[4];
    int n_ladders;
    int agrees, differs, not_comparable;
    int estimates_differ; /* of differs, the time rows (estimates: they fail nothing) */
    /* Estimates against what was measured: the time rows' predicted times,
     * and the roofline rows' DRAM estimates against Nsight Compute's
     * dram__bytes (with counters). rows: those measured; within:
     * VERIFY_ESTIMATE_TOLERANCE of it. */
    verify_errors time, dram;
    /* --calibrate: the constants measured (or why not) and the time rows'
     * errors with the card's constants; NULL / rows 0 without it. */
    json_t *calibration;
    verify_errors time_calibrated;
    double seconds;
    double run_seconds; /* on the GPU, after the build */
    vmanifest manifest;
} verify_result;

/* How far an estimate (a predicted time, a DRAM byte count) may be from
 * what was measured, as a share of the measurement (issue 20's targets);
 * one outside it differs but fails nothing. */
#define VERIFY_ESTIMATE_TOLERANCE 0.25

/* Returns an exit code (0: every row agrees or is not comparable, but for
 * predicted times outside their tolerance; 1: a prediction is off; 7 no GPU; 6 no nvcc; ...);
 * errors are printed. */
int verify_run(const verify_opts *o, verify_result *r);
void verify_result_free(verify_result *r);
/* The summary counts (agrees, differs, the time rows' errors) from the
 * rows, as a run or a report read back has them. */
void verify_count(verify_result *r);

/* A product with the [timing] constants a --calibrate run measured
 * (verify_result.calibration) put in place of the bundled ones; the rest as
 * bundled. */
void verify_calibrated_product(const gpu_product *bundled, const json_t *calibration,
                               gpu_product *out);

/* The kernels directory: $GPULINT_KERNELS, else beside the models
 * (<models>/../kernels, which covers the source tree and an install). */
const char *verify_kernels_dir(const char *models_dir);

#endif
