/* launch_time: predicted time of a launch (see launch_time.h). */
#include "report/launch_time.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/ktime.h"
#include "analysis/timing/roofline.h"
#include "util/jsontext.h"
#include "util/sbuf.h"

json_t *launch_time_roofline_entry(json_t *roofline, const char *kernel, const char *file, int line)
{
    size_t i;
    json_t *e;
    json_array_foreach(roofline, i, e)
    {
        const char *k = json_string_value(json_object_get(e, "kernel"));
        const char *f = json_string_value(json_object_get(e, "file"));
        if (k && strcmp(k, kernel) == 0 && f && file && strcmp(f, file) == 0 &&
            json_integer_value(json_object_get(e, "line")) == line)
            return e;
    }
    return NULL;
}

static bool whole(const json_t *v, double *out)
{
    if (!json_is_integer(v))
        return false;
    *out = (double)json_integer_value(v);
    return true;
}

/* Why the counts are not numbers: the first name without a value and
 * where it comes from, as the sizes block lists it. */
static const char *unbound_why(const json_t *roof, char *buf, size_t size)
{
    const char *name = json_string_value(json_object_get(roof, "unknown"));
    if (!name || !name[0])
        return "a count is not a number (bind its sizes with --define)";
    if (strpbrk(name, " (")) { /* a phrase: "value read from memory ('p[i]')" */
        snprintf(buf, size, "the counts are not numbers: %s", name);
        return buf;
    }
    if (!strncmp(name, "threadIdx.", 10) || !strncmp(name, "blockIdx.", 9)) {
        snprintf(buf, size,
                 "the counts vary with '%s' and their sum over the launch could not be taken",
                 name);
        return buf;
    }
    const json_t *origins = json_object_get(json_object_get(roof, "names"), "origins");
    const char *origin = json_string_value(json_object_get(origins, name));
    if (origin && origin[0])
        snprintf(buf, size, "the counts depend on '%s', which has no value: %s (see sizes)", name,
                 origin);
    else
        snprintf(buf, size, "the counts depend on '%s', which has no value here (see sizes)", name);
    return buf;
}

/* The launch's totals from its roofline entry; NULL, or why not (in buf
 * where it names the entry's values). */
