// A host loop over odd kernel sizes stepped with an assignment
// ('k = k + 2', not 'k += 2'), each size handed to a function that
// launches with it: one launch per value of the counter.
__global__ void convolve(const float *in, float *out, int n, int ksize)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = 0.0f;
    for (int t = 0; t < ksize; t++)
        s += in[(i + t) % n];
    out[i] = s;
}

void eval(const float *in, float *out, int n, int ksize)
{
    convolve<<<(n + 255) / 256, 256>>>(in, out, n, ksize);
}

int main()
{
    const int n = 1 << 20;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    for (int k = 1; k <= 9; k = k + 2)
        eval(in, out, n, k);
    cudaDeviceSynchronize();
    return 0;
}
