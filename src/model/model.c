/* model: the values of a model and the inline --machine form: each key's
 * text to its value, the consistency checks every arch passes, precision
 * names. Reading model files is model_ini.c's (inih); this file needs no
 * library, so the WebAssembly build takes it as it is. Strict on purpose: an
 * unknown key is an error, because a typo in a model silently changes every
 * number gpulint prints. */
#include "model/model.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/model_field.h"
#include "util/sbuf.h"
#include "util/units.h"

#define A(sec, key, type, member)                                                                  \
    {                                                                                              \
        sec, key, type, offsetof(gpu_arch, member), false                                          \
    }
static const model_field arch_fields[] = {
    A("arch", "name", F_STRING, name),
    A("arch", "family", F_STRING, family),
    A("arch", "compute_capability", F_CC, cc_major),
    A("threads", "warp_size", F_INT, warp_size),
    A("threads", "max_threads_per_block", F_INT, max_threads_per_block),
    A("threads", "max_threads_per_sm", F_INT, max_threads_per_sm),
    A("threads", "max_blocks_per_sm", F_INT, max_blocks_per_sm),
    A("threads", "max_block_dim", F_DIM3, max_block_dim),
    A("threads", "max_grid_dim", F_DIM3, max_grid_dim),
    A("registers", "per_sm", F_INT, regs_per_sm),
    A("registers", "per_block", F_INT, regs_per_block),
    A("registers", "max_per_thread", F_INT, max_regs_per_thread),
    A("registers", "alloc_unit", F_INT, reg_alloc_unit),
    A("registers", "sub_partitions", F_INT, sub_partitions),
    A("registers", "launch_check_sub_partitions", F_INT, launch_check_sub_partitions),
    A("shared_memory", "per_sm", F_BYTES, smem_per_sm),
    A("shared_memory", "per_block", F_BYTES, smem_per_block),
    A("shared_memory", "per_block_optin", F_BYTES, smem_per_block_optin),
    A("shared_memory", "reserved_per_block", F_BYTES, smem_reserved_per_block),
    A("shared_memory", "alloc_unit", F_INT, smem_alloc_unit),
    A("shared_memory", "carveouts_kb", F_CARVEOUT, n_carveouts),
    {"shared_memory", "unified_per_sm", F_BYTES, offsetof(gpu_arch, unified_l1_per_sm), true},
    A("barriers", "slots_per_block", F_INT, barrier_slots_per_block),
    A("barriers", "max_per_block", F_INT, max_barriers_per_block),
    {"clusters", "max_portable", F_INT, offsetof(gpu_arch, cluster_max_portable), true},
    {"clusters", "max_nonportable", F_INT, offsetof(gpu_arch, cluster_max_nonportable), true},
    {"clusters", "blocks_per_sm", F_INT, offsetof(gpu_arch, cluster_blocks_per_sm), true},
};
#undef A

#define P(sec, key, type, member)                                                                  \
    {                                                                                              \
        sec, key, type, offsetof(gpu_product, member), false                                       \
    }
#define PREC(sec, arr, idx, key)                                                                   \
    {                                                                                              \
        sec, key, F_SI, offsetof(gpu_product, arr) + (idx) * sizeof(double), false                 \
    }
#define PRECS(sec, arr)                                                                            \
    PREC(sec, arr, PREC_FP64, "fp64"), PREC(sec, arr, PREC_FP32, "fp32"),                          \
        PREC(sec, arr, PREC_FP16, "fp16"), PREC(sec, arr, PREC_BF16, "bf16"),                      \
        PREC(sec, arr, PREC_FP64_TENSOR, "fp64_tensor"),                                           \
        PREC(sec, arr, PREC_TF32_TENSOR, "tf32_tensor"),                                           \
        PREC(sec, arr, PREC_FP16_TENSOR, "fp16_tensor"),                                           \
        PREC(sec, arr, PREC_BF16_TENSOR, "bf16_tensor"),                                           \
        PREC(sec, arr, PREC_FP8_TENSOR, "fp8_tensor"),                                             \
        PREC(sec, arr, PREC_INT8_TENSOR, "int8_tensor")
