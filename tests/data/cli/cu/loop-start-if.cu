// A loop without an init whose counter an if sets in each arm before it:
// thread 0 does extra work first and starts a block further on.
__global__ void sum_samples(float *out, const float *in, int n)
{
    int k;
    float acc = 0.0f;
    if (threadIdx.x == 0) {
        acc = in[0] + in[n - 1];
        k = blockDim.x;
    } else {
        k = threadIdx.x;
    }
    for (; k < n; k += blockDim.x) // thread 0: 7 passes, the others 8
        acc += 2.0f * in[k];
    out[threadIdx.x] = acc;
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, sizeof(float) * 1024);
    cudaMalloc(&out, sizeof(float) * 128);
    sum_samples<<<1, 128>>>(out, in, 1024);
    cudaDeviceSynchronize();
    return 0;
}
