// Sizes a program reads from its command line, as benchmark programs do:
// `gpulint argv-sizes.cu --args "1000000 10 2.5"` knows them.
#include <cstdio>
#include <cstdlib>
#include <string>

__global__ void axpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__global__ void fill(int *p, long n)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 7;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        printf("usage: %s N REPEAT ALPHA [BLOCK] [WORDS]\n", argv[0]);
        return 1;
    }
    const int n = atoi(argv[1]);
    const int repeat = std::stoi(argv[2]);
    const float alpha = atof(argv[3]);
    const int block = argc > 4 ? atoi(argv[4]) : 256;
    const long words = argc > 5 ? strtol(argv[5], NULL, 0) : 4096;
    float *x, *y;
    int *p;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&p, words * sizeof(int));
    for (int r = 0; r < repeat; r++)
        axpy<<<(n + block - 1) / block, block>>>(y, x, alpha, n);
    fill<<<(words + 127) / 128, 128>>>(p, words);
    cudaDeviceSynchronize();
    return 0;
}
