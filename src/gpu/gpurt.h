/* gpurt: the GPU runtime calls `gpulint verify` makes, and nothing else:
 * load a separately built fatbin, find its kernels, set their attributes,
 * ask the occupancy API, move memory, launch and time.
 *
 * Why cudart rather than the driver API: gpulint already links cudart
 * statically for the device query, and a static cudart loads libcuda itself
 * at run time, so a gpulint built with it still starts (and says "no GPU")
 * where there is no driver, as in CI. Since CUDA 12 cudart loads modules
 * too (cudaLibraryLoadFromFile, cudaLibraryGetKernel), and every call used
 * here -- cudaFuncGetAttributes, cudaFuncSetAttribute,
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor, cudaLaunchKernel -- takes
 * the cudaKernel_t it returns. The driver API would need libcuda at link
 * time (then gpulint fails to start without a driver) or entry points
 * fetched through cudart anyway. Built without cudart, gpurt_none.c answers
 * every call with "built without the CUDA runtime". */
#ifndef GPULINT_GPURT_H
#define GPULINT_GPURT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GPURT_ERR_MAX 256

typedef struct gpurt_module gpurt_module; /* a loaded fatbin */
typedef void *gpurt_kernel;               /* cudaKernel_t */

typedef struct gpurt_attrs {
    int registers;
    int64_t static_smem;
    int64_t local_bytes; /* stack per thread */
    int max_threads;     /* per block, with these registers */
} gpurt_attrs;

/* False when gpulint was built without the CUDA runtime. */
bool gpurt_available(void);

/* Makes device `ordinal` current and creates its context. */
bool gpurt_open(int ordinal, char *err, size_t errlen);
/* Whole-device reset of what this process holds (not of the GPU). */
void gpurt_close(void);

bool gpurt_load(const char *path, gpurt_module **out, char *err, size_t errlen);
void gpurt_unload(gpurt_module *m);
bool gpurt_kernel_get(gpurt_module *m, const char *name, gpurt_kernel *out, char *err,
                      size_t errlen);
bool gpurt_kernel_attrs(gpurt_kernel k, gpurt_attrs *out, char *err, size_t errlen);
/* cudaFuncAttributeMaxDynamicSharedMemorySize. */
bool gpurt_set_max_dynamic_smem(gpurt_kernel k, int64_t bytes, char *err, size_t errlen);
/* cudaFuncAttributePreferredSharedMemoryCarveout (0..100). */
bool gpurt_set_carveout(gpurt_kernel k, int percent, char *err, size_t errlen);
bool gpurt_occupancy(gpurt_kernel k, int block, int64_t dynamic_smem, int *blocks, char *err,
                     size_t errlen);
/* Thread-block clusters (compute capability 9.0 on), 1-D clusters of
 * `cluster` blocks: cudaFuncAttributeNonPortableClusterSizeAllowed, the
 * runtime's cudaOccupancyMaxActiveClusters, and a cluster launch
 * (cudaLaunchKernelExC) that waits for the kernel. */
bool gpurt_set_nonportable_cluster(gpurt_kernel k, bool allowed, char *err, size_t errlen);
bool gpurt_cluster_occupancy(gpurt_kernel k, int block, int64_t dynamic_smem, int cluster,
                             int *clusters, char *err, size_t errlen);
bool gpurt_launch_clusters(gpurt_kernel k, int grid, int block, int64_t dynamic_smem, int cluster,
                           void **args, char *err, size_t errlen);
/* cudaLimitMaxL2FetchGranularity: 0..128 bytes. */
bool gpurt_set_l2_fetch_granularity(int bytes, char *err, size_t errlen);

bool gpurt_alloc(void **ptr, size_t bytes, char *err, size_t errlen);
void gpurt_free(void *ptr);
bool gpurt_memset(void *ptr, int value, size_t bytes, char *err, size_t errlen);
bool gpurt_to_device(void *dst, const void *src, size_t bytes, char *err, size_t errlen);
bool gpurt_to_host(void *dst, const void *src, size_t bytes, char *err, size_t errlen);
bool gpurt_device_copy(void *dst, const void *src, size_t bytes, char *err, size_t errlen);

/* Launches and waits; *ms (when not NULL) is the kernel's time between two
 * events recorded around it. */
bool gpurt_launch(gpurt_kernel k, const int grid[3], const int block[3], int64_t dynamic_smem,
                  void **args, double *ms, char *err, size_t errlen);

/* Free and total device memory in bytes. */
bool gpurt_mem_info(size_t *free_bytes, size_t *total_bytes, char *err, size_t errlen);

#endif
