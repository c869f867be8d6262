/* report: the records of a run, freed and as JSON (see report.h). */
#include "run/report.h"

#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "run/project.h"
#include "util/jsontext.h"

void report_free(report *r)
{
    for (size_t i = 0; i < r->n_kernels; i++) {
        free(r->kernels[i].ptx.name);
        free(r->kernels[i].demangled);
        free(r->kernels[i].def_file);
        json_decref(r->kernels[i].code);
    }
    free(r->kernels);
    source_outputs_free(&r->src);
    findings_free(&r->findings);
    for (size_t i = 0; i < r->n_files; i++)
        free(r->files[i].file);
    free(r->files);
    findings_ignores_free(&r->ignores);
    model_db_free(&r->db);
    if (r->project)
        project_free(r->project);
    free(r->project);
    free(r->run_opts);
    memset(r, 0, sizeof *r);
}

kernel_row report_row(const report_kernel *k)
{
    return (kernel_row){&k->ptx,   k->demangled, k->file,  k->def_file,           k->line,
                        k->column, k->arch,      &k->eval, k->declared_smem >= 0, k->declared_smem};
}

json_t *report_json(const report *r)
{
    json_t *root = json_object();
    json_object_set_new(root, "tool", json_text("gpulint"));
    json_object_set_new(root, "version", json_text(GPULINT_VERSION));
    json_t *targets = json_array();
    for (int i = 0; i < r->n_targets; i++) {
        const target *t = &r->targets[i];
        json_t *o = json_object();
        json_object_set_new(o, "arch", json_text(t->arch.name));
        json_object_set_new(o, "label", json_text(t->label));
        json_object_set_new(o, "origin", json_text(t->origin));
        json_object_set_new(o, "gpu", t->has_product ? json_text(t->product.id) : json_null());
        json_array_append_new(targets, o);
    }
    json_object_set_new(root, "targets", targets);
    json_t *kernels = json_array();
    for (size_t i = 0; i < r->n_kernels; i++) {
        kernel_row row = report_row(&r->kernels[i]);
        json_t *k = kernel_report_json(&row);
        if (r->kernels[i].code)
            json_object_set(k, "code", r->kernels[i].code);
        json_array_append_new(kernels, k);
    }
    json_object_set_new(root, "kernels", kernels);
    json_t *files = json_array();
    for (size_t i = 0; i < r->n_files; i++)
        json_array_append_new(files, json_pack("{s:o, s:s}", "file", json_text(r->files[i].file),
                                               "xxh3_128", r->files[i].hash));
    json_object_set_new(root, "sources", files);
    return root;
}
