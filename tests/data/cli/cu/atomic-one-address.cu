// Global atomics at one address: L2 carries them out one after another.
// dot_each adds every product to *sum itself (float: ptxas cannot sum a
// warp's lanes first, so each lane's atomic waits its turn); count_each
// adds 1 to an int counter (ptxas sums the warp's lanes and one lane
// makes the atomic); dot_block adds one partial sum a block.
#define N (1 << 24)

__global__ void dot_each(const float *x, const float *y, float *sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        atomicAdd(sum, x[i] * y[i]);
}

__global__ void count_each(const float *x, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N && x[i] > 0.0f)
        atomicAdd(count, 1);
}

__global__ void dot_block(const float *x, const float *y, float *sum)
{
    __shared__ float part[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    part[threadIdx.x] = i < N ? x[i] * y[i] : 0.0f;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(sum, part[0]);
}

int main()
{
    float *x, *y, *sum;
    int *count;
    cudaMalloc(&x, N * sizeof(float));
    cudaMalloc(&y, N * sizeof(float));
    cudaMalloc(&sum, sizeof(float));
    cudaMalloc(&count, sizeof(int));
    dot_each<<<N / 256, 256>>>(x, y, sum);
    count_each<<<N / 256, 256>>>(x, count);
    dot_block<<<N / 256, 256>>>(x, y, sum);
    cudaDeviceSynchronize();
    return 0;
}
