/* cmd_devices: `gpulint devices`, the live device query through cudart, and
 * --save to turn a device into a model file. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/roofline.h"
#include "cli/cli.h"
#include "cli/models_list.h"
#include "cli/opt.h"
#include "cli/target_opts.h"
#include "input/devquery.h"
#include "util/units.h"

#define MAX_DEVICES 16

static const gpu_arch *base_for(int major, int minor, void *ctx)
{
    return model_find_cc(ctx, major, minor);
}

static void print_ceilings(const gpu_product *p)
{
    static const model_precision precs[] = {PREC_FP64, PREC_FP32, PREC_FP16_TENSOR,
                                            PREC_BF16_TENSOR};
    char a[48], b[48];
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++) {
        roof_ceilings c;
        const char *why = NULL;
        if (!roofline_ceilings(p, precs[i], ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &c, &why) ||
            c.flops.computed <= 0)
            continue;
        printf("  peak %-12s  %s", model_precision_name(precs[i]),
               units_fmt_si(c.flops.computed, "FLOP/s", a, sizeof a));
        if (c.flops.datasheet > 0)
            printf("  (datasheet %s%s)", units_fmt_si(c.flops.datasheet, "FLOP/s", b, sizeof b),
                   c.flops.disagrees ? ", DISAGREES" : "");
        printf("\n");
    }
    roof_ceilings c;
    const char *why = NULL;
    if (roofline_ceilings(p, PREC_FP32, ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &c, &why) &&
        c.bandwidth.computed > 0)
        printf("  DRAM bandwidth     %s computed (%d x %.0f MHz x %d bit / 8)\n",
               units_fmt_si(c.bandwidth.computed, "B/s", a, sizeof a), c.mem_data_rate,
               c.mem_clock_mhz, c.mem_bus_width_bits);
}

static void print_device(const devquery_device *d, const gpu_product *twin)
{
    const gpu_arch *a = &d->arch;
    const gpu_product *p = &d->product;
    char buf[48];
    printf("device %d: %s (%s)\n", d->ordinal, p->name, d->pci_bus_id);
    printf("  compute capability %d.%d (%s), driver %s, runtime %s\n", a->cc_major, a->cc_minor,
           a->name, d->driver, d->runtime);
    printf("  SMs                %d\n", p->sm_count);
    printf("  threads            %d per block, %d per SM, warp %d\n", a->max_threads_per_block,
           a->max_threads_per_sm, a->warp_size);
    printf("  blocks per SM      %d\n", a->max_blocks_per_sm);
    printf("  block dims         %d x %d x %d; grid %d x %d x %d\n", a->max_block_dim[0],
           a->max_block_dim[1], a->max_block_dim[2], a->max_grid_dim[0], a->max_grid_dim[1],
           a->max_grid_dim[2]);
    printf("  registers          %d per SM, %d per block\n", a->regs_per_sm, a->regs_per_block);
    printf("  shared memory      %s per SM, ", units_fmt_bytes(a->smem_per_sm, buf, sizeof buf));
    printf("%s per block, ", units_fmt_bytes(a->smem_per_block, buf, sizeof buf));
    printf("%s with opt-in, ", units_fmt_bytes(a->smem_per_block_optin, buf, sizeof buf));
    printf("%s reserved per block\n", units_fmt_bytes(a->smem_reserved_per_block, buf, sizeof buf));
    printf("  allocation rules   registers in units of %d per warp over %d sub-partitions; "
           "shared memory in units of %d B (from models/arch/%s.ini)\n",
           a->reg_alloc_unit, a->sub_partitions, a->smem_alloc_unit, a->name);
    printf("  clocks             SM %.0f MHz, memory %.0f MHz\n", p->boost_clock_mhz,
           p->mem_clock_mhz);
    printf("  memory bus         %d bit, L2 %s\n", p->mem_bus_width_bits,
           units_fmt_bytes(p->l2_bytes, buf, sizeof buf));
    if (twin) {
        gpu_product merged = model_twin_at_device(twin, p);
        printf("  ceilings at the reported clocks (per-SM rates from models/gpu/%s.ini):\n",
               twin->id);
        print_ceilings(&merged);
    }
}

static int save_model(const char *path, const devquery_device *d)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return diag_error(EXIT_INPUT, "%s: cannot write", path);
    const gpu_arch *a = &d->arch;
    fprintf(f, "; %s as the CUDA runtime reported it (gpulint devices --save)\n", d->product.name);
    fprintf(f, "; driver %s, runtime %s. Limits: cudaDeviceProp. Allocation units,\n", d->driver,
            d->runtime);
    fprintf(f, "; sub-partitions, carveouts and barriers: models/arch/%s.ini.\n", a->name);
    fprintf(f, "[arch]\nname = %s\nfamily = %s\ncompute_capability = %d.%d\n\n", a->name, a->family,
            a->cc_major, a->cc_minor);
    fprintf(f, "[threads]\nwarp_size = %d\nmax_threads_per_block = %d\nmax_threads_per_sm = %d\n",
            a->warp_size, a->max_threads_per_block, a->max_threads_per_sm);
    fprintf(f, "max_blocks_per_sm = %d\nmax_block_dim = %d %d %d\nmax_grid_dim = %d %d %d\n\n",
            a->max_blocks_per_sm, a->max_block_dim[0], a->max_block_dim[1], a->max_block_dim[2],
            a->max_grid_dim[0], a->max_grid_dim[1], a->max_grid_dim[2]);
    fprintf(f, "[registers]\nper_sm = %d\nper_block = %d\nmax_per_thread = %d\nalloc_unit = %d\n",
            a->regs_per_sm, a->regs_per_block, a->max_regs_per_thread, a->reg_alloc_unit);
    fprintf(f, "sub_partitions = %d\nlaunch_check_sub_partitions = %d\n\n", a->sub_partitions,
            a->launch_check_sub_partitions);
    fprintf(f, "[shared_memory]\nper_sm = %lld\nper_block = %lld\nper_block_optin = %lld\n",
            (long long)a->smem_per_sm, (long long)a->smem_per_block,
            (long long)a->smem_per_block_optin);
    fprintf(f, "reserved_per_block = %lld\nalloc_unit = %d\ncarveouts_kb =",
            (long long)a->smem_reserved_per_block, a->smem_alloc_unit);
    for (int i = 0; i < a->n_carveouts; i++)
        fprintf(f, " %lld", (long long)(a->carveouts[i] / 1024));
    if (a->unified_l1_per_sm)
        fprintf(f, "\nunified_per_sm = %lld", (long long)a->unified_l1_per_sm);
    fprintf(f, "\n\n[barriers]\nslots_per_block = %d\nmax_per_block = %d\n",
            a->barrier_slots_per_block, a->max_barriers_per_block);
    if (fclose(f) != 0)
        return diag_error(EXIT_INPUT, "%s: write failed", path);
    fprintf(stderr, "gpulint: wrote %s (use it with --machine %s)\n", path, path);
    return EXIT_OK;
}

int cmd_devices(int argc, char **argv)
{
    const char *save = NULL, *models_dir = NULL, *format = "text";
    bool help = false;
    const opt_spec specs[] = {
        {"save", 0, OPT_STRING, &save, NULL, "FILE", "write device 0 as an arch model file"},
        {"format", 'f', OPT_STRING, &format, NULL, "text|json", "output format"},
        {"models", 0, OPT_STRING, &models_dir, NULL, "DIR", "models directory"},
        {"help", 'h', OPT_FLAG, &help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    int done =
        opt_parse_command("devices", specs, argc, argv,
                          "gpulint devices [--save FILE] [--format text|json]", &help, &format);
    if (done >= 0)
        return done;
    model_db db;
    int rc = target_load_db(models_dir, &db);
    if (rc != EXIT_OK)
        return rc;
    devquery_device devs[MAX_DEVICES];
    int n = 0;
    char msg[256];
    devquery_status st = devquery_all(devs, MAX_DEVICES, &n, base_for, &db, msg, sizeof msg);
    if (st != DEVQ_OK) {
        diag_error(EXIT_NO_DEVICE,
                   "no GPU available (%s); bundled models can be used with "
                   "--arch or --gpu:",
                   msg);
        models_list_text(stderr, &db);
        model_db_free(&db);
        return EXIT_NO_DEVICE;
    }
    if (strcmp(format, "json") == 0) {
        json_t *arr = json_array();
        for (int i = 0; i < n; i++) {
            const devquery_device *d = &devs[i];
            json_t *o = json_object();
            json_object_set_new(o, "ordinal", json_integer(d->ordinal));
            json_object_set_new(o, "name", json_string(d->product.name));
            json_object_set_new(o, "arch", json_string(d->arch.name));
            const gpu_product *twin =
                model_find_twin(&db, d->product.name, d->arch.name, d->product.sm_count);
            json_object_set_new(o, "model", twin ? json_string(twin->id) : json_null());
            json_object_set_new(o, "sm_count", json_integer(d->product.sm_count));
            json_object_set_new(o, "driver", json_string(d->driver));
            json_object_set_new(o, "runtime", json_string(d->runtime));
            json_object_set_new(o, "max_threads_per_sm", json_integer(d->arch.max_threads_per_sm));
            json_object_set_new(o, "max_blocks_per_sm", json_integer(d->arch.max_blocks_per_sm));
            json_object_set_new(o, "regs_per_sm", json_integer(d->arch.regs_per_sm));
            json_object_set_new(o, "regs_per_block", json_integer(d->arch.regs_per_block));
            json_object_set_new(o, "smem_per_sm", json_integer(d->arch.smem_per_sm));
            json_object_set_new(o, "smem_per_block", json_integer(d->arch.smem_per_block));
            json_object_set_new(o, "smem_per_block_optin",
                                json_integer(d->arch.smem_per_block_optin));
            json_object_set_new(o, "smem_reserved_per_block",
                                json_integer(d->arch.smem_reserved_per_block));
            json_object_set_new(o, "clock_mhz", json_real(d->product.boost_clock_mhz));
            json_object_set_new(o, "memory_clock_mhz", json_real(d->product.mem_clock_mhz));
            json_object_set_new(o, "memory_bus_width_bits",
                                json_integer(d->product.mem_bus_width_bits));
            json_object_set_new(o, "l2_bytes", json_integer(d->product.l2_bytes));
            json_array_append_new(arr, o);
        }
        char *s = json_dumps(arr, JSON_INDENT(2));
        puts(s);
        free(s);
        json_decref(arr);
    } else {
        for (int i = 0; i < n; i++) {
            if (i)
                putchar('\n');
            print_device(&devs[i], model_find_twin(&db, devs[i].product.name, devs[i].arch.name,
                                                   devs[i].product.sm_count));
        }
    }
    rc = save ? save_model(save, &devs[0]) : EXIT_OK;
    model_db_free(&db);
    return rc;
}
