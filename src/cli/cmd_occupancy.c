/* cmd_occupancy: `gpulint occupancy`, the calculator without a source file. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calc/cluster_explain.h"
#include "analysis/occupancy/occ.h"
#include "analysis/occupancy/occ_cluster.h"
#include "cli/cli.h"
#include "cli/occupancy_latency.h"
#include "cli/opt.h"
#include "cli/target_opts.h"
#include "config.h"
#include "report/cluster_report.h"
#include "report/occ_report.h"
#include "util/sbuf.h"
#include "util/units.h"
#if GPULINT_HAVE_CAIRO
#include "report/chart.h"
#endif

typedef struct occ_args {
    target_opts target;
    int threads;
    const char *block;
    int regs;
    int64_t smem;
    int64_t dynamic_smem;
    double carveout;
    int barriers;
    int64_t max_dynamic_smem;
    bool explain, help, seen_threads, seen_regs, seen_smem, seen_carveout, seen_optin;
    double latency, throughput, per_warp;
    bool seen_latency, seen_throughput, seen_per_warp;
    const char *format;
    const char *plot;
    const char *cluster, *grid, *gpc_sms;
    bool nonportable;
    /* Parsed --cluster shapes, --grid and --gpc-sms. */
    int n_clusters, cluster_dims[OCC_CLUSTER_MAX_SHAPES][3], grid_dims[3];
    int n_gpcs, gpcs[MODEL_MAX_GPCS];
} occ_args;

static int plot(const char *path, const target *t, const occ_kernel *k, const occ_launch *l)
{
#if GPULINT_HAVE_CAIRO
    char err[256] = "";
    if (!chart_occupancy(&t->arch, k, l, t->label, path, err, sizeof err))
        return diag_error(EXIT_INPUT, "%s: %s", path, err);
    return EXIT_OK;
#else
    (void)t;
    (void)k;
    (void)l;
    return diag_error(EXIT_USAGE, "%s: gpulint was built without cairo; --plot is unavailable",
                      path);
#endif
}

/* --threads or --block (its dimensions into dims), or neither with
 * Little's law. */
static int parse_shape(occ_args *a, bool little, int dims[3])
{
    if (little && (!a->seen_latency || !a->seen_throughput))
        return diag_error(EXIT_USAGE, "--latency and --throughput go together");
    if (little && (a->seen_threads || a->block || a->plot))
        return diag_error(EXIT_USAGE, "--latency takes no --threads, --block or --plot");
    if (a->block) {
        if (a->seen_threads)
            return diag_error(EXIT_USAGE, "give --threads or --block, not both");
        if (!units_parse_dim3(a->block, dims))
            return diag_error(EXIT_USAGE, "invalid --block '%s': expected N, XxY or XxYxZ",
                              a->block);
        long long t = (long long)dims[0] * dims[1] * dims[2];
        if (t > 0x7fffffff)
            return diag_error(EXIT_USAGE, "--block '%s' has too many threads", a->block);
        a->threads = (int)t;
    } else if (!little && !a->seen_threads) { /* Little's law needs no block */
        return diag_error(EXIT_USAGE, "--threads N (or --block XxY) is required");
    }
    if (!little && a->threads == 0)
        return diag_error(EXIT_USAGE, "--threads must be at least 1");
    return EXIT_OK;
}

