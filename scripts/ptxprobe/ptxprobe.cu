// How many SASS warp instructions one PTX instruction becomes when it
// runs, on the GPU at hand: each probe kernel runs one warp through a
// chain of K copies of one PTX instruction (inline asm, each copy reading
// the last one's result, so none can be merged or dropped), for K = 16 and
// K = 48; Nsight Compute's smsp__inst_executed of the two differ by 32
// times the instructions one copy executes (what surrounds the chain is
// the same in both and cancels). Operands are runtime values from memory
// that keep each chain on its usual path (a divisor of 1, values near 1.5,
// 64-bit operands below 2^32 in the "small" probes, above it in "large").
#include <cstdint>
#include <cstdio>

#include "ops.h"

template <typename T> static void run(void (*k16)(const T *, T *), void (*k48)(const T *, T *), T a,
                                      T b)
{
    T h[2] = {a, b}, *d, *o;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&o, 32 * sizeof(T));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    k16<<<1, 32>>>(d, o);
    k48<<<1, 32>>>(d, o);
    cudaDeviceSynchronize();
    cudaFree(d);
    cudaFree(o);
}

int main()
{
#define RUN(T, op, a, b) run<T>(k_16_##op, k_48_##op, (T)(a), (T)(b));
#include "runs.h"
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
