// gpu_occupancy: the occupancy engine against the CUDA runtime on a real
// GPU. Kernels with a spread of register counts, static shared memory and
// named barriers are compiled into this file; for each one the runtime's
// cudaOccupancyMaxActiveBlocksPerMultiprocessor is asked for every block size,
// several dynamic shared-memory sizes and carveout preferences, and gpulint's
// occ_compute must give the same block count. The bundled model of the
// device's compute capability is also compared with cudaDeviceProp.
// Without a GPU it prints "skipped: no GPU" and exits 77 (meson's SKIP).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
#include "analysis/occupancy/occ.h"
}

#include "gpu_common.h"

struct probe_kernel {
    const char *name;
    const void *fn;
    int barriers;
};

#define PROBE(nacc, smem, bars)                                                                    \
    {                                                                                              \
        "probe<" #nacc "," #smem "," #bars ">", (const void *)probe<nacc, smem, bars>, bars        \
    }

static const probe_kernel kernels[] = {
    PROBE(1, 0, 0),      PROBE(4, 0, 0),      PROBE(8, 0, 0),     PROBE(16, 0, 0),
    PROBE(24, 0, 0),     PROBE(32, 0, 0),     PROBE(48, 0, 0),    PROBE(64, 0, 0),
    PROBE(96, 0, 0),     PROBE(128, 0, 0),    PROBE(8, 1024, 1),  PROBE(8, 4000, 1),
    PROBE(16, 12288, 1), PROBE(32, 20000, 1), PROBE(8, 40000, 1), PROBE(64, 48000, 1),
    PROBE(8, 0, 4),      PROBE(8, 1024, 8),   PROBE(16, 0, 16),   PROBE(40, 8192, 12),
};

struct tally {
    long compared = 0, mismatches = 0;
};

static int engine_blocks(const gpu_arch *a, int regs, size_t static_smem, int barriers, int threads,
                         size_t dyn, int carveout, bool optin, size_t max_dyn)
{
    occ_kernel k = {regs, (int64_t)static_smem, barriers};
    occ_launch l = {threads, (int64_t)dyn, carveout, optin, (int64_t)max_dyn};
    occ_result r;
    occ_compute(a, &k, &l, &r);
    return r.blocks_per_sm;
}

static void sweep_kernel(const gpu_arch *a, const probe_kernel &pk, tally &t, FILE *log)
{
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, pk.fn));
    static const int carveouts[] = {-1, 0, 10, 25, 50, 75, 100};
    size_t optin_room = (size_t)a->smem_per_block_optin - attr.sharedSizeBytes;
    size_t dyns[] = {0,      1,         1024, 8192, 20000, 40000, 49152 - attr.sharedSizeBytes,
                     100000, optin_room};
    for (int c : carveouts) {
        CHECK(cudaFuncSetAttribute(pk.fn, cudaFuncAttributePreferredSharedMemoryCarveout,
                                   c < 0 ? cudaSharedmemCarveoutDefault : c));
        for (int optin = 0; optin < 2; optin++) {
            size_t max_dyn = optin ? optin_room : 49152 - attr.sharedSizeBytes;
            CHECK(cudaFuncSetAttribute(pk.fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)max_dyn));
            for (size_t dyn : dyns) {
                if (dyn > max_dyn)
                    continue;
                for (int threads = 1; threads <= attr.maxThreadsPerBlock; threads++) {
                    int want = 0;
                    CHECK(
                        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&want, pk.fn, threads, dyn));
                    // The runtime treats the 48 KiB default as "no opt-in"; so
                    // does cuda_occupancy.h (FUNC_SHMEM_LIMIT_DEFAULT).
                    int got = engine_blocks(a, attr.numRegs, attr.sharedSizeBytes, pk.barriers,
                                            threads, dyn, c, optin != 0, max_dyn);
                    t.compared++;
                    if (want != got && t.mismatches++ < 20)
                        std::fprintf(log,
                                     "MISMATCH %s regs=%d smem=%zu bars=%d threads=%d dyn=%zu "
                                     "carveout=%d optin=%d: runtime %d, gpulint %d\n",
                                     pk.name, attr.numRegs, attr.sharedSizeBytes, pk.barriers,
                                     threads, dyn, c, optin, want, got);
                }
            }
        }
    }
    std::fprintf(log, "%-20s regs=%3d static_smem=%6zu barriers=%2d max_threads=%4d\n", pk.name,
                 attr.numRegs, attr.sharedSizeBytes, pk.barriers, attr.maxThreadsPerBlock);
}

// The bundled model must describe the device the runtime reports.
static long compare_model(const gpu_arch *model, const gpu_arch *live, FILE *log)
{
    long bad = 0;
#define SAME(field)                                                                                \
    if ((long long)model->field != (long long)live->field) {                                       \
        std::fprintf(log, "MODEL %s: %s is %lld in models/, %lld on the device\n", model->name,    \
                     #field, (long long)model->field, (long long)live->field);                     \
        bad++;                                                                                     \
    }
    SAME(warp_size)
    SAME(max_threads_per_block)
    SAME(max_threads_per_sm)
    SAME(max_blocks_per_sm)
    SAME(regs_per_sm)
    SAME(regs_per_block)
    SAME(smem_per_sm)
    SAME(smem_per_block)
    SAME(smem_per_block_optin)
    SAME(smem_reserved_per_block)
    for (int i = 0; i < 3; i++) {
        SAME(max_block_dim[i])
        SAME(max_grid_dim[i])
    }
#undef SAME
    return bad;
}

int main()
{
    model_db db;
    devquery_device dev;
    if (int rc = gpu_start(&db, &dev))
        return rc;
    const gpu_arch *model = model_find_cc(&db, dev.arch.cc_major, dev.arch.cc_minor);
    if (!model) {
        std::printf("FAIL: no bundled model for cc %d.%d\n", dev.arch.cc_major, dev.arch.cc_minor);
        return 1;
    }
    long model_bad = compare_model(model, &dev.arch, stdout);
    tally t;
    for (const probe_kernel &pk : kernels)
        sweep_kernel(model, pk, t, stdout);
    std::printf("%ld configurations compared with cudaOccupancyMaxActiveBlocksPerMultiprocessor, "
                "%ld mismatches; %ld model fields differ from cudaDeviceProp\n",
                t.compared, t.mismatches, model_bad);
    model_db_free(&db);
    if (t.mismatches || model_bad || t.compared == 0) {
        std::printf("0 passed, 1 failed\n");
        return 1;
    }
    std::printf("1 passed, 0 failed\n");
    return 0;
}
