/* vcheck_roofline: each kernel's measured time against gpulint's roofline
 * floor (never faster), and the ladders: a book's optimisation steps side by
 * side with what each predicted and measured. Measured by vmeasure_times. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/vrun.h"

static double vcheck_roofline_peak(vrun *x, const char *prec_key, bool measured)
{
    const char *name = strcmp(prec_key, "fp64") == 0     ? "fp64"
                       : strcmp(prec_key, "tensor") == 0 ? "fp16_tensor"
                                                         : "fp32";
    vceiling *v = vrun_ceiling(x->r, name);
    if (!v)
        return 0;
    return measured ? v->measured : v->spec;
}

void vcheck_roofline_judge(vrun *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    probe_launch l;
    bool has_launch;
    vrow *row = vrun_new_timed_row(x, c, &l, &has_launch);
    snprintf(row->tolerance, sizeof row->tolerance, "not below the bound (2%% timer slack)");
    const json_t *p = vpred_roofline(&x->pred, c->kernel);
    vceiling *dram = vrun_ceiling(x->r, "dram");
    if (!p || !dram || !(dram->spec > 0)) {
        snprintf(row->reason, sizeof row->reason, "no prediction: %s",
                 !p ? (x->pred.why_none[0] ? x->pred.why_none : "no roofline entry")
                    : "no bandwidth for this GPU");
        vrun_finish_row(x, row, ci);
        return;
    }
    const json_t *flops = json_object_get(p, "flops");
    double bytes = vrun_jnum(p, "requested_bytes");
    bool symbolic = !(bytes >= 0);
    double compute_s = 0, total_flops = 0;
    const char *keys[] = {"fp32", "fp64", "fp16", "tensor"};
    const char *dominant = "fp32";
    double dominant_s = 0;
    for (size_t i = 0; i < 4; i++) {
        double f = vrun_jnum(flops, keys[i]);
        if (isnan(f)) {
            if (json_object_get(flops, keys[i]))
                symbolic = true;
            continue;
        }
        double peak =
            vcheck_roofline_peak(x, strcmp(keys[i], "fp16") == 0 ? "fp32" : keys[i], false);
        if (f > 0 && peak > 0) {
            double t = f / (strcmp(keys[i], "fp16") == 0 ? 2 * peak : peak);
            if (t > dominant_s) {
                dominant_s = t;
                dominant = keys[i];
            }
            if (t > compute_s)
                compute_s = t;
        }
        total_flops += f > 0 ? f : 0;
    }
    if (symbolic) {
        snprintf(row->reason, sizeof row->reason,
                 "gpulint's counts for %s are symbolic (not every size is constant)", c->kernel);
        vrun_finish_row(x, row, ci);
        return;
    }
    bool upper = json_is_true(json_object_get(p, "upper_bound"));
    double bw = dram->spec;
    double bound = fmax(upper ? 0 : compute_s, bytes / bw);
    row->predicted = bound * 1e3;
    /* The floor a correct kernel cannot beat: compulsory bytes when the
     * requested ones include re-reads the caches may serve. */
    double floor_bytes =
        c->compulsory > 0 && bytes > (double)c->compulsory ? (double)c->compulsory : bytes;
    double floor_s = fmax(upper ? 0 : compute_s, floor_bytes / bw);
    bool memory_bound = floor_bytes / bw >= (upper ? 0 : compute_s);
    /* gpulint's own floor where its report gives the compulsory DRAM
     * bytes: 32-byte sectors read (a cold L2) and writes past the L2's
     * capacity, at this device's bandwidth, or the FLOPs, whichever is
     * longer; the hand count stays beside it as a check. */
    const json_t *comp = json_object_get(p, "dram_compulsory_bytes");
    double sectors = vrun_jnum(comp, "read_sectors"), written = vrun_jnum(comp, "write");
    if (sectors >= 0 && written >= 0) {
        double l2 = x->have_product ? (double)x->product.l2_bytes : 0;
        double must = 32 * sectors + fmax(0, written - l2);
        floor_bytes = must;
        floor_s = fmax(upper ? 0 : compute_s, must / bw);
        bound = floor_s;
        row->predicted = bound * 1e3;
        memory_bound = must / bw >= (upper ? 0 : compute_s);
        json_object_set_new(row->detail, "compulsory_dram_bytes", json_real(must));
        if (c->compulsory > 0)
            json_object_set_new(row->detail, "compulsory_by_hand", json_integer(c->compulsory));
    }
    json_object_set_new(row->detail, "flops", json_real(total_flops));
    json_object_set_new(row->detail, "requested_bytes", json_real(bytes));
    double estimate = vrun_jnum(json_object_get(p, "dram_bytes"), "bytes");
    if (estimate >= 0)
        json_object_set_new(row->detail, "dram_estimate_bytes", json_real(estimate));
    if (c->compulsory > 0)
        json_object_set_new(row->detail, "compulsory_bytes", json_integer(c->compulsory));
    json_object_set_new(row->detail, "bound_s", json_real(bound));
    json_object_set_new(row->detail, "floor_s", json_real(floor_s));
    json_object_set_new(row->detail, "bound", json_string(memory_bound ? "memory" : "compute"));
    if (upper)
        json_object_set_new(row->detail, "flops_upper_bound", json_true());
    if (c->compulsory > 0 && bytes < 0.99 * (double)c->compulsory) {
        row->verdict = VV_DIFFERS;
        snprintf(row->reason, sizeof row->reason,
                 "gpulint counts %.4g requested bytes, but the kernel must move %.4g", bytes,
                 (double)c->compulsory);
    } else if (!x->r->dry_run && !x->why[ci] && x->raw[ci] > 0) {
        double t = x->raw[ci] * 1e-3;
        row->measured = x->raw[ci];
        row->verdict = judge_bound(floor_s, t, 0.02);
        double achieved_bw = floor_bytes / t;
        double achieved_fl = total_flops / t;
        double frac = memory_bound ? (dram->measured > 0 ? achieved_bw / dram->measured : NAN)
                                   : (vcheck_roofline_peak(x, dominant, true) > 0
                                          ? achieved_fl / vcheck_roofline_peak(x, dominant, true)
                                          : NAN);
        json_object_set_new(row->detail, "achieved_bytes_per_s", json_real(achieved_bw));
        json_object_set_new(row->detail, "achieved_flops_per_s", json_real(achieved_fl));
        if (!isnan(frac))
            json_object_set_new(row->detail, "fraction_of_measured_ceiling", json_real(frac));
        if (row->verdict == VV_DIFFERS)
            snprintf(row->reason, sizeof row->reason,
                     "%.4g ms is below the floor of %.4g ms: a FLOP or byte count is wrong",
                     x->raw[ci], floor_s * 1e3);
        else if (floor_s < bound * 0.99 && t < bound)
            snprintf(row->reason, sizeof row->reason,
                     "faster than the requested-bytes bound (%.4g ms): gpulint counts %.4g bytes "
                     "as requested, and the L1/L2 served re-reads; the floor uses the %.4g bytes "
                     "the kernel must move",
                     bound * 1e3, bytes, floor_bytes);
        else if (upper)
            snprintf(row->reason, sizeof row->reason,
                     "the FLOP count is an upper bound (branches), so only bytes set the floor");
    }
    vrun_finish_row(x, row, ci);
}

