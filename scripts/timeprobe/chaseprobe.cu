// chaseprobe: loads whose address waits on another load's data. Each
// thread walks `iters` rows of n = gridDim.x * blockDim.x elements, one
// element a row; idx holds t (the thread's rank) in every row, so the
// three kernels read the same sectors of data: ch_indep reads idx and data
// side by side (both loads of an iteration in flight together), ch_gather
// reads idx, then data at the index it read (two waits an iteration),
// ch_gather2 reads idx twice over before data (three). Launched with one
// warp an SM and with eight, where a warp's waits are most of the time.
// Run by scripts/timeprobe/chaseprobe.sh under Nsight Compute.
#include <cstdio>
#include <vector>

__global__ void ch_indep(const int *__restrict__ idx, const float *__restrict__ data, float *out,
                         int iters)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
    float acc = 0.0f;
    for (int k = 0; k < iters; k++)
        acc += data[k * n + t] + (float)idx[k * n + t];
    out[t] = acc;
}

__global__ void ch_gather(const int *__restrict__ idx, const float *__restrict__ data, float *out,
                          int iters)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
    float acc = 0.0f;
    for (int k = 0; k < iters; k++) {
        int i = idx[k * n + t];
        acc += data[k * n + i];
    }
    out[t] = acc;
}

__global__ void ch_gather2(const int *__restrict__ idx, const float *__restrict__ data, float *out,
                           int iters)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
    float acc = 0.0f;
    for (int k = 0; k < iters; k++) {
        int i = idx[k * n + t];
        int j = idx[k * n + i];
        acc += data[k * n + j];
    }
    out[t] = acc;
}

int main()
{
    const int blocks = 132, iters = 512, wide = 256;
    const size_t most = (size_t)blocks * wide * iters;
    int *idx;
    float *data, *out;
    if (cudaMalloc(&idx, most * sizeof(int)) != cudaSuccess ||
        cudaMalloc(&data, most * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&out, (size_t)blocks * wide * sizeof(float)) != cudaSuccess)
        return 1;
    cudaMemset(data, 0, most * sizeof(float));
    for (int threads = 32; threads <= wide; threads *= 8) {
        const int n = blocks * threads;
        std::vector<int> h((size_t)n * iters);
        for (size_t e = 0; e < h.size(); e++)
            h[e] = (int)(e % n);
        cudaMemcpy(idx, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice);
        ch_indep<<<blocks, threads>>>(idx, data, out, iters);
        ch_gather<<<blocks, threads>>>(idx, data, out, iters);
        ch_gather2<<<blocks, threads>>>(idx, data, out, iters);
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("chaseprobe: %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
