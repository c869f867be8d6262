// Loops whose trip count has no closed form but whose condition reads only
// the counter and the kernel's arguments: counted by running them for the
// launch's values, thread by thread where the count differs between them.
__global__ void bit_length(unsigned *out, const float *in, unsigned n)
{
    unsigned bits = 0;
    float acc = 0.0f;
    while (n >> bits) { // 10 passes for n = 1000
        acc += in[bits * 32 + threadIdx.x];
        bits++;
    }
    // thread t doubles from t + 1 up to n: 10 passes for thread 0, 5 for
    // thread 31 (32, 64, ..., 512), 217 over the warp
    for (unsigned s = threadIdx.x + 1; s < n; s <<= 1)
        acc += in[s];
    out[threadIdx.x] = bits + (unsigned)acc;
}

int main()
{
    unsigned *out;
    float *in;
    cudaMalloc(&out, sizeof(unsigned) * 32);
    cudaMalloc(&in, sizeof(float) * 32 * 1024);
    bit_length<<<1, 32>>>(out, in, 1000);
    cudaDeviceSynchronize();
    return 0;
}
