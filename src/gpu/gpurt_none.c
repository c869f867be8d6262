/* gpurt_none: a gpulint built without the CUDA runtime can plan and predict
 * (`verify --dry-run`) but not run; every call says so. */
#include <stdio.h>

#include "gpu/gpurt.h"

#define NO_RUNTIME(err, errlen) snprintf(err, errlen, "gpulint was built without the CUDA runtime")

bool gpurt_available(void)
{
    return false;
}

bool gpurt_open(int ordinal, char *err, size_t errlen)
{
    (void)ordinal;
    NO_RUNTIME(err, errlen);
    return false;
}

void gpurt_close(void) {}

bool gpurt_load(const char *path, gpurt_module **out, char *err, size_t errlen)
{
    (void)path;
    (void)out;
    NO_RUNTIME(err, errlen);
    return false;
}

void gpurt_unload(gpurt_module *m)
{
    (void)m;
}

bool gpurt_kernel_get(gpurt_module *m, const char *name, gpurt_kernel *out, char *err,
                      size_t errlen)
{
    (void)m;
    (void)name;
    (void)out;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_kernel_attrs(gpurt_kernel k, gpurt_attrs *out, char *err, size_t errlen)
{
    (void)k;
    (void)out;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_set_max_dynamic_smem(gpurt_kernel k, int64_t bytes, char *err, size_t errlen)
{
    (void)k;
    (void)bytes;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_set_carveout(gpurt_kernel k, int percent, char *err, size_t errlen)
{
    (void)k;
    (void)percent;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_occupancy(gpurt_kernel k, int block, int64_t dynamic_smem, int *blocks, char *err,
                     size_t errlen)
{
    (void)k;
    (void)block;
    (void)dynamic_smem;
    (void)blocks;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_set_nonportable_cluster(gpurt_kernel k, bool allowed, char *err, size_t errlen)
{
    (void)k;
    (void)allowed;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_cluster_occupancy(gpurt_kernel k, int block, int64_t dynamic_smem, int cluster,
                             int *clusters, char *err, size_t errlen)
{
    (void)k;
    (void)block;
    (void)dynamic_smem;
    (void)cluster;
    (void)clusters;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_launch_clusters(gpurt_kernel k, int grid, int block, int64_t dynamic_smem, int cluster,
                           void **args, char *err, size_t errlen)
{
    (void)k;
    (void)grid;
    (void)block;
    (void)dynamic_smem;
    (void)cluster;
    (void)args;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_set_l2_fetch_granularity(int bytes, char *err, size_t errlen)
{
    (void)bytes;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_alloc(void **ptr, size_t bytes, char *err, size_t errlen)
{
    (void)ptr;
    (void)bytes;
    NO_RUNTIME(err, errlen);
    return false;
}

void gpurt_free(void *ptr)
{
    (void)ptr;
}

bool gpurt_memset(void *ptr, int value, size_t bytes, char *err, size_t errlen)
{
    (void)ptr;
    (void)value;
    (void)bytes;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_to_device(void *dst, const void *src, size_t bytes, char *err, size_t errlen)
{
    (void)dst;
    (void)src;
    (void)bytes;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_to_host(void *dst, const void *src, size_t bytes, char *err, size_t errlen)
{
    (void)dst;
    (void)src;
    (void)bytes;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_device_copy(void *dst, const void *src, size_t bytes, char *err, size_t errlen)
{
    (void)dst;
    (void)src;
    (void)bytes;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_launch(gpurt_kernel k, const int grid[3], const int block[3], int64_t dynamic_smem,
                  void **args, double *ms, char *err, size_t errlen)
{
    (void)k;
    (void)grid;
    (void)block;
    (void)dynamic_smem;
    (void)args;
    (void)ms;
    NO_RUNTIME(err, errlen);
    return false;
}

bool gpurt_mem_info(size_t *free_bytes, size_t *total_bytes, char *err, size_t errlen)
{
    (void)free_bytes;
    (void)total_bytes;
    NO_RUNTIME(err, errlen);
    return false;
}
