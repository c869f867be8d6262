// l1lines.cu: how many clocks the L1 takes for a warp's global load that
// touches L lines, by the stride between those lines. The time model takes
// a load's wavefronts as the lines it touches (one a clock); NVIDIA's
// engineers describe the tag stage as resolving 4 sets x 4 sectors a
// clock, so lines in different sets may go faster than one a clock and
// lines in one set not. Each lane group of 32 / L lanes reads consecutive
// floats of one line; the groups are `stride` bytes apart. Every warp of
// an SM reads the same lines (mode shared: always L1 hits once warm) or
// its own (mode private: 32 warps' lines, which the L1 may not hold when
// they fall in few sets). One 1024-thread block an SM, the L1 at its
// largest carve-out; clocks per request = the block's clock64 span over
// its warps' requests (one request a warp an iteration).
//
//   nvcc -O3 -arch=sm_90 -o l1lines l1lines.cu && ./l1lines [FEWEST_LINES]
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define ITERS 4096

__global__ void __launch_bounds__(1024, 1)
    lines_probe(const float *__restrict__ a, float *out, long long *span, int lines, int stride_f,
                int warp_stride_f, int zero)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int group = 32 / lines;
    const float *p = a + (size_t)warp * warp_stride_f + (lane / group) * stride_f + lane % group;
    float s = 0;
    __syncthreads();
    long long t0 = clock64();
#pragma unroll 1
    for (int it = 0; it < ITERS; it++)
        s += p[(it & 3) * zero]; // zero = 0 at run time: the same lines, not hoisted
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0)
        span[blockIdx.x] = t1 - t0;
    if (s == 12345.0f)
        out[threadIdx.x] = s;
}

int main(int argc, char **argv)
{
    int least = argc > 1 ? atoi(argv[1]) : 0; // the fewest lines (under Nsight Compute)
    int dev = 0, sms;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaFuncSetAttribute(lines_probe, cudaFuncAttributePreferredSharedMemoryCarveout, 0);
    size_t bytes = (size_t)256 << 20;
    float *a, *out;
    long long *span, *h = new long long[sms];
    cudaMalloc(&a, bytes);
    cudaMemset(a, 0, bytes);
    cudaMalloc(&out, 4096);
    cudaMalloc(&span, sms * sizeof(long long));
    const int strides[] = {128,  132,  136,  160,  256,  384,   392,   512,  640,
                           1024, 1152, 2048, 4096, 8192, 16384, 32768, 65536};
    const int line_counts[] = {1, 2, 4, 8, 16, 32};
    printf("mode,lines,stride_bytes,clocks_per_request\n");
    for (int mode = 0; mode < 2; mode++)
        for (int li = 0; li < 6; li++)
            for (int si = 0; si < (int)(sizeof strides / sizeof *strides); si++) {
                int lines = line_counts[li], stride = strides[si];
                if ((lines == 1 && si > 0) || lines < least)
                    continue;
                int stride_f = stride / 4;
                // private: each warp past the last warp's lines
                int warp_f = mode ? stride_f * lines + 32 : 0;
                if ((size_t)(warp_f * 32 + stride_f * lines) * 4 > bytes)
                    continue;
                lines_probe<<<sms, 1024>>>(a, out, span, lines, stride_f, warp_f, 0);
                lines_probe<<<sms, 1024>>>(a, out, span, lines, stride_f, warp_f, 0);
                cudaMemcpy(h, span, sms * sizeof(long long), cudaMemcpyDeviceToHost);
                long long worst = 0;
                for (int i = 0; i < sms; i++)
                    worst = h[i] > worst ? h[i] : worst;
                printf("%s,%d,%d,%.3f\n", mode ? "private" : "shared", lines, stride,
                       (double)worst / (32.0 * ITERS));
            }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