static double ladder_prediction(const vpred *p, const char *kernel, json_t *out)
{
    double worst_div = 1.0, bank = 1.0, sectors = 1.0;
    json_t *all = vpred_all(p, "branches", kernel);
    size_t i;
    json_t *e;
    json_array_foreach(all, i, e)
    {
        const char *v = json_string_value(json_object_get(e, "verdict"));
        double eff = vrun_jnum(e, "efficiency");
        if (v && strcmp(v, "divergent") == 0 && eff < worst_div)
            worst_div = eff;
    }
    json_decref(all);
    all = vpred_all(p, "shared_accesses", kernel);
    json_array_foreach(all, i, e)
    {
        double w = vrun_jnum(e, "wavefronts"), ideal = vrun_jnum(e, "ideal_wavefronts");
        if (w > 0 && ideal > 0 && w / ideal > bank)
            bank = w / ideal;
    }
    json_decref(all);
    all = vpred_all(p, "global_accesses", kernel);
    json_array_foreach(all, i, e)
    {
        double s = vrun_jnum(e, "sectors"), ideal = vrun_jnum(e, "ideal_sectors");
        if (s > 0 && ideal > 0 && s / ideal > sectors)
            sectors = s / ideal;
    }
    json_decref(all);
    json_object_set_new(out, "divergence_efficiency", json_real(worst_div));
    json_object_set_new(out, "bank_degree", json_real(bank));
    json_object_set_new(out, "sectors_over_ideal", json_real(sectors));
    const json_t *l = vpred_launch(p, kernel);
    const json_t *occ = l ? json_object_get(l, "occupancy") : NULL;
    json_object_set_new(out, "occupancy",
                        occ ? json_incref(json_object_get(occ, "occupancy")) : json_null());
    return worst_div;
}