#define MEASURED(idx, key)                                                                         \
    {                                                                                              \
        "measured", key, F_SI, offsetof(gpu_product, measured_flops) + (idx) * sizeof(double),     \
            true                                                                                   \
    }
static const model_field product_fields[] = {
    P("product", "id", F_STRING, id),
    P("product", "name", F_STRING, name),
    P("product", "arch", F_STRING, arch),
    P("product", "sm_count", F_INT, sm_count),
    P("product", "base_clock_mhz", F_MHZ, base_clock_mhz),
    P("product", "boost_clock_mhz", F_MHZ, boost_clock_mhz),
    P("product", "l2_bytes", F_BYTES, l2_bytes),
    {"product", "l2_read_bytes_per_clock", F_INT, offsetof(gpu_product, l2_read_bytes_per_clock),
     true},
    {"product", "l2_partitions", F_INT, offsetof(gpu_product, l2_partitions), true},
    {"product", "gpc_sms", F_GPCS, offsetof(gpu_product, n_gpcs), true},
    P("memory", "type", F_STRING, mem_type),
    P("memory", "clock_mhz", F_MHZ, mem_clock_mhz),
    P("memory", "bus_width_bits", F_INT, mem_bus_width_bits),
    P("memory", "data_rate", F_INT, mem_data_rate),
    P("memory", "datasheet_bandwidth", F_SI, datasheet_bandwidth),
    PRECS("throughput", flops_per_clock_per_sm),
    PRECS("datasheet", datasheet_flops),
    /* Written by `gpulint verify --save-model`: the roof this card reached. */
    {"measured", "bandwidth", F_SI, offsetof(gpu_product, measured_bandwidth), true},
    MEASURED(PREC_FP64, "fp64"),
    MEASURED(PREC_FP32, "fp32"),
    MEASURED(PREC_FP16, "fp16"),
    MEASURED(PREC_BF16, "bf16"),
    MEASURED(PREC_FP64_TENSOR, "fp64_tensor"),
    MEASURED(PREC_TF32_TENSOR, "tf32_tensor"),
    MEASURED(PREC_FP16_TENSOR, "fp16_tensor"),
    MEASURED(PREC_BF16_TENSOR, "bf16_tensor"),
    MEASURED(PREC_FP8_TENSOR, "fp8_tensor"),
    MEASURED(PREC_INT8_TENSOR, "int8_tensor"),
    {"timing", "launch_ns", F_SI, offsetof(gpu_product, launch_ns), true},
    {"timing", "launch_floor_ns", F_SI, offsetof(gpu_product, launch_floor_ns), true},
    {"timing", "block_dispatch_ns", F_SI, offsetof(gpu_product, block_dispatch_ns), true},
    {"timing", "block_interval_ns", F_SI, offsetof(gpu_product, block_interval_ns), true},
    {"timing", "block_serial_ns", F_SI, offsetof(gpu_product, block_serial_ns), true},
    {"timing", "dram_latency_ns", F_SI, offsetof(gpu_product, dram_latency_ns), true},
    {"timing", "dram_read_bandwidth", F_SI, offsetof(gpu_product, dram_read_bandwidth), true},
    {"timing", "l1_latency_cycles", F_SI, offsetof(gpu_product, l1_latency_cycles), true},
    {"timing", "barrier_cycles", F_SI, offsetof(gpu_product, barrier_cycles), true},
    {"timing", "barrier_warp_cycles", F_SI, offsetof(gpu_product, barrier_warp_cycles), true},
    {"timing", "l2_latency_ns", F_SI, offsetof(gpu_product, l2_latency_ns), true},
    {"timing", "latency_clock_mhz", F_SI, offsetof(gpu_product, latency_clock_mhz), true},
    {"timing", "boost_dram_latency_ns", F_SI, offsetof(gpu_product, boost_dram_latency_ns), true},
    {"timing", "boost_l2_latency_ns", F_SI, offsetof(gpu_product, boost_l2_latency_ns), true},
    {"timing", "l2_read_bandwidth", F_SI, offsetof(gpu_product, l2_read_bandwidth), true},
    {"timing", "l2_write_bandwidth", F_SI, offsetof(gpu_product, l2_write_bandwidth), true},
    {"timing", "l2_partial_write_bandwidth", F_SI,
     offsetof(gpu_product, l2_partial_write_bandwidth), true},
    {"timing", "l2_shared_partial_write_bandwidth", F_SI,
     offsetof(gpu_product, l2_shared_partial_write_bandwidth), true},
    {"timing", "l2_write_retained_bytes", F_SI, offsetof(gpu_product, l2_write_retained_bytes),
     true},
    {"timing", "l1_store_merge", F_MERGE, offsetof(gpu_product, n_store_merge), true},
    {"timing", "l2_partial_lines_retained", F_SI, offsetof(gpu_product, l2_partial_lines_retained),
     true},
    {"timing", "same_address_atomic_rate", F_SI, offsetof(gpu_product, same_address_atomic_rate),
     true},
    {"timing", "same_address_float_atomic_rate", F_SI,
     offsetof(gpu_product, same_address_float_atomic_rate), true},
};
#undef MEASURED
#undef P
#undef PREC
#undef PRECS

