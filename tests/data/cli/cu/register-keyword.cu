// Old CUDA code still declares locals `register`: nvcc compiles it as
// C++17 with a warning, and gpulint's reading of the source must too.
__global__ void axpy(float *y, const float *x, float a, int n)
{
    register int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    float *x, *y;
    cudaMalloc(&x, sizeof(float) * 4096);
    cudaMalloc(&y, sizeof(float) * 4096);
    axpy<<<16, 256>>>(y, x, 2.0f, 4096);
    cudaDeviceSynchronize();
    return 0;
}
