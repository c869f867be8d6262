/* vrun: the state of one `gpulint verify` run, shared by its parts (the
 * plan, the measuring, one file per check, the counters), and the helpers
 * they all use. Internal to verify/. */
#ifndef GPULINT_VRUN_H
#define GPULINT_VRUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "gpu/gpurt.h"
#include "gpu/probe.h"
#include "input/ptxas.h"
#include "model/model_load.h"
#include "util/sbuf.h"
#include "verify/gbuf.h"
#include "verify/kbuild.h"
#include "verify/predict.h"
#include "verify/verify.h"

typedef struct unit_info {
    const char *file;
    kbuild_unit build;
    ptxas_log ptx;
    char stale[320]; /* why --predictions does not describe this build */
} unit_info;

typedef struct vrun {
    const verify_opts *o;
    verify_result *r;
    model_db db;
    gpu_arch arch;       /* the device's limits (or the bundled model for a dry run) */
    gpu_product product; /* the twin at the device's clocks */
    bool have_product;
    const char *product_file; /* a dry run's --gpu FILE: the children are given it */
    unit_info *units;
    int n_units;
    vpred pred;
    bool *selected; /* per case */
    int n_selected, done;
    double started;
    char nvcc[4096];
    char *err;
    size_t errlen;
    /* calibration measurements, filled while running */
    double *raw;  /* per case: cycles per request, ns per request, ms ... */
    double *raw2; /* per case: a second number (twins: the reference's time) */
    double *spread;
    char **why;     /* per case: why it could not run (owned) */
    json_t **extra; /* per case: measurement details */
    /* --calibrate: the card's model and the predictions made with it */
    gpu_product calibrated;
    vpred cal_pred;
    bool have_cal_pred;
} vrun;

double vrun_now(void);
/* Sets the run's error; returns code. */
int vrun_fail(vrun *x, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const vgroup *vrun_group_of(const vrun *x, const vcase *c);
unit_info *vrun_unit_for(vrun *x, const char *file);
const ptxas_kernel *vrun_ptx_kernel(const unit_info *u, const char *name);
/* Why case i could not be measured (the first reason stays). */
void vrun_set_why(vrun *x, int i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void vrun_progress(vrun *x, const char *kernel);
/* The launch of a kernel: from the source's launch site, else the
 * manifest's grid=/threads=. */
bool vrun_launch_of(vrun *x, const vcase *c, const char *kernel, probe_launch *l);
void vrun_launch_text(const probe_launch *l, char *buf, size_t n);
/* Set in the child that runs under Nsight Compute (see vcounters_read). */
bool vrun_once(void);
int64_t vrun_size_of(const vmanifest *m, const char *name, int64_t fallback);
vrow *vrun_new_row(vrun *x, const vcase *c);
/* A row judged on the case's timed runs (roofline, time): in ms, the
 * method and the launch filled in; l gets the launch (false: none known). */
vrow *vrun_new_timed_row(vrun *x, const vcase *c, probe_launch *l, bool *has_launch);
double vrun_jnum(const json_t *o, const char *key);
/* Folds what was measured (or why not) into the row. */
void vrun_finish_row(vrun *x, vrow *row, int ci);
vceiling *vrun_ceiling(verify_result *r, const char *name);

/* Calibration lines per access width (bank) or per class (coalescing). */
typedef struct fitline {
    double a, b;
    int n;
    bool ok;
} fitline;

/* The line through the calibration probes of a kind that match(key). */
fitline vrun_fit_where(vrun *x, vkind kind, bool (*match)(vrun *, int, int), int key);

/* One case being measured on the GPU (vmeasure.c hands it to its check). */
typedef struct vmeasure {
    vrun *x;
    int ci;
    const vcase *c;
    gpurt_module *mod;
    gpurt_kernel k;
    probe_launch l;
    gbuf *bufs;
    void **args;
    int repeat, warmup;
    json_t *extra; /* what the measurement saw, into the row's detail */
    char err[GPURT_ERR_MAX];
} vmeasure;

/* vplan.c: what runs, on which target, built and predicted. */
int vplan_manifest(vrun *x, const char *dir);
int vplan_select(vrun *x);
int vplan_target(vrun *x);
int vplan_build(vrun *x);
int vplan_predict(vrun *x);

/* vmeasure.c: every selected case of a group on the GPU; false when the
 * GPU is no longer usable. */
bool vmeasure_group(vrun *x, int gi);
/* Timed launches (coalescing, ceilings, roofline), into x->raw. */
bool vmeasure_times(vmeasure *m);

/* One file per check: how it is measured (false: m->err says why the GPU
 * failed) and how a measurement is judged into a row. */
bool vcheck_occupancy_measure(vmeasure *m);
void vcheck_occupancy_judge(vrun *x, int ci);
bool vcheck_bank_measure(vmeasure *m);
void vcheck_bank_judge(vrun *x, int ci);
void vcheck_coalescing_judge(vrun *x, int ci);
bool vcheck_divergence_lanes(vmeasure *m);
bool vcheck_divergence_twins(vmeasure *m);
void vcheck_divergence_judge(vrun *x, int ci);
void vcheck_ceilings_spec(vrun *x);
void vcheck_ceilings_judge(vrun *x, int ci);
void vcheck_roofline_judge(vrun *x, int ci);
void vcheck_roofline_ladders(vrun *x);
void vcheck_time_judge(vrun *x, int ci);

/* vcalibrate.c: a [calibration] probe's launch made ready (its shared
 * memory set; *skip when it cannot run here, the reason recorded; false:
 * the GPU failed), then timed by vmeasure_times; after all runs the
 * constants, the card's model and the predictions made with it
 * (x->r->calibration says what was measured and what was not). */
#define CAL_REPEAT 21
bool vcalibrate_prepare(vmeasure *m, bool *skip);
void vcalibrate_run(vrun *x);

/* vcounters.c: Nsight Compute's counters folded into the rows. */
void vcounters_read(vrun *x);

#endif
