// Warp-level building blocks: shuffles, votes, match and the sm_80
// reduce intrinsics, as used by top-k, histogram and softmax kernels.
__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void count_and_sum(const int *keys, const float *vals, int *counts, float *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool active = i < n;
    unsigned mask = __ballot_sync(0xffffffffu, active);
    if (!active)
        return;
    int key = keys[i];
    unsigned peers = __match_any_sync(mask, key);
    int leader = __ffs(peers) - 1;
    int lane = threadIdx.x % 32;
    if (lane == leader)
        atomicAdd(&counts[key], __popc(peers));
    float total = warp_sum(vals[i]);
    if (lane == 0)
        atomicAdd(sums, total);
}

__global__ void warp_any_negative(const float *x, int *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int negative = i < n && x[i] < 0.0f;
    if (__any_sync(0xffffffffu, negative) && threadIdx.x % 32 == 0)
        flags[i / 32] = 1;
    unsigned both = __reduce_add_sync(0xffffffffu, (unsigned)negative);
    if (threadIdx.x % 32 == 0 && i < n)
        flags[n / 32 + i / 32] = (int)both;
}
