/* roofline: ceilings from product data, ridge point, bounds and minimum
 * times. The model is Williams, Waterman and Patterson's (CACM 2009):
 * attainable = min(peak, AI x bandwidth). */
#include "analysis/timing/roofline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double rel_diff(double a, double ref)
{
    return ref > 0 && a > 0 ? (a - ref) / ref : 0.0;
}

/* Fill used/source from the preference; false when the wanted figure is
 * missing. */
static bool choose(roof_value *v, roof_prefer prefer, bool datasheet_comparable)
{
    v->used = 0;
    v->source = ROOF_SRC_NONE;
    switch (prefer) {
    case ROOF_PREFER_AUTO:
        if (v->measured > 0) {
            v->used = v->measured;
            v->source = ROOF_SRC_MEASURED;
        } else if (v->datasheet > 0 && datasheet_comparable) {
            v->used = v->datasheet;
            v->source = ROOF_SRC_DATASHEET;
        } else if (v->computed > 0) {
            v->used = v->computed;
            v->source = ROOF_SRC_COMPUTED;
        }
        break;
    case ROOF_PREFER_COMPUTED:
        if (v->computed > 0) {
            v->used = v->computed;
            v->source = ROOF_SRC_COMPUTED;
        }
        break;
    case ROOF_PREFER_DATASHEET:
        if (v->datasheet > 0) {
            v->used = v->datasheet;
            v->source = ROOF_SRC_DATASHEET;
        }
        break;
    case ROOF_PREFER_MEASURED:
        if (v->measured > 0) {
            v->used = v->measured;
            v->source = ROOF_SRC_MEASURED;
        }
        break;
    }
    return v->source != ROOF_SRC_NONE;
}

static void compare(roof_value *v, bool comparable)
{
    v->difference = comparable ? rel_diff(v->computed, v->datasheet) : 0.0;
    v->disagrees = fabs(v->difference) > ROOF_DISAGREE_TOL;
}

bool roofline_ceilings(const gpu_product *p, model_precision prec, roof_clock clock,
                       roof_prefer prefer, roof_ceilings *out, const char **why)
{
    static const char *const no_why = "";
    if (why)
        *why = no_why;
    memset(out, 0, sizeof *out);
    out->precision = prec;
    out->clock = clock;
    if (!p || (int)prec < 0 || prec >= PREC_COUNT) {
        if (why)
            *why = "no product or an unknown precision";
        return false;
    }
    out->sm_count = p->sm_count;
    out->flops_per_clock_per_sm = p->flops_per_clock_per_sm[prec];
    out->clock_mhz = clock == ROOF_CLOCK_BASE ? p->base_clock_mhz : p->boost_clock_mhz;
    out->mem_data_rate = p->mem_data_rate;
    out->mem_clock_mhz = p->mem_clock_mhz;
    out->mem_bus_width_bits = p->mem_bus_width_bits;

    roof_value *f = &out->flops;
    if (p->sm_count > 0 && out->flops_per_clock_per_sm > 0 && out->clock_mhz > 0)
        f->computed = p->sm_count * out->flops_per_clock_per_sm * out->clock_mhz * 1e6;
    f->datasheet = p->datasheet_flops[prec];
    if (f->datasheet > 0 && p->sm_count > 0 && out->flops_per_clock_per_sm > 0)
        out->datasheet_clock_mhz = f->datasheet / (p->sm_count * out->flops_per_clock_per_sm) / 1e6;
    f->measured = p->measured_flops[prec];
    /* NVIDIA quotes rates at the boost clock, so only then do the two
     * describe the same thing. */
    bool comparable = clock == ROOF_CLOCK_BOOST;
    compare(f, comparable);

    roof_value *m = &out->bandwidth;
    if (p->mem_data_rate > 0 && p->mem_clock_mhz > 0 && p->mem_bus_width_bits > 0)
        m->computed = p->mem_data_rate * p->mem_clock_mhz * 1e6 * p->mem_bus_width_bits / 8.0;
    m->datasheet = p->datasheet_bandwidth;
    m->measured = p->measured_bandwidth;
    /* The memory clock does not follow the SM clock, so bandwidth figures
     * are comparable whichever SM clock was chosen. */
    compare(m, true);

    if (clock == ROOF_CLOCK_BASE && p->base_clock_mhz <= 0 && prefer != ROOF_PREFER_DATASHEET &&
        prefer != ROOF_PREFER_MEASURED) {
        if (why)
            *why = "the product model gives no base clock";
        return false;
    }
    if (f->computed <= 0 && f->datasheet <= 0 && f->measured <= 0) {
        if (why)
            *why = "the product model gives no throughput for this precision";
        return false;
    }
    if (!choose(f, prefer, comparable)) {
        if (why)
            *why = prefer == ROOF_PREFER_DATASHEET  ? "no datasheet rate for this precision"
                   : prefer == ROOF_PREFER_MEASURED ? "no measured rate for this precision"
                                                    : "the compute rate cannot be derived";
        return false;
    }
    if (!choose(m, prefer, true)) {
        if (why)
            *why = prefer == ROOF_PREFER_DATASHEET  ? "no datasheet bandwidth"
                   : prefer == ROOF_PREFER_MEASURED ? "no measured bandwidth"
                                                    : "the memory bandwidth cannot be derived";
        return false;
    }
    return true;
}

