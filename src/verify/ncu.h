/* ncu: the hardware counters beside verify's timings, where Nsight Compute
 * is installed and the driver lets this user read counters (in most
 * containers it does not: ERR_NVGPUCTRPERM). verify runs itself once more
 * under `ncu --csv`, each probe launched exactly once, and reads per launch
 *   wavefronts per shared load   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld
 *                                / smsp__inst_executed_op_shared_ld
 *   sectors per global request   l1tex__t_sectors_pipe_lsu_mem_global_op_ld
 *                                / l1tex__t_requests_pipe_lsu_mem_global_op_ld
 *   threads per instruction      smsp__thread_inst_executed_per_inst_executed
 *   achieved occupancy           sm__warps_active.avg.pct_of_peak_sustained_active
 *   DRAM bytes                   dram__bytes_read.sum + dram__bytes_write.sum
 *   warp instructions            smsp__inst_executed.sum
 * The CSV parsing is pure and tested; running needs the device. */
#ifndef GPULINT_VERIFY_NCU_H
#define GPULINT_VERIFY_NCU_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ncu_launch {
    char kernel[64];
    double shared_wavefronts, shared_loads; /* -1 when absent */
    double global_sectors, global_requests;
    double threads_per_inst;
    double achieved_occupancy_pct;
    double dram_read, dram_write; /* bytes; caches flushed before the launch */
    double warp_insts;
} ncu_launch;

typedef struct ncu_result {
    ncu_launch *launches; /* in launch order */
    int n;
} ncu_result;

typedef enum ncu_status {
    NCU_USED,
    NCU_UNAVAILABLE, /* no ncu, or it failed */
    NCU_REFUSED,     /* the driver refused the counters */
} ncu_status;

/* The metrics, comma-separated, for --metrics. */
const char *ncu_metrics(void);

/* Parses `ncu --csv` output (other lines, such as the program's own output
 * and ==PROF== messages, are skipped). */
bool ncu_parse(const char *text, ncu_result *out);
void ncu_result_free(ncu_result *r);

/* ncu on PATH, beside nvcc, or under /opt/nvidia/nsight-compute (NULL). */
char *ncu_find(const char *nvcc_dir);

/* Runs `ncu ... argv` (argv[0] = the program). note gets one line on
 * anything but NCU_USED. */
ncu_status ncu_run(const char *ncu, const char *kernel_regex, const char *const *argv,
                   ncu_result *out, char *note, size_t notelen);

/* The n-th (0-based) profiled launch of `kernel`, or NULL. */
const ncu_launch *ncu_find_launch(const ncu_result *r, const char *kernel, int nth);

#endif
