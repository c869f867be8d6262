// The main unit of a program of two files named together (see
// method-kernels.cu): a loop over sizes calls a method the other unit
// defines, as it would call a function.
#include "method-scaler.h"

int main()
{
    float *x;
    cudaMalloc(&x, sizeof(float) * (1 << 22));
    Scaler s{2.0f};
    for (int n = 1 << 16; n <= 1 << 22; n <<= 3)
        s.run(x, n, 256);
    cudaFree(x);
    return 0;
}