double roofline_ridge(double peak, double bandwidth)
{
    if (!(peak > 0) || !(bandwidth > 0))
        return 0.0;
    return peak / bandwidth;
}

bool roofline_point(double peak, double bandwidth, double ai, roof_point *out)
{
    memset(out, 0, sizeof *out);
    if (!(peak > 0) || !(bandwidth > 0) || isinf(peak) || isinf(bandwidth) || isnan(ai) || ai < 0)
        return false;
    double ridge = peak / bandwidth;
    out->ai = ai;
    out->ridge_ratio = ai / ridge;
    if (ai >= ridge) {
        out->attainable = peak;
        out->bound = ROOF_BOUND_COMPUTE;
    } else {
        out->attainable = ai * bandwidth;
        out->bound = ROOF_BOUND_MEMORY;
    }
    return true;
}

double roofline_min_time(double peak, double bandwidth, double flops, double bytes)
{
    if (!(peak > 0) || !(bandwidth > 0) || !(flops >= 0) || !(bytes >= 0))
        return -1.0;
    double tc = flops / peak, tm = bytes / bandwidth;
    return tc > tm ? tc : tm;
}

bool roofline_kernel(double peak, double bandwidth, double flops, double bytes, roof_kernel *out)
{
    memset(out, 0, sizeof *out);
    if (!(flops >= 0) || !(bytes >= 0) || isinf(flops) || isinf(bytes) ||
        (flops == 0 && bytes == 0))
        return false;
    double ai = bytes > 0 ? flops / bytes : INFINITY;
    if (!roofline_point(peak, bandwidth, ai, &out->point))
        return false;
    out->flops = flops;
    out->bytes = bytes;
    out->compute_time = flops / peak;
    out->memory_time = bytes / bandwidth;
    out->min_time = roofline_min_time(peak, bandwidth, flops, bytes);
    return true;
}

bool roofline_gemm_rect(double m, double n, double k, double tm, double tn, double elem,
                        roof_gemm *out)
{
    memset(out, 0, sizeof *out);
    if (!(m >= 1) || !(n >= 1) || !(k >= 1) || !(tm >= 1) || !(tn >= 1) || !(elem > 0) ||
        isinf(m) || isinf(n) || isinf(k) || isinf(tm) || isinf(tn) || isinf(elem))
        return false;
    out->m = m;
    out->n = n;
    out->k = k;
    out->tile_m = tm;
    out->tile_n = tn;
    out->tile = tm == tn ? tm : 0;
    out->elem = elem;
    out->blocks = (m / tm) * (n / tn);
    out->bytes_per_block = elem * (tm * k + k * tn + tm * tn);
    out->flops = 2 * m * n * k;
    /* Square tiles keep the textbook's form (and its rounding). */
    out->bytes = tm == tn ? elem * (2 * m * n * k / tm + m * n)
                          : elem * (m * n * k / tn + m * n * k / tm + m * n);
    out->ai = out->flops / out->bytes;
    out->ai_limit = tm == tn ? tm / elem : 2 * tm * tn / (elem * (tm + tn));
    out->partial_tiles = fmod(m, tm) != 0 || fmod(n, tn) != 0;
    return true;
}

