// Option parsers gpulint runs or, where it cannot be sure, does not claim
// to have run: one that never ends, one that reads past the last argument,
// one built on getopt (run), one with a case range, and getopt again
// (getopt's place in argv is global: the second call starts where the
// first left off).
#include <cstdlib>
#include <cstring>
#include <unistd.h>

__global__ void fill(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 1.0f;
}

static void spin(int argc, char **argv, int *n)
{
    while (argc > 0)
        if (argv[1][0] == 'x')
            *n = 1;
}

static void last_flag(int argc, char **argv, int *n)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-n") == 0)
            *n = atoi(argv[i + 1]);
}

static void with_getopt(int argc, char **argv, int *n)
{
    int c;
    while ((c = getopt(argc, argv, "qm:")) != -1)
        if (c == 'm')
            *n = atoi(optarg);
}

// A GNU case range: which label matches is not read, so it is not run.
static void ranged(int argc, char **argv, int *n)
{
    for (int i = 1; i < argc; i++)
        switch (argv[i][0]) {
        case '0' ... '9':
            *n = atoi(argv[i]);
            break;
        default:
            break;
        }
}

int main(int argc, char **argv)
{
    int a = 1, b = 1, m = 1;
    spin(argc, argv, &a);
    last_flag(argc, argv, &b);
    with_getopt(argc, argv, &m);
    int digits = 1;
    ranged(argc, argv, &digits);
    int again = 1;
    with_getopt(argc, argv, &again);
    float *x;
    cudaMalloc(&x, 1 << 20);
    fill<<<a, 256>>>(x, a * 256);
    fill<<<b, 256>>>(x, b * 256);
    fill<<<m, 256>>>(x, m * 256);
    fill<<<again, 256>>>(x, again * 256);
    fill<<<digits, 256>>>(x, digits * 256);
    return 0;
}
