/* fromdir: the report of a build that ran under `gpulint wrap`: its records'
 * ptxas logs into kernels, each tied to its source file and line. */
#include "run/fromdir.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "util/exitcode.h"
#include "input/srcscan.h"
#include "input/wraprec.h"
#include "run/project.h"
#include "run/unit.h"
#include "util/fileio.h"
#include "util/sbuf.h"

#define SOURCE_MAX (64u << 20)

static bool same_kernel(const ptxas_kernel *a, const ptxas_kernel *b)
{
    return strcmp(a->name, b->name) == 0 && strcmp(a->arch, b->arch) == 0 &&
           a->registers == b->registers && a->static_smem == b->static_smem &&
           a->stack == b->stack && a->spill_stores == b->spill_stores &&
           a->spill_loads == b->spill_loads && a->barriers == b->barriers;
}

/* One source built into two objects with the same result (a static and a
 * shared library of one target) is one row; different results stay two. */
static void drop_repeats(report *r, size_t from)
{
    size_t keep = from;
    for (size_t i = from; i < r->n_kernels; i++) {
        bool seen = false;
        for (size_t j = 0; j < from && !seen; j++)
            seen = r->kernels[j].file == r->kernels[i].file &&
                   same_kernel(&r->kernels[j].ptx, &r->kernels[i].ptx);
        if (seen) {
            free(r->kernels[i].ptx.name);
            free(r->kernels[i].demangled);
            json_decref(r->kernels[i].code);
            free(r->kernels[i].def_file);
        } else
            r->kernels[keep++] = r->kernels[i];
    }
    r->n_kernels = keep;
}

/* A record is wanted when no files were given or its source is one of them. */
static bool wanted(const wraprec *w, char *const *real_files, int n)
{
    if (n == 0)
        return true;
    for (int s = 0; s < w->n_sources; s++) {
        char *real = realpath(w->sources[s], NULL);
        for (int i = 0; real && i < n; i++)
            if (real_files[i] && strcmp(real, real_files[i]) == 0) {
                free(real);
                return true;
            }
        free(real);
    }
    return false;
}

int fromdir_run(const pipeline_opts *o, report *r)
{
    wraprec_set set;
    char err[PATH_MAX + 128];
    if (!wraprec_load_tree(o->from_dir, &set, err, sizeof err))
        return diag_error(EXIT_INPUT, "--from %s", err);
    int rc = EXIT_OK;
    for (size_t i = 0; i < set.n_bad; i++) {
        int e = diag_error(EXIT_INPUT, "%s: not a gpulint wrap record", set.bad[i]);
        if (rc == EXIT_OK)
            rc = e;
        r->n_failed++;
    }
    if (set.n == 0) {
        wraprec_set_free(&set);
        return diag_error(EXIT_INPUT,
                          "%s: no gpulint wrap records (*%s): build with 'gpulint wrap' as the "
                          "CUDA compiler launcher first",
                          o->from_dir, WRAPREC_SUFFIX);
    }
    char **real_files = xcalloc((size_t)o->n_files + 1, sizeof *real_files);
    for (int i = 0; i < o->n_files; i++)
        if (!(real_files[i] = realpath(o->files[i], NULL)))
            diag_note("%s: no such file; it filters nothing", o->files[i]);
    project *p = r->project = xcalloc(1, sizeof *r->project);
    p->files = xcalloc(set.n + 1, sizeof *p->files);
    p->args = xcalloc(set.n + 1, sizeof *p->args);
    p->n_args = xcalloc(set.n + 1, sizeof *p->n_args);
    for (size_t i = 0; i < set.n; i++) {
        const wraprec *w = &set.recs[i];
        if (!wanted(w, real_files, o->n_files))
            continue;
        /* Several inputs to one nvcc: ptxas's log does not say which kernel
         * came from which, so the object names them. */
        const char *label = w->n_sources == 1 ? w->sources[0] : w->output;
        if (!label)
            continue;
        char *shown = project_shown_name(label);
        /* A record's source is often shared with the record before it. */
        if (p->n && strcmp(p->files[p->n - 1], shown) == 0) {
            free(shown);
        } else
            p->files[p->n++] = shown;
        const char *file = p->files[p->n - 1];
        srcscan_result scan = {0};
        char *text = NULL;
        size_t len = 0;
        if (w->n_sources == 1 && fileio_read(w->sources[0], SOURCE_MAX, &text, &len) == FILEIO_OK)
            srcscan_kernels(text, len, &scan);
        size_t before = r->n_kernels;
        unit_take_log(r, o, w->log, strlen(w->log), file, text ? &scan : NULL, true);
        drop_repeats(r, before);
        srcscan_free(&scan);
        free(text);
    }
    r->n_units = (size_t)p->n;
    for (int i = 0; i < o->n_files; i++)
        free(real_files[i]);
    free(real_files);
    if (o->n_files && p->n == 0)
        rc = diag_error(EXIT_INPUT, "%s: no record for %s%s", o->from_dir, o->files[0],
                        o->n_files > 1 ? " or the other files given" : "");
    wraprec_set_free(&set);
    return rc;
}