bool roofline_gemm_tiled(double m, double n, double k, double tile, double elem, roof_gemm *out)
{
    return roofline_gemm_rect(m, n, k, tile, tile, elem, out);
}

const char *roofline_fmt_si(double v, const char *unit, char *buf, size_t n)
{
    static const char prefixes[] = "\0KMGTPE";
    int i = 0;
    double a = fabs(v);
    if (isinf(v)) {
        snprintf(buf, n, "%s %s", v < 0 ? "-inf" : "inf", unit);
        return buf;
    }
    /* Step up a prefix once the value would print as 1000 or more. */
    while (a >= 999.95 && i < 6) {
        a /= 1000.0;
        v /= 1000.0;
        i++;
    }
    if (i == 0)
        snprintf(buf, n, "%.4g %s", v, unit);
    else
        snprintf(buf, n, "%.4g %c%s", v, prefixes[i], unit);
    return buf;
}

const char *roofline_fmt_time(double s, char *buf, size_t n)
{
    if (isinf(s) || isnan(s))
        snprintf(buf, n, "%s", isnan(s) ? "n/a" : "inf");
    else if (s == 0)
        snprintf(buf, n, "0 s");
    else if (s < 999.95e-9)
        snprintf(buf, n, "%.4g ns", s * 1e9);
    else if (s < 999.95e-6)
        snprintf(buf, n, "%.4g \xc2\xb5s", s * 1e6);
    else if (s < 999.95e-3)
        snprintf(buf, n, "%.4g ms", s * 1e3);
    else
        snprintf(buf, n, "%.4g s", s);
    return buf;
}

const char *roofline_fmt_num(double v, char *buf, size_t n)
{
    if (isinf(v))
        snprintf(buf, n, "inf");
    else if (fabs(v) >= 999.5 && fabs(v) < 1e7)
        snprintf(buf, n, "%.0f", v); /* "1000", not "1e+03" */
    else
        snprintf(buf, n, "%.3g", v);
    return buf;
}

const char *roofline_bound_name(roof_bound b)
{
    return b == ROOF_BOUND_COMPUTE ? "compute" : "memory";
}

const char *roofline_source_name(roof_source s)
{
    switch (s) {
    case ROOF_SRC_COMPUTED:
        return "computed";
    case ROOF_SRC_DATASHEET:
        return "datasheet";
    case ROOF_SRC_MEASURED:
        return "measured";
    case ROOF_SRC_USER:
        return "given";
    case ROOF_SRC_NONE:
        break;
    }
    return "none";
}

const char *roofline_clock_name(roof_clock c)
{
    return c == ROOF_CLOCK_BASE ? "base" : "boost";
}

/* "8.2% above" / "1.1% below" */
static void add_difference(sbuf *b, double d)
{
    sbuf_addf(b, "%.1f%% %s", fabs(d) * 100, d >= 0 ? "above" : "below");
}

void roofline_explain_ceilings(const gpu_product *p, const roof_ceilings *c, sbuf *b)
{
    roofline_explain_compute(p, c, b);
    roofline_explain_bandwidth(p, c, b);
}

