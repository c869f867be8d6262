// What L1 keeps of a 5-point stencil's overlapping loads: rf_stencil and
// tr_copy from the reference kernels (the same DRAM bytes; the stencil runs
// 23-38% longer), and two halves of the stencil: the three loads of one row
// (x - 1, x, x + 1: the same lines, misaligned by a word) and the three of
// one column (rows y - 1, y, y + 1: lines other warps of the block load
// too). Nsight Compute's L1 and L2 sector counts say whether a load that
// meets a line another load of the warp (or of the block) is still
// fetching is a hit or goes to L2 again. Run by l2share.sh.
#include <cstdio>

#include "../../kernels/roofline.cu"
#include "../../kernels/transpose.cu"

#define S STENCIL_N

extern "C" __global__ void st_row3(const float *in, float *out)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= 1 && x < S - 1)
        out[y * S + x] = in[y * S + x - 1] + in[y * S + x] + in[y * S + x + 1];
}

extern "C" __global__ void st_col3(const float *in, float *out)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y >= 1 && y < S - 1)
        out[y * S + x] = in[(y - 1) * S + x] + in[y * S + x] + in[(y + 1) * S + x];
}

// The same row loads, each after the one before has arrived (a dependent
// index): whatever the first fetched is in L1 by the time of the second.
extern "C" __global__ void st_row3_dep(const float *in, float *out)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= 1 && x < S - 1) {
        const float c = in[y * S + x];
        const int z = c == 12345.0f; // 0: the inputs are zero
        const float l = in[y * S + x - 1 + z];
        const int w = l == 12345.0f;
        out[y * S + x] = c + l + in[y * S + x + 1 + w];
    }
}

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e = (x);                                                                       \
        if (e != cudaSuccess) {                                                                    \
            printf("%s: %s\n", #x, cudaGetErrorString(e));                                         \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main()
{
    const size_t n = (size_t)S * S;
    float *a, *c;
    CHECK(cudaMalloc(&a, n * 4));
    CHECK(cudaMalloc(&c, n * 4));
    CHECK(cudaMemset(a, 0, n * 4));
    const dim3 grid(S / 32, S / 8), block(32, 8);
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    const char *names[] = {"rf_stencil", "tr_copy", "st_row3", "st_col3", "st_row3_dep"};
    for (int k = 0; k < 5; k++) {
        float ms[6];
        for (int r = 0; r < 6; r++) {
            cudaEventRecord(t0);
            if (k == 0)
                rf_stencil<<<grid, block>>>(a, c);
            else if (k == 1)
                tr_copy<<<dim3(TR_N / 32, TR_N / 32), dim3(32, 8)>>>(a, c);
            else if (k == 2)
                st_row3<<<grid, block>>>(a, c);
            else if (k == 3)
                st_col3<<<grid, block>>>(a, c);
            else
                st_row3_dep<<<grid, block>>>(a, c);
            cudaEventRecord(t1);
            CHECK(cudaEventSynchronize(t1));
            cudaEventElapsedTime(&ms[r], t0, t1);
        }
        // the median of the last five (the first warms up)
        for (int i = 1; i < 6; i++)
            for (int j = i + 1; j < 6; j++)
                if (ms[j] < ms[i]) {
                    const float t = ms[i];
                    ms[i] = ms[j];
                    ms[j] = t;
                }
        printf("%s %.4f ms (median of 5, CUDA events)\n", names[k], ms[3]);
    }
    CHECK(cudaDeviceSynchronize());
    return 0;
}