_Static_assert(sizeof arch_fields / sizeof arch_fields[0] <= sizeof((model_filler *)0)->seen,
               "model_filler.seen holds a flag per arch key");
_Static_assert(sizeof product_fields / sizeof product_fields[0] <= sizeof((model_filler *)0)->seen,
               "model_filler.seen holds a flag per product key");

/* A number as model_field_parse reads it back: integers in full (a
 * bandwidth in bytes/s), other values to 6 significant digits. */
static void number_text(sbuf *out, double v)
{
    if (v >= 1e6 || v == floor(v))
        sbuf_addf(out, "%.0f", v);
    else
        sbuf_addf(out, "%.6g", v);
}

/* A number field of the product by section and key (NULL: no such). */
static const model_field *number_field(const char *section, const char *key)
{
    for (size_t i = 0; i < sizeof product_fields / sizeof product_fields[0]; i++) {
        const model_field *f = &product_fields[i];
        if ((f->type == F_SI || f->type == F_MHZ) && strcmp(f->section, section) == 0 &&
            strcmp(f->key, key) == 0)
            return f;
    }
    return NULL;
}

double model_product_number(const gpu_product *p, const char *section, const char *key)
{
    const model_field *f = number_field(section, key);
    return f ? *(const double *)((const char *)p + f->offset) : NAN;
}

bool model_product_set_number(gpu_product *p, const char *section, const char *key, double v)
{
    const model_field *f = number_field(section, key);
    if (f)
        *(double *)((char *)p + f->offset) = v;
    return f != NULL;
}

void model_product_ini(const gpu_product *p, const char *only, sbuf *out)
{
    const char *section = "";
    for (size_t i = 0; i < sizeof product_fields / sizeof product_fields[0]; i++) {
        const model_field *f = &product_fields[i];
        if (only && strcmp(f->section, only) != 0)
            continue;
        const char *at = (const char *)p + f->offset;
        double d = f->type == F_SI || f->type == F_MHZ ? *(const double *)at : 0;
        if (f->optional && ((f->type == F_INT && *(const int *)at == 0) ||
                            (f->type == F_GPCS && ((const gpu_product *)p)->n_gpcs == 0) ||
                            (f->type == F_MERGE && ((const gpu_product *)p)->n_store_merge == 0) ||
                            ((f->type == F_SI || f->type == F_MHZ) && d == 0)))
            continue;
        if (strcmp(section, f->section) != 0) {
            sbuf_addf(out, "%s[%s]\n", section[0] ? "\n" : "", f->section);
            section = f->section;
        }
        sbuf_addf(out, "%s = ", f->key);
        switch (f->type) {
        case F_STRING:
            sbuf_addf(out, "%s", at);
            break;
        case F_INT:
            sbuf_addf(out, "%d", *(const int *)at);
            break;
        case F_BYTES:
            sbuf_addf(out, "%lld", (long long)*(const int64_t *)at);
            break;
        case F_GPCS:
            for (int g = 0; g < p->n_gpcs; g++)
                sbuf_addf(out, "%s%d", g ? " " : "", p->gpc_sms[g]);
            break;
        case F_MERGE:
            for (int k = 0; k < p->n_store_merge; k++)
                sbuf_addf(out, "%s%g", k ? " " : "", p->l1_store_merge[k]);
            break;
        default:
            number_text(out, d);
            break;
        }
        sbuf_addf(out, "\n");
    }
}

