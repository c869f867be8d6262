/* cmd_check: `gpulint check`, the pre-commit/CI gate: the same pipeline as
 * `gpulint FILE.cu`, then thresholds and baseline regressions
 * (analysis/check/check_rules) as one gcc-style line per violation, and an exit
 * status a hook can act on. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/check/check_rules.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/run_options.h"
#include "cli/target_opts.h"
#include "run/pipeline.h"
#include "config.h"
#include "input/baseline_json.h"
#include "report/findings.h"
#include "report/kernel_report.h"
#include "util/sbuf.h"
#include "util/units.h"

typedef struct check_args {
    pipeline_opts p;
    target_opts target;
    const char *block;
    double carveout;
    bool seen_carveout;
    int max_regs;
    bool seen_max_regs;
    bool no_spills;
    int64_t max_stack;
    bool seen_max_stack;
    double min_occupancy;
    bool seen_min_occupancy;
    const char *baseline;
    const char *write_baseline;
    bool help;
} check_args;

static bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    return fclose(f) == 0 && ok;
}

/* A regular file is written beside itself and renamed over, so a failed
 * write never leaves a truncated baseline (the same file may be --baseline
 * too). Anything else (a symlink, /dev/stdout) is written in place: renaming
 * over it would replace the link or the device node. */
static int write_baseline(const report *r, const char *path)
{
    /* report_json is the envelope `gpulint FILE.cu --format json` prints, so
     * either file serves as a baseline. */
    json_t *root = report_json(r);
    cli_json_exact_counts(root);
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
    json_decref(root);
    struct stat st;
    bool ok;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        ok = write_text(path, s);
    } else {
        sbuf tmp;
        sbuf_init(&tmp);
        sbuf_addf(&tmp, "%s.tmp", path);
        ok = write_text(sbuf_str(&tmp), s) && rename(sbuf_str(&tmp), path) == 0;
        if (!ok)
            remove(sbuf_str(&tmp));
        sbuf_free(&tmp);
    }
    free(s);
    if (!ok)
        return diag_error(EXIT_INPUT, "%s: cannot write the baseline", path);
    return EXIT_OK;
}

static check_kernel view_of(const report_kernel *rk)
{
    check_kernel k = {.name = rk->ptx.name,
                      .demangled = rk->demangled,
                      .arch = rk->ptx.arch,
                      .registers = rk->ptx.registers,
                      .stack = rk->ptx.stack,
                      .cumulative_stack = rk->ptx.cumulative_stack,
                      .spill_stores = rk->ptx.spill_stores,
                      .spill_loads = rk->ptx.spill_loads};
    if (!rk->arch)
        return k;
    const kernel_eval *e = &rk->eval;
    k.has_occupancy = true;
    if (e->has_launch) {
        k.launch_given = true;
        k.block = e->launch.threads_per_block;
        k.occupancy = e->occ.occupancy;
        if (e->occ.failure != OCC_OK)
            k.launch_failure = occ_failure_reason(e->occ.failure);
    } else {
        k.block = e->best_block;
        k.occupancy = e->best.occupancy;
    }
    return k;
}

/* Archs are named in messages only when the kernels span more than one. */
static bool several_archs(const report *r)
{
    for (size_t i = 1; i < r->n_kernels; i++)
        if (strcmp(r->kernels[i].ptx.arch, r->kernels[0].ptx.arch) != 0)
            return true;
    return false;
}

typedef struct check_counts {
    size_t errors, notes, suppressed;
} check_counts;

/* Violations become findings, so they print like every other gpulint
 * diagnostic and `// gpulint: ignore gpulint-max-regs` on (or above) a
 * kernel's definition exempts it. Counts what is left and what the
 * comments dropped. */
static check_counts print_violations(const report *r, const check_result *res, const check_args *a)
{
    finding_list l;
    findings_init(&l);
    for (size_t i = 0; i < res->n; i++) {
        const check_violation *v = &res->v[i];
        const report_kernel *k = &r->kernels[v->kernel];
        /* The kernel's definition when the source is known; otherwise the
         * log line that names it, which is where the numbers came from. No
         * column: the line is what a hook's reader needs. */
        const char *file = k->file;
        int line = k->line;
        if (!file) {
            file = strcmp(a->p.ptxas_log, "-") ? a->p.ptxas_log : "<stdin>";
            line = k->ptx.line;
        }
        findings_add(&l, check_rule_id(v->kind), v->is_error ? SEV_ERROR : SEV_NOTE, file, line, 0,
                     NULL, "%s", v->message);
    }
    check_counts c = {0, 0, findings_filter(&l, NULL, &r->ignores)};
    for (size_t i = 0; i < l.n; i++) {
        if (l.items[i].severity == SEV_ERROR)
            c.errors++;
        else
            c.notes++;
    }
    sbuf out;
    sbuf_init(&out);
    findings_text(&out, &l, diag_use_color(stdout));
    fputs(sbuf_str(&out), stdout);
    fflush(stdout);
    sbuf_free(&out);
    findings_free(&l);
    return c;
}

