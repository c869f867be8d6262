// Which SM pipe the SASS of one PTX instruction issues to, on the GPU at
// hand: each probe kernel runs one warp through K copies (K = 16, 48) of
// the instruction, each followed by a separator ptxas cannot fold into it
// (gen.py); the separator's own chain runs beside it. Nsight Compute's
// smsp__inst_executed_pipe_* of the four kernels give, per copy,
// ((probe 48 - probe 16) - (base 48 - base 16)) / 32 warp instructions on
// each pipe (scripts/pipeprobe/table.py).
#include <cstdint>
#include <cstdio>

#include "ops.h"

template <typename T> static void run(void (*k16)(const T *, T *), void (*k48)(const T *, T *))
{
    // operands that keep every chain on its usual path: no overflow trap,
    // no denormal, a shift of a few bits
    T h[2] = {(T)3, (T)1}, *d, *o;
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
    run<int32_t>(k_16_base_s32, k_48_base_s32);
    run<int64_t>(k_16_base_s64, k_48_base_s64);
    run<float>(k_16_base_f32, k_48_base_f32);
    run<double>(k_16_base_f64, k_48_base_f64);
    run<int32_t>(k_16_base_s32x, k_48_base_s32x);
    run<int64_t>(k_16_base_s64x, k_48_base_s64x);
#define RUN(T, op, base) run<T>(k_16_##op, k_48_##op);
#include "runs.h"
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