static bool parse_int_strict(const char *v, int *out)
{
    int64_t b;
    if (!units_parse_bytes(v, &b) || b > 0x7fffffff)
        return false;
    *out = (int)b;
    return true;
}

/* Past the spaces and commas between a list's items: false at its end. */
static bool list_next(const char **at)
{
    while (isspace((unsigned char)**at) || **at == ',')
        (*at)++;
    return **at != 0;
}

/* "18 18 16 8 2": each group's SMs, as many as MODEL_MAX_GPCS. */
bool model_parse_gpcs(const char *v, gpu_product *p, char *msg, size_t n)
{
    p->n_gpcs = 0;
    const char *at = v;
    char *end;
    while (list_next(&at)) {
        long sms = strtol(at, &end, 10);
        if (end == at || sms < 1 || sms > 1024 || p->n_gpcs >= MODEL_MAX_GPCS) {
            snprintf(msg, n, "gpc_sms: expected at most %d SM counts of 1 to 1024, got '%s'",
                     MODEL_MAX_GPCS, v);
            return false;
        }
        p->gpc_sms[p->n_gpcs++] = (int)sms;
        at = end;
    }
    if (p->n_gpcs)
        return true;
    snprintf(msg, n, "gpc_sms: expected at least one SM count, got '%s'", v);
    return false;
}

/* "1 1.05 1.06 2.0": for k = 1, 2, .. pieces, the sectors L2 takes for
 * each one the struct fills, from 1 (merged whole) up to k (none merged). */
static bool parse_store_merge(const char *v, gpu_product *p, char *msg, size_t n)
{
    p->n_store_merge = 0;
    const char *at = v;
    char *end;
    while (list_next(&at)) {
        double m = strtod(at, &end);
        int k = p->n_store_merge + 1;
        if (end == at || !(m >= 1 && m <= k) || k > MODEL_MAX_STORE_MERGE) {
            snprintf(msg, n,
                     "l1_store_merge: expected at most %d ratios, the k-th from 1 to k, got '%s'",
                     MODEL_MAX_STORE_MERGE, v);
            return false;
        }
        p->l1_store_merge[p->n_store_merge++] = m;
        at = end;
    }
    if (p->n_store_merge)
        return true;
    snprintf(msg, n, "l1_store_merge: expected at least one ratio, got '%s'", v);
    return false;
}

