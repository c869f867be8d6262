// stencil.cu: a 5-point 2D stencil with a one-element halo on every side of
// the shared tile. The tile is [BY + 2][BX + 2] floats: the "+2" is the halo,
// not padding against bank conflicts (a row of 34 floats happens to shift
// consecutive rows by two banks).
//
// Build: nvcc -arch=sm_90 -o stencil stencil.cu
#include <cstdio>
#include <cuda_runtime.h>

#define BX 32
#define BY 8

__global__ void stencil5(const float *in, float *out, int nx, int ny)
{
    __shared__ float tile[BY + 2][BX + 2];

    int gx = blockIdx.x * BX + threadIdx.x;
    int gy = blockIdx.y * BY + threadIdx.y;
    int lx = threadIdx.x + 1;
    int ly = threadIdx.y + 1;
    if (gx >= nx || gy >= ny)
        return;

    tile[ly][lx] = in[gy * nx + gx];
    // The halo: the threads on the tile's edges load one more element.
    if (threadIdx.x == 0 && gx > 0)
        tile[ly][0] = in[gy * nx + gx - 1];
    if (threadIdx.x == BX - 1 && gx + 1 < nx)
        tile[ly][BX + 1] = in[gy * nx + gx + 1];
    if (threadIdx.y == 0 && gy > 0)
        tile[0][lx] = in[(gy - 1) * nx + gx];
    if (threadIdx.y == BY - 1 && gy + 1 < ny)
        tile[BY + 1][lx] = in[(gy + 1) * nx + gx];
    __syncthreads();

    out[gy * nx + gx] = 0.25f * (tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] +
                                 tile[ly + 1][lx]) -
                        tile[ly][lx];
}

int main()
{
    const int nx = 4096, ny = 4096;
    float *in, *out;
    cudaMalloc(&in, nx * ny * sizeof(float));
    cudaMalloc(&out, nx * ny * sizeof(float));

    dim3 block(BX, BY);
    dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY);
    stencil5<<<grid, block>>>(in, out, nx, ny);

    cudaError_t err = cudaDeviceSynchronize();
    printf("stencil: %s\n", cudaGetErrorString(err));
    cudaFree(in);
    cudaFree(out);
    return err == cudaSuccess ? 0 : 1;
}
