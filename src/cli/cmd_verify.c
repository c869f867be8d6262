/* cmd_verify: `gpulint verify`, options to verify_run and its result to the
 * report. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "report/chart.h"
#include "report/html_report.h"
#include "report/verify_report.h"
#include "verify/verify.h"

static int parse_checks(const opt_list *l, unsigned *mask)
{
    *mask = 0;
    for (int i = 0; i < l->n; i++) {
        vcheck c;
        if (!vcheck_from_name(l->v[i], &c))
            return diag_error(EXIT_USAGE,
                              "--check: unknown check '%s' (occupancy, bank, coalescing, "
                              "divergence, roofline, time)",
                              l->v[i]);
        *mask |= 1u << c;
    }
    return EXIT_OK;
}

static const char *self_path(char *buf, size_t n)
{
    ssize_t len = readlink("/proc/self/exe", buf, n - 1);
    if (len <= 0)
        return NULL;
    buf[len] = '\0';
    return buf;
}

/* --html FILE: the web page with this report inside, for a CI artifact. */
static bool write_html(const verify_result *r, const char *path, char *err, size_t n)
{
    json_t *j = vrep_json(r);
    char *text = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(j);
    FILE *f = text ? fopen(path, "w") : NULL;
    bool ok = f && html_report_write(f, text, "verify", err, n);
    if (text && !f)
        snprintf(err, n, "cannot write %s: %s", path, strerror(errno));
    if (f && fclose(f) != 0 && ok) {
        snprintf(err, n, "cannot write %s: %s", path, strerror(errno));
        ok = false;
    }
    if (f && !ok)
        remove(path); /* no half-written page left behind */
    free(text);
    return ok;
}

