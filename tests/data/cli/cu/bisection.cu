// Binary searches over n = 1000 sorted floats: the passes of each loop
// follow from the interval's width, whichever arm the data picks. Counted
// at the most: 10 passes each here.
#include <cuda_runtime.h>

// Half-open bounds, a midpoint that never leaves the interval.
__global__ void search_halves(const float *a, const float *z, int *r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = z[i];
    int low = 0, high = n;
    while (high - low > 1) {
        int mid = low + (high - low) / 2;
        if (v < a[mid])
            high = mid;
        else
            low = mid;
    }
    r[i] = low;
}

// std::lower_bound's loop.
__global__ void search_lower_bound(const float *a, const float *z, int *r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = z[i];
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (a[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    r[i] = lo;
}

// Closed bounds, both moved past the midpoint.
__global__ void search_closed(const float *a, const float *z, int *r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = z[i];
    int lo = 0, hi = n - 1, found = -1;
    while (lo <= hi) {
        int mid = (lo + hi) >> 1;
        found = mid;
        if (a[mid] < v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    r[i] = found;
}

// Leaves as soon as it finds the value: its passes depend on the data.
__global__ void search_early_exit(const float *a, const float *z, int *r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = z[i];
    int lo = 0, hi = n - 1;
    r[i] = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (a[mid] == v) {
            r[i] = mid;
            return;
        }
        if (a[mid] < v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
}

int main()
{
    const int n = 1000, m = 65536;
    float *a, *z;
    int *r;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&z, m * sizeof(float));
    cudaMalloc(&r, m * sizeof(int));
    search_halves<<<m / 256, 256>>>(a, z, r, n);
    search_lower_bound<<<m / 256, 256>>>(a, z, r, n);
    search_closed<<<m / 256, 256>>>(a, z, r, n);
    search_early_exit<<<m / 256, 256>>>(a, z, r, n);
    cudaDeviceSynchronize();
    return 0;
}
