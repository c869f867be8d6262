/* gpurt: cudart calls behind `gpulint verify` (see gpurt.h for why cudart). */
#include "gpu/gpurt.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

struct gpurt_module {
    cudaLibrary_t lib;
};

static bool ok(cudaError_t e, const char *what, char *err, size_t errlen)
{
    if (e == cudaSuccess)
        return true;
    snprintf(err, errlen, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
    return false;
}

bool gpurt_available(void)
{
    return true;
}

bool gpurt_open(int ordinal, char *err, size_t errlen)
{
    if (!ok(cudaSetDevice(ordinal), "cudaSetDevice", err, errlen))
        return false;
    return ok(cudaFree(NULL), "creating the CUDA context", err, errlen);
}

void gpurt_close(void)
{
    cudaDeviceSynchronize();
}

bool gpurt_load(const char *path, gpurt_module **out, char *err, size_t errlen)
{
    gpurt_module *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    if (!ok(cudaLibraryLoadFromFile(&m->lib, path, NULL, NULL, 0, NULL, NULL, 0),
            "cudaLibraryLoadFromFile", err, errlen)) {
        free(m);
        return false;
    }
    *out = m;
    return true;
}

void gpurt_unload(gpurt_module *m)
{
    if (!m)
        return;
    cudaLibraryUnload(m->lib);
    free(m);
}

bool gpurt_kernel_get(gpurt_module *m, const char *name, gpurt_kernel *out, char *err,
                      size_t errlen)
{
    cudaKernel_t k;
    char what[160];
    snprintf(what, sizeof what, "kernel '%s'", name);
    if (!ok(cudaLibraryGetKernel(&k, m->lib, name), what, err, errlen))
        return false;
    *out = (void *)k;
    return true;
}

bool gpurt_kernel_attrs(gpurt_kernel k, gpurt_attrs *out, char *err, size_t errlen)
{
    struct cudaFuncAttributes a;
    if (!ok(cudaFuncGetAttributes(&a, k), "cudaFuncGetAttributes", err, errlen))
        return false;
    out->registers = a.numRegs;
    out->static_smem = (int64_t)a.sharedSizeBytes;
    out->local_bytes = (int64_t)a.localSizeBytes;
    out->max_threads = a.maxThreadsPerBlock;
    return true;
}

bool gpurt_set_max_dynamic_smem(gpurt_kernel k, int64_t bytes, char *err, size_t errlen)
{
    return ok(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes),
              "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)", err, errlen);
}

bool gpurt_set_carveout(gpurt_kernel k, int percent, char *err, size_t errlen)
{
    return ok(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, percent),
              "cudaFuncSetAttribute(PreferredSharedMemoryCarveout)", err, errlen);
}

bool gpurt_occupancy(gpurt_kernel k, int block, int64_t dynamic_smem, int *blocks, char *err,
                     size_t errlen)
{
    return ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, k, block, (size_t)dynamic_smem),
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor", err, errlen);
}

bool gpurt_set_nonportable_cluster(gpurt_kernel k, bool allowed, char *err, size_t errlen)
{
    return ok(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, allowed),
              "cudaFuncSetAttribute(NonPortableClusterSizeAllowed)", err, errlen);
}

/* A launch configuration of 1-D clusters; attr is the caller's storage. */
static cudaLaunchConfig_t cluster_config(int grid, int block, int64_t dynamic_smem, int cluster,
                                         cudaLaunchAttribute *attr)
{
    cudaLaunchConfig_t cfg = {0};
    cfg.gridDim.x = (unsigned)grid;
    cfg.gridDim.y = cfg.gridDim.z = 1;
    cfg.blockDim.x = (unsigned)block;
    cfg.blockDim.y = cfg.blockDim.z = 1;
    cfg.dynamicSmemBytes = (size_t)dynamic_smem;
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = (unsigned)cluster;
    attr->val.clusterDim.y = attr->val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cfg;
}

