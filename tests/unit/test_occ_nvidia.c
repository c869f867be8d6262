/* test_occ_nvidia: the occupancy engine against NVIDIA's own calculator,
 * cuda_occupancy.h from the installed toolkit, for every bundled compute
 * capability the header knows. The header is included, never copied. Each
 * arch model supplies the device properties to both sides, so this checks the
 * engine's rules and the model's allocation constants together. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_occupancy.h>

#include "analysis/occupancy/occ.h"
#include "config.h"
#include "model/model_load.h"

typedef struct sweep {
    const gpu_arch *arch;
    cudaOccDeviceProp prop;
    long compared;
    long mismatches;
    FILE *dump; /* GPULINT_SWEEP_DUMP: every DUMP_EVERY-th case as a web request */
} sweep;

/* The web page's test (tests/web/compare_wasm.py) replays a sample of the
 * sweep through the WebAssembly build against the header's answers. */
#define DUMP_EVERY 101

static unsigned header_limiters(unsigned f)
{
    unsigned out = 0;
    if (f & OCC_LIMIT_WARPS)
        out |= OCC_LIM_WARPS;
    if (f & OCC_LIMIT_REGISTERS)
        out |= OCC_LIM_REGISTERS;
    if (f & OCC_LIMIT_SHARED_MEMORY)
        out |= OCC_LIM_SMEM;
    if (f & OCC_LIMIT_BLOCKS)
        out |= OCC_LIM_BLOCKS;
    if (f & OCC_LIMIT_BARRIERS)
        out |= OCC_LIM_BARRIERS;
    return out;
}

static void compare(sweep *s, int threads, int regs, size_t static_smem, size_t dyn, int carveout,
                    int barriers, int optin_max)
{
    cudaOccFuncAttributes attr;
    memset(&attr, 0, sizeof attr);
    attr.maxThreadsPerBlock = 1024;
    attr.numRegs = regs;
    attr.sharedSizeBytes = static_smem;
    attr.partitionedGCConfig = PARTITIONED_GC_OFF;
    attr.shmemLimitConfig = optin_max >= 0 ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
    attr.maxDynamicSharedSizeBytes = optin_max >= 0 ? (size_t)optin_max : 0;
    attr.numBlockBarriers = barriers;
    cudaOccDeviceState state;
    memset(&state, 0, sizeof state);
    state.cacheConfig = CACHE_PREFER_NONE;
    state.carveoutConfig = carveout;
    cudaOccResult want;
    memset(&want, 0, sizeof want);
    cudaOccError e =
        cudaOccMaxActiveBlocksPerMultiprocessor(&want, &s->prop, &attr, &state, threads, dyn);

    occ_kernel k = {
        .regs_per_thread = regs, .static_smem = (int64_t)static_smem, .barriers = barriers};
    occ_launch l = {.threads_per_block = threads,
                    .dynamic_smem = (int64_t)dyn,
                    .carveout_percent = carveout,
                    .smem_optin = optin_max >= 0,
                    .max_dynamic_smem = optin_max};
    occ_result got;
    occ_compute(s->arch, &k, &l, &got);
    if (s->dump && s->compared % DUMP_EVERY == 0) {
        fprintf(s->dump, "cmd=occupancy&arch=%s&threads=%d&regs=%d&smem=%zu&dynamic-smem=%zu",
                s->arch->name, threads, regs, static_smem, dyn);
        if (carveout >= 0)
            fprintf(s->dump, "&carveout=%d", carveout);
        if (optin_max >= 0)
            fprintf(s->dump, "&max-dynamic-smem=%d", optin_max);
        fprintf(s->dump, "&barriers=%d&curves=no\t%d\n", barriers,
                e == CUDA_OCC_SUCCESS ? want.activeBlocksPerMultiprocessor : 0);
    }
    s->compared++;

    /* Header quirk: when the barrier pool alone binds, cuda_occupancy.h
     * still sets the bits of the (larger) limits computed before it. Only
     * the barriers limit then; that is what gpulint reports. */
    unsigned want_limiters = header_limiters(want.limitingFactors);
    if ((want.limitingFactors & OCC_LIMIT_BARRIERS) &&
        want.blockLimitBarriers < want.blockLimitRegs &&
        want.blockLimitBarriers < want.blockLimitWarps &&
        want.blockLimitBarriers < want.blockLimitBlocks &&
        want.blockLimitBarriers < want.blockLimitSharedMem)
        want_limiters = OCC_LIM_BARRIERS;
    bool same;
    if (e != CUDA_OCC_SUCCESS)
        same = got.blocks_per_sm == 0;
    else
        same = got.blocks_per_sm == want.activeBlocksPerMultiprocessor &&
               (want.activeBlocksPerMultiprocessor == 0 || got.limiters == want_limiters) &&
               got.limit_registers == want.blockLimitRegs &&
               got.limit_warps == want.blockLimitWarps &&
               got.limit_blocks == want.blockLimitBlocks &&
               (got.limit_smem == want.blockLimitSharedMem || want.blockLimitSharedMem == 0) &&
               got.regs_per_block_allocated == want.allocatedRegistersPerBlock &&
               (size_t)got.smem_per_block_allocated == want.allocatedSharedMemPerBlock;
    if (!same && s->mismatches++ < 10)
        fprintf(stderr,
                "%s: threads=%d regs=%d static=%zu dyn=%zu carveout=%d barriers=%d optin=%d: "
                "header err=%d blocks=%d (regs %d smem %d warps %d lim %x) gpulint blocks=%d "
                "(regs %d smem %d warps %d lim %x)\n",
                s->arch->name, threads, regs, static_smem, dyn, carveout, barriers, optin_max, e,
                want.activeBlocksPerMultiprocessor, want.blockLimitRegs, want.blockLimitSharedMem,
                want.blockLimitWarps, header_limiters(want.limitingFactors), got.blocks_per_sm,
                got.limit_registers, got.limit_smem, got.limit_warps, got.limiters);
}

