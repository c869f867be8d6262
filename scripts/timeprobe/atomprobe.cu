// atomprobe: global atomics against plain stores of the same bytes, for
// gpulint's atomic term (docs/roofline.md, "The L2 traffic of a launch").
// A global atomic is carried out at L2; this measures how fast L2 takes
// them where every thread has its own address, where the threads of the
// grid share a few addresses, and where they all share one. One line per
// launch on stdout:
//
//   kind,addresses,n,grid,block,us
//
//   store      out[i] = i (the baseline: the same sectors written)
//   red        atomicAdd(&out[i], 1u), result unused (RED)
//   atom       the same with its result read (ATOM)
//   redf       atomicAdd(&outf[i], 1.0f) (RED.ADD.F32)
//   bins       atomicAdd(&out[hash(i) & (addresses - 1)], 1u): each lane
//              its own hashed address among `addresses`
//   warp_one   lane 0 of each warp: atomicAdd(&out[0], 1u)
//   block_one  thread 0 of each block: atomicAdd(&out[0], 1u)
//   uniform    every thread: atomicAdd(&out[0], 1u) (ptxas sums a warp's
//              lanes and one lane makes the RED)
//   one_f32, one_f64, one_u64
//              every thread: atomicAdd(&out[0], 1) of a float, a double,
//              an unsigned long long (not summed first: each lane's)
//   warp_f32   lane 0 of each warp: atomicAdd(&outf[0], 1.0f)
//
// Times are the median of 7 launches, cudaEvent-timed, after a warm-up.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__device__ __forceinline__ unsigned hash32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

__global__ void store(unsigned *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = i;
}

__global__ void red(unsigned *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&out[i], 1u);
}

__global__ void atom(unsigned *out, unsigned *flag)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned old = atomicAdd(&out[i], 1u);
    if (old == 0xdeadbeefU)
        flag[0] = old;
}

__global__ void redf(float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&out[i], 1.0f);
}

__global__ void bins(unsigned *out, unsigned mask)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&out[hash32(i) & mask], 1u);
}

__global__ void warp_one(unsigned *out)
{
    if (threadIdx.x % 32 == 0)
        atomicAdd(&out[0], 1u);
}

__global__ void block_one(unsigned *out)
{
    if (threadIdx.x == 0)
        atomicAdd(&out[0], 1u);
}

__global__ void uniform(unsigned *out)
{
    atomicAdd(&out[0], 1u);
}

template <typename T> __global__ void one(T *out)
{
    atomicAdd(&out[0], (T)1);
}

__global__ void warp_f32(float *out)
{
    if (threadIdx.x % 32 == 0)
        atomicAdd(&out[0], 1.0f);
}

template <typename F> static float median_us(F launch)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    launch();
    CHECK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < 7; r++) {
        CHECK(cudaEventRecord(a));
        launch();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms * 1000.0f);
    }
    std::sort(t.begin(), t.end());
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return t[3];
}

int main()
{
    const unsigned max_n = 1u << 26; /* 256 MB of unsigned */
    unsigned *out, *flag;
    CHECK(cudaMalloc(&out, (size_t)max_n * sizeof(unsigned)));
    CHECK(cudaMalloc(&flag, sizeof(unsigned)));
    CHECK(cudaMemset(out, 0, (size_t)max_n * sizeof(unsigned)));
    const int block = 256;
    const unsigned sizes[] = {1u << 22, 1u << 24, 1u << 26};
    for (unsigned n : sizes) {
        int grid = (int)(n / block);
        float us = median_us([&] { store<<<grid, block>>>(out); });
        printf("store,%u,%u,%d,%d,%.3f\n", n, n, grid, block, us);
        us = median_us([&] { red<<<grid, block>>>(out); });
        printf("red,%u,%u,%d,%d,%.3f\n", n, n, grid, block, us);
        us = median_us([&] { atom<<<grid, block>>>(out, flag); });
        printf("atom,%u,%u,%d,%d,%.3f\n", n, n, grid, block, us);
        us = median_us([&] { redf<<<grid, block>>>((float *)out); });
        printf("redf,%u,%u,%d,%d,%.3f\n", n, n, grid, block, us);
        us = median_us([&] { warp_one<<<grid, block>>>(out); });
        printf("warp_one,1,%u,%d,%d,%.3f\n", n, grid, block, us);
        us = median_us([&] { block_one<<<grid, block>>>(out); });
        printf("block_one,1,%u,%d,%d,%.3f\n", n, grid, block, us);
        us = median_us([&] { uniform<<<grid, block>>>(out); });
        printf("uniform,1,%u,%d,%d,%.3f\n", n, grid, block, us);
    }
    const unsigned n = 1u << 24;
    const int grid = (int)(n / block);
    for (unsigned addresses = 1; addresses <= (1u << 24); addresses *= 4) {
        float us = median_us([&] { bins<<<grid, block>>>(out, addresses - 1); });
        printf("bins,%u,%u,%d,%d,%.3f\n", addresses, n, grid, block, us);
    }
    /* One address by type (added 2026-12-04 after a float dot product by
     * atomics ran 2.4 times slower than the integer rate said). */
    const unsigned n_one = 1u << 22;
    const int grid_one = (int)(n_one / block);
    float us = median_us([&] { one<<<grid_one, block>>>((float *)out); });
    printf("one_f32,1,%u,%d,%d,%.3f\n", n_one, grid_one, block, us);
    us = median_us([&] { one<<<grid_one, block>>>((double *)out); });
    printf("one_f64,1,%u,%d,%d,%.3f\n", n_one, grid_one, block, us);
    us = median_us([&] { one<<<grid_one, block>>>((unsigned long long *)out); });
    printf("one_u64,1,%u,%d,%d,%.3f\n", n_one, grid_one, block, us);
    us = median_us([&] { one<<<grid_one, block>>>(out); });
    printf("one_u32,1,%u,%d,%d,%.3f\n", n_one, grid_one, block, us);
    us = median_us([&] { warp_f32<<<grid, block>>>((float *)out); });
    printf("warp_f32,1,%u,%d,%d,%.3f\n", n, grid, block, us);
    CHECK(cudaGetLastError());
    CHECK(cudaFree(out));
    CHECK(cudaFree(flag));
    return 0;
}