bool model_field_parse(const model_field *f, const char *v, void *base, char *msg, size_t n)
{
    char *dst = (char *)base + f->offset;
    switch (f->type) {
    case F_INT:
        if (parse_int_strict(v, (int *)dst))
            return true;
        snprintf(msg, n, "%s: expected a non-negative integer, got '%s'", f->key, v);
        return false;
    case F_BYTES:
        if (units_parse_bytes(v, (int64_t *)dst))
            return true;
        snprintf(msg, n, "%s: expected a size in bytes (e.g. 49152 or 48K), got '%s'", f->key, v);
        return false;
    case F_SI:
    case F_MHZ:
        if (units_parse_si(v, (double *)dst))
            return true;
        snprintf(msg, n, "%s: expected a non-negative number, got '%s'", f->key, v);
        return false;
    case F_STRING:
        if (strlen(v) >= MODEL_NAME_MAX || !*v) {
            snprintf(msg, n, "%s: expected a value of 1 to %d characters", f->key,
                     MODEL_NAME_MAX - 1);
            return false;
        }
        strcpy(dst, v);
        return true;
    case F_DIM3: {
        int *d = (int *)dst;
        char *end;
        const char *p = v;
        for (int i = 0; i < 3; i++) {
            long x = strtol(p, &end, 10);
            if (end == p || x <= 0 || x > 0x7fffffffL) {
                snprintf(msg, n, "%s: expected three positive integers, got '%s'", f->key, v);
                return false;
            }
            d[i] = (int)x;
            p = end;
        }
        while (isspace((unsigned char)*p))
            p++;
        if (*p) {
            snprintf(msg, n, "%s: expected three positive integers, got '%s'", f->key, v);
            return false;
        }
        return true;
    }
    case F_CC: {
        gpu_arch *a = base;
        int major, minor, used = 0;
        if (sscanf(v, "%d.%d%n", &major, &minor, &used) != 2 || v[used] || major < 1 ||
            major > 99 || minor < 0 || minor > 9) {
            snprintf(msg, n, "compute_capability: expected MAJOR.MINOR such as 9.0, got '%s'", v);
            return false;
        }
        a->cc_major = major;
        a->cc_minor = minor;
        return true;
    }
    case F_CARVEOUT: {
        gpu_arch *a = base;
        a->n_carveouts = 0;
        const char *p = v;
        char *end;
        for (;;) {
            while (isspace((unsigned char)*p))
                p++;
            if (!*p)
                break;
            long kb = strtol(p, &end, 10);
            if (end == p || kb < 0 || kb > 16 * 1024 * 1024 ||
                a->n_carveouts >= MODEL_MAX_CARVEOUTS ||
                (a->n_carveouts && kb * 1024 <= a->carveouts[a->n_carveouts - 1])) {
                snprintf(msg, n,
                         "carveouts_kb: expected at most %d ascending sizes in KiB, got '%s'",
                         MODEL_MAX_CARVEOUTS, v);
                return false;
            }
            a->carveouts[a->n_carveouts++] = (int64_t)kb * 1024;
            p = end;
        }
        return true;
    }
    case F_GPCS:
        return model_parse_gpcs(v, base, msg, n);
    case F_MERGE:
        return parse_store_merge(v, base, msg, n);
    }
    return false;
}

/* fgets over the text; a line longer than inih's buffer arrives in pieces,
 * and only a piece that starts a line advances the line number. */
bool model_field_fail(model_error *err, const char *fmt, long long v)
{
    err->line = 0;
    snprintf(err->message, sizeof err->message, fmt, v);
    return false;
}

bool model_validate_arch(const gpu_arch *a, model_error *err)
{
    if (a->warp_size <= 0 || a->warp_size > 1024)
        return model_field_fail(err, "warp size must be between 1 and 1024 (got %lld)",
                                a->warp_size);
    if (a->max_threads_per_block <= 0)
        return model_field_fail(err, "max threads per block must be positive (got %lld)",
                                a->max_threads_per_block);
    if (a->max_threads_per_sm < a->warp_size)
        return model_field_fail(err, "max threads per SM must be at least one warp (got %lld)",
                                a->max_threads_per_sm);
    if (a->max_blocks_per_sm <= 0)
        return model_field_fail(err, "max blocks per SM must be positive (got %lld)",
                                a->max_blocks_per_sm);
    if (a->regs_per_sm <= 0 || a->regs_per_block <= 0)
        return model_field_fail(err, "register file sizes must be positive (got %lld)",
                                a->regs_per_sm);
    if (a->regs_per_block > a->regs_per_sm)
        return model_field_fail(err, "registers per block exceed registers per SM (%lld)",
                                a->regs_per_block);
    if (a->max_regs_per_thread <= 0)
        return model_field_fail(err, "max registers per thread must be positive (got %lld)",
                                a->max_regs_per_thread);
    if (a->sub_partitions <= 0 || a->launch_check_sub_partitions < 0)
        return model_field_fail(err, "sub-partition count must be positive (got %lld)",
                                a->sub_partitions);
    if (a->smem_per_sm <= 0 || a->smem_per_block <= 0)
        return model_field_fail(err, "shared memory sizes must be positive (got %lld)",
                                (long long)a->smem_per_sm);
    if (a->smem_per_block_optin < a->smem_per_block)
        return model_field_fail(err, "opt-in shared memory per block is below the default (%lld)",
                                (long long)a->smem_per_block_optin);
    if (a->smem_per_block_optin + a->smem_reserved_per_block > a->smem_per_sm)
        return model_field_fail(err,
                                "opt-in shared memory per block plus the reserved bytes exceed "
                                "shared memory per SM (%lld)",
                                (long long)a->smem_per_sm);
    if (a->smem_per_sm > 0x7fffffff)
        return model_field_fail(err, "shared memory per SM is implausibly large (%lld)",
                                (long long)a->smem_per_sm);
    if (a->n_carveouts && a->carveouts[a->n_carveouts - 1] != a->smem_per_sm)
        return model_field_fail(err, "the largest carveout must equal shared memory per SM (%lld)",
                                (long long)a->smem_per_sm);
    if (a->cluster_max_portable > a->cluster_max_nonportable ||
        (a->cluster_max_portable && !a->cluster_blocks_per_sm))
        return model_field_fail(err,
                                "[clusters]: max_portable may not exceed max_nonportable, and "
                                "blocks_per_sm goes with them (max_portable %lld)",
                                a->cluster_max_portable);
    if (a->unified_l1_per_sm && (!a->n_carveouts || a->unified_l1_per_sm < a->smem_per_sm ||
                                 a->unified_l1_per_sm > 0x7fffffff))
        return model_field_fail(err,
                                "unified_per_sm needs carveouts_kb and must lie between shared "
                                "memory per SM (%lld) and 2 GiB",
                                (long long)a->smem_per_sm);
    return true;
}

