/* cmd_roofline: the roofline calculator. Ceilings come from --peak/--bw or
 * from a product model (--gpu, --precision); points from --ai, from a
 * kernel's --flops/--bytes, or from a tiled GEMM (--gemm, exercise 13.2). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/roofline.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/roofline_mix.h"
#include "cli/roofline_mma.h"
#include "cli/roofline_regtile.h"
#include "cli/target_opts.h"
#include "config.h"
#include "model/model_load.h"
#include "report/chart.h"
#include "util/sbuf.h"
#include "util/units.h"

#define MAX_PRECISIONS PREC_COUNT
#define MAX_POINTS (OPT_LIST_MAX + 2)

typedef struct args {
    double peak, bw, flops, bytes;
    bool seen_peak, seen_bw, seen_flops, seen_bytes;
    opt_list ai, labels, precisions, gemm, mix;
    double target_speedup, measured;
    bool seen_target, seen_measured;
    const char *mma, *thread_tile;
    const char *tile_text; /* --tile T or TMxTN */
    int tile, tile_m, tile_n, elem;
    bool seen_tile, seen_elem;
    const char *gpu, *clock, *source, *models_dir, *format, *plot;
    bool explain, help;
} args;

/* One row of the report: an AI alone, or a kernel with its work. */
typedef struct point {
    char label[64];
    bool has_work;
    roof_kernel k; /* k.point is valid for every row */
} point;

typedef struct ceiling {
    model_precision prec;
    roof_ceilings c;
} ceiling;

static const char *prec_title(model_precision p, char *buf, size_t n)
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

static int parse_ai_list(const opt_list *l, double *out)
{
    for (int i = 0; i < l->n; i++) {
        if (!units_parse_si(l->v[i], &out[i]))
            return diag_error(EXIT_USAGE,
                              "invalid value '%s' for --ai: expected a non-negative number "
                              "(FLOP per byte)",
                              l->v[i]);
    }
    return EXIT_OK;
}

static int unknown_gpu(const model_db *db, const char *id)
{
    sbuf b;
    sbuf_init(&b);
    for (size_t i = 0; i < db->n_products; i++)
        sbuf_addf(&b, "%s%s", i ? ", " : "", db->products[i].id);
    int rc = diag_error(EXIT_MODEL, "unknown GPU '%s' (known: %s)", id,
                        db->n_products ? sbuf_str(&b) : "none");
    sbuf_free(&b);
    return rc;
}

static void print_value_note(const roof_value *v, const char *unit, roof_clock clock)
{
    char x[64];
    printf(" (%s", roofline_source_name(v->source));
    if (v->source != ROOF_SRC_COMPUTED && v->computed > 0)
        printf("; computed %s", roofline_fmt_si(v->computed, unit, x, sizeof x));
    else if (v->source == ROOF_SRC_COMPUTED && v->datasheet > 0)
        printf("; datasheet %s", roofline_fmt_si(v->datasheet, unit, x, sizeof x));
    if (v->disagrees)
        printf(", %.1f%% %s the datasheet: they differ by more than %.0f%%",
               fabs(v->difference) * 100, v->difference > 0 ? "above" : "below",
               ROOF_DISAGREE_TOL * 100);
    else if (clock == ROOF_CLOCK_BASE && v->datasheet > 0 && v->source == ROOF_SRC_COMPUTED &&
             strcmp(unit, "B/s") != 0)
        printf(", quoted at the boost clock");
    printf(")");
}

/* Columns sized to their widest cell, two spaces apart, no trailing
 * blanks. */
#define N_COLS 6
static void print_table(const point *pts, int n)
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
            fputs(cell[i][c], stdout);
            if (c < last) {
                int w = 0;
                for (const char *q = cell[i][c]; *q; q++)
                    w += ((unsigned char)*q & 0xc0) != 0x80;
                printf("%*s", width[c] - w + 2, "");
            }
        }
        putchar('\n');
    }
    free(cell);
}