static const char *counts_of(const json_t *roof, ktime_counts *c, ktime_load **loads, char *buf,
                             size_t size)
{
    if (!roof)
        return "no counts for this launch";
    const char *counts = json_string_value(json_object_get(roof, "counts_label"));
    if (counts && (!strcmp(counts, "lower_bound") || !strcmp(counts, "unknown")))
        return "the counts may miss code that could not be analysed";
    if (counts && !strcmp(counts, "annotated"))
        return "the counts come from an annotation, which gives no accesses";
    static const char *const prec[4] = {"fp16", "fp32", "fp64", "tensor"};
    const json_t *fl = json_object_get(roof, "flops");
    for (int i = 0; i < 4; i++)
        if (!whole(json_object_get(fl, prec[i]), &c->flops[i]))
            return unbound_why(roof, buf, size);
    const json_t *dram = json_object_get(roof, "dram_compulsory_bytes");
    /* The estimate where the compulsory bytes are a lower bound: the
     * predicted time never takes a lower value for its estimate. */
    if (json_object_get(dram, "estimate"))
        dram = json_object_get(dram, "estimate");
    double read_sectors, written;
    if (!whole(json_object_get(dram, "read_sectors"), &read_sectors) ||
        !whole(json_object_get(dram, "write"), &written))
        return "the DRAM footprint is not known";
    /* Local memory past the L2 (launch_local): an estimate, so it moves
     * the predicted time and never the floor. */
    const json_t *local = json_object_get(json_object_get(roof, "dram_bytes"), "local");
    double local_read = json_number_value(json_object_get(local, "read"));
    double local_write = json_number_value(json_object_get(local, "write"));
    c->dram_read_sectors = read_sectors;
    /* Sectors stored in part that L2 fills from DRAM first: the read. Their
     * write-back is among the written sectors already (a sector with any
     * byte stored counts whole there). */
    double fill =
        json_number_value(json_object_get(json_object_get(roof, "dram_bytes"), "partial_fill"));
    c->dram_bytes = 32 * read_sectors + written + fill;
    c->local_dram_bytes = local_read + local_write;
    const json_t *tr = json_object_get(roof, "l1_traffic");
    static const char *const kinds[TRAFFIC_KINDS] = {"global_load", "global_store", "shared",
                                                     "global_atomic"};
    if (tr) {
        c->has_traffic = true;
        for (int i = 0; i < TRAFFIC_KINDS; i++) {
            const json_t *k = json_object_get(tr, kinds[i]);
            if (!k && i == TRAFFIC_ATOMIC)
                continue; /* none: written only where there are */
            if (!whole(json_object_get(k, "requests"), &c->requests[i]) ||
                !whole(json_object_get(k, i == TRAFFIC_SHARED ? "wavefronts" : "sectors"),
                       &c->units[i]))
                return "the L1 traffic is not known";
            if (i != TRAFFIC_SHARED && !whole(json_object_get(k, "lines"), &c->lines[i]))
                c->lines[i] = 0;
            if (i != TRAFFIC_SHARED &&
                !whole(json_object_get(k, "run_sectors"), &c->run_sectors[i]))
                c->run_sectors[i] = 0;
            if (i != TRAFFIC_SHARED && !whole(json_object_get(k, "wavefronts"), &c->wavefronts[i]))
                c->wavefronts[i] = 0;
            if (i == TRAFFIC_LOAD &&
                !whole(json_object_get(k, "busiest_warp_requests"), &c->busiest_loads))
                c->busiest_loads = 0;
            if (i == TRAFFIC_ATOMIC &&
                (!whole(json_object_get(k, "one_address"), &c->one_address_atomics) ||
                 !whole(json_object_get(k, "one_address_float"), &c->one_address_float_atomics)))
                c->one_address_atomics = c->one_address_float_atomics = 0;
        }
    }
    const json_t *phases = json_object_get(roof, "load_phases");
    size_t n = 0, p, i;
    const json_t *ph, *ld;
    json_array_foreach(phases, p, ph) n += json_array_size(ph);
    if (n > 0) {
        *loads = xcalloc(n, sizeof **loads);
        json_array_foreach(phases, p, ph) json_array_foreach(ph, i, ld)
        {
            ktime_load *d = &(*loads)[c->n_loads++];
            d->phase = (int)p;
            d->requests = json_number_value(json_object_get(ld, "requests"));
            d->new_share = json_number_value(json_object_get(ld, "new_share"));
            d->first_share = json_number_value(json_object_get(ld, "first_share"));
            d->lockstep = json_number_value(json_object_get(ld, "lockstep"));
            d->restored_share = json_number_value(json_object_get(ld, "restored_share"));
            d->seen_share = json_number_value(json_object_get(ld, "seen_share"));
            d->together = json_number_value(json_object_get(ld, "together"));
            d->busiest = json_number_value(json_object_get(ld, "busiest_warp_requests"));
            d->lines = json_number_value(json_object_get(ld, "lines"));
            /* The copies of the load nvcc made in the loop (launch_issue),
             * where it did not unroll the loop in full: copies of a loop
             * unrolled in full lie in the loop around it, whose body may
             * hold them back. */
            double unrolled = json_number_value(json_object_get(ld, "unrolled"));
            if (json_is_true(json_object_get(ld, "free_body")) && d->together <= 1 && unrolled > 1)
                d->together = unrolled;
        }
        c->loads = *loads;
    }
    if (!whole(json_object_get(json_object_get(roof, "issue"), "placed_warp_instructions"),
               &c->warp_insts))
        c->warp_insts = 0;
    const json_t *pipes =
        json_object_get(json_object_get(roof, "issue"), "placed_pipe_instructions");
    for (int q = 0; q < PIPES_OTHER; q++)
        if (!whole(json_object_get(pipes, pipes_name(q)), &c->pipe_insts[q]))
            c->pipe_insts[q] = 0;
    /* the rest of the placed instructions issue one a clock */
    double on_pipes = 0;
    for (int q = 0; q < PIPES_OTHER; q++)
        on_pipes += c->pipe_insts[q];
    c->pipe_insts[PIPES_OTHER] = fmax(0, c->warp_insts - on_pipes);
    const json_t *chain = json_object_get(json_object_get(roof, "issue"), "placed_chain_cycles");
    c->chain_cycles = json_is_number(chain) ? json_number_value(chain) : 0;
    const json_t *l2 = json_object_get(roof, "l2_bytes");
    if (l2 && whole(json_object_get(l2, "read_sectors"), &c->l2_read_sectors) &&
        whole(json_object_get(l2, "write_sectors"), &c->l2_write_sectors)) {
        c->has_l2 = true;
        if (!whole(json_object_get(l2, "partial_write_sectors"), &c->l2_partial_write_sectors))
            c->l2_partial_write_sectors = 0;
        if (!whole(json_object_get(l2, "shared_partial_write_sectors"),
                   &c->l2_shared_partial_write_sectors))
            c->l2_shared_partial_write_sectors = 0;
    }
    return NULL;
}

