// Read-only loads the statement repeats: ptxas loads __ldg(X + i) once
// however often it is spelled (HeCBench channelSum's
// `v += __ldg(X + i) * __ldg(X + i)` beside `m += __ldg(X + i)`: one LDG
// a pass in its SASS). A write that may reach X between two loads, or
// __ldcv ("fetch again"), keeps both.
__global__ void twice(const int *X, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int m = __ldg(X + i);
        int v = __ldg(X + i) * __ldg(X + i);
        out[i] = m + v;
    }
}

__global__ void stored_between(const int *X, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = __ldg(X + i);
        out[i + n] = __ldg(X + i);
    }
}

__global__ void fetched_again(const int *X, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __ldcv(X + i) + __ldcv(X + i);
}

int main()
{
    int *x, *o, n = 1 << 20;
    cudaMalloc(&x, n * sizeof(int));
    cudaMalloc(&o, 2 * n * sizeof(int));
    twice<<<n / 256, 256>>>(x, o, n);
    stored_between<<<n / 256, 256>>>(x, o, n);
    fetched_again<<<n / 256, 256>>>(x, o, n);
    cudaDeviceSynchronize();
    return 0;
}
