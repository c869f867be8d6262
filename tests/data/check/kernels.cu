// Kernels behind gpulint check's golden tests (tests/cli/check-*.test).
// base.log and head.log carry resource usage in nvcc 13's -Xptxas -v format
// with numbers edited to make each case; the cases that compile this file
// need only that it builds.
template <int TILE>
__global__ void gemm(float *c, const float *a, const float *b, int n)
{
    __shared__ float sa[TILE][TILE];
    sa[threadIdx.y][threadIdx.x] = a[threadIdx.y * n + threadIdx.x];
    __syncthreads();
    c[threadIdx.y * n + threadIdx.x] = sa[threadIdx.x][threadIdx.y] * b[threadIdx.x];
}

__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

namespace fft {
__global__ void butterfly(float2 *data, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 u = data[i], v = data[i + stride];
    data[i] = make_float2(u.x + v.x, u.y + v.y);
    data[i + stride] = make_float2(u.x - v.x, u.y - v.y);
}
} // namespace fft

template <int TILE>
__global__ void transpose(float *out, const float *in)
{
    __shared__ float tile[TILE][TILE + 1];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

template __global__ void gemm<32>(float *, const float *, const float *, int);
template __global__ void transpose<32>(float *, const float *);
