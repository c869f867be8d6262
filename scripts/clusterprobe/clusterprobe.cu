// The runtime's cluster occupancy on the GPU at hand, for gpulint's
// cluster calculator to be judged against (issue 49): over cluster sizes
// x block sizes x dynamic shared memory x two register footprints,
// cudaOccupancyMaxActiveClusters and cudaOccupancyMaxActiveBlocksPerMultiprocessor,
// and per block size and shared memory cudaOccupancyMaxPotentialClusterSize
// (portable and with the non-portable opt-in). Then co-residency measured:
// clusters of 2, 4, 8 and 16 blocks that each hold their SMs for a while,
// every block writing %smid, %clusterid and %globaltimer at its start and
// end, so the clusters resident at once can be counted.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

__global__ void light(float *out)
{
    extern __shared__ float smem[];
    if (threadIdx.x == 0)
        smem[0] = 1.0f;
    if (out && threadIdx.x == 1024)
        out[0] = smem[0];
}

// Many live values: ptxas gives it far more registers than light.
__global__ void heavy(float *out, int n)
{
    extern __shared__ float smem[];
    float v[48];
#pragma unroll
    for (int i = 0; i < 48; i++)
        v[i] = out ? out[(threadIdx.x + i * 97) % 4096] : (float)i;
    for (int k = 0; k < n; k++)
#pragma unroll
        for (int i = 0; i < 48; i++)
            v[i] = v[i] * v[(i + 1) % 48] + 1.0f;
    float s = 0;
#pragma unroll
    for (int i = 0; i < 48; i++)
        s += v[i];
    if (threadIdx.x == 0)
        smem[0] = s;
    if (out && s == 12345.0f)
        out[threadIdx.x] = s + smem[0];
}

// Holds its SM for spin_ns, then records where and when it ran.
__global__ void resident(unsigned long long *rec, unsigned long long spin_ns)
{
    unsigned long long t0, t1, now;
    unsigned smid, cid;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - t0 < spin_ns);
    cg::this_cluster().sync();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    if (threadIdx.x == 0) {
        unsigned b = blockIdx.x;
        rec[4 * b + 0] = smid;
        rec[4 * b + 1] = cid;
        rec[4 * b + 2] = t0;
        rec[4 * b + 3] = t1;
    }
}

static const char *err_name(cudaError_t e)
{
    return e == cudaSuccess ? "ok" : cudaGetErrorName(e);
}

template <typename K> static void sweep(const char *name, K kernel, int max_optin)
{
    cudaFuncAttributes fa;
    cudaFuncGetAttributes(&fa, kernel);
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         max_optin - (int)fa.sharedSizeBytes);
    static const int blocks[] = {32, 64, 96, 128, 192, 256, 384, 512, 768, 1024};
    static const int smems[] = {0, 1024, 8192, 16384, 32768, 49152, 65536, 98304, 116736, 131072,
                                200704, 232448};
    for (int np = 0; np < 2; np++) {
        cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, np);
        for (int bi = 0; bi < 10; bi++)
            for (int si = 0; si < 12; si++) {
                int block = blocks[bi], smem = smems[si];
                if (smem + (int)fa.sharedSizeBytes > max_optin)
                    continue;
                int per_sm = -1;
                cudaError_t eb =
                    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, smem);
                cudaLaunchConfig_t cfg = {};
                cudaLaunchAttribute attr[1];
                cfg.blockDim = dim3(block, 1, 1);
                cfg.dynamicSmemBytes = smem;
                cfg.attrs = attr;
                cfg.numAttrs = 1;
                attr[0].id = cudaLaunchAttributeClusterDimension;
                attr[0].val.clusterDim.x = 1;
                attr[0].val.clusterDim.y = 1;
                attr[0].val.clusterDim.z = 1;
                cfg.gridDim = dim3(16, 1, 1);
                int potential = -1;
                cudaError_t ep = cudaOccupancyMaxPotentialClusterSize(&potential, kernel, &cfg);
                for (int c = 1; c <= 16; c++) {
                    attr[0].val.clusterDim.x = c;
                    cfg.gridDim = dim3(c * 16, 1, 1);
                    int clusters = -1;
                    cudaError_t ec = cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg);
                    printf("occ,%s,%d,%d,%d,%d,%d,%d,%s,%d,%s,%d,%s\n", name, fa.numRegs,
                           (int)fa.sharedSizeBytes, np, block, smem, c, err_name(ec), clusters,
                           err_name(eb), per_sm, c == 1 ? err_name(ep) : "");
                    if (c == 1)
                        printf("potential,%s,%d,%d,%d,%d,%s,%d\n", name, np, block, smem, c,
                               err_name(ep), potential);
                    cudaGetLastError();
                }
            }
    }
}

static void coresidency(int cluster, int block, int smem, int n_clusters)
{
    cudaFuncSetAttribute(resident, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    cudaFuncSetAttribute(resident, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    int blocks = cluster * n_clusters;
    unsigned long long *rec;
    cudaMalloc(&rec, 4 * sizeof *rec * blocks);
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    cfg.gridDim = dim3(blocks, 1, 1);
    cfg.blockDim = dim3(block, 1, 1);
    cfg.dynamicSmemBytes = smem;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    int predicted = -1;
    cudaOccupancyMaxActiveClusters(&predicted, resident, &cfg);
    cudaError_t e = cudaLaunchKernelEx(&cfg, resident, rec, 200000ULL);
    cudaError_t s = cudaDeviceSynchronize();
    unsigned long long *h = (unsigned long long *)malloc(4 * sizeof *h * blocks);
    cudaMemcpy(h, rec, 4 * sizeof *h * blocks, cudaMemcpyDeviceToHost);
    printf("res_head,%d,%d,%d,%d,%s,%s,%d\n", cluster, block, smem, n_clusters, err_name(e),
           err_name(s), predicted);
    for (int b = 0; b < blocks && e == cudaSuccess && s == cudaSuccess; b++)
        printf("res,%d,%d,%d,%d,%llu,%llu,%llu,%llu\n", cluster, block, smem, b, h[4 * b],
               h[4 * b + 1], h[4 * b + 2], h[4 * b + 3]);
    free(h);
    cudaFree(rec);
}

int main()
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("device,%s,%d,%d,%zu,%zu,%d,%d,%d\n", p.name, p.multiProcessorCount,
           p.maxThreadsPerMultiProcessor, p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin,
           p.regsPerMultiprocessor, p.maxBlocksPerMultiProcessor, p.clusterLaunch);
    int optin = (int)p.sharedMemPerBlockOptin;
    sweep("light", light, optin);
    sweep("heavy", heavy, optin);
    static const int cl[] = {1, 2, 4, 8, 16};
    for (int i = 0; i < 5; i++) {
        coresidency(cl[i], 128, 0, 2 * p.multiProcessorCount * 16 / cl[i]);
        coresidency(cl[i], 1024, 0, 2 * p.multiProcessorCount / cl[i] + 1);
        coresidency(cl[i], 256, 120 * 1024, 2 * p.multiProcessorCount / cl[i] + 1);
    }
    printf("end,%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
