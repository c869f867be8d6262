// bank_probe: reference kernels that each perform one shared-memory access
// pattern, so Nsight Compute can measure the wavefronts one warp's request
// needs and the result can be compared with gpulint's bank model
// (kernels/bank_probe.expected lists the model's predictions):
//
//   ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
//   smsp__inst_executed_op_shared_ld.sum,\
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
//   smsp__inst_executed_op_shared_st.sum ./bank_probe
//
// wavefronts per request = wavefronts.sum / inst_executed.sum for the op
// named in the .expected file. Each ld_* kernel issues exactly one probe
// load per warp (the fill before it is stores only); each st_* kernel issues
// exactly one probe store per warp (the read-back after it is a load). The
// transposes issue 4 loads and 4 stores per warp. Results go to global
// memory so the compiler cannot drop the accesses.
//
// `bank_probe --patterns kernels/bank_probe.measured` instead replays the
// recorded index patterns, one launch per data line, for the same metrics
// (ld only); the file's third column is what the H100 measured.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                          \
                    cudaGetErrorString(err_));                                                     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

// Element types by width: 32-bit, 64-bit and 128-bit shared accesses
// (LDS/STS, LDS.64/STS.64, LDS.128/STS.128 in SASS).
typedef unsigned int b32;
typedef unsigned long long b64;
typedef uint4 b128;

__device__ inline b32 make_val(b32, unsigned v)
{
    return v;
}
__device__ inline b64 make_val(b64, unsigned v)
{
    return 0x100000000ull * v + v;
}
__device__ inline b128 make_val(b128, unsigned v)
{
    return make_uint4(v, v + 1, v + 2, v + 3);
}
__device__ inline unsigned fold(b32 x)
{
    return x;
}
__device__ inline unsigned fold(b64 x)
{
    return (unsigned)x ^ (unsigned)(x >> 32);
}
__device__ inline unsigned fold(b128 x)
{
    return x.x ^ x.y ^ x.z ^ x.w;
}

// Elements a probe with stride S touches: lane 31 reaches 31 * S.
#define EXTENT(S) (31 * (S) + 1)

// One warp: fill the array with contiguous stores, then lane i loads
// element i * S once.
#define LD_KERNEL(name, T, S)                                                                      \
    extern "C" __global__ void name(unsigned *out, unsigned seed)                                  \
    {                                                                                              \
        __shared__ T s[EXTENT(S)];                                                                 \
        for (int k = threadIdx.x; k < EXTENT(S); k += 32)                                          \
            s[k] = make_val(T(), seed + k);                                                        \
        __syncthreads();                                                                           \
        T v = s[threadIdx.x * (S)];                                                                \
        out[threadIdx.x] = fold(v);                                                                \
    }

// One warp: lane i stores element i * S once, then the warp reads back
// contiguous elements so the stores are observable.
#define ST_KERNEL(name, T, S)                                                                      \
    extern "C" __global__ void name(unsigned *out, unsigned seed)                                  \
    {                                                                                              \
        __shared__ T s[EXTENT(S)];                                                                 \
        s[threadIdx.x * (S)] = make_val(T(), seed + threadIdx.x);                                  \
        __syncthreads();                                                                           \
        out[threadIdx.x] = fold(s[threadIdx.x]) ^ fold(s[31 * (S)-threadIdx.x * (S)]);             \
    }

LD_KERNEL(ld_b32_stride1, b32, 1)
LD_KERNEL(ld_b32_stride2, b32, 2)
LD_KERNEL(ld_b32_stride4, b32, 4)
LD_KERNEL(ld_b32_stride16, b32, 16)
LD_KERNEL(ld_b32_stride32, b32, 32)
LD_KERNEL(ld_b32_stride33, b32, 33)
LD_KERNEL(ld_b64_stride1, b64, 1)
LD_KERNEL(ld_b64_stride2, b64, 2)
LD_KERNEL(ld_b64_stride16, b64, 16)
LD_KERNEL(ld_b128_stride1, b128, 1)
LD_KERNEL(ld_b128_stride2, b128, 2)
LD_KERNEL(ld_b128_stride8, b128, 8)

