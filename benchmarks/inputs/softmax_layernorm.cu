// Benchmark input: row-wise softmax and layer norm as in transformer
// inference code: templated on the element type, the row length handled per
// thread and the block size; warp shuffles through cooperative groups, fp16
// and fp32 variants, one block per row or one warp per row.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

template <typename T> __device__ inline float to_f(T x) { return static_cast<float>(x); }
template <> __device__ inline float to_f<__half>(__half x) { return __half2float(x); }
template <typename T> __device__ inline T from_f(float x) { return static_cast<T>(x); }
template <> __device__ inline __half from_f<__half>(float x) { return __float2half(x); }

// One warp per row; each lane keeps COLS / 32 values in registers.
template <typename T, int COLS>
__global__ void softmax_warp(const T *__restrict__ in, T *__restrict__ out, int rows)
{
    static_assert(COLS % 32 == 0, "COLS must be a multiple of the warp size");
    constexpr int PER_LANE = COLS / 32;
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    int row = blockIdx.x * (blockDim.x / 32) + warp.meta_group_rank();
    if (row >= rows)
        return;
    float v[PER_LANE];
    float mx = -INFINITY;
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
        v[i] = to_f(in[row * COLS + i * 32 + warp.thread_rank()]);
        mx = fmaxf(mx, v[i]);
    }
    mx = cg::reduce(warp, mx, cg::greater<float>());
    float sum = 0.f;
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
        v[i] = __expf(v[i] - mx);
        sum += v[i];
    }
    sum = cg::reduce(warp, sum, cg::plus<float>());
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i)
        out[row * COLS + i * 32 + warp.thread_rank()] = from_f<T>(v[i] / sum);
}

// One block per row, two-pass mean/variance through shared memory.
template <typename T, int BLOCK>
__global__ void layernorm_block(const T *__restrict__ in, T *__restrict__ out,
                                const float *__restrict__ gamma, const float *__restrict__ beta,
                                int cols, float eps)
{
    __shared__ float partial[BLOCK / 32];
    __shared__ float stat;
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    const T *x = in + blockIdx.x * cols;
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += BLOCK)
        s += to_f(x[c]);
    s = cg::reduce(warp, s, cg::plus<float>());
    if (warp.thread_rank() == 0)
        partial[warp.meta_group_rank()] = s;
    block.sync();
    if (threadIdx.x < 32) {
        float t = threadIdx.x < BLOCK / 32 ? partial[threadIdx.x] : 0.f;
        t = cg::reduce(warp, t, cg::plus<float>());
        if (threadIdx.x == 0)
            stat = t / cols;
    }
    block.sync();
    float mean = stat, q = 0.f;
    for (int c = threadIdx.x; c < cols; c += BLOCK) {
        float d = to_f(x[c]) - mean;
        q += d * d;
    }
    q = cg::reduce(warp, q, cg::plus<float>());
    block.sync();
    if (warp.thread_rank() == 0)
        partial[warp.meta_group_rank()] = q;
    block.sync();
    if (threadIdx.x < 32) {
        float t = threadIdx.x < BLOCK / 32 ? partial[threadIdx.x] : 0.f;
        t = cg::reduce(warp, t, cg::plus<float>());
        if (threadIdx.x == 0)
            stat = rsqrtf(t / cols + eps);
    }
    block.sync();
    float inv = stat;
    for (int c = threadIdx.x; c < cols; c += BLOCK)
        out[blockIdx.x * cols + c] = from_f<T>((to_f(x[c]) - mean) * inv * gamma[c] + beta[c]);
}

void run_all(const float *xf, float *yf, const __half *xh, __half *yh, const float *g,
             const float *b, int rows, int cols, cudaStream_t s)
{
    softmax_warp<float, 128><<<(rows + 7) / 8, 256, 0, s>>>(xf, yf, rows);
    softmax_warp<float, 1024><<<(rows + 3) / 4, 128, 0, s>>>(xf, yf, rows);
    softmax_warp<__half, 256><<<(rows + 7) / 8, 256, 0, s>>>(xh, yh, rows);
    softmax_warp<__half, 2048><<<(rows + 1) / 2, 64, 0, s>>>(xh, yh, rows);
    layernorm_block<float, 256><<<rows, 256, 0, s>>>(xf, yf, g, b, cols, 1e-5f);
    layernorm_block<float, 1024><<<rows, 1024, 0, s>>>(xf, yf, g, b, cols, 1e-5f);
    layernorm_block<__half, 512><<<rows, 512, 0, s>>>(xh, yh, g, b, cols, 1e-5f);
}
