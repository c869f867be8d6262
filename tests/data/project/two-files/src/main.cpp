// A benchmark in two files, as many are built: main sets the sizes and
// calls into the kernels' file (kernels.cu), which launches with them.
#include <cstdlib>
#include "bench.h"

int main(int argc, char **argv)
{
    int n = 1 << 22;
    const int reps = 10;
    float *x = nullptr, *y = nullptr, *out = nullptr;
    for (int i = 0; i < 3; i++)
        run_saxpy(y, x, n, reps);
    run_reduce(x, out, (int64_t)n * 4);
    int m = argc > 1 ? atoi(argv[1]) : 1000;
    run_saxpy(y, x, m, 1);
    return 0;
}