static void set_reason(json_t *launch, const char *why)
{
    json_object_set_new(launch, "time", json_pack("{s:s}", "reason", why));
}

void launch_time_add(json_t *launch, json_t *roof, bool copy_to_roofline,
                     const gpu_product *product, bool base_clock, const int64_t grid[3],
                     const int64_t block[3], int blocks_per_sm)
{
    if (!product)
        return;
    ktime_counts c = {0};
    ktime_load *loads = NULL;
    char why_buf[512];
    const char *why = counts_of(roof, &c, &loads, why_buf, sizeof why_buf);
    if (why) {
        free(loads);
        set_reason(launch, why);
        return;
    }
    double mhz = base_clock ? product->base_clock_mhz : product->boost_clock_mhz;
    if (mhz <= 0) {
        free(loads);
        set_reason(launch, "the product's base clock is not known");
        return;
    }
    ktime_consts k;
    char buf[160];
    if (!ktime_consts_of(product, mhz * 1e6, &k, buf, sizeof buf)) {
        free(loads);
        set_reason(launch, buf);
        return;
    }
    c.blocks = grid[0] * grid[1] * grid[2];
    int64_t tpb = block[0] * block[1] * block[2];
    c.threads_per_block = tpb > 0x7fffffff ? 0x7fffffff : (int)tpb;
    c.blocks_per_sm = blocks_per_sm;
    ktime t;
    ktime_predict(&c, &k, &t);
    free(loads);
    if (!t.ok) {
        set_reason(launch, t.why);
        return;
    }
    json_t *parts = json_object();
    for (int i = 0; i < KTIME_PARTS; i++)
        if (t.part[i] > 0)
            json_object_set_new(parts, ktime_part_name(i), json_real(t.part[i]));
    /* An estimate below the floor (the lower counts at the datasheet's
     * peaks) would say a run can beat what none can: it is the floor. */
    const json_t *fl = roof ? json_object_get(roof, "min_time_s") : NULL;
    bool raised = json_is_number(fl) && t.predicted < json_number_value(fl);
    if (raised)
        t.predicted = json_number_value(fl);
    json_t *o = json_object();
    json_object_set_new(o, "predicted_s", json_real(t.predicted));
    if (raised)
        json_object_set_new(o, "raised_to_floor", json_true());
    json_object_set_new(o, "limiter", json_text(ktime_part_name(t.limiter)));
    json_object_set_new(o, "components_s", parts);
    json_object_set_new(o, "waves", json_real(t.waves));
    json_object_set_new(o, "clock_mhz", json_real(mhz));
    json_object_set_new(o, "label", json_text("estimate"));
    json_object_set_new(launch, "time", o);
    if (copy_to_roofline && roof) {
        json_object_set_new(roof, "predicted_time_s", json_real(t.predicted));
        json_object_set_new(roof, "time_limiter", json_text(ktime_part_name(t.limiter)));
        json_object_set(roof, "time_components", parts);
    }
}

void launch_time_cell(const json_t *launch, char *buf, size_t n)
{
    const json_t *t = json_object_get(launch, "time");
    const json_t *p = json_object_get(t, "predicted_s");
    if (!json_is_number(p)) {
        snprintf(buf, n, "-");
        return;
    }
    char tb[48];
    snprintf(buf, n, "%s (%s)", roofline_fmt_time(json_number_value(p), tb, sizeof tb),
             json_string_value(json_object_get(t, "limiter")));
}
