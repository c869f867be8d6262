// coalescing.cu: global-memory access probes for `gpulint verify --check coalescing`.
//
// What it isolates: the 32-byte sectors one warp-wide global load moves,
// for strided, misaligned, vector, array-of-structs and column accesses.
// gpulint predicts sectors per request from the source. Without counters
// the hardware's answer is read from DRAM traffic: every kernel reads a
// 2 GiB buffer (COAL_BYTES, 40x an H100's L2) so that each sector it
// requests comes from DRAM exactly once, verify sets the L2 fetch
// granularity to 32 bytes (cudaLimitMaxL2FetchGranularity: no neighbouring
// sector is fetched along), and time x bandwidth = bytes moved. The
// bandwidth is calibrated on the same run with patterns whose sector counts
// are not in doubt: a contiguous float read (4 sectors per request) and one
// sector per lane (32). Sectors per request = bytes / 32 / requests.
//
// Why it is built this way:
//   - warp w reads slot w, w + COAL_WARPS, ...: slots are laid end to end,
//     so the sectors a pattern touches are dense in memory and DRAM serves
//     them as efficiently as a copy (the "dense" class);
//   - a pattern that touches one sector per 128-byte line (a column read)
//     leaves the line's other sectors unread, which DRAM serves less
//     efficiently: those rows are timed against a calibration pattern of the
//     same shape (the "sparse" class);
//   - the misaligned read's slots are 160 bytes apart, so the fifth sector a
//     request touches is not shared with the next request (in DRAM it would
//     be read once for both, hiding the extra sector). Its requests also
//     span two 128-byte lines for five sectors (the calibration patterns:
//     one line per four sectors), and the L2's work per line adds time that
//     is not sectors: its time bounds the sectors from above (measured on an
//     H100 at 5.4 sector-times, on an H200 at 5.8), and Nsight Compute's
//     sector counter, where allowed, reads it exactly.
#include "verify.h"

#define COAL_PROLOGUE                                                                              \
    const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;                \
    const int lane = threadIdx.x % 32;                                                             \
    float acc = 0.0f
#define COAL_EPILOGUE                                                                              \
    if (acc == -1.0f)                                                                              \
    sink[0] = acc

// Slots of 32 x S floats: lane i reads element i x S.
#define COAL_F32_STRIDE(S)                                                                         \
    extern "C" __global__ void coal_f32_stride##S(const float *in, float *sink)                    \
    {                                                                                              \
        COAL_PROLOGUE;                                                                             \
        for (long long slot = warp; slot < COAL_BYTES / (128 * S); slot += COAL_WARPS)             \
            acc += in[slot * 32 * S + lane * S];                                                   \
        COAL_EPILOGUE;                                                                             \
    }

COAL_F32_STRIDE(1) // 4 sectors: the ideal
COAL_F32_STRIDE(2) // 8
COAL_F32_STRIDE(3) // 12
COAL_F32_STRIDE(4) // 16
COAL_F32_STRIDE(8) // 32: every lane its own sector

// Misaligned by one float: 5 sectors instead of 4.
extern "C" __global__ void coal_f32_misaligned(const float *in, float *sink)
{
    COAL_PROLOGUE;
    for (long long slot = warp; slot < COAL_BYTES / 160 - 1; slot += COAL_WARPS)
        acc += in[slot * 40 + 1 + lane];
    COAL_EPILOGUE;
}

// Vector loads: float2 (8 sectors) and float4 (16), both ideal for their width.
extern "C" __global__ void coal_f64_vector(const float2 *in, float *sink)
{
    COAL_PROLOGUE;
    for (long long slot = warp; slot < COAL_BYTES / 256; slot += COAL_WARPS) {
        const float2 v = in[slot * 32 + lane];
        acc += v.x + v.y;
    }
    COAL_EPILOGUE;
}

