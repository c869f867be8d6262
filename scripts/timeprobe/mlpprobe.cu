// mlpprobe: DRAM throughput against the bytes a launch keeps in flight.
// A persistent grid (b blocks of 256 threads an SM, grid-stride) where
// each thread has U independent loads of a T in flight, so the launch
// keeps SMs x b x 256 x U x sizeof(T) bytes in flight; 512 MiB read (or
// copied) per launch, beyond L2. Run under Nsight Compute (card-truth.sh):
// gpu__time_duration and dram__bytes per launch give the curve.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__device__ float first(float v) { return v; }
__device__ float first(float4 v) { return v.x; }

template <int U, typename T>
__global__ void mlp_read(const T *a, long n, float *out)
{
    long stride = (long)gridDim.x * blockDim.x;
    float s = 0;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i + (U - 1) * stride < n;
         i += U * stride) {
        T v[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u] = a[i + u * stride];
#pragma unroll
        for (int u = 0; u < U; u++)
            s += first(v[u]);
    }
    if (s == 12345.f)
        *out = s;
}

template <typename T>
__global__ void mlp_copy(const T *a, T *o, long n)
{
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += stride)
        o[i] = a[i];
}

template <int U, typename T>
static void read_at(const void *a, long bytes, int sms, float *out)
{
    for (int b : {1, 2, 4, 8})
        mlp_read<U, T><<<sms * b, 256>>>((const T *)a, bytes / (long)sizeof(T), out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
}

int main()
{
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    long bytes = 512L << 20;
    void *a, *o;
    float *out;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&o, bytes));
    CHECK(cudaMalloc(&out, 64));
    CHECK(cudaMemset(a, 1, bytes));
    // Launch IDs: four per (T, U), blocks an SM 1, 2, 4, 8:
    // 0-15 float U = 1, 2, 4, 8; 16-31 float4 U = 1, 2, 4, 8; then copies
    // 32-35 float, 36-39 float4 (b = 1, 2, 4, 8).
    read_at<1, float>(a, bytes, sms, out);
    read_at<2, float>(a, bytes, sms, out);
    read_at<4, float>(a, bytes, sms, out);
    read_at<8, float>(a, bytes, sms, out);
    read_at<1, float4>(a, bytes, sms, out);
    read_at<2, float4>(a, bytes, sms, out);
    read_at<4, float4>(a, bytes, sms, out);
    read_at<8, float4>(a, bytes, sms, out);
    for (int b : {1, 2, 4, 8})
        mlp_copy<float><<<sms * b, 256>>>((const float *)a, (float *)o, bytes / 4);
    for (int b : {1, 2, 4, 8})
        mlp_copy<float4><<<sms * b, 256>>>((const float4 *)a, (float4 *)o, bytes / 16);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("mlpprobe: %d SMs, 512 MiB a launch\n", sms);
    return 0;
}
