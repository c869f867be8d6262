// gpulint's own test: helpers.cu with every helper written out by hand.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

template <int BM, int BN, int BK, int TM>
__global__ void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    const int col = threadIdx.x % BN;
    const int row0 = (threadIdx.x / BN) * TM;
    const float *a = A + blockIdx.y * BM * K;
    const float *b = B + blockIdx.x * BN;
    float acc[TM] = {0.0f};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = threadIdx.x; i < BM * BK; i += BM * BN / TM) {
            int r = i / BK, c = i % BK;
            As[c * BM + r] = a[k0 + r * K + c];
        }
        for (int i = threadIdx.x; i < BK * BN; i += BM * BN / TM) {
            int r = i / BN, c = i % BN;
            Bs[r * BN + c] = b[k0 * N + r * N + c];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            float bk = Bs[k * BN + col];
            for (int m = 0; m < TM; ++m)
                acc[m] += As[k * BM + row0 + m] * bk;
        }
        __syncthreads();
    }
    for (int m = 0; m < TM; ++m)
        C[(blockIdx.y * BM + row0 + m) * N + blockIdx.x * BN + col] = acc[m];
}

template <class T> struct alignas(16) Pack {
    T v[16 / sizeof(T)];
};

__global__ void axpby(float *out, const float *x, const float *y, float t, int n)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (i < n) {
        Pack<float> p = *reinterpret_cast<const Pack<float> *>(x + i),
                    q = *reinterpret_cast<const Pack<float> *>(y + i), r;
        for (int k = 0; k < 4; k++)
            r.v[k] = fmaf(t, q.v[k], fmaf(-t, p.v[k], p.v[k]));
        *reinterpret_cast<Pack<float> *>(out + i) = r;
    }
}

__global__ void block_sum(const float *in, float *out, int n)
{
    __shared__ float s[32][32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int i = blockIdx.x * block.size() + block.thread_rank();
    s[warp.thread_rank()][warp.meta_group_rank()] = 0.0f;
    if (i < n)
        s[warp.thread_rank()][warp.meta_group_rank()] += in[i];
    block.sync();
    float v = cg::reduce(warp, s[warp.meta_group_rank()][warp.thread_rank()], cg::plus<float>());
    if (warp.thread_rank() == 0)
        out[blockIdx.x * 32 + warp.meta_group_rank()] = v;
}

int main()
{
    const int M = 4096, N = 4096, K = 4096;
    float *A, *B, *C;
    cudaMalloc(&A, sizeof(float) * M * K);
    cudaMalloc(&B, sizeof(float) * K * N);
    cudaMalloc(&C, sizeof(float) * M * N);
    dim3 grid(N / 64, M / 64);
    sgemm<64, 64, 8, 8><<<grid, 64 * 64 / 8>>>(M, N, K, A, B, C);
    const int n = 1 << 24;
    axpby<<<n / 4 / 256, 256>>>(C, A, B, 0.25f, n);
    block_sum<<<n / 1024, 1024>>>(A, C, n);
    cudaDeviceSynchronize();
    return 0;
}
