// Launchers in a header the program #includes (crs's kernels.cu): taken
// into the including file's table of function pointers, never called by
// name. A launcher nothing uses is not read.
__global__ void scale_by(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

void run_half(float *x, int n, int threads)
{
    scale_by<<<(n + threads - 1) / threads, threads>>>(x, 0.5f, n);
}

void run_double(float *x, int n, int threads)
{
    scale_by<<<(n + threads - 1) / threads, threads>>>(x, 2.0f, n);
}

void run_unused(float *x, int n)
{
    scale_by<<<n, 1>>>(x, 1.0f, n);
}
