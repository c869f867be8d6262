// Triangular loops: an inner loop that starts at (or stops at) the outer
// loop's counter, as in LU and Cholesky factorisations and LIBOR's path
// calculation. The work is a sum over the outer counter, not trips x body.
#define N 80
#define NMAT 40

// sum over n < NMAT of (N - n - 1) FMAs: 2 * (40 * 79 - 40 * 39 / 2) = 4760 FLOPs a thread.
__global__ void lower_sweep(float *out, const float *in)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int n = 0; n < NMAT; n++)
        for (int i = n + 1; i < N; i++)
            acc = acc * 0.5f + 1.0f;
    out[t] = acc + in[t];
}

// Counting down to the counter: sum over n of n adds, 0 + 1 + ... + 63 = 2016.
__global__ void upper_sweep(float *out, int rows)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int n = rows - 1; n >= 0; n--)
        for (int i = rows - 1; i > n; i--)
            acc += 1.0f;
    out[t] = acc;
}

int main()
{
    float *out, *in;
    cudaMalloc(&out, 4096 * sizeof(float));
    cudaMalloc(&in, 4096 * sizeof(float));
    lower_sweep<<<16, 256>>>(out, in);
    upper_sweep<<<16, 256>>>(out, 64);
    cudaDeviceSynchronize();
    return 0;
}
