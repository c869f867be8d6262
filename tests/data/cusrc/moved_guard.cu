// A pointer parameter moved once in a block outside loops that holds its
// use (a row's offset under a check of a length read from memory, as
// HeCBench's logprob does): its accesses are placed at the moved address,
// and the DRAM estimate takes the check as passing. Where the move sits in
// an arm that does not hold the use, the address at use depends on the
// arm: the access stays unplaced. Counts held to Nsight Compute in
// tests/data/ncu/h200/cusrc-moved_guard.csv (every row passes its check).

// 1024 rows of 4096 floats, each summed by one block of 256 threads.
__global__ void rows(const float *x, float *out, const int *len, int n)
{
    int row = blockIdx.x;
    if (row < len[0]) {
        x += (size_t)row * n;
        float s = 0.0f;
        for (int i = threadIdx.x; i < n; i += blockDim.x)
            s += x[i];
        out[row * blockDim.x + threadIdx.x] = s;
    }
}

// The move in an arm the use is not in: x[i] is row 0 or row 1.
__global__ void arm_move(const float *x, float *out, const int *flag, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (flag[0] > 0)
        x += n;
    out[i] = x[i];
}

int main()
{
    const int n = 4096, nrows = 1024;
    float *x, *out;
    int *len;
    cudaMalloc(&x, (size_t)nrows * n * sizeof(float));
    cudaMalloc(&out, (size_t)nrows * 256 * sizeof(float));
    cudaMalloc(&len, sizeof(int));
    cudaMemset(x, 0, (size_t)nrows * n * sizeof(float));
    int h = nrows;
    cudaMemcpy(len, &h, sizeof h, cudaMemcpyHostToDevice);
    rows<<<nrows, 256>>>(x, out, len, n);
    arm_move<<<n / 256, 256>>>(x, out, len, n);
    cudaDeviceSynchronize();
    return 0;
}