/* --cluster "2,4,8x2", --grid and --gpc-sms "18,18,16". */
static int parse_clusters(occ_args *a)
{
    if (!a->cluster) {
        if (a->nonportable || a->grid || a->gpc_sms)
            return diag_error(EXIT_USAGE, "--non-portable, --grid and --gpc-sms go with --cluster");
        return EXIT_OK;
    }
    char why[160];
    int rc = EXIT_OK;
    if (!occ_cluster_parse_list(a->cluster, a->cluster_dims, OCC_CLUSTER_MAX_SHAPES, &a->n_clusters,
                                why, sizeof why))
        rc = diag_error(EXIT_USAGE, "--cluster: %s", why);
    if (rc == EXIT_OK && a->grid && !units_parse_dim3(a->grid, a->grid_dims))
        rc = diag_error(EXIT_USAGE, "invalid --grid '%s': expected N, XxY or XxYxZ", a->grid);
    if (rc == EXIT_OK && a->gpc_sms) {
        gpu_product p = {0};
        char msg[256];
        if (!model_parse_gpcs(a->gpc_sms, &p, msg, sizeof msg))
            return diag_error(EXIT_USAGE, "invalid --gpc-sms: %s", msg);
        a->n_gpcs = p.n_gpcs;
        memcpy(a->gpcs, p.gpc_sms, sizeof a->gpcs);
    }
    return rc;
}

/* Each --cluster shape for one target: text after the occupancy answer,
 * or a "clusters" array in its JSON object. */
static int clusters_of(const occ_args *a, const target *t, const occ_result *r, json_t *o)
{
    const int *gpcs = a->n_gpcs ? a->gpcs : t->has_product ? t->product.gpc_sms : NULL;
    int n_gpcs = a->n_gpcs ? a->n_gpcs : t->has_product ? t->product.n_gpcs : 0;
    json_t *arr = o ? json_array() : NULL;
    int rc = EXIT_OK;
    for (int i = 0; i < a->n_clusters; i++) {
        occ_cluster_launch l = {.nonportable = a->nonportable};
        memcpy(l.dims, a->cluster_dims[i], sizeof l.dims);
        if (a->grid)
            memcpy(l.grid, a->grid_dims, sizeof l.grid);
        occ_cluster_result cr;
        occ_cluster_compute(&t->arch, gpcs, n_gpcs, r, &l, &cr);
        bool refused = cr.failure != OCC_CLUSTER_OK && cr.failure != OCC_CLUSTER_NO_LAYOUT;
        if (refused)
            rc = EXIT_LAUNCH;
        if (arr) {
            json_array_append_new(arr, cluster_json(&t->arch, &l, &cr));
            continue;
        }
        sbuf b;
        sbuf_init(&b);
        cluster_block_text(&b, &t->arch, &l, &cr, a->explain);
        fputs(sbuf_str(&b), stdout);
        sbuf_free(&b);
        if (refused) {
            fflush(stdout);
            diag_error(EXIT_LAUNCH, "%s: clusters of %dx%dx%d: %s", t->arch.name, l.dims[0],
                       l.dims[1], l.dims[2], occ_cluster_failure_reason(cr.failure));
        }
    }
    if (arr)
        json_object_set_new(o, "clusters", arr);
    return rc;
}

/* One target's answer in the format asked for; returns the worst exit code
 * so far. */