void roofline_explain_compute(const gpu_product *p, const roof_ceilings *c, sbuf *b)
{
    char x[64];
    const roof_value *f = &c->flops;
    const char *prec = model_precision_name(c->precision);
    const char *unit = c->precision == PREC_INT8_TENSOR ? "OP/s" : "FLOP/s";

    sbuf_addf(b, "Compute ceiling (%s, %s clock):\n", prec, roofline_clock_name(c->clock));
    if (f->computed > 0) {
        sbuf_addf(b,
                  "  SMs x %s per SM per clock x clock = %d x %g x %g MHz = %s\n"
                  "  (an FMA counts as 2 operations)\n",
                  c->precision == PREC_INT8_TENSOR ? "OPs" : "FLOPs", c->sm_count,
                  c->flops_per_clock_per_sm, c->clock_mhz,
                  roofline_fmt_si(f->computed, unit, x, sizeof x));
    } else {
        sbuf_addf(b, "  cannot be computed: the model lacks %s\n",
                  c->flops_per_clock_per_sm <= 0 ? "the per-SM rate for this precision"
                  : c->clock_mhz <= 0            ? "this clock"
                                                 : "the SM count");
    }
    if (f->datasheet > 0) {
        sbuf_addf(b, "  datasheet (%s): %s", p ? p->name : "product",
                  roofline_fmt_si(f->datasheet, unit, x, sizeof x));
        if (f->computed > 0 && c->clock == ROOF_CLOCK_BOOST) {
            sbuf_add(b, "; computed is ");
            add_difference(b, f->difference);
            if (f->disagrees)
                sbuf_addf(b,
                          " -- DISAGREES by more than %.0f%%; the datasheet rate matches a "
                          "%.0f MHz clock",
                          ROOF_DISAGREE_TOL * 100, c->datasheet_clock_mhz);
        } else if (c->clock == ROOF_CLOCK_BASE) {
            sbuf_add(b, " (quoted at the boost clock, so not comparable)");
        }
        sbuf_addc(b, '\n');
    }
    if (f->measured > 0)
        sbuf_addf(b, "  measured: %s\n", roofline_fmt_si(f->measured, unit, x, sizeof x));
    sbuf_addf(b, "  using the %s figure: %s\n", roofline_source_name(f->source),
              roofline_fmt_si(f->used, unit, x, sizeof x));
}

void roofline_explain_bandwidth(const gpu_product *p, const roof_ceilings *c, sbuf *b)
{
    char x[64], y[64];
    const roof_value *m = &c->bandwidth;
    sbuf_add(b, "Memory bandwidth ceiling (DRAM):\n");
    if (m->computed > 0) {
        sbuf_addf(b,
                  "  transfers per clock x memory clock x bus width / 8 = %d x %g MHz x %d bit / 8"
                  " = %s\n",
                  c->mem_data_rate, c->mem_clock_mhz, c->mem_bus_width_bits,
                  roofline_fmt_si(m->computed, "B/s", x, sizeof x));
    } else {
        sbuf_add(b, "  cannot be computed: the model lacks the memory clock, bus width or data "
                    "rate\n");
    }
    if (m->datasheet > 0) {
        sbuf_addf(b, "  datasheet (%s%s%s): %s", p ? p->name : "product",
                  p && p->mem_type[0] ? ", " : "", p ? p->mem_type : "",
                  roofline_fmt_si(m->datasheet, "B/s", y, sizeof y));
        if (m->computed > 0) {
            sbuf_add(b, "; computed is ");
            add_difference(b, m->difference);
            if (m->disagrees)
                sbuf_addf(b, " -- DISAGREES by more than %.0f%%", ROOF_DISAGREE_TOL * 100);
        }
        sbuf_addc(b, '\n');
    }
    if (m->measured > 0)
        sbuf_addf(b, "  measured: %s\n", roofline_fmt_si(m->measured, "B/s", x, sizeof x));
    sbuf_addf(b, "  using the %s figure: %s", roofline_source_name(m->source),
              roofline_fmt_si(m->used, "B/s", x, sizeof x));
    if (m->source == ROOF_SRC_DATASHEET)
        sbuf_add(b, " (NVIDIA's figure; the formula rests on the driver's memory clock and "
                    "bus width conventions)");
    sbuf_addc(b, '\n');
}