static void print_gemm(const roof_gemm *g)
{
    char f[64], b[64], ai[32], lim[32];
    printf("Tiled GEMM %.0fx%.0fx%.0f (MxNxK), %.0fx%.0f tiles, %.0f-byte elements\n", g->m, g->n,
           g->k, g->tile_m, g->tile_n, g->elem);
    printf("FLOPs: %s (2MNK)\n", roofline_fmt_si(g->flops, "FLOP", f, sizeof f));
    if (g->tile_m == g->tile_n) {
        printf("DRAM bytes: %s (elem x (2MNK/T + MN))\n",
               roofline_fmt_si(g->bytes, "B", b, sizeof b));
        printf("AI: %s FLOP/B; for K >> T it tends to T/elem = %s FLOP/B\n",
               roofline_fmt_num(g->ai, ai, sizeof ai),
               roofline_fmt_num(g->ai_limit, lim, sizeof lim));
        return;
    }
    printf("DRAM bytes: %s (elem x (MNK/TN + MNK/TM + MN))\n",
           roofline_fmt_si(g->bytes, "B", b, sizeof b));
    printf("AI: %s FLOP/B; for K >> TM, TN it tends to 2 TM TN / (elem (TM + TN)) = %s FLOP/B\n",
           roofline_fmt_num(g->ai, ai, sizeof ai), roofline_fmt_num(g->ai_limit, lim, sizeof lim));
}

static json_t *value_json(const roof_value *v)
{
    json_t *o = json_object();
    json_object_set_new(o, "used", json_real(v->used));
    json_object_set_new(o, "source", json_string(roofline_source_name(v->source)));
    json_object_set_new(o, "computed", v->computed > 0 ? json_real(v->computed) : json_null());
    json_object_set_new(o, "datasheet", v->datasheet > 0 ? json_real(v->datasheet) : json_null());
    json_object_set_new(o, "measured", v->measured > 0 ? json_real(v->measured) : json_null());
    json_object_set_new(o, "disagrees", json_boolean(v->disagrees));
    return o;
}

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static int write_plot(const char *path, const char *title, const char *subtitle, const ceiling *cs,
                      int nc, double peak, double bw, const char *mem_label, const point *pts,
                      int np)
{
    chart_roof compute[MAX_PRECISIONS];
    char names[MAX_PRECISIONS][48];
    for (int i = 0; i < nc; i++) {
        compute[i].label = prec_title(cs[i].prec, names[i], sizeof names[i]);
        compute[i].value = cs[i].c.flops.used;
        compute[i].unit = cs[i].prec == PREC_INT8_TENSOR ? "OP/s" : "FLOP/s";
    }
    if (nc == 0) {
        compute[0].label = "peak";
        compute[0].value = peak;
        compute[0].unit = "FLOP/s";
        nc = 1;
    }
    chart_roof memory = {mem_label, bw, "B/s"};
    chart_point cp[MAX_POINTS];
    char ai_labels[MAX_POINTS][48];
    int n = 0;
    for (int i = 0; i < np; i++) {
        if (!isfinite(pts[i].k.point.ai) || pts[i].k.point.ai <= 0)
            continue;
        const char *l = pts[i].label;
        if (!l[0]) {
            snprintf(ai_labels[i], sizeof ai_labels[i], "point %d", i + 1);
            l = ai_labels[i];
        }
        cp[n++] =
            (chart_point){l, pts[i].k.point.ai, pts[i].k.point.attainable, CHART_POINT_PREDICTED};
    }
    chart_roofline c = {title, subtitle, compute, nc, &memory, 1, cp, n};
    char err[CHART_ERR_MAX] = "";
    if (!chart_roofline_write(&c, path, err, sizeof err))
        return diag_error(EXIT_INPUT, "%s", err);
    return EXIT_OK;
}

/* Everything the modes share once the options are read: the ceilings of a
 * product or the given --peak/--bw, the GEMM, and the points. */
typedef struct roof_run {
    roof_clock clock;
    roof_prefer prefer;
    bool json, have_ceilings;
    model_db db;
    bool have_db;
    gpu_product from_file; /* --gpu FILE */
    const gpu_product *prod;
    ceiling cs[MAX_PRECISIONS];
    int nc;
    double peak, bw;
    mma_shape shape;
    int64_t mma_dims[3];
    int tile_m, tile_n; /* --thread-tile */
    roof_gemm gemm;
    bool has_gemm;
    regtile rt;
    bool has_regtile;
    point pts[MAX_POINTS];
    int np;
} roof_run;

static int parse_clock_source(const args *a, roof_run *r)
{
    r->clock = ROOF_CLOCK_BOOST;
    if (a->clock && strcmp(a->clock, "base") == 0)
        r->clock = ROOF_CLOCK_BASE;
    else if (a->clock && strcmp(a->clock, "boost") != 0)
        return diag_error(EXIT_USAGE, "unknown clock '%s' (use boost or base)", a->clock);
    r->prefer = ROOF_PREFER_AUTO;
    if (a->source) {
        if (strcmp(a->source, "computed") == 0)
            r->prefer = ROOF_PREFER_COMPUTED;
        else if (strcmp(a->source, "datasheet") == 0)
            r->prefer = ROOF_PREFER_DATASHEET;
        else if (strcmp(a->source, "auto") != 0)
            return diag_error(EXIT_USAGE, "unknown source '%s' (use auto, computed or datasheet)",
                              a->source);
    }
    return EXIT_OK;
}

