/* cmd_report: `gpulint FILE.cu ...` and `gpulint --ptxas-log LOG`, the main
 * job: per-kernel resources and occupancy for each target. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/run_options.h"
#include "cli/target_opts.h"
#include "run/pipeline.h"
#include "config.h"
#include "input/compdb.h"
#include "input/defines.h"
#include "input/srcscan.h"
#include "report/html_report.h"
#include "report/code_report.h"
#include "report/kernel_report.h"
#include "report/entry_report.h"
#include "report/sizes_report.h"
#include "report/source_report.h"
#include "analysis/timing/roofline.h"
#include "report/chart.h"
#include "report/roof_plot.h"
#include "util/sbuf.h"
#include "util/units.h"

typedef struct report_args {
    pipeline_opts p;
    target_opts target;
    const char *block;
    double carveout;
    bool seen_carveout;
    const char *format;
    const char *checks;
    opt_list defines;
    const char *defines_file;
    defines given; /* --defines FILE, then --define over it */
    kroof_defines defs;
    const char *run_args;
    const char *plot;
    const char *clock;
    const char *entry;
    bool help;
    bool sizes_template; /* gpulint sizes: the --defines file to fill in */
} report_args;

/* The workers' source findings, the kernels' own, then --checks and the
 * `gpulint: ignore` comments. */
static void collect_findings(report *r, const report_args *a)
{
    for (size_t i = 0; i < r->n_kernels; i++) {
        kernel_row row = report_row(&r->kernels[i]);
        kernel_report_findings(&row, 1, &r->findings);
    }
    findings_filter(&r->findings, a->checks, &r->ignores);
    findings_sort(&r->findings);
    findings_dedupe(&r->findings);
}

/* A demangled name without its parameter list, template arguments kept:
 * the three instantiations of a template must read apart. */
static void name_without_params(const char *demangled, char *out, size_t n)
{
    snprintf(out, n, "%s", demangled ? demangled : "?");
    size_t len = strlen(out);
    if (!len || out[len - 1] != ')')
        return;
    int depth = 0;
    for (size_t i = len; i-- > 0;) {
        depth += out[i] == ')' ? 1 : out[i] == '(' ? -1 : 0;
        if (depth == 0) {
            if (i > 0)
                out[i] = '\0';
            return;
        }
    }
}

/* The compiled code of each kernel, once per (kernel, arch). */
static void code_text(sbuf *out, const report *r)
{
    bool any = false;
    for (size_t i = 0; i < r->n_kernels; i++) {
        const report_kernel *k = &r->kernels[i];
        if (!k->code)
            continue;
        if (!any)
            sbuf_add(out, "\ncompiled code (static instruction mix: each instruction once, "
                          "whatever the trip counts)\n");
        any = true;
        char name[512];
        name_without_params(k->demangled, name, sizeof name);
        code_kernel_text(out, name, k->ptx.arch, k->code);
    }
}