void roofline_explain_point(double peak, double bandwidth, const roof_point *pt, sbuf *b)
{
    char a[32], r[32], bw[64], mem[64], pk[64], att[64];
    double ridge = roofline_ridge(peak, bandwidth);
    double mem_rate = pt->ai * bandwidth;
    roofline_fmt_num(pt->ai, a, sizeof a);
    roofline_fmt_num(ridge, r, sizeof r);
    roofline_fmt_si(bandwidth, "B/s", bw, sizeof bw);
    roofline_fmt_si(peak, "FLOP/s", pk, sizeof pk);
    roofline_fmt_si(pt->attainable, "FLOP/s", att, sizeof att);
    if (isinf(pt->ai))
        snprintf(mem, sizeof mem, "unbounded (no DRAM bytes)");
    else
        roofline_fmt_si(mem_rate, "FLOP/s", mem, sizeof mem);
    sbuf_addf(b, "AI %s FLOP/B: memory roof = AI x bandwidth = %s x %s = %s\n", a, a, bw, mem);
    if (pt->bound == ROOF_BOUND_COMPUTE) {
        char x[32];
        sbuf_addf(b,
                  "  AI %s >= ridge %s, so the compute roof %s is lower: compute-bound, "
                  "attainable %s (%sx the ridge)\n",
                  a, r, pk, att, roofline_fmt_num(pt->ridge_ratio, x, sizeof x));
    } else {
        char x[32];
        sbuf_addf(b,
                  "  AI %s < ridge %s, so the memory roof is lower than %s: memory-bound, "
                  "attainable %s (ridge / AI = %sx below the ridge)\n",
                  a, r, pk, att,
                  pt->ridge_ratio > 0 ? roofline_fmt_num(1.0 / pt->ridge_ratio, x, sizeof x)
                                      : "inf");
    }
}

void roofline_explain_kernel(double peak, double bandwidth, const roof_kernel *k, sbuf *b)
{
    char fl[64], by[64], a[32], pk[64], bw[64], tc[32], tm[32], t[32];
    roofline_fmt_si(k->flops, "FLOP", fl, sizeof fl);
    roofline_fmt_si(k->bytes, "B", by, sizeof by);
    roofline_fmt_num(k->point.ai, a, sizeof a);
    roofline_fmt_si(peak, "FLOP/s", pk, sizeof pk);
    roofline_fmt_si(bandwidth, "B/s", bw, sizeof bw);
    sbuf_addf(b, "AI = FLOPs / bytes = %s / %s = %s FLOP/B\n", fl, by, a);
    sbuf_addf(b, "Compute time = FLOPs / peak = %s / %s = %s\n", fl, pk,
              roofline_fmt_time(k->compute_time, tc, sizeof tc));
    sbuf_addf(b, "Memory time = bytes / bandwidth = %s / %s = %s\n", by, bw,
              roofline_fmt_time(k->memory_time, tm, sizeof tm));
    sbuf_addf(b, "Minimum time = max(%s, %s) = %s (%s-bound)\n", tc, tm,
              roofline_fmt_time(k->min_time, t, sizeof t), roofline_bound_name(k->point.bound));
    roofline_explain_point(peak, bandwidth, &k->point, b);
}

