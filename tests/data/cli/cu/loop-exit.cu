// Loop counters read after their loop, and loops whose condition steps
// the counter: a branchless binary search over powers of two (HeCBench's
// bsearch shape) and a countdown whose body sees the value after the step.
#include <cuda_runtime.h>

__global__ void search_pow2(const float *a, const float *z, unsigned long *r, unsigned long n)
{
    unsigned long i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned bits = 0;
    while (n >> bits)
        bits++;
    unsigned long k = 1ul << (bits - 1);
    float v = z[i];
    unsigned long idx = a[k] <= v ? k : 0;
    while (k >>= 1) {
        unsigned long c = idx | k;
        if (c < n && v >= a[c])
            idx = c;
    }
    r[i] = idx;
}

__global__ void countdown(const float *in, float *out, int m)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int left = m;
    float s = 0.f;
    while (left-- > 0)
        if (left < 4)
            s += in[left];
    out[t] = s;
}

int main()
{
    const unsigned long n = 1000000;
    float *a, *z, *in, *out;
    unsigned long *r;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&z, 1048576 * sizeof(float));
    cudaMalloc(&r, 1048576 * sizeof(unsigned long));
    cudaMalloc(&in, 8 * sizeof(float));
    cudaMalloc(&out, 262144 * sizeof(float));
    search_pow2<<<4096, 256>>>(a, z, r, n);
    countdown<<<1024, 256>>>(in, out, 8);
    cudaDeviceSynchronize();
    return 0;
}
