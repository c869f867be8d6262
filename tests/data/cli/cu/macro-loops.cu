// Two loops a macro writes: both expand at the macro's line, but they are
// different loops. The first only loads (nvcc unrolls its 4 iterations and
// issues the loads together); the stores are in the second.
#define FOLD(name, U)                                                          \
    __global__ void name(const int *in, int *out)                              \
    {                                                                          \
        int sum = 0;                                                           \
        for (int k = 0; k < U; k++)                                            \
            sum += in[k * 256 + threadIdx.x];                                  \
        for (int j = 0; j < U; j++)                                            \
            out[j * 256 + threadIdx.x] = sum + j;                              \
    }

FOLD(fold4, 4)

int main()
{
    int *a, *b;
    cudaMalloc(&a, 4096);
    cudaMalloc(&b, 4096);
    fold4<<<1, 256>>>(a, b);
    cudaDeviceSynchronize();
    return 0;
}
