// Host loops written the way benchmarks step several sizes at once: a for
// without an init whose counter starts where the code before it left it,
// and an increment that is a comma list (a radix-4 transform's passes:
// log2N = 23, 21, ..., 5 is 10 launches).
__global__ void pass(float *d, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    d[i * stride] += 1.0f;
}

__global__ void last(float *d)
{
    d[threadIdx.x] *= 0.5f;
}

void transform(float *d, int log2N)
{
    int N = 1 << log2N, M = 1;
    for (; log2N > 4; log2N -= 2, N >>= 2, M <<= 2)
        pass<<<64, 256>>>(d, M);
    // The bound moves with the counter: not the counter's trips alone.
    for (int i = 0, j = 10; i < j; i += 3, j--)
        last<<<1, 32>>>(d);
    // Of the two locals declared, the one the condition tests: 4 trips.
    for (int i = 0, j = 10; i < 7; i += 2, j--)
        last<<<1, 32>>>(d);
    // Started where the code before left it (k = 6): 6, 10, 14, 18.
    int k = 3;
    k = k * 2;
    for (; k < 20; k += 4)
        last<<<1, 32>>>(d);
}

int main()
{
    float *d;
    cudaMalloc(&d, 1 << 24);
    transform(d, 23);
    return 0;
}
