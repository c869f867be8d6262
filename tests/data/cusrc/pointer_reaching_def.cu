// A local pointer set more than once, each use reading the one
// definition that reaches it (HeCBench bincount: `T *smem = nullptr;`,
// then `smem = (T *)buf;` inside the branch that uses it). Where two
// definitions may reach a use (`q` below, set in an if and used after
// it), the pointer stays unplaced and says so.
template <bool Shared>
__global__ void count(int *out, const int *in, int n, int bins)
{
    extern __shared__ int buf[];
    int *smem = nullptr;
    if (Shared) {
        smem = buf;
        for (int i = threadIdx.x; i < bins; i += blockDim.x)
            smem[i] = 0;
        __syncthreads();
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            atomicAdd(&smem[in[i] % bins], 1);
        __syncthreads();
        for (int i = threadIdx.x; i < bins; i += blockDim.x)
            atomicAdd(&out[i], smem[i]);
    } else {
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            atomicAdd(&out[in[i] % bins], 1);
    }
}

__global__ void either(float *a, float *b, int flip)
{
    float *q = a;
    if (flip)
        q = b;
    q[threadIdx.x] = 1.0f;
}

int main()
{
    int *out, *in;
    float *a, *b;
    cudaMalloc(&out, 1024 * sizeof(int));
    cudaMalloc(&in, (1 << 20) * sizeof(int));
    cudaMalloc(&a, 256 * sizeof(float));
    cudaMalloc(&b, 256 * sizeof(float));
    count<true><<<256, 256, 1024 * sizeof(int)>>>(out, in, 1 << 20, 1024);
    count<false><<<256, 256>>>(out, in, 1 << 20, 1024);
    either<<<1, 256>>>(a, b, 1);
    cudaDeviceSynchronize();
    return 0;
}
