// mergeprobe2: what decides whether L1 merges a warp's back-to-back
// stores into the same sectors (mergeprobe.cu found: up to 4 lines and 16
// sectors a request, yes; 8 lines and 32 sectors, no), and whether L2
// takes faster the partial sectors that other warps of the block fill
// (a naive transpose's columns). One line a kernel:
//
//   kind,k,region_bytes,sectors_per_request,lines_per_request,us
//
//   region   each thread stores k 4-byte words, back to back, at words
//            0..k-1 of its own region (4-byte words, inline PTX)
//   vector   the same with 16-byte stores (st.global.v4.f32): CUB's
//            vectorized blocked store of 8 ints is two of them, 32 bytes
//            a thread
//   column   block 32x8: warp y stores word y of lane x's region, so the
//            block's 8 warps together fill 32 bytes of each region
//
// 24 MiB buffer (L2 keeps it), 21 passes, median of 5 launches; run under
// Nsight Compute for lts__t_sectors_op_write.sum over
// l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

template <int K, int REGION>
__global__ void region(float *a, long threads, int passes)
{
    long stride = (long)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (long t = (long)blockIdx.x * blockDim.x + threadIdx.x; t < threads; t += stride) {
            float *q = a + t * (REGION / 4);
#pragma unroll
            for (int j = 0; j < K; j++)
                asm volatile("st.global.f32 [%0], %1;" ::"l"(q + j), "f"((float)p) : "memory");
        }
}

template <int K, int REGION>
__global__ void vector(float *a, long threads, int passes)
{
    long stride = (long)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (long t = (long)blockIdx.x * blockDim.x + threadIdx.x; t < threads; t += stride) {
            float *q = a + t * (REGION / 4);
            float v = (float)p;
#pragma unroll
            for (int j = 0; j < K; j++)
                asm volatile("st.global.v4.f32 [%0], {%1, %1, %1, %1};" ::"l"(q + 4 * j), "f"(v)
                             : "memory");
        }
}

template <int REGION>
__global__ void column(float *a, long columns, int passes)
{
    long stride = (long)gridDim.x * 32;
    for (int p = 0; p < passes; p++)
        for (long x = (long)blockIdx.x * 32 + threadIdx.x; x < columns; x += stride)
            asm volatile("st.global.f32 [%0], %1;" ::"l"(a + x * (REGION / 4) + threadIdx.y),
                         "f"((float)p)
                         : "memory");
}

template <typename F>
static float median_ms(F launch)
{
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    launch();
    CHECK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < 5; r++) {
        CHECK(cudaEventRecord(e0));
        launch();
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[2];
}

static int units(int region, int unit)
{
    return region >= unit ? 32 : 32 * region / unit;
}

template <int K, int REGION>
static void run_region(float *a, long bytes, int sms)
{
    const int passes = 21;
    long threads = bytes / REGION;
    float ms = median_ms([&] { region<K, REGION><<<sms * 8, 256>>>(a, threads, passes); });
    printf("region,%d,%d,%d,%d,%.3f\n", K, REGION, units(REGION, 32), units(REGION, 128),
           ms * 1e3 / passes);
}

template <int K, int REGION>
static void run_vector(float *a, long bytes, int sms)
{
    const int passes = 21;
    long threads = bytes / REGION;
    float ms = median_ms([&] { vector<K, REGION><<<sms * 8, 256>>>(a, threads, passes); });
    printf("vector,%d,%d,%d,%d,%.3f\n", K, REGION, units(REGION, 32), units(REGION, 128),
           ms * 1e3 / passes);
}

template <int REGION>
static void run_column(float *a, long bytes, int sms)
{
    const int passes = 21;
    long columns = bytes / REGION;
    float ms = median_ms([&] { column<REGION><<<sms * 8, dim3(32, 8)>>>(a, columns, passes); });
    printf("column,1,%d,%d,%d,%.3f\n", REGION, units(REGION, 32), units(REGION, 128),
           ms * 1e3 / passes);
}

int main()
{
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const long bytes = 24L << 20;
    float *a;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMemset(a, 0, bytes));
    printf("kind,k,region_bytes,sectors_per_request,lines_per_request,us\n");
    run_region<1, 16>(a, bytes, sms);
    run_region<2, 16>(a, bytes, sms);
    run_region<1, 32>(a, bytes, sms);
    run_region<2, 32>(a, bytes, sms);
    run_region<4, 32>(a, bytes, sms);
    run_region<1, 64>(a, bytes, sms);
    run_region<2, 64>(a, bytes, sms);
    run_region<4, 64>(a, bytes, sms);
    run_region<2, 128>(a, bytes, sms);
    run_region<4, 128>(a, bytes, sms);
    run_vector<1, 16>(a, bytes, sms);
    run_vector<1, 32>(a, bytes, sms);
    run_vector<2, 32>(a, bytes, sms);
    run_vector<2, 64>(a, bytes, sms);
    run_vector<4, 64>(a, bytes, sms);
    run_column<32>(a, bytes, sms);
    run_column<128>(a, bytes, sms);
    run_column<256>(a, bytes, sms);
    return 0;
}