/* The ceilings and a kernel's work: which options go together. */
static int check_ceiling_options(const args *a)
{
    if (a->gpu && (a->seen_peak || a->seen_bw))
        return diag_error(EXIT_USAGE, "give --gpu or --peak/--bw, not both");
    if (!a->gpu && (a->precisions.n || a->clock || a->source || a->models_dir))
        return diag_error(EXIT_USAGE, "--precision, --clock, --source and --models need --gpu");
    if (a->seen_peak != a->seen_bw)
        return diag_error(EXIT_USAGE, "--peak and --bw go together");
    if (a->seen_peak && (a->peak <= 0 || a->bw <= 0))
        return diag_error(EXIT_USAGE, "--peak and --bw must be positive");
    if (a->seen_flops != a->seen_bytes)
        return diag_error(EXIT_USAGE, "--flops and --bytes go together");
    if (a->seen_flops && a->flops == 0 && a->bytes == 0)
        return diag_error(EXIT_USAGE, "--flops and --bytes cannot both be 0");
    if (a->labels.n > a->ai.n)
        return diag_error(EXIT_USAGE, "%d labels for %d --ai values", a->labels.n, a->ai.n);
    return EXIT_OK;
}

/* --gemm with --tile, --thread-tile or --mma: which options go together. */
static int check_gemm_options(args *a, roof_run *r)
{
    if (a->gemm.n && a->gemm.n != 3)
        return diag_error(EXIT_USAGE, "--gemm takes M,N,K (three sizes), got %d", a->gemm.n);
    if (a->mma && !a->gemm.n)
        return diag_error(EXIT_USAGE, "--mma goes with --gemm M,N,K");
    if (a->mma && a->seen_tile)
        return diag_error(EXIT_USAGE, "--mma and --tile are two models of the GEMM: give one");
    if (a->mma && !mmaplan_shape(a->mma, &r->shape))
        return diag_error(EXIT_USAGE, "unknown MMA shape '%s' (use %s)", a->mma,
                          mmaplan_shape_list());
    if (a->seen_measured && !a->mma)
        return diag_error(EXIT_USAGE, "--measured goes with --gemm and --mma");
    if (a->seen_measured && !(a->measured > 0))
        return diag_error(EXIT_USAGE, "--measured must be positive");
    if (a->mma && !a->gpu && !a->seen_peak)
        return diag_error(EXIT_USAGE, "--mma needs the ceilings: --gpu ID --precision P, or "
                                      "--peak F --bw B");
    if (a->mma && a->precisions.n > 1)
        return diag_error(EXIT_USAGE, "--mma takes one --precision");
    if (a->thread_tile && (!a->gemm.n || !a->seen_tile))
        return diag_error(EXIT_USAGE, "--thread-tile goes with --gemm M,N,K and --tile T");
    if (a->thread_tile && !roofline_regtile_parse(a->thread_tile, &r->tile_m, &r->tile_n))
        return diag_error(EXIT_USAGE,
                          "invalid --thread-tile '%s': expected TMxTN, e.g. 8x8 (each 1 to 1024)",
                          a->thread_tile);
    if (a->gemm.n && !a->seen_tile && !a->mma)
        return diag_error(EXIT_USAGE, "--gemm needs --tile T");
    if (a->seen_tile) {
        int d[3];
        if (!units_parse_dim3(a->tile_text, d) || d[2] != 1 || d[0] < 1 || d[1] < 1)
            return diag_error(EXIT_USAGE,
                              "invalid --tile '%s': expected T or TMxTN, e.g. 32 or 32x128",
                              a->tile_text);
        a->tile_m = d[0];
        a->tile_n = d[1] == 1 && !strchr(a->tile_text, 'x') ? d[0] : d[1];
        a->tile = a->tile_m == a->tile_n ? a->tile_m : 0;
        if (a->thread_tile && a->tile_m != a->tile_n)
            return diag_error(EXIT_USAGE, "--thread-tile takes a square --tile T");
    }
    if (!a->gemm.n && (a->seen_tile || a->seen_elem))
        return diag_error(EXIT_USAGE, "--tile and --elem go with --gemm");
    return EXIT_OK;
}