static void print_text(const report *r, const report_args *a, const source_outputs *src,
                       const finding_list *findings)
{
    kernel_report_style style = {diag_use_color(stdout), 60};
    sbuf out;
    sbuf_init(&out);
    bool *done = xcalloc(r->n_kernels ? r->n_kernels : 1, sizeof *done);
    kernel_row *rows = xcalloc(r->n_kernels ? r->n_kernels : 1, sizeof *rows);
    for (size_t i = 0; i < r->n_kernels; i++) {
        if (done[i])
            continue;
        const report_kernel *first = &r->kernels[i];
        int n = 0;
        for (size_t j = i; j < r->n_kernels; j++) {
            const report_kernel *k = &r->kernels[j];
            bool same_file = (!k->file && !first->file) ||
                             (k->file && first->file && strcmp(k->file, first->file) == 0);
            if (!done[j] && same_file && strcmp(k->ptx.arch, first->ptx.arch) == 0) {
                rows[n++] = report_row(k);
                done[j] = true;
            }
        }
        /* Source order reads best; ptxas lists kernels in its own order. */
        for (int x = 1; x < n; x++)
            for (int y = x; y > 0 && rows[y].line < rows[y - 1].line; y--) {
                kernel_row t = rows[y];
                rows[y] = rows[y - 1];
                rows[y - 1] = t;
            }
        const char *label = first->arch ? first->arch->name : first->ptx.arch;
        for (int t = 0; t < r->n_targets; t++)
            if (first->arch == &r->targets[t].arch)
                label = r->targets[t].label;
        sbuf head;
        sbuf_init(&head);
        sbuf_addf(&head, "%s  [%s", first->file ? first->file : a->p.ptxas_log, label);
        if (r->n_targets == 1 && first->arch == &r->targets[0].arch)
            sbuf_addf(&head, ", %s", r->targets[0].origin);
        sbuf_add(&head, "]");
        if (out.len)
            sbuf_addc(&out, '\n');
        kernel_report_text(&out, sbuf_str(&head), rows, n, &style);
        sbuf_free(&head);
    }
    source_launch_text(&out, src, style.color);
    if (src->roofline_text.len) {
        sbuf_add(&out, "\nroofline (bytes the threads request; the bytes DRAM must move, every "
                       "input read once from a cold L2; the time no run can beat)\n");
        kroof_text_resolve(&out, sbuf_str(&src->roofline_text), src->roofline);
    }
    json_t *sizes = sizes_json(src->launches, src->roofline);
    sizes_text(&out, sizes);
    json_decref(sizes);
    source_branch_text(&out, src);
    code_text(&out, r);
    size_t i;
    json_t *note;
    json_array_foreach(src->notes, i, note)
    {
        sbuf_addf(&out, "%snote: %s\n", i == 0 ? "\n" : "", json_string_value(note));
    }
    if (findings->n) {
        sbuf_addc(&out, '\n');
        findings_text(&out, findings, style.color);
    }
    /* What --entry asks for, last: where the eye lands. */
    if (a->entry) {
        json_t *e = entry_json(src->launches, a->entry);
        entry_text(&out, e);
        json_decref(e);
    }
    fputs(sbuf_str(&out), stdout);
    sbuf_free(&out);
    free(rows);
    free(done);
}

static bool listed(const json_t *arr, const char *name)
{
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v)
    {
        if (!strcmp(json_string_value(v), name))
            return true;
    }
    return false;
}

/* A binding that contradicts a value the source sets (defines_conflicts in
 * the launch's JSON) is refused with both places: its own (--define, or the
 * file's line) and the source's. */
static int check_define_conflicts(const defines *d, const source_outputs *src)
{
    const char *key;
    json_t *list;
    json_object_foreach(src->launches, key, list)
    {
        size_t k, j;
        json_t *l, *c;
        json_array_foreach(list, k, l)
        {
            json_array_foreach(json_object_get(l, "define_conflicts"), j, c)
            {
                const char *name = json_string_value(json_object_get(c, "name"));
                int i = 0;
                while (i < d->n && strcmp(d->names[i], name))
                    i++;
                char given[256], set[512];
                if (i < d->n && d->lines[i])
                    snprintf(given, sizeof given, "%s:%d: %s=%lld", d->file, d->lines[i], name,
                             (long long)json_integer_value(json_object_get(c, "define")));
                else
                    snprintf(given, sizeof given, "--define %s=%lld", name,
                             (long long)json_integer_value(json_object_get(c, "define")));
                long long value = (long long)json_integer_value(json_object_get(c, "value"));
                if (json_object_get(c, "file"))
                    snprintf(set, sizeof set,
                             "%s = %lld at %s:%lld (in %s), which the launch at %s:%lld passes",
                             name, value, json_string_value(json_object_get(c, "file")),
                             (long long)json_integer_value(json_object_get(c, "line")),
                             json_string_value(json_object_get(c, "function")),
                             json_string_value(json_object_get(c, "launch_file")),
                             (long long)json_integer_value(json_object_get(c, "launch_line")));
                else
                    snprintf(set, sizeof set, "the launch at %s:%lld passes %s = %lld",
                             json_string_value(json_object_get(c, "launch_file")),
                             (long long)json_integer_value(json_object_get(c, "launch_line")), name,
                             value);
                return diag_error(EXIT_USAGE,
                                  "%s contradicts the source: %s (leave the binding out, or "
                                  "change the source)",
                                  given, set);
            }
        }
    }
    return EXIT_OK;
}

