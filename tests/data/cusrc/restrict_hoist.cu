// Loads LLVM hoists out of a loop (LICM), as nvcc 13's PTX shows them
// (the golden's comment): `hoist`'s a[i], whose address the k loop does
// not change and which no store in it can reach (every store goes through
// another __restrict__ pointer), is one ld.global.nc.f32 before the loop;
// `plain`'s, through pointers that may alias out, is loaded again each
// iteration.
__global__ void hoist(const float *__restrict__ a, const float *__restrict__ b,
                      float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < n; k++)
        out[i * n + k] = a[i] * b[k];
}

__global__ void plain(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < n; k++)
        out[i * n + k] = a[i] * b[k];
}

int main()
{
    float *a, *b, *out;
    int n = 64;
    cudaMalloc(&a, 4 * 65536);
    cudaMalloc(&b, 4 * 64);
    cudaMalloc(&out, 4 * 65536 * 64);
    hoist<<<256, 256>>>(a, b, out, n);
    plain<<<256, 256>>>(a, b, out, n);
    cudaDeviceSynchronize();
    return 0;
}