void model_filler_arch(model_filler *f, gpu_arch *out)
{
    *out = (gpu_arch){0};
    *f = (model_filler){
        .fields = arch_fields, .n_fields = sizeof arch_fields / sizeof arch_fields[0], .out = out};
}

void model_filler_product(model_filler *f, gpu_product *out)
{
    *out = (gpu_product){0};
    *f = (model_filler){.fields = product_fields,
                        .n_fields = sizeof product_fields / sizeof product_fields[0],
                        .out = out,
                        .product = true};
}

bool model_filler_add(model_filler *f, const char *section, const char *key, const char *value,
                      char *msg, size_t n)
{
    const model_field *fields = f->fields;
    for (size_t i = 0; i < f->n_fields; i++) {
        if (strcmp(fields[i].section, section) || strcmp(fields[i].key, key))
            continue;
        if (f->seen[i]) {
            snprintf(msg, n, "[%s] %s is given twice", section, key);
            return false;
        }
        f->seen[i] = true;
        return model_field_parse(&fields[i], value, f->out, msg, n);
    }
    snprintf(msg, n, "unknown key '%s' in section [%s]", key, section);
    return false;
}

bool model_filler_finish(model_filler *f, model_error *err)
{
    const model_field *fields = f->fields;
    for (size_t i = 0; i < f->n_fields; i++)
        if (!f->seen[i] && !fields[i].optional) {
            err->line = 0;
            snprintf(err->message, sizeof err->message, "missing key '%s' in section [%s]",
                     fields[i].key, fields[i].section);
            return false;
        }
    if (!f->product)
        return model_validate_arch(f->out, err);
    const gpu_product *p = f->out;
    if (p->sm_count <= 0)
        return model_field_fail(err, "sm_count must be positive (got %lld)", p->sm_count);
    if (p->boost_clock_mhz <= 0)
        return model_field_fail(err, "boost_clock_mhz must be positive (got %lld)",
                                (long long)p->boost_clock_mhz);
    int gpc_total = 0;
    for (int g = 0; g < p->n_gpcs; g++)
        gpc_total += p->gpc_sms[g];
    if (p->n_gpcs && gpc_total != p->sm_count)
        return model_field_fail(err, "gpc_sms adds up to %lld SMs, not sm_count", gpc_total);
    return true;
}

/* The textbook machine: numbers a course states, no allocation units. */
static void textbook_defaults(gpu_arch *a)
{
    *a = (gpu_arch){0};
    strcpy(a->name, "machine");
    strcpy(a->family, "hypothetical");
    a->warp_size = 32;
    a->max_threads_per_block = 1024;
    a->max_threads_per_sm = 2048;
    a->max_blocks_per_sm = 32;
    a->max_block_dim[0] = a->max_block_dim[1] = 1024;
    a->max_block_dim[2] = 64;
    a->max_grid_dim[0] = 0x7fffffff;
    a->max_grid_dim[1] = a->max_grid_dim[2] = 65535;
    a->regs_per_sm = a->regs_per_block = 65536;
    a->max_regs_per_thread = 255;
    a->sub_partitions = 1;
    a->smem_per_sm = a->smem_per_block = a->smem_per_block_optin = 48 * 1024;
    a->hypothetical = true;
}

