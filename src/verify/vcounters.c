/* vcounters: the rows' hardware counters. gpulint verify runs itself once
 * more under Nsight Compute (each kernel launched once) and folds the
 * counters that measure what it predicts into the rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"
#include "verify/ncu.h"
#include "verify/vrun.h"

/* The selected cases before ci with the same kernel: its launch's rank
 * under Nsight Compute (the child runs the cases in this order, each
 * kernel once per case). */
static int launch_rank(const vrun *x, int ci, const char *kernel)
{
    const vmanifest *m = &x->r->manifest;
    int rank = 0;
    for (int i = 0; i < ci; i++)
        if (x->selected[i] && strcmp(m->cases[i].kernel, kernel) == 0)
            rank++;
        else if (x->selected[i] && m->cases[i].kind == VK_TWINS &&
                 strcmp(m->cases[i].reference, kernel) == 0)
            rank++;
    return rank;
}

/* Folds a counter into a row: the counter measures what gpulint predicts
 * (wavefronts, sectors), so it decides where timing could not, and a
 * disagreement of the counter is a disagreement of the row. */
static void counter_verdict(vrow *row, double value, const char *what)
{
    json_object_set_new(row->detail, "counter", json_real(value));
    json_object_set_new(row->detail, "counter_metric", json_string(what));
    vverdict cv = judge_count(row->predicted, value, 0.1, 0.02);
    json_object_set_new(row->detail, "counter_verdict", json_string(vverdict_name(cv)));
    if (cv == VV_DIFFERS && row->verdict != VV_DIFFERS) {
        row->verdict = VV_DIFFERS;
        snprintf(row->reason, sizeof row->reason, "the hardware counter reads %.3f, predicted %.3f",
                 value, row->predicted);
    } else if (cv == VV_AGREES && row->verdict == VV_NOT_COMPARABLE && !isnan(row->predicted)) {
        row->verdict = VV_AGREES;
        size_t len = strlen(row->reason);
        snprintf(row->reason + len, sizeof row->reason - len, "%sthe counter reads %.3f: agrees",
                 len ? "; " : "", value);
    }
}

void vcounters_read(vrun *x)
{
    verify_result *r = x->r;
    const vmanifest *m = &r->manifest;
    bool any = false;
    /* The probes by their prefixes, the timed kernels (DRAM bytes) by name. */
    sbuf regex;
    sbuf_init(&regex);
    sbuf_add(&regex, "^(occ_|bank_|coal_|div_");
    for (int i = 0; i < m->n_cases; i++) {
        any = any || (x->selected[i] && m->cases[i].kind != VK_CEILING);
        if (x->selected[i] && m->cases[i].kind == VK_TIME)
            sbuf_addf(&regex, "|%s$", m->cases[i].kernel);
    }
    sbuf_add(&regex, ")");
    /* The checks this run makes that counters judge: time rows are not
     * judged by a counter, and their kernels' DRAM bytes are the roofline
     * rows'. */
    sbuf checks;
    sbuf_init(&checks);
    for (int c = 0; c < VCHECK_COUNT; c++)
        if (c != VCHECK_TIME && (!x->o->checks || x->o->checks & 1u << c))
            sbuf_addf(&checks, "%s%s", checks.len ? "," : "", vcheck_name((vcheck)c));
    if (!any || !checks.len) {
        sbuf_free(&regex);
        sbuf_free(&checks);
        return;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", x->nvcc);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    char *ncu = ncu_find(slash ? dir : NULL);
    if (!ncu) {
        snprintf(r->counters, sizeof r->counters, "unavailable");
        snprintf(r->counters_note, sizeof r->counters_note,
                 "Nsight Compute (ncu) not found; the rows are timing-only");
        sbuf_free(&regex);
        sbuf_free(&checks);
        return;
    }
    const char *argv[32];
    int n = 0;
    argv[n++] = x->o->self;
    argv[n++] = "verify";
    argv[n++] = "--counters";
    argv[n++] = "off";
    argv[n++] = "--check";
    argv[n++] = sbuf_str(&checks);
    argv[n++] = "--format";
    argv[n++] = "json";
    argv[n++] = "--kernels";
    argv[n++] = r->kernels_dir;
    argv[n++] = "--nvcc";
    argv[n++] = x->nvcc;
    if (x->o->predictions) {
        argv[n++] = "--predictions";
        argv[n++] = x->o->predictions;
    }
    if (x->o->models_dir) {
        argv[n++] = "--models";
        argv[n++] = x->o->models_dir;
    }
    if (x->o->only) {
        argv[n++] = "--only";
        argv[n++] = x->o->only;
    }
    argv[n] = NULL;
    if (x->o->progress)
        fprintf(stderr, "verify: reading the hardware counters with %s...", ncu);
    setenv("GPULINT_VERIFY_ONCE", "1", 1);
    ncu_result nr;
    ncu_status st =
        ncu_run(ncu, sbuf_str(&regex), argv, &nr, r->counters_note, sizeof r->counters_note);
    sbuf_free(&regex);
    sbuf_free(&checks);
    unsetenv("GPULINT_VERIFY_ONCE");
    if (x->o->progress)
        fprintf(stderr, "\r\033[K");
    snprintf(r->counters, sizeof r->counters, "%s",
             st == NCU_USED      ? "used"
             : st == NCU_REFUSED ? "refused"
                                 : "unavailable");
    if (st == NCU_USED) {
        snprintf(r->counters_note, sizeof r->counters_note, "%s, %d launches profiled", ncu, nr.n);
        for (int ri = 0; ri < r->n_rows; ri++) {
            vrow *row = &r->rows[ri];
            int ci = (int)(row->vc - m->cases);
            const ncu_launch *l =
                ncu_find_launch(&nr, row->kernel, launch_rank(x, ci, row->kernel));
            if (!l)
                continue;
            if (row->check == VCHECK_BANK && l->shared_loads > 0 && l->shared_wavefronts >= 0)
                counter_verdict(row, l->shared_wavefronts / l->shared_loads,
                                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld / "
                                "smsp__inst_executed_op_shared_ld");
            else if (row->check == VCHECK_COALESCING && l->global_requests > 0 &&
                     l->global_sectors >= 0)
                counter_verdict(row, l->global_sectors / l->global_requests,
                                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld / "
                                "l1tex__t_requests_pipe_lsu_mem_global_op_ld");
            else if (row->check == VCHECK_DIVERGENCE && l->threads_per_inst >= 0)
                /* Whole-kernel, so shown, not judged: the branch is one part. */
                json_object_set_new(row->detail, "counter_threads_per_instruction",
                                    json_real(l->threads_per_inst));
            else if (row->check == VCHECK_OCCUPANCY && l->achieved_occupancy_pct >= 0)
                json_object_set_new(row->detail, "counter_achieved_occupancy",
                                    json_real(l->achieved_occupancy_pct / 100.0));
            else if (row->check == VCHECK_ROOFLINE && row->vc->kind == VK_TIME &&
                     l->dram_read >= 0 && l->dram_write >= 0)
                /* An estimate against it: counted in the summary, fails nothing. */
                json_object_set_new(row->detail, "counter_dram_bytes",
                                    json_real(l->dram_read + l->dram_write));
            else if (row->check == VCHECK_TIME && l->warp_insts >= 0)
                /* Beside the count the time row's issue term was built from:
                 * an estimate, counted, fails nothing. */
                json_object_set_new(row->detail, "counter_warp_instructions",
                                    json_real(l->warp_insts));
        }
    }
    ncu_result_free(&nr);
    free(ncu);
}