int cmd_verify(int argc, char **argv)
{
    verify_opts o = {.repeat = 5, .counters = VCOUNTERS_AUTO};
    opt_list checks = {0};
    const char *format = "text", *counters = "auto", *save = NULL, *plot = NULL, *json_out = NULL,
               *from = NULL, *html_out = NULL;
    int repeat = 5, jobs = 0;
    bool help = false, seen_repeat = false, seen_jobs = false;
    const opt_spec specs[] = {
        {"only", 0, OPT_STRING, &o.only, NULL, "PATTERN",
         "only kernels whose name matches PATTERN (shell wildcards: 'bank_f32*')"},
        {"check", 'c', OPT_LIST, &checks, NULL, "LIST",
         "only these checks: occupancy,bank,coalescing,divergence,roofline,time"},
        {"ladder", 0, OPT_STRING, &o.ladder, NULL, "NAME",
         "a book's optimisation ladder, step by step: reduction, transpose or gemm"},
        {"repeat", 'r', OPT_INT, &repeat, &seen_repeat, "N",
         "timed runs per kernel after a warm-up (median and spread; default 5)"},
        {"format", 'f', OPT_STRING, &format, NULL, "text|json", "output format"},
        {"json", 0, OPT_STRING, &json_out, NULL, "FILE",
         "also write the JSON report to FILE (text on the terminal, the record on disk)"},
        {"html", 0, OPT_STRING, &html_out, NULL, "FILE",
         "also write the report as one web page (the viewer with it inside)"},
        {"dry-run", 'n', OPT_FLAG, &o.dry_run, NULL, NULL,
         "build and predict, print what would run; needs no GPU"},
        {"arch", 'a', OPT_STRING, &o.arch, NULL, "ARCH",
         "the architecture a dry run without a GPU plans for (default sm_90)"},
        {"gpu", 'g', OPT_STRING, &o.gpu, NULL, "ID|FILE",
         "the product a dry run without a GPU plans for (default h100-sxm), or a product model "
         "file (a card's own measured [timing])"},
        {"predictions", 0, OPT_STRING, &o.predictions, NULL, "FILE",
         "use this report ('gpulint kernels/*.cu --arch ARCH --format json') for the source "
         "predictions (for a GPU machine without libclang)"},
        {"counters", 0, OPT_STRING, &counters, NULL, "auto|on|off",
         "Nsight Compute counters beside the timings (default auto: when present and allowed)"},
        {"calibrate", 0, OPT_FLAG, &o.calibrate, NULL, NULL,
         "also measure the time model's [timing] constants on this card (about a minute) and "
         "judge the predicted times with them beside the bundled ones"},
        {"save-model", 0, OPT_STRING, &save, NULL, "FILE",
         "write this GPU as a product model with the measured ceilings and, with --calibrate, "
         "its [timing] (use with --gpu FILE)"},
        {"plot", 'p', OPT_STRING, &plot, NULL, "FILE.svg|.png",
         "roofline chart: spec and measured ceilings, the reference kernels as points"},
        {"from", 0, OPT_STRING, &from, NULL, "FILE",
         "render a report recorded with --json (text, --plot, --save-model) without running"},
        {"kernels", 0, OPT_STRING, &o.kernels_dir, NULL, "DIR",
         "reference kernels (default: beside the models; env GPULINT_KERNELS)"},
        {"models", 0, OPT_STRING, &o.models_dir, NULL, "DIR", "models directory"},
        {"nvcc", 0, OPT_STRING, &o.nvcc, NULL, "PATH", "nvcc to build the kernels with"},
        {"jobs", 'j', OPT_INT, &jobs, &seen_jobs, "N",
         "nvcc and prediction processes at once (default: the number of cores)"},
        {"help", 'h', OPT_FLAG, &help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    int done = opt_parse_command("verify", specs, argc, argv,
                                 "gpulint verify [--check LIST] [--only PATTERN] [--ladder NAME] "
                                 "[--dry-run] [options]",
                                 &help, &format);
    if (done >= 0)
        return done;
    int rc = parse_checks(&checks, &o.checks);
    if (rc != EXIT_OK)
        return rc;
    if (seen_repeat && (repeat < 1 || repeat > 1000))
        return diag_error(EXIT_USAGE, "--repeat: between 1 and 1000, got %d", repeat);
    o.repeat = repeat;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = seen_jobs && jobs > 0 ? jobs : (cores > 0 ? (int)cores : 1);
    if (strcmp(counters, "auto") == 0)
        o.counters = VCOUNTERS_AUTO;
    else if (strcmp(counters, "on") == 0)
        o.counters = VCOUNTERS_ON;
    else if (strcmp(counters, "off") == 0)
        o.counters = VCOUNTERS_OFF;
    else
        return diag_error(EXIT_USAGE, "--counters: auto, on or off, got '%s'", counters);
    if ((o.arch || o.gpu) && !o.dry_run)
        return diag_error(EXIT_USAGE,
                          "--arch and --gpu plan a dry run; a real run uses the local GPU");
    if (o.arch && o.gpu)
        return diag_error(EXIT_USAGE, "give only one of --arch and --gpu");
    if (o.ladder && (checks.n || o.only))
        return diag_error(EXIT_USAGE, "--ladder runs its own steps; leave out --check and --only");
    if (plot) {
        chart_format cf;
        if (!chart_format_from_path(plot, &cf))
            return diag_error(EXIT_USAGE, "--plot: the file must end in .svg or .png");
        if (!chart_available())
            return diag_error(EXIT_USAGE, "--plot: gpulint was built without cairo");
    }
    if (html_out && !html_page_path())
        return diag_error(EXIT_USAGE, "--html needs gpulint's web page (gpulint.html), which this "
                                      "gpulint was built without (meson -Dweb=enabled)");
    if (save && o.dry_run)
        return diag_error(EXIT_USAGE, "--save-model needs measured ceilings: not with --dry-run");
    if (from && (o.dry_run || o.predictions || o.only || checks.n || o.ladder || o.calibrate))
        return diag_error(EXIT_USAGE, "--from renders a recorded report as it is: it takes only "
                                      "--format, --json, --html, --plot and --save-model");
    char self[PATH_MAX];
    o.self = self_path(self, sizeof self);
    if (!o.self)
        return diag_error(EXIT_INTERNAL, "cannot find this program's own path");
    o.progress = strcmp(format, "text") == 0 && isatty(STDERR_FILENO);

    verify_result r;
    if (from) {
        json_error_t je;
        json_t *j = json_load_file(from, 0, &je);
        if (!j)
            return diag_error(EXIT_INPUT, "%s:%d: %s", from, je.line, je.text);
        char why[256];
        bool ok = vrep_from_json(j, &r, why, sizeof why);
        json_decref(j);
        if (!ok)
            return diag_error(EXIT_INPUT, "%s: %s", from, why);
        rc = r.differs > r.estimates_differ ? EXIT_CHECK_FAILED : EXIT_OK;
    } else {
        rc = verify_run(&o, &r);
        if (rc != EXIT_OK && rc != EXIT_CHECK_FAILED) {
            verify_result_free(&r);
            return rc;
        }
    }
    if (strcmp(format, "json") == 0) {
        json_t *j = vrep_json(&r);
        char *s = json_dumps(j, JSON_INDENT(2));
        puts(s);
        free(s);
        json_decref(j);
    } else {
        vrep_text(stdout, &r, o.ladder != NULL);
    }
    char err[512];
    if (json_out) {
        json_t *j = vrep_json(&r);
        if (json_dump_file(j, json_out, JSON_INDENT(2)) != 0)
            rc = diag_error(EXIT_INPUT, "--json: cannot write %s", json_out);
        json_decref(j);
    }
    if (html_out && !write_html(&r, html_out, err, sizeof err))
        rc = diag_error(EXIT_INPUT, "--html: %s", err);
    if (save && !vrep_save_model(&r, o.models_dir, save, err, sizeof err))
        rc = diag_error(EXIT_INPUT, "--save-model: %s", err);
    if (plot && !vrep_plot(&r, plot, err, sizeof err))
        rc = diag_error(EXIT_INPUT, "--plot: %s", err);
    verify_result_free(&r);
    return rc;
}
