// main reads its options in a loop over argv of its own, comparing each
// argument with strcmp (HeCBench's aop): the loop is run on --run-args, so
// paths and steps take the values given; an option the arguments do not
// name keeps its default (block = 128).
#include <stdlib.h>
#include <string.h>

__global__ void step(float *p, int n, int steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int s = 0; s < steps; s++)
            p[i] = p[i] * 0.5f + 1.0f;
}

int main(int argc, char **argv)
{
    int paths = 1024, steps = 10, block = 128;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-paths"))
            paths = strtol(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "-steps"))
            steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-block"))
            block = atoi(argv[++i]);
    }
    float *p;
    cudaMalloc(&p, paths * sizeof(float));
    step<<<(paths + block - 1) / block, block>>>(p, paths, steps);
    return 0;
}