static const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static int check_main(check_args *a)
{
    check_limits lim = CHECK_LIMITS_NONE;
    if (a->seen_max_regs)
        lim.max_regs = a->max_regs;
    lim.no_spills = a->no_spills;
    if (a->seen_max_stack)
        lim.max_stack = a->max_stack;
    if (a->seen_min_occupancy)
        lim.min_occupancy = a->min_occupancy;

    /* The baseline is read first: a broken one should fail before nvcc runs. */
    baseline base = {0};
    if (a->baseline) {
        char err[1024];
        if (!baseline_load(a->baseline, &base, err, sizeof err))
            return diag_error(EXIT_INPUT, "%s", err);
    }
    /* The libclang front end feeds only the report's source analyses; the
     * kernels' lines come from the source scan, and skipping it halves the
     * time a hook takes. */
    a->p.no_source = true;
    /* pre-commit hands over every staged .cu file, host-only ones included. */
    a->p.allow_no_kernels = true;
    report r;
    int rc = pipeline_run(&a->p, &r);
    /* Files that failed (their errors are printed) do not hide the others'
     * violations; the run still ends with the failure's code. */
    int failed = rc;
    if (rc != EXIT_OK && r.n_kernels == 0) {
        report_free(&r);
        baseline_free(&base);
        return rc;
    }
    rc = EXIT_OK;
    check_kernel *views = xcalloc(r.n_kernels ? r.n_kernels : 1, sizeof *views);
    for (size_t i = 0; i < r.n_kernels; i++)
        views[i] = view_of(&r.kernels[i]);
    check_result res;
    check_run(views, r.n_kernels, &lim, a->baseline ? &base : NULL, several_archs(&r), &res);
    check_counts c = print_violations(&r, &res, a);
    /* A baseline without the failed files' kernels would pass them later. */
    if (a->write_baseline && failed == EXIT_OK)
        rc = write_baseline(&r, a->write_baseline);
    else if (a->write_baseline)
        diag_warn("no baseline written: %zu %s failed", r.n_failed,
                  plural(r.n_failed, "file", "files"));
    fprintf(stderr, "gpulint check: %zu %s, %zu %s", r.n_kernels,
            plural(r.n_kernels, "kernel", "kernels"), c.errors,
            plural(c.errors, "violation", "violations"));
    if (c.notes)
        fprintf(stderr, ", %zu %s", c.notes, plural(c.notes, "note", "notes"));
    if (c.suppressed)
        fprintf(stderr, ", %zu suppressed by 'gpulint: ignore' comments", c.suppressed);
    if (a->write_baseline && rc == EXIT_OK && failed == EXIT_OK)
        fprintf(stderr, "; baseline written to %s", a->write_baseline);
    fputc('\n', stderr);
    if (rc == EXIT_OK && failed != EXIT_OK)
        rc = failed;
    if (rc == EXIT_OK && c.errors)
        rc = EXIT_CHECK_FAILED;
    check_result_free(&res);
    free(views);
    report_free(&r);
    baseline_free(&base);
    return rc;
}

/* --nvcc-arg ARG, repeatable. Hook runners (pre-commit) append file names
 * after the configured arguments, so nvcc flags cannot go after "--" there.
 * The shared option parser splits repeatable values on commas, which nvcc
 * flags contain (-Xcompiler -Wall,-Wextra), so these are taken out of argv
 * here, verbatim, before it runs. Returns the new argc; *nvcc gets the
 * values (malloc'd array). */
static int take_nvcc_args(int argc, char **argv, char ***nvcc, int *n_nvcc, bool *missing)
{
    *nvcc = xcalloc((size_t)argc + 1, sizeof **nvcc);
    *n_nvcc = 0;
    *missing = false;
    int out = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            while (i < argc)
                argv[out++] = argv[i++];
            break;
        }
        if (strncmp(argv[i], "--nvcc-arg=", 11) == 0) {
            (*nvcc)[(*n_nvcc)++] = argv[i] + 11;
        } else if (strcmp(argv[i], "--nvcc-arg") == 0) {
            if (i + 1 >= argc) {
                *missing = true;
                break;
            }
            (*nvcc)[(*n_nvcc)++] = argv[++i];
        } else {
            argv[out++] = argv[i];
        }
    }
    argv[out] = NULL;
    return out;
}

