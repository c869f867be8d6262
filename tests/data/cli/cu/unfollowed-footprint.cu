// A butterfly step whose stride the program reads at run time, as a
// Walsh or FFT pass does: every index holds the stride, so no site's
// DRAM footprint can be placed, while the bytes the threads request are
// known. The predicted time takes those bytes as its DRAM estimate.
#include <cstdlib>

__global__ void butterfly(float *out, const float *in, int stride)
{
    int pos = blockIdx.x * blockDim.x + threadIdx.x;
    int lo = pos & (stride - 1);
    int i0 = ((pos - lo) << 1) + lo;
    float a = in[i0], b = in[i0 + stride];
    out[i0] = a + b;
    out[i0 + stride] = a - b;
}

int main(int argc, char **argv)
{
    const int n = 1 << 24;
    int stride = argc > 1 ? atoi(argv[1]) : 1;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    butterfly<<<n / 2 / 256, 256>>>(out, in, stride);
    cudaDeviceSynchronize();
    return 0;
}
