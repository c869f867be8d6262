/* model: GPU architecture (per compute capability) and product data, parsed
 * from the INI files under models/. Parsing is pure (text in, struct out);
 * model_load.c does the file-system side. */
#ifndef GPULINT_MODEL_H
#define GPULINT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MODEL_NAME_MAX 64
#define MODEL_MAX_CARVEOUTS 16
#define MODEL_MAX_GPCS 32
#define MODEL_MAX_STORE_MERGE 16
#define MODEL_ERR_MAX 256

/* Everything the occupancy engine needs about one compute capability.
 * Field meanings follow cudaDeviceProp and cuda_occupancy.h; units are
 * bytes, registers and threads. */
typedef struct gpu_arch {
    char name[MODEL_NAME_MAX];   /* "sm_90", or a user's name for a hypothetical SM */
    char family[MODEL_NAME_MAX]; /* "Hopper" */
    int cc_major, cc_minor;      /* 0.0 for hypothetical machines */

    int warp_size;
    int max_threads_per_block;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int max_block_dim[3];
    int max_grid_dim[3];

    int regs_per_sm;
    int regs_per_block;
    int max_regs_per_thread;
    /* Registers are given to a warp in units of reg_alloc_unit registers;
     * 0 means the textbook model (per-thread arithmetic, no rounding). */
    int reg_alloc_unit;
    /* A warp's registers come from one of the SM's sub-partitions, so the
     * per-SM warp count is (regs_per_sm / sub_partitions / regs_per_warp)
     * * sub_partitions. 1 = no sub-partition rounding. */
    int sub_partitions;
    /* The launch check assumes warps are spread over this many
     * sub-partitions (cuda_occupancy.h: GP100 is checked as GP10x). */
    int launch_check_sub_partitions;

    int64_t smem_per_sm;          /* the largest shared-memory carveout */
    int64_t smem_per_block;       /* without opt-in */
    int64_t smem_per_block_optin; /* cudaFuncAttributeMaxDynamicSharedMemorySize ceiling */
    int64_t smem_reserved_per_block;
    int smem_alloc_unit; /* 0 = textbook: no rounding */
    /* Carveout sizes the SM can be configured to, ascending. 0 entries =
     * dedicated shared memory (Maxwell, Pascal): always smem_per_sm. */
    int n_carveouts;
    int64_t carveouts[MODEL_MAX_CARVEOUTS];
    /* The L1/shared memory the carveouts are taken from; what a carveout
     * leaves is L1's data cache. 0: not given (optional), or shared memory
     * is its own (Maxwell, Pascal). */
    int64_t unified_l1_per_sm;

    /* Hopper and later count block barriers: an SM has
     * barrier_slots_per_block * max_blocks_per_sm of them. 0 = no limit. */
    int barrier_slots_per_block;
    int max_barriers_per_block; /* named barriers a block can use (16) */

    /* Thread-block clusters (sm_90 on): the most blocks a cluster may have
     * without and with cudaFuncAttributeNonPortableClusterSizeAllowed, and
     * the most blocks of a cluster launch an SM holds, whatever occupancy
     * allows. 0 = no clusters, or not measured on this arch. */
    int cluster_max_portable, cluster_max_nonportable;
    int cluster_blocks_per_sm;

    /* Set when a file gives a value that is not a real NVIDIA part. */
    bool hypothetical;
} gpu_arch;

/* Per-SM throughput per clock for one precision: operations (an FMA counts
 * as 2 FLOPs) per clock per SM. 0 = unsupported or unknown. */
typedef enum model_precision {
    PREC_FP64,
    PREC_FP32,
    PREC_FP16,
    PREC_BF16,
    PREC_FP64_TENSOR,
    PREC_TF32_TENSOR,
    PREC_FP16_TENSOR,
    PREC_BF16_TENSOR,
    PREC_FP8_TENSOR,
    PREC_INT8_TENSOR,
    PREC_COUNT
} model_precision;

