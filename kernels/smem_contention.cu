// smem_contention: conflict-free shared-memory loads and stores, alone and
// with global loads in flight on the same SM, to separate what the access
// pattern costs (gpulint's bank model: 1 wavefront per request here) from
// what the L1TEX data stage adds when the same SRAM also takes cache fills.
//
//   smem_contention [config]        config: all (default) or one name below
//
// Every shared access is a warp-wide, 32-bit, stride-1 access: the bank model
// says 1 wavefront per instruction for all of them. Nsight Compute's hardware
// counter (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st) and its SASS
// counter (smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld/st) are
// recorded for each launch by scripts/ncu-sass.sh; the results are in
// tests/data/ncu/RESULTS.md.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                          \
                    cudaGetErrorString(err_));                                                     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#define THREADS 256
#define ITERS 256

// Shared stores only: no global traffic until the single result store.
// volatile keeps every store (one STS per iteration).
__global__ void stsAlone(float *out)
{
    __shared__ float s[THREADS];
    volatile float *vs = s;
    float v = threadIdx.x;
    for (int i = 0; i < ITERS; ++i) {
        vs[threadIdx.x] = v;
        v = v * 1.0001f + 1.0f;
    }
    out[blockIdx.x * THREADS + threadIdx.x] = vs[threadIdx.x];
}

// Shared loads only, after one fill.
__global__ void ldsAlone(float *out)
{
    __shared__ float s[THREADS];
    volatile float *vs = s;
    vs[threadIdx.x] = threadIdx.x;
    __syncwarp();
    float v = 0.0f;
    for (int i = 0; i < ITERS; ++i)
        v += vs[threadIdx.x];
    out[blockIdx.x * THREADS + threadIdx.x] = v;
}

// Each iteration loads one float from global memory (coalesced, 4 sectors per
// warp) and stores the running sum to shared memory, like a tiled kernel's
// global-to-shared copy. `mask` selects the working set: a large one misses
// L1 on every load (the fill data is written into L1's SRAM), a small one
// hits after the first pass.
// With cg set the loads are ld.global.cg (__ldcg): cached in L2 only, so
// the data they return is not written into L1's SRAM as a cache line.
template <bool cg> __global__ void stsWithLoads(const float *in, size_t mask, float *out)
{
    __shared__ float s[THREADS];
    volatile float *vs = s;
    size_t idx = (size_t)blockIdx.x * THREADS + threadIdx.x;
    size_t stride = (size_t)gridDim.x * THREADS;
    float v = 0.0f;
    for (int i = 0; i < ITERS; ++i) {
        const float *p = in + ((idx + i * stride) & mask);
        v += cg ? __ldcg(p) : *p;
        vs[threadIdx.x] = v;
    }
    out[idx] = vs[threadIdx.x];
}

// The same with shared loads instead of stores.
__global__ void ldsWithLoads(const float *in, size_t mask, float *out)
{
    __shared__ float s[THREADS];
    volatile float *vs = s;
    vs[threadIdx.x] = threadIdx.x;
    __syncwarp();
    size_t idx = (size_t)blockIdx.x * THREADS + threadIdx.x;
    size_t stride = (size_t)gridDim.x * THREADS;
    float v = 0.0f;
    for (int i = 0; i < ITERS; ++i)
        v += in[(idx + i * stride) & mask] * vs[threadIdx.x];
    out[idx] = v;
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : "all";
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    // 8 blocks of 256 threads per SM: every SM runs 64 warps at once.
    const int full = sms * 8;
    const size_t big = (size_t)1 << 28; // 1 GiB of floats: every load misses L1
    const size_t small = (size_t)1 << 12; // 16 KiB: hits in L1 after the first pass
    float *in, *out;
    CHECK(cudaMalloc(&in, big * sizeof(float)));
    CHECK(cudaMalloc(&out, (size_t)full * THREADS * sizeof(float)));
    CHECK(cudaMemset(in, 0, big * sizeof(float)));

    struct {
        const char *name;
        int kind; // 0 stsAlone, 1 ldsAlone, 2 stsWithLoads, 3 ldsWithLoads, 4 stsWithLoads<cg>
        int blocks;
        size_t mask;
    } runs[] = {
        {"sts_alone_1block", 0, 1, 0},
        {"sts_alone_full", 0, full, 0},
        {"lds_alone_full", 1, full, 0},
        {"sts_loads_1block_miss", 2, 1, big - 1},
        {"sts_loads_full_miss", 2, full, big - 1},
        {"sts_loads_full_hit", 2, full, small - 1},
        {"lds_loads_1block_miss", 3, 1, big - 1},
        {"lds_loads_full_miss", 3, full, big - 1},
        {"lds_loads_full_hit", 3, full, small - 1},
        {"sts_loadscg_full_miss", 4, full, big - 1},
    };
    int ran = 0;
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; ++r) {
        if (strcmp(only, "all") != 0 && strcmp(only, runs[r].name) != 0)
            continue;
        switch (runs[r].kind) {
        case 0: stsAlone<<<runs[r].blocks, THREADS>>>(out); break;
        case 1: ldsAlone<<<runs[r].blocks, THREADS>>>(out); break;
        case 2: stsWithLoads<false><<<runs[r].blocks, THREADS>>>(in, runs[r].mask, out); break;
        case 4: stsWithLoads<true><<<runs[r].blocks, THREADS>>>(in, runs[r].mask, out); break;
        default: ldsWithLoads<<<runs[r].blocks, THREADS>>>(in, runs[r].mask, out); break;
        }
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        printf("%s: %d blocks x %d threads, %d shared %s per warp\n", runs[r].name,
               runs[r].blocks, THREADS, ITERS, runs[r].kind == 1 || runs[r].kind == 3 ? "loads" : "stores");
        ++ran;
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    if (!ran) {
        fprintf(stderr, "smem_contention: unknown config '%s'\n", only);
        return 2;
    }
    return 0;
}
