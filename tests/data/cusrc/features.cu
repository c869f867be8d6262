// features.cu: one of each construct the source front end evaluates, for
// tests/unit/test_cusrc.c. Compiles with nvcc -arch=sm_90 -c.
#include <cuda_runtime.h>

#define BLOCK 128
#define HALF (BLOCK / 2)

enum { kWarps = BLOCK / 32 };
constexpr int kPad = 1;

struct Params {
    float *data;
    int n;
    int stride;
};

__host__ __device__ constexpr int ceilDiv(int a, int b)
{
    return (a + b - 1) / b;
}

__device__ __forceinline__ int rowMajor(int r, int c)
{
    return r * 32 + c;
}

// gpulint: flops=2*n
// gpulint: bytes=8*n
__global__ void __launch_bounds__(BLOCK, 2) features(Params p, const float *in, int *hist)
{
    __shared__ float tile[kWarps][32 + kPad];
    __shared__ int counts[HALF];
    __shared__ float total;
    int tid = threadIdx.x;
    int lane = tid % warpSize;
    int warp = tid / warpSize;

    float *row = &tile[warp][0];
    row[lane] = in[blockIdx.x * BLOCK + tid]; // through a pointer into the array

    if (tid < HALF)
        counts[tid] = 0;
    __syncthreads();

    if (tid == 0)
        total = 0.0f;
    atomicAdd(&counts[tid % HALF], 1); // gpulint: ignore bank-conflict
    // gpulint: ignore divergence, coalescing
    float v = __ldg(&in[rowMajor(warp, lane)]);

    switch (lane) {
    case 0:
        p.data[blockIdx.x] = v;
        break;
    default:
        break;
    }

    int i = blockIdx.x * blockDim.x + tid;
    while (i < p.n) {
        p.data[i * p.stride] += 1.0f;
        i += blockDim.x * gridDim.x;
    }

    int k = 0;
    do {
        hist[k * BLOCK + tid] = counts[k];
        k += 16;
    } while (k < HALF);

    int offset = 0;
    for (int s = 0; s < 4; s++) {
        tile[0][offset + lane] = tile[1][lane];
        offset += 8;
    }
    if (tid == 0)
        p.data[gridDim.x] = total;
}

// Branch arms, skipped iterations and the operation counts.
namespace physics {
__global__ void integrate(float *pos, const float *vel, double *energy, int steps)
{
    __shared__ float buf[2][32];
    int lane = threadIdx.x % 32;
    if (lane < 16)
        buf[0][lane] = pos[lane];
    else
        buf[1][lane] = pos[lane];
    for (int s = 0; s < steps; s++) {
        if (s % 4 == 3)
            continue;
        pos[threadIdx.x] = fmaf(vel[threadIdx.x], 0.5f, pos[threadIdx.x]) + expf(buf[0][lane]);
    }
    energy[threadIdx.x] += 0.5 * (double)vel[threadIdx.x] * vel[threadIdx.x];
}
} // namespace physics

// The counter is also stepped in the body: the loop cannot be followed.
__global__ void stepTwice(float *out)
{
    for (int i = 0; i < 8; i++) {
        out[i * blockDim.x + threadIdx.x] = 0.0f;
        if (out[0] > 1.0f)
            i++;
    }
}

// Opt-in for one instantiation only.
template <int N>
__global__ void optinTemplate(float *out)
{
    extern __shared__ float dyn[];
    dyn[threadIdx.x * N] = 0.0f;
    out[threadIdx.x] = dyn[threadIdx.x];
}

// Never instantiated in this file: analysed once with TILE left symbolic.
template <int TILE, typename T>
__global__ void generic(T *out)
{
    __shared__ T buf[TILE][TILE + 1];
    buf[threadIdx.y][threadIdx.x] = out[threadIdx.x];
    out[threadIdx.y] = buf[threadIdx.x][threadIdx.y];
}

// Also never instantiated, with a known element type: the offsets stay
// expressions in TILE.
template <int TILE>
__global__ void genericTile(float *out)
{
    __shared__ float buf[TILE][TILE + 1];
    buf[threadIdx.y][threadIdx.x] = out[threadIdx.x];
    out[threadIdx.y] = buf[threadIdx.x][threadIdx.y];
}

void launchFeatures(Params p, const float *in, int *hist, int n)
{
    dim3 block;
    block.x = BLOCK;
    dim3 grid(ceilDiv(n, BLOCK));
    features<<<grid, block, 0, 0>>>(p, in, hist);
}

int main()
{
    Params p = {nullptr, 1 << 20, 2};
    launchFeatures(p, nullptr, nullptr, 1 << 20);
    launchFeatures(p, nullptr, nullptr, 1000);
    cudaLaunchConfig_t cfg = {.gridDim = dim3(sizeof(Params)), .blockDim = dim3(kWarps * 32)};
    cudaLaunchKernelEx(&cfg, features, p, (const float *)nullptr, (int *)nullptr);
    physics::integrate<<<1, 32>>>(nullptr, nullptr, nullptr, 100);
    cudaFuncSetAttribute(optinTemplate<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024);
    optinTemplate<1><<<1, 256, 96 * 1024>>>(nullptr);
    optinTemplate<2><<<1, 256, 96 * 1024>>>(nullptr);
    return 0;
}
