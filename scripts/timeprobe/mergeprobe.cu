// mergeprobe: when L1 merges a warp's stores that write the same sectors
// back to back before they reach L2. Each thread stores k words of 4 or 8
// bytes, one store instruction after another, at offsets 0, w, ..., (k-1)w
// of its own k*w bytes, so the warp's k requests together fill every
// sector they touch, each request alone only 1/k of each. CUB's unrolled
// byte stores (k = 4, 4 sectors a request) reach L2 merged; lulesh's fb
// (doubles, k = 8, 32 sectors a request) mostly not. One line a kernel:
//
//   w,k,sectors_per_request,lines_per_request,us
//
// Stores are inline PTX so that nvcc cannot join them into vector
// stores. Buffer 24 MiB (L2 keeps it), 21 passes, median of 5 launches.
// Run it under Nsight Compute for lts__t_sectors_op_write.sum against
// l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum (the L1 merge ratio).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

template <int K>
__global__ void store4(float *a, long threads, int passes)
{
    long stride = (long)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (long t = (long)blockIdx.x * blockDim.x + threadIdx.x; t < threads; t += stride) {
            float *q = a + t * K;
#pragma unroll
            for (int j = 0; j < K; j++)
                asm volatile("st.global.f32 [%0], %1;" ::"l"(q + j), "f"((float)p) : "memory");
        }
}

template <int K>
__global__ void store8(double *a, long threads, int passes)
{
    long stride = (long)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (long t = (long)blockIdx.x * blockDim.x + threadIdx.x; t < threads; t += stride) {
            double *q = a + t * K;
#pragma unroll
            for (int j = 0; j < K; j++)
                asm volatile("st.global.f64 [%0], %1;" ::"l"(q + j), "d"((double)p) : "memory");
        }
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

template <int W, int K>
static void run(void *buf, long bytes, int sms)
{
    long threads = bytes / (W * K);
    int passes = 21;
    float ms = median_ms([&] {
        if (W == 4)
            store4<K><<<sms * 8, 256>>>((float *)buf, threads, passes);
        else
            store8<K><<<sms * 8, 256>>>((double *)buf, threads, passes);
    });
    int lane_bytes = W * K;
    int sectors = lane_bytes >= 32 ? 32 : 32 * lane_bytes / 32;
    int lines = lane_bytes >= 128 ? 32 : 32 * lane_bytes / 128;
    printf("%d,%d,%d,%d,%.3f\n", W, K, sectors, lines, ms * 1e3 / passes);
}

int main()
{
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const long bytes = 24L << 20;
    void *a;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMemset(a, 0, bytes));
    printf("w,k,sectors_per_request,lines_per_request,us\n");
    run<4, 1>(a, bytes, sms);
    run<4, 2>(a, bytes, sms);
    run<4, 4>(a, bytes, sms);
    run<4, 8>(a, bytes, sms);
    run<4, 16>(a, bytes, sms);
    run<4, 32>(a, bytes, sms);
    run<8, 1>(a, bytes, sms);
    run<8, 2>(a, bytes, sms);
    run<8, 4>(a, bytes, sms);
    run<8, 8>(a, bytes, sms);
    run<8, 16>(a, bytes, sms);
    return 0;
}
