// main's option loop sets a string (`path = argv[i + 1]`): a test of it
// later is not a test of the null pointer it started as, so with -f given
// the size it chooses has no value rather than the -n one.
#include <stdlib.h>
#include <string.h>

__global__ void fill(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = 1.0f;
}

int main(int argc, char **argv)
{
    int n = 1 << 16;
    const char *path = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-f"))
            path = argv[i + 1];
        else if (!strcmp(argv[i], "-n"))
            n = atoi(argv[i + 1]);
    }
    if (path)
        n = 7;
    float *a;
    cudaMalloc(&a, n * sizeof(float));
    fill<<<(n + 127) / 128, 128>>>(a, n);
    cudaFree(a);
    return 0;
}
