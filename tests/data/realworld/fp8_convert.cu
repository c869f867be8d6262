// Quantisation to FP8 (e4m3) with a per-block absolute-maximum scale, and
// back: the conversions of cuda_fp8.h on sm_89 and later.
#include <cuda_fp8.h>

__global__ void quantize_e4m3(const float *x, __nv_fp8_e4m3 *q, float *scales, int n)
{
    __shared__ float amax[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? fabsf(x[i]) : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    if (threadIdx.x % 32 == 0)
        amax[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < blockDim.x / 32 ? amax[threadIdx.x] : 0.0f;
        for (int o = 16; o > 0; o >>= 1)
            v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
        if (threadIdx.x == 0)
            amax[0] = v > 0.0f ? 448.0f / v : 1.0f;
    }
    __syncthreads();
    float scale = amax[0];
    if (i < n)
        q[i] = __nv_fp8_e4m3(x[i] * scale);
    if (threadIdx.x == 0)
        scales[blockIdx.x] = 1.0f / scale;
}

__global__ void dequantize_e4m3(const __nv_fp8_e4m3 *q, const float *scales, float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = float(q[i]) * scales[i / 256];
}