extern "C" __global__ void coal_f128_vector(const float4 *in, float *sink)
{
    COAL_PROLOGUE;
    for (long long slot = warp; slot < COAL_BYTES / 512; slot += COAL_WARPS) {
        const float4 v = in[slot * 32 + lane];
        acc += v.x + v.y + v.z + v.w;
    }
    COAL_EPILOGUE;
}

// float4 with a stride of two: 32 sectors, half of each unused.
extern "C" __global__ void coal_f128_stride2(const float4 *in, float *sink)
{
    COAL_PROLOGUE;
    for (long long slot = warp; slot < COAL_BYTES / 1024; slot += COAL_WARPS) {
        const float4 v = in[slot * 64 + lane * 2];
        acc += v.x + v.y + v.z + v.w;
    }
    COAL_EPILOGUE;
}

// Array of structs: one field of a 12-byte struct, 12 sectors per request.
struct particle {
    float x, y, z;
};

extern "C" __global__ void coal_aos_field(const particle *in, float *sink)
{
    COAL_PROLOGUE;
    for (long long slot = warp; slot < COAL_BYTES / 384; slot += COAL_WARPS)
        acc += in[slot * 32 + lane].x;
    COAL_EPILOGUE;
}

// The struct of arrays that fixes it: the x array read contiguously.
extern "C" __global__ void coal_soa_field(const float *x, float *sink)
{
    COAL_PROLOGUE;
    for (long long slot = warp; slot < COAL_BYTES / 384; slot += COAL_WARPS)
        acc += x[slot * 32 + lane];
    COAL_EPILOGUE;
}

// ---- sparse: one sector per 128-byte line ---------------------------------
// Calibration: lane i reads float i x 32, one sector in each of 32 lines.
extern "C" __global__ void coal_sparse_stride32(const float *in, float *sink)
{
    COAL_PROLOGUE;
    for (long long slot = warp; slot < COAL_BYTES / 4096; slot += COAL_WARPS)
        acc += in[slot * 1024 + lane * 32];
    COAL_EPILOGUE;
}

// A column of a row-major matrix of 8192-float rows: lane i reads row i.
// Each warp reads 32 rows of one column; the next warp the next 32 rows.
extern "C" __global__ void coal_column(const float *in, float *sink)
{
    COAL_PROLOGUE;
    for (long long slot = warp; slot < COAL_BYTES / (4 * 8192 * 32) * 256; slot += COAL_WARPS)
        acc += in[((slot / 256) * 32 + lane) * 8192 + (slot % 256) * 32];
    COAL_EPILOGUE;
}

void coalescing_launches(const float *f, const float2 *f2, const float4 *f4, const particle *p,
                         float *s)
{
    coal_f32_stride1<<<COAL_BLOCKS, COAL_THREADS>>>(f, s);
    coal_f32_stride2<<<COAL_BLOCKS, COAL_THREADS>>>(f, s);
    coal_f32_stride3<<<COAL_BLOCKS, COAL_THREADS>>>(f, s);
    coal_f32_stride4<<<COAL_BLOCKS, COAL_THREADS>>>(f, s);
    coal_f32_stride8<<<COAL_BLOCKS, COAL_THREADS>>>(f, s);
    coal_f32_misaligned<<<COAL_BLOCKS, COAL_THREADS>>>(f, s);
    coal_f64_vector<<<COAL_BLOCKS, COAL_THREADS>>>(f2, s);
    coal_f128_vector<<<COAL_BLOCKS, COAL_THREADS>>>(f4, s);
    coal_f128_stride2<<<COAL_BLOCKS, COAL_THREADS>>>(f4, s);
    coal_aos_field<<<COAL_BLOCKS, COAL_THREADS>>>(p, s);
    coal_soa_field<<<COAL_BLOCKS, COAL_THREADS>>>(f, s);
    coal_sparse_stride32<<<COAL_BLOCKS, COAL_THREADS>>>(f, s);
    coal_column<<<COAL_BLOCKS, COAL_THREADS>>>(f, s);
}
