/* ncu: Nsight Compute's counters for verify's probes (see ncu.h). */
#include "verify/ncu.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/sbuf.h"
#include "util/spawn.h"

#define M_SHARED_WAVEFRONTS "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
#define M_SHARED_LOADS "smsp__inst_executed_op_shared_ld.sum"
#define M_SECTORS "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
#define M_REQUESTS "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
#define M_THREADS "smsp__thread_inst_executed_per_inst_executed.ratio"
#define M_OCCUPANCY "sm__warps_active.avg.pct_of_peak_sustained_active"
#define M_DRAM_READ "dram__bytes_read.sum"
#define M_DRAM_WRITE "dram__bytes_write.sum"
#define M_WARP_INSTS "smsp__inst_executed.sum"

const char *ncu_metrics(void)
{
    return M_SHARED_WAVEFRONTS "," M_SHARED_LOADS "," M_SECTORS "," M_REQUESTS "," M_THREADS
                               "," M_OCCUPANCY "," M_DRAM_READ "," M_DRAM_WRITE "," M_WARP_INSTS;
}

/* One CSV field: "..." with "" for a quote, or bare; returns the next
 * position (after the comma) or NULL at the end of the line. */
static const char *field(const char *p, char *out, size_t n)
{
    size_t k = 0;
    if (*p == '"') {
        p++;
        while (*p && !(*p == '"' && p[1] != '"')) {
            if (*p == '"')
                p++;
            if (k + 1 < n)
                out[k++] = *p;
            p++;
        }
        if (*p == '"')
            p++;
    } else {
        while (*p && *p != ',' && *p != '\n') {
            if (k + 1 < n)
                out[k++] = *p;
            p++;
        }
    }
    out[k] = '\0';
    return *p == ',' ? p + 1 : NULL;
}

/* "526,336" -> 526336; "n/a" -> -1. */
static double number(const char *s)
{
    char buf[64];
    size_t k = 0;
    for (; *s && k + 1 < sizeof buf; s++)
        if (*s != ',')
            buf[k++] = *s;
    buf[k] = '\0';
    char *end;
    double v = strtod(buf, &end);
    return k && !*end ? v : -1;
}

void ncu_result_free(ncu_result *r)
{
    free(r->launches);
    memset(r, 0, sizeof *r);
}

bool ncu_parse(const char *text, ncu_result *out)
{
    memset(out, 0, sizeof *out);
    int col_id = -1, col_kernel = -1, col_metric = -1, col_value = -1;
    char last_id[256] = "";
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char *row = xstrndup(line, len);
        line = nl ? nl + 1 : NULL;
        if (row[0] != '"') {
            free(row);
            continue;
        }
        char cells[20][256];
        int n = 0;
        for (const char *p = row; p && n < 20;)
            p = field(p, cells[n++], sizeof cells[0]);
        free(row);
        if (col_id < 0) { /* the header */
            for (int i = 0; i < n; i++) {
                if (strcmp(cells[i], "ID") == 0)
                    col_id = i;
                else if (strcmp(cells[i], "Kernel Name") == 0)
                    col_kernel = i;
                else if (strcmp(cells[i], "Metric Name") == 0)
                    col_metric = i;
                else if (strcmp(cells[i], "Metric Value") == 0)
                    col_value = i;
            }
            if (col_id < 0 || col_kernel < 0 || col_metric < 0 || col_value < 0)
                col_id = -1;
            continue;
        }
        if (n <= col_value || n <= col_kernel || n <= col_metric || n <= col_id)
            continue;
        if (out->n == 0 || strcmp(cells[col_id], last_id) != 0) {
            out->launches = xrealloc(out->launches, (size_t)(out->n + 1) * sizeof *out->launches);
            ncu_launch *l = &out->launches[out->n++];
            memset(l, 0, sizeof *l);
            /* "name(args)" for C++ names; extern "C" names are plain. */
            size_t k = strcspn(cells[col_kernel], "(");
            snprintf(l->kernel, sizeof l->kernel, "%.*s", (int)k, cells[col_kernel]);
            l->shared_wavefronts = l->shared_loads = l->global_sectors = l->global_requests = -1;
            l->threads_per_inst = l->achieved_occupancy_pct = -1;
            l->dram_read = l->dram_write = l->warp_insts = -1;
            snprintf(last_id, sizeof last_id, "%s", cells[col_id]);
        }
        ncu_launch *l = &out->launches[out->n - 1];
        double v = number(cells[col_value]);
        const char *m = cells[col_metric];
        if (strcmp(m, M_SHARED_WAVEFRONTS) == 0)
            l->shared_wavefronts = v;
        else if (strcmp(m, M_SHARED_LOADS) == 0)
            l->shared_loads = v;
        else if (strcmp(m, M_SECTORS) == 0)
            l->global_sectors = v;
        else if (strcmp(m, M_REQUESTS) == 0)
            l->global_requests = v;
        else if (strcmp(m, M_THREADS) == 0)
            l->threads_per_inst = v;
        else if (strcmp(m, M_OCCUPANCY) == 0)
            l->achieved_occupancy_pct = v;
        else if (strcmp(m, M_DRAM_READ) == 0)
            l->dram_read = v;
        else if (strcmp(m, M_DRAM_WRITE) == 0)
            l->dram_write = v;
        else if (strcmp(m, M_WARP_INSTS) == 0)
            l->warp_insts = v;
    }
    return out->n > 0;
}