ST_KERNEL(st_b32_stride1, b32, 1)
ST_KERNEL(st_b32_stride2, b32, 2)
ST_KERNEL(st_b32_stride4, b32, 4)
ST_KERNEL(st_b32_stride16, b32, 16)
ST_KERNEL(st_b32_stride32, b32, 32)
ST_KERNEL(st_b32_stride33, b32, 33)
ST_KERNEL(st_b64_stride1, b64, 1)
ST_KERNEL(st_b64_stride2, b64, 2)
ST_KERNEL(st_b64_stride16, b64, 16)
ST_KERNEL(st_b128_stride1, b128, 1)
ST_KERNEL(st_b128_stride2, b128, 2)
ST_KERNEL(st_b128_stride8, b128, 8)

// 8- and 16-byte loads whose lanes repeat addresses: lane l loads element
// IDX(l) of a 64-element array. `seed >> 31` is 0 at run time (seeds are
// small) but unknown to the compiler, so the address is never a constant it
// could turn into a uniform load.
#define PATTERN_KERNEL(name, T, IDX)                                                               \
    extern "C" __global__ void name(unsigned *out, unsigned seed)                                  \
    {                                                                                              \
        __shared__ T s[64];                                                                        \
        s[threadIdx.x] = make_val(T(), seed + threadIdx.x);                                        \
        s[threadIdx.x + 32] = make_val(T(), seed - threadIdx.x);                                   \
        __syncthreads();                                                                           \
        int l = threadIdx.x;                                                                       \
        T v = s[(IDX) + (seed >> 31)];                                                             \
        out[l] = fold(v);                                                                          \
    }

PATTERN_KERNEL(ld_b64_broadcast, b64, 0 * l)
PATTERN_KERNEL(ld_b64_halves_same, b64, l % 16)
PATTERN_KERNEL(ld_b64_pairs, b64, l / 2)
PATTERN_KERNEL(ld_b64_apart, b64, l < 16 ? l % 8 : 24 + l % 8)
PATTERN_KERNEL(ld_b64_mix, b64, l < 8 ? l : l < 16 ? 16 + l - 8 : 8 + (l - 16) % 8)
PATTERN_KERNEL(ld_b64_perm, b64, l < 16 ? l % 8 + 16 * (l / 8) : 8 + l % 8 + 16 * ((l - 16) / 8))
PATTERN_KERNEL(ld_b64_swapped, b64, l < 16 ? 8 + l / 2 : (l - 16) / 2)
PATTERN_KERNEL(ld_b128_broadcast, b128, 0 * l)
PATTERN_KERNEL(ld_b128_pairs, b128, l / 2)
PATTERN_KERNEL(ld_b128_fit, b128, 2 * (l / 8) + l % 2)
PATTERN_KERNEL(ld_b128_apart, b128, l / 8 % 2 == 0 ? l % 2 : 10 + l % 2)
PATTERN_KERNEL(ld_b128_quarters_same, b128, l % 8)
PATTERN_KERNEL(ld_b128_perm, b128, (l / 8 % 2) * 4 + (l / 16) * 16 + l % 4 + 8 * (l % 8 / 4))

// Every lane loads the same word: one wavefront, broadcast. The index is
// read from global memory so the compiler cannot hoist it to a constant.
extern "C" __global__ void ld_b32_broadcast(unsigned *out, unsigned seed)
{
    __shared__ b32 s[32];
    s[threadIdx.x] = seed + threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[out[32] & 31];
}