static int one_target(const occ_args *a, const target *t, const occ_kernel *k, const occ_launch *l,
                      const int dims[3], const char *not_given, json_t *all, int worst)
{
    occ_result r;
    bool ok = occ_compute(&t->arch, k, l, &r);
    for (int d = 0; d < 3 && a->block; d++)
        if (dims[d] > t->arch.max_block_dim[d] && t->arch.max_block_dim[d] > 0) {
            ok = false;
            if (strcmp(a->format, "text") == 0)
                worst = diag_error(EXIT_LAUNCH, "%s: block dimension %c = %d exceeds the limit %d",
                                   t->arch.name, "xyz"[d], dims[d], t -> arch.max_block_dim[d]);
        }
    if (strcmp(a->format, "json") == 0) {
        json_t *o = occ_json(&t->arch, k, l, &r);
        json_t *ng = json_array();
        if (!a->seen_regs)
            json_array_append_new(ng, json_string("registers_per_thread"));
        if (!a->seen_smem)
            json_array_append_new(ng, json_string("static_smem"));
        json_object_set_new(o, "not_given", ng);
        if (a->n_clusters && clusters_of(a, t, &r, o) != EXIT_OK)
            worst = EXIT_LAUNCH;
        json_array_append_new(all, o);
    } else if (a->explain || (r.failure == OCC_OK && ok)) {
        sbuf b;
        sbuf_init(&b);
        occ_answer_text(&b, &(occ_answer){.arch = &t->arch,
                                          .label = t->label,
                                          .real_gpu = strcmp(t->origin, "--machine") != 0,
                                          .k = k,
                                          .l = l,
                                          .r = &r,
                                          .not_given = not_given,
                                          .regs_given = a->seen_regs,
                                          .explain = a->explain});
        fputs(sbuf_str(&b), stdout);
        sbuf_free(&b);
        if (a->n_clusters && clusters_of(a, t, &r, NULL) != EXIT_OK)
            worst = EXIT_LAUNCH;
    }
    if (r.failure != OCC_OK) {
        if (strcmp(a->format, "text") == 0 && !a->explain && worst != EXIT_LAUNCH) {
            int64_t total;
            char smem[64];
            if (__builtin_add_overflow(a->smem, a->dynamic_smem, &total))
                snprintf(smem, sizeof smem, "%lld + %lld", (long long)a->smem,
                         (long long)a->dynamic_smem);
            else
                snprintf(smem, sizeof smem, "%lld", (long long)total);
            diag_error(EXIT_LAUNCH,
                       "%s: cannot launch %d threads with %d registers and "
                       "%s B of shared memory: %s",
                       t->arch.name, a->threads, a->regs, smem, occ_failure_reason(r.failure));
        }
        worst = EXIT_LAUNCH;
    }
    if (a->plot && r.failure == OCC_OK && worst == EXIT_OK)
        worst = plot(a->plot, t, k, l);
    return worst;
}

