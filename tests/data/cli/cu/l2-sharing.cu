// One GEMM, two occupancies: 16 x 16 blocks of a 4096 x 4096 product read
// a row panel of a (shared by a row of blocks) and a column panel of b
// (shared by a column). At 8 blocks an SM the blocks drift apart and every
// row of blocks reads b again; with 45 KB of unused dynamic shared memory
// an SM holds 4, they run in lockstep waves and read b once a wave.
#define N 4096

__global__ void naive(const float *a, const float *b, float *c)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < N; k++)
        sum += a[row * N + k] * b[k * N + col];
    c[row * N + col] = sum;
}

void run(const float *a, const float *b, float *c)
{
    naive<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(a, b, c);
    naive<<<dim3(N / 16, N / 16), dim3(16, 16), 46080>>>(a, b, c);
}
