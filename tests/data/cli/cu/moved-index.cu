// Indices a kernel moves by the same step each pass, and grid-stride
// loops over launches of more threads than gpulint walks one by one.

// Each thread walks one pixel through every channel plane, moving its
// index by a plane per pass (the way image kernels batch channels).
__global__ void planes(float *out, const float *in, int w, int h, int c)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w * h)
        return;
    int idx = x;
    for (int i = 0; i < c; i++) {
        out[idx] = 2.0f * in[idx];
        idx += w * h;
    }
}

// The move comes before the use: the first plane is never touched.
__global__ void planes_after(float *out, const float *in, int w, int h, int c)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w * h)
        return;
    int idx = x;
    for (int i = 1; i < c; i++) {
        idx += w * h;
        out[idx] = in[idx] + 1.0f;
    }
}

// A grid-stride loop: 7.68 million threads, so each thread's passes are
// summed in closed form, not thread by thread.
__global__ void scale(float *y, const float *x, long n)
{
    for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = 3.0f * x[i];
}

int main()
{
    const int w = 1024, h = 512, c = 8;
    float *in, *out;
    cudaMalloc(&in, sizeof(float) * w * h * c);
    cudaMalloc(&out, sizeof(float) * w * h * c);
    planes<<<(w * h + 255) / 256, 256>>>(out, in, w, h, c);
    planes_after<<<(w * h + 255) / 256, 256>>>(out, in, w, h, c);
    // fewer elements than threads: the last 2.68 million threads idle
    scale<<<30000, 256>>>(out, in, 5000000);
    // more: the first 2.32 million threads make a second pass
    float *big_in, *big_out;
    cudaMalloc(&big_in, sizeof(float) * 10000000);
    cudaMalloc(&big_out, sizeof(float) * 10000000);
    scale<<<30000, 256>>>(big_out, big_in, 10000000);
    cudaDeviceSynchronize();
    return 0;
}
