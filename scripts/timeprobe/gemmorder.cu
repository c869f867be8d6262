// How the blocks of the reference GEMMs run in time: gemm_naive, gemm_smem
// and gemm_regtile of kernels/gemm.cu (N = GEMM_N), copied here with each
// block's start and end (%globaltimer) and SM recorded, to see whether the
// blocks that read the same panel of B run at the same point of their K
// loop (lockstep waves: L2 serves the later ones) or drift apart. And
// gemm_naive with room for 4 and 6 blocks an SM instead of 8, for Nsight
// Compute's DRAM bytes. Run by blockorder.sh.
#include <cstdio>
#include <cstdlib>

#include "../../kernels/gemm.cu"

__device__ __forceinline__ void block_start(unsigned long long *t)
{
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        const unsigned b = blockIdx.y * gridDim.x + blockIdx.x;
        t[3 * b] = verify_globaltimer();
        t[3 * b + 2] = verify_smid();
    }
}

__device__ __forceinline__ void block_end(unsigned long long *t)
{
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0)
        t[3 * (blockIdx.y * gridDim.x + blockIdx.x) + 1] = verify_globaltimer();
}

__global__ void timed_naive(const float *a, const float *b, float *c, unsigned long long *t)
{
    block_start(t);
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < N; k++)
        sum += a[row * N + k] * b[k * N + col];
    c[row * N + col] = sum;
    block_end(t);
}

__global__ void timed_smem(const float *a, const float *b, float *c, unsigned long long *t)
{
    block_start(t);
    __shared__ float as[T][T], bs[T][T];
    const int row = blockIdx.y * T + threadIdx.y;
    const int col = blockIdx.x * T + threadIdx.x;
    float sum = 0.0f;
    for (int k0 = 0; k0 < N; k0 += T) {
        as[threadIdx.y][threadIdx.x] = a[row * N + k0 + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * N + col];
        __syncthreads();
        for (int k = 0; k < T; k++)
            sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
        __syncthreads();
    }
    c[row * N + col] = sum;
    block_end(t);
}

__global__ void timed_regtile(const float *a, const float *b, float *c, unsigned long long *t)
{
    block_start(t);
    __shared__ float as[RK][RB], bs[RK][RB];
    const int tid = threadIdx.y * 16 + threadIdx.x;
    const int row0 = blockIdx.y * RB, col0 = blockIdx.x * RB;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < N; k0 += RK) {
        for (int i = 0; i < 4; i++) {
            const int idx = tid + i * 256;
            as[idx % RK][idx / RK] = a[(row0 + idx / RK) * N + k0 + idx % RK];
            bs[idx / RB][idx % RB] = b[(k0 + idx / RB) * N + col0 + idx % RB];
        }
        __syncthreads();
        for (int k = 0; k < RK; k++) {
            float ra[4], rb[4];
            for (int i = 0; i < 4; i++) {
                ra[i] = as[k][threadIdx.y * 4 + i];
                rb[i] = bs[k][threadIdx.x * 4 + i];
            }
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                    acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            c[(row0 + threadIdx.y * 4 + i) * N + col0 + threadIdx.x * 4 + j] = acc[i][j];
    block_end(t);
}

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e = (x);                                                                       \
        if (e != cudaSuccess) {                                                                    \
            printf("%s: %s\n", #x, cudaGetErrorString(e));                                         \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

static int dump(const char *name, const unsigned long long *dt, int blocks)
{
    unsigned long long *h = (unsigned long long *)malloc(blocks * 3 * sizeof *h);
    CHECK(cudaMemcpy(h, dt, blocks * 3 * sizeof *h, cudaMemcpyDeviceToHost));
    unsigned long long t0 = ~0ull;
    for (int i = 0; i < blocks; i++)
        if (h[3 * i] < t0)
            t0 = h[3 * i];
    char path[256];
    snprintf(path, sizeof path, "%s/%s.csv", getenv("R") ? getenv("R") : ".", name);
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fprintf(f, "block,start_ns,end_ns,sm\n");
    for (int i = 0; i < blocks; i++)
        fprintf(f, "%d,%llu,%llu,%llu\n", i, h[3 * i] - t0, h[3 * i + 1] - t0, h[3 * i + 2]);
    fclose(f);
    free(h);
    return 0;
}

int main()
{
    const size_t n = (size_t)N * N;
    float *a, *b, *c;
    unsigned long long *dt;
    CHECK(cudaMalloc(&a, n * 4));
    CHECK(cudaMalloc(&b, n * 4));
    CHECK(cudaMalloc(&c, n * 4));
    CHECK(cudaMalloc(&dt, (N / 16) * (N / 16) * 3 * sizeof *dt));
    CHECK(cudaMemset(a, 0, n * 4));
    CHECK(cudaMemset(b, 0, n * 4));
    // room for 6 and 4 blocks of gemm_naive an SM (8 without)
    size_t six = 0, four = 0;
    CHECK(
        cudaFuncSetAttribute(gemm_naive, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
    for (size_t d = 1024; d <= 100 * 1024 && !four; d += 1024) {
        int nb = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, gemm_naive, 256, d));
        if (nb <= 6 && !six)
            six = d;
        if (nb <= 4)
            four = d;
    }
    printf("naive: 6 an SM with %zu, 4 with %zu bytes of dynamic shared memory\n", six, four);
    gemm_naive<<<dim3(N / 16, N / 16), dim3(16, 16), six>>>(a, b, c);
    gemm_naive<<<dim3(N / 16, N / 16), dim3(16, 16), four>>>(a, b, c);
    timed_naive<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(a, b, c, dt);
    if (dump("naive", dt, (N / 16) * (N / 16)))
        return 1;
    timed_smem<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(a, b, c, dt);
    if (dump("smem", dt, (N / 32) * (N / 32)))
        return 1;
    timed_regtile<<<dim3(N / 64, N / 64), dim3(16, 16)>>>(a, b, c, dt);
    if (dump("regtile", dt, (N / 64) * (N / 64)))
        return 1;
    CHECK(cudaDeviceSynchronize());
    printf("gemmorder: done\n");
    return 0;
}