// 32x32 float tile transposes with a 32x8 block, each thread moving 4
// elements (rows threadIdx.y + 0, 8, 16, 24), as in NVIDIA's transpose
// sample: the tile is written by rows and read by columns.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_naive(float *odata, const float *idata)
{
    __shared__ float tile[TILE][TILE];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[y + j][x] = idata[(y + j) * TILE + x];
    __syncthreads();
    for (int j = 0; j < TILE; j += ROWS)
        odata[(y + j) * TILE + x] = tile[x][y + j]; // column read: 32-way
}

extern "C" __global__ void transpose_padded(float *odata, const float *idata)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[y + j][x] = idata[(y + j) * TILE + x];
    __syncthreads();
    for (int j = 0; j < TILE; j += ROWS)
        odata[(y + j) * TILE + x] = tile[x][y + j]; // row stride 33 words: conflict-free
}

// Element (r, c) lives at tile[r][c ^ r]: rows and columns both spread over
// all 32 banks without padding.
extern "C" __global__ void transpose_xor(float *odata, const float *idata)
{
    __shared__ float tile[TILE][TILE];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[y + j][x ^ (y + j)] = idata[(y + j) * TILE + x];
    __syncthreads();
    for (int j = 0; j < TILE; j += ROWS)
        odata[(y + j) * TILE + x] = tile[x][(y + j) ^ x];
}

// One warp request with the element index of each lane from global memory
// (idx[32], -1 = lane inactive): replays kernels/bank_probe.measured.
#define INDEXED_KERNEL(name, T, N)                                                                 \
    extern "C" __global__ void name(const int *idx, unsigned *out)                                 \
    {                                                                                              \
        __shared__ T s[N];                                                                         \
        for (int k = threadIdx.x; k < (N); k += 32)                                                \
            s[k] = make_val(T(), 3u * k);                                                          \
        __syncthreads();                                                                           \
        int e = idx[threadIdx.x];                                                                  \
        if (e >= 0)                                                                                \
            out[threadIdx.x] = fold(s[e]);                                                         \
    }

INDEXED_KERNEL(ld_b32_indexed, b32, 512)
INDEXED_KERNEL(ld_b64_indexed, b64, 256)
INDEXED_KERNEL(ld_b128_indexed, b128, 128)

// bank_probe --patterns FILE: one launch per line of bank_probe.measured
// ("width active wavefronts idx[0..31]"), in file order, so ncu's launch IDs
// line up with the file's data lines.
static int replay(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 1;
    }
    int *idx;
    unsigned *out;
    CHECK(cudaMalloc(&idx, 32 * sizeof(int)));
    CHECK(cudaMalloc(&out, 32 * sizeof(unsigned)));
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        int width, want, used, h[32];
        unsigned mask;
        char *p = line;
        if (sscanf(p, "%d %x %d%n", &width, &mask, &want, &used) != 3)
            break;
        p += used;
        for (int l = 0; l < 32; l++) {
            if (sscanf(p, "%d%n", &h[l], &used) != 1) {
                fprintf(stderr, "%s: bad line %d\n", path, n + 1);
                return 1;
            }
            p += used;
            if (!(mask >> l & 1))
                h[l] = -1;
        }
        CHECK(cudaMemcpy(idx, h, sizeof h, cudaMemcpyHostToDevice));
        if (width == 4)
            ld_b32_indexed<<<1, 32>>>(idx, out);
        else if (width == 8)
            ld_b64_indexed<<<1, 32>>>(idx, out);
        else
            ld_b128_indexed<<<1, 32>>>(idx, out);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        n++;
    }
    fclose(f);
    printf("bank_probe: %d patterns replayed\n", n);
    return 0;
}