void vcheck_roofline_ladders(vrun *x)
{
    verify_result *r = x->r;
    const vmanifest *m = &r->manifest;
    for (int gi = 0; gi < m->n_groups && r->n_ladders < 4; gi++) {
        const vgroup *g = &m->groups[gi];
        if (!g->ladder[0])
            continue;
        vladder *ld = NULL;
        for (int ri = 0; ri < r->n_rows; ri++) {
            const vrow *row = &r->rows[ri];
            if (row->vc->group != gi || row->check != VCHECK_ROOFLINE)
                continue;
            if (!ld) {
                ld = &r->ladders[r->n_ladders++];
                memset(ld, 0, sizeof *ld);
                snprintf(ld->name, sizeof ld->name, "%s", g->ladder);
                snprintf(ld->book, sizeof ld->book, "%s", g->book);
            }
            ld->steps = xrealloc(ld->steps, (size_t)(ld->n_steps + 1) * sizeof *ld->steps);
            vladder_step *s = &ld->steps[ld->n_steps++];
            memset(s, 0, sizeof *s);
            snprintf(s->kernel, sizeof s->kernel, "%s", row->vc->kernel);
            snprintf(s->step, sizeof s->step, "%s", row->vc->step);
            s->book_ms = row->vc->book_ms;
            s->row = ri;
            s->ms = row->measured;
            s->predicted_ms = NAN;
            for (int ti = 0; ti < r->n_rows; ti++)
                if (r->rows[ti].check == VCHECK_TIME && r->rows[ti].vc == row->vc)
                    s->predicted_ms = r->rows[ti].predicted;
            s->spread = vrun_jnum(row->detail, "spread");
            s->bytes = (double)row->vc->compulsory;
            s->flops = vrun_jnum(row->detail, "flops");
            s->pct_ceiling = vrun_jnum(row->detail, "fraction_of_measured_ceiling");
            s->predicted = json_object();
            ladder_prediction(&x->pred, s->kernel, s->predicted);
            const char *bound = json_string_value(json_object_get(row->detail, "bound"));
            json_object_set_new(s->predicted, "bound", json_string(bound ? bound : "?"));
            const char *res = json_string_value(json_object_get(row->detail, "result"));
            snprintf(s->result, sizeof s->result, "%s",
                     res ? res : (r->dry_run ? "-" : "unchecked"));
        }
        if (!ld || r->dry_run)
            continue;
        /* Where the book and this GPU disagree on the direction of a step. */
        for (int i = 1; i < ld->n_steps && ld->n_notes < 4; i++) {
            const vladder_step *a = &ld->steps[i - 1], *b = &ld->steps[i];
            if (!(a->book_ms > 0) || !(b->book_ms > 0) || isnan(a->ms) || isnan(b->ms))
                continue;
            bool book_slower = b->book_ms > a->book_ms * 1.05;
            bool here_slower = b->ms > a->ms * 1.05;
            if (book_slower == here_slower)
                continue;
            probe_launch l;
            const vcase *bc = r->rows[b->row].vc;
            int blocks =
                vrun_launch_of(x, bc, b->kernel, &l) ? l.grid[0] * l.grid[1] * l.grid[2] : 0;
            snprintf(ld->notes[ld->n_notes++], sizeof ld->notes[0],
                     "%s: the book has it %s than %s (%.3f against %.3f ms on its GPU); here it is "
                     "%s (%.4g against %.4g ms, %.2fx) with %d blocks, %.0f per SM",
                     b->kernel, book_slower ? "slower" : "faster", a->kernel, b->book_ms,
                     a->book_ms, here_slower ? "slower" : "faster", b->ms, a->ms, a->ms / b->ms,
                     blocks, r->sms ? (double)blocks / r->sms : 0.0);
        }
        if (strcmp(ld->name, "reduction") == 0 && ld->n_notes < 4) {
            /* The seed credits interleaved pairing with avoiding shared-memory
             * bank conflicts; its kernels (like these) reduce in global memory. */
            int shared = 0;
            for (int i = 0; i < ld->n_steps; i++) {
                json_t *s = vpred_all(&x->pred, "shared_accesses", ld->steps[i].kernel);
                if (strstr(ld->steps[i].kernel, "interleaved") ||
                    strstr(ld->steps[i].kernel, "neighbored"))
                    shared += (int)json_array_size(s);
                json_decref(s);
            }
            if (shared == 0)
                snprintf(ld->notes[ld->n_notes++], sizeof ld->notes[0],
                         "the book explains the interleaved step by shared-memory bank conflicts, "
                         "but these steps reduce in place in global memory, which has no banks "
                         "(gpulint finds no shared access in them); what changes is how many "
                         "lanes of each warp work and how many sectors each request touches");
        }
    }
}
