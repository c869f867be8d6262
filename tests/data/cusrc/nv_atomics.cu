// nvcc 12.8's scoped atomics, as CUTLASS's sub-byte references use them:
// the order and scope constants and __nv_atomic_* are nvcc's builtins, so
// libclang must be told of them or the file does not parse at all.
#include <cuda_runtime.h>

__global__ void bump(unsigned *flags, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = 2.0f * x[i];
        unsigned seen = __nv_atomic_load_n(flags, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
        if (seen == 0)
            __nv_atomic_fetch_add(flags, 1u, __NV_ATOMIC_RELAXED);
    }
}

int main()
{
    const int n = 1 << 20;
    unsigned *flags;
    float *x, *y;
    cudaMalloc(&flags, sizeof *flags);
    cudaMalloc(&x, n * sizeof *x);
    cudaMalloc(&y, n * sizeof *y);
    bump<<<n / 256, 256>>>(flags, x, y, n);
    cudaDeviceSynchronize();
    return 0;
}
