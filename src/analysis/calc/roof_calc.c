/* roof_calc: `gpulint roofline` as a calculator: options read and checked
 * in the command line's words, the ceilings of a product or as given, the
 * points, the GEMM models and the text, shared by the command line and the
 * web page. */
#include "analysis/calc/roof_calc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calc/regtile_text.h"
#include "util/errmsg.h"
#include "util/units.h"

const char *roof_calc_prec_title(model_precision p, char *buf, size_t n)
{
    /* "fp16-tensor" -> "FP16 Tensor Core", "fp32" -> "FP32" */
    const char *name = model_precision_name(p);
    size_t i = 0;
    for (; name[i] && name[i] != '-' && i + 1 < n; i++)
        buf[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
    buf[i] = '\0';
    if (name[i] == '-')
        snprintf(buf + i, n - i, " Tensor Core");
    return buf;
}

static void value_note(sbuf *b, const roof_value *v, const char *unit, roof_clock clock)
{
    char x[64];
    sbuf_addf(b, " (%s", roofline_source_name(v->source));
    if (v->source != ROOF_SRC_COMPUTED && v->computed > 0)
        sbuf_addf(b, "; computed %s", roofline_fmt_si(v->computed, unit, x, sizeof x));
    else if (v->source == ROOF_SRC_COMPUTED && v->datasheet > 0)
        sbuf_addf(b, "; datasheet %s", roofline_fmt_si(v->datasheet, unit, x, sizeof x));
    if (v->disagrees)
        sbuf_addf(b, ", %.1f%% %s the datasheet: they differ by more than %.0f%%",
                  fabs(v->difference) * 100, v->difference > 0 ? "above" : "below",
                  ROOF_DISAGREE_TOL * 100);
    else if (clock == ROOF_CLOCK_BASE && v->datasheet > 0 && v->source == ROOF_SRC_COMPUTED &&
             strcmp(unit, "B/s") != 0)
        sbuf_addf(b, ", quoted at the boost clock");
    sbuf_addf(b, ")");
}

/* Columns sized to their widest cell, two spaces apart, no trailing
 * blanks. */
#define N_COLS 6
static void table_text(sbuf *b, const roof_calc_point *pts, int n)
{
    bool labels = false, times = false;
    for (int i = 0; i < n; i++) {
        labels |= pts[i].label[0] != '\0';
        times |= pts[i].has_work;
    }
    static const char *const head[N_COLS] = {"point", "AI (FLOP/B)", "attainable",
                                             "bound", "vs ridge",    "min time"};
    char(*cell)[N_COLS][64] = xcalloc((size_t)n + 1, sizeof *cell);
    for (int c = 0; c < N_COLS; c++)
        snprintf(cell[0][c], sizeof cell[0][c], "%s", head[c]);
    for (int i = 0; i < n; i++) {
        const roof_point *p = &pts[i].k.point;
        char r[32];
        char(*row)[64] = cell[i + 1];
        if (pts[i].label[0])
            snprintf(row[0], sizeof row[0], "%.63s", pts[i].label);
        else
            snprintf(row[0], sizeof row[0], "#%d", i + 1);
        roofline_fmt_num(p->ai, row[1], sizeof row[1]);
        roofline_fmt_si(p->attainable, "FLOP/s", row[2], sizeof row[2]);
        snprintf(row[3], sizeof row[3], "%s", roofline_bound_name(p->bound));
        if (fabs(p->ridge_ratio - 1) < 0.005)
            snprintf(row[4], sizeof row[4], "at the ridge");
        else if (p->bound == ROOF_BOUND_COMPUTE)
            snprintf(row[4], sizeof row[4], "%sx above",
                     roofline_fmt_num(p->ridge_ratio, r, sizeof r));
        else
            snprintf(row[4], sizeof row[4], "%sx below",
                     p->ridge_ratio > 0 ? roofline_fmt_num(1 / p->ridge_ratio, r, sizeof r)
                                        : "inf");
        if (pts[i].has_work)
            roofline_fmt_time(pts[i].k.min_time, row[5], sizeof row[5]);
        else
            snprintf(row[5], sizeof row[5], "-");
    }
    int first = labels ? 0 : 1, last = times ? 5 : 4;
    int width[N_COLS] = {0};
    for (int i = 0; i <= n; i++)
        for (int c = first; c <= last; c++) {
            /* Display width: count UTF-8 lead bytes only ("µs"). */
            int w = 0;
            for (const char *q = cell[i][c]; *q; q++)
                w += ((unsigned char)*q & 0xc0) != 0x80;
            if (w > width[c])
                width[c] = w;
        }
    for (int i = 0; i <= n; i++) {
        for (int c = first; c <= last; c++) {
            sbuf_add(b, cell[i][c]);
            if (c < last) {
                int w = 0;
                for (const char *q = cell[i][c]; *q; q++)
                    w += ((unsigned char)*q & 0xc0) != 0x80;
                sbuf_addf(b, "%*s", width[c] - w + 2, "");
            }
        }
        sbuf_addc(b, '\n');
    }
    free(cell);
}

static void gemm_text(sbuf *b, const roof_gemm *g)
{
    char f[64], by[64], ai[32], lim[32];
    sbuf_addf(b, "Tiled GEMM %.0fx%.0fx%.0f (MxNxK), %.0fx%.0f tiles, %.0f-byte elements\n", g->m,
              g->n, g->k, g->tile_m, g->tile_n, g->elem);
    sbuf_addf(b, "FLOPs: %s (2MNK)\n", roofline_fmt_si(g->flops, "FLOP", f, sizeof f));
    if (g->tile_m == g->tile_n) {
        sbuf_addf(b, "DRAM bytes: %s (elem x (2MNK/T + MN))\n",
                  roofline_fmt_si(g->bytes, "B", by, sizeof by));
        sbuf_addf(b, "AI: %s FLOP/B; for K >> T it tends to T/elem = %s FLOP/B\n",
                  roofline_fmt_num(g->ai, ai, sizeof ai),
                  roofline_fmt_num(g->ai_limit, lim, sizeof lim));
        return;
    }
    sbuf_addf(b, "DRAM bytes: %s (elem x (MNK/TN + MNK/TM + MN))\n",
              roofline_fmt_si(g->bytes, "B", by, sizeof by));
    sbuf_addf(
        b, "AI: %s FLOP/B; for K >> TM, TN it tends to 2 TM TN / (elem (TM + TN)) = %s FLOP/B\n",
        roofline_fmt_num(g->ai, ai, sizeof ai), roofline_fmt_num(g->ai_limit, lim, sizeof lim));
}

static void explain_text(sbuf *out, const roof_calc *r)
{
    char x[64], y[64], z[32];
    const gpu_product *prod = r->prod;
    sbuf b;
    sbuf_init(&b);
    for (int i = 0; i < r->nc; i++)
        roofline_explain_compute(prod, &r->cs[i].c, &b);
    if (r->nc)
        roofline_explain_bandwidth(prod, &r->cs[0].c, &b);
    if (r->have_ceilings)
        sbuf_addf(&b, "Ridge point = peak / bandwidth = %s / %s = %s FLOP/B\n",
                  roofline_fmt_si(r->peak, "FLOP/s", x, sizeof x),
                  roofline_fmt_si(r->bw, "B/s", y, sizeof y),
                  roofline_fmt_num(roofline_ridge(r->peak, r->bw), z, sizeof z));
    if (r->has_gemm)
        roofline_explain_gemm(&r->gemm, &b);
    if (r->has_regtile)
        regtile_explain(&r->rt, r->have_ceilings ? r->peak : 0, prod ? prod->sm_count : 0,
                        prod ? r->cs[0].c.clock_mhz : 0, &b);
    for (int i = 0; i < r->np; i++) {
        if (r->pts[i].label[0])
            sbuf_addf(&b, "%s: ", r->pts[i].label);
        if (r->pts[i].has_work)
            roofline_explain_kernel(r->peak, r->bw, &r->pts[i].k, &b);
        else
            roofline_explain_point(r->peak, r->bw, &r->pts[i].k.point, &b);
    }
    sbuf_add(out, sbuf_str(&b));
    sbuf_free(&b);
    sbuf_addc(out, '\n');
}

/* The ceilings: the product's, or the given peak and bandwidth. */
static void ceilings_text(sbuf *b, const roof_calc *r)
{
    char x[64], y[64], z[32];
    const gpu_product *prod = r->prod;
    if (prod) {
        sbuf_addf(b, "GPU: %s (%s), %s clock %g MHz\n", prod->name, prod->id,
                  roofline_clock_name(r->clock), r->cs[0].c.clock_mhz);
        sbuf_addf(b, "Memory bandwidth: %s", roofline_fmt_si(r->bw, "B/s", x, sizeof x));
        value_note(b, &r->cs[0].c.bandwidth, "B/s", r->clock);
        if (prod->mem_type[0])
            sbuf_addf(b, ", %s", prod->mem_type);
        sbuf_addc(b, '\n');
        if (prod->l2_read_bytes_per_clock > 0)
            sbuf_addf(b, "L2 read bandwidth: %s (%d B per clock x %g MHz)\n",
                      roofline_fmt_si(prod->l2_read_bytes_per_clock * r->cs[0].c.clock_mhz * 1e6,
                                      "B/s", x, sizeof x),
                      prod->l2_read_bytes_per_clock, r->cs[0].c.clock_mhz);
        for (int i = 0; i < r->nc; i++) {
            const char *unit = r->cs[i].prec == PREC_INT8_TENSOR ? "OP/s" : "FLOP/s";
            sbuf_addf(b, "Compute %s: %s", model_precision_name(r->cs[i].prec),
                      roofline_fmt_si(r->cs[i].c.flops.used, unit, x, sizeof x));
            value_note(b, &r->cs[i].c.flops, unit, r->clock);
            sbuf_addf(b, ", ridge %s %s\n",
                      roofline_fmt_num(roofline_ridge(r->cs[i].c.flops.used, r->bw), z, sizeof z),
                      r->cs[i].prec == PREC_INT8_TENSOR ? "OP/B" : "FLOP/B");
        }
    } else if (r->have_ceilings) {
        sbuf_addf(b, "Roofline: peak %s, bandwidth %s\n",
                  roofline_fmt_si(r->peak, "FLOP/s", x, sizeof x),
                  roofline_fmt_si(r->bw, "B/s", y, sizeof y));
    }
    if (r->have_ceilings) {
        sbuf_addf(b, "Ridge point: %s FLOP/B",
                  roofline_fmt_num(roofline_ridge(r->peak, r->bw), z, sizeof z));
        if (r->nc > 1)
            sbuf_addf(b, " (%s judges the points)", model_precision_name(r->cs[0].prec));
        sbuf_addc(b, '\n');
    }
}

static void main_text(sbuf *out, const roof_calc *r)
{
    char x[64], y[64];
    sbuf *b = out;
    ceilings_text(b, r);
    if (r->has_gemm) {
        if (r->have_ceilings)
            sbuf_addc(b, '\n');
        gemm_text(b, &r->gemm);
        if (r->has_regtile)
            regtile_text(&r->rt, r->have_ceilings ? r->peak : 0, b);
    }
    if (r->np) {
        sbuf_addc(b, '\n');
        table_text(b, r->pts, r->np);
    }
    for (int i = 0; i < r->np; i++) {
        const roof_calc_point *p = &r->pts[i];
        if (!p->has_work)
            continue;
        char tc[32], tm[32], t[32];
        sbuf_addf(b, "%s: %s and %s -> at least %s (compute %s, memory %s)\n", p->label,
                  roofline_fmt_si(p->k.flops, "FLOP", x, sizeof x),
                  roofline_fmt_si(p->k.bytes, "B", y, sizeof y),
                  roofline_fmt_time(p->k.min_time, t, sizeof t),
                  roofline_fmt_time(p->k.compute_time, tc, sizeof tc),
                  roofline_fmt_time(p->k.memory_time, tm, sizeof tm));
    }
    /* The roofline knows DRAM and the compute peak; a register tile's
     * shared-memory ceiling below both is the tighter bound. */
    double smem = r->has_regtile ? (r->rt.smem_ceiling_banked > 0 ? r->rt.smem_ceiling_banked
                                                                  : r->rt.smem_ceiling)
                                 : 0;
    if (r->has_regtile && r->have_ceilings && smem > 0 &&
        smem < r->pts[r->np - 1].k.point.attainable) {
        char t[32];
        sbuf_addf(b, "%s: shared memory caps it at %s%s -> at least %s\n", r->pts[r->np - 1].label,
                  roofline_fmt_si(smem, "FLOP/s", x, sizeof x),
                  r->rt.smem_ceiling_banked > 0 ? " (with the tile's bank conflicts)" : "",
                  roofline_fmt_time(r->gemm.flops / smem, t, sizeof t));
    }
}

/* The ceilings and a kernel's work: which options go together. */
static bool check_ceiling_options(const roof_calc_in *a, char *msg, size_t n)
{
    if (a->gpu && (a->seen_peak || a->seen_bw))
        return errmsg_set(msg, n, "give --gpu or --peak/--bw, not both");
    if (!a->gpu && (a->n_precisions || a->clock || a->source || a->models_given))
        return errmsg_set(msg, n, "--precision, --clock, --source and --models need --gpu");
    if (a->seen_peak != a->seen_bw)
        return errmsg_set(msg, n, "--peak and --bw go together");
    if (a->seen_peak && (a->peak <= 0 || a->bw <= 0))
        return errmsg_set(msg, n, "--peak and --bw must be positive");
    if (a->seen_flops != a->seen_bytes)
        return errmsg_set(msg, n, "--flops and --bytes go together");
    if (a->seen_flops && a->flops == 0 && a->bytes == 0)
        return errmsg_set(msg, n, "--flops and --bytes cannot both be 0");
    if (a->n_labels > a->n_ai)
        return errmsg_set(msg, n, "%d labels for %d --ai values", a->n_labels, a->n_ai);
    return true;
}

static bool check_clock_source(const roof_calc_in *a, roof_calc *r, char *msg, size_t n)
{
    r->clock = ROOF_CLOCK_BOOST;
    if (a->clock && strcmp(a->clock, "base") == 0)
        r->clock = ROOF_CLOCK_BASE;
    else if (a->clock && strcmp(a->clock, "boost") != 0)
        return errmsg_set(msg, n, "unknown clock '%s' (use boost or base)", a->clock);
    r->prefer = ROOF_PREFER_AUTO;
    if (!a->source)
        return true;
    if (strcmp(a->source, "computed") == 0)
        r->prefer = ROOF_PREFER_COMPUTED;
    else if (strcmp(a->source, "datasheet") == 0)
        r->prefer = ROOF_PREFER_DATASHEET;
    else if (strcmp(a->source, "auto") != 0)
        return errmsg_set(msg, n, "unknown source '%s' (use auto, computed or datasheet)",
                          a->source);
    return true;
}

/* --tile T or TMxTN. */
static bool read_tile(const roof_calc_in *a, roof_calc *r, char *msg, size_t n)
{
    int d[3];
    if (!units_parse_dim3(a->tile_text, d) || d[2] != 1 || d[0] < 1 || d[1] < 1)
        return errmsg_set(msg, n, "invalid --tile '%s': expected T or TMxTN, e.g. 32 or 32x128",
                          a->tile_text);
    r->tile_m = d[0];
    r->tile_n = d[1] == 1 && !strchr(a->tile_text, 'x') ? d[0] : d[1];
    r->tile = r->tile_m == r->tile_n ? r->tile_m : 0;
    if (a->thread_tile && r->tile_m != r->tile_n)
        return errmsg_set(msg, n, "--thread-tile takes a square --tile T");
    return true;
}

/* --gemm with --tile, --thread-tile or --mma: which options go together. */
static bool check_gemm_options(const roof_calc_in *a, roof_calc *r, char *msg, size_t n)
{
    if (a->n_gemm && a->n_gemm != 3)
        return errmsg_set(msg, n, "--gemm takes M,N,K (three sizes), got %d", a->n_gemm);
    if (a->mma && !a->n_gemm)
        return errmsg_set(msg, n, "--mma goes with --gemm M,N,K");
    if (a->mma && a->seen_tile)
        return errmsg_set(msg, n, "--mma and --tile are two models of the GEMM: give one");
    if (a->mma && !mmaplan_shape(a->mma, &r->shape))
        return errmsg_set(msg, n, "unknown MMA shape '%s' (use %s)", a->mma, mmaplan_shape_list());
    if (a->seen_measured && !a->mma)
        return errmsg_set(msg, n, "--measured goes with --gemm and --mma");
    if (a->seen_measured && !(a->measured > 0))
        return errmsg_set(msg, n, "--measured must be positive");
    if (a->mma && !a->gpu && !a->seen_peak)
        return errmsg_set(msg, n,
                          "--mma needs the ceilings: --gpu ID --precision P, or "
                          "--peak F --bw B");
    if (a->mma && a->n_precisions > 1)
        return errmsg_set(msg, n, "--mma takes one --precision");
    if (a->thread_tile && (!a->n_gemm || !a->seen_tile))
        return errmsg_set(msg, n, "--thread-tile goes with --gemm M,N,K and --tile T");
    if (a->thread_tile && !regtile_parse_shape(a->thread_tile, &r->thread_m, &r->thread_n))
        return errmsg_set(msg, n,
                          "invalid --thread-tile '%s': expected TMxTN, e.g. 8x8 (each 1 to 1024)",
                          a->thread_tile);
    if (a->n_gemm && !a->seen_tile && !a->mma)
        return errmsg_set(msg, n, "--gemm needs --tile T");
    if (a->seen_tile && !read_tile(a, r, msg, n))
        return false;
    if (!a->n_gemm && (a->seen_tile || a->seen_elem))
        return errmsg_set(msg, n, "--tile and --elem go with --gemm");
    return true;
}

static bool check_outputs(const roof_calc_in *a, const roof_calc *r, char *msg, size_t n)
{
    if (!r->have_ceilings && (a->n_ai || a->seen_flops || a->plot))
        return errmsg_set(msg, n, "give the ceilings: --peak F --bw B, or --gpu ID");
    if (!r->have_ceilings && !a->n_gemm)
        return errmsg_set(msg, n,
                          "nothing to do: give --peak F --bw B or --gpu ID "
                          "(see 'gpulint roofline --help')");
    if (a->plot_error)
        return errmsg_set(msg, n, "%s", a->plot_error);
    return true;
}

static bool read_ais(const roof_calc_in *a, roof_calc *r, char *msg, size_t n)
{
    if (a->n_ai > ROOF_CALC_LIST_MAX)
        return errmsg_set(msg, n, "at most %d --ai values", ROOF_CALC_LIST_MAX);
    for (int i = 0; i < a->n_ai; i++)
        if (!units_parse_si(a->ai[i], &r->ais[i]))
            return errmsg_set(msg, n,
                              "invalid value '%s' for --ai: expected a non-negative number "
                              "(FLOP per byte)",
                              a->ai[i]);
    return true;
}

/* --gemm M,N,K: the sizes for --mma, or the tiled GEMM's counts. */
static bool read_gemm(const roof_calc_in *a, roof_calc *r, char *msg, size_t n)
{
    if (!a->n_gemm)
        return true;
    double d[3];
    for (int i = 0; i < 3; i++) {
        int v;
        if (!units_parse_int(a->gemm[i], &v) || v < 1)
            return errmsg_set(msg, n, "invalid --gemm size '%s': expected a positive integer",
                              a->gemm[i]);
        d[i] = v;
    }
    if (a->mma) {
        for (int i = 0; i < 3; i++)
            r->mma_dims[i] = (int64_t)d[i];
        return true;
    }
    if (r->tile_m < 1 || r->tile_n < 1 || a->elem < 1)
        return errmsg_set(msg, n, "--tile and --elem must be at least 1");
    if (!roofline_gemm_rect(d[0], d[1], d[2], r->tile_m, r->tile_n, a->elem, &r->gemm))
        return errmsg_set(msg, n, "invalid GEMM sizes");
    r->has_gemm = true;
    return true;
}

/* --mix is a calculator of its own. */
static roof_calc_status check_mix(const roof_calc_in *a, roof_calc *r, char *msg, size_t n)
{
    if (a->gpu || a->seen_peak || a->seen_bw || a->n_ai || a->seen_flops || a->n_gemm || a->plot)
        return errmsg_set(msg, n,
                          "--mix is a calculator of its own: give it without the "
                          "roofline's options"),
               ROOF_CALC_USAGE;
    if (a->seen_target && !(a->target_speedup > 0))
        return errmsg_set(msg, n, "--target-speedup must be positive"), ROOF_CALC_USAGE;
    r->is_mix = true;
    return mix_calc_run(a->mix, a->n_mix, a->seen_target ? a->target_speedup : 0, &r->mix, msg, n)
               ? ROOF_CALC_OK
               : ROOF_CALC_USAGE;
}

roof_calc_status roof_calc_check(const roof_calc_in *a, roof_calc *r, char *msg, size_t n)
{
    memset(r, 0, sizeof *r);
    if (a->n_mix)
        return check_mix(a, r, msg, n);
    if (a->seen_target)
        return errmsg_set(msg, n, "--target-speedup goes with --mix"), ROOF_CALC_USAGE;
    r->have_ceilings = a->gpu || a->seen_peak;
    bool ok = check_clock_source(a, r, msg, n) && check_ceiling_options(a, msg, n) &&
              check_gemm_options(a, r, msg, n) && check_outputs(a, r, msg, n) &&
              read_ais(a, r, msg, n) && read_gemm(a, r, msg, n);
    return ok ? ROOF_CALC_OK : ROOF_CALC_USAGE;
}

/* A ceiling per precision asked for (fp32 when none), the first judging. */
static roof_calc_status product_ceilings(const roof_calc_in *a, roof_calc *r, char *msg, size_t n)
{
    static const char *const fp32[] = {"fp32"};
    const char *const *names = a->n_precisions ? a->precisions : fp32;
    int count = a->n_precisions ? a->n_precisions : 1;
    for (int i = 0; i < count; i++) {
        model_precision p;
        if (!model_precision_from_name(names[i], &p))
            return errmsg_set(msg, n,
                              "unknown precision '%s' (use fp64, fp32, fp16, bf16, fp64-tensor, "
                              "tf32-tensor, fp16-tensor, bf16-tensor, fp8-tensor or int8-tensor)",
                              names[i]),
                   ROOF_CALC_USAGE;
        bool dup = false;
        for (int j = 0; j < r->nc; j++)
            dup |= r->cs[j].prec == p;
        if (dup)
            continue;
        const char *why = "";
        r->cs[r->nc].prec = p;
        if (!roofline_ceilings(r->prod, p, r->clock, r->prefer, &r->cs[r->nc].c, &why))
            return errmsg_set(msg, n, "%s, %s: %s", r->prod->id, model_precision_name(p), why),
                   ROOF_CALC_MODEL;
        r->nc++;
    }
    r->peak = r->cs[0].c.flops.used;
    r->bw = r->cs[0].c.bandwidth.used;
    return ROOF_CALC_OK;
}

/* --gemm --mma: the Tensor Core GEMM as fragments. */
static roof_calc_status run_mma(const roof_calc_in *a, roof_calc *r, char *msg, size_t n)
{
    int in = a->seen_elem ? a->elem : 2, out = in;
    const char *pn = NULL;
    char what[256];
    if (r->prod) {
        pn = model_precision_name(r->cs[0].prec);
        if (!mma_calc_elems(pn, &in, &out))
            return errmsg_set(msg, n,
                              "--mma runs on Tensor Cores: give a -tensor --precision "
                              "(fp16-tensor, bf16-tensor, tf32-tensor, fp8-tensor, "
                              "int8-tensor, fp64-tensor), not %s",
                              pn),
                   ROOF_CALC_USAGE;
        if (a->seen_elem)
            in = out = a->elem;
        snprintf(what, sizeof what, "%s, %s", r->prod->name, pn);
    } else {
        snprintf(what, sizeof what, "--peak/--bw, %d-byte elements", in);
    }
    r->is_mma = true;
    return mma_calc_run(r->mma_dims, &r->shape, pn, in, out, r->peak, r->bw, what,
                        a->seen_measured ? a->measured : 0, &r->mma, msg, n)
               ? ROOF_CALC_OK
               : ROOF_CALC_USAGE;
}

static roof_calc_point *new_point(roof_calc *r, const char *label)
{
    roof_calc_point *p = &r->pts[r->np++];
    memset(p, 0, sizeof *p);
    snprintf(p->label, sizeof p->label, "%s", label);
    return p;
}

/* The --ai points, the --flops/--bytes kernel and the tiled GEMM. */
static void make_points(const roof_calc_in *a, roof_calc *r)
{
    if (!r->have_ceilings)
        return;
    for (int i = 0; i < a->n_ai; i++) {
        roof_calc_point *p = new_point(r, i < a->n_labels ? a->labels[i] : "");
        roofline_point(r->peak, r->bw, r->ais[i], &p->k.point);
    }
    if (a->seen_flops) {
        roof_calc_point *p = new_point(r, "kernel");
        p->has_work = roofline_kernel(r->peak, r->bw, a->flops, a->bytes, &p->k);
    }
    if (r->has_gemm) {
        char label[64];
        if (r->tile_m == r->tile_n)
            snprintf(label, sizeof label, "gemm T=%d", r->tile_m);
        else
            snprintf(label, sizeof label, "gemm T=%dx%d", r->tile_m, r->tile_n);
        roof_calc_point *p = new_point(r, label);
        p->has_work = roofline_kernel(r->peak, r->bw, r->gemm.flops, r->gemm.bytes, &p->k);
    }
}

roof_calc_status roof_calc_run(const roof_calc_in *a, roof_calc *r, const gpu_product *prod,
                               char *msg, size_t n)
{
    if (r->is_mix)
        return ROOF_CALC_OK;
    r->peak = a->peak;
    r->bw = a->bw;
    r->prod = prod;
    if (prod) {
        roof_calc_status st = product_ceilings(a, r, msg, n);
        if (st != ROOF_CALC_OK)
            return st;
    }
    if (a->mma)
        return run_mma(a, r, msg, n);
    if (a->thread_tile) {
        char why[160];
        if (!regtile_compute(r->gemm.m, r->gemm.n, r->gemm.k, r->tile, r->thread_m, r->thread_n,
                             a->elem, prod ? prod->sm_count : 0, prod ? r->cs[0].c.clock_mhz : 0,
                             &r->rt, why, sizeof why))
            return errmsg_set(msg, n, "--thread-tile: %s", why), ROOF_CALC_USAGE;
        r->has_regtile = true;
    }
    make_points(a, r);
    return ROOF_CALC_OK;
}

void roof_calc_text(sbuf *b, const roof_calc *r, bool explain)
{
    if (r->is_mix) {
        mix_calc_text(b, &r->mix, explain);
        return;
    }
    if (r->is_mma) {
        mma_calc_text(b, &r->mma, explain);
        return;
    }
    if (explain)
        explain_text(b, r);
    main_text(b, r);
}
