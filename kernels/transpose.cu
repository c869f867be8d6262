// transpose.cu: the transpose ladder (`gpulint verify --ladder transpose`).
//
// out = in^T for a TR_N x TR_N float matrix (256 MB each way). Blocks of
// 32 x 8 threads move a 32 x 32 tile, each thread four rows of it. Steps:
//   tr_copy      the same tiles copied without transposing: the ceiling a
//                transpose can reach (both sides coalesced)
//   tr_naive     reads rows, writes columns: each warp's store touches 32
//                sectors for 128 useful bytes
//   tr_tile      through a 32 x 32 shared tile: both global sides
//                coalesced, but the column read of the tile is a 32-way bank
//                conflict
//   tr_padded    the tile padded to 33 columns: conflict-free
//   tr_swizzled  an unpadded tile with the column index XOR-ed with the row:
//                conflict-free without the extra 128 bytes
#include "verify.h"

#define TILE 32
#define ROWS 8

extern "C" __global__ void tr_copy(const float *in, float *out)
{
    const int x = blockIdx.x * TILE + threadIdx.x;
    const int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * TR_N + x] = in[(y + j) * TR_N + x];
}

extern "C" __global__ void tr_naive(const float *in, float *out)
{
    const int x = blockIdx.x * TILE + threadIdx.x;
    const int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[x * TR_N + (y + j)] = in[(y + j) * TR_N + x];
}

extern "C" __global__ void tr_tile(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * TR_N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * TR_N + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void tr_padded(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * TR_N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * TR_N + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void tr_swizzled(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x ^ (threadIdx.y + j)] = in[(y + j) * TR_N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * TR_N + x] = tile[threadIdx.x][(threadIdx.y + j) ^ threadIdx.x];
}

void transpose_launches(const float *in, float *out)
{
    tr_copy<<<dim3(TR_N / TILE, TR_N / TILE), dim3(TILE, ROWS)>>>(in, out);
    tr_naive<<<dim3(TR_N / TILE, TR_N / TILE), dim3(TILE, ROWS)>>>(in, out);
    tr_tile<<<dim3(TR_N / TILE, TR_N / TILE), dim3(TILE, ROWS)>>>(in, out);
    tr_padded<<<dim3(TR_N / TILE, TR_N / TILE), dim3(TILE, ROWS)>>>(in, out);
    tr_swizzled<<<dim3(TR_N / TILE, TR_N / TILE), dim3(TILE, ROWS)>>>(in, out);
}