/* A name of the --defines file that no launch or kernel reads is a typo,
 * or a size the source sets itself; either way the value would be
 * ignored, so it is refused with its line (and the source's place). */
static int check_defines_read(const defines *d, const source_outputs *src)
{
    if (!d->file || !json_array_size(src->roofline))
        return EXIT_OK;
    for (int i = 0; i < d->n; i++) {
        if (!d->lines[i])
            continue; /* given again with --define */
        bool read = false;
        size_t k;
        json_t *e;
        json_array_foreach(src->roofline, k, e)
        {
            json_t *names = json_object_get(e, "names");
            read = read || listed(json_object_get(names, "reads"), d->names[i]) ||
                   listed(json_object_get(names, "reach"), d->names[i]) ||
                   listed(json_object_get(names, "params"), d->names[i]);
        }
        if (read)
            continue;
        const char *key;
        json_t *list;
        json_object_foreach(src->launches, key, list)
        {
            json_t *l;
            json_array_foreach(list, k, l)
            {
                size_t j;
                json_t *sf;
                json_array_foreach(json_object_get(l, "sizes_from"), j, sf)
                {
                    if (strcmp(json_string_value(json_object_get(sf, "name")), d->names[i]) ||
                        !json_object_get(sf, "file")) /* a device field: --define may set it */
                        continue;
                    return diag_error(
                        EXIT_USAGE,
                        "%s:%d: the source sets '%s' itself (%s = %lld at %s:%lld, in %s); a "
                        "value here would not be used",
                        d->file, d->lines[i], d->names[i], d->names[i],
                        (long long)json_integer_value(json_object_get(sf, "value")),
                        json_string_value(json_object_get(sf, "file")),
                        (long long)json_integer_value(json_object_get(sf, "line")),
                        json_string_value(json_object_get(sf, "function")));
                }
            }
        }
        return diag_error(EXIT_USAGE,
                          "%s:%d: no launch or kernel reads '%s' (gpulint sizes lists the names "
                          "that need a value)",
                          d->file, d->lines[i], d->names[i]);
    }
    return EXIT_OK;
}

/* --entry must name a function some launch is reached from; the error
 * lists those that are. */
static int check_entry(const char *entry, const source_outputs *src)
{
    json_t *names = json_array();
    const char *key;
    json_t *list;
    json_object_foreach(src->launches, key, list)
    {
        size_t i, p, k;
        json_t *l, *path, *fn;
        json_array_foreach(list, i, l)
        {
            json_array_foreach(json_object_get(l, "paths"), p, path)
            {
                json_array_foreach(json_object_get(path, "via"), k, fn)
                {
                    if (!listed(names, json_string_value(fn)))
                        json_array_append(names, fn);
                }
            }
        }
    }
    if (listed(names, entry)) {
        json_decref(names);
        return EXIT_OK;
    }
    sbuf b;
    sbuf_init(&b);
    size_t i;
    json_t *fn;
    json_array_foreach(names, i, fn)
    {
        sbuf_addf(&b, "%s%s", i ? ", " : "", json_string_value(fn));
    }
    int rc = diag_error(
        EXIT_USAGE, "--entry %s: no launch is reached from '%s' (%s%s)", entry, entry,
        json_array_size(names) ? "launches are reached from " : "no launch found", sbuf_str(&b));
    sbuf_free(&b);
    json_decref(names);
    return rc;
}

/* gpulint sizes: the names without a value, as a --defines file. */
static void print_sizes_template(const report_args *a, const source_outputs *src)
{
    json_t *sizes = sizes_json(src->launches, src->roofline);
    sbuf out;
    sbuf_init(&out);
    sizes_template(&out, sizes, (const char *const *)a->p.files, a->p.n_files);
    fputs(sbuf_str(&out), stdout);
    sbuf_free(&out);
    json_decref(sizes);
}

