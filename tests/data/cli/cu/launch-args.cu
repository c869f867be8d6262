// Kernel arguments that launches pass as constants: every launch of
// `column` passes width = 4096, so its accesses are analysed with it; the
// two launches of `vecAdd` pass different n, so each gets its own result.
__global__ void column(float *out, const float *in, int width)
{
    int row = blockIdx.x;
    int col = threadIdx.x;
    if (col < width)
        out[col * width + row] = in[row * width + col];
}

__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

// Per-lane trip counts (exercise 13.8's loop), launched with one warp.
__global__ void trips(float *out)
{
    float acc = 0.0f;
    for (int k = 0; k < (int)(threadIdx.x % 4) + 1; k++)
        acc += 1.0f;
    out[threadIdx.x] = acc;
}

int main()
{
    float *out = nullptr, *in = nullptr;
    column<<<4096, 256>>>(out, in, 4096);
    vecAdd<<<(2000 + 255) / 256, 256>>>(in, in, out, 2000);
    vecAdd<<<8, 256>>>(in, in, out, 1000);
    trips<<<1, 32>>>(out);
    return 0;
}
