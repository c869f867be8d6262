// fillprobe: what L2 takes to absorb stores that fill a sector across
// several store instructions of one warp, as a struct copy of K 4-byte
// words (4-byte aligned) compiles: K STG.32 a thread, lane i at word
// i * K + j for the j-th. Each request writes 4 bytes of each of
// min(32, 4 K) sectors that the warp's other K - 1 requests fill (K = 1:
// whole sectors).
// Stores only, over a 24 MiB buffer L2 keeps (no DRAM), 41 passes less 1
// (as partialprobe.cu); then a copy of such structs over 384 MiB (DRAM),
// the shape of HeCBench aligned-types, timed alone. Writes a line a K.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

template <int K> struct Words { float w[K]; };

template <int K> __global__ void store_fill(float *a, long elems, int passes)
{
    long threads = (long)gridDim.x * blockDim.x;
    long t0 = (long)blockIdx.x * blockDim.x + threadIdx.x;
    for (int p = 0; p < passes; p++)
        for (long t = t0; t < elems; t += threads) {
#pragma unroll
            for (int j = 0; j < K; j++)
                a[t * K + j] = (float)(p + j);
        }
}

template <int K> __global__ void copy_fill(Words<K> *out, const Words<K> *in, long elems)
{
    long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < elems)
        out[t] = in[t];
}

static float best_of(cudaEvent_t e0, cudaEvent_t e1, void (*launch)(void *), void *arg)
{
    float best = 1e30f;
    for (int rep = 0; rep < 5; rep++) {
        CHECK(cudaEventRecord(e0));
        launch(arg);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float t;
        CHECK(cudaEventElapsedTime(&t, e0, e1));
        best = t < best ? t : best;
    }
    return best;
}

struct store_args { float *a; long elems; int passes, sms; };
struct copy_args { void *out, *in; long elems; };

template <int K> static void run_store(void *p)
{
    store_args *s = (store_args *)p;
    store_fill<K><<<s->sms * 8, 256>>>(s->a, s->elems, s->passes);
}

template <int K> static void run_copy(void *p)
{
    copy_args *c = (copy_args *)p;
    copy_fill<K><<<(unsigned)((c->elems + 255) / 256), 256>>>((Words<K> *)c->out,
                                                             (const Words<K> *)c->in, c->elems);
}

template <int K> static void probe(float *small, float *big_in, float *big_out, int sms,
                                   cudaEvent_t e0, cudaEvent_t e1)
{
    const long words = (24L << 20) / 4;
    store_args s1 = {small, words / K, 1, sms}, s41 = {small, words / K, 41, sms};
    float t1 = best_of(e0, e1, run_store<K>, &s1), t41 = best_of(e0, e1, run_store<K>, &s41);
    double pass = (t41 - t1) * 1e-3 / 40;
    long requests = words / 32;                 // one STG.32 a lane, K a thread
    long per_request = 4 * K < 32 ? 4 * K : 32; // 32 lanes 4 K bytes apart: 128 K bytes
    long sectors = requests * per_request;
    long copy_elems = (384L << 20) / (4L * K);
    copy_args c = {big_out, big_in, copy_elems};
    float tc = best_of(e0, e1, run_copy<K>, &c);
    long c_sectors = copy_elems / 32 * K * per_request;
    printf("K %d: stores over 24 MiB: %ld requests, %ld sectors a pass, %.2f us a pass, "
           "%.3g sectors/s (%.3g TB/s at 32 B), %.3g TB/s of data; copy of %ld structs "
           "(384 MiB each way): %.2f us, %ld store sectors, %.3g TB/s of data\n",
           K, requests, sectors, pass * 1e6, sectors / pass, 32.0 * sectors / pass / 1e12,
           4.0 * words / pass / 1e12, copy_elems, tc * 1e3, c_sectors,
           2.0 * (384L << 20) / (tc * 1e-3) / 1e12);
}

int main()
{
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    float *small, *big_in, *big_out;
    CHECK(cudaMalloc(&small, 24L << 20));
    CHECK(cudaMalloc(&big_in, 384L << 20));
    CHECK(cudaMalloc(&big_out, 384L << 20));
    CHECK(cudaMemset(small, 0, 24L << 20));
    CHECK(cudaMemset(big_in, 0, 384L << 20));
    CHECK(cudaMemset(big_out, 0, 384L << 20));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    probe<1>(small, big_in, big_out, sms, e0, e1);
    probe<2>(small, big_in, big_out, sms, e0, e1);
    probe<3>(small, big_in, big_out, sms, e0, e1);
    probe<4>(small, big_in, big_out, sms, e0, e1);
    probe<5>(small, big_in, big_out, sms, e0, e1);
    probe<6>(small, big_in, big_out, sms, e0, e1);
    probe<7>(small, big_in, big_out, sms, e0, e1);
    probe<8>(small, big_in, big_out, sms, e0, e1);
    probe<16>(small, big_in, big_out, sms, e0, e1);
    return 0;
}