/* The hierarchical roofline of the launches (report/roof_plot). */
static int plot_roofline(const report *r, const source_outputs *src, const char *path)
{
    const gpu_product *p = NULL;
    for (int t = 0; t < r->n_targets && !p; t++)
        if (r->targets[t].has_product)
            p = &r->targets[t].product;
    if (!p)
        return diag_error(EXIT_USAGE, "--plot needs a product model for the ceilings (--gpu)");
    roof_plot plot;
    char err[CHART_ERR_MAX] = "";
    if (!roof_plot_build(src->roofline, p, &plot, err, sizeof err))
        return diag_error(EXIT_MODEL, "%s", err);
    int rc = EXIT_OK;
    if (plot.launches == 0)
        diag_note("--plot: no launch has FLOPs and a time to place (sizes unknown? bind them with "
                  "--define); the chart shows the ceilings only");
    if (!chart_roofline_write(&plot.chart, path, err, sizeof err))
        rc = diag_error(EXIT_INPUT, "%s: %s", path, err);
    roof_plot_free(&plot);
    return rc;
}

static void print_sarif(const finding_list *findings, const source_outputs *src)
{
    /* The launches' counts and bounds (as in --format json) in the run's
     * property bag: SARIF results are findings, the roofline is not. */
    json_t *props = NULL;
    if (src->roofline && json_array_size(src->roofline))
        props = json_pack("{s:O}", "roofline", src->roofline);
    json_t *doc = findings_sarif(findings, GPULINT_VERSION, props);
    char *s = json_dumps(doc, JSON_INDENT(2));
    puts(s);
    free(s);
    json_decref(doc);
}

static json_t *launches_for(const source_outputs *src, const report_kernel *k)
{
    json_t *all = json_object_get(src->launches, k->ptx.name);
    json_t *out = json_array();
    size_t i;
    json_t *l;
    json_array_foreach(all, i, l)
    {
        const char *arch = json_string_value(json_object_get(l, "arch"));
        if (!k->arch || !arch || strcmp(arch, k->arch->name) == 0)
            json_array_append(out, l);
    }
    return out;
}

static json_t *full_json(const report *r, const report_args *a, const source_outputs *src,
                         const finding_list *findings)
{
    json_t *root = report_json(r);
    json_t *kernels = json_object_get(root, "kernels");
    for (size_t i = 0; i < r->n_kernels; i++)
        json_object_set_new(json_array_get(kernels, i), "launches",
                            launches_for(src, &r->kernels[i]));
    json_object_set(root, "shared_accesses", src->shared_accesses);
    json_object_set(root, "global_accesses", src->global_accesses);
    json_object_set(root, "branches", src->branches);
    json_object_set(root, "notes", src->notes);
    json_object_set(root, "roofline", src->roofline);
    json_object_set_new(root, "sizes", sizes_json(src->launches, src->roofline));
    if (a->entry)
        json_object_set_new(root, "entry", entry_json(src->launches, a->entry));
    json_object_set_new(root, "findings", findings_json(findings));
    return root;
}

/* --format html: the web page with this report inside (one file). */
static int print_html(json_t *root)
{
    char *text = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(root);
    char err[512];
    bool ok = text && html_report_write(stdout, text, "report", err, sizeof err);
    free(text);
    return ok ? EXIT_OK : diag_error(EXIT_USAGE, "%s", err);
}

/* The run's report in the format asked for; rc is the run's status so far. */
static int print_report(const report_args *a, report *r, int rc)
{
    collect_findings(r, a);
    if (a->plot) {
        int prc = plot_roofline(r, &r->src, a->plot);
        if (rc == EXIT_OK)
            rc = prc;
    }
    if (a->sizes_template && strcmp(a->format, "json") == 0)
        cli_put_json(sizes_json(r->src.launches, r->src.roofline));
    else if (a->sizes_template)
        print_sizes_template(a, &r->src);
    else if (strcmp(a->format, "json") == 0)
        cli_put_json(full_json(r, a, &r->src, &r->findings));
    else if (strcmp(a->format, "html") == 0) {
        int hrc = print_html(full_json(r, a, &r->src, &r->findings));
        if (rc == EXIT_OK)
            rc = hrc;
    } else if (strcmp(a->format, "sarif") == 0)
        print_sarif(&r->findings, &r->src);
    else
        print_text(r, a, &r->src, &r->findings);
    return rc;
}

