// A wavefront: each step launches as many blocks as its diagonal holds,
// in loops of more values than gpulint sizes one by one.
__global__ void diag(float *a, int step, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[step * width + i] += 1.0f;
}

int main()
{
    const int width = 100 * 16;
    float *a;
    cudaMalloc(&a, sizeof(float) * width * width);
    for (int step = 1; step <= 100; step++)
        diag<<<step, 16>>>(a, step, width);
    for (int step = 99; step >= 1; step--)
        if (step % 3 != 0)
            diag<<<step, 16>>>(a, step, width);
    cudaFree(a);
    return 0;
}
