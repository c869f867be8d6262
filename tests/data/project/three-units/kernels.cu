__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

void launch_scale(float *x, int n)
{
    scale<<<(n + 255) / 256, 256>>>(x, n);
}
