/* source_report: joins what the libclang front end found in a file (launch
 * sites, shared and global accesses, branches) with the compiled kernels,
 * runs the bank, coalescing and divergence analyses and the launch checks,
 * and renders the results as findings and JSON. Pure. */
#ifndef GPULINT_SOURCE_REPORT_H
#define GPULINT_SOURCE_REPORT_H

#include <jansson.h>
#include <stdbool.h>

#include "cusrc/cusrc.h"
#include "model/model.h"
#include "report/code_report.h"
#include "report/findings.h"
#include "report/kernel_report.h"
#include "report/kernel_roofline.h"

typedef struct source_target {
    const gpu_arch *arch;
    const gpu_product *product; /* NULL: no SM count, so no grid-size check */
} source_target;

typedef struct source_inputs {
    const cusrc_unit *unit;
    const char *file;
    kernel_row *rows; /* the compiled kernels of this file; line/column are refined */
    int n_rows;
    const source_target *targets;
    int n_targets;
    bool has_block; /* --block overrides the launch sites' block for the accesses */
    int block[3];
    /* Every binding: --define NAME=VALUE, then the cudaDeviceProp fields
     * the first target's model gives (user_defines alone: the --define's). */
    const kroof_defines *defines;
    const kroof_defines *user_defines;
    const gpu_product *product; /* ceilings for the roofline; NULL = none */
    bool base_clock;            /* --clock base: predicted times at the base clock */
    /* The compiled code (PTX, SASS) for the launches' instruction counts;
     * NULL: not read (yet). */
    const code_listing *code;
    /* Set by source_analyse_source for its own run: sites summed over a
     * grid, shared by the per-site totals and the launches' traffic. */
    traffic_memo *memo;
} source_inputs;

typedef struct source_outputs {
    json_t *launches;        /* object: mangled name -> array of launch objects */
    json_t *shared_accesses; /* array */
    json_t *global_accesses; /* array */
    json_t *branches;        /* array (divergence verdicts) */
    json_t *notes;           /* array of strings: what could not be analysed */
    json_t *roofline;        /* array: per launch (or per kernel) FLOPs, bytes, bound */
    sbuf roofline_text;
} source_outputs;

void source_outputs_init(source_outputs *o);
void source_outputs_free(source_outputs *o);
/* A lossless JSON form of the outputs of one file (a worker's result, the
 * cache), and its merge into the outputs of a whole run, in file order. */
json_t *source_outputs_wire(const source_outputs *o);
bool source_outputs_merge_wire(source_outputs *o, const json_t *w);
void source_analyse(const source_inputs *in, source_outputs *out, finding_list *findings);
/* source_analyse in two halves. The first needs only the source, the
 * targets and the options (in->rows may be empty): shared and global
 * accesses, branches, roofline estimates; it can run while nvcc compiles.
 * The second needs the compiled kernels: definition lines, launch checks. */
void source_analyse_source(const source_inputs *in, source_outputs *out, finding_list *findings);
void source_analyse_launches(const source_inputs *in, source_outputs *out, finding_list *findings);
/* One thread's FLOPs (fp16, fp32, fp64) as the source counts them, every
 * branch arm included; NAN where a count is not a number or may miss
 * code. False when no kernel of the unit has this mangled name. */
bool source_per_thread_flops(const source_inputs *in, const char *mangled, double flops[3]);
/* Text lines for the launch table of the report. */
void source_launch_text(sbuf *out, const source_outputs *o, bool color);
/* Text lines for the divergence counts of the branches on the thread index. */
void source_branch_text(sbuf *out, const source_outputs *o);

#endif
