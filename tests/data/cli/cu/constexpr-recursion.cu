// A constexpr function that recurses, called with constants (HeCBench's
// hadamard sizes its loops so): the compiler folds the call, so the count
// holds no work for it and is not marked incomplete.
__host__ __device__ constexpr int cilog2(int val) { return val > 0 ? 1 + cilog2(val >> 1) : -1; }

template <int N> __global__ void butterfly(float *x)
{
    constexpr int kLog = cilog2(N);
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
#pragma unroll
    for (int s = 0; s < kLog; s++)
        v = v * 0.5f + 1.0f;
    x[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

int main()
{
    float *x;
    cudaMalloc(&x, 1 << 24);
    butterfly<256><<<16384, 256>>>(x);
    return 0;
}
