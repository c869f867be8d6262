// An element a loop accumulates into, through a __restrict__ pointer that
// reaches no other element in the loop: LLVM keeps it in a register, loads
// it before the loop and stores it once after (nvcc 13's PTX for `one`:
// one st.global). Without __restrict__ (`alias`) the load leaves the loop
// but every store stays (five st.global in the unrolled loop); with a
// second element of the same pointer at an offset LLVM cannot compare
// (`two`), both stay in the loop, loads and stores (ten st.global). Two
// elements a constant apart (`pair`: a complex number's real and imaginary
// parts) are told apart: each is loaded before the loop and stored after
// it (two ld.global and two st.global outside the loop).
__global__ void one(const float *__restrict__ a, const float *__restrict__ b,
                    float *__restrict__ c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < n; k++)
        c[row * n + col] += a[row * n + k] * b[k * n + col];
}

__global__ void alias(const float *a, const float *b, float *c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < n; k++)
        c[row * n + col] += a[row * n + k] * b[k * n + col];
}

__global__ void two(const float *__restrict__ a, const float *__restrict__ b,
                    float *__restrict__ c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < n; k++) {
        c[row * n + col] += a[row * n + k] * b[k * n + col];
        c[n * n + row * n + col] -= a[row * n + k];
    }
}

__global__ void pair(const float *__restrict__ a, const float *__restrict__ b,
                     float *__restrict__ c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < n; k++) {
        c[2 * (row * n + col)] += a[row * n + k] * b[k * n + col];
        c[2 * (row * n + col) + 1] -= a[row * n + k];
    }
}

int main()
{
    float *a, *b, *c;
    const int n = 512;
    cudaMalloc(&a, 4 * n * n);
    cudaMalloc(&b, 4 * n * n);
    cudaMalloc(&c, 8 * n * n);
    one<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(a, b, c, n);
    alias<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(a, b, c, n);
    two<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(a, b, c, n);
    pair<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(a, b, c, n);
    return 0;
}
