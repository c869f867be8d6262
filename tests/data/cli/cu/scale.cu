// A small kernel for `gpulint FILE.cu` tests: one kernel, no shared memory.
__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}
