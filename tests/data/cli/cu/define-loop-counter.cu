// A launch inside a host loop: t takes 1..1000, one value per trip. A
// --define of t picks a trip for the kernel's counts; it contradicts
// nothing the source sets, so it is accepted.
__global__ void relax(float *a, int n, int t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[t * n + i] = 0.5f * (a[(t - 1) * n + i] + a[(t + 1) * n + i]);
}

int main()
{
    int n = 1 << 12;
    float *a;
    cudaMalloc(&a, 1002 * n * sizeof(float));
    for (int t = 1; t <= 1000; t++)
        relax<<<n / 256, 256>>>(a, n, t);
    cudaDeviceSynchronize();
    cudaFree(a);
    return 0;
}