static bool executable(const char *p)
{
    return access(p, X_OK) == 0;
}

char *ncu_find(const char *nvcc_dir)
{
    sbuf b;
    sbuf_init(&b);
    const char *path = getenv("PATH");
    if (path) {
        char *copy = xstrdup(path);
        for (char *save = NULL, *d = strtok_r(copy, ":", &save); d;
             d = strtok_r(NULL, ":", &save)) {
            sbuf_addf(&b, "%s/ncu", d);
            if (executable(sbuf_str(&b))) {
                free(copy);
                return sbuf_take(&b);
            }
            sbuf_free(&b);
        }
        free(copy);
    }
    if (nvcc_dir) {
        sbuf_addf(&b, "%s/ncu", nvcc_dir);
        if (executable(sbuf_str(&b)))
            return sbuf_take(&b);
        sbuf_free(&b);
    }
    /* The toolkit installs it beside itself, versioned. */
    DIR *d = opendir("/opt/nvidia/nsight-compute");
    char *found = NULL;
    if (d) {
        struct dirent *e;
        while (!found && (e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            sbuf_addf(&b, "/opt/nvidia/nsight-compute/%s/ncu", e->d_name);
            if (executable(sbuf_str(&b)))
                found = sbuf_take(&b);
            else
                sbuf_free(&b);
        }
        closedir(d);
    }
    return found;
}

ncu_status ncu_run(const char *ncu, const char *kernel_regex, const char *const *argv,
                   ncu_result *out, char *note, size_t notelen)
{
    memset(out, 0, sizeof *out);
    int n = 0;
    while (argv[n])
        n++;
    sbuf kn;
    sbuf_init(&kn);
    sbuf_addf(&kn, "regex:%s", kernel_regex);
    const char **full = xcalloc((size_t)n + 16, sizeof *full);
    int k = 0;
    full[k++] = ncu;
    full[k++] = "--csv";
    full[k++] = "--clock-control"; /* measure the card as it is */
    full[k++] = "none";
    full[k++] = "--metrics";
    full[k++] = ncu_metrics();
    full[k++] = "--kernel-name";
    full[k++] = sbuf_str(&kn);
    for (int i = 0; i < n; i++)
        full[k++] = argv[i];
    full[k] = NULL;
    spawn_result r;
    char err[256];
    ncu_status st = NCU_UNAVAILABLE;
    if (!spawn_run(full, NULL, &r, err, sizeof err)) {
        snprintf(note, notelen, "%s", err);
    } else {
        if (strstr(r.out, "ERR_NVGPUCTRPERM") || strstr(r.err, "ERR_NVGPUCTRPERM")) {
            st = NCU_REFUSED;
            snprintf(note, notelen,
                     "Nsight Compute is here but the driver refuses this user the performance "
                     "counters (ERR_NVGPUCTRPERM); the rows are timing-only");
        } else if (ncu_parse(r.out, out)) {
            st = NCU_USED;
        } else {
            const char *why = r.err[0] ? r.err : r.out;
            size_t len = strcspn(why, "\n");
            snprintf(note, notelen, "ncu gave no counters (exit status %d: %.*s)", r.status,
                     (int)(len > 200 ? 200 : len), why);
        }
        spawn_result_free(&r);
    }
    free(full);
    sbuf_free(&kn);
    return st;
}

const ncu_launch *ncu_find_launch(const ncu_result *r, const char *kernel, int nth)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->launches[i].kernel, kernel) == 0 && nth-- == 0)
            return &r->launches[i];
    return NULL;
}