typedef struct spec_key {
    const char *key;
    model_field_type type;
    size_t offset;
} spec_key;

#define S(key, type, member)                                                                       \
    {                                                                                              \
        key, type, offsetof(gpu_arch, member)                                                      \
    }
static const spec_key spec_keys[] = {
    S("name", F_STRING, name),
    S("warp", F_INT, warp_size),
    S("threads/block", F_INT, max_threads_per_block),
    S("threads/sm", F_INT, max_threads_per_sm),
    S("blocks/sm", F_INT, max_blocks_per_sm),
    S("regs/sm", F_INT, regs_per_sm),
    S("regs/block", F_INT, regs_per_block),
    S("regs/thread", F_INT, max_regs_per_thread),
    S("reg-unit", F_INT, reg_alloc_unit),
    S("subpartitions", F_INT, sub_partitions),
    S("smem/sm", F_BYTES, smem_per_sm),
    S("smem/block", F_BYTES, smem_per_block),
    S("smem/block-optin", F_BYTES, smem_per_block_optin),
    S("smem/reserved", F_BYTES, smem_reserved_per_block),
    S("smem-unit", F_INT, smem_alloc_unit),
    S("carveouts", F_CARVEOUT, n_carveouts),
};
#undef S

bool model_parse_machine_spec(const char *spec, gpu_arch *out, model_error *err)
{
    textbook_defaults(out);
    err->line = 0;
    bool regs_block_given = false, smem_block_given = false, optin_given = false;
    char *copy = xstrdup(spec);
    bool ok = true;
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item && ok;
         item = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*item))
            item++;
        char *eq = strchr(item, '=');
        if (!eq) {
            snprintf(err->message, sizeof err->message, "--machine: expected key=value, got '%s'",
                     item);
            ok = false;
            break;
        }
        *eq = '\0';
        const char *key = item, *val = eq + 1;
        if (strcmp(key, "granularity") == 0) {
            if (strcmp(val, "none") == 0) {
                out->reg_alloc_unit = out->smem_alloc_unit = 0;
                out->sub_partitions = 1;
            } else {
                snprintf(err->message, sizeof err->message,
                         "--machine: granularity takes 'none' (set reg-unit, smem-unit and "
                         "subpartitions for real allocation units), got '%s'",
                         val);
                ok = false;
            }
            continue;
        }
        const spec_key *k = NULL;
        for (size_t i = 0; i < sizeof spec_keys / sizeof spec_keys[0]; i++)
            if (strcmp(spec_keys[i].key, key) == 0)
                k = &spec_keys[i];
        if (!k) {
            snprintf(err->message, sizeof err->message,
                     "--machine: unknown key '%s' (known: warp, threads/block, threads/sm, "
                     "blocks/sm, regs/sm, regs/block, regs/thread, reg-unit, subpartitions, "
                     "smem/sm, smem/block, smem/block-optin, smem/reserved, smem-unit, "
                     "carveouts, granularity, name)",
                     key);
            ok = false;
            break;
        }
        model_field f = {"machine", k->key, k->type, k->offset, false};
        char msg[MODEL_ERR_MAX - 16];
        if (!model_field_parse(&f, val, out, msg, sizeof msg)) {
            snprintf(err->message, sizeof err->message, "--machine: %s", msg);
            ok = false;
        }
        regs_block_given |= strcmp(key, "regs/block") == 0;
        smem_block_given |= strcmp(key, "smem/block") == 0;
        optin_given |= strcmp(key, "smem/block-optin") == 0;
    }
    free(copy);
    if (!ok)
        return false;
    /* Unstated per-block limits follow the per-SM ones, as in textbooks. */
    if (!regs_block_given)
        out->regs_per_block = out->regs_per_sm;
    if (!smem_block_given)
        out->smem_per_block = out->smem_per_sm - out->smem_reserved_per_block;
    if (!optin_given)
        out->smem_per_block_optin = out->smem_per_block;
    if (out->n_carveouts && out->carveouts[out->n_carveouts - 1] != out->smem_per_sm)
        out->smem_per_sm = out->carveouts[out->n_carveouts - 1];
    if (!model_validate_arch(out, err)) {
        char m[MODEL_ERR_MAX];
        snprintf(m, sizeof m, "--machine: %.*s", MODEL_ERR_MAX - 16, err->message);
        memcpy(err->message, m, sizeof m);
        return false;
    }
    return true;
}

