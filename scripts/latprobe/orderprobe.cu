// Straight-line loop bodies with no slow-path sequence, for the chain
// term's question: does ptxas issue a block in the PTX's order, or fill
// one chain's waits with the next independent instructions? One warp (and
// 8) runs 4,096 passes between two clock64 reads. Variants:
//   0  s = s * 0.999f + j * 1e-7f   (cvt, mul, fma; NVVM unrolls by 4)
//   1  two accumulators, one through a square, one through a product
//   2  a mixing round of eight 32-bit words: w[i] = rotl(w[i] ^ w[i+1], r) + k
//      (each word two words of the round before: eight chains side by side)
//   3  Horner's rule on four independent values (four chains of FMAs)
// Prints "variant warps clocks_per_pass".
#include <cstdio>
#include <cstdint>

__device__ __forceinline__ uint32_t rotl(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

template <int M>
__global__ void order(const float *in, float *out, int n, long long *cyc)
{
    float s0 = in[threadIdx.x], s1 = s0 * 0.5f, s2 = s0 + 1.f, s3 = s0 - 1.f;
    uint32_t w0 = threadIdx.x, w1 = w0 * 3u, w2 = w0 * 5u, w3 = w0 * 7u;
    uint32_t w4 = w0 * 11u, w5 = w0 * 13u, w6 = w0 * 17u, w7 = w0 * 19u;
    long long t0 = clock64();
    if (M == 2) {
#pragma unroll 1
        for (int j = 0; j < n; j++) {
            uint32_t k = (uint32_t)j;
            uint32_t a0 = rotl(w0 ^ w1, 3) + k, a1 = rotl(w1 ^ w2, 5) + k;
            uint32_t a2 = rotl(w2 ^ w3, 7) + k, a3 = rotl(w3 ^ w4, 11) + k;
            uint32_t a4 = rotl(w4 ^ w5, 13) + k, a5 = rotl(w5 ^ w6, 17) + k;
            uint32_t a6 = rotl(w6 ^ w7, 19) + k, a7 = rotl(w7 ^ w0, 23) + k;
            w0 = a0, w1 = a1, w2 = a2, w3 = a3, w4 = a4, w5 = a5, w6 = a6, w7 = a7;
        }
    } else if (M == 3) {
#pragma unroll 1
        for (int j = 0; j < n; j++) {
            float x = j * 1e-6f;
            s0 = ((s0 * x + 0.3f) * x + 0.2f) * x + 0.1f;
            s1 = ((s1 * x + 0.3f) * x + 0.2f) * x + 0.1f;
            s2 = ((s2 * x + 0.3f) * x + 0.2f) * x + 0.1f;
            s3 = ((s3 * x + 0.3f) * x + 0.2f) * x + 0.1f;
        }
    } else {
        for (int j = 0; j < n; j++) {
            if (M == 0) {
                s0 = s0 * 0.999f + j * 1e-7f;
            } else {
                float x = j * 1e-7f;
                s0 = s0 * 0.999f + x * x;
                s1 = s1 * s0 + x;
            }
        }
    }
    long long t1 = clock64();
    out[blockIdx.x * blockDim.x + threadIdx.x] =
        s0 + s1 + s2 + s3 + (float)(w0 ^ w1 ^ w2 ^ w3 ^ w4 ^ w5 ^ w6 ^ w7);
    if (threadIdx.x == 0)
        cyc[0] = t1 - t0;
}

template <int M>
static void run(const float *in, float *out, int n, long long *cyc)
{
    for (int warps = 1; warps <= 8; warps *= 8) {
        long long best = -1, h;
        for (int rep = 0; rep < 3; rep++) {
            order<M><<<1, 32 * warps>>>(in, out, n, cyc);
            cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost);
            if (best < 0 || h < best)
                best = h;
        }
        printf("%d %d %.1f\n", M, warps, (double)best / n);
    }
}

int main()
{
    const int n = 4096;
    float *in, *out;
    long long *cyc;
    cudaMalloc(&in, 1024 * sizeof(float));
    cudaMalloc(&out, 1024 * sizeof(float));
    cudaMalloc(&cyc, sizeof(long long));
    cudaMemset(in, 0, 1024 * sizeof(float));
    run<0>(in, out, n, cyc);
    run<1>(in, out, n, cyc);
    run<2>(in, out, n, cyc);
    run<3>(in, out, n, cyc);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