static int check_outputs(const args *a, const roof_run *r)
{
    if (!r->have_ceilings && (a->ai.n || a->seen_flops || a->plot))
        return diag_error(EXIT_USAGE, "give the ceilings: --peak F --bw B, or --gpu ID");
    if (!r->have_ceilings && !a->gemm.n)
        return diag_error(EXIT_USAGE, "nothing to do: give --peak F --bw B or --gpu ID "
                                      "(see 'gpulint roofline --help')");
    chart_format cf;
    if (a->plot && !chart_format_from_path(a->plot, &cf))
        return diag_error(EXIT_USAGE, "--plot '%s': use a file name ending in .svg or .png",
                          a->plot);
    if (a->plot && !chart_available())
        return diag_error(EXIT_USAGE, "--plot: gpulint was built without cairo, so it cannot "
                                      "draw charts");
    return EXIT_OK;
}

/* --gemm M,N,K: the sizes for --mma, or the tiled GEMM's counts. */
static int parse_gemm(const args *a, roof_run *r)
{
    if (!a->gemm.n)
        return EXIT_OK;
    double d[3];
    for (int i = 0; i < 3; i++) {
        int v;
        if (!units_parse_int(a->gemm.v[i], &v) || v < 1)
            return diag_error(EXIT_USAGE,
                              "invalid --gemm size '%s': expected a positive "
                              "integer",
                              a->gemm.v[i]);
        d[i] = v;
    }
    if (a->mma) {
        for (int i = 0; i < 3; i++)
            r->mma_dims[i] = (int64_t)d[i];
        return EXIT_OK;
    }
    if (a->tile_m < 1 || a->tile_n < 1 || a->elem < 1)
        return diag_error(EXIT_USAGE, "--tile and --elem must be at least 1");
    if (!roofline_gemm_rect(d[0], d[1], d[2], a->tile_m, a->tile_n, a->elem, &r->gemm))
        return diag_error(EXIT_USAGE, "invalid GEMM sizes");
    r->has_gemm = true;
    return EXIT_OK;
}

/* --gpu: the product (a bundled id or a file) and a ceiling per precision. */
static int load_ceilings(args *a, roof_run *r)
{
    r->peak = a->peak;
    r->bw = a->bw;
    if (!a->gpu)
        return EXIT_OK;
    int rc = target_load_db(a->models_dir, &r->db);
    if (rc != EXIT_OK)
        return rc;
    r->have_db = true;
    if (target_is_product_file(a->gpu)) {
        rc = target_product_file(&r->db, a->gpu, &r->from_file);
        if (rc != EXIT_OK)
            return rc;
        r->prod = &r->from_file;
    } else {
        r->prod = model_find_product(&r->db, a->gpu);
    }
    if (!r->prod)
        return unknown_gpu(&r->db, a->gpu);
    if (a->precisions.n == 0) {
        a->precisions.v[0] = "fp32";
        a->precisions.n = 1;
    }
    for (int i = 0; i < a->precisions.n; i++) {
        model_precision p;
        if (!model_precision_from_name(a->precisions.v[i], &p))
            return diag_error(EXIT_USAGE,
                              "unknown precision '%s' (use fp64, fp32, fp16, bf16, "
                              "fp64-tensor, tf32-tensor, fp16-tensor, bf16-tensor, "
                              "fp8-tensor or int8-tensor)",
                              a->precisions.v[i]);
        bool dup = false;
        for (int j = 0; j < r->nc; j++)
            dup |= r->cs[j].prec == p;
        if (dup)
            continue;
        const char *why = "";
        r->cs[r->nc].prec = p;
        if (!roofline_ceilings(r->prod, p, r->clock, r->prefer, &r->cs[r->nc].c, &why))
            return diag_error(EXIT_MODEL, "%s, %s: %s", r->prod->id, model_precision_name(p), why);
        r->nc++;
    }
    r->peak = r->cs[0].c.flops.used;
    r->bw = r->cs[0].c.bandwidth.used;
    return EXIT_OK;
}

