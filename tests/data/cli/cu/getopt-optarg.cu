// An option loop that checks optarg before it reads it, as HeCBench's gemv
// does (`if (optarg != NULL) size = atoi(optarg);`, and the same written
// `NULL == optarg`): a string the run was given is never the null pointer,
// so the loop runs through to the values the arguments give.
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void fill(float *x, int n, float v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = v;
}

int main(int argc, char **argv)
{
    int size = 1024;
    int block = 128;
    int opt;
    while ((opt = getopt(argc, argv, "s:b:")) != -1) {
        switch (opt) {
        case 's':
            if (optarg != NULL)
                size = atoi(optarg);
            else
                printf("size option requires an argument\n");
            break;
        case 'b':
            if (NULL == optarg)
                printf("block option requires an argument\n");
            else
                block = atoi(optarg);
            break;
        default:
            return 1;
        }
    }
    float *x;
    cudaMalloc(&x, size * sizeof(float));
    fill<<<(size + block - 1) / block, block>>>(x, size, 1.0f);
    return 0;
}