static int report_main(report_args *a, int argc, char **argv, const char *usage)
{
    const opt_spec specs[] = {
        TARGET_OPTIONS(&a->target),
        {"nvcc", 0, OPT_STRING, &a->p.nvcc, NULL, "PATH",
         "nvcc to run (default: $CUDA_HOME, PATH)"},
        {"ptxas-log", 'l', OPT_STRING, &a->p.ptxas_log, NULL, "FILE",
         "read an existing nvcc/ptxas -v log ('-' = stdin) instead of compiling"},
        {"sass", 0, OPT_STRING, &a->p.sass, NULL, "FILE",
         "SASS listing of the kernels (cuobjdump -sass, nvdisasm) instead of running cuobjdump"},
        {"block", 'b', OPT_STRING, &a->block, NULL, "XxYxZ",
         "block size in use, e.g. 256 or 16x16"},
        {"dynamic-smem", 'd', OPT_BYTES, &a->p.dynamic_smem, NULL, "BYTES",
         "dynamic shared memory per launch"},
        {"carveout", 0, OPT_PERCENT, &a->carveout, &a->seen_carveout, "PCT",
         "preferred shared-memory carveout"},
        {"format", 'f', OPT_STRING, &a->format, NULL, "text|json|sarif|html",
         "output format (html: one self-contained page for CI artifacts)"},
        {"compile-commands", 'p', OPT_STRING, &a->p.compdb, NULL, "DIR",
         "build directory with compile_commands.json: its CUDA units and their flags (files given "
         "filter it)"},
        {"no-source", 0, OPT_FLAG, &a->p.no_source, NULL, NULL,
         "skip the libclang source analysis (ptxas numbers only)"},
        {"from", 0, OPT_STRING, &a->p.from_dir, NULL, "DIR",
         "report the objects a build made under 'gpulint wrap' (its records in DIR)"},
        PIPELINE_RUN_OPTIONS(&a->p),
        {"define", 0, OPT_LIST, &a->defines, NULL, "NAME=VALUE",
         "bind a name in FLOP/byte expressions and launch configurations (repeatable), e.g. "
         "--define N=4096"},
        {"defines", 0, OPT_STRING, &a->defines_file, NULL, "FILE",
         "bind the names of FILE's NAME=VALUE lines ('gpulint sizes' writes one to fill in); "
         "--define wins"},
        {"run-args", 0, OPT_TEXT, &a->run_args, NULL, "'ARG...'",
         "the program's own arguments (argv[1], ...; '' for none): sizes main reads from its "
         "command line (atoi(argv[1]), argc) are then known"},
        {"entry", 0, OPT_STRING, &a->entry, NULL, "FUNCTION",
         "where one call of FUNCTION's GPU time goes: the launches it makes, how many, each "
         "one's predicted time, total and share"},
        {"plot", 0, OPT_STRING, &a->plot, NULL, "FILE",
         "roofline chart of the launches (.svg/.png)"},
        {"clock", 0, OPT_STRING, &a->clock, NULL, "boost|base",
         "SM clock of the predicted times (default boost; base is what Nsight Compute locks)"},
        {"checks", 0, OPT_STRING, &a->checks, NULL, "LIST",
         "enable/disable checks, e.g. -gpulint-divergence or -*,gpulint-bank-conflict"},
        {"help", 'h', OPT_FLAG, &a->help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    opt_result res;
    if (!opt_parse(specs, argc, argv, &res)) {
        opt_free(&res);
        if (strncmp(res.error, "unknown option", 14) == 0)
            return diag_error(EXIT_USAGE, "%s (options for nvcc go after '--')", res.error);
        return diag_error(EXIT_USAGE, "%s", res.error);
    }
    if (a->help) {
        opt_free(&res);
        opt_usage(usage, specs);
        return EXIT_OK;
    }
    a->p.target = target_request_of(&a->target);
    a->p.files = res.positional;
    a->p.n_files = res.n_positional;
    a->p.extra = res.passthrough;
    a->p.n_extra = res.n_passthrough;
    a->p.carveout_percent = a->seen_carveout ? (int)(a->carveout + 0.5) : -1;
    int rc = EXIT_OK;
    if (strcmp(a->format, "text") && strcmp(a->format, "json") && strcmp(a->format, "sarif") &&
        strcmp(a->format, "html"))
        rc = diag_error(EXIT_USAGE, "unknown format '%s' (use text, json, sarif or html)",
                        a->format);
    else if (a->sizes_template && strcmp(a->format, "text") && strcmp(a->format, "json"))
        rc = diag_error(EXIT_USAGE, "gpulint sizes prints text (a --defines file) or json, not %s",
                        a->format);
    else if (strcmp(a->format, "html") == 0 && !html_page_path())
        rc = diag_error(EXIT_USAGE,
                        "--format html needs gpulint's web page (gpulint.html), which this "
                        "gpulint was built without (meson -Dweb=enabled)");
    else if (a->block && !units_parse_dim3(a->block, a->p.block))
        rc = diag_error(EXIT_USAGE, "invalid --block '%s': expected N, XxY or XxYxZ", a->block);
    else if (a->p.ptxas_log && a->p.n_files > 1)
        rc = diag_error(EXIT_USAGE, "--ptxas-log takes at most one source file (for line numbers)");
    else if (a->p.sass && (a->p.ptxas_log || a->p.from_dir))
        rc = diag_error(EXIT_USAGE, "--sass needs gpulint's own compile (not --%s)",
                        a->p.ptxas_log ? "ptxas-log" : "from");
    char derr[1400];
    if (rc == EXIT_OK && a->defines_file &&
        defines_read_file(&a->given, a->defines_file, derr, sizeof derr) != EXIT_OK)
        rc = diag_error(EXIT_USAGE, "%s", derr);
    for (int i = 0; rc == EXIT_OK && i < a->defines.n; i++)
        if (defines_add_arg(&a->given, a->defines.v[i], derr, sizeof derr) != EXIT_OK)
            rc = diag_error(EXIT_USAGE, "%s", derr);
    for (int i = 0; rc == EXIT_OK && i < a->given.n; i++) {
        a->defs.names[a->defs.n] = a->given.names[i];
        a->defs.values[a->defs.n++] = a->given.values[i];
    }
    for (int i = 0; rc == EXIT_OK && i < a->p.n_files; i++)
        if (a->p.files[i][0] == '-' && a->p.files[i][1])
            rc = diag_error(EXIT_USAGE, "unknown option '%s'", a->p.files[i]);
    if (rc != EXIT_OK) {
        opt_free(&res);
        return rc;
    }
    if (a->block) {
        a->p.has_block = true;
        if ((long long)a->p.block[0] * a->p.block[1] * a->p.block[2] > 0x7fffffff) {
            opt_free(&res);
            return diag_error(EXIT_USAGE, "--block '%s' has too many threads", a->block);
        }
    }
    a->p.defines = &a->defs;
    if (a->clock && strcmp(a->clock, "boost") != 0 && strcmp(a->clock, "base") != 0) {
        opt_free(&res);
        return diag_error(EXIT_USAGE, "--clock '%s': expected boost or base", a->clock);
    }
    a->p.base_clock = a->clock && strcmp(a->clock, "base") == 0;
    if (a->run_args && !compdb_split(a->run_args, &a->p.run_args, &a->p.n_run_args)) {
        opt_free(&res);
        return diag_error(EXIT_USAGE, "invalid --run-args '%s': a quote is not closed",
                          a->run_args);
    }
    report r;
    rc = pipeline_run(&a->p, &r);
    if (rc == EXIT_OK)
        rc = check_define_conflicts(&a->given, &r.src);
    if (rc == EXIT_OK)
        rc = check_defines_read(&a->given, &r.src);
    if (rc == EXIT_OK && a->entry)
        rc = check_entry(a->entry, &r.src);
    /* With several files, those that failed do not hide the others. */
    if (rc == EXIT_OK || (r.n_kernels && rc != EXIT_USAGE))
        rc = print_report(a, &r, rc);
    report_free(&r);
    compdb_argv_free(a->p.run_args);
    opt_free(&res);
    return rc;
}

int cmd_report_as(int argc, char **argv, bool sizes_template)
{
    report_args a = {.format = "text", .sizes_template = sizes_template};
    int rc =
        report_main(&a, argc, argv,
                    sizes_template ? "gpulint sizes [options] FILE.cu... [-- nvcc-args]"
                                   : "gpulint [options] FILE.cu... [-- nvcc-args]\n       gpulint "
                                     "--ptxas-log LOG [FILE.cu] [options]");
    defines_free(&a.given);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    return cmd_report_as(argc, argv, false);
}