/* --gemm --mma: the Tensor Core GEMM as fragments (roofline_mma.c). */
static int run_mma(const args *a, const roof_run *r)
{
    int in = a->seen_elem ? a->elem : 2, out = in;
    const char *pn = NULL;
    char what[256];
    if (r->prod) {
        pn = model_precision_name(r->cs[0].prec);
        if (!roofline_mma_elems(pn, &in, &out))
            return diag_error(EXIT_USAGE,
                              "--mma runs on Tensor Cores: give a -tensor --precision "
                              "(fp16-tensor, bf16-tensor, tf32-tensor, fp8-tensor, "
                              "int8-tensor, fp64-tensor), not %s",
                              pn);
        if (a->seen_elem)
            in = out = a->elem;
        snprintf(what, sizeof what, "%s, %s", r->prod->name, pn);
    } else
        snprintf(what, sizeof what, "--peak/--bw, %d-byte elements", in);
    return roofline_mma(r->mma_dims, &r->shape, pn, in, out, r->peak, r->bw, what,
                        a->seen_measured ? a->measured : 0, a->explain, r->json);
}

/* The --ai points, the --flops/--bytes kernel and the tiled GEMM. */
static void make_points(const args *a, const double *ais, roof_run *r)
{
    if (!r->have_ceilings)
        return;
    for (int i = 0; i < a->ai.n; i++) {
        point *p = &r->pts[r->np++];
        memset(p, 0, sizeof *p);
        if (i < a->labels.n)
            snprintf(p->label, sizeof p->label, "%s", a->labels.v[i]);
        roofline_point(r->peak, r->bw, ais[i], &p->k.point);
    }
    if (a->seen_flops) {
        point *p = &r->pts[r->np++];
        memset(p, 0, sizeof *p);
        snprintf(p->label, sizeof p->label, "kernel");
        p->has_work = roofline_kernel(r->peak, r->bw, a->flops, a->bytes, &p->k);
    }
    if (r->has_gemm) {
        point *p = &r->pts[r->np++];
        memset(p, 0, sizeof *p);
        if (a->tile_m == a->tile_n)
            snprintf(p->label, sizeof p->label, "gemm T=%d", a->tile_m);
        else
            snprintf(p->label, sizeof p->label, "gemm T=%dx%d", a->tile_m, a->tile_n);
        p->has_work = roofline_kernel(r->peak, r->bw, r->gemm.flops, r->gemm.bytes, &p->k);
    }
}

static json_t *product_json(const roof_run *r, json_t *o)
{
    const gpu_product *prod = r->prod;
    json_object_set_new(o, "gpu", json_string(prod->id));
    json_object_set_new(o, "clock", json_string(roofline_clock_name(r->clock)));
    json_object_set_new(o, "precision", json_string(model_precision_name(r->cs[0].prec)));
    json_t *arr = json_array();
    for (int i = 0; i < r->nc; i++) {
        json_t *c = json_object();
        json_object_set_new(c, "precision", json_string(model_precision_name(r->cs[i].prec)));
        json_object_set_new(c, "clock_mhz", json_real(r->cs[i].c.clock_mhz));
        json_object_set_new(c, "flops", value_json(&r->cs[i].c.flops));
        json_object_set_new(c, "ridge_ai", json_real(roofline_ridge(r->cs[i].c.flops.used, r->bw)));
        json_array_append_new(arr, c);
    }
    json_object_set_new(o, "ceilings", arr);
    json_object_set_new(o, "bandwidth", value_json(&r->cs[0].c.bandwidth));
    json_object_set_new(o, "l2_read_bandwidth",
                        prod->l2_read_bytes_per_clock > 0
                            ? json_real(prod->l2_read_bytes_per_clock * r->cs[0].c.clock_mhz * 1e6)
                            : json_null());
    return o;
}

static json_t *points_json(const roof_run *r)
{
    json_t *arr = json_array();
    for (int i = 0; i < r->np; i++) {
        const point *pt = &r->pts[i];
        json_t *p = json_object();
        if (pt->label[0])
            json_object_set_new(p, "label", json_string(pt->label));
        json_object_set_new(p, "ai", num(pt->k.point.ai));
        json_object_set_new(p, "attainable_flops", json_real(pt->k.point.attainable));
        json_object_set_new(p, "bound", json_string(roofline_bound_name(pt->k.point.bound)));
        json_object_set_new(p, "ridge_ratio", num(pt->k.point.ridge_ratio));
        if (pt->has_work) {
            json_object_set_new(p, "flops", json_real(pt->k.flops));
            json_object_set_new(p, "bytes", json_real(pt->k.bytes));
            json_object_set_new(p, "min_time_s", json_real(pt->k.min_time));
        }
        json_array_append_new(arr, p);
    }
    return arr;
}

