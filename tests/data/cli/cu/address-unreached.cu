// A size whose address goes to a reader only on a path the arguments
// leave out (a matrix read from a file only with -f) keeps the value the
// options give it; the same call on a path that runs leaves it unknown.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__global__ void scale(float *a, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n * n)
        a[i] *= s;
}

int read_matrix(const char *path, float **m, int *dim);

int main(int argc, char **argv)
{
    int dim = 64;
    const char *path = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-f"))
            path = argv[i + 1];
        else if (!strcmp(argv[i], "-n"))
            dim = atoi(argv[i + 1]);
    }
    float *host = NULL;
    if (path)
        read_matrix(path, &host, &dim);
    float *a;
    cudaMalloc(&a, (size_t)dim * dim * sizeof(float));
    scale<<<(dim * dim + 255) / 256, 256>>>(a, dim, 0.5f);
    int other = 128;
    read_matrix("b.txt", &host, &other);
    scale<<<(other * other + 255) / 256, 256>>>(a, other, 2.0f);
    cudaFree(a);
    return 0;
}