int cmd_check(int argc, char **argv)
{
    check_args a = {0};
    const char *unused_nvcc_arg = NULL;
    const opt_spec specs[] = {
        {"max-regs", 0, OPT_INT, &a.max_regs, &a.seen_max_regs, "N",
         "fail when a kernel uses more than N registers per thread"},
        {"no-spills", 0, OPT_FLAG, &a.no_spills, NULL, NULL,
         "fail when a kernel spills registers to local memory"},
        {"max-stack", 0, OPT_BYTES, &a.max_stack, &a.seen_max_stack, "BYTES",
         "fail when a kernel's stack (with -rdc: including callees) exceeds BYTES"},
        {"min-occupancy", 0, OPT_PERCENT, &a.min_occupancy, &a.seen_min_occupancy, "PCT",
         "fail below PCT occupancy at --block, else at the kernel's best block size"},
        {"baseline", 0, OPT_STRING, &a.baseline, NULL, "FILE",
         "fail on regressions against a report from 'gpulint FILE.cu --format json'"},
        {"write-baseline", 0, OPT_STRING, &a.write_baseline, NULL, "FILE",
         "write this run's JSON report to FILE (after comparing with --baseline)"},
        TARGET_OPTIONS(&a.target),
        {"block", 'b', OPT_STRING, &a.block, NULL, "XxYxZ",
         "block size in use for --min-occupancy and the baseline, e.g. 256 or 16x16"},
        {"dynamic-smem", 'd', OPT_BYTES, &a.p.dynamic_smem, NULL, "BYTES",
         "dynamic shared memory per launch"},
        {"carveout", 0, OPT_PERCENT, &a.carveout, &a.seen_carveout, "PCT",
         "preferred shared-memory carveout"},
        {"nvcc", 0, OPT_STRING, &a.p.nvcc, NULL, "PATH", "nvcc to run (default: $CUDA_HOME, PATH)"},
        /* Listed for --help; take_nvcc_args consumes it before parsing. */
        {"nvcc-arg", 0, OPT_STRING, &unused_nvcc_arg, NULL, "ARG",
         "pass ARG to nvcc (repeatable; for hooks, which append file names last)"},
        {"ptxas-log", 'l', OPT_STRING, &a.p.ptxas_log, NULL, "FILE",
         "check an existing nvcc/ptxas -v log ('-' = stdin) instead of compiling"},
        {"compile-commands", 'p', OPT_STRING, &a.p.compdb, NULL, "DIR",
         "build directory with compile_commands.json: its CUDA units and their flags (files "
         "given filter it)"},
        {"from", 0, OPT_STRING, &a.p.from_dir, NULL, "DIR",
         "report the objects a build made under 'gpulint wrap' (its records in DIR)"},
        PIPELINE_RUN_OPTIONS(&a.p),
        {"help", 'h', OPT_FLAG, &a.help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    char **nvcc_args;
    int n_nvcc_args;
    bool missing;
    argc = take_nvcc_args(argc, argv, &nvcc_args, &n_nvcc_args, &missing);
    if (missing) {
        free(nvcc_args);
        return diag_error(EXIT_USAGE, "option '--nvcc-arg' needs a value (ARG)");
    }
    opt_result res;
    if (!opt_parse(specs, argc, argv, &res)) {
        opt_free(&res);
        free(nvcc_args);
        return diag_error(EXIT_USAGE, "%s", res.error);
    }
    if (a.help) {
        opt_free(&res);
        free(nvcc_args);
        opt_usage("gpulint check [limits] [--baseline FILE] [options] FILE.cu... [-- nvcc-args]\n"
                  "       gpulint check [limits] --ptxas-log LOG [FILE.cu] [options]",
                  specs);
        printf("\nexit status: 0 every kernel passes; 1 a limit was crossed or a kernel regressed\n"
               "against the baseline; 2 nvcc failed; 3 usage; 4 bad input or baseline;\n"
               "5 unknown arch/GPU or broken model; 6 nvcc not found.\n");
        return EXIT_OK;
    }
    a.p.target = target_request_of(&a.target);
    a.p.files = res.positional;
    a.p.n_files = res.n_positional;
    /* --nvcc-arg values first, then the arguments after "--". */
    for (int i = 0; i < res.n_passthrough; i++)
        nvcc_args[n_nvcc_args++] = res.passthrough[i];
    a.p.extra = nvcc_args;
    a.p.n_extra = n_nvcc_args;
    a.p.carveout_percent = a.seen_carveout ? (int)(a.carveout + 0.5) : -1;
    int rc = EXIT_OK;
    if (!a.seen_max_regs && !a.no_spills && !a.seen_max_stack && !a.seen_min_occupancy &&
        !a.baseline && !a.write_baseline)
        rc = diag_error(EXIT_USAGE, "nothing to check: give --max-regs, --no-spills, --max-stack, "
                                    "--min-occupancy or --baseline");
    else if (a.block && !units_parse_dim3(a.block, a.p.block))
        rc = diag_error(EXIT_USAGE, "invalid --block '%s': expected N, XxY or XxYxZ", a.block);
    else if (a.block && (long long)a.p.block[0] * a.p.block[1] * a.p.block[2] > 0x7fffffff)
        rc = diag_error(EXIT_USAGE, "--block '%s' has too many threads", a.block);
    else if (a.p.ptxas_log && a.p.n_files > 1)
        rc = diag_error(EXIT_USAGE, "--ptxas-log takes at most one source file (for line numbers)");
    for (int i = 0; rc == EXIT_OK && i < a.p.n_files; i++)
        if (a.p.files[i][0] == '-' && a.p.files[i][1])
            rc = diag_error(EXIT_USAGE, "unknown option '%s'", a.p.files[i]);
    if (rc == EXIT_OK) {
        a.p.has_block = a.block != NULL;
        rc = check_main(&a);
    }
    opt_free(&res);
    free(nvcc_args);
    return rc;
}
