/* models_list: tables of the bundled models. */
#include "cli/models_list.h"

#include <string.h>

#include "cli/target_opts.h"

void models_list_text(FILE *f, const model_db *db)
{
    fprintf(f, "architectures (%s/arch)\n", db->dir);
    fprintf(f, "  %-7s %-4s %-14s %11s %10s %9s %10s %13s\n", "arch", "cc", "family", "threads/SM",
            "blocks/SM", "regs/SM", "smem/SM", "smem/block*");
    for (size_t i = 0; i < db->n_archs; i++) {
        const gpu_arch *a = &db->archs[i];
        char cc[8];
        snprintf(cc, sizeof cc, "%d.%d", a->cc_major, a->cc_minor);
        fprintf(f, "  %-7s %-4s %-14s %11d %10d %9d %8lld K %11lld K\n", a->name, cc, a->family,
                a->max_threads_per_sm, a->max_blocks_per_sm, a->regs_per_sm,
                (long long)(a->smem_per_sm / 1024), (long long)(a->smem_per_block_optin / 1024));
    }
    fprintf(f, "  * with cudaFuncAttributeMaxDynamicSharedMemorySize opt-in\n");
    fprintf(f, "\nGPUs (%s/gpu; default: %s)\n", db->dir, TARGET_DEFAULT_GPU);
    fprintf(f, "  %-14s %-7s %5s %11s  %-8s %s\n", "id", "arch", "SMs", "boost MHz", "memory",
            "name");
    for (size_t i = 0; i < db->n_products; i++) {
        const gpu_product *p = &db->products[i];
        fprintf(f, "  %-14s %-7s %5d %11.0f  %-8s %s\n", p->id, p->arch, p->sm_count,
                p->boost_clock_mhz, p->mem_type, p->name);
    }
}

json_t *models_list_json(const model_db *db)
{
    json_t *o = json_object();
    json_t *archs = json_array();
    for (size_t i = 0; i < db->n_archs; i++) {
        const gpu_arch *a = &db->archs[i];
        json_t *x = json_object();
        char cc[8];
        snprintf(cc, sizeof cc, "%d.%d", a->cc_major, a->cc_minor);
        json_object_set_new(x, "arch", json_string(a->name));
        json_object_set_new(x, "compute_capability", json_string(cc));
        json_object_set_new(x, "family", json_string(a->family));
        json_object_set_new(x, "max_threads_per_sm", json_integer(a->max_threads_per_sm));
        json_object_set_new(x, "max_blocks_per_sm", json_integer(a->max_blocks_per_sm));
        json_object_set_new(x, "registers_per_sm", json_integer(a->regs_per_sm));
        json_object_set_new(x, "smem_per_sm", json_integer(a->smem_per_sm));
        json_object_set_new(x, "smem_per_block_optin", json_integer(a->smem_per_block_optin));
        json_array_append_new(archs, x);
    }
    json_object_set_new(o, "archs", archs);
    json_t *gpus = json_array();
    for (size_t i = 0; i < db->n_products; i++) {
        const gpu_product *p = &db->products[i];
        json_t *x = json_object();
        json_object_set_new(x, "id", json_string(p->id));
        json_object_set_new(x, "name", json_string(p->name));
        json_object_set_new(x, "arch", json_string(p->arch));
        json_object_set_new(x, "sm_count", json_integer(p->sm_count));
        json_object_set_new(x, "boost_clock_mhz", json_real(p->boost_clock_mhz));
        json_object_set_new(x, "memory", json_string(p->mem_type));
        json_array_append_new(gpus, x);
    }
    json_object_set_new(o, "gpus", gpus);
    json_object_set_new(o, "default_gpu", json_string(TARGET_DEFAULT_GPU));
    return o;
}
