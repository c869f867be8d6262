// gpu_cluster: the cluster calculator (analysis/occupancy/occ_cluster)
// against the CUDA runtime and against what the card does. For kernels of
// a spread of registers and static shared memory, every block size in
// warps, four dynamic shared memory sizes, cluster sizes 1 to 16, with and
// without cudaFuncAttributeNonPortableClusterSizeAllowed:
//   cudaOccupancyMaxActiveClusters must equal gpulint's resident clusters
//   (or both refuse), cudaOccupancyMaxPotentialClusterSize its largest
//   cluster; then clusters of 1 to 16 blocks are launched, each block
//   recording %smid and %globaltimer as it starts and ends, and the most
//   clusters running at one instant must equal the prediction; a grid that
//   is not whole clusters must fail to launch.
// The GPC layout is the bundled twin's (models/gpu, gpc_sms): a card whose
// GPCs differ fails here, which is the point. Without a GPU: "skipped: no
// GPU", exit 77; before compute capability 9.0: "skipped: no clusters".
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

extern "C" {
#include "analysis/occupancy/occ_cluster.h"
}

#include "gpu_common.h"

// Holds its SM for spin_ns, then records where and when it ran.
__global__ void resident(unsigned long long *rec, unsigned long long spin_ns)
{
    unsigned long long t0, now;
    unsigned smid;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    while (now - t0 < spin_ns);
    if (threadIdx.x == 0) {
        rec[3 * blockIdx.x] = smid;
        rec[3 * blockIdx.x + 1] = t0;
        rec[3 * blockIdx.x + 2] = now;
    }
}

struct probe_kernel {
    const char *name;
    const void *fn;
};

#define PROBE(nacc, smem)                                                                          \
    {                                                                                              \
        "probe<" #nacc "," #smem ">", (const void *)probe<nacc, smem, 0>                           \
    }
static const probe_kernel kernels[] = {PROBE(1, 0), PROBE(32, 0), PROBE(128, 0), PROBE(16, 12288),
                                       PROBE(64, 48000)};

struct tally {
    long compared = 0, mismatches = 0;
};

struct layout {
    const int *gpcs;
    int n;
};

static occ_cluster_result predict(const gpu_arch *a, const layout &g, int regs, size_t static_smem,
                                  int threads, size_t dyn, size_t max_dyn, int size, bool optin)
{
    occ_kernel k = {regs, (int64_t)static_smem, 0};
    occ_launch l = {threads, (int64_t)dyn, -1, dyn > 0 || max_dyn > 0, (int64_t)max_dyn};
    occ_result r;
    occ_compute(a, &k, &l, &r);
    occ_cluster_launch cl = {{size, 1, 1}, optin, {0, 0, 0}};
    occ_cluster_result cr;
    occ_cluster_compute(a, g.gpcs, g.n, &r, &cl, &cr);
    return cr;
}

static cudaLaunchConfig_t config(int threads, size_t dyn, int size, cudaLaunchAttribute *attr)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(size * 16, 1, 1);
    cfg.blockDim = dim3(threads, 1, 1);
    cfg.dynamicSmemBytes = dyn;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = size;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cfg;
}

static void sweep_kernel(const gpu_arch *a, const layout &g, const probe_kernel &pk, tally &t)
{
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, pk.fn));
    size_t room = (size_t)a->smem_per_block_optin - attr.sharedSizeBytes;
    CHECK(cudaFuncSetAttribute(pk.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)room));
    const size_t dyns[] = {0, 16384, 65536, room};
    for (int optin = 0; optin < 2; optin++) {
        CHECK(cudaFuncSetAttribute(pk.fn, cudaFuncAttributeNonPortableClusterSizeAllowed, optin));
        for (size_t dyn : dyns)
            for (int threads = 32; threads <= attr.maxThreadsPerBlock; threads += 32) {
                cudaLaunchAttribute la[1];
                cudaLaunchConfig_t cfg = config(threads, dyn, 1, la);
                int potential = -1;
                cudaError_t ep = cudaOccupancyMaxPotentialClusterSize(&potential, pk.fn, &cfg);
                cudaGetLastError();
                for (int size = 1; size <= 16; size++) {
                    cfg = config(threads, dyn, size, la);
                    int clusters = -1;
                    cudaError_t ec = cudaOccupancyMaxActiveClusters(&clusters, pk.fn, &cfg);
                    cudaGetLastError();
                    occ_cluster_result r = predict(a, g, attr.numRegs, attr.sharedSizeBytes,
                                                   threads, dyn, room, size, optin != 0);
                    bool same = ec == cudaSuccess
                                    ? r.failure == OCC_CLUSTER_OK && r.clusters == clusters
                                    : r.failure == OCC_CLUSTER_NEEDS_OPTIN ||
                                          r.failure == OCC_CLUSTER_TOO_LARGE;
                    if (size == 1 && ep == cudaSuccess)
                        same = same &&
                               potential == (optin ? r.largest_nonportable : r.largest_portable);
                    t.compared++;
                    if (!same && t.mismatches++ < 20)
                        std::printf("MISMATCH %s regs=%d threads=%d dyn=%zu cluster=%d optin=%d: "
                                    "runtime %s %d (largest %d), gpulint %lld (%s, largest %d)\n",
                                    pk.name, attr.numRegs, threads, dyn, size, optin,
                                    cudaGetErrorName(ec), clusters, potential,
                                    (long long)r.clusters,
                                    occ_cluster_failure_reason(r.failure)
                                        ? occ_cluster_failure_reason(r.failure)
                                        : "ok",
                                    optin ? r.largest_nonportable : r.largest_portable);
                }
            }
    }
    std::printf("%-16s regs=%3d static_smem=%6zu swept\n", pk.name, attr.numRegs,
                attr.sharedSizeBytes);
}