typedef void (*probe_fn)(unsigned *, unsigned);

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--patterns") == 0)
        return replay(argv[2]);
    static const struct {
        const char *name;
        probe_fn fn;
    } probes[] = {
        {"ld_b32_stride1", ld_b32_stride1},
        {"ld_b32_stride2", ld_b32_stride2},
        {"ld_b32_stride4", ld_b32_stride4},
        {"ld_b32_stride16", ld_b32_stride16},
        {"ld_b32_stride32", ld_b32_stride32},
        {"ld_b32_stride33", ld_b32_stride33},
        {"ld_b64_stride1", ld_b64_stride1},
        {"ld_b64_stride2", ld_b64_stride2},
        {"ld_b64_stride16", ld_b64_stride16},
        {"ld_b128_stride1", ld_b128_stride1},
        {"ld_b128_stride2", ld_b128_stride2},
        {"ld_b128_stride8", ld_b128_stride8},
        {"st_b32_stride1", st_b32_stride1},
        {"st_b32_stride2", st_b32_stride2},
        {"st_b32_stride4", st_b32_stride4},
        {"st_b32_stride16", st_b32_stride16},
        {"st_b32_stride32", st_b32_stride32},
        {"st_b32_stride33", st_b32_stride33},
        {"st_b64_stride1", st_b64_stride1},
        {"st_b64_stride2", st_b64_stride2},
        {"st_b64_stride16", st_b64_stride16},
        {"st_b128_stride1", st_b128_stride1},
        {"st_b128_stride2", st_b128_stride2},
        {"st_b128_stride8", st_b128_stride8},
        {"ld_b32_broadcast", ld_b32_broadcast},
        {"ld_b64_broadcast", ld_b64_broadcast},
        {"ld_b64_halves_same", ld_b64_halves_same},
        {"ld_b64_pairs", ld_b64_pairs},
        {"ld_b64_apart", ld_b64_apart},
        {"ld_b64_mix", ld_b64_mix},
        {"ld_b64_perm", ld_b64_perm},
        {"ld_b128_broadcast", ld_b128_broadcast},
        {"ld_b128_pairs", ld_b128_pairs},
        {"ld_b128_fit", ld_b128_fit},
        {"ld_b128_quarters_same", ld_b128_quarters_same},
        {"ld_b128_perm", ld_b128_perm},
        {"ld_b64_swapped", ld_b64_swapped},
        {"ld_b128_apart", ld_b128_apart},
    };
    unsigned *out;
    CHECK(cudaMalloc(&out, 64 * sizeof(unsigned)));
    CHECK(cudaMemset(out, 0, 64 * sizeof(unsigned)));
    unsigned check = 0, host[32];
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        probes[i].fn<<<1, 32>>>(out, 7u * (unsigned)i);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
        for (int l = 0; l < 32; l++)
            check += host[l];
    }

    float *in, *tr;
    CHECK(cudaMalloc(&in, TILE * TILE * sizeof(float)));
    CHECK(cudaMalloc(&tr, TILE * TILE * sizeof(float)));
    float h[TILE * TILE];
    for (int i = 0; i < TILE * TILE; i++)
        h[i] = (float)i;
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    static const struct {
        const char *name;
        void (*fn)(float *, const float *);
    } transposes[] = {
        {"transpose_naive", transpose_naive},
        {"transpose_padded", transpose_padded},
        {"transpose_xor", transpose_xor},
    };
    int bad = 0;
    for (size_t t = 0; t < sizeof transposes / sizeof transposes[0]; t++) {
        transposes[t].fn<<<1, dim3(TILE, ROWS)>>>(tr, in);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h, tr, sizeof h, cudaMemcpyDeviceToHost));
        for (int r = 0; r < TILE; r++)
            for (int c = 0; c < TILE; c++)
                if (h[r * TILE + c] != (float)(c * TILE + r))
                    bad++;
        if (bad) {
            fprintf(stderr, "%s: wrong transpose\n", transposes[t].name);
            return 1;
        }
    }
    CHECK(cudaDeviceSynchronize());
    printf("bank_probe: %zu probes and 3 transposes ran (checksum %u)\n",
           sizeof probes / sizeof probes[0], check);
    CHECK(cudaFree(out));
    CHECK(cudaFree(in));
    CHECK(cudaFree(tr));
    return 0;
}
