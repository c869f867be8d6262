// A grid sized by a helper that takes a double: the ratio of an ellipse's
// semi-axes, rounded up by an integer ceiling written in host code.
#include <cstdlib>

int ceiling_of(double x)
{
    int value = (int)x;
    if (value < x)
        value = value + 1;
    return value;
}

__global__ void mark(float *grid, int ni, int nj)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj)
        grid[j * ni + i] = 1.0f;
}

int main(int argc, char **argv)
{
    double a = atof(argv[1]);
    double b = 1.0;
    int nj = 128;
    int ni = 1 + ceiling_of(a / b) * (nj - 1);
    float *grid;
    cudaMalloc(&grid, sizeof(float) * ni * nj);
    mark<<<dim3((ni + 15) / 16, (nj + 15) / 16), dim3(16, 16)>>>(grid, ni, nj);
    cudaDeviceSynchronize();
    return 0;
}