bool gpurt_cluster_occupancy(gpurt_kernel k, int block, int64_t dynamic_smem, int cluster,
                             int *clusters, char *err, size_t errlen)
{
    cudaLaunchAttribute attr;
    /* The grid only has to be whole clusters: the answer does not depend on it. */
    cudaLaunchConfig_t cfg = cluster_config(cluster, block, dynamic_smem, cluster, &attr);
    return ok(cudaOccupancyMaxActiveClusters(clusters, (const void *)k, &cfg),
              "cudaOccupancyMaxActiveClusters", err, errlen);
}

bool gpurt_launch_clusters(gpurt_kernel k, int grid, int block, int64_t dynamic_smem, int cluster,
                           void **args, char *err, size_t errlen)
{
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t cfg = cluster_config(grid, block, dynamic_smem, cluster, &attr);
    return ok(cudaLaunchKernelExC(&cfg, (const void *)k, args), "cudaLaunchKernelEx", err,
              errlen) &&
           ok(cudaDeviceSynchronize(), "the kernel", err, errlen);
}

bool gpurt_set_l2_fetch_granularity(int bytes, char *err, size_t errlen)
{
    return ok(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, (size_t)bytes),
              "cudaDeviceSetLimit(MaxL2FetchGranularity)", err, errlen);
}

bool gpurt_alloc(void **ptr, size_t bytes, char *err, size_t errlen)
{
    char what[64];
    snprintf(what, sizeof what, "cudaMalloc(%zu bytes)", bytes);
    return ok(cudaMalloc(ptr, bytes), what, err, errlen);
}

void gpurt_free(void *ptr)
{
    if (ptr)
        cudaFree(ptr);
}

bool gpurt_memset(void *ptr, int value, size_t bytes, char *err, size_t errlen)
{
    return ok(cudaMemset(ptr, value, bytes), "cudaMemset", err, errlen);
}

bool gpurt_to_device(void *dst, const void *src, size_t bytes, char *err, size_t errlen)
{
    return ok(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device", err,
              errlen);
}

bool gpurt_to_host(void *dst, const void *src, size_t bytes, char *err, size_t errlen)
{
    return ok(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to the host", err,
              errlen);
}

bool gpurt_device_copy(void *dst, const void *src, size_t bytes, char *err, size_t errlen)
{
    return ok(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy on the device",
              err, errlen);
}

bool gpurt_launch(gpurt_kernel k, const int grid[3], const int block[3], int64_t dynamic_smem,
                  void **args, double *ms, char *err, size_t errlen)
{
    dim3 g = {(unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2]};
    dim3 b = {(unsigned)block[0], (unsigned)block[1], (unsigned)block[2]};
    cudaEvent_t start = NULL, stop = NULL;
    bool good = true;
    if (ms) {
        good = ok(cudaEventCreate(&start), "cudaEventCreate", err, errlen) &&
               ok(cudaEventCreate(&stop), "cudaEventCreate", err, errlen) &&
               ok(cudaEventRecord(start, 0), "cudaEventRecord", err, errlen);
    }
    good = good && ok(cudaLaunchKernel(k, g, b, args, (size_t)dynamic_smem, 0), "cudaLaunchKernel",
                      err, errlen);
    if (good && ms)
        good = ok(cudaEventRecord(stop, 0), "cudaEventRecord", err, errlen);
    good = good && ok(cudaDeviceSynchronize(), "the kernel", err, errlen);
    if (good && ms) {
        float t = 0;
        good = ok(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime", err, errlen);
        *ms = t;
    }
    if (start)
        cudaEventDestroy(start);
    if (stop)
        cudaEventDestroy(stop);
    return good;
}

bool gpurt_mem_info(size_t *free_bytes, size_t *total_bytes, char *err, size_t errlen)
{
    return ok(cudaMemGetInfo(free_bytes, total_bytes), "cudaMemGetInfo", err, errlen);
}
