// A persistent kernel that synchronises the whole grid between phases
// (cooperative launch), sized from the occupancy API at run time.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void jacobi_persistent(float *a, float *b, int n, int iterations)
{
    cg::grid_group grid = cg::this_grid();
    for (int it = 0; it < iterations; ++it) {
        for (int i = grid.thread_rank(); i < n; i += grid.size()) {
            float left = i > 0 ? a[i - 1] : 0.0f;
            float right = i + 1 < n ? a[i + 1] : 0.0f;
            b[i] = 0.5f * (left + right);
        }
        grid.sync();
        float *t = a;
        a = b;
        b = t;
    }
}

int run(float *a, float *b, int n, int iterations)
{
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, jacobi_persistent, 256, 0);
    void *args[] = {&a, &b, &n, &iterations};
    return cudaLaunchCooperativeKernel((void *)jacobi_persistent, sms * per_sm, 256, args, 0, 0);
}
