// coalescing.cu: how the addresses of one warp's global loads and stores map
// to 32-byte sectors.
//
//   copyContiguous   lane i reads word i: one warp request touches 4
//                    sectors (128 bytes), all of them used (100%).
//   copyStrided      lane i reads word i * stride: with stride 2 half of every
//                    sector is wasted (50%); from stride 8 on each lane needs a
//                    sector of its own.
//   aosField         reads one float field of an array of 16-byte structs:
//                    4 of every 16 bytes moved are used (25%).
//   soaField         the same data laid out as a structure of arrays: 100%.
//   copyFloat4       vector loads: 16 bytes per lane, 512 per warp request.
//   columnRead       walks a column of a row-major matrix: one sector per lane
//                    (32 sectors per request).
//
// Build: nvcc -arch=sm_90 -o coalescing coalescing.cu
#include <cstdio>
#include <cuda_runtime.h>

struct Particle {
    float x, y, z, mass;
};

struct Particles {
    float *x, *y, *z, *mass;
};

__global__ void copyContiguous(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void copyStrided(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i * stride < n)
        out[i] = in[i * stride];
}

__global__ void aosField(const Particle *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = p[i].y;
}

__global__ void soaField(Particles p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = p.y[i];
}

__global__ void copyFloat4(const float4 *in, float4 *out, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4)
        out[i] = in[i];
}

__global__ void columnRead(const float *m, float *colSum, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    float sum = 0.0f;
    for (int r = 0; r < rows; r++)
        sum += m[r * cols + col];      // coalesced: consecutive lanes, consecutive columns
    colSum[col] = sum;
    float first = m[col * cols];       // a row start per lane: strided by a whole row
    colSum[col] += first;
}

int main()
{
    const int n = 1 << 22;
    const int threads = 256;
    float *a, *b;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));

    copyContiguous<<<(n + threads - 1) / threads, threads>>>(a, b, n);
    copyStrided<<<(n / 2 + threads - 1) / threads, threads>>>(a, b, n, 2);
    aosField<<<(n / 4 + threads - 1) / threads, threads>>>((const Particle *)a, b, n / 4);
    Particles soa = {a, a + n / 4, a + n / 2, a + 3 * (n / 4)};
    soaField<<<(n / 4 + threads - 1) / threads, threads>>>(soa, b, n / 4);
    copyFloat4<<<(n / 4 + threads - 1) / threads, threads>>>((const float4 *)a, (float4 *)b, n / 4);
    columnRead<<<2048 / threads, threads>>>(a, b, 2048, 2048);

    cudaError_t err = cudaDeviceSynchronize();
    printf("coalescing: %s\n", cudaGetErrorString(err));
    cudaFree(a);
    cudaFree(b);
    return err == cudaSuccess ? 0 : 1;
}
