// A launch shape searched by a do-while, as quantized mat-vec kernels
// choose theirs: the rows per thread fall as the waves over the SMs grow,
// until they fit. The rows per thread are set by every pass, the first
// included, so their value before the loop does not matter. Built with
// -DSMS_FROM_DEVICE, the SM count comes from the device, a value of the
// GPU model bound after the loop would have to run: the loop keeps its
// names (golden report-do-while-attr).
static int ceildiv(int a, int b) { return (a + b - 1) / b; }

__global__ void matvec(const float *a, const float *x, float *y, int m, int k, int rows)
{
    int r0 = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * rows;
    for (int r = r0; r < r0 + rows && r < m; r++) {
        float s = 0;
        for (int c = threadIdx.x % 32; c < k; c += 32)
            s += a[(size_t)r * k + c] * x[c];
        if (threadIdx.x % 32 == 0)
            y[r] = s;
    }
}

int main()
{
    const int m = 4096, k = 4096, max_rows = 16;
#ifdef SMS_FROM_DEVICE
    int sms;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
#else
    const int sms = 132;
#endif
    int waves = 0;
    int rows;
    do {
        waves++;
        rows = ceildiv(m, waves * sms);
    } while (rows > max_rows);
    float *a, *x, *y;
    cudaMalloc(&a, sizeof(float) * m * k);
    cudaMalloc(&x, sizeof(float) * k);
    cudaMalloc(&y, sizeof(float) * m);
    matvec<<<ceildiv(m, rows), 32 * rows>>>(a, x, y, m, k, rows);
    cudaDeviceSynchronize();
    return 0;
}