static void explain_gemm_rect(const roof_gemm *g, sbuf *b)
{
    char x[64], y[64], z[32];
    sbuf_addf(b,
              "Tiled GEMM: C (%.0fx%.0f) = A (%.0fx%.0f) x B (%.0fx%.0f), %.0fx%.0f tiles of C "
              "(TM x TN), %.0f-byte elements\n",
              g->m, g->n, g->m, g->k, g->k, g->n, g->tile_m, g->tile_n, g->elem);
    sbuf_addf(b,
              "  FLOPs = 2 x M x N x K = 2 x %.0f x %.0f x %.0f = %s (one multiply and one add per "
              "term)\n",
              g->m, g->n, g->k, roofline_fmt_si(g->flops, "FLOP", x, sizeof x));
    sbuf_addf(b, "  blocks = (M/TM) x (N/TN) = (%.0f/%.0f) x (%.0f/%.0f) = %.15g%s\n", g->m,
              g->tile_m, g->n, g->tile_n, g->blocks,
              g->partial_tiles ? " (a tile does not divide M or N: partial tiles counted as "
                                 "fractions)"
                               : "");
    sbuf_addf(b,
              "  per block: reads TM x K of A and K x TN of B, writes TM x TN of C = "
              "%.0f x (%.0f + %.0f + %.0f) = %s\n",
              g->elem, g->tile_m * g->k, g->k * g->tile_n, g->tile_m * g->tile_n,
              roofline_fmt_si(g->bytes_per_block, "B", x, sizeof x));
    sbuf_addf(b,
              "  DRAM bytes = elem x (M x N x K / TN + M x N x K / TM + M x N): A is read once per "
              "column of tiles, B once per row = %s\n",
              roofline_fmt_si(g->bytes, "B", y, sizeof y));
    sbuf_addf(b, "  AI = 2MNK / bytes = %s FLOP/B\n", roofline_fmt_num(g->ai, z, sizeof z));
    sbuf_addf(b,
              "  for K >> TM, TN: AI -> 2 / (elem x (1/TM + 1/TN)) = 2 x %.0f x %.0f / (%.0f x "
              "(%.0f + %.0f)) = %s FLOP/B",
              g->tile_m, g->tile_n, g->elem, g->tile_m, g->tile_n,
              roofline_fmt_num(g->ai_limit, z, sizeof z));
    sbuf_addf(b, "; here %.1f%% of the limit\n", 100 * g->ai / g->ai_limit);
    sbuf_add(b, "  (a TM x TN tile moves as much as a square one of edge 2 TM TN / (TM + TN); DRAM "
                "traffic assumes no reuse between blocks through the L2 cache)\n");
}

void roofline_explain_gemm(const roof_gemm *g, sbuf *b)
{
    if (g->tile_m != g->tile_n) {
        explain_gemm_rect(g, b);
        return;
    }
    char x[64], y[64], z[32];
    sbuf_addf(
        b,
        "Tiled GEMM: C (%.0fx%.0f) = A (%.0fx%.0f) x B (%.0fx%.0f), %.0fx%.0f tiles, %.0f-byte "
        "elements\n",
        g->m, g->n, g->m, g->k, g->k, g->n, g->tile, g->tile, g->elem);
    sbuf_addf(b,
              "  FLOPs = 2 x M x N x K = 2 x %.0f x %.0f x %.0f = %s (one multiply and one add per "
              "term)\n",
              g->m, g->n, g->k, roofline_fmt_si(g->flops, "FLOP", x, sizeof x));
    sbuf_addf(b, "  blocks = (M/T) x (N/T) = (%.0f/%.0f) x (%.0f/%.0f) = %.15g%s\n", g->m, g->tile,
              g->n, g->tile, g->blocks,
              g->partial_tiles ? " (T does not divide M or N: partial "
                                 "tiles counted as fractions)"
                               : "");
    sbuf_addf(b,
              "  per block: reads T x K of A and K x T of B, writes T x T of C = "
              "%.0f x (%.0f + %.0f + %.0f) = %s\n",
              g->elem, g->tile * g->k, g->k * g->tile, g->tile * g->tile,
              roofline_fmt_si(g->bytes_per_block, "B", x, sizeof x));
    sbuf_addf(b, "  DRAM bytes = elem x (2 x M x N x K / T + M x N) = %s\n",
              roofline_fmt_si(g->bytes, "B", y, sizeof y));
    sbuf_addf(b, "  AI = 2MNK / bytes = 2KT / (elem x (2K + T)) = %s FLOP/B\n",
              roofline_fmt_num(g->ai, z, sizeof z));
    sbuf_addf(b,
              "  for K >> T the 2K term dominates: AI -> 2KT / (elem x 2K) = T / elem = %.0f / %.0f"
              " = %s FLOP/B",
              g->tile, g->elem, roofline_fmt_num(g->ai_limit, z, sizeof z));
    if (g->elem == 4)
        sbuf_add(b, " (T/4 for float)");
    sbuf_addf(b, "; here %.1f%% of the limit\n", 100 * g->ai / g->ai_limit);
    sbuf_add(b, "  (DRAM traffic assumes no reuse between blocks through the L2 cache)\n");
}
