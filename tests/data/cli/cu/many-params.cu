// A host driver that takes a parameter per array and size, as
// Fortran-style and CT-reconstruction codes do (HeCBench's ddbp: 19): its
// launches are followed from main's call with every argument bound.
__global__ void axpy(double *y, const double *x, double a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += a * x[i];
}

void driver(double *y, const double *x, double a0, double a1, double a2, double a3, double a4,
            double a5, double a6, double a7, double a8, double a9, int n0, int n1, int n2, int n3,
            int n4, int n5, int n6, int n)
{
    axpy<<<(n + 255) / 256, 256>>>(y, x, a0 + a9, n);
}

int main()
{
    int n = 1 << 22;
    double *x, *y;
    cudaMalloc(&x, n * sizeof(double));
    cudaMalloc(&y, n * sizeof(double));
    driver(y, x, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, n);
    return 0;
}
