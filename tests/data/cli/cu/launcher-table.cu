// Launchers called through a table of function pointers, the index chosen
// at run time (HeCBench crs's coding_func_array): gpulint does not follow
// a call through a pointer, and its sizes block says so for each launcher's
// parameters.
#include <cstdlib>

__global__ void add_one(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

__global__ void twice(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

void run_add_one(float *x, int n, int threads)
{
    add_one<<<(n + threads - 1) / threads, threads>>>(x, n);
}

void run_twice(float *x, int n, int threads)
{
    twice<<<(n + threads - 1) / threads, threads>>>(x, n);
}

typedef void (*launcher)(float *, int, int);
launcher launchers[] = {run_add_one, run_twice};

int main(int argc, char **argv)
{
    int n = 1 << 20;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    int which = argc > 1 ? atoi(argv[1]) : 0;
    launchers[which % 2](x, n, 256);
    cudaDeviceSynchronize();
    cudaFree(x);
    return 0;
}