static const char *const precision_names[PREC_COUNT] = {
    "fp64",        "fp32",        "fp16",        "bf16",       "fp64-tensor",
    "tf32-tensor", "fp16-tensor", "bf16-tensor", "fp8-tensor", "int8-tensor",
};

const char *model_precision_name(model_precision p)
{
    return p < PREC_COUNT ? precision_names[p] : "unknown";
}

bool model_precision_from_name(const char *name, model_precision *out)
{
    for (int i = 0; i < PREC_COUNT; i++) {
        const char *n = precision_names[i];
        size_t len = strlen(n);
        if (strlen(name) != len)
            continue;
        bool same = true;
        for (size_t j = 0; j < len && same; j++) {
            char a = (char)tolower((unsigned char)name[j]);
            char b = n[j];
            same = a == b || (a == '_' && b == '-');
        }
        if (same) {
            *out = (model_precision)i;
            return true;
        }
    }
    return false;
}

int model_device_props(const gpu_arch *a, const gpu_product *p, const char **names, int64_t *values,
                       int max)
{
    /* The same fields tests/gpu/gpu_occupancy.cu checks against the card's
     * cudaDeviceProp. */
    const struct {
        const char *name;
        int64_t value;
        bool needs_product;
    } props[] = {
        {"cudaDeviceProp.multiProcessorCount", p ? p->sm_count : 0, true},
        {"cudaDeviceProp.l2CacheSize", p ? p->l2_bytes : 0, true},
        {"cudaDeviceProp.memoryBusWidth", p ? p->mem_bus_width_bits : 0, true},
        {"cudaDeviceProp.warpSize", a->warp_size, false},
        {"cudaDeviceProp.maxThreadsPerBlock", a->max_threads_per_block, false},
        {"cudaDeviceProp.maxThreadsPerMultiProcessor", a->max_threads_per_sm, false},
        {"cudaDeviceProp.maxBlocksPerMultiProcessor", a->max_blocks_per_sm, false},
        {"cudaDeviceProp.regsPerBlock", a->regs_per_block, false},
        {"cudaDeviceProp.regsPerMultiprocessor", a->regs_per_sm, false},
        {"cudaDeviceProp.sharedMemPerBlock", a->smem_per_block, false},
        {"cudaDeviceProp.sharedMemPerBlockOptin", a->smem_per_block_optin, false},
        {"cudaDeviceProp.sharedMemPerMultiprocessor", a->smem_per_sm, false},
        {"cudaDeviceProp.reservedSharedMemPerBlock", a->smem_reserved_per_block, false},
        {"cudaDeviceProp.major", a->cc_major, false},
        {"cudaDeviceProp.minor", a->cc_minor, false},
        {"cudaDeviceProp.maxGridSize[0]", a->max_grid_dim[0], false},
        {"cudaDeviceProp.maxGridSize[1]", a->max_grid_dim[1], false},
        {"cudaDeviceProp.maxGridSize[2]", a->max_grid_dim[2], false},
        {"cudaDeviceProp.maxThreadsDim[0]", a->max_block_dim[0], false},
        {"cudaDeviceProp.maxThreadsDim[1]", a->max_block_dim[1], false},
        {"cudaDeviceProp.maxThreadsDim[2]", a->max_block_dim[2], false},
    };
    int n = 0;
    for (size_t i = 0; a && i < sizeof props / sizeof props[0] && n < max; i++) {
        /* A hypothetical machine has no compute capability, and a field
         * the model leaves at 0 is not known. */
        if ((props[i].needs_product && !p) || props[i].value <= 0)
            continue;
        names[n] = props[i].name;
        values[n++] = props[i].value;
    }
    return n;
}
