// A launch whose sizes the source sets: main's n, passed to scale, and a
// literal row length passed to rows. A --define of either name with another
// value would change the kernel's counts and not its grid, so it is refused.
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

__global__ void rows(float *x, int width)
{
    int r = blockIdx.x;
    for (int c = threadIdx.x; c < width; c += blockDim.x)
        x[r * width + c] += 1.0f;
}

int main()
{
    int n = 1 << 20;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    scale<<<(n + 255) / 256, 256>>>(x, n);
    rows<<<1024, 128>>>(x, 1024);
    cudaDeviceSynchronize();
    cudaFree(x);
    return 0;
}