static cudaOccDeviceProp props_from(const gpu_arch *a)
{
    cudaOccDeviceProp p;
    memset(&p, 0, sizeof p);
    p.computeMajor = a->cc_major;
    p.computeMinor = a->cc_minor;
    p.maxThreadsPerBlock = a->max_threads_per_block;
    p.maxThreadsPerMultiprocessor = a->max_threads_per_sm;
    p.regsPerBlock = a->regs_per_block;
    p.regsPerMultiprocessor = a->regs_per_sm;
    p.warpSize = a->warp_size;
    p.sharedMemPerBlock = (size_t)a->smem_per_block;
    p.sharedMemPerMultiprocessor = (size_t)a->smem_per_sm;
    p.numSms = 1;
    p.sharedMemPerBlockOptin = (size_t)a->smem_per_block_optin;
    p.reservedSharedMemPerBlock = (size_t)a->smem_reserved_per_block;
    return p;
}

/* The smoke level (GPULINT_SWEEP=quick, used under sanitizers) strides the
 * big loops; the default covers every block size and register count. */
static int stride(void)
{
    const char *q = getenv("GPULINT_SWEEP");
    return q && strcmp(q, "quick") == 0 ? 7 : 1;
}

static void sweep_arch(sweep *s)
{
    const gpu_arch *a = s->arch;
    int st = stride();
    /* Every block size x every register count, no shared memory. */
    for (int t = 1; t <= 1024; t += st)
        for (int r = 0; r <= 255; r++)
            compare(s, t, r, 0, 0, -1, 1, -1);
    /* Shared memory across the whole range, static and dynamic, default and
     * opt-in limits, at a spread of block shapes and register counts. */
    int64_t top = a->smem_per_block_optin + 512;
    static const int threads[] = {32, 33, 64, 96, 128, 192, 256, 384, 512, 640, 1024};
    static const int regs[] = {0, 16, 32, 40, 64, 128, 255};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++)
        for (size_t j = 0; j < sizeof regs / sizeof regs[0]; j++)
            for (int64_t b = 0; b <= top; b += 13 * st) {
                compare(s, threads[i], regs[j], (size_t)b, 0, -1, 1, -1);
                compare(s, threads[i], regs[j], 100, (size_t)b, -1, 1, -1);
                compare(s, threads[i], regs[j], 0, (size_t)b, -1, 1, (int)a->smem_per_block_optin);
                compare(s, threads[i], regs[j], 0, (size_t)b, -1, 1, (int)(b / 2));
            }
    /* Every byte of dynamic shared memory for one common shape. */
    for (int64_t b = 0; b <= top; b += st)
        compare(s, 128, 32, 0, (size_t)b, -1, 1, (int)a->smem_per_block_optin);
    /* Every carveout preference. */
    for (int pct = -1; pct <= 100; pct++)
        for (int64_t b = 0; b <= top; b += 509 * st)
            for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++)
                compare(s, threads[i], 32, 0, (size_t)b, pct, 1, (int)a->smem_per_block_optin);
    /* Block barriers (Hopper and later pool them per SM). */
    for (int bars = 0; bars <= 16; bars++)
        for (int t = 32; t <= 1024; t += 32)
            for (int r = 0; r <= 255; r += 17)
                compare(s, t, r, 0, 0, -1, bars, -1);
}

static void test_every_cc_matches_cuda_occupancy_h(void **state)
{
    (void)state;
    model_db db;
    model_load_error err = {0};
    if (!model_db_load(model_default_dir(), &db, &err))
        fail_msg("%s:%d: %s", err.path, err.err.line, err.err.message);
    /* cc 5.0 to 12.1 as NVIDIA shipped them: every one must be modelled. */
    assert_true(db.n_archs >= 19);
    long total = 0, bad = 0;
    int archs = 0;
    const char *dump_path = getenv("GPULINT_SWEEP_DUMP");
    FILE *dump = dump_path ? fopen(dump_path, "w") : NULL;
    if (dump_path && !dump)
        fail_msg("cannot write %s", dump_path);
    for (size_t i = 0; i < db.n_archs; i++) {
        sweep s = {.arch = &db.archs[i], .prop = props_from(&db.archs[i]), .dump = dump};
        int probe;
        if (cudaOccMaxBlocksPerMultiprocessor(&probe, &s.prop) != CUDA_OCC_SUCCESS) {
            fprintf(stderr, "%s: not known to cuda_occupancy.h; skipped\n", db.archs[i].name);
            continue;
        }
        sweep_arch(&s);
        fprintf(stderr, "%s: %ld configurations, %ld mismatches\n", db.archs[i].name, s.compared,
                s.mismatches);
        total += s.compared;
        bad += s.mismatches;
        archs++;
    }
    model_db_free(&db);
    if (dump)
        fclose(dump);
    assert_int_equal(archs, 19);
    assert_true(total > 1000000);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_cc_matches_cuda_occupancy_h),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
