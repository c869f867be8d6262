// An option parser that keeps the value in an unsigned char: 300 wraps to
// 44, as the compiled program has it.
#include <cstdlib>
#include <cstring>
__global__ void fill(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 1.0f;
}
static void parse(int argc, char **argv, int *n)
{
    unsigned char small = 0;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-n"))
            small = atoi(argv[i + 1]);
    *n = small;
}
int main(int argc, char **argv)
{
    int n = 1;
    parse(argc, argv, &n);
    float *x;
    cudaMalloc(&x, 1 << 24);
    fill<<<n, 128>>>(x, n * 128);
    return 0;
}
