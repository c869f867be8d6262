// A program that reads its options in main's own loop, as ising's does:
// getopt_long with a table of long options, the short ones given on the
// command line (--run-args). The loop is run as the program runs it, so
// n and block take the values the arguments give; a value no option sets
// keeps its default.
#include <getopt.h>
#include <stdlib.h>

__global__ void fill(float *x, long n, float v)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = v;
}

int main(int argc, char **argv)
{
    long n = 1 << 20;
    int block = 256;
    int repeat = 10;
    while (1) {
        static struct option long_options[] = {{"size", required_argument, 0, 'n'},
                                               {"block", required_argument, 0, 'b'},
                                               {"repeat", required_argument, 0, 'r'},
                                               {0, 0, 0, 0}};
        int option_index = 0;
        int ch = getopt_long(argc, argv, "n:b:r:", long_options, &option_index);
        if (ch == -1)
            break;
        switch (ch) {
        case 'n':
            n = atol(optarg);
            break;
        case 'b':
            block = atoi(optarg);
            break;
        case 'r':
            repeat = atoi(optarg);
            break;
        default:
            exit(EXIT_FAILURE);
        }
    }
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    for (int r = 0; r < repeat; r++)
        fill<<<(n + block - 1) / block, block>>>(x, n, 1.0f);
    cudaFree(x);
    return 0;
}