int cmd_occupancy(int argc, char **argv)
{
    occ_args a = {.format = "text"};
    const opt_spec specs[] = {
        TARGET_OPTIONS(&a.target),
        {"threads", 't', OPT_INT, &a.threads, &a.seen_threads, "N", "threads per block"},
        {"block", 'b', OPT_STRING, &a.block, NULL, "XxYxZ", "block shape, e.g. 16x16"},
        {"regs", 'r', OPT_INT, &a.regs, &a.seen_regs, "N", "registers per thread"},
        {"smem", 's', OPT_BYTES, &a.smem, &a.seen_smem, "BYTES", "static shared memory per block"},
        {"dynamic-smem", 'd', OPT_BYTES, &a.dynamic_smem, NULL, "BYTES",
         "dynamic shared memory per launch"},
        {"carveout", 0, OPT_PERCENT, &a.carveout, &a.seen_carveout, "PCT",
         "cudaFuncAttributePreferredSharedMemoryCarveout (default: driver's choice)"},
        {"barriers", 0, OPT_INT, &a.barriers, NULL, "N", "named barriers per block (ptxas)"},
        {"max-dynamic-smem", 0, OPT_BYTES, &a.max_dynamic_smem, &a.seen_optin, "BYTES",
         "cudaFuncAttributeMaxDynamicSharedMemorySize (opt-in above 48 KiB)"},
        {"latency", 0, OPT_SI, &a.latency, &a.seen_latency, "CYCLES",
         "Little's law: the latency to hide (with --throughput)"},
        {"throughput", 0, OPT_SI, &a.throughput, &a.seen_throughput, "N",
         "operations completed per cycle (warp instructions unless --per-warp)"},
        {"per-warp", 0, OPT_SI, &a.per_warp, &a.seen_per_warp, "N",
         "operations one warp instruction carries (default 1; 32 for thread operations)"},
        {"cluster", 0, OPT_STRING, &a.cluster, NULL, "SHAPES",
         "thread-block clusters, e.g. 2 or 4x2 or 1,2,4,8: how many are resident at once"},
        {"non-portable", 0, OPT_FLAG, &a.nonportable, NULL, NULL,
         "cudaFuncAttributeNonPortableClusterSizeAllowed is set"},
        {"grid", 0, OPT_STRING, &a.grid, NULL, "XxYxZ",
         "the grid in blocks (checked to be whole clusters)"},
        {"gpc-sms", 0, OPT_STRING, &a.gpc_sms, NULL, "LIST",
         "SMs of each GPC, e.g. 18,18,16 (default: the --gpu model's)"},
        {"explain", 'e', OPT_FLAG, &a.explain, NULL, NULL, "show the worked derivation"},
        {"format", 'f', OPT_STRING, &a.format, NULL, "text|json", "output format"},
        {"plot", 'p', OPT_STRING, &a.plot, NULL, "FILE", "occupancy curves as .svg or .png"},
        {"help", 'h', OPT_FLAG, &a.help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    int done =
        opt_parse_command("occupancy", specs, argc, argv,
                          "gpulint occupancy --threads N [--regs N] [--smem B] [--dynamic-smem B] "
                          "[--cluster SHAPES [--non-portable] [--grid G] [--gpc-sms LIST]] "
                          "[--arch A|--gpu G|--machine M] [--explain] [--format text|json]\n"
                          "       gpulint occupancy --latency CYCLES --throughput N [--per-warp N] "
                          "[--arch A]",
                          &a.help, &a.format);
    if (done >= 0)
        return done;
    bool little = a.seen_latency || a.seen_throughput || a.seen_per_warp;
    int dims[3] = {1, 1, 1};
    int rc = parse_shape(&a, little, dims);
    if (rc == EXIT_OK && little && a.cluster)
        rc = diag_error(EXIT_USAGE, "--latency takes no --cluster");
    if (rc == EXIT_OK)
        rc = parse_clusters(&a);
    if (rc != EXIT_OK)
        return rc;
    /* A textbook question that states only threads and blocks means the
     * per-thread resources do not limit: they are taken as 0 and said so. */
    const char *not_given = !a.seen_regs && !a.seen_smem
                                ? "registers per thread (--regs) and static shared memory (--smem)"
                            : !a.seen_regs ? "registers per thread (--regs)"
                            : !a.seen_smem ? "static shared memory (--smem)"
                                           : NULL;

    model_db db;
    target targets[TARGET_MAX];
    int n_targets = 0;
    target_request req = target_request_of(&a.target);
    rc = target_resolve(&req, &db, targets, TARGET_MAX, &n_targets);
    if (rc != EXIT_OK)
        return rc;
    if (little) {
        rc = occupancy_latency(a.latency, a.throughput, a.seen_per_warp ? a.per_warp : 1.0, targets,
                               n_targets, a.explain, strcmp(a.format, "json") == 0);
        model_db_free(&db);
        return rc;
    }
    occ_kernel k = {.regs_per_thread = a.regs, .static_smem = a.smem, .barriers = a.barriers};
    occ_launch l = {.threads_per_block = a.threads,
                    .dynamic_smem = a.dynamic_smem,
                    .carveout_percent = a.seen_carveout ? (int)(a.carveout + 0.5) : -1,
                    .smem_optin = a.seen_optin,
                    .max_dynamic_smem = a.max_dynamic_smem};
    json_t *all = json_array();
    int worst = EXIT_OK;
    for (int i = 0; i < n_targets; i++) {
        worst = one_target(&a, &targets[i], &k, &l, dims, not_given, all, worst);
        if (i + 1 < n_targets && strcmp(a.format, "text") == 0)
            putchar('\n');
    }
    if (strcmp(a.format, "json") == 0) {
        json_t *out =
            json_array_size(all) == 1 ? json_incref(json_array_get(all, 0)) : json_incref(all);
        cli_put_json(out);
    }
    json_decref(all);
    model_db_free(&db);
    return worst;
}
