// What a wave of short blocks costs: rf_vector_add, rf_stencil and the
// reference copies run 262,144 blocks of one element a thread in 0.23-0.24
// ms on an H200 whatever their DRAM bytes (537 or 805 MB), about 0.95 us a
// wave of 8 blocks an SM, where an unloaded DRAM round trip is 0.37 us.
// Here: blocks that only start (empty), load one word, store one word, or
// load and store, at 8, 4, 2 and 1 blocks an SM (unused dynamic shared
// memory), against a persistent grid (8 blocks an SM) that walks the same
// elements with no block to start; and loads of 1, 2 and 4 words a thread
// in flight. CUDA events at the card's clocks, then Nsight Compute. Run by
// waveprobe.sh.
#include <cstdio>

#define N (64 * 1024 * 1024)
#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e = (x);                                                                       \
        if (e != cudaSuccess) {                                                                    \
            printf("%s: %s\n", #x, cudaGetErrorString(e));                                         \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

__global__ void w_empty(const float *in, float *out) {}

__global__ void w_load(const float *in, float *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float v = in[i];
    if (v == 12345.0f) // never: the inputs are zero
        out[i] = v;
}

__global__ void w_store(const float *in, float *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

__global__ void w_copy(const float *in, float *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

// k words a thread, loaded together (k blocks' worth of elements each)
template <int K> __global__ void w_loadk(const float *in, float *out)
{
    const int i = blockIdx.x * blockDim.x * K + threadIdx.x;
    float v = 0;
#pragma unroll
    for (int j = 0; j < K; j++)
        v += in[i + j * blockDim.x];
    if (v == 12345.0f)
        out[i] = v;
}

__global__ void w_copy_persistent(const float *__restrict__ in, float *__restrict__ out)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        out[i] = in[i];
}

static float median_ms(void (*launch)(const float *, float *, size_t), const float *a, float *c,
                       size_t smem)
{
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    float ms[6];
    for (int r = 0; r < 6; r++) {
        cudaEventRecord(t0);
        launch(a, c, smem);
        cudaEventRecord(t1);
        cudaEventSynchronize(t1);
        cudaEventElapsedTime(&ms[r], t0, t1);
    }
    for (int i = 1; i < 6; i++)
        for (int j = i + 1; j < 6; j++)
            if (ms[j] < ms[i]) {
                float t = ms[i];
                ms[i] = ms[j];
                ms[j] = t;
            }
    return ms[3];
}

#define ONE(kernel)                                                                                \
    static void run_##kernel(const float *a, float *c, size_t smem)                                \
    {                                                                                              \
        kernel<<<N / 256, 256, smem>>>(a, c);                                                      \
    }
ONE(w_empty)
ONE(w_load)
ONE(w_store)
ONE(w_copy)
static void run_load2(const float *a, float *c, size_t smem)
{
    w_loadk<2><<<N / 512, 256, smem>>>(a, c);
}
static void run_load4(const float *a, float *c, size_t smem)
{
    w_loadk<4><<<N / 1024, 256, smem>>>(a, c);
}
static void run_persistent(const float *a, float *c, size_t smem)
{
    w_copy_persistent<<<132 * 8, 256, smem>>>(a, c);
}

int main()
{
    float *a, *c;
    CHECK(cudaMalloc(&a, (size_t)N * 4));
    CHECK(cudaMalloc(&c, (size_t)N * 4));
    CHECK(cudaMemset(a, 0, (size_t)N * 4));
    void (*runs[])(const float *, float *, size_t) = {run_w_empty, run_w_load, run_w_store,
                                                      run_w_copy,  run_load2,  run_load4,
                                                      run_persistent};
    const void *kernels[] = {(const void *)w_empty,      (const void *)w_load,
                             (const void *)w_store,      (const void *)w_copy,
                             (const void *)w_loadk<2>,   (const void *)w_loadk<4>,
                             (const void *)w_copy_persistent};
    const char *names[] = {"empty", "load", "store", "copy", "load2", "load4", "copy_persistent"};
    for (int k = 0; k < 7; k++) {
        CHECK(cudaFuncSetAttribute(kernels[k], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   200 * 1024));
        for (int want = 8; want >= 1; want /= 2) {
            size_t smem = 0;
            int got = 0;
            for (size_t d = 0; d <= 200 * 1024; d += 1024) {
                CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&got, kernels[k], 256, d));
                if (got <= want) {
                    smem = d;
                    break;
                }
            }
            printf("%s %d blocks/SM (%zu B dynamic smem): %.4f ms\n", names[k], got, smem,
                   median_ms(runs[k], a, c, smem));
            if (k == 6)
                break; // the persistent grid: 8 an SM only
        }
    }
    CHECK(cudaDeviceSynchronize());
    return 0;
}
