// Loads inside a loop NVVM unrolls in full, whose address only that loop's
// counter and outer ones change: after the unrolling each copy is a load
// in the loop around it, which LICM moves out of that loop where no store
// in it can reach the array (__restrict__). nvcc 13's PTX (-O3, sm_90):
// hoist7's seven a[] loads sit before the j loop, whose body keeps the
// seven b[] loads and the store (HeCBench hexciton's comm_aosoa_constants
// has this shape); alias, the same without __restrict__, keeps all fifteen
// in the j loop.
#define D 7

__global__ void hoist7(const float *__restrict__ a, const float *__restrict__ b,
                       float *__restrict__ c)
{
    for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) {
            float s = 0;
            for (int k = 0; k < D; ++k)
                s += a[i * D + k] * b[(k * D + j) * 32 + threadIdx.x];
            c[(i * D + j) * 32 + threadIdx.x] = s;
        }
}

__global__ void alias(const float *a, const float *b, float *c)
{
    for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) {
            float s = 0;
            for (int k = 0; k < D; ++k)
                s += a[i * D + k] * b[(k * D + j) * 32 + threadIdx.x];
            c[(i * D + j) * 32 + threadIdx.x] = s;
        }
}

// sweep<16>'s sixteen a[] loads leave the j loop; sweep<64>'s k loop is
// unrolled by 16 only, and its a[] loads stay in it.
template <int K>
__global__ void sweep(const float *__restrict__ a, const float *__restrict__ b,
                      float *__restrict__ c, int n)
{
    for (int j = 0; j < n; ++j) {
        float s = 0;
        for (int k = 0; k < K; ++k)
            s += a[k] * b[(k * n + j) * 32 + threadIdx.x];
        c[j * 32 + threadIdx.x] = s;
    }
}

int main()
{
    float *a, *b, *c;
    const int n = 64;
    cudaMalloc(&a, 4 * 64);
    cudaMalloc(&b, 4 * 64 * n * 32);
    cudaMalloc(&c, 4 * D * D * 32 + 4 * n * 32);
    hoist7<<<264, 32>>>(a, b, c);
    alias<<<264, 32>>>(a, b, c);
    sweep<16><<<264, 32>>>(a, b, c, n);
    sweep<64><<<264, 32>>>(a, b, c, n);
    return 0;
}
