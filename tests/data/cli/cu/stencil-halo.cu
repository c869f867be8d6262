// Stencils whose blocks share halo rows with their neighbours. A 2D
// five-point stencil's row of blocks reads 256 KB before the next row
// re-reads the shared halo: L2 still holds it, and DRAM reads each byte
// once. A 3D seven-point stencil over 8192 x 8192 x 8 floats re-reads its
// neighbour planes a whole 256 MiB plane of blocks later, past what L2
// holds: those halo planes come from DRAM again.
#include <cuda_runtime.h>

__global__ void jacobi2d(const float *in, float *out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && y > 0 && x < n - 1 && y < n - 1)
        out[y * n + x] = 0.2f * (in[y * n + x] + in[y * n + x - 1] + in[y * n + x + 1] +
                                 in[(y - 1) * n + x] + in[(y + 1) * n + x]);
}

__global__ void heat3d(const float *in, float *out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    size_t plane = (size_t)nx * ny, at = z * plane + (size_t)y * nx + x;
    if (x > 0 && y > 0 && z > 0 && x < nx - 1 && y < ny - 1 && z < nz - 1)
        out[at] = in[at] + 0.1f * (in[at - 1] + in[at + 1] + in[at - nx] + in[at + nx] +
                                   in[at - plane] + in[at + plane] - 6.0f * in[at]);
}

int main()
{
    const int n = 8192, nz = 8;
    float *in, *out;
    cudaMalloc(&in, sizeof(float) * n * n * nz);
    cudaMalloc(&out, sizeof(float) * n * n * nz);
    jacobi2d<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(in, out, n);
    heat3d<<<dim3(n / 32, n / 8, nz), dim3(32, 8)>>>(in, out, n, n, nz);
    cudaDeviceSynchronize();
    return 0;
}
