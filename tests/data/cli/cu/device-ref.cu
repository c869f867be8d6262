// A kernel's local handed to a device function by non-const reference:
// after twice(stride) its value is not its initializer's, so the store's
// stride is not known (before: taken as 1, coalesced).
__device__ void twice(int &k) { k *= 2; }

__global__ void strided(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = 1;
    twice(stride);
    if (i * stride < n)
        x[i * stride] = 1.0f;
}

int main()
{
    float *x;
    cudaMalloc(&x, 1 << 24);
    strided<<<64, 128>>>(x, 1 << 20);
    return 0;
}
