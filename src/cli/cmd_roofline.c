/* cmd_roofline: `gpulint roofline`, the roofline calculator: options read
 * here, the calculator in analysis/calc/roof_calc (ceilings from --peak/--bw or a
 * product model, points from --ai, a kernel's --flops/--bytes or a tiled
 * GEMM; --mma, --mix), then text, JSON or a chart. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calc/roof_calc.h"
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

typedef struct args {
    double peak, bw, flops, bytes;
    bool seen_peak, seen_bw, seen_flops, seen_bytes;
    opt_list ai, labels, precisions, gemm, mix;
    double target_speedup, measured;
    bool seen_target, seen_measured;
    const char *mma, *thread_tile;
    const char *tile_text; /* --tile T or TMxTN */
    int elem;
    bool seen_tile, seen_elem;
    const char *gpu, *clock, *source, *models_dir, *format, *plot;
    bool explain, help;
} args;

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

static int write_plot(const char *path, const char *title, const char *subtitle,
                      const roof_calc_ceiling *cs, int nc, double peak, double bw,
                      const char *mem_label, const roof_calc_point *pts, int np)
{
    chart_roof compute[PREC_COUNT];
    char names[PREC_COUNT][48];
    for (int i = 0; i < nc; i++) {
        compute[i].label = roof_calc_prec_title(cs[i].prec, names[i], sizeof names[i]);
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
    chart_point cp[ROOF_CALC_MAX_POINTS];
    char ai_labels[ROOF_CALC_MAX_POINTS][48];
    int n = 0;
    for (int i = 0; i < np; i++) {
        if (!isfinite(pts[i].k.point.ai) || pts[i].k.point.ai <= 0)
            continue;
        const char *l = pts[i].label;
        if (!l[0]) {
            snprintf(ai_labels[i], sizeof ai_labels[i], "point %d", i + 1);
            l = ai_labels[i];
        }
        cp[n++] = (chart_point){
            l, pts[i].k.point.ai, pts[i].k.point.attainable, CHART_POINT_PREDICTED, 0, false};
    }
    chart_roofline c = {title, subtitle, compute, nc, &memory, 1, cp, n, NULL, false};
    char err[CHART_ERR_MAX] = "";
    if (!chart_roofline_write(&c, path, err, sizeof err))
        return diag_error(EXIT_INPUT, "%s", err);
    return EXIT_OK;
}

static json_t *product_json(const roof_calc *r, json_t *o)
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

static json_t *points_json(const roof_calc *r)
{
    json_t *arr = json_array();
    for (int i = 0; i < r->np; i++) {
        const roof_calc_point *pt = &r->pts[i];
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

static json_t *gemm_json(const roof_calc *r)
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

static void print_json(const roof_calc *r)
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

static int plot(const char *path, const roof_calc *r)
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

static int calc_error(roof_calc_status st, const char *msg)
{
    return diag_error(st == ROOF_CALC_MODEL ? EXIT_MODEL : EXIT_USAGE, "%s", msg);
}

/* --gpu: a bundled product or a product file, from the models directory. */
static int find_product(const args *a, model_db *db, bool *loaded, gpu_product *from_file,
                        const gpu_product **prod)
{
    int rc = target_load_db(a->models_dir, db);
    if (rc != EXIT_OK)
        return rc;
    *loaded = true;
    if (target_is_product_file(a->gpu)) {
        rc = target_product_file(db, a->gpu, from_file);
        *prod = rc == EXIT_OK ? from_file : NULL;
        return rc;
    }
    *prod = model_find_product(db, a->gpu);
    return *prod ? EXIT_OK : unknown_gpu(db, a->gpu);
}

static void print_calc(const args *a, const roof_calc *r, bool json)
{
    if (!json) {
        sbuf b;
        sbuf_init(&b);
        roof_calc_text(&b, r, a->explain);
        fputs(sbuf_str(&b), stdout);
        sbuf_free(&b);
    } else if (r->is_mix) {
        roofline_mix_json(&r->mix);
    } else if (r->is_mma) {
        roofline_mma_json(&r->mma);
    } else {
        print_json(r);
    }
}

static int run_calc(const args *a, const roof_calc_in *in, roof_calc *r, bool json)
{
    char msg[512];
    roof_calc_status st = roof_calc_check(in, r, msg, sizeof msg);
    if (st != ROOF_CALC_OK)
        return calc_error(st, msg);
    model_db db;
    gpu_product from_file;
    const gpu_product *prod = NULL;
    bool have_db = false;
    int rc = EXIT_OK;
    if (!r->is_mix && a->gpu)
        rc = find_product(a, &db, &have_db, &from_file, &prod);
    if (rc == EXIT_OK && (st = roof_calc_run(in, r, prod, msg, sizeof msg)) != ROOF_CALC_OK)
        rc = calc_error(st, msg);
    if (rc == EXIT_OK) {
        print_calc(a, r, json);
        if (a->plot && !r->is_mix && !r->is_mma)
            rc = plot(a->plot, r);
    }
    if (have_db)
        model_db_free(&db);
    return rc;
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
    char plot_error[160] = "";
    chart_format cf;
    if (a.plot && !chart_format_from_path(a.plot, &cf))
        snprintf(plot_error, sizeof plot_error,
                 "--plot '%s': use a file name ending in .svg or .png", a.plot);
    else if (a.plot && !chart_available())
        snprintf(plot_error, sizeof plot_error,
                 "--plot: gpulint was built without cairo, so it cannot draw charts");
    roof_calc_in in = {.peak = a.peak,
                       .bw = a.bw,
                       .flops = a.flops,
                       .bytes = a.bytes,
                       .target_speedup = a.target_speedup,
                       .measured = a.measured,
                       .seen_peak = a.seen_peak,
                       .seen_bw = a.seen_bw,
                       .seen_flops = a.seen_flops,
                       .seen_bytes = a.seen_bytes,
                       .seen_target = a.seen_target,
                       .seen_measured = a.seen_measured,
                       .ai = a.ai.v,
                       .n_ai = a.ai.n,
                       .labels = a.labels.v,
                       .n_labels = a.labels.n,
                       .precisions = a.precisions.v,
                       .n_precisions = a.precisions.n,
                       .gemm = a.gemm.v,
                       .n_gemm = a.gemm.n,
                       .mix = a.mix.v,
                       .n_mix = a.mix.n,
                       .mma = a.mma,
                       .thread_tile = a.thread_tile,
                       .tile_text = a.tile_text,
                       .seen_tile = a.seen_tile,
                       .seen_elem = a.seen_elem,
                       .elem = a.elem,
                       .gpu = a.gpu,
                       .clock = a.clock,
                       .source = a.source,
                       .models_given = a.models_dir != NULL,
                       .plot = a.plot != NULL,
                       .plot_error = plot_error[0] ? plot_error : NULL};
    roof_calc *r = xcalloc(1, sizeof *r);
    int rc = run_calc(&a, &in, r, json);
    free(r);
    return rc;
}
