// A loop that fills an array each thread declares (`modes[4][4]`, as
// lulesh's fb fills hourgam[8][4]) and reads x[8 * i + k] each pass: the
// stores reach no __restrict__ pointer's element, so LLVM hoists the
// eight loads of x out of the loop (nvcc 13's PTX, the golden's comment),
// as in `summed`, which keeps its sum in a scalar. `aliased` stores
// through a plain pointer instead, which may be x: its loads stay in the
// loop.
__global__ void filled(const double *__restrict__ x, const double *__restrict__ w,
                       double *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double modes[4][4];
    for (int m = 0; m < 4; m++) {
        double d = x[8 * i] * w[m * 4] + x[8 * i + 1] * w[m * 4 + 1] +
                   x[8 * i + 2] * w[m * 4 + 2] + x[8 * i + 3] * w[m * 4 + 3];
        modes[0][m] = w[m * 4] - d * x[8 * i + 4];
        modes[1][m] = w[m * 4 + 1] - d * x[8 * i + 5];
        modes[2][m] = w[m * 4 + 2] - d * x[8 * i + 6];
        modes[3][m] = w[m * 4 + 3] - d * x[8 * i + 7];
    }
    double s = 0;
    for (int m = 0; m < 4; m++)
        for (int j = 0; j < 4; j++)
            s += modes[j][m] * (double)(m + j);
    out[i] = s;
}

__global__ void summed(const double *__restrict__ x, const double *__restrict__ w,
                       double *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double s = 0;
    for (int m = 0; m < 4; m++) {
        double d = x[8 * i] * w[m * 4] + x[8 * i + 1] * w[m * 4 + 1] +
                   x[8 * i + 2] * w[m * 4 + 2] + x[8 * i + 3] * w[m * 4 + 3];
        s += (w[m * 4] - d * x[8 * i + 4]) * (double)m + (w[m * 4 + 1] - d * x[8 * i + 5]) +
             (w[m * 4 + 2] - d * x[8 * i + 6]) * (double)(m + 2) +
             (w[m * 4 + 3] - d * x[8 * i + 7]) * (double)(m + 3);
    }
    out[i] = s;
}

__global__ void aliased(const double *x, const double *w, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int m = 0; m < 4; m++) {
        double d = x[8 * i] * w[m * 4] + x[8 * i + 1] * w[m * 4 + 1] +
                   x[8 * i + 2] * w[m * 4 + 2] + x[8 * i + 3] * w[m * 4 + 3];
        out[(8 * i) * 4 + m] = w[m * 4] - d * x[8 * i + 4];
        out[(8 * i + 1) * 4 + m] = w[m * 4 + 1] - d * x[8 * i + 5];
        out[(8 * i + 2) * 4 + m] = w[m * 4 + 2] - d * x[8 * i + 6];
        out[(8 * i + 3) * 4 + m] = w[m * 4 + 3] - d * x[8 * i + 7];
    }
}

int main()
{
    double *x, *w, *out;
    int n = 65536;
    cudaMalloc(&x, 8 * 8 * n);
    cudaMalloc(&w, 8 * 16);
    cudaMalloc(&out, 8 * 32 * n);
    filled<<<n / 256, 256>>>(x, w, out, n);
    summed<<<n / 256, 256>>>(x, w, out, n);
    aliased<<<n / 256, 256>>>(x, w, out, n);
    cudaDeviceSynchronize();
    return 0;
}
