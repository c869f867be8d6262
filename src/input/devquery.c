/* devquery: cudart device properties into gpulint's model structures. */
#include "input/devquery.h"

#include <stdio.h>
#include <string.h>

#include "config.h"

#if GPULINT_HAVE_CUDART
#include <cuda_runtime_api.h>

static int attr(enum cudaDeviceAttr a, int dev)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess)
        return 0;
    return v;
}

static void fill(devquery_device *d, int dev, const struct cudaDeviceProp *p, const gpu_arch *base)
{
    gpu_arch *a = &d->arch;
    if (base) {
        *a = *base;
    } else {
        memset(a, 0, sizeof *a);
        /* Without a model, assume the rules every cc since 5.0 shares in
         * cuda_occupancy.h; the caller warns that the cc is unknown. */
        a->reg_alloc_unit = 256;
        a->sub_partitions = 4;
        a->smem_alloc_unit = 128;
        a->max_regs_per_thread = 255;
        snprintf(a->family, sizeof a->family, "unknown");
    }
    snprintf(a->name, sizeof a->name, "sm_%d%d", p->major, p->minor);
    a->cc_major = p->major;
    a->cc_minor = p->minor;
    a->warp_size = p->warpSize;
    a->max_threads_per_block = p->maxThreadsPerBlock;
    a->max_threads_per_sm = p->maxThreadsPerMultiProcessor;
    a->max_blocks_per_sm = p->maxBlocksPerMultiProcessor;
    for (int i = 0; i < 3; i++) {
        a->max_block_dim[i] = p->maxThreadsDim[i];
        a->max_grid_dim[i] = p->maxGridSize[i];
    }
    a->regs_per_sm = p->regsPerMultiprocessor;
    a->regs_per_block = p->regsPerBlock;
    a->smem_per_sm = (int64_t)p->sharedMemPerMultiprocessor;
    a->smem_per_block = (int64_t)p->sharedMemPerBlock;
    a->smem_per_block_optin = (int64_t)p->sharedMemPerBlockOptin;
    a->smem_reserved_per_block = (int64_t)p->reservedSharedMemPerBlock;
    a->hypothetical = false;

    gpu_product *g = &d->product;
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "device%d", dev);
    snprintf(g->name, sizeof g->name, "%.*s", (int)sizeof g->name - 1, p->name);
    snprintf(g->arch, sizeof g->arch, "%s", a->name);
    g->sm_count = p->multiProcessorCount;
    g->boost_clock_mhz = attr(cudaDevAttrClockRate, dev) / 1000.0;
    g->mem_clock_mhz = attr(cudaDevAttrMemoryClockRate, dev) / 1000.0;
    g->mem_bus_width_bits = attr(cudaDevAttrGlobalMemoryBusWidth, dev);
    g->mem_data_rate = 2;
    g->l2_bytes = attr(cudaDevAttrL2CacheSize, dev);
    snprintf(d->pci_bus_id, sizeof d->pci_bus_id, "%04x:%02x:%02x", p->pciDomainID, p->pciBusID,
             p->pciDeviceID);
}

devquery_status devquery_all(devquery_device *out, int max, int *n,
                             const gpu_arch *(*base)(int major, int minor, void *ctx), void *ctx,
                             char *message, int message_len)
{
    *n = 0;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        if (e == cudaErrorNoDevice) {
            snprintf(message, (size_t)message_len, "no CUDA device found");
            return DEVQ_NO_DEVICE;
        }
        if (e == cudaErrorInsufficientDriver || e == cudaErrorCallRequiresNewerDriver) {
            /* cudart reports a missing libcuda.so.1 the same way as an old one. */
            snprintf(message, (size_t)message_len,
                     "no CUDA driver, or one older than CUDA runtime %d.%d", CUDART_VERSION / 1000,
                     CUDART_VERSION % 1000 / 10);
            return DEVQ_NO_DRIVER;
        }
        snprintf(message, (size_t)message_len, "%s", cudaGetErrorString(e));
        return DEVQ_NO_DEVICE;
    }
    if (count == 0) {
        snprintf(message, (size_t)message_len, "no CUDA device found");
        return DEVQ_NO_DEVICE;
    }
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    for (int dev = 0; dev < count && *n < max; dev++) {
        struct cudaDeviceProp p;
        e = cudaGetDeviceProperties(&p, dev);
        if (e != cudaSuccess) {
            snprintf(message, (size_t)message_len, "device %d: %s", dev, cudaGetErrorString(e));
            return DEVQ_ERROR;
        }
        devquery_device *d = &out[(*n)++];
        memset(d, 0, sizeof *d);
        d->ordinal = dev;
        fill(d, dev, &p, base ? base(p.major, p.minor, ctx) : NULL);
        snprintf(d->driver, sizeof d->driver, "%d.%d", drv / 1000, (drv % 1000) / 10);
        snprintf(d->runtime, sizeof d->runtime, "%d.%d", rt / 1000, (rt % 1000) / 10);
    }
    return DEVQ_OK;
}

bool devquery_runtime_version(char *buf, size_t n)
{
    snprintf(buf, n, "%d.%d", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    return true;
}

#else

devquery_status devquery_all(devquery_device *out, int max, int *n,
                             const gpu_arch *(*base)(int major, int minor, void *ctx), void *ctx,
                             char *message, int message_len)
{
    (void)out;
    (void)max;
    (void)base;
    (void)ctx;
    *n = 0;
    snprintf(message, (size_t)message_len, "gpulint was built without the CUDA runtime");
    return DEVQ_NO_RUNTIME;
}

bool devquery_runtime_version(char *buf, size_t n)
{
    (void)buf;
    (void)n;
    return false;
}

#endif
