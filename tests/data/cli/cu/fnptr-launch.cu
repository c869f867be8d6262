// gpulint's own test: kernels launched through a function pointer chosen
// at run time (each case of a switch sets it) and through a table of
// kernels; every kernel the pointer may hold gets the launch's
// configuration.
#include <cstdlib>
#define TILE 32
#define ROWS 8

__global__ void copy_rows(float *out, const float *in, int width)
{
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * width + x] = in[(y + j) * width + x];
}

__global__ void transpose_naive(float *out, const float *in, int width)
{
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[x * width + (y + j)] = in[(y + j) * width + x];
}

__global__ void transpose_tiled(float *out, const float *in, int width)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void scale(float *out, const float *in, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i] + width;
}

int main(int argc, char **argv)
{
    const int n = 2048;
    float *a = nullptr, *b = nullptr;
    cudaMalloc(&a, sizeof(float) * n * n);
    cudaMalloc(&b, sizeof(float) * n * n);
    void (*kernel)(float *, const float *, int) = nullptr;
    switch (argc > 1 ? atoi(argv[1]) : 0) {
    case 0:
        kernel = &copy_rows;
        break;
    case 1:
        kernel = &transpose_naive;
        break;
    default:
        kernel = transpose_tiled;
        break;
    }
    dim3 grid(n / TILE, n / TILE), threads(TILE, ROWS);
    kernel<<<grid, threads>>>(b, a, n);

    void (*pointwise[])(float *, const float *, int) = {scale};
    for (int k = 0; k < 1; k++)
        pointwise[k]<<<n * n / 256, 256>>>(b, a, n);
    cudaDeviceSynchronize();
    return 0;
}
