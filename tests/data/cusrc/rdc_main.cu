// A kernel that calls a __device__ function another file defines
// (rdc_helper.cu): nvcc must compile it with -rdc=true, as the program's
// build does, and ptxas sizes the kernel without its callee.
extern __device__ float rdc_series(float x, int terms);

__global__ void rdc_apply(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = rdc_series(in[i], 16);
}

int main()
{
    const int n = 1 << 20;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    rdc_apply<<<n / 256, 256>>>(in, out, n);
    cudaDeviceSynchronize();
    return 0;
}
