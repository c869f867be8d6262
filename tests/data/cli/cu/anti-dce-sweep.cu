// A compute/memory sweep kernel of our own (gpulint test input): each thread reads one element,
// runs ITERS dependent FMAs on it, and writes it back only if it equals a
// value that never occurs (so the compiler keeps the work).
template <class T, int ITERS>
__global__ void sweep(const T *__restrict__ in, T *out, T seed, long n)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    T v = in[i];
#pragma unroll 4
    for (int k = 0; k < ITERS; k++)
        v = v * v + seed;
    if (v == (T)-1.2345)
        out[i] = v;
}

int main()
{
    long n = 1 << 26;
    float *a, *b;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    sweep<float, 1><<<n / 256, 256>>>(a, b, 1.0f, n);
    sweep<float, 64><<<n / 256, 256>>>(a, b, 1.0f, n);
    sweep<float, 1024><<<n / 256, 256>>>(a, b, 1.0f, n);
    cudaDeviceSynchronize();
    return 0;
}
