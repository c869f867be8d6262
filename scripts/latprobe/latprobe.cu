// The latency of one PTX instruction on the GPU at hand: one warp runs a
// chain of K dependent copies between two clock64() reads, K = 16 and 48;
// the difference over 32 is one copy's latency in SM clocks (latgen.py). A
// pointer chase through shared memory and through global memory that L1
// holds give the loads' latency the same way. Prints "name cycles16
// cycles48 per_copy" per probe, the best of five runs of each.
#include <cstdint>
#include <cstdio>

#include "ops.h"

static long long *d_cyc;

template <typename T>
static double timed(void (*k)(const T *, T *, long long *), const T *d, T *o)
{
    long long best = -1;
    for (int rep = 0; rep < 5; rep++) {
        long long c = 0;
        k<<<1, 32>>>(d, o, d_cyc);
        cudaMemcpy(&c, d_cyc, sizeof c, cudaMemcpyDeviceToHost);
        if (best < 0 || c < best)
            best = c;
    }
    return (double)best;
}

template <typename T>
static void run(const char *name, void (*k16)(const T *, T *, long long *),
                void (*k48)(const T *, T *, long long *), T a, T b)
{
    T h[2] = {a, b}, *d, *o;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&o, 32 * sizeof(T));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    double c16 = timed(k16, d, o), c48 = timed(k48, d, o);
    printf("%s %.0f %.0f %.2f\n", name, c16, c48, (c48 - c16) / 32);
    cudaFree(d);
    cudaFree(o);
}

template <int K> __global__ void chase_shared(const unsigned *in, unsigned *out, long long *cyc)
{
    __shared__ unsigned s[64];
    /* each word holds its own address: the chase stays put */
    unsigned x = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]) + in[threadIdx.x];
    s[threadIdx.x] = x;
    __syncthreads();
    long long t0 = clock64();
#pragma unroll
    for (int i = 0; i < K; i++)
        asm volatile("ld.shared.u32 %0, [%0];" : "+r"(x));
    long long t1 = clock64();
    out[threadIdx.x] = x;
    if (threadIdx.x == 0)
        cyc[0] = t1 - t0;
}

/* M: 0 ld.global.ca, 1 ld.global.nc (the read-only path __restrict__
 * const pointers and __ldg take), 2 plain ld.global */
template <int K, int M>
__global__ void chase_global(const unsigned long long *in, unsigned long long *out, long long *cyc)
{
    unsigned long long x = (unsigned long long)&in[threadIdx.x];
    /* once through, so the chase below hits L1 */
    if (M == 0)
        asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(x));
    else if (M == 1)
        asm volatile("ld.global.nc.u64 %0, [%0];" : "+l"(x));
    else
        asm volatile("ld.global.u64 %0, [%0];" : "+l"(x));
    x = (unsigned long long)&in[threadIdx.x];
    long long t0 = clock64();
#pragma unroll
    for (int i = 0; i < K; i++) {
        if (M == 0)
            asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(x));
        else if (M == 1)
            asm volatile("ld.global.nc.u64 %0, [%0];" : "+l"(x));
        else
            asm volatile("ld.global.u64 %0, [%0];" : "+l"(x));
    }
    long long t1 = clock64();
    out[threadIdx.x] = x;
    if (threadIdx.x == 0)
        cyc[0] = t1 - t0;
}

int main()
{
    cudaMalloc(&d_cyc, sizeof(long long));
#define RUN(T, op, a, b) run<T>(#op, l_16_##op, l_48_##op, (T)(a), (T)(b));
#include "runs.h"
    {
        unsigned *d, *o, h[64] = {0};
        cudaMalloc(&d, 64 * sizeof *d);
        cudaMalloc(&o, 64 * sizeof *o);
        cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
        double c16 = timed(chase_shared<16>, (const unsigned *)d, o);
        double c48 = timed(chase_shared<48>, (const unsigned *)d, o);
        printf("ld_shared %.0f %.0f %.2f\n", c16, c48, (c48 - c16) / 32);
        cudaFree(d);
        cudaFree(o);
    }
    {
        unsigned long long *d, *o, h[32];
        cudaMalloc(&d, 32 * sizeof *d);
        cudaMalloc(&o, 32 * sizeof *o);
        for (int i = 0; i < 32; i++)
            h[i] = (unsigned long long)(d + i);
        cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
        double c16 = timed(chase_global<16, 0>, (const unsigned long long *)d, o);
        double c48 = timed(chase_global<48, 0>, (const unsigned long long *)d, o);
        printf("ld_global_l1 %.0f %.0f %.2f\n", c16, c48, (c48 - c16) / 32);
        c16 = timed(chase_global<16, 1>, (const unsigned long long *)d, o);
        c48 = timed(chase_global<48, 1>, (const unsigned long long *)d, o);
        printf("ld_global_nc_l1 %.0f %.0f %.2f\n", c16, c48, (c48 - c16) / 32);
        c16 = timed(chase_global<16, 2>, (const unsigned long long *)d, o);
        c48 = timed(chase_global<48, 2>, (const unsigned long long *)d, o);
        printf("ld_global_plain %.0f %.0f %.2f\n", c16, c48, (c48 - c16) / 32);
        cudaFree(d);
        cudaFree(o);
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
