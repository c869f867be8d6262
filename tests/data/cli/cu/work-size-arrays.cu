// Work sizes kept in small arrays, as programs ported from OpenCL keep
// them: each element read at a constant index takes the list's entry or
// the assignment to that element that reaches the read; an array handed
// to a function by pointer may have any element changed, and keeps none.
#include <cstdlib>

__global__ void relax(unsigned *dist, unsigned n, unsigned pass)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n)
        dist[y * n + x] = min(dist[y * n + x], dist[y * n + pass] + dist[pass * n + x]);
}

void adjust(unsigned *sizes);

int main(int argc, char **argv)
{
    unsigned n = atoi(argv[1]);
    unsigned side = 32;
    unsigned global[2] = {n, n};
    unsigned local[2] = {side, side};
    if (local[0] * local[1] > 256) {
        side = 16;
        local[0] = side;
        local[1] = side;
    }
    unsigned *dist;
    cudaMalloc(&dist, sizeof(unsigned) * n * n);
    dim3 grid(global[0] / local[0], global[1] / local[1]);
    dim3 block(local[0], local[1]);
    relax<<<grid, block>>>(dist, n, 0);

    unsigned other[2] = {16, 16};
    adjust(other);
    relax<<<dim3(n / other[0], n / other[1]), dim3(other[0], other[1])>>>(dist, n, 1);
    cudaDeviceSynchronize();
    return 0;
}

void adjust(unsigned *sizes) { sizes[0] = 8; }