static json_t *gemm_json(const roof_run *r)
{
    const roof_gemm *gm = &r->gemm;
    json_t *g = json_object();
    json_object_set_new(g, "m", json_real(gm->m));
    json_object_set_new(g, "n", json_real(gm->n));
    json_object_set_new(g, "k", json_real(gm->k));
    json_object_set_new(g, "tile", gm->tile_m == gm->tile_n ? json_real(gm->tile) : json_null());
    json_object_set_new(g, "tile_m", json_real(gm->tile_m));
    json_object_set_new(g, "tile_n", json_real(gm->tile_n));
    json_object_set_new(g, "elem", json_real(gm->elem));
    json_object_set_new(g, "flops", json_real(gm->flops));
    json_object_set_new(g, "bytes", json_real(gm->bytes));
    json_object_set_new(g, "ai", json_real(gm->ai));
    json_object_set_new(g, "ai_limit", json_real(gm->ai_limit));
    if (r->has_regtile)
        json_object_set_new(g, "register_tile", roofline_regtile_json(&r->rt, r->peak));
    return g;
}

static void print_json(const roof_run *r)
{
    json_t *o = json_object();
    if (r->have_ceilings) {
        json_object_set_new(o, "ridge_ai", json_real(roofline_ridge(r->peak, r->bw)));
        json_object_set_new(o, "peak_flops", json_real(r->peak));
        json_object_set_new(o, "peak_bandwidth", json_real(r->bw));
    }
    if (r->prod)
        product_json(r, o);
    if (r->have_ceilings)
        json_object_set_new(o, "points", points_json(r));
    if (r->has_gemm)
        json_object_set_new(o, "gemm", gemm_json(r));
    char *s = json_dumps(o, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
    puts(s);
    free(s);
    json_decref(o);
}

static void print_explain(const roof_run *r)
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
        roofline_regtile_explain(&r->rt, r->have_ceilings ? r->peak : 0, prod ? prod->sm_count : 0,
                                 prod ? r->cs[0].c.clock_mhz : 0, &b);
    for (int i = 0; i < r->np; i++) {
        if (r->pts[i].label[0])
            sbuf_addf(&b, "%s: ", r->pts[i].label);
        if (r->pts[i].has_work)
            roofline_explain_kernel(r->peak, r->bw, &r->pts[i].k, &b);
        else
            roofline_explain_point(r->peak, r->bw, &r->pts[i].k.point, &b);
    }
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
    putchar('\n');
}

/* The ceilings: the product's, or the given peak and bandwidth. */
static void print_ceilings(const roof_run *r)
{
    char x[64], y[64], z[32];
    const gpu_product *prod = r->prod;
    if (prod) {
        printf("GPU: %s (%s), %s clock %g MHz\n", prod->name, prod->id,
               roofline_clock_name(r->clock), r->cs[0].c.clock_mhz);
        printf("Memory bandwidth: %s", roofline_fmt_si(r->bw, "B/s", x, sizeof x));
        print_value_note(&r->cs[0].c.bandwidth, "B/s", r->clock);
        if (prod->mem_type[0])
            printf(", %s", prod->mem_type);
        putchar('\n');
        if (prod->l2_read_bytes_per_clock > 0)
            printf("L2 read bandwidth: %s (%d B per clock x %g MHz)\n",
                   roofline_fmt_si(prod->l2_read_bytes_per_clock * r->cs[0].c.clock_mhz * 1e6,
                                   "B/s", x, sizeof x),
                   prod->l2_read_bytes_per_clock, r->cs[0].c.clock_mhz);
        for (int i = 0; i < r->nc; i++) {
            const char *unit = r->cs[i].prec == PREC_INT8_TENSOR ? "OP/s" : "FLOP/s";
            printf("Compute %s: %s", model_precision_name(r->cs[i].prec),
                   roofline_fmt_si(r->cs[i].c.flops.used, unit, x, sizeof x));
            print_value_note(&r->cs[i].c.flops, unit, r->clock);
            printf(", ridge %s %s\n",
                   roofline_fmt_num(roofline_ridge(r->cs[i].c.flops.used, r->bw), z, sizeof z),
                   r->cs[i].prec == PREC_INT8_TENSOR ? "OP/B" : "FLOP/B");
        }
    } else if (r->have_ceilings) {
        printf("Roofline: peak %s, bandwidth %s\n", roofline_fmt_si(r->peak, "FLOP/s", x, sizeof x),
               roofline_fmt_si(r->bw, "B/s", y, sizeof y));
    }
    if (r->have_ceilings) {
        printf("Ridge point: %s FLOP/B",
               roofline_fmt_num(roofline_ridge(r->peak, r->bw), z, sizeof z));
        if (r->nc > 1)
            printf(" (%s judges the points)", model_precision_name(r->cs[0].prec));
        putchar('\n');
    }
}

