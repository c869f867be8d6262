// Host while loops around launches: a counter the condition tests and the
// body steps once per trip, at its top level, gives the trip count; a
// batched loop clamps its last batch to the bound (as HeCBench's ga does).
#include <cuda_runtime.h>

__global__ void scale(float *x, int offset, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[offset + i] *= 2.0f;
}

int main(int argc, char **argv)
{
    float *x;
    cudaMalloc(&x, 1 << 24);
    const int total = 20000, batch = 8192;

    // Batches of 8192 with the last one clamped: 3 launches, 3616 last.
    int pos = 0;
    while (pos < total) {
        int end = pos + batch;
        if (end >= total)
            end = total;
        int len = end - pos;
        scale<<<(len + 255) / 256, 256>>>(x, pos, len);
        pos = end;
    }

    // Stepped by a compound assignment: 4 launches.
    int k = 0;
    while (k < 1000) {
        scale<<<4, 256>>>(x, k, 1000);
        k += 250;
    }

    // A continue may skip the step: the trips are not known.
    int j = 0;
    while (j < 64) {
        j++;
        if (j % 2)
            continue;
        scale<<<1, 64>>>(x, j, 64);
    }

    // The step is in a branch: not known either.
    int m = 0;
    while (m < 512) {
        scale<<<2, 256>>>(x, 0, m + 1);
        if (argc > 1)
            m += 512;
        else
            m += 256;
    }
    cudaDeviceSynchronize();
    return 0;
}