/* One shipped product: an arch plus the numbers that set its roofline. */
typedef struct gpu_product {
    char id[MODEL_NAME_MAX];   /* "h100-sxm" (file name) */
    char name[MODEL_NAME_MAX]; /* "NVIDIA H100 SXM5 80GB" */
    char arch[MODEL_NAME_MAX]; /* "sm_90" */
    int sm_count;
    double base_clock_mhz;
    double boost_clock_mhz;
    double mem_clock_mhz; /* as cudaDeviceProp reports: the memory clock */
    int mem_bus_width_bits;
    int mem_data_rate; /* transfers per memory clock (2 = DDR; 0 = unknown) */
    char mem_type[MODEL_NAME_MAX];
    double datasheet_bandwidth; /* bytes/s, 0 = not given */
    int64_t l2_bytes;
    /* Bytes the L2 returns per SM clock, whole chip, where NVIDIA states it
     * (0 = not published): its read bandwidth = this x the SM clock. */
    int l2_read_bytes_per_clock;
    /* L2 partitions that each keep a copy of what their own SMs read (the
     * A100 and H100 whitepapers: two; 0 = one): what every SM reads fits
     * in l2_bytes / l2_partitions. */
    int l2_partitions;
    double flops_per_clock_per_sm[PREC_COUNT]; /* dense, FMA = 2 */
    double datasheet_flops[PREC_COUNT];        /* dense FLOP/s, 0 = not given */
    double measured_bandwidth;                 /* filled by verify; 0 = none */
    double measured_flops[PREC_COUNT];
    /* [timing]: what the time model takes from the hardware (measured by
     * scripts/timeprobe; 0 = not measured for this product). */
    double launch_ns;         /* an empty kernel's duration */
    double launch_floor_ns;   /* the least any kernel took on such cards: a floor */
    double block_dispatch_ns; /* each further block an SM takes in an empty kernel's grid */
    /* A grid of many empty blocks: the least time between two blocks an SM
     * starts (a full grid, enough blocks an SM to keep it busy), and an
     * empty block's whole life at one block an SM. */
    double block_interval_ns, block_serial_ns;
    double dram_latency_ns;     /* a dependent load that misses L2 */
    double dram_read_bandwidth; /* bytes/s a streaming read reaches */
    double l1_latency_cycles;   /* a dependent load that hits L1, SM clocks */
    /* A loop step that only waits at __syncthreads (SM clocks): one block
     * an SM, and over the resident warps with many blocks. */
    double barrier_cycles, barrier_warp_cycles;
    double l2_latency_ns; /* a dependent load that misses L1 and hits L2 */
    /* The SM clock the two latencies above were measured at (Nsight
     * Compute's lock), and the same latencies at the boost clock; 0: the
     * latencies hold at every clock. */
    double latency_clock_mhz, boost_dram_latency_ns, boost_l2_latency_ns;
    double l2_read_bandwidth;  /* bytes/s L2 serves to loads that bypass L1 */
    double l2_write_bandwidth; /* bytes/s of stores L2 absorbs */
    /* bytes/s, counted in whole 32-byte sectors, of stores that each write
     * part of a sector (a lane's 4 bytes in a sector of its own) */
    double l2_partial_write_bandwidth;
    /* the same, of sectors each written in part beside others of their
     * line (a lane's 4 bytes in each sector of the line) */
    double l2_shared_partial_write_bandwidth;
    /* Atomics a second at one address: L2 carries them out one after
     * another, whatever the SMs do; 0: not measured. */
    double same_address_atomic_rate;
    double same_address_float_atomic_rate; /* float and double adds; 0: as above */
    /* Bytes of what a launch writes that L2 still holds when it ends (so
     * they reach DRAM after it), with a read stream beside the writes. */
    double l2_write_retained_bytes;
    /* 128-byte lines holding sectors stored in part that L2 keeps without
     * reading the rest of those sectors from DRAM; 0: not measured. */
    double l2_partial_lines_retained;
    /* A struct stored in k pieces back to back (a 12-byte float3 as three
     * 4-byte stores): L1 merges a warp's partial sectors before L2, which
     * then takes l1_store_merge[k - 1] sectors for each sector the struct
     * fills, not k. n_store_merge 0: not measured, every piece's sectors. */
    int n_store_merge;
    double l1_store_merge[MODEL_MAX_STORE_MERGE];
    /* The SMs of each group a cluster must fit in (its GPC, or the part
     * of one the runtime places clusters on), as measured on a card: the
     * count cudaOccupancyMaxActiveClusters gives depends on it. 0 groups:
     * not known for this product. */
    int n_gpcs;
    int gpc_sms[MODEL_MAX_GPCS];
} gpu_product;

typedef struct model_error {
    int line; /* 1-based line of the offending entry, 0 = whole file */
    char message[MODEL_ERR_MAX];
} model_error;

/* Fills a gpu_arch or gpu_product entry by entry: what the INI reader
 * (model_ini.c) and tables compiled from models/ (the WebAssembly build)
 * share. Strict: an unknown or repeated key is refused. */
typedef struct model_filler {
    const struct model_field *fields;
    size_t n_fields;
    void *out;
    bool product;
    bool seen[80];
} model_filler;

void model_filler_arch(model_filler *f, gpu_arch *out);
void model_filler_product(model_filler *f, gpu_product *out);
/* The product as a model file's sections (every key it sets; optional
 * ones left out where 0), which model_filler_product reads back; only: one
 * section ("timing"), or NULL for all. */
struct sbuf;
void model_product_ini(const gpu_product *p, const char *only, struct sbuf *out);
/* A number of the product by its model-file section and key ("timing",
 * "launch_ns"): NAN, or false, where there is no such number. */
double model_product_number(const gpu_product *p, const char *section, const char *key);
bool model_product_set_number(gpu_product *p, const char *section, const char *key, double v);
/* One "key = value" of [section]; false with the reason in msg. */
bool model_filler_add(model_filler *f, const char *section, const char *key, const char *value,
                      char *msg, size_t n);
/* After the last entry: every required key given, values consistent. */
bool model_filler_finish(model_filler *f, model_error *err);

/* Parse an arch file's text. On failure returns false and fills err. */
bool model_parse_arch(const char *text, size_t len, gpu_arch *out, model_error *err);
/* Parse a product file's text. */
bool model_parse_product(const char *text, size_t len, gpu_product *out, model_error *err);
/* Parse the inline --machine form: "threads/sm=2048,regs/sm=65536,...". Keys
 * not given take the textbook defaults (warp 32, no allocation units). */
bool model_parse_machine_spec(const char *spec, gpu_arch *out, model_error *err);
/* Check that values are consistent (positive, ordered, within int ranges). */
bool model_validate_arch(const gpu_arch *a, model_error *err);

const char *model_precision_name(model_precision p);
bool model_precision_from_name(const char *name, model_precision *out);

/* gpc_sms's value, "18 18 16" (commas allowed), into p->n_gpcs and
 * p->gpc_sms; false with a sentence in msg. */
bool model_parse_gpcs(const char *v, gpu_product *p, char *msg, size_t n);

/* The cudaDeviceProp fields a host program reads to size its launches
 * (16 * prop.multiProcessorCount blocks), as the model gives them: names
 * "cudaDeviceProp.<field>" into names[] with their values, at most max;
 * product NULL leaves out what only a product knows (the SM count, the
 * L2). Returns how many. */
#define MODEL_DEVICE_PROPS 32
int model_device_props(const gpu_arch *a, const gpu_product *p, const char **names, int64_t *values,
                       int max);

#endif
