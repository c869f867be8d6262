// gpu_common: what the GPU suite's programs share: the CUDA error check,
// the probe kernel whose registers, static shared memory and named
// barriers the sweeps vary, and the start every program makes (skip
// without a GPU, load the bundled models, query the device).
#ifndef GPULINT_TESTS_GPU_COMMON_H
#define GPULINT_TESTS_GPU_COMMON_H

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

extern "C" {
#include "input/devquery.h"
#include "model/model_load.h"
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
                         cudaGetErrorString(e_));                                                  \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

// NACC live accumulators push the register count up; SMEM bytes of static
// shared memory; BARS named barriers (ids 0..BARS-1). The loop bound comes
// from a parameter so nothing folds away.
template <int NACC, int SMEM, int BARS> __global__ void probe(float *out, const float *in, int n)
{
    constexpr int words = SMEM > 0 ? SMEM / 4 : 1;
    __shared__ float tile[words];
    float acc[NACC];
#pragma unroll
    for (int i = 0; i < NACC; i++)
        acc[i] = in[(threadIdx.x + i) % 64];
    for (int k = 0; k < n; k++) {
#pragma unroll
        for (int i = 0; i < NACC; i++)
            acc[i] = acc[i] * acc[(i + 1) % NACC] + in[(k + i) & 63];
    }
    if (SMEM > 0) {
        tile[threadIdx.x % words] = acc[0];
        __syncthreads();
        acc[0] += tile[(threadIdx.x + 1) % words];
    }
    if (BARS > 1) {
        // Named barriers beyond 0; the count must be a multiple of 32 and
        // cover the block, so use the full block.
#pragma unroll
        for (int b = 1; b < BARS; b++)
            asm volatile("bar.sync %0;" ::"r"(b));
    }
    float s = 0;
#pragma unroll
    for (int i = 0; i < NACC; i++)
        s += acc[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static const gpu_arch *gpu_base_for(int major, int minor, void *ctx)
{
    return model_find_cc((const model_db *)ctx, major, minor);
}

// 0: *db loaded and *dev queried, its line printed; 77 (meson's SKIP): no
// GPU, "skipped: no GPU" printed so CI shows it; 1: an error, said.
static int gpu_start(model_db *db, devquery_device *dev)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        std::printf("skipped: no GPU\n");
        return 77;
    }
    model_load_error err;
    if (!model_db_load(model_default_dir(), db, &err)) {
        std::fprintf(stderr, "%s:%d: %s\n", err.path, err.err.line, err.err.message);
        return 1;
    }
    int n = 0;
    char msg[256];
    if (devquery_all(dev, 1, &n, gpu_base_for, db, msg, sizeof msg) != DEVQ_OK || n == 0) {
        std::fprintf(stderr, "device query failed: %s\n", msg);
        return 1;
    }
    std::printf("device: %s, cc %d.%d, %d SMs, driver %s, runtime %s\n", dev->product.name,
                dev->arch.cc_major, dev->arch.cc_minor, dev->product.sm_count, dev->driver,
                dev->runtime);
    return 0;
}

#endif