// The most clusters whose blocks all ran at one instant.
static long coresident(const std::vector<unsigned long long> &rec, int blocks, int size)
{
    std::map<int, std::pair<unsigned long long, unsigned long long>> span;
    for (int b = 0; b < blocks; b++) {
        unsigned long long s = rec[3 * b + 1], e = rec[3 * b + 2];
        auto it = span.find(b / size);
        if (it == span.end())
            span[b / size] = {s, e};
        else
            it->second = {std::max(it->second.first, s), std::min(it->second.second, e)};
    }
    std::vector<std::pair<unsigned long long, int>> ev;
    for (auto &kv : span)
        if (kv.second.first < kv.second.second) {
            ev.push_back({kv.second.first, 1});
            ev.push_back({kv.second.second, -1});
        }
    std::sort(ev.begin(), ev.end());
    long now = 0, most = 0;
    for (auto &e : ev)
        most = std::max(most, now += e.second);
    return most;
}

static bool residency(const gpu_arch *a, const layout &g, int size, int threads, size_t dyn)
{
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, (const void *)resident));
    CHECK(cudaFuncSetAttribute((const void *)resident,
                               cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CHECK(cudaFuncSetAttribute((const void *)resident, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               (int)dyn));
    occ_cluster_result r =
        predict(a, g, attr.numRegs, attr.sharedSizeBytes, threads, dyn, dyn, size, true);
    int blocks = (int)(2 * r.clusters + 1) * size;
    unsigned long long *d = nullptr;
    CHECK(cudaMalloc(&d, 3 * sizeof *d * blocks));
    CHECK(cudaMemset(d, 0, 3 * sizeof *d * blocks));
    cudaLaunchAttribute la[1];
    cudaLaunchConfig_t cfg = config(threads, dyn, size, la);
    cfg.gridDim = dim3(blocks, 1, 1);
    CHECK(cudaLaunchKernelEx(&cfg, resident, d, 200000ULL));
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned long long> rec(3 * blocks);
    CHECK(cudaMemcpy(rec.data(), d, 3 * sizeof *d * blocks, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    long measured = coresident(rec, blocks, size);
    bool ok = measured == r.clusters;
    std::printf("%s co-residency: clusters of %2d, %4d threads, %6zu B dynamic: measured %ld, "
                "gpulint %lld\n",
                ok ? "ok  " : "FAIL", size, threads, dyn, measured, (long long)r.clusters);
    return ok;
}

// A grid of 3 blocks in clusters of 2: gpulint refuses it; so must the launch.
static bool uneven_grid(const gpu_arch *a, const layout &g)
{
    occ_result occ = {};
    occ.blocks_per_sm = 1;
    occ_cluster_launch cl = {{2, 1, 1}, false, {3, 1, 1}};
    occ_cluster_result r;
    occ_cluster_compute(a, g.gpcs, g.n, &occ, &cl, &r);
    unsigned long long *d = nullptr;
    CHECK(cudaMalloc(&d, 3 * sizeof *d * 4));
    cudaLaunchAttribute la[1];
    cudaLaunchConfig_t cfg = config(128, 0, 2, la);
    cfg.gridDim = dim3(3, 1, 1);
    cudaError_t e = cudaLaunchKernelEx(&cfg, resident, d, 1000ULL);
    cudaError_t s = cudaDeviceSynchronize();
    cudaGetLastError();
    CHECK(cudaFree(d));
    bool ok = r.failure == OCC_CLUSTER_GRID && (e != cudaSuccess || s != cudaSuccess);
    std::printf("%s grid of 3 in clusters of 2: launch %s, sync %s; gpulint: %s\n",
                ok ? "ok  " : "FAIL", cudaGetErrorName(e), cudaGetErrorName(s),
                occ_cluster_failure_reason(r.failure));
    return ok;
}

int main()
{
    model_db db;
    devquery_device dev;
    if (int rc = gpu_start(&db, &dev))
        return rc;
    if (dev.arch.cc_major < 9) {
        std::printf("skipped: no clusters before compute capability 9.0\n");
        return 77;
    }
    const gpu_arch *a = &dev.arch;
    const gpu_product *twin =
        model_find_twin(&db, dev.product.name, dev.arch.name, dev.product.sm_count);
    if (!twin || !twin->n_gpcs) {
        std::printf("FAIL: no bundled model with a GPC layout for %s\n0 passed, 1 failed\n",
                    dev.product.name);
        return 1;
    }
    layout g = {twin->gpc_sms, twin->n_gpcs};
    std::printf("GPC layout of models/gpu/%s.ini:", twin->id);
    for (int i = 0; i < g.n; i++)
        std::printf(" %d", g.gpcs[i]);
    std::printf("\n");
    tally t;
    for (const probe_kernel &pk : kernels)
        sweep_kernel(a, g, pk, t);
    std::printf("%ld configurations compared with cudaOccupancyMaxActiveClusters and "
                "cudaOccupancyMaxPotentialClusterSize, %ld mismatches\n",
                t.compared, t.mismatches);
    int passed = t.mismatches == 0 && t.compared > 0, failed = !passed;
    static const int sizes[] = {1, 2, 3, 4, 6, 8, 12, 16};
    for (int size : sizes) {
        bool a1 = residency(a, g, size, 128, 0), a2 = residency(a, g, size, 1024, 0),
             a3 = residency(a, g, size, 256, 120 * 1024);
        passed += a1 + a2 + a3;
        failed += !a1 + !a2 + !a3;
    }
    bool ug = uneven_grid(a, g);
    passed += ug;
    failed += !ug;
    model_db_free(&db);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
