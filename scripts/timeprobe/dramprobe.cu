// dramprobe: what reaches DRAM during a launch, for gpulint's DRAM
// estimate (docs/roofline.md, "DRAM bytes"). Run under Nsight Compute
// (caches flushed before each launch, its default) and read
// dram__bytes_read.sum and dram__bytes_write.sum per launch; the program
// prints one line per launch, in launch order, saying what it did.
//
//   gather   one 4-byte load per thread at a stride of 4 to 512 bytes:
//            the bytes DRAM reads per load (its access granularity)
//   write    W bytes stored (float4), nothing read: how much of what a
//            launch writes L2 still holds at its end (never written
//            during it)
//   copy     W bytes read and W written: the same with a read stream
//   add      2W read, W written (vector add)
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void gather(const float *__restrict__ a, float *out, long stride, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = a[i * stride];
        if (v == 12345.0f) // never: keeps the load
            out[0] = v;
    }
}

__global__ void write_only(float4 *o, long n4)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4)
        o[i] = make_float4(1, 2, 3, (float)i);
}

__global__ void copy(const float4 *__restrict__ a, float4 *o, long n4)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4)
        o[i] = a[i];
}

__global__ void add(const float4 *__restrict__ a, const float4 *__restrict__ b, float4 *o, long n4)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = a[i], y = b[i];
        o[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

static unsigned blocks(long n) { return (unsigned)((n + 255) / 256); }

int main()
{
    const long big = 1L << 30; // bytes in each buffer
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, big));
    CHECK(cudaMalloc(&b, big));
    CHECK(cudaMalloc(&c, big));
    CHECK(cudaMemset(a, 0, big));
    CHECK(cudaMemset(b, 0, big));
    CHECK(cudaMemset(c, 0, big));
    const long loads = 1L << 20;
    for (long stride_bytes : {4L, 32L, 64L, 128L, 256L, 512L}) {
        long stride = stride_bytes / 4;
        gather<<<blocks(loads), 256>>>(a, c, stride, loads);
        CHECK(cudaDeviceSynchronize());
        printf("gather stride=%ld loads=%ld\n", stride_bytes, loads);
    }
    for (long mib : {1L, 4L, 8L, 16L, 24L, 32L, 48L, 64L, 96L, 128L, 256L}) {
        long n4 = (mib << 20) / 16;
        write_only<<<blocks(n4), 256>>>((float4 *)c, n4);
        CHECK(cudaDeviceSynchronize());
        printf("write bytes=%ld\n", mib << 20);
    }
    for (long mib : {1L, 4L, 8L, 16L, 24L, 32L, 48L, 64L, 96L, 128L, 256L}) {
        long n4 = (mib << 20) / 16;
        copy<<<blocks(n4), 256>>>((const float4 *)a, (float4 *)c, n4);
        CHECK(cudaDeviceSynchronize());
        printf("copy bytes=%ld\n", mib << 20);
    }
    for (long mib : {4L, 16L, 32L, 64L, 128L, 256L}) {
        long n4 = (mib << 20) / 16;
        add<<<blocks(n4), 256>>>((const float4 *)a, (const float4 *)b, (float4 *)c, n4);
        CHECK(cudaDeviceSynchronize());
        printf("add bytes=%ld\n", mib << 20);
    }
    return 0;
}