static void print_text(const roof_run *r)
{
    char x[64], y[64];
    print_ceilings(r);
    if (r->has_gemm) {
        if (r->have_ceilings)
            putchar('\n');
        print_gemm(&r->gemm);
        if (r->has_regtile) {
            sbuf b;
            sbuf_init(&b);
            roofline_regtile_text(&r->rt, r->have_ceilings ? r->peak : 0, &b);
            fputs(sbuf_str(&b), stdout);
            sbuf_free(&b);
        }
    }
    if (r->np) {
        putchar('\n');
        print_table(r->pts, r->np);
    }
    for (int i = 0; i < r->np; i++) {
        const point *p = &r->pts[i];
        if (!p->has_work)
            continue;
        char tc[32], tm[32], t[32];
        printf("%s: %s and %s -> at least %s (compute %s, memory %s)\n", p->label,
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
        printf("%s: shared memory caps it at %s%s -> at least %s\n", r->pts[r->np - 1].label,
               roofline_fmt_si(smem, "FLOP/s", x, sizeof x),
               r->rt.smem_ceiling_banked > 0 ? " (with the tile's bank conflicts)" : "",
               roofline_fmt_time(r->gemm.flops / smem, t, sizeof t));
    }
}

static int plot(const char *path, const roof_run *r)
{
    char x[64], y[64], title[160], sub[256];
    const gpu_product *prod = r->prod;
    if (prod) {
        snprintf(title, sizeof title, "Roofline: %s", prod->name);
        snprintf(sub, sizeof sub, "Ceilings: compute %s, memory %s, %s clock",
                 roofline_source_name(r->cs[0].c.flops.source),
                 roofline_source_name(r->cs[0].c.bandwidth.source), roofline_clock_name(r->clock));
    } else {
        snprintf(title, sizeof title, "Roofline: %s peak, %s",
                 roofline_fmt_si(r->peak, "FLOP/s", x, sizeof x),
                 roofline_fmt_si(r->bw, "B/s", y, sizeof y));
        snprintf(sub, sizeof sub, "Ceilings as given");
    }
    size_t len = strlen(sub);
    if (r->np)
        snprintf(sub + len, sizeof sub - len, "; points show the attainable bound");
    const char *mem = prod && prod->mem_type[0] ? prod->mem_type : "DRAM";
    return write_plot(path, title, sub, r->cs, r->nc, r->peak, r->bw, mem, r->pts, r->np);
}

/* After the options are read: the ceilings, then one mode. */
static int run_roofline(args *a, roof_run *r)
{
    double ais[OPT_LIST_MAX];
    int rc = parse_ai_list(&a->ai, ais);
    if (rc == EXIT_OK)
        rc = parse_gemm(a, r);
    if (rc == EXIT_OK)
        rc = load_ceilings(a, r);
    if (rc != EXIT_OK)
        return rc;
    if (a->mma)
        return run_mma(a, r);
    if (a->thread_tile) {
        char why[160];
        if (!regtile_compute(r->gemm.m, r->gemm.n, r->gemm.k, a->tile, r->tile_m, r->tile_n,
                             a->elem, r->prod ? r->prod->sm_count : 0,
                             r->prod ? r->cs[0].c.clock_mhz : 0, &r->rt, why, sizeof why))
            return diag_error(EXIT_USAGE, "--thread-tile: %s", why);
        r->has_regtile = true;
    }
    make_points(a, ais, r);
    if (r->json) {
        print_json(r);
    } else {
        if (a->explain)
            print_explain(r);
        print_text(r);
    }
    return a->plot ? plot(a->plot, r) : EXIT_OK;
}

int cmd_roofline(int argc, char **argv)
{
    args a = {.format = "text", .elem = 4};
    const opt_spec specs[] = {
        {"peak", 0, OPT_SI, &a.peak, &a.seen_peak, "FLOP/s", "peak compute, e.g. 10T"},
        {"bw", 0, OPT_SI, &a.bw, &a.seen_bw, "B/s", "peak memory bandwidth, e.g. 900G"},
        {"gpu", 'g', OPT_STRING, &a.gpu, NULL, "ID",
         "take the ceilings from a product model, e.g. h100-sxm"},
        {"precision", 0, OPT_LIST, &a.precisions, NULL, "P",
         "fp32 (default), fp64, fp16, bf16, tf32-tensor, fp16-tensor, bf16-tensor, "
         "fp8-tensor, int8-tensor, fp64-tensor; a list draws every ceiling, the first "
         "judges the points"},
        {"clock", 0, OPT_STRING, &a.clock, NULL, "boost|base", "SM clock (default boost)"},
        {"source", 0, OPT_STRING, &a.source, NULL, "SRC",
         "auto (default: datasheet where given), computed or datasheet"},
        {"models", 0, OPT_STRING, &a.models_dir, NULL, "DIR", "models directory"},
        {"ai", 0, OPT_LIST, &a.ai, NULL, "LIST", "arithmetic intensities, FLOP/byte"},
        {"label", 0, OPT_LIST, &a.labels, NULL, "LIST", "names for the --ai points"},
        {"flops", 0, OPT_SI, &a.flops, &a.seen_flops, "N", "a kernel's floating-point operations"},
        {"bytes", 0, OPT_SI, &a.bytes, &a.seen_bytes, "N", "a kernel's DRAM bytes"},
        {"gemm", 0, OPT_LIST, &a.gemm, NULL, "M,N,K", "tiled GEMM sizes (with --tile)"},
        {"tile", 0, OPT_STRING, &a.tile_text, &a.seen_tile, "T|TMxTN",
         "GEMM tile of C per block: T x T, or TM x TN (rectangular or coarsened, e.g. 32x128)"},
        {"thread-tile", 0, OPT_STRING, &a.thread_tile, NULL, "TMxTN",
         "with --gemm and --tile: each thread's tile of C in registers, e.g. 8x8"},
        {"elem", 0, OPT_INT, &a.elem, &a.seen_elem, "BYTES", "GEMM element size (default 4)"},
        {"mma", 0, OPT_STRING, &a.mma, NULL, "SHAPE",
         "with --gemm: Tensor Core fragments, e.g. m16n8k16 (needs a -tensor precision)"},
        {"measured", 0, OPT_SI, &a.measured, &a.seen_measured, "FLOP/s",
         "with --mma: a measured rate, e.g. 200T: its share of the peak and the gap"},
        {"mix", 0, OPT_LIST, &a.mix, NULL, "F@R,...",
         "mixed precision: parts of the time (F) and their speed (R), e.g. 0.7@3,0.3@1"},
        {"target-speedup", 0, OPT_SI, &a.target_speedup, &a.seen_target, "S",
         "with --mix: the share of the time the fastest rate needs to reach S"},
        {"explain", 'e', OPT_FLAG, &a.explain, NULL, NULL, "show the worked steps"},
        {"format", 'f', OPT_STRING, &a.format, NULL, "text|json", "output format"},
        {"plot", 'p', OPT_STRING, &a.plot, NULL, "FILE", "draw the chart (.svg or .png)"},
        {"help", 'h', OPT_FLAG, &a.help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    int done = opt_parse_command("roofline", specs, argc, argv,
                                 "gpulint roofline (--peak F --bw B | --gpu ID [--precision P]) "
                                 "[--ai LIST] [--flops N --bytes N] [--gemm M,N,K --tile T|TMxTN "
                                 "[--thread-tile TMxTN]] [--explain] "
                                 "[--format text|json] [--plot FILE]",
                                 &a.help, &a.format);
    if (done >= 0)
        return done;
    bool json = strcmp(a.format, "json") == 0;
    if (a.mix.n) {
        if (a.gpu || a.seen_peak || a.seen_bw || a.ai.n || a.seen_flops || a.gemm.n || a.plot)
            return diag_error(EXIT_USAGE, "--mix is a calculator of its own: give it without the "
                                          "roofline's options");
        if (a.seen_target && !(a.target_speedup > 0))
            return diag_error(EXIT_USAGE, "--target-speedup must be positive");
        return roofline_mix(&a.mix, a.seen_target ? a.target_speedup : 0, a.explain, json);
    }
    if (a.seen_target)
        return diag_error(EXIT_USAGE, "--target-speedup goes with --mix");
    roof_run *r = xcalloc(1, sizeof *r);
    r->json = json;
    r->have_ceilings = a.gpu || a.seen_peak;
    int rc = parse_clock_source(&a, r);
    if (rc == EXIT_OK)
        rc = check_ceiling_options(&a);
    if (rc == EXIT_OK)
        rc = check_gemm_options(&a, r);
    if (rc == EXIT_OK)
        rc = check_outputs(&a, r);
    if (rc == EXIT_OK)
        rc = run_roofline(&a, r);
    if (r->have_db)
        model_db_free(&r->db);
    free(r);
    return rc;
}
