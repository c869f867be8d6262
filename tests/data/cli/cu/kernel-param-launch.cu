// Kernels handed to a launching helper as an argument, the way
// tiny-cuda-nn's linear_kernel and many projects' launch wrappers take
// them: a template parameter K forwarded through a second helper, and a
// plain function-pointer parameter. Each launch runs the kernel the call
// names, with the helper's configuration. The helpers sit under
// `#if __CUDACC__`, which nvcc defines as 1.
#include <cstdint>

template <int W>
__global__ void scale(uint32_t n, const float *x, float *y, float a)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] * W;
}

// A polygon's edge loop: the increment `k = j++` steps j (which the
// condition tests) and keeps k one vertex behind: 64 trips.
__global__ void edges(const float2 *v, const float2 *p, int *inside, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float2 q = p[i];
    int c = 0;
    int k = 63;
    for (int j = 0; j < 64; k = j++) {
        float2 a = v[j], b = v[k];
        if ((a.y > q.y) != (b.y > q.y) && q.x < (b.x - a.x) * (q.y - a.y) / (b.y - a.y) + a.x)
            c = !c;
    }
    inside[i] = c;
}

#if __CUDACC__
template <typename K, typename T, typename... Args>
void linear_kernel(K kernel, uint32_t shmem, cudaStream_t stream, T n, Args... args)
{
    if (n <= 0)
        return;
    kernel<<<(n + 127) / 128, 128, shmem, stream>>>((uint32_t)n, args...);
}

template <typename K, typename... Args>
void run(K kernel, int n, Args... args)
{
    linear_kernel(kernel, 0, 0, n, args...);
}
#endif

void launch_by_pointer(void (*k)(uint32_t, const float *, float *, float), int n,
                       const float *x, float *y)
{
    k<<<(n + 255) / 256, 256>>>(n, x, y, 2.0f);
}

int main()
{
    int n = 1 << 20;
    float *x, *y;
    float2 *v, *p;
    int *inside;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&v, 64 * sizeof(float2));
    cudaMalloc(&p, n * sizeof(float2));
    cudaMalloc(&inside, n * sizeof(int));
    run(scale<3>, n, x, y, 2.0f);
    launch_by_pointer(scale<5>, n, x, y);
    edges<<<n / 256, 256>>>(v, p, inside, n);
    cudaDeviceSynchronize();
    return 0;
}
