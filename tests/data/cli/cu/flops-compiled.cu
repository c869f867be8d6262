// FLOPs as nvcc compiles them: one row of a softmax per thread.
#define COLS 256

__global__ void softmax_rows(const float *x, float *y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float *in = x + r * COLS;
    float *out = y + r * COLS;
    float mx = in[0];
    for (int c = 1; c < COLS; c++)
        mx = fmaxf(mx, in[c]);
    float sum = 0.0f;
    for (int c = 0; c < COLS; c++)
        sum += expf(in[c] - mx);                 // FADD, expf (10), FADD: 12 per element
    for (int c = 0; c < COLS; c++)
        out[c] = expf(in[c] - mx) * (1.0f / sum); // 12 per element; 1 / sum once (5)
}

__global__ void variance_rows(const float *x, float *v, int rows, int n)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float m = 0.0f, s = 0.0f;
    for (int c = 0; c < COLS; c++)
        m += x[r * COLS + c];
    m /= n;                                      // IEEE division: 10
    for (int c = 0; c < COLS; c++)
        s += (x[r * COLS + c] - m) * (x[r * COLS + c] - m); // FADD once, FFMA
    v[r] = s / (n - 1);                          // 10
}

int main()
{
    float *x, *y;
    cudaMalloc(&x, 4096 * COLS * sizeof(float));
    cudaMalloc(&y, 4096 * COLS * sizeof(float));
    softmax_rows<<<16, 256>>>(x, y, 4096);
    variance_rows<<<16, 256>>>(x, y, 4096, COLS);
    cudaDeviceSynchronize();
    return 0;
}
