// f64lit2: which literal a double instruction keeps as its own when it has
// two, written in one PTX instruction or in a mul that ptxas fuses into the
// add or sub that reads it (f64lit.cu's rule over-counted fuseprobe's
// mulmadd<double>, (3.75 - 0.355 * s) * s). W and V do not fit a 32-bit
// literal (their low words are not zero), F and G do. Straight kernels run
// eight steps; the loops n trips of eight. f64lit2.sh keeps the SASS and
// each launch's executed warp instructions.
#include <cstdio>

#define W 0.355
#define V 0.455
#define F 3.75
#define G 1.5
#define EIGHT(x) x x x x x x x x

__global__ void mulsub_wide_fit(double *d, int n)
{
    double s = d[threadIdx.x];
    EIGHT(s = (F - W * s) * s;)
    d[threadIdx.x] = s;
}

__global__ void mulsub_fit_wide(double *d, int n)
{
    double s = d[threadIdx.x];
    EIGHT(s = (W - F * s) * s;)
    d[threadIdx.x] = s;
}

__global__ void mulsub_wide_wide(double *d, int n)
{
    double s = d[threadIdx.x];
    EIGHT(s = (V - W * s) * s;)
    d[threadIdx.x] = s;
}

__global__ void fma_wide_wide(double *d, int n)
{
    double s = d[threadIdx.x];
    EIGHT(s = fma(s, W, V) * s;)
    d[threadIdx.x] = s;
}

__global__ void loop_mulsub_wide_fit(double *d, int n)
{
    double s = d[threadIdx.x];
    for (int i = 0; i < n; i++) {
        EIGHT(s = (F - W * s) * s;)
    }
    d[threadIdx.x] = s;
}

__global__ void loop_mulsub_wide_wide(double *d, int n)
{
    double s = d[threadIdx.x];
    for (int i = 0; i < n; i++) {
        EIGHT(s = (V - W * s) * s;)
    }
    d[threadIdx.x] = s;
}

__global__ void loop_fma_wide_wide(double *d, int n)
{
    double s = d[threadIdx.x];
    for (int i = 0; i < n; i++) {
        EIGHT(s = fma(s, W, V) * s;)
    }
    d[threadIdx.x] = s;
}

__global__ void loop_fma_wide_fit(double *d, int n)
{
    double s = d[threadIdx.x];
    for (int i = 0; i < n; i++) {
        EIGHT(s = fma(s, W, G) * s;)
    }
    d[threadIdx.x] = s;
}

int main()
{
    double *d;
    cudaMalloc(&d, 64 * sizeof(double));
    cudaMemset(d, 0, 64 * sizeof(double));
    mulsub_wide_fit<<<1, 32>>>(d, 1);
    mulsub_fit_wide<<<1, 32>>>(d, 1);
    mulsub_wide_wide<<<1, 32>>>(d, 1);
    fma_wide_wide<<<1, 32>>>(d, 1);
    for (int n = 1; n <= 101; n += 100) {
        loop_mulsub_wide_fit<<<1, 32>>>(d, n);
        loop_mulsub_wide_wide<<<1, 32>>>(d, n);
        loop_fma_wide_wide<<<1, 32>>>(d, n);
        loop_fma_wide_fit<<<1, 32>>>(d, n);
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
